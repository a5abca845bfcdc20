-- tests/lua/support.lua - helpers the specs share:
--   local support = require "tests.lua.support"

local M = {}

-- A string quoted for sh.
function M.sh_quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

-- The kontor binary the specs drive: $KONTOR, the running binary, or the
-- plain build.
function M.binary()
  local b = os.getenv("KONTOR")
  if b and b ~= "" then return b end
  local self = arg and arg[-1]
  if self and self:match("kontor$") then return self end
  return "build/kontor"
end

function M.write(path, text)
  local f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
  return path
end

function M.read(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("a")
  f:close()
  return s
end

-- A scratch folder made on first use: returns tmp(name) -> a path in it,
-- and cleanup() that removes it (for busted's teardown).
function M.scratch()
  local dir
  local function tmp(name)
    if not dir then
      dir = os.tmpname()
      os.remove(dir)
      assert(os.execute("mkdir -m 700 " .. M.sh_quote(dir)))
    end
    return dir .. "/" .. name
  end
  local function cleanup()
    if dir then os.execute("rm -rf " .. M.sh_quote(dir)) end
    dir = nil
  end
  return tmp, cleanup
end

return M
