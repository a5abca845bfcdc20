-- An independent rules audit of Merchants of the Caribbean and Port Royal
-- at 3 and 4 players (docs/rules/caribbean.md, rulings C1-C10): one test
-- per defect found, each seen failing first, and the out-of-turn order the
-- audit played.
-- Run: build/kontor run tests/busted.lua tests/rules/ruleqa_caribbean_spec.lua

local support = require "tests.lua.support"
local invariants = support.invariants

local NAMES = { "Alex", "Bea", "Carl", "Dagmar", "Andrea" }
local FILLER = { "Pinnace 1/1", "Flute 1/1", "Skiff 1/1", "Frigate 1/1", "Galleon 2/1",
                 "Pinnace 1/1", "Flute 1/1", "Skiff 1/1", "Frigate 1/1", "Galleon 2/1" }

local function new(sc, players, variants, seed)
  players = players or 3
  return kontor.new_game { rules = "caribbean", players = players, seed = seed or 1, scenario = sc,
                           names = table.move(NAMES, 1, players, 1, {}), variants = variants }
end

local ok = support.ok

-- The cards of a pile by kind: taxes, expeditions, others.
local function kinds(g, pile)
  local t = { tax = 0, expedition = 0, other = 0 }
  for _, id in ipairs(pile:cards()) do
    local name = g.R.card_text(g, id)
    local k = name:match("^tax") and "tax" or name:match("^expedition") and "expedition" or "other"
    t[k] = t[k] + 1
  end
  return t
end

local function coins(g)
  local t = {}
  for s = 1, g.players do t[s] = g.purse[s]:count() end
  return t
end

describe("ruleqa: Caribbean", function()
  describe("scenario coins are cards from the shuffled deck (C1, C2)", function()
    it("coins = {3, 3, 3} alone deals as the game does: the same deck and purses from the same seed", function()
      for seed = 1, 3 do
        local dealt = kontor.new_game { rules = "caribbean", players = 3, seed = seed }
        local stated = new({ coins = { 3, 3, 3 } }, 3, nil, seed)
        assert.are.same(dealt.deck:cards(), stated.deck:cards())
        for s = 1, 3 do assert.are.same(dealt.purse[s]:cards(), stated.purse[s]:cards()) end
        -- the deck keeps its taxes and expeditions: before, the 9 coins were
        -- the cards of the highest ids, all 4 taxes and all 5 expeditions
        local k = kinds(stated, stated.deck)
        assert.is_true(k.tax > 0 and k.expedition > 0)
        invariants(stated)
      end
    end)

    it("with a stated deck, the coins are drawn at random from the cards placed nowhere", function()
      local g = new({ deck = FILLER, coins = { 3, 3, 3 } })
      local taken = { tax = 0, expedition = 0, other = 0 }
      for s = 1, 3 do
        for k, n in pairs(kinds(g, g.purse[s])) do taken[k] = taken[k] + n end
      end
      assert.are.same({ tax = 0, expedition = 0, other = 9 }, taken)   -- seed 1 (before: 4 taxes, 5 expeditions)
      assert.are.equal(10, g.deck:count() + g.harbour:count())   -- the first card is out (must_reveal)
      assert.are.equal(119 - 10 - 9, g.box:count())
      invariants(g)
    end)

    it("a card named in box is in the box once, not also in the deck", function()
      local g = new({ box = { "tax most swords" } }, 2)
      invariants(g)
      local n = 0
      for _, pile in ipairs { g.deck, g.box, g.harbour, g.discard } do
        for _, id in ipairs(pile:cards()) do
          if g.R.card_text(g, id) == "tax most swords" then n = n + 1 end
        end
      end
      assert.are.equal(2, n)                                   -- the 2 there are (C3)
      -- 119 cards with 2 players (C3); the first card is out (must_reveal)
      assert.are.same({ 118, 1 }, { g.deck:count() + g.harbour:count() + g.discard:count(), g.box:count() })
      local h = new({ box = { "tax most swords" }, deck = { "Flute 1/1" } }, 2)
      invariants(h)
      assert.are.same({ 1, 118 }, { h.deck:count() + h.harbour:count(), h.box:count() })
    end)
  end)

  describe("out of turn at 4 players (C6, C7)", function()
    it("the others take in turn order from the active player; a Governor's second take costs 1 more coin", function()
      local g = new({ phase = "loot", active = 2, coins = { 1, 0, 2, 0 },
                      displays = { {}, {}, { "Admiral 5/1", "Governor 8/0" }, { "Jester 5/1" } },
                      harbour = { "Pinnace 2/2", "Flute 2/2", "Skiff 3/2", "Frigate 3/2", "Sailor 3/1" },
                      deck = FILLER }, 4)
      -- Bea (active): 4 ship names, 2 takes
      assert.are.equal(2, g:who())
      ok(g, "loot Pinnace 2")
      ok(g, "loot Flute 2")
      -- Carl: 3 cards left, so no Admiral coins (C7); two takes (Governor), 1 coin to Bea each
      assert.are.equal(3, g:who())
      assert.are.same({ 1, 4, 2, 0 }, coins(g))
      assert.are.same({ "loot Skiff 2", "loot Frigate 2", "take nothing" }, g:options())
      ok(g, "loot Skiff 2")
      ok(g, "loot Frigate 2")
      -- Dagmar has no coin and Alex cannot pay 1 + 3 for the Sailor: neither is asked;
      -- the Sailor is still there, so Dagmar's Jester pays nothing
      assert.are.same({ 1, 6, 4, 0 }, coins(g))
      assert.are.equal(3, g.current)                           -- Carl's turn comes next
      assert.are.equal("discover", g:decision().name)
      invariants(g)
    end)
  end)
end)
