-- The plain Lua loop of Merchants of the Old World (tests/bench/old_world.lua,
-- issue 25) plays the game of variants/old_world.lua: with the random policy
-- of `kontor sim` the mean turns and steps a game agree within 4 standard
-- errors, at 2, 4 and 8 players (the ring with trading posts, the usual
-- ring, the most seats). `make bench` checks 4 and 8 players with more games.

local plain = dofile("tests/bench/plain.lua")
local support = require "tests.lua.support"
local random_of = support.random_of

describe("the plain Lua loop of Old World", function()
  for _, c in ipairs { { players = 2, kontor = 400 }, { players = 4, kontor = 300 }, { players = 8, kontor = 150 } } do
    it("plays the game of the rule set: " .. c.players .. " players", function()
      local k = kontor.sim { rules = "old_world", players = c.players, games = c.kontor, seed = 3 }
      local n = 10 * c.kontor
      local p = plain.run("old_world", c.players, n, random_of(3))
      local _, steps_tol = support.same_game(k, p, c.kontor, n)
      assert.is_true(steps_tol < 0.05 * p.mean_steps)
    end)
  end

  it("is deterministic for one random sequence, and scores VP", function()
    local a = plain.run("old_world", 4, 30, random_of(9))
    local b = plain.run("old_world", 4, 30, random_of(9))
    assert.are.equal(a.mean_turns, b.mean_turns)
    assert.are.equal(a.mean_steps, b.mean_steps)
    assert.are.same(a.mean_score, b.mean_score)
    assert.are.equal(4, #a.mean_score)
    local play = plain.loop("old_world")
    local turns, steps, scores = play(random_of(5), 3)
    assert.is_true(turns >= 1 and turns <= 60, "the turn cap is 60")
    assert.is_true(steps > 0)
    assert.are.equal(3, #scores)
    for _, v in ipairs(scores) do assert.is_true(math.type(v) == "integer" and v >= 0) end
  end)
end)
