-- A rules audit of Sea Merchants, the house variants and Merchants of the
-- Caribbean / Port Royal against their rulebooks and rulings: one test per
-- defect found (the ruling it breaks in the name), each first seen failing.
-- Run: build/kontor run tests/busted.lua tests/rules/rules_audit_spec.lua

local support = require "tests.lua.support"
local fails, invariants = support.fails, support.invariants

local ok = support.ok

---------------------------------------------------------------------------
-- Merchants of the Caribbean
---------------------------------------------------------------------------

local NAMES = { "Alex", "Bea", "Carl", "Dagmar", "Andrea" }
local FILLER = { "Pinnace 1/1", "Flute 1/1", "Skiff 1/1", "Frigate 1/1", "Galleon 2/1",
                 "Pinnace 1/1", "Flute 1/1", "Skiff 1/1", "Frigate 1/1", "Galleon 2/1" }

-- A game from a stated position: 2 players by default, Alex to act, the
-- deck FILLER.
local function caribbean(sc, players, options, variants)
  sc.deck = sc.deck or FILLER
  players = players or 2
  return kontor.new_game { rules = "caribbean", players = players, seed = 1,
                           names = table.move(NAMES, 1, players, 1, {}),
                           scenario = sc, options = options, variants = variants }
end

local function coins(g)
  local t = {}
  for s = 1, g.players do t[s] = g.purse[s]:count() end
  return t
end

describe("rules audit: Merchants of the Caribbean", function()
  it("C6: a Governor the active player hires adds its take at once", function()
    -- 2 ship names: 1 take; the Governor, hired with it, gives one more
    local g = caribbean { phase = "loot", coins = { 8, 0 },
                          harbour = { "Governor 8/0", "Pinnace 1/1", "Skiff 1/1" } }
    assert.are.same({ "hire Governor 8/0", "loot Pinnace 1", "loot Skiff 1", "take nothing" }, g:options())
    ok(g, "hire Governor 8/0")
    assert.are.equal(1, g:who())
    assert.are.equal("take", g:decision().name)
    assert.are.same({ "loot Pinnace 1", "loot Skiff 1", "take nothing" }, g:options())
    ok(g, "loot Pinnace 1")
    assert.are.same({ 1, 0 }, coins(g))
    invariants(g)
  end)

  it("C6: a Governor another player hires adds its take at once, for 1 more coin", function()
    local g = caribbean { phase = "loot", coins = { 0, 10 },
                          harbour = { "Governor 8/0", "Pinnace 1/1", "Skiff 1/1" } }
    ok(g, "take nothing")
    ok(g, "hire Governor 8/0")                       -- 1 to Alex, 8 to the discard pile
    assert.are.same({ 1, 1 }, coins(g))
    assert.are.equal(2, g:who())
    assert.are.equal("take_other", g:decision().name)
    assert.are.same({ "loot Pinnace 1", "loot Skiff 1", "take nothing" }, g:options(2))
    ok(g, "loot Skiff 1")                            -- 1 more to Alex, +1 from the Skiff
    assert.are.same({ 2, 1 }, coins(g))
    invariants(g)
  end)

  it("C6 out of turn: only the seat whose chance it is may take; its undo asks the seats whose moves go", function()
    local seat = require "kontor.seat"
    local g = caribbean({ phase = "loot", coins = { 2, 5, 4 },
                          harbour = { "Sailor 3/1", "Flute 2/2", "Priest 4/1" } }, 3)
    local alex, bea = seat.view(g, 1), seat.view(g, 2)
    assert.is_nil((bea.apply("loot Flute 2")))       -- Alex's takes come first
    assert(alex.apply("take nothing"))
    assert.is_nil((alex.apply("loot Flute 2")))      -- now Bea's chance, not Alex's
    assert.is_nil(alex.options())
    assert(bea.apply("hire Sailor 3/1"))             -- 1 to Alex, 3 to the discard pile
    assert.are.same({ 3, 1, 4 }, coins(g))
    assert.are.equal(3, g:who())
    assert.are.same({ "Flute 2/2", "Priest 4/1" }, g:view(3).harbour)
    -- Bea takes her hire back: the coins and the card return, and it is her chance again
    assert(bea.undo(1, function() return true end))
    assert.are.same({ 2, 5, 4 }, coins(g))
    assert.are.same({ "Sailor 3/1", "Flute 2/2", "Priest 4/1" }, g:view(1).harbour)
    assert.are.equal(2, g:who())
    -- Alex's undo of his 'take nothing' takes Bea's hire too: she is asked, and may refuse
    assert(bea.apply("hire Sailor 3/1"))
    local asked = {}
    assert.is_nil((alex.undo(1, function(s) asked[#asked + 1] = s; return false end)))
    assert.are.same({ 2 }, asked)
    assert.are.same({ 3, 1, 4 }, coins(g))
    assert(alex.undo(1, function() return true end))
    assert.are.equal(1, g:who())
    assert.are.same({ 2, 5, 4 }, coins(g))
    invariants(g)
  end)

  it("C4: the ship whose repel is being decided is shown in every seat's view and board", function()
    local g = caribbean { deck = { "Flute 2/2", "Sailor 3/1" }, coins = { 2, 3 },
                          displays = { { "Pirate 5/1" } } }
    assert.are.equal("repel", g:decision().name)
    assert.are.same({ "Flute 2/2" }, g:view(2).revealed)
    assert.are.same({ "Flute 2/2" }, g:view(1).revealed)
    local b = g:show(2)
    assert.truthy(b:find("Revealed: Flute 2/2 (Alex decides: repel or not)", 1, true), b)
    ok(g, "do not repel")
    assert.are.same({}, g:view(2).revealed)
    assert.falsy(g:show(2):find("Revealed", 1, true))
  end)

  it("C4 with C3's data: a fulfil that discards the swords a repel needs leaves no 'repel' offered", function()
    -- a designer's deck (C3: the deck is data) whose Captains carry a sword
    local R = kontor.load_rules("caribbean")
    R.data.skills.Captain = { symbol = "anchor", swords = 1 }
    R.prepare(R)
    local g = kontor.new_game { rules = R, players = 2, seed = 1, names = { "Alex", "Bea" }, scenario = {
      deck = { "Pinnace 2/2", "Flute 1/1", "Skiff 1/1" }, coins = { 0, 0 },
      displays = { { "Captain 4/1", "Captain 4/1" } }, expeditions = { "expedition 2 anchors" } } }
    assert.are.same({ "repel", "do not repel", "fulfil expedition 2 anchors" }, g:options())
    ok(g, "fulfil expedition 2 anchors")         -- both Captains go: strength 0
    assert.are.equal(0, g.st[1].strength)
    assert.are.equal("discover", g:decision().name) -- the Pinnace stayed: no repel to decide
    assert.are.same({ "Pinnace 2/2" }, g:view(1).harbour)
    invariants(g)
  end)

  it("C6 with C3's data: a deck with more ship names than the allowance table lists is refused at once", function()
    local R = kontor.load_rules("caribbean")
    R.data.ships[6] = { name = "Junk", colour = "white", cards = { { 1, 1, 10 } } }
    fails(function() R.prepare(R) end,
          "R.data.takes_by_names gives the takes for 0 to 5 ship names, but the deck has 6 ship names (C6)")
  end)

  it("C2: once a fulfil's coins take the last cards, 'reveal' is no longer offered", function()
    -- the Sailor is revealed; the fulfil discards the 2 Captains and gains 3
    -- coins: the Flute, then the Captains shuffled in. Nothing is left to
    -- reveal, so the discover phase ends and loot and hire begins.
    local g = caribbean { deck = { "Sailor 3/1", "Flute 1/1" }, coins = { 0, 0 },
                          displays = { { "Captain 4/1", "Captain 4/1" } },
                          expeditions = { "expedition 2 anchors" },
                          expedition_coins = { ["expedition 2 anchors"] = 3 } }
    assert.are.same({ "reveal", "stop", "fulfil expedition 2 anchors" }, g:options())
    ok(g, "fulfil expedition 2 anchors")
    assert.are.same({ 0, 0 }, { g.deck:count(), g.discard:count() })
    assert.are.equal("take", g:decision().name)
    assert.are.same({ "hire Sailor 3/1", "take nothing" }, g:options())
    invariants(g)
  end)
end)

---------------------------------------------------------------------------
-- The house variants over Sea Merchants
---------------------------------------------------------------------------

local function sea(variants, sc, players)
  sc.deck = sc.deck or { "wood", "grain", "cloth", "spices", "fish", "fish" }
  return support.sea_merchants_game(sc, players, nil, variants)
end

describe("rules audit: the house variants", function()
  it("H5 overflow=discard with H6: the forklift draw comes before the discard (draw all, then discard)", function()
    -- in either order of the variants (the house preset applies hand_limit first)
    for _, variants in ipairs { { "house_specials", "hand_limit:overflow=discard" },
                                { "hand_limit:overflow=discard", "house_specials" },
                                { "house:hand_limit.overflow=discard" } } do
      local g = sea(variants, { phase = "phase2", hands = { { "fish", "fish", "fish", "fish", "fish" }, {} },
                                specials = { { forklift = 1 }, {} } })
      ok(g, "draw")                                -- wood, grain: 7 cards
      assert.are.equal("forklift", g:decision().name)
      assert.are.same({ "forklift draw", "no forklift draw" }, g:options())
      invariants(g)
      ok(g, "forklift draw")                       -- cloth: 8 cards
      assert.are.equal(8, g.hands[1]:count())
      assert.are.same({ "discard grain", "discard wood", "discard fish", "discard cloth" }, g:options())
      ok(g, "discard cloth"); ok(g, "discard wood")
      assert.are.equal(6, g.hands[1]:count())
      assert.are.equal(2, g:who())
      invariants(g)
    end
  end)

  it("H5 overflow=discard on the base game: an office draw comes before the discard", function()
    local g = sea({ "hand_limit:overflow=discard" },
                  { phase = "phase2", hands = { { "fish", "fish", "fish", "fish", "fish" }, {} },
                    specials = { { office = 1 }, {} } })
    ok(g, "draw")
    assert.are.same({ "office draw", "no office draw" }, g:options())
    ok(g, "office draw")
    assert.are.equal(8, g.hands[1]:count())
    assert.are.equal("discard", g:decision().name)
    ok(g, "discard grain"); ok(g, "discard wood")
    assert.are.equal(2, g:who())
    invariants(g)
  end)

  it("H5 overflow=discard: a copy of g:state() after a discard is a scenario (docs: 'a copy of g:state() is a scenario')", function()
    local g = sea({ "hand_limit:overflow=discard" },
                  { phase = "phase2", hands = { { "fish", "fish", "fish", "fish", "fish", "fish" }, {} } })
    ok(g, "draw")
    ok(g, "discard grain"); ok(g, "discard wood")
    local h = kontor.new_game { rules = "sea_merchants", variants = { "hand_limit:overflow=discard" },
                                players = 2, scenario = g:state() }
    local a, b = g:state(), h:state()
    a.engine, b.engine = nil, nil                  -- names and turn count are the game's, not the position's
    assert.are.equal(kontor.json.encode(a), kontor.json.encode(b))
    assert.are.same(g:options(), h:options())
  end)

  it("H3: a draft order in the command-line form names its seats with spaces (docs: commas separate options)", function()
    local g = kontor.new_game { rules = "sea_merchants", variants = { "snake_draft:order=3 2 1/1 2 3" },
                                players = 3, seed = 1 }
    local order = {}
    while g.phase == "load" do order[#order + 1] = g:who(); ok(g, g:options()[1]) end
    assert.are.same({ 3, 2, 1, 1, 2, 3 }, order)
    fails(function()
      kontor.new_game { rules = "sea_merchants", variants = { "snake_draft:order=3,2,1/1,2,3" }, players = 3 }
    end, "bad variant option '2' in 'snake_draft:order=3,2,1/1,2,3' (expected k=v)")
  end)

  it("H5: a hand limit below the cards dealt at the start is refused", function()
    fails(function()
      kontor.new_game { rules = "sea_merchants", variants = { "hand_limit:size=2" }, players = 2, seed = 1 }
    end, "option size of hand_limit: 2 is below the minimum 3")
    local g = kontor.new_game { rules = "sea_merchants", variants = { "hand_limit:size=3" }, players = 2, seed = 1 }
    invariants(g)
  end)
end)
