-- The hand limit's draws as options (H5, docs/rules/house.md): a full hand
-- is offered no draw - the draw action, an office draw, a forklift draw -
-- and g:why gives the reason; the house preset adds no constraint, so a
-- simulated game takes the engine's fast way at every decision.
-- Run: build/kontor run tests/busted.lua tests/rules/house_draws_spec.lua

local support = require "tests.lua.support"

local function game(variants, sc)
  sc.deck = sc.deck or { "wood", "grain", "cloth", "spices", "fish", "fish" }
  return support.sea_merchants_game(sc, nil, nil, variants)
end

local ok = support.ok

local FIVE = { "fish", "fish", "fish", "wood", "wood" }
local SIX = { "fish", "fish", "fish", "wood", "wood", "grain" }

describe("H5: a full hand is offered no draw", function()
  it("the draw action: only 'play', and g:why says the hand is full", function()
    local g = game({ "hand_limit" }, { phase = "phase2", hands = { SIX, {} } })
    assert.are.same({ "play" }, g:options())
    assert.are.equal("'draw' is not a legal action: your hand is full (6 cards, the limit is 6); expected one of: play",
      g:why("draw"))
  end)

  it("a forklift draw: only 'no forklift draw' once the hand is full, with the reason", function()
    local g = game({ "house_specials", "hand_limit" },
      { phase = "phase2", hands = { FIVE, {} }, specials = { { forklift = 1 }, {} } })
    ok(g, "draw")                                -- one card, then the hand is full
    assert.are.same({ "no forklift draw" }, g:options())
    assert.truthy(g:why("forklift draw"):find("your hand is full (6 cards, the limit is 6)", 1, true))
    assert.truthy(g:why("forklift up"):find("your forklift: 'forklift draw' or 'no forklift draw'", 1, true))
  end)

  it("a forklift draw below the limit: both options; a warehouse raises the limit by 2", function()
    local g = game({ "house_specials", "hand_limit" },
      { phase = "phase2", hands = { FIVE, {} }, specials = { { forklift = 1, warehouse = 1 }, {} } })
    ok(g, "draw")                                -- 7 of 8
    assert.are.same({ "forklift draw", "no forklift draw" }, g:options())
    ok(g, "forklift draw")
    assert.are.equal(8, g.hands[1]:count())
  end)

  it("an office draw of the base game: only 'no office draw' with a full hand", function()
    local g = game({ "hand_limit" }, { phase = "phase2", hands = { FIVE, {} }, specials = { { office = 1 }, {} } })
    ok(g, "draw")                                -- one card, then the hand is full
    assert.are.same({ "no office draw" }, g:options())
    assert.truthy(g:why("office draw"):find("your hand is full (6 cards, the limit is 6)", 1, true))
  end)

  it("the house preset states its rules without R.constraints", function()
    local g = game({ "house" }, { phase = "phase2", hands = { SIX, {} } })
    assert.are.same({}, g.R.constraints)
    assert.are.same({ "play" }, g:options())
  end)
end)
