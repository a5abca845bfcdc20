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

-- Raises unless fn() fails with `message` in its error.
function M.fails(fn, message)
  local done, err = pcall(fn)
  assert(not done, "expected an error with: " .. message)
  assert(tostring(err):find(message, 1, true), tostring(err))
end

-- Raises unless the game's rule-set invariants hold.
function M.invariants(g)
  local err = g:invariants()
  assert(err == nil, err)
end

-- Sea Merchants from a stated position, for its specs and its variants'.
-- Defaults: Anna (seat 1) to act in phase I, a market of one card of each
-- product, a 4-card deck, empty hands, 2 players.
M.SM_NAMES = { "Anna", "Bert", "Carl", "Dora" }
M.SM_MARKET = { "grain", "wood", "porcelain", "fish", "spices", "cloth" }

function M.sea_merchants_game(sc, players, options, variants)
  sc = sc or {}
  sc.market = sc.market or M.SM_MARKET
  sc.deck = sc.deck or { "wood", "grain", "cloth", "spices" }
  sc.ships = sc.ships or { { "grain", "wood" }, { "cloth", "spices" } }
  sc.phase = sc.phase or "phase1"
  sc.active = sc.active or 1
  players = players or #sc.ships
  local names = {}
  for i = 1, players do names[i] = M.SM_NAMES[i] end
  return kontor.new_game { rules = "sea_merchants", variants = variants, players = players,
                           names = names, seed = 1, scenario = sc, options = options }
end

return M
