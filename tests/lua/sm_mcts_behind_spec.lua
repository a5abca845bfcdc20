-- sm_mcts_behind_spec.lua: Sea Merchants' mcts far behind (docs/bots.md,
-- "Sea Merchants' mcts behind"). Scored by who leads, a seat that cannot
-- catch up found every line lost and played at random: in the house
-- variant, 3 players, seed 7 (greedy, greedy, mcts), seat 3, 29 coins to
-- 42 with 8 cards in the deck, bought a ship for 10 coins (coins are the
-- score, S11). The moves to that position are those of that game.
local bots = require "kontor.bots"
local seatmod = require "kontor.seat"

local MOVES = {
  "3: load cloth on ship 1", "2: load cloth on ship 1", "1: load cloth on ship 2", "1: load cloth on ship 1",
  "2: load cloth on ship 2", "3: load spices on ship 2", "1: pass", "1: draw",
  "2: pass", "2: draw", "3: pass", "3: play spices on slots 4,5",
  "1: exchange ship 1 to spices", "1: draw", "2: exchange ship 1 to spices", "2: draw",
  "3: pass", "3: play cloth on slots 4", "1: exchange ship 1 to cloth", "1: play cloth on slots 1",
  "2: pass", "2: play fish on slots 4", "3: pass", "3: draw",
  "1: exchange ship 1 to wood", "1: play wood on slots 5", "2: pass", "2: play spices on slots 6",
  "3: exchange ship 1 to spices", "3: play spices on slots 2", "1: exchange ship 1 to spices", "1: draw",
  "2: exchange ship 2 to spices", "2: draw", "3: pass", "3: play fish on slots 3",
  "1: exchange ship 2 to porcelain", "1: play porcelain on slots 2,4,6", "2: exchange ship 2 to porcelain", "2: play porcelain on slots 6",
  "3: exchange ship 2 to fish", "3: draw", "1: exchange ship 1 to porcelain", "1: draw",
  "2: exchange ship 1 to grain", "2: play grain on slots 2,4,6", "3: exchange ship 2 to wood", "3: play wood on slots 2",
  "1: exchange ship 1 to grain", "1: play grain on slots 5", "2: exchange ship 2 to grain", "2: play grain on slots 3",
  "3: exchange ship 2 to spices", "3: play spices on slots 4", "1: exchange ship 2 to wood", "1: play wood on slots 3,6",
  "2: exchange ship 1 to cloth", "2: draw", "3: exchange ship 2 to grain", "3: draw",
  "1: pass", "1: draw", "2: exchange ship 2 to wood", "2: play cloth on slots 5",
  "3: exchange ship 2 to spices", "3: play spices on slots 1", "1: pass", "1: play grain on slots 2,4,5",
  "2: exchange ship 1 to grain", "2: draw", "3: exchange ship 2 to grain", "3: draw",
  "1: exchange ship 2 to grain", "1: draw", "2: pass", "2: draw",
  "3: exchange ship 1 to porcelain", "3: play wood on slots 5", "1: exchange ship 1 to fish", "1: play fish on slots 3,6",
  "2: exchange ship 1 to spices", "2: play wood on slots 4", "3: exchange ship 1 to fish", "3: draw",
  "1: exchange ship 2 to spices", "1: draw", "2: exchange ship 2 to fish", "2: draw",
  "3: pass", "3: play cloth on slots 2", "1: exchange ship 2 to wood", "1: play wood on slots 2",
  "2: pass", "2: play spices on slots 5", "3: pass", "3: play grain on slots 1",
  "1: pass", "1: draw", "2: exchange ship 1 to fish", "2: play fish on slots 1",
}

local function position()
  local g = kontor.new_game { rules = "sea_merchants", players = 3, seed = 7, variants = { "house" } }
  for _, m in ipairs(MOVES) do assert(g:apply(m)) end
  return g
end

describe("Sea Merchants' mcts far behind", function()
  it("does not throw 10 coins away on a ship a turn before the end", function()
    local g = position()
    assert.are.equal(3, g:who())
    assert.are.equal(8, g.deck:count())
    assert.are.same({ 37, 42, 29 }, { g.coins:get(1), g.coins:get(2), g.coins:get(3) })
    assert.are.same({ "exchange", "buy", "pass" }, g:options(3))
    -- scored by who leads (the defaults of before): every line lost, and
    -- the bot buys
    local old = assert(bots.new("mcts:margin=0,center=0", 3, 7))
    assert.are.equal("buy", g:options(3)[old:choose(seatmod.view(g, 3))])
    -- Sea Merchants' defaults now: by the lead less the lead at the decision
    local b = assert(bots.new("mcts", 3, 7))
    local k = b:choose(seatmod.view(g, 3))
    assert.are.equal("exchange", g:options(3)[k])
    assert.are.same({ 2, 1 }, { b.options.margin, b.options.center })
    for _, t in ipairs(b.last) do
      if t[1] == "buy" then assert.is_true(t.visits < 20, tostring(t.visits)) end
    end
  end)
end)
