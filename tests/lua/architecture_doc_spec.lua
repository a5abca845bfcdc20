-- architecture_doc_spec.lua - docs/architecture.md names every module of
-- the code: each Lua file of the engine and the program, each C file of
-- the core, the binding and the engine's C.
-- Run: build/kontor run tests/busted.lua tests/lua/architecture_doc_spec.lua
local support = require "tests.lua.support"

local function files(pattern)
  local out = {}
  local p = assert(io.popen("ls " .. pattern .. " 2>/dev/null"))
  for line in p:lines() do out[#out + 1] = line end
  p:close()
  return out
end

describe("docs/architecture.md", function()
  local doc = support.read("docs/architecture.md")

  it("names every module of the code", function()
    local missing = {}
    for _, pattern in ipairs { "lua/kontor/*.lua", "lua/kontor/game/*.lua", "lua/kontor/bots/*.lua",
                               "lua/kontor/balance/*.lua", "repl/*.lua", "repl/*.c", "lua/*.c",
                               "lua/engine/*.c", "core/*.c" } do
      local found = files(pattern)
      assert.is_true(#found > 0, pattern)
      for _, path in ipairs(found) do
        local name = path:match("[^/]+$")
        local stem = name:gsub("%.%a+$", "")
        -- named by its path, by its file name, or (the balance lab's) by its stem in the list
        if not (doc:find(path, 1, true) or doc:find(name, 1, true)
                or (path:match("^lua/kontor/balance/") and doc:find(stem, 1, true))) then
          missing[#missing + 1] = path
        end
      end
    end
    assert.are.same({}, missing)
  end)
end)
