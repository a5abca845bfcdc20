-- Merchants of the Caribbean and its Port Royal variant: the rulebook's
-- worked examples, one test per ruling (C1..C10, docs/rules/caribbean.md),
-- edge cases, and random games.
-- Run: build/kontor run tests/busted.lua tests/rules/caribbean_spec.lua

local support = require "tests.lua.support"
local fails, invariants = support.fails, support.invariants
local NAMES = { "Alex", "Bea", "Carl", "Dagmar", "Andrea" }

-- Plenty of harmless cards for a stated deck (top first).
local FILLER = { "Pinnace 1/1", "Flute 1/1", "Skiff 1/1", "Frigate 1/1", "Galleon 2/1",
                 "Pinnace 1/1", "Flute 1/1", "Skiff 1/1", "Frigate 1/1", "Galleon 2/1" }

local function concat(a, b)
  local t = {}
  for _, x in ipairs(a) do t[#t + 1] = x end
  for _, x in ipairs(b or {}) do t[#t + 1] = x end
  return t
end

-- A game from a stated position. Defaults: 2 players, Alex (seat 1) to act,
-- 0 coins each, the deck FILLER.
local function game(sc, players, options, variants)
  sc = sc or {}
  sc.deck = sc.deck or FILLER
  sc.coins = sc.coins or {}
  players = players or 2
  for s = 1, players do sc.coins[s] = sc.coins[s] or 0 end
  local names = {}
  for i = 1, players do names[i] = NAMES[i] end
  return kontor.new_game{ rules = "caribbean", players = players, names = names, seed = 1,
                          scenario = sc, options = options, variants = variants }
end

local ok = support.ok

local function opts(g) return g:options() end
local function has(list, x)
  for _, y in ipairs(list) do if y == x then return true end end
  return false
end
local function names(g, pile)
  local t = {}
  for i = 1, pile:count() do t[i] = g.R.card_text(nil, pile:get(i)) end
  return t
end
local function coins(g)
  local t = {}
  for s = 1, g.players do t[s] = g.purse[s]:count() end
  return t
end
local function influence(g)
  local t = {}
  for s = 1, g.players do t[s] = g.st[s].influence end
  return t
end
local function logged(g, line)
  assert(has(g:log(), line), "not in the log: " .. line .. "\n" .. table.concat(g:log(), "\n"))
end

describe("Merchants of the Caribbean", function()

  describe("worked examples of the rulebook", function()
    it("Alex repels a Flute of strength 2 with a Sailor and a Pirate (strength 3)", function()
      local g = game{ displays = { { "Sailor 3/1", "Pirate 5/1" } }, deck = concat({ "Flute 2/2" }, FILLER) }
      assert.equal(3, g.st[1].strength)
      assert.same({ "repel", "do not repel" }, opts(g))
      ok(g, "repel")
      assert.same({ "Flute 2/2" }, names(g, g.discard))
      assert.same({}, names(g, g.harbour))
      assert.same({ "reveal", "stop" }, opts(g))
      logged(g, "Alex repels the Flute 2/2")
      -- strength is not spent: a second ship is repelled too
      ok(g, "reveal")
      assert.same({ "repel", "do not repel" }, opts(g))
      invariants(g)
    end)

    it("Dagmar fulfils a two-symbol expedition with a Priest and a Jack of all Trades", function()
      local g = game({ active = 4, displays = { [4] = { "Priest 4/1", "Jack of all Trades 6/1" } },
                       expeditions = { "expedition 2 crosses" },
                       expedition_coins = { ["expedition 2 crosses"] = 3 },      -- her card pays 3
                       deck = concat({ "Sailor 3/1" }, FILLER) }, 4)
      assert.same({ "reveal", "stop", "fulfil expedition 2 crosses" }, opts(g))
      ok(g, "fulfil expedition 2 crosses")
      assert.same({}, names(g, g.display[4]))
      assert.same({ "expedition 2 crosses" }, names(g, g.done[4]))
      assert.same({}, names(g, g.expeditions))
      assert.same({ "Jack of all Trades 6/1", "Priest 4/1" }, names(g, g.discard))   -- from the top of her display
      assert.same({ 0, 0, 0, 3 }, coins(g))
      assert.same({ 0, 0, 0, 4 }, influence(g))
      assert.same({ "reveal", "stop" }, opts(g))
      logged(g, "Dagmar fulfils the expedition 2 crosses: discards Jack of all Trades 6/1, Priest 4/1, gains 4 influence and 3 coins")
      invariants(g)
    end)

    it("Andrea: 5 cards, 4 ship names, two takes; Alex takes a ship and pays her 1 coin", function()
      local g = game{ active = 2, phase = "loot", coins = { 2, 1 },
                      harbour = { "Flute 2/2", "Sailor 3/1", "Pinnace 1/1", "Skiff 1/1", "Frigate 1/1" } }
      g.ctx.names[2] = "Andrea"   -- the rule script's names (g.names is the front ends' copy)
      -- she has 1 coin: the Sailor (3) is not offered yet
      assert.same({ "loot Flute 2", "loot Pinnace 1", "loot Skiff 1", "loot Frigate 1", "take nothing" }, opts(g))
      ok(g, "loot Flute 2")
      assert.same({ 2, 3 }, coins(g))
      assert.same({ "hire Sailor 3/1", "loot Pinnace 1", "loot Skiff 1", "loot Frigate 1", "take nothing" }, opts(g))
      ok(g, "hire Sailor 3/1")
      assert.same({ 2, 0 }, coins(g))
      assert.same({ "Sailor 3/1" }, names(g, g.display[2]))
      -- two takes used: now Alex, who pays 1 coin to Andrea
      assert.equal(1, g:who())
      assert.same({ "loot Pinnace 1", "loot Skiff 1", "loot Frigate 1", "take nothing" }, opts(g))
      ok(g, "loot Pinnace 1")
      assert.same({ 2, 1 }, coins(g))                    -- Alex 2 - 1 + 1, Andrea 0 + 1
      -- the rest of the harbour is discarded; Alex's turn begins with his first card
      assert.equal(1, g.current)
      assert.same({ "Frigate 1/1" }, names(g, g.harbour))
      assert.equal(2 + 3 + 2, g.discard:count())           -- 2 ships looted, 3 coins for the Sailor, 2 left
      logged(g, "Alex loots the Pinnace 1/1: 1 coin, pays 1 to Andrea")
      invariants(g)
    end)
  end)

  describe("rulings", function()
    it("C1: 2 to 5 players, each starts with 3 coins", function()
      for n = 2, 5 do
        local g = kontor.new_game{ rules = "caribbean", players = n, seed = n }
        for s = 1, n do assert.equal(3, g.purse[s]:count()) end
        invariants(g)
      end
      assert.has_error(function() kontor.new_game{ rules = "caribbean", players = 1 } end)
      assert.has_error(function() kontor.new_game{ rules = "caribbean", players = 6 } end)
      local g = kontor.new_game{ rules = "caribbean", players = 2, seed = 1, options = { start_coins = 5 } }
      assert.same({ 5, 5 }, coins(g))
    end)

    it("C2: gains are cards from the deck, face down; a hire pays to the discard pile", function()
      local g = game{ phase = "loot", harbour = { "Flute 1/2", "Sailor 3/1" }, coins = { 1, 0 },
                      deck = { "Galleon 7/3", "Priest 4/1", "Pinnace 1/1" } }
      assert.equal("hidden", g.purse[1]:vis())
      ok(g, "loot Flute 2")
      local purse = names(g, g.purse[1])                   -- the starting coin, then the two cards drawn
      assert.same({ "Galleon 7/3", "Priest 4/1" }, { purse[2], purse[3] })
      assert.same({ "Pinnace 1/1" }, names(g, g.harbour))  -- the next card: Bea's first
      invariants(g)
      local v = g:view(2)
      assert.equal(3, v.players[1].coins)
    end)

    it("C2: the discard pile is shuffled in when a card is next needed, not when the deck runs out", function()
      local g = game{ deck = { "Sailor 3/1" }, discard = { "Pinnace 1/1", "Flute 1/1", "Skiff 1/1" } }
      assert.equal(0, g.deck:count())                    -- the Sailor was revealed
      assert.equal(3, g.discard:count())                 -- not shuffled yet
      ok(g, "reveal")
      assert.equal(0, g.discard:count())
      assert.equal(2, g.deck:count())
      logged(g, "the discard pile is shuffled into a new draw deck")
      invariants(g)
    end)

    it("C2: a coin paid to the active player is the same card, moving to them", function()
      local g = game{ phase = "loot", harbour = { "Flute 1/1" }, coins = { 0, 1 } }
      ok(g, "take nothing")
      local card = g.purse[2]:top()
      ok(g, "loot Flute 1")
      assert.equal(card, g.purse[1]:get(1))
    end)

    it("C3: the default deck: 50 ships, 60 persons, 6 expeditions (one for 5 players only), 4 taxes", function()
      local R = kontor.load_rules("caribbean")
      local ships, persons = 0, 0
      for _, s in ipairs(R.data.ships) do for _, c in ipairs(s.cards) do ships = ships + c[3] end end
      for _, p in ipairs(R.data.persons) do persons = persons + p[4] end
      assert.equal(50, ships)
      assert.equal(60, persons)
      local g4 = kontor.new_game{ rules = "caribbean", players = 4, seed = 1 }
      local g5 = kontor.new_game{ rules = "caribbean", players = 5, seed = 1 }
      local function total(g)
        local n = g.deck:count() + g.harbour:count() + g.expeditions:count() + g.discard:count()
        for s = 1, g.players do n = n + g.purse[s]:count() end
        return n
      end
      assert.equal(119, total(g4))
      assert.equal(120, total(g5))
      fails(function() game({ expeditions = { "expedition anchor + cross + house" } }, 4) end,
            "more 'expedition anchor + cross + house' cards are placed than the 0 there are")
      game({ expeditions = { "expedition anchor + cross + house" } }, 5)
    end)

    it("C3: the deck is data: a designer edits R.data and calls R.prepare(R)", function()
      local R = kontor.load_rules("caribbean")
      R.data.ships[2].cards = { { 1, 9, 10 } }           -- ten Flutes 1/9
      R.prepare(R)
      local g = kontor.new_game{ rules = R, players = 2, seed = 1, names = { "Alex", "Bea" },
                                 scenario = { phase = "loot", harbour = { "Flute 1/9" }, deck = { "Pinnace 1/1" } } }
      assert.same({ "loot Flute 9", "take nothing" }, opts(g))
    end)

    it("C4: a person stays in the harbour, an expedition goes to its display, a tax is discarded", function()
      local g = game{ deck = concat({ "Sailor 3/1" }, FILLER) }
      assert.same({ "Sailor 3/1" }, names(g, g.harbour))
      g = game{ deck = concat({ "expedition 2 anchors" }, FILLER) }
      assert.same({}, names(g, g.harbour))
      assert.same({ "expedition 2 anchors" }, names(g, g.expeditions))
      g = game{ deck = concat({ "tax most swords" }, FILLER) }
      assert.same({}, names(g, g.harbour))
      assert.same({ "tax most swords" }, names(g, g.discard))
    end)

    it("C4: repelling is a choice; a ship too strong or with a skull cannot be repelled", function()
      local g = game{ displays = { { "Pirate 9/3", "Pirate 7/2" } }, deck = concat({ "Galleon 4/2" }, FILLER) }
      ok(g, "do not repel")
      assert.same({ "Galleon 4/2" }, names(g, g.harbour))
      g = game{ displays = { { "Pirate 9/3", "Pirate 7/2" } }, deck = concat({ "Galleon 7/3" }, FILLER) }
      assert.same({ "reveal", "stop" }, opts(g))          -- 4 swords < 7
      assert.same({ "Galleon 7/3" }, names(g, g.harbour))
      g = game{ displays = { { "Pirate 9/3", "Pirate 7/2", "Pirate 5/1" } }, deck = concat({ "Frigate skull/3" }, FILLER) }
      assert.same({ "reveal", "stop" }, opts(g))          -- a skull: never
      assert.same({ "Frigate skull/3" }, names(g, g.harbour))
    end)

    it("C4: a second ship of the same name busts the turn: harbour discarded, no loot and hire", function()
      local g = game{ deck = { "Flute 1/1", "Sailor 3/1", "Flute 2/2", "Pinnace 1/1", "Skiff 1/1" }, coins = { 1, 3 } }
      ok(g, "reveal")
      ok(g, "reveal")
      assert.same({ "Sailor 3/1", "Flute 1/1", "Flute 2/2" }, names(g, g.discard))   -- the harbour, then the Flute
      assert.equal(2, g.current)                           -- Bea's turn: nobody took anything
      assert.same({ "Pinnace 1/1" }, names(g, g.harbour))  -- her first card
      assert.same({ 1, 3 }, coins(g))
      logged(g, "Alex reveals a second Flute: bust, the harbour is discarded")
      invariants(g)
    end)

    it("C4: a second ship that could be repelled busts only if the player does not repel it", function()
      local g = game{ displays = { { "Sailor 3/1" } }, deck = { "Flute 2/2", "Flute 1/1", "Pinnace 1/1", "Skiff 1/1" } }
      ok(g, "reveal")
      assert.same({ "repel", "do not repel" }, opts(g))
      ok(g, "repel")
      assert.same({ "Flute 2/2" }, names(g, g.harbour))
      g = game{ displays = { { "Sailor 3/1" } }, deck = { "Flute 2/2", "Flute 1/1", "Pinnace 1/1", "Skiff 1/1" } }
      ok(g, "reveal")
      ok(g, "do not repel")
      assert.equal(2, g.current)
      assert.same({ "Flute 2/2", "Flute 1/1" }, names(g, g.discard))
    end)

    it("C5: 12 or more coins lose half, rounded down; then the most swords gain 1", function()
      local g = game({ coins = { 12, 13, 11 }, displays = { [3] = { "Sailor 3/1" } },
                       deck = concat({ "tax most swords" }, FILLER) }, 3)
      assert.same({ 6, 7, 12 }, coins(g))
      assert.same({ "Alex loses 6 coins to the tax", "Bea loses 6 coins to the tax", "Carl gains 1 coin (tax most swords)" },
                  { g:log()[2], g:log()[3], g:log()[4] })
      assert.equal(12 + 1, g.discard:count())              -- 12 coins and the tax card
      invariants(g)
    end)

    it("C6: the active player takes 1 (0-3 ship names), 2 (4) or 3 (5) cards", function()
      local function allowance(harbour)
        local g = game{ phase = "loot", harbour = harbour, coins = { 0, 0 } }
        local n = 0
        while g:who() == 1 and g.current == 1 do
          local o = opts(g)
          if o[1] == "take nothing" then break end
          ok(g, o[1]); n = n + 1
        end
        return n
      end
      assert.equal(1, allowance{ "Pinnace 1/1", "Flute 1/1", "Skiff 1/1", "Sailor 3/1" })
      assert.equal(2, allowance{ "Pinnace 1/1", "Flute 1/1", "Skiff 1/1", "Frigate 1/1" })
      assert.equal(3, allowance{ "Pinnace 1/1", "Flute 1/1", "Skiff 1/1", "Frigate 1/1", "Galleon 2/1" })
    end)

    it("C6: other players get their chance even when the active player took nothing; taking is optional", function()
      local g = game({ phase = "loot", harbour = { "Flute 1/1", "Sailor 3/1" }, coins = { 0, 4, 2 } }, 3)
      ok(g, "take nothing")
      assert.equal(2, g:who())
      assert.same({ "loot Flute 1", "hire Sailor 3/1", "take nothing" }, opts(g))
      ok(g, "take nothing")
      assert.equal(3, g:who())
      assert.same({ "loot Flute 1", "take nothing" }, opts(g))   -- 2 coins: 1 for Alex + 1 left < 3
      ok(g, "loot Flute 1")
      assert.same({ 1, 4, 2 }, coins(g))
      assert.equal(2, g.current)                           -- Bea's turn
    end)

    it("C6: a Trader adds 1 coin per card of its ship; a Mademoiselle lowers hires by 1, never below 0", function()
      local g = game{ phase = "loot", coins = { 0, 0 },
                      displays = { { "Trader Flute 3/1", "Trader Flute 5/2" } },
                      harbour = { "Flute 2/3", "Pinnace 1/1", "Skiff 1/1", "Frigate 1/1" } }
      ok(g, "loot Flute 3")
      assert.same({ 5, 0 }, coins(g))
      local m = { "Mademoiselle 7/2", "Mademoiselle 7/2", "Mademoiselle 9/3", "Mademoiselle 9/3" }
      g = game{ phase = "loot", coins = { 0, 0 }, displays = { m }, harbour = { "Sailor 3/1" } }
      assert.same({ "hire Sailor 3/1", "take nothing" }, opts(g))   -- 3 - 4 -> 0
      ok(g, "hire Sailor 3/1")
      assert.same({ 0, 0 }, coins(g))
      g = game{ phase = "loot", coins = { 2, 0 }, displays = { { "Mademoiselle 7/2" } }, harbour = { "Sailor 3/1" } }
      ok(g, "hire Sailor 3/1")
      assert.same({ 0, 0 }, coins(g))
      logged(g, "Alex hires the Sailor 3/1 for 2")
    end)

    it("C7: Admiral: 2 coins per Admiral when a player's chance comes with 5+ cards in the harbour", function()
      local g = game({ phase = "loot", coins = { 0, 1, 0 },
                       displays = { { "Admiral 5/1" }, { "Admiral 7/2", "Admiral 9/3" } },
                       harbour = { "Pinnace 1/1", "Flute 1/1", "Skiff 1/1", "Sailor 3/1", "Priest 4/1" } }, 3)
      assert.same({ 2, 1, 0 }, coins(g))                   -- Alex: 5 cards at his chance
      ok(g, "loot Pinnace 1")
      assert.same({ 3, 1, 0 }, coins(g))
      -- Bea's chance: only 4 cards are left: no Admiral coins
      assert.equal(2, g:who())
      assert.same({ 3, 1, 0 }, coins(g))
    end)

    it("C7: Jester: 1 coin per Jester when a player's chance comes with an empty harbour", function()
      local g = game({ phase = "loot", coins = { 0, 1, 0 }, harbour = { "Pinnace 1/1" },
                       displays = { { "Jester 5/1" }, { "Jester 7/2" }, { "Jester 7/2", "Jester 9/3" } } }, 3)
      assert.same({ 0, 1, 0 }, coins(g))                   -- a card is there at Alex's chance
      ok(g, "loot Pinnace 1")
      assert.same({ 1, 2, 2 }, coins(g))                   -- Bea and Carl: empty harbour
    end)

    it("C8: fulfil at any decision of the active player: discover, repel, take, and after the last take", function()
      local disp = { { "Captain 4/1", "Captain 4/1", "Sailor 3/1" } }
      local g = game{ displays = disp, expeditions = { "expedition 2 anchors" }, deck = concat({ "Flute 1/1" }, FILLER) }
      assert.same({ "repel", "do not repel", "fulfil expedition 2 anchors" }, opts(g))
      g = game{ displays = disp, expeditions = { "expedition 2 anchors" }, phase = "loot", harbour = { "Flute 1/1" } }
      assert.same({ "loot Flute 1", "take nothing", "fulfil expedition 2 anchors" }, opts(g))
      ok(g, "loot Flute 1")
      assert.same({ "do not fulfil", "fulfil expedition 2 anchors" }, opts(g))
      ok(g, "fulfil expedition 2 anchors")
      assert.same({ "Sailor 3/1" }, names(g, g.display[1]))
      assert.same({ 1 + 2, 0 }, coins(g))
      assert.equal(4 + 1, g.st[1].influence)
      -- a hire can complete the symbols and be used at once
      g = game{ displays = { { "Captain 4/1" } }, expeditions = { "expedition 2 anchors" }, phase = "loot",
                coins = { 6, 0 }, harbour = { "Jack of all Trades 6/1", "Pinnace 1/1", "Flute 1/1", "Skiff 1/1", "Frigate 1/1" } }
      ok(g, "hire Jack of all Trades 6/1")
      assert.same({ "loot Pinnace 1", "loot Flute 1", "loot Skiff 1", "loot Frigate 1", "take nothing",
                    "fulfil expedition 2 anchors" }, opts(g))
      -- a non-active player is never offered a fulfil
      g = game{ displays = { {}, { "Captain 4/1", "Captain 4/1" } }, expeditions = { "expedition 2 anchors" },
                phase = "loot", coins = { 0, 2 }, harbour = { "Flute 1/1", "Pinnace 1/1" } }
      ok(g, "take nothing")
      assert.same({ "loot Flute 1", "loot Pinnace 1", "take nothing" }, opts(g))
    end)

    it("C8: specific persons are discarded first, a Jack of all Trades only for what is missing", function()
      local g = game{ displays = { { "Jack of all Trades 6/1", "Captain 4/1", "Captain 4/1", "Settler 4/1" } },
                      expeditions = { "expedition house + 2 anchors", "expedition 2 crosses" },
                      deck = concat({ "Sailor 3/1" }, FILLER) }
      assert.same({ "reveal", "stop", "fulfil expedition house + 2 anchors" }, opts(g))
      ok(g, "fulfil expedition house + 2 anchors")
      assert.same({ "Jack of all Trades 6/1" }, names(g, g.display[1]))
      assert.same({ "expedition 2 crosses" }, names(g, g.expeditions))
      assert.same({ 3, 0 }, coins(g))
      assert.equal(1 + 6, g.st[1].influence)
    end)

    it("C9: 10 influence and an expedition trigger the end; the round is finished", function()
      local nine = { "Admiral 9/3", "Admiral 9/3", "Pirate 9/3" }     -- 9 influence
      local g = game({ active = 2, first_player = 1, phase = "loot", coins = { 0, 9, 0 },
                       displays = { {}, nine }, done = { [2] = { "expedition 2 anchors" } },
                       harbour = { "Sailor 3/1" } }, 3)
      ok(g, "hire Sailor 3/1")                             -- Bea: 9 + 4 + 1 = 14 influence
      assert.is_true(g.ending)
      assert.is_false(g:over())
      assert.equal(3, g.current)                           -- Carl still plays: he sits right of Alex
      ok(g, "stop")                                        -- after his first card (a Pinnace)
      ok(g, "take nothing")
      ok(g, "take nothing")                                -- Bea (Alex has no coin)
      assert.is_true(g:over())
      assert.same({ 2 }, g:result().winners)
      assert.same({ 0, 14, 0 }, g:result().scores)
      logged(g, "the end is triggered: the round is finished")
    end)

    it("C9: without an expedition a player cannot win; a tie on influence and coins is shared", function()
      local g = game({ active = 3, phase = "loot", coins = { 1, 5, 5 },
                       displays = { { "Pirate 9/3", "Pirate 7/2", "Sailor 7/3", "Sailor 5/2", "Jester 9/3" },
                                    { "Admiral 9/3", "Mademoiselle 9/3" }, { "Admiral 9/3", "Mademoiselle 9/3" } },
                       done = { [2] = { "expedition 2 anchors" }, [3] = { "expedition 2 houses" } },
                       harbour = { "Governor 8/0" } }, 3)
      assert.same({ 13, 10, 10 }, influence(g))
      -- nobody can pay 8 for the Governor: no decision; Carl was the last of the round
      assert.is_true(g:over())
      assert.same({ 2, 3 }, g:result().winners)
    end)

    it("C9: a tie on influence goes to more coins", function()
      local g = game({ active = 2, phase = "loot", coins = { 4, 5 }, harbour = { "Pinnace 1/1" },
                       displays = { { "Admiral 9/3", "Mademoiselle 9/3" }, { "Admiral 9/3", "Mademoiselle 9/3" } },
                       done = { { "expedition 2 anchors" }, { "expedition 2 houses" } } }, 2)
      ok(g, "take nothing")                                -- Bea
      ok(g, "take nothing")                                -- Alex
      assert.is_true(g:over())
      assert.same({ 10, 10 }, g:result().scores)
      assert.same({ 2 }, g:result().winners)
    end)

    it("C10: Port Royal: 12 influence ends the game, no expedition needed, fewest-influence tax", function()
      local g = game({ active = 1, first_player = 2, phase = "loot", coins = { 9, 0 },
                       displays = { { "Admiral 9/3", "Admiral 9/3", "Pirate 9/3" } },
                       harbour = { "Sailor 3/1" } }, 2, nil, { "port_royal" })
      ok(g, "hire Sailor 3/1")                             -- 10 influence: not yet
      assert.is_false(g:over())
      assert.is_false(g.ending)
      g = game({ active = 1, first_player = 2, phase = "loot", coins = { 9, 0 },
                 displays = { { "Admiral 9/3", "Admiral 9/3", "Pirate 9/3", "Sailor 5/2" } },
                 harbour = { "Sailor 3/1" } }, 2, nil, { "port_royal" })
      ok(g, "hire Sailor 3/1")                             -- 12 influence, no expedition
      assert.is_true(g:over())                             -- Alex sits right of Bea, the starting player
      assert.same({ 1 }, g:result().winners)
      -- the base game would need an expedition: it goes on
      g = game({ active = 1, first_player = 2, phase = "loot", coins = { 9, 0 },
                 displays = { { "Admiral 9/3", "Admiral 9/3", "Pirate 9/3", "Sailor 5/2" } },
                 harbour = { "Sailor 3/1" } }, 2)
      ok(g, "hire Sailor 3/1")
      assert.is_false(g:over())
      -- fewest influence: Carl (0; Bea holds a Settler, 1) gains the coin, not the strongest
      g = game({ displays = { { "Pirate 9/3" }, { "Settler 4/1" } }, deck = concat({ "tax fewest influence" }, FILLER) },
               3, nil, { "port_royal" })
      assert.same({ 0, 0, 1 }, coins(g))
      g = game({ displays = { { "Pirate 9/3" }, { "Settler 4/1" } }, deck = concat({ "tax most swords" }, FILLER) },
               3, nil, { "port_royal" })
      assert.same({ 1, 0, 0 }, coins(g))
      -- the base game: both marks act as most swords (C5)
      g = game({ displays = { { "Pirate 9/3" }, { "Settler 4/1" } }, deck = concat({ "tax fewest influence" }, FILLER) }, 3)
      assert.same({ 1, 0, 0 }, coins(g))
    end)
  end)

  describe("options", function()
    it("must_reveal=false: the player may stop before the first card", function()
      local g = game({}, 2, { must_reveal = false })
      assert.same({ "reveal", "stop" }, opts(g))
      assert.equal(0, g.harbour:count())
      ok(g, "stop")
      assert.equal(2, g.current)                           -- empty harbour: nothing to take
    end)

    it("fulfil_after_takes=false: no extra decision after the last take", function()
      local sc = { displays = { { "Captain 4/1", "Captain 4/1" } }, expeditions = { "expedition 2 anchors" },
                   phase = "loot", harbour = { "Flute 1/1" } }
      local g = game(sc, 2, { fulfil_after_takes = false })
      ok(g, "loot Flute 1")
      assert.equal(2, g.current)                           -- Bea's turn: Alex was not asked again
      assert.same({ "expedition 2 anchors" }, names(g, g.expeditions))
    end)

    it("first_player: the starting player, and the player to their right plays last", function()
      local g = kontor.new_game{ rules = "caribbean", players = 3, seed = 1, options = { first_player = 3 } }
      assert.equal(3, g:who())
      fails(function() kontor.new_game{ rules = "caribbean", players = 2, options = { first_player = 3 } } end,
            "first_player: 3 is not a seat of a 2-player game")
    end)
  end)

  describe("g:why", function()
    it("names the rule", function()
      local g = game{ phase = "loot", harbour = { "Sailor 3/1", "Flute 1/1" }, coins = { 2, 0 } }
      local why = g:why("hire Sailor 3/1")
      assert.truthy(why:find("the Sailor 3/1 costs 3 and you have 2 coins", 1, true), why)
      why = g:why("fulfil expedition 2 anchors")
      assert.truthy(why:find("no such expedition", 1, true), why)
      g = game{ displays = { { "Sailor 3/1" } }, deck = concat({ "Flute 1/1" }, FILLER) }
      why = g:why("reveal")
      assert.truthy(why:find("first decide about the ship just revealed", 1, true), why)
    end)
  end)

  describe("edge cases", function()
    it("a tax with everyone at 0 strength: everyone gains 1 coin", function()
      local g = game({ deck = concat({ "tax most swords" }, FILLER), coins = { 0, 2, 5 } }, 3)
      assert.same({ 1, 3, 6 }, coins(g))
      invariants(g)
    end)

    it("a bust with Jesters around the table: every Jester pays, in turn order", function()
      local g = game({ active = 2, coins = { 0, 0, 0 },
                       displays = { { "Jester 5/1" }, { "Jester 7/2", "Jester 7/2" }, { "Jester 9/3" } },
                       deck = { "Flute 1/1", "Flute 2/2", "Pinnace 1/1", "Skiff 1/1", "Frigate 1/1", "Galleon 2/1",
                                "Pinnace 2/2", "Skiff 3/2" } }, 3)
      ok(g, "reveal")                                      -- bust
      assert.same({ 1, 2, 1 }, coins(g))
      local log, at = g:log(), nil
      for i, l in ipairs(log) do if l == "Bea gains 2 coins (Jester)" then at = i end end
      assert.truthy(at, table.concat(log, "\n"))
      assert.same({ "Carl gains 1 coin (Jester)", "Alex gains 1 coin (Jester)" }, { log[at + 1], log[at + 2] })
      -- Bea drew the top two cards, then Carl, then Alex
      assert.same({ "Pinnace 1/1", "Skiff 1/1" }, names(g, g.purse[2]))
      assert.equal(3, g.current)
      invariants(g)
    end)

    it("the deck and the discard pile both run out: a gain takes what there is; nobody can reveal", function()
      local g = game{ phase = "loot", harbour = { "Flute 2/3" }, deck = { "Pinnace 1/1" }, coins = { 0, 0 } }
      ok(g, "loot Flute 3")                              -- gains 3: the Pinnace, then the Flute (reshuffled)
      assert.same({ 2, 0 }, coins(g))
      assert.equal(0, g.deck:count())
      assert.equal(0, g.discard:count())
      -- nobody can reveal or take: a round without a possible action ends the game
      assert.is_true(g:over())
      assert.same({}, g:result().winners)               -- nobody has an expedition
      logged(g, "no card is left to reveal or gain: the game ends")
      invariants(g)
    end)

    it("no card to reveal: only stop (and fulfils) are offered", function()
      local g = game{ deck = { "Sailor 3/1" }, displays = { { "Captain 4/1", "Captain 4/1" } },
                      expeditions = { "expedition 2 anchors" } }
      assert.same({ "stop", "fulfil expedition 2 anchors" }, opts(g))
      assert.equal("the draw deck and the discard pile are both empty", g.R.explain.discover(g, 1, "reveal"))
    end)

    it("a player who cannot pay to take is skipped; one with 1 coin can only loot", function()
      local g = game({ phase = "loot", harbour = { "Flute 1/1", "Pinnace 1/1", "Sailor 3/1" }, coins = { 0, 0, 1 } }, 3)
      ok(g, "take nothing")
      assert.equal(3, g:who())                             -- Bea (0 coins) has no decision
      assert.same({ "loot Flute 1", "loot Pinnace 1", "take nothing" }, opts(g))
      local why = g:why("hire Sailor 3/1")
      assert.truthy(why:find("costs 3 plus 1 for the active player and you have 1 coin", 1, true), why)
    end)

    it("a Governor on a non-active player: two cards, paying 1 coin each", function()
      local g = game({ phase = "loot", coins = { 0, 3 }, displays = { {}, { "Governor 8/0" } },
                       harbour = { "Flute 1/1", "Pinnace 1/1", "Skiff 1/1" } }, 2)
      ok(g, "take nothing")
      ok(g, "loot Flute 1")
      assert.equal(2, g:who())
      ok(g, "loot Pinnace 1")
      assert.same({ 2, 3 }, coins(g))                      -- 3 - 1 + 1 - 1 + 1
      assert.equal(2, g.current)                           -- the turn passed to Bea
    end)

    it("a Governor on the active player adds one take", function()
      local g = game{ phase = "loot", coins = { 0, 0 }, displays = { { "Governor 8/0" } },
                      harbour = { "Flute 1/1", "Pinnace 1/1", "Skiff 1/1" } }
      ok(g, "loot Flute 1")
      ok(g, "loot Pinnace 1")
      assert.same({ 0, 0 }, { g.harbour:count() == 1 and 0 or 1, 0 })
      assert.equal(2, g:who())                             -- Bea (0 coins) skipped -> next turn
    end)

    it("scenario set-up rejects impossible positions", function()
      fails(function() game{ harbour = { "Flute 1/1", "Flute 2/2" } } end, "a second Flute in the harbour")
      fails(function() game{ harbour = { "tax most swords" } } end, "cannot be there")
      fails(function() game{ bogus = 1 } end, "unknown field 'bogus'")
      fails(function() game{ deck = { "Flute 9/9" } } end, "unknown card 'Flute 9/9'")
      fails(function() game{ displays = { { "Governor 8/0", "Governor 8/0", "Governor 8/0", "Governor 8/0", "Governor 8/0" } } } end,
            "more 'Governor 8/0' cards are placed than the 4 there are")
    end)
  end)

  describe("views and texts", function()
    it("the board and the view", function()
      local g = game{ phase = "loot", coins = { 2, 1 }, displays = { { "Sailor 3/1" } },
                      harbour = { "Flute 2/2", "Priest 4/1" }, expeditions = { "expedition 2 anchors" } }
      local b = g:show()
      assert.truthy(b:find("Harbour: Flute 2/2 | Priest 4/1 (1 ship)", 1, true), b)
      assert.truthy(b:find("* Alex: 2 coins, 1 influence, 1 sword; persons: Sailor 3/1", 1, true), b)
      local v = g:view(2)
      assert.same({ "Flute 2/2", "Priest 4/1" }, v.harbour)
      assert.equal(2, v.players[1].coins)
    end)
  end)

  describe("several games at once", function()
    it("two games of one rule set waiting at take decisions do not disturb each other", function()
      local R = kontor.load_rules("caribbean")
      local function mk(harbour)
        return kontor.new_game{ rules = R, players = 2, seed = 1, names = { "Alex", "Bea" },
                                scenario = { phase = "loot", harbour = harbour, deck = FILLER } }
      end
      local a = mk{ "Sailor 3/1", "Flute 1/1" }
      local b = mk{ "Pinnace 1/1", "Skiff 1/2", "Galleon 2/1" }
      assert.same({ "loot Flute 1", "take nothing" }, a:options())
      assert.same({ "loot Pinnace 1", "loot Skiff 2", "loot Galleon 1", "take nothing" }, b:options())
      ok(a, "loot Flute 1")
      assert.equal("Flute 1/1", names(a, a.discard)[1])       -- then the Sailor left over
      ok(b, "loot Galleon 1")
      assert.equal("Galleon 2/1", names(b, b.discard)[1])
    end)
  end)

  describe("random games", function()
    for _, variant in ipairs({ false, "port_royal" }) do
      for players = 2, 5 do
        it(("%s, %d players: the invariants hold after every step"):format(variant or "caribbean", players), function()
          for seed = 1, 3 do
            local g = kontor.new_game{ rules = "caribbean", players = players, seed = seed * 10 + players,
                                       variants = variant and { variant } or nil }
            local x, steps = seed, 0
            invariants(g)
            while not g:over() do
              local o = g:options()
              x = (x * 1103515245 + 12345) % 2147483648
              ok(g, (x >> 8) % #o + 1)
              invariants(g)
              steps = steps + 1
              assert.is_true(steps < 20000)
            end
            local r = g:result()
            assert.equal(players, #r.scores)
            for _, w in ipairs(r.winners) do
              assert.truthy(variant or g.done[w]:count() > 0)
            end
          end
        end)
      end
    end
  end)

  describe("skipped decisions leave a trace (g:skipped, issue 12)", function()
    it("a ship stronger than the player: no repel decision, and why", function()
      local g = game{ deck = concat({ "Pinnace 1/1" }, FILLER) }   -- revealed at once; strength 0
      assert.same({ { seat = 1, decision = "repel", turn = 1,
                      why = "strength 0 is below the Pinnace 1/1's 1 sword" } }, g:skipped())
    end)

    it("a player with no coin is not asked to take, and the trace says why", function()
      local g = game{ phase = "loot", harbour = { "Flute 1/2", "Sailor 3/1" }, coins = { 1, 0 } }
      ok(g, "take nothing")
      local seen
      for _, e in ipairs(g:skipped()) do
        if e.seat == 2 and e.decision == "take_other" then seen = e.why end
      end
      assert.are.equal("no coin to pay the active player", seen)
    end)
  end)
end)
