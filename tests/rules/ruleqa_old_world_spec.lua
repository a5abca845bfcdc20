-- An independent rules audit of Merchants of the Old World at the edges of
-- its player counts (2, 5 and 8) against O1-O34 and T1-T11
-- (docs/rules/old_world.md): one test per defect found, each seen failing
-- first, and the boundaries the audit played.
-- Run: build/kontor run tests/busted.lua tests/rules/ruleqa_old_world_spec.lua

local support = require "tests.lua.support"
local ow = require "tests.rules.old_world_support"
local fails = support.fails

local function new(sc, players)
  return kontor.new_game { rules = "old_world", players = players or 4, seed = 1, scenario = sc }
end

describe("ruleqa: Old World", function()
  describe("scenarios that no game reaches are refused", function()
    it("O24: the VP given are the VP the players and the pirate hold", function()
      fails(function() new { vp = { 10 }, vp_given = 5 } end,
        "scenario: vp_given 5 is not the 10 VP the players and the pirate hold (O24: every VP given is held)")
      fails(function() new { pirate_vp = 10, vp_given = 5 } end,
        "scenario: vp_given 5 is not the 10 VP the players and the pirate hold (O24: every VP given is held)")
      fails(function() new { vp = { 10 }, pirate_vp = 3, vp_given = 20 } end,
        "scenario: vp_given 20 is not the 13 VP the players and the pirate hold (O24: every VP given is held)")
      local g = ow.game({ vp = { 10 }, pirate_vp = 3, vp_given = 13 })
      assert.are.equal(13, g.vp_given)
      assert.are.equal(13, ow.game({ vp = { 10 }, pirate_vp = 3 }).vp_given)
    end)

    it("O30 (2), (3): a pirate at its target or an empty VP bank ended the game at that trade", function()
      fails(function() new { pirate_vp = 40 } end,
        "scenario: the pirate has 40 VP, its target is 40: the game ends after that turn (O30 (2)); "
        .. "state ending = \"pirate\" for the position in its last turn")
      fails(function() new { vp = { 130 } } end,
        "scenario: 130 VP given of a VP bank of 120: the game ends after that turn (O30 (3)); "
        .. "state ending = \"VP bank\" for the position in its last turn")
      -- at 2 and 8 players the target and the bank follow N (T9)
      fails(function() new({ pirate_vp = 20 }, 2) end, "the pirate has 20 VP, its target is 20")
      fails(function() new({ vp = { 240 } }, 8) end, "240 VP given of a VP bank of 240")
      local g = ow.game({ pirate_vp = 19 }, 2)                            -- one short: goes on
      assert.is_false(g.ending)
      local h = ow.game({ pirate_vp = 40, ending = "pirate", phase = "produce" })   -- its last turn
      assert.are.equal("pirate", h.ending)
    end)

    it("O30: ending names one of the game's end conditions", function()
      fails(function() new { ending = "bogus" } end,
        "scenario: ending must be bag, pirate, VP bank or turn cap (O30), not bogus")
      assert.are.equal("bag", ow.game({ ending = "bag" }).ending)
    end)
  end)

  describe("boundaries at 2, 5 and 8 players (T3, T8, T9)", function()
    it("bag 29N, pirate every k turns from turn k, target 10N, VP bank 30N, ships by N", function()
      local want = {
        [2] = { bag = { 6, 22, 30 }, every = 4, target = 20, bank = 60, ships = { 3, 4 } },
        [5] = { bag = { 15, 55, 75 }, every = 3, target = 50, bank = 150, ships = { 3, 4, 5 } },
        [8] = { bag = { 24, 88, 120 }, every = 2, target = 80, bank = 240, ships = { 4, 5, 5 } },
      }
      for n, w in pairs(want) do
        local g = kontor.new_game { rules = "old_world", players = n, seed = 1 }
        local bag = g.bag
        -- turn 1 is under way: its line came out of the bag
        assert.are.same(w.bag, { bag.seaman + g.line.seaman, bag.land + g.line.land, bag.facility + g.line.facility })
        assert.are.equal(n, g.line.seaman + g.line.land + g.line.facility)   -- no open slot: N drawn
        assert.are.equal(w.every, g.pirate_every)
        assert.are.equal(w.target, g.pirate_target)
        assert.are.equal(w.bank, g.vp_bank)
        assert.are.same(w.ships, g.R.data.ships[n])
        assert.are.equal(w.ships[1], g.card[1].ships[1].size)
        assert.is_false(g.line.pirate)
      end
    end)
  end)
end)
