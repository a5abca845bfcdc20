-- tests/rules/old_world_support.lua: what the Old World specs share:
--   local ow = require "tests.rules.old_world_support"
local support = require "tests.lua.support"
local invariants = support.invariants

local M = {}

M.NAMES = { "Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal" }

-- A game from a stated position (docs/rules/old_world.md, "Scenario
-- set-up"), its invariants checked.
function M.game(sc, players, options, seed)
  players = players or 4
  local names = {}
  for i = 1, players do names[i] = M.NAMES[i] end
  local g = kontor.new_game { rules = "old_world", players = players, names = names,
                              seed = seed or 1, scenario = sc, options = options }
  invariants(g)
  return g
end

-- Whether list holds x.
function M.has(list, x)
  for _, y in ipairs(list) do if y == x then return true end end
  return false
end

-- Applies text (as seat), which must be legal, and checks the invariants.
function M.ok(g, text, seat)
  local done, err = g:apply(text, seat)
  assert(done, err)
  invariants(g)
end

return M
