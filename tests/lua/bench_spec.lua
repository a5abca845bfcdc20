-- The plain Lua loops of tests/bench (the yardsticks of `make bench`) play
-- the games of their rule sets: with the same random policy (uniform over
-- the options at every decision), the mean turns and steps a game agree
-- with `kontor sim` within 4 standard errors. `make bench` checks the same
-- with 10-20 times more games; here a small number keeps the suite short.

local plain = dofile("tests/bench/plain.lua")
local support = require "tests.lua.support"
local random_of = support.random_of

local CASES = {
  { name = "sea_merchants", rules = "sea_merchants", players = 4 },
  { name = "house", rules = "sea_merchants", variants = { "house" }, players = 4 },
  { name = "caribbean", rules = "caribbean", players = 2 },
}
local KONTOR_GAMES, PLAIN_GAMES = 600, 6000

describe("the plain Lua loops of make bench", function()
  for _, c in ipairs(CASES) do
    it("play the game of the rule set: " .. c.name .. ", " .. c.players .. " players #slow", function()
      local k = kontor.sim { rules = c.rules, variants = c.variants, players = c.players,
                             games = KONTOR_GAMES, seed = 3 }
      local p = plain.run(c.name, c.players, PLAIN_GAMES, random_of(3))
      support.same_game(k, p, KONTOR_GAMES, PLAIN_GAMES)
    end)
  end

  it("are deterministic for one random sequence", function()
    local a = plain.run("caribbean", 2, 20, random_of(9))
    local b = plain.run("caribbean", 2, 20, random_of(9))
    assert.are.equal(a.mean_turns, b.mean_turns)
    assert.are.equal(a.mean_steps, b.mean_steps)
    assert.are.same(a.mean_score, b.mean_score)
  end)

  -- The stand-in (tests/bench/script.lua) runs the rule script itself:
  -- given the engine's piles and random streams it plays exactly the
  -- engine's games, step for step.
  it("the rule scripts alone play the engine's games exactly (same_games.lua)", function()
    local function same(mode, players, rules)
      return (support.run(("%s run tests/bench/same_games.lua %s %d 6 %s"):format(
        support.binary(), mode, players, rules)))
    end
    for _, c in ipairs { { "old_world", 2 }, { "old_world", 5 }, { "sea_merchants", 4 }, { "caribbean", 3 } } do
      local k = same("kontor", c[2], c[1])
      assert.matches("^kontor %d+ steps, scores checksum %d+", k)
      assert.are.equal(k:gsub("^kontor", "plain"), same("plain", c[2], c[1]))
    end
  end)

  it("draw a family's option as g:choose_from gives it (family_draw, the stand-in's C draw)", function()
    local draw_c = kontor.core.options.family_draw
    local fam = { "load", { "fish", "wood", "grain" }, "on ship", { 1, 2 } }
    local texts = kontor.core.options.texts(kontor.core.options.expand(fam, 1, "load", 2))
    assert.are.equal(6, #texts)
    for k = 1, 6 do
      local p, s = draw_c(fam, function(n) assert.are.equal(6, n); return k end)
      assert.are.equal(texts[k], ("load %s on ship %d"):format(p, s))
    end
    assert.are.same({ "wood" }, { draw_c({ "play", { "grain", "wood" } }, function() return 2 end) })
    assert.are.same({}, { draw_c({ "pass" }, function(n) assert.are.equal(1, n); return 1 end) })
    assert.has_error(function() draw_c({ "load", {} }, function() return 1 end) end)
    assert.has_error(function() draw_c({ "load", { "a" } }, function() return 2 end) end)
    local changing = { "load", { "a", "b" } }
    local ok, err = pcall(draw_c, changing, function() changing[2] = 7; return 1 end)
    assert.is_false(ok)
    assert.truthy(tostring(err):find("entry 2 of the family changed while drawing", 1, true), tostring(err))
  end)

  it("know no other game", function()
    local ok, err = pcall(plain.run, "chess", 2, 1, random_of(1))
    assert.is_false(ok)
    assert.are.equal("no plain loop named chess", err)
  end)
end)
