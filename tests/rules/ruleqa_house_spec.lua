-- An independent rules audit of the house variants (docs/rules/house.md,
-- rulings H1-H10): one test per defect found, each seen failing first,
-- and the boundary cases the audit played and decided.
-- Run: build/kontor run tests/busted.lua tests/rules/ruleqa_house_spec.lua

local support = require "tests.lua.support"
local fails, invariants = support.fails, support.invariants

-- A game from a stated position (two players; the deck below by default).
local function game(variants, sc, players)
  sc = sc or {}
  sc.deck = sc.deck or { "wood", "grain", "cloth", "spices", "fish", "fish" }
  return support.sea_merchants_game(sc, players, nil, variants)
end

local ok = support.ok

local function said(g, text)
  return g.R.describe_option(g, g:who(), g:decision().name, text)
end

local FIVE = { "fish", "fish", "fish", "wood", "wood" }
local SEVEN = { "fish", "fish", "fish", "wood", "wood", "wood", "grain" }

describe("ruleqa: house rules", function()
  it("H5: a scenario with a hand above its limit is refused, naming the seat and the limit", function()
    fails(function() game({ "hand_limit" }, { phase = "phase2", hands = { SEVEN, {} } }) end,
      "scenario: seat 1 holds 7 cards, above its hand limit of 6 (H5)")
    fails(function() game({ "hand_limit" }, { phase = "phase1", active = 2, hands = { {}, SEVEN } }) end,
      "scenario: seat 2 holds 7 cards, above its hand limit of 6 (H5)")
    -- a warehouse raises the limit: 7 cards fit under 8
    local g = game({ "house_specials", "hand_limit" },
      { phase = "phase2", hands = { SEVEN, {} }, specials = { { warehouse = 1 }, {} } })
    assert.are.same({ "play", "draw" }, g:options())
    invariants(g)
    -- overflow=discard: the active player in phase II may be above it (the
    -- discard comes at its end); anyone else may not
    local h = game({ { "hand_limit", options = { overflow = "discard" } } },
      { phase = "phase2", hands = { SEVEN, {} } })
    assert.are.same({ "play", "draw" }, h:options())
    -- (was "your hand holds 7 of 6")
    assert.are.equal("draw 2 cards (S9); your hand holds 7 cards, above its limit of 6: you discard down to it (H5)",
      said(h, "draw"))
    fails(function()
      game({ { "hand_limit", options = { overflow = "discard" } } }, { phase = "phase2", hands = { {}, SEVEN } })
    end, "scenario: seat 2 holds 7 cards, above its hand limit of 6 (H5)")
  end)

  it("H5: the draw says how many cards a nearly full hand takes; the rest stay in the deck", function()
    local g = game({ "hand_limit" }, { phase = "phase2", hands = { FIVE, {} } })
    assert.are.equal("draw 2 cards (S9); your hand holds 5 of 6: only 1 card is drawn (H5)", said(g, "draw"))
    ok(g, "draw")
    assert.are.equal(6, g.hands[1]:count())
    assert.are.equal(5, g.deck:count())
    -- room for both: as before
    local h = game({ "hand_limit" }, { phase = "phase2", hands = { { "fish", "fish", "fish" }, {} } })
    assert.are.equal("draw 2 cards (S9); your hand holds 3 of 6", said(h, "draw"))
    -- overflow=discard draws both: no "only"
    local d = game({ { "hand_limit", options = { overflow = "discard" } } }, { phase = "phase2", hands = { FIVE, {} } })
    assert.are.equal("draw 2 cards (S9); your hand holds 5 of 6", said(d, "draw"))
  end)

  it("H6 with H5: the forklift draw says how full the hand is, in the preset's order too", function()
    for _, variants in ipairs{ { "house" }, { "house_specials", "hand_limit" }, { "hand_limit", "house_specials" } } do
      local g = game(variants, { phase = "phase2", hands = { { "fish", "fish", "fish" }, {} },
                                 specials = { { forklift = 1 }, {} } })
      ok(g, "draw")
      assert.are.same({ "forklift draw", "no forklift draw" }, g:options())
      assert.are.equal("draw 1 card more (H6); your hand holds 5 of 6", said(g, "forklift draw"),
        table.concat(variants, "+"))
    end
  end)

  it("H2, H5: without hand_limit a warehouse says it does nothing (S9: no hand limit)", function()
    local g = game({ "house_specials" }, { coins = { 30, 0 } })
    ok(g, "buy")
    assert.are.equal("15 coins: no effect: there is no hand limit (S9; the hand_limit variant adds one, H5)",
      said(g, "buy warehouse"))
    for _, variants in ipairs{ { "house" }, { "house_specials", "hand_limit" } } do
      local h = game(variants, { coins = { 30, 0 } })
      ok(h, "buy")
      assert.are.equal("15 coins: your hand limit +2 (H5)", said(h, "buy warehouse"), table.concat(variants, "+"))
    end
  end)

  it("H3, S4: a loading scenario must fit the draft order; the loading then fills every ship", function()
    -- snake, 3 players: 3, 2, 1, 1, 2, 3. Seat 1 to load its first ship:
    -- seats 3 and 2 have one loaded, seat 1 none.
    local g = game({ "snake_draft" }, { phase = "load", active = 1,
                                        ships = { { false, false }, { "wood", false }, { "fish", false } } }, 3)
    local order = {}
    while g.phase == "load" do order[#order + 1] = g:who(); ok(g, 1) end
    assert.are.same({ 1, 1, 2, 3 }, order)
    invariants(g)
    -- seat 2 has loaded nothing, yet seat 1 would load its second ship
    fails(function()
      game({ "snake_draft" }, { phase = "load", active = 1,
                                ships = { { "wood", false }, { false, false }, { "fish", false } } }, 3)
    end, "scenario: loading: seat 2 has 0 loaded ships, but the loading order gives it 1 before seat 1 loads (S4)")
    -- the same position is wrong in the base order too (1, 2, 3, 1, 2, 3)
    fails(function()
      game({}, { phase = "load", active = 1, ships = { { "wood", false }, { false, false }, { "fish", false } } }, 3)
    end, "scenario: loading: seat 2 has 0 loaded ships, but the loading order gives it 1 before seat 1 loads (S4)")
  end)

  -- Boundaries the audit played; the engine agreed with the rulebook.
  it("H3: the snake follows the first player option at 2, 3 and 4 players; the first player then starts", function()
    local want = {
      [2] = { "2,1,1,2", "1,2,2,1" },
      [3] = { "3,2,1,1,2,3", "1,3,2,2,3,1", "2,1,3,3,1,2" },
      [4] = { "4,3,2,1,1,2,3,4", "1,4,3,2,2,3,4,1", "2,1,4,3,3,4,1,2", "3,2,1,4,4,1,2,3" },
    }
    for n = 2, 4 do
      for first = 1, n do
        local g = kontor.new_game { rules = "sea_merchants", variants = { "house" }, players = n, seed = 1,
                                    options = { first_player = first } }
        local order = {}
        while g.phase == "load" do order[#order + 1] = g:who(); ok(g, 1) end
        assert.are.equal(want[n][first], table.concat(order, ","), n .. " players, first " .. first)
        assert.are.equal(first, g:who())
        assert.are.equal("phase1", g.phase)
      end
    end
    fails(function() kontor.new_game { rules = "sea_merchants", variants = { "house" }, players = 5, seed = 1 } end,
      "sea_merchants is for 2 to 4 players, not 5")
  end)

  it("H5, H6, S11: the forklift's draw of the deck's last card ends the game at once", function()
    local g = game({ "house" }, { deck = { "fish", "wood", "grain" }, phase = "phase2",
                                  hands = { { "fish" }, {} }, specials = { { forklift = 1 }, {} } })
    ok(g, "draw")
    ok(g, "forklift draw")
    assert.are.equal("over", g.phase)
    assert.are.equal(4, g.hands[1]:count())
    assert.are.equal(0, g.deck:count())
  end)
end)
