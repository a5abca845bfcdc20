-- Sea Merchants: the rulebook's worked examples, one test per ruling
-- (S1..S12, docs/rules/sea_merchants.md), edge cases, and random games.
-- Run: build/kontor run tests/busted.lua tests/rules/sea_merchants_spec.lua

local support = require "tests.lua.support"
local MARKET = support.SM_MARKET   -- one card of each product
local fails, invariants = support.fails, support.invariants

-- A game from a stated position (tests/lua/support.lua has the defaults).
local game = support.sea_merchants_game

local ok = support.ok

-- One step, by its exact option text (to stop between the steps of a move).
local function step(g, text)
  for i, o in ipairs(g:options()) do
    if o == text then return ok(g, i) end
  end
  error(("'%s' is not an option: %s"):format(text, table.concat(g:options(), " | ")))
end

-- A whole play: the engine may leave the "stop here" step of play_more open
-- when the text is used up; close it.
local function play(g, text)
  ok(g, text)
  if not g:over() and g:options()[1] == text then ok(g, text) end
end

local function product(card)         -- a card is its product's number
  return MARKET[card]
end

local function names(pile, sorted)
  local t = {}
  for i = 1, pile:count() do t[i] = product(pile:get(i)) end
  if sorted then table.sort(t) end
  return t
end

local function hand(g, seat) return names(g.hands[seat], true) end
local function market(g) return names(g.market) end
local function coins(g) return g.coins:values() end
local function cubes(g) return g.cubes:values() end      -- grain, wood, porcelain, fish, spices, cloth
local function ships(g, seat)
  local t = {}
  for k, p in ipairs(g.ships[seat]) do t[k] = p > 0 and MARKET[p] or false end
  return t
end
local function has(list, x)
  for _, y in ipairs(list) do if y == x then return true end end
  return false
end
local function last_log(g)
  local lines = g:log()
  return lines[#lines]
end


local RULES = dofile("variants/sea_merchants.lua")

-- g:why names the rule: the reason must be part of its message.
local function why(g, text, reason)
  local msg = g:why(text)
  assert(msg, ("'%s' is legal"):format(text))
  assert(msg:find(reason, 1, true), ("expected '%s' in: %s"):format(reason, msg))
end

describe("Sea Merchants", function()

  describe("worked examples of the rulebook", function()
    it("two contracts pay 4 extra coins when their owner earns", function()
      local g = game{ phase = "phase2", hands = { { "fish" }, {} },
                      ships = { { "fish", "wood" }, { "cloth", "spices" } },
                      specials = { { contract = 2 } } }
      play(g, "play fish on slots 1")
      assert.same({ 2 + 4, 0 }, coins(g))
      assert.truthy(has(g:log(), "Anna plays fish on slot 1: fish shows 2; Anna earns 6 (+4 contracts)"))
    end)

    it("1 fish in the market + 2 played = 3 coins per fish cube", function()
      local g = game({ phase = "phase2",
                       market = { "grain", "wood", "porcelain", "fish", "spices", "cloth" },
                       hands = { { "fish", "fish" }, {}, {} },
                       ships = { { "fish", "fish" }, { "fish", "wood" }, { "grain", "cloth" } } }, 3)
      play(g, "play fish on slots 1,2")
      assert.same({ "fish", "fish", "porcelain", "fish", "spices", "cloth" }, market(g))
      assert.same({ 6, 3, 0 }, coins(g))
      assert.truthy(has(g:log(), "Anna plays fish on slots 1,2: fish shows 3; Anna earns 6, Bert earns 3"))
    end)

    it("a dock owner who buys a ship also exchanges a cube (not on the new ship)", function()
      local g = game{ coins = { 10, 0 }, specials = { { dock = 1 } },
                      ships = { { "fish", "wood" }, { "cloth", "spices" } } }
      ok(g, "buy ship and load spices")
      assert.same({ "dock exchange ship 1", "dock exchange ship 2", "no dock exchange" }, g:options())
      ok(g, "dock exchange ship 1 to cloth")
      assert.same({ "cloth", "wood", "spices" }, ships(g, 1))
      assert.same({ 0, 0 }, coins(g))
      assert.same({ 5, 4, 5, 5, 3, 3 }, cubes(g))
      assert.equal(1, g.specials[1].ship)
      invariants(g)
    end)

    it("a dock can be used in the turn it is bought", function()
      local g = game{ coins = { 12, 0 } }
      ok(g, "buy dock")
      assert.same({ "dock exchange ship 1", "dock exchange ship 2", "no dock exchange" }, g:options())
      ok(g, "dock exchange ship 2 to porcelain")
      assert.same({ "grain", "porcelain" }, ships(g, 1))
      assert.same({ 0, 0 }, coins(g))
      assert.equal(1, g.specials[1].dock)
      assert.equal(1, g.pool.dock)
      invariants(g)
    end)
  end)

  describe("rulings", function()
    it("S1: 2 to 4 players, everyone starts with 0 coins", function()
      for n = 2, 4 do
        local g = kontor.new_game{ rules = "sea_merchants", players = n, seed = 1 }
        for seat = 1, n do assert.equal(0, g.coins:get(seat)) end
      end
      assert.has_error(function() kontor.new_game{ rules = "sea_merchants", players = 1 } end)
      assert.has_error(function() kontor.new_game{ rules = "sea_merchants", players = 5 } end)
    end)

    it("S1: coins are unlimited", function()
      local g = game{ phase = "phase2", coins = { 1000, 0 }, hands = { { "grain" }, {} } }
      play(g, "play grain on slots 2")
      assert.same({ 1002, 0 }, coins(g))
    end)

    it("S2: components are limited: 60 cards, 30 cubes, 14 ships, 2 of each other card", function()
      local g = kontor.new_game{ rules = "sea_merchants", players = 4, seed = 3 }
      assert.equal(60 - 6 - 12, g.deck:count())
      assert.same({ 5, 5, 5, 5, 5, 5 }, cubes(g))
      assert.same({ ship = 6, contract = 2, office = 2, dock = 2 }, g.pool)
      invariants(g)
      -- both contracts owned: none left to buy
      g = game({ coins = { 20, 0, 0 }, specials = { [2] = { contract = 1 }, [3] = { contract = 1 } },
                 ships = { { "grain", "wood" }, { "cloth", "spices" }, { "fish", "fish" } } }, 3)
      ok(g, "buy")
      assert.same({ "buy ship", "buy office", "buy dock" }, g:options())
      why(g, "buy contract", "no contract card left in the pool")
    end)

    it("S2: all 14 ships can be owned; then none is sold", function()
      local many = { "grain", "grain", "wood", "wood", "porcelain", "porcelain", "fish" }
      local g = game{ coins = { 50, 0 }, ships = { many, { "cloth", "spices", "cloth", "spices", "cloth", "spices", "fish" } } }
      assert.equal(0, g.pool.ship)
      why(g, "buy ship", "no ship card left in the pool")
      ok(g, "buy")
      assert.same({ "buy contract", "buy office", "buy dock" }, g:options())
    end)

    it("S3: shuffle, 6 to the market, 3 to each player, 2 empty ships each; a seed gives one game", function()
      local a = kontor.new_game{ rules = "sea_merchants", players = 3, seed = 42 }
      local b = kontor.new_game{ rules = "sea_merchants", players = 3, seed = 42 }
      local c = kontor.new_game{ rules = "sea_merchants", players = 3, seed = 43 }
      assert.equal(6, a.market:count())
      for seat = 1, 3 do
        assert.equal(3, a.hands[seat]:count())
        assert.same({ false, false }, ships(a, seat))
        assert.same(a.hands[seat]:cards(), b.hands[seat]:cards())
      end
      assert.equal(60 - 6 - 9, a.deck:count())
      assert.equal(0, a.covered:count())
      assert.same(a.market:cards(), b.market:cards())
      assert.same(a.deck:cards(), b.deck:cards())
      assert.are_not.same(a.deck:cards(), c.deck:cards())
      invariants(a)
    end)

    it("S4: loading starts with the first player, two rounds in turn order", function()
      local g = kontor.new_game{ rules = "sea_merchants", players = 3, seed = 5, names = { "Anna", "Bert", "Carl" },
                                 options = { first_player = 2 } }
      local order = {}
      for _ = 1, 6 do
        order[#order + 1] = g:who()
        ok(g, 1)                                -- the first option: grain while it lasts
      end
      assert.same({ 2, 3, 1, 2, 3, 1 }, order)
      assert.same({ "grain", "grain" }, ships(g, 2))
      assert.same({ "grain", "grain" }, ships(g, 3))
      assert.same({ "grain", "wood" }, ships(g, 1))   -- S12: the 5 grain cubes were gone
      assert.equal(2, g:who())                  -- phase I starts with the first player
      assert.same({ "exchange", "pass" }, g:options())
    end)

    it("S4: first_player must be a seat of the game", function()
      fails(function()
        kontor.new_game{ rules = "sea_merchants", players = 2, options = { first_player = 3 } }
      end, "first_player: 3 is not a seat of a 2-player game")
    end)

    it("S4: the load options: every product with a cube x every empty ship", function()
      local g = kontor.new_game{ rules = "sea_merchants", players = 2, seed = 1 }
      local opts = g:options()
      assert.equal(12, #opts)
      assert.same({ "load grain on ship 1", "load grain on ship 2", "load wood on ship 1" },
                  { opts[1], opts[2], opts[3] })
      assert.equal("load cloth on ship 2", opts[12])
      ok(g, "load fish on ship 2")
      ok(g, "load wood on ship 1")
      assert.same({ "load grain on ship 1", "load wood on ship 1", "load porcelain on ship 1",
                    "load fish on ship 1", "load spices on ship 1", "load cloth on ship 1" }, g:options())
      why(g, "load grain on ship 2", "ship 2 is already loaded")
      assert.equal("Player 1 loads fish on ship 2", g:log()[1])
    end)

    it("S5: exactly one main action; a dock adds an exchange even after a pass, and is optional", function()
      local g = game{ specials = { { dock = 2 } } }
      ok(g, "pass")
      assert.same({ "dock exchange ship 1", "dock exchange ship 2", "no dock exchange" }, g:options())
      ok(g, "dock exchange ship 1 to fish")
      -- second dock: ship 1 is done, ship 2 left
      assert.same({ "dock exchange ship 2", "no dock exchange" }, g:options())
      ok(g, "no dock exchange")
      assert.same({ "draw" }, g:options())          -- phase II with an empty hand
      assert.same({ "fish", "wood" }, ships(g, 1))
    end)

    it("S5: exchange + dock exchanges two different ships", function()
      local g = game{ specials = { { dock = 1 } } }
      ok(g, "exchange ship 2 to fish")
      ok(g, "dock exchange ship 1 to fish")
      assert.same({ "fish", "fish" }, ships(g, 1))
      assert.same({ 5, 5, 5, 3, 4, 4 }, cubes(g))
    end)

    it("S6: each exchange on a different ship, a different product, with a cube in the pool", function()
      local g = game{ specials = { { dock = 1 } } }
      ok(g, "exchange ship 1")
      assert.same({ "exchange ship 1 to wood", "exchange ship 1 to porcelain", "exchange ship 1 to fish",
                    "exchange ship 1 to spices", "exchange ship 1 to cloth" }, g:options())
      ok(g, "exchange ship 1 to cloth")
      assert.same({ "dock exchange ship 2", "no dock exchange" }, g:options())
      why(g, "dock exchange ship 1 to fish", "ship 1 was already exchanged this phase")
      why(g, "dock exchange ship 2 to wood", "ship 2 already carries wood")
      assert.same({ 5, 4, 5, 5, 4, 3 }, cubes(g))   -- grain back, cloth taken (Bert has 1 cloth)
    end)

    it("S6: a ship bought this phase cannot be exchanged", function()
      local g = game{ coins = { 10, 0 }, specials = { { dock = 1 } } }
      ok(g, "buy ship and load fish")
      why(g, "dock exchange ship 3 to grain", "ship 3 was bought this phase: exchange on one of your other ships")
      assert.falsy(has(g:options(), "dock exchange ship 3"))
    end)

    it("S1 option start_coins: everyone starts with that many coins", function()
      local g = kontor.new_game{ rules = "sea_merchants", players = 3, seed = 2, options = { start_coins = 12 } }
      assert.same({ 12, 12, 12 }, coins(g))
      fails(function() kontor.new_game{ rules = "sea_merchants", options = { start_coins = -1 } } end,
            "option start_coins of sea_merchants: -1 is below the minimum 0")
    end)

    it("S5 option dock_at_once=false: a dock bought this phase waits for the next turn", function()
      local g = game({ coins = { 12, 0 }, deck = { "wood", "grain", "cloth", "spices", "fish", "fish" } },
                     nil, { dock_at_once = false })
      ok(g, "buy dock")
      assert.equal(1, g.specials[1].dock)
      assert.same({ "draw" }, g:options())             -- no dock decision: on to phase II (empty hand)
      ok(g, "draw")
      ok(g, "pass")                                     -- Bert's turn
      ok(g, "draw")
      ok(g, "pass")                                     -- Anna again: now the dock works
      assert.same({ "dock exchange ship 1", "dock exchange ship 2", "no dock exchange" }, g:options())
      invariants(g)
    end)

    it("S6 option exchange_new_ship=true: a ship bought this phase may be exchanged", function()
      local g = game({ coins = { 10, 0 }, specials = { { dock = 1 } } }, nil, { exchange_new_ship = true })
      ok(g, "buy ship and load fish")
      assert.truthy(has(g:options(), "dock exchange ship 3"))
      ok(g, "dock exchange ship 3 to grain")
      assert.same({ "grain", "wood", "grain" }, ships(g, 1))
      invariants(g)
    end)

    it("S7: prices and supply decide what can be bought", function()
      local g = game{ coins = { 7, 0 } }
      assert.same({ "exchange", "pass" }, g:options())
      why(g, "buy contract", "a contract costs 11 and you have 7 coins")
      why(g, "buy office", "an office costs 8 and you have 7 coins")
      g = game{ coins = { 1, 0 } }
      why(g, "buy office", "an office costs 8 and you have 1 coin")
      assert.truthy(g:show():find("Anna: 1 coin; ships", 1, true), g:show())
      g = game{ coins = { 11, 0 } }
      ok(g, "buy")
      assert.same({ "buy ship", "buy contract", "buy office" }, g:options())
      ok(g, "buy contract")
      assert.same({ 0, 0 }, coins(g))
      assert.equal(1, g.specials[1].contract)
      assert.equal(1, g.pool.contract)
      assert.equal("Anna buys a contract for 11", last_log(g))
    end)

    it("S7: a bought ship is loaded at once", function()
      local g = game{ coins = { 15, 0 } }
      ok(g, "buy ship")
      assert.same({ "buy ship and load grain", "buy ship and load wood", "buy ship and load porcelain",
                    "buy ship and load fish", "buy ship and load spices", "buy ship and load cloth" }, g:options())
      ok(g, "buy ship and load porcelain")
      assert.same({ "grain", "wood", "porcelain" }, ships(g, 1))
      assert.same({ 5, 0 }, coins(g))
      assert.equal(14 - 4 - 1, g.pool.ship)
      assert.equal("Anna buys a ship for 10 and loads porcelain on it (ship 3)", last_log(g))
      invariants(g)
    end)

    it("S8: every player with the product earns, the active one included; contracts once per play", function()
      local g = game({ phase = "phase2", active = 2, market = { "wood", "wood", "grain", "grain", "cloth", "cloth" },
                       hands = { {}, { "wood", "cloth" }, {} },
                       ships = { { "wood", "wood" }, { "wood", "fish" }, { "grain", "cloth" } },
                       specials = { { contract = 1 }, {}, { contract = 1 } } }, 3)
      ok(g, "play")
      assert.same({ "play wood", "play cloth" }, g:options())
      play(g, "play wood on slots 6")
      -- wood shows 3: Anna 2 ships x 3 + 2 (one contract, once), Bert 3, Carl nothing (no contract pay)
      assert.same({ 8, 3, 0 }, coins(g))
      assert.same({ "wood", "wood", "grain", "grain", "cloth", "wood" }, market(g))
      assert.same({ "cloth" }, hand(g, 2))
      assert.equal("cloth", product(g.covered:top()))
      assert.equal("Bert plays wood on slot 6: wood shows 3; Bert earns 3, Anna earns 8 (+2 contract)",
                   g:log()[#g:log()])
      invariants(g)
    end)

    it("S8: the player chooses the slots, ascending, never one slot twice", function()
      local g = game{ phase = "phase2", hands = { { "fish", "fish", "fish", "grain" }, {} } }
      why(g, "play fish on slots 2,2", "slot 2 is already covered in this play")
      why(g, "play fish on slots 2,1", "slots go in ascending order: slot 1 cannot follow slot 2")
      why(g, "play fish on slots 7", "there is no market slot 7 (slots 1 to 6)")
      why(g, "play spices", "you hold no spices card")
      -- a text longer than the hand runs past the end of the move; ask the rule set directly
      assert.equal("you hold only 3 fish cards", RULES.explain.play_more(g, 1, "play fish on slots 2,3,5,6"))
      step(g, "play"); step(g, "play fish"); step(g, "play fish on slots 2")
      assert.same({ "play fish on slots 2", "play fish on slots 2,3", "play fish on slots 2,4",
                    "play fish on slots 2,5", "play fish on slots 2,6" }, g:options())
      play(g, "play fish on slots 2,5")
      assert.same({ "grain", "fish", "porcelain", "fish", "fish", "cloth" }, market(g))
      assert.same({ "fish", "grain" }, hand(g, 1))
      assert.same({ 0, 0 }, coins(g))   -- nobody carries fish
      assert.equal("Anna plays fish on slots 2,5: fish shows 3; nobody earns", last_log(g))
    end)

    it("S8: a play of 6 cards", function()
      local g = game{ phase = "phase2", market = { "grain", "grain", "wood", "wood", "cloth", "cloth" },
                      hands = { { "fish", "fish", "fish", "fish", "fish", "fish", "fish" }, {} },
                      ships = { { "fish", "fish" }, { "fish", "spices" } } }
      local covered = g.covered:count()
      play(g, "play fish on slots 1,2,3,4,5,6")
      assert.same({ "fish", "fish", "fish", "fish", "fish", "fish" }, market(g))
      assert.same({ "fish" }, hand(g, 1))
      assert.equal(covered + 6, g.covered:count())
      assert.same({ 12, 6 }, coins(g))
      invariants(g)
    end)

    it("S9: draw takes the top 2 cards, one at a time; no hand limit", function()
      local g = game{ phase = "phase2", deck = { "spices", "porcelain", "grain" },
                      hands = { { "fish", "fish", "fish", "fish", "fish", "fish", "fish", "fish", "fish", "cloth" }, {} } }
      ok(g, "draw")
      assert.equal(12, g.hands[1]:count())
      assert.same({ "porcelain", "spices" }, { product(g.hands[1]:get(12)), product(g.hands[1]:get(11)) })
      assert.same({ "grain" }, names(g.deck))
      assert.equal("Anna draws 2 cards", last_log(g))
      assert.equal(2, g:who())
    end)

    it("S10: offices: an optional draw of 1 each at the end of phase II, after a play too", function()
      local g = game{ phase = "phase2", deck = { "spices", "porcelain", "grain", "wood" },
                      hands = { { "fish" }, {} }, specials = { { office = 2 } } }
      play(g, "play fish on slots 1")
      assert.same({ "office draw", "no office draw" }, g:options())
      step(g, "office draw")                    -- by number: the text would repeat for the 2nd office
      assert.same({ "office draw", "no office draw" }, g:options())
      step(g, "no office draw")
      assert.same({ "spices" }, hand(g, 1))
      assert.equal(3, g.deck:count())
      assert.equal(2, g:who())
      assert.truthy(has(g:log(), "Anna draws 1 card (office)"))
    end)

    it("S10: a 'no office draw' ends the office draws of that turn (offices are alike)", function()
      local g = game{ phase = "phase2", specials = { { office = 2 } } }
      ok(g, "draw")
      ok(g, "no office draw")
      assert.equal(2, g:who())
      assert.same({ "wood", "grain" }, { product(g.hands[1]:get(1)), product(g.hands[1]:get(2)) })
      assert.equal(2, g.deck:count())
    end)

    it("S5: a 'no dock exchange' ends the dock exchanges of that phase (docks are alike)", function()
      local g = game{ specials = { { dock = 2 } } }
      ok(g, "pass")
      ok(g, "no dock exchange")
      assert.same({ "draw" }, g:options())
      assert.same({ "grain", "wood" }, ships(g, 1))
    end)

    it("S11: a draw of 2 with 1 card left ends the game after the first card", function()
      local g = game{ phase = "phase2", deck = { "cloth" }, coins = { 3, 5 } }
      ok(g, "draw")
      assert.is_true(g:over())
      assert.same({ "cloth" }, hand(g, 1))
      assert.equal(0, g.deck:count())
      assert.same({ 3, 5 }, g:result().scores)
      assert.same({ 2 }, g:result().winners)
      local log = g:log()
      assert.equal("Anna draws 1 card", log[#log - 1])
      assert.equal("the deck is empty: the game ends", log[#log])
      invariants(g)
    end)

    it("S11: an office draw that empties the deck ends the game at once", function()
      local g = game{ phase = "phase2", deck = { "cloth", "wood", "grain" }, coins = { 4, 2 },
                      specials = { { office = 2 } } }
      ok(g, "draw")
      assert.same({ "office draw", "no office draw" }, g:options())
      ok(g, "office draw")
      assert.is_true(g:over())
      assert.same({ "cloth", "grain", "wood" }, hand(g, 1))
      assert.same({ 1 }, g:result().winners)
      assert.equal("Anna draws 1 card (office)", g:log()[#g:log() - 1])
    end)

    it("S11: a tie for the most coins is a shared win", function()
      local g = game({ phase = "phase2", deck = { "cloth" }, coins = { 9, 4, 9 },
                       ships = { { "grain", "wood" }, { "cloth", "spices" }, { "fish", "fish" } } }, 3)
      ok(g, "draw")
      assert.is_true(g:over())
      assert.same({ 9, 4, 9 }, g:result().scores)
      assert.same({ 1, 3 }, g:result().winners)
    end)

    it("S12: no cube left: the product is not offered, and g:why says why", function()
      local g = game({ phase = "phase1", coins = { 10, 0, 0 },
                       ships = { { "spices", "spices" }, { "spices", "grain" }, { "spices", "spices" } } }, 3)
      assert.equal(0, g.cubes:get(5))
      ok(g, "buy ship")
      assert.falsy(has(g:options(), "buy ship and load spices"))
      why(g, "buy ship and load spices", "no spices cube left in the pool")
      ok(g, "buy ship and load fish")
      ok(g, "draw")
      -- Bert: exchange to spices is not offered either
      ok(g, "exchange ship 2")
      assert.falsy(has(g:options(), "exchange ship 2 to spices"))
      why(g, "exchange ship 2 to spices", "no spices cube left in the pool")
    end)

    it("S12: loading offers no product whose cubes are gone", function()
      local g = game({ phase = "load", active = 3,
                       ships = { { "fish", "fish" }, { "fish", "fish" }, { "fish", false } } }, 3)
      assert.equal(3, g:who())
      assert.same({ "load grain on ship 2", "load wood on ship 2", "load porcelain on ship 2",
                    "load spices on ship 2", "load cloth on ship 2" }, g:options())
      why(g, "load fish on ship 2", "no fish cube left in the pool")
      ok(g, "load grain on ship 2")
      assert.equal(1, g:who())                 -- phase I begins with the first player
      assert.same({ 4, 5, 5, 0, 5, 5 }, cubes(g))
    end)
  end)

  describe("scenario set-up", function()
    it("places the stated cards and sends the rest out of play", function()
      local g = game{ hands = { { "fish", "fish" }, { "cloth" } }, deck = { "wood", "grain" } }
      assert.same(MARKET, market(g))
      assert.same({ "fish", "fish" }, hand(g, 1))
      assert.same({ "grain", "wood" }, names(g.deck))   -- bottom first: wood on top
      assert.equal(60 - 6 - 3 - 2, g.covered:count())
      assert.equal(1, g.market:get(1))                  -- grain: a card is its product's number
      assert.same({ 4, 4, 5, 5, 4, 4 }, cubes(g))
      invariants(g)
    end)

    it("without a deck, the cards placed nowhere are shuffled into the deck", function()
      local g = kontor.new_game{ rules = "sea_merchants", players = 2, seed = 3,
                                 scenario = { market = MARKET, hands = { { "fish" }, {} },
                                              ships = { { "grain", "wood" }, { "cloth", "spices" } } } }
      assert.equal(60 - 6 - 1, g.deck:count())
      assert.equal(0, g.covered:count())
      assert.equal(1, g:who())
      assert.same({ "exchange", "pass" }, g:options())     -- phase I: every ship is loaded
      invariants(g)
    end)

    it("rejects impossible positions", function()
      local eleven = {}
      for i = 1, 10 do eleven[i] = "fish" end
      fails(function() game{ deck = eleven } end, "scenario: 11 fish cards are placed, but there are only 10")
      fails(function() game({ ships = { { "fish", "fish" }, { "fish", "fish" }, { "fish", "fish" } } }, 3) end,
            "scenario: 6 fish cubes are on ships, but there are only 5")
      assert.has_error(function() game{ market = { "fish" } } end)
      assert.has_error(function() game{ deck = { "gold" } } end)
      assert.has_error(function() game{ bogus = 1 } end)
      assert.has_error(function() game{ specials = { { contract = 3 } } } end)
      assert.has_error(function() game{ ships = { { "fish", false }, { "wood", "wood" } }, phase = "phase2" } end)
    end)

    it("starts in phase II at the stated seat", function()
      local g = game({ phase = "phase2", active = 3, hands = { {}, {}, { "grain" } },
                       ships = { { "grain", "wood" }, { "cloth", "spices" }, { "fish", "fish" } } }, 3)
      assert.equal(3, g:who())
      assert.same({ "play", "draw" }, g:options())
      ok(g, "draw")
      assert.equal(1, g:who())
      assert.same({ "exchange", "pass" }, g:options())
    end)
  end)

  describe("views", function()
    it("a seat sees its own hand and the others' hand sizes", function()
      local g = game{ hands = { { "fish", "grain" }, { "cloth" } } }
      local v = g:view(1)
      assert.same({ "fish", "grain" }, v.hand)
      assert.equal(1, v.players[2].hand)
      assert.equal(4, v.deck)
      assert.same(MARKET, v.market)
      local board = g:show(1)
      assert.truthy(board:find("Market: 1 grain | 2 wood", 1, true))
      assert.truthy(board:find("hand 2 cards: grain, fish", 1, true))
      assert.truthy(board:find("hand 1 card", 1, true))
      assert.falsy(board:find("hand 1 card:", 1, true))         -- Bert's hand is hidden from Anna
    end)
  end)

  describe("random games", function()
    for _, players in ipairs({ 2, 3, 4 }) do
      it(("seed 1, %d players: the invariants hold after every step"):format(players), function()
        local g = kontor.new_game{ rules = "sea_merchants", players = players, seed = 1 }
        local x, steps = 12345, 0
        invariants(g)
        while not g:over() do
          local opts = g:options()
          x = (x * 1103515245 + 12345) % 2147483648
          ok(g, (x >> 8) % #opts + 1)
          invariants(g)
          steps = steps + 1
          assert.is_true(steps < 5000)
        end
        assert.equal(0, g.deck:count())
        local r = g:result()
        assert.equal(players, #r.scores)
        assert.truthy(#r.winners >= 1)
        assert.same(coins(g), r.scores)
      end)
    end
  end)
end)

describe("Sea Merchants: scripts driving the API (issue 12)", function()
  it("'load fish' is enough when only one ship is empty; the log and the moves keep the whole text", function()
    local g = game{ phase = "load", ships = { { "wood", false }, { "cloth", false } } }
    ok(g, "load fish")
    assert.same({ "wood", "fish" }, ships(g, 1))
    assert.equal("1: load fish on ship 2", g:moves()[1])
    assert.equal("Anna loads fish on ship 2", last_log(g))
  end)

  it("a short form that fits several options names them", function()
    local g = game{ phase = "load", ships = { { false, false }, { false, false } } }
    assert.same({ nil, "'load fish' is ambiguous: it could be load fish on ship 1, load fish on ship 2" },
      { g:apply("load fish") })
  end)

  it("a skipped decision leaves a trace: a dock with no ship left to exchange", function()
    local g = game{ specials = { { dock = 2 } } }
    ok(g, "exchange ship 1 to fish")
    ok(g, "dock exchange ship 2 to fish")
    assert.same({ { seat = 1, decision = "dock", why = "no ship can be exchanged (S6)", turn = 1 } }, g:skipped())
    assert.same({ "draw" }, g:options())              -- phase II: the docks are done
  end)

  it("'office draw' by text draws with one office; the next office asks again", function()
    local g = game{ phase = "phase2", deck = { "spices", "porcelain", "grain", "wood" },
                    hands = { {}, {} }, specials = { { office = 2 } } }
    ok(g, "draw")
    ok(g, "office draw")
    assert.same({ "office draw", "no office draw" }, g:options())
    assert.equal(3, g.hands[1]:count())
  end)
end)
