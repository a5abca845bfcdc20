-- The house variants of Sea Merchants: one test per ruling H1..H10
-- (docs/rules/house.md), every pair composed, the conflict
-- errors, saves, and random games over the `house` preset.
-- Run: build/kontor run tests/busted.lua tests/rules/house_spec.lua

local support = require "tests.lua.support"
local MARKET = support.SM_MARKET
local fails, invariants = support.fails, support.invariants
local HOUSE = { "snake_draft", "hand_limit", "house_specials", "delivered_payout" }

-- A game from a stated position (defaults as in sea_merchants_spec.lua).
local function game(variants, sc, players)
  sc = sc or {}
  sc.deck = sc.deck or { "wood", "grain", "cloth", "spices", "fish", "fish" }
  return support.sea_merchants_game(sc, players, nil, variants)
end

local ok = support.ok

local function coins(g) return g.coins:values() end
local function hand_size(g, seat) return g.hands[seat]:count() end
local function has(list, x)
  for _, y in ipairs(list) do if y == x then return true end end
  return false
end

local tmpdir = os.tmpname()
os.remove(tmpdir)
os.execute("mkdir -p " .. tmpdir)
local function write(name, text)
  local path = tmpdir .. "/" .. name
  local f = assert(io.open(path, "w")); f:write(text); f:close()
  return path
end

describe("house rules", function()
  it("H1: 6 products, 10 cards and 5 cubes each", function()
    local g = kontor.new_game { rules = "sea_merchants", variants = { "house" }, players = 4, seed = 3 }
    local cards = g.deck:count() + g.market:count() + g.covered:count()
    for s = 1, 4 do cards = cards + g.hands[s]:count() end
    assert.are.equal(60, cards)
    assert.are.same({ 5, 5, 5, 5, 5, 5 }, g.cubes:values())
    assert.are.same(MARKET, g.R.data.products)
    invariants(g)
  end)

  it("H2: the special cards are ship 10, office 8, warehouse 15, forklift 15, crane 12; no contract, no dock", function()
    local g = game({ "house_specials" }, { coins = { 15, 0 } })
    ok(g, "buy")
    assert.are.same({ "buy ship", "buy office", "buy warehouse", "buy forklift", "buy crane" }, g:options())
    assert.truthy(g:why("buy contract"):find("contract", 1, true))
    ok(g, "buy warehouse")
    assert.are.same({ 0, 0 }, coins(g))
    assert.are.equal(1, g.specials[1].warehouse)
    assert.are.equal(1, g.pool.warehouse)
    assert.is_nil(g.pool.contract)
    assert.is_nil(g.pool.dock)
    invariants(g)
  end)

  it("H3: snake draft: round 1 from the last player to the first, round 2 from the first", function()
    local g = kontor.new_game { rules = "sea_merchants", variants = { "snake_draft" }, players = 4, seed = 1 }
    local order = {}
    while g.phase == "load" do
      order[#order + 1] = g:who()
      ok(g, 1)
    end
    assert.are.same({ 4, 3, 2, 1, 1, 2, 3, 4 }, order)
    invariants(g)
  end)

  it("H3: the draft order is an option: any list of seats per round", function()
    local g = kontor.new_game { rules = "sea_merchants", players = 3, seed = 1,
      variants = { { "snake_draft", options = { order = "2,3,1/3,1,2" } } } }
    local order = {}
    while g.phase == "load" do order[#order + 1] = g:who(); ok(g, 1) end
    assert.are.same({ 2, 3, 1, 3, 1, 2 }, order)
    fails(function()
      kontor.new_game { rules = "sea_merchants", players = 3, seed = 1,
        variants = { { "snake_draft", options = { order = "1,1,2/3,2,1" } } } }
    end, "variant snake_draft: order '1,1,2/3,2,1': round 1 must list each seat once, from 1")
  end)

  it("H4: the house office pays its owner 2 per office on every delivery, product or not", function()
    local g = game({ "house_specials" }, { phase = "phase2", hands = { { "fish" }, {} },
      ships = { { "grain", "wood" }, { "fish", "spices" } }, specials = { { office = 2 }, {} } })
    ok(g, "play fish on slots 1")
    -- fish shows 2 (slot 1 covered grain): Bert's fish ship earns 2; Anna has no fish: office only.
    assert.are.same({ 4, 2 }, coins(g))
    assert.truthy(g:log()[1]:find("Anna earns 4 (office)", 1, true))
    assert.are_not.equal("office", g:decision().name)   -- no office draw in the house rules
    invariants(g)
    -- with what the seat's own ships earn, one figure (was "Anna earns 2, Anna earns 2 (office)")
    local h = game({ "house_specials" }, { phase = "phase2", hands = { { "fish" }, {} },
      ships = { { "fish", "wood" }, { "grain", "spices" } }, specials = { { office = 1 }, {} } })
    ok(h, "play fish on slots 1")
    assert.are.same({ 4, 0 }, coins(h))
    assert.truthy(h:log()[1]:find("; Anna earns 4 (+2 office)", 1, true), h:log()[1])
  end)

  it("H5: a full hand cannot draw; a draw never takes a hand above its limit", function()
    local six = { "fish", "fish", "fish", "wood", "wood", "wood" }
    local g = game({ "hand_limit" }, { phase = "phase2", hands = { six, {} } })
    assert.are.same({ "play" }, g:options())
    assert.truthy(g:why("draw"):find("your hand is full (6 cards, the limit is 6)", 1, true))
    local five = { "fish", "fish", "fish", "wood", "wood" }
    local h = game({ "hand_limit" }, { phase = "phase2", hands = { five, {} } })
    ok(h, "draw")
    assert.are.equal(6, hand_size(h, 1))
    assert.are.equal(5, h.deck:count())        -- the second card stays in the deck
    invariants(h)
  end)

  it("H5: +2 per warehouse; the size is an option", function()
    local six = { "fish", "fish", "fish", "wood", "wood", "wood" }
    local g = game({ "house_specials", "hand_limit" },
      { phase = "phase2", hands = { six, {} }, specials = { { warehouse = 1 }, {} } })
    ok(g, "draw")
    assert.are.equal(8, hand_size(g, 1))
    local h = game({ { "hand_limit", options = { size = 4 } } },
      { phase = "phase2", hands = { { "fish", "fish", "fish" }, {} } })
    ok(h, "draw")
    assert.are.equal(4, hand_size(h, 1))
  end)

  it("H5 option overflow=discard: draw all, then discard down to the limit; discards leave play", function()
    local six = { "fish", "fish", "fish", "wood", "wood", "wood" }
    local g = game({ { "hand_limit", options = { overflow = "discard" } } },
      { phase = "phase2", hands = { six, {} } })
    local covered = g.covered:count()
    ok(g, "draw")                                -- wood and grain drawn: 8 cards
    assert.are.equal(8, hand_size(g, 1))
    assert.are.same({ "discard grain", "discard wood", "discard fish" }, g:options())
    ok(g, "discard fish"); ok(g, "discard grain")
    assert.are.equal(6, hand_size(g, 1))
    assert.are.equal(covered + 2, g.covered:count())
    invariants(g)
  end)

  it("H6: a forklift draws 1 extra card with the draw action, if wanted; the hand limit applies", function()
    local g = game({ "house_specials" }, { phase = "phase2", specials = { { forklift = 1 }, {} } })
    ok(g, "draw")
    assert.are.same({ "forklift draw", "no forklift draw" }, g:options())
    ok(g, "forklift draw")
    assert.are.equal(3, hand_size(g, 1))
    local five = { "fish", "fish", "fish", "wood", "wood" }
    local h = game({ "house_specials", "hand_limit" },
      { phase = "phase2", hands = { five, {} }, specials = { { forklift = 1 }, {} } })
    ok(h, "draw")                                -- one card, then the hand is full
    assert.are.equal(6, hand_size(h, 1))
    assert.are.same({ "no forklift draw" }, h:options())
    invariants(h)
  end)

  it("H7: a crane works exactly like the base dock", function()
    local g = game({ "house_specials" }, { coins = { 12, 0 } })
    ok(g, "buy crane")
    assert.are.same({ "crane exchange ship 1", "crane exchange ship 2", "no crane exchange" }, g:options())
    ok(g, "crane exchange ship 2 to porcelain")
    assert.are.equal(3, g.ships[1][2])           -- porcelain
    assert.are.same({ 0, 0 }, coins(g))
    invariants(g)
  end)

  it("H8: the payout follows the worked example by default (1 + 2 delivered = 3 per cube)", function()
    local sc = { phase = "phase2", hands = { { "fish", "fish" }, {} },
                 market = { "fish", "wood", "grain", "cloth", "spices", "porcelain" },
                 ships = { { "fish", "wood" }, { "fish", "fish" } } }
    local g = game({ "delivered_payout" }, sc)
    ok(g, "play fish on slots 2,3")
    assert.are.same({ 3, 6 }, coins(g))
  end)

  it("H8 option count=delivered: only the cards delivered count", function()
    local sc = { phase = "phase2", hands = { { "fish", "fish" }, {} },
                 market = { "fish", "wood", "grain", "cloth", "spices", "porcelain" },
                 ships = { { "fish", "wood" }, { "fish", "fish" } } }
    local g = game({ { "delivered_payout", options = { count = "delivered" } } }, sc)
    ok(g, "play fish on slots 2,3")
    assert.are.same({ 2, 4 }, coins(g))
  end)

  it("H9: an exchange is for a different colour, from the supply, if available (as S6)", function()
    local g = game({ "house" })
    ok(g, "exchange ship 1")
    local opts = g:options()
    assert.falsy(has(opts, "exchange ship 1 to grain"))   -- ship 1 carries grain
    assert.truthy(has(opts, "exchange ship 1 to fish"))
    ok(g, "exchange ship 1 to fish")
    assert.are.equal(4, g.ships[1][1])
    invariants(g)
  end)

  it("H10: the workers and plots of the component list have no rules: the game has none", function()
    local g = kontor.new_game { rules = "sea_merchants", variants = { "house" }, players = 2, seed = 1 }
    local state = g:state()
    assert.is_nil(state.workers)
    assert.is_nil(state.plots)
  end)
end)

describe("composing the house variants", function()
  for i = 1, #HOUSE do
    for j = i + 1, #HOUSE do
      local a, b = HOUSE[i], HOUSE[j]
      it(a .. " + " .. b .. " play to the end with their invariants", function()
        kontor.sim { rules = "sea_merchants", variants = { a, b }, players = 3, games = 25, seed = i * 10 + j,
          check = function(g)
            local bad = g:invariants()
            if bad then error(bad) end
          end }
      end)
    end
  end

  it("the house preset is exactly sea_merchants + the four variants", function()
    local a = kontor.sim { rules = "sea_merchants", variants = { "house" }, players = 4, games = 50, seed = 2 }
    local b = kontor.sim { rules = "sea_merchants", variants = HOUSE, players = 4, games = 50, seed = 2 }
    assert.are.same(a.mean_score, b.mean_score)
    assert.are.same(a.wins, b.wins)
    assert.are.equal(a.mean_turns, b.mean_turns)
  end)

  it("a preset passes member.option to the variant it includes", function()
    local g = kontor.new_game { rules = "sea_merchants", players = 2, seed = 1,
      variants = { { "house", options = { ["hand_limit.size"] = 3 } } } }
    assert.are.equal(3, g.hands[1]:count())
    fails(function()
      kontor.new_game { rules = "sea_merchants", variants = { { "house", options = { ["nosuch.size"] = 3 } } } }
    end, "variant house includes no variant 'nosuch'")
  end)
end)

describe("variant errors", function()
  it("two variants that replace the special cards cannot compose: the message names both", function()
    local mine = write("my_specials.lua", [[
return { variant = true, name = "my_specials", base = "sea_merchants",
  replaces = { "the special cards" },
  apply = function(R) R.data.price.ship = 5 end }
]])
    fails(function()
      kontor.new_game { rules = "sea_merchants", variants = { "house_specials", mine } }
    end, "variants house_specials and my_specials cannot be used together: both replace the special cards")
  end)

  it("an unknown option names the variant and lists its options", function()
    fails(function()
      kontor.new_game { rules = "sea_merchants", variants = { { "hand_limit", options = { sise = 5 } } } }
    end, "unknown option 'sise' for hand_limit (options: overflow, per_warehouse, size)")
    fails(function()
      kontor.new_game { rules = "sea_merchants", variants = { { "hand_limit", options = { overflow = "burn" } } } }
    end, "'burn' is not one of: stop, discard")
  end)

  it("a variant for another base, a rule set given as a variant, a variant given twice", function()
    local other = write("other.lua", [[return { variant = true, name = "other", base = "caribbean", apply = function() end }]])
    fails(function() kontor.new_game { rules = "sea_merchants", variants = { other } } end,
      "variant other is for caribbean, not sea_merchants")
    fails(function() kontor.new_game { rules = "sea_merchants", variants = { "sea_merchants" } } end,
      "is a rule set, not a variant")
    fails(function() kontor.new_game { rules = "sea_merchants", variants = { "hand_limit", "hand_limit" } } end,
      "variant hand_limit is given twice")
    fails(function() kontor.new_game { rules = "sea_merchants", variants = { "nosuch" } } end,
      "unknown rule set or variant 'nosuch'")
  end)

  it("an error in a variant's apply names the variant, file and line", function()
    local broken = write("broken.lua", [[
return { variant = true, name = "broken", base = "sea_merchants",
  apply = function(R) R.data.price.nothing.x = 1 end }
]])
    fails(function() kontor.new_game { rules = "sea_merchants", variants = { broken } } end,
      "variant broken: " .. broken .. ":2:")
  end)
end)

describe("variants in save files", function()
  it("a save records the variants and their options, and loads back", function()
    local g = kontor.new_game { rules = "sea_merchants", players = 3, seed = 4,
      variants = { "snake_draft", { "hand_limit", options = { size = 5 } } } }
    local bot = kontor.rng(4)
    for _ = 1, 60 do ok(g, bot:below(#g:options()) + 1) end
    local path = tmpdir .. "/v.json"
    assert.is_true(g:save(path))
    local text = io.open(path):read("a")
    assert.truthy(text:find('"name": "hand_limit"', 1, true))
    assert.truthy(text:find('"size": 5', 1, true))
    local h = assert(kontor.load_game(path))
    assert.are.same(g:moves(), h:moves())
    assert.are.equal(kontor.json.encode(g:state()), kontor.json.encode(h:state()))
  end)

  it("a save whose variant is missing is refused with a clear message", function()
    local mine = write("mine.lua", [[
return { variant = true, name = "mine", base = "sea_merchants", apply = function(R) R.data.price.contract = 9 end }
]])
    local g = kontor.new_game { rules = "sea_merchants", players = 2, seed = 1, variants = { mine } }
    local path = tmpdir .. "/mine.json"
    assert.is_true(g:save(path))
    os.remove(mine)
    local h, err = kontor.load_game(path)
    assert.is_nil(h)
    assert.truthy(err:find(path, 1, true))
    assert.truthy(err:find("mine.lua: no such file", 1, true))
  end)
end)

describe("random games over the house preset", function()
  for players = 2, 4 do
    it(players .. " players: the hand limit is never exceeded, every card and cube accounted for", function()
      local R = kontor.load_rules("sea_merchants", { "house" })
      for seed = 1, 100 do
        local g = kontor.new_game { rules = R, players = players, seed = seed }
        g:play_random(kontor.rng(seed), function(cur)
          local bad = cur:invariants()
          if bad then error(("seed %d: %s"):format(seed, bad)) end
          for s = 1, players do
            local limit = 6 + 2 * cur.specials[s].warehouse
            if cur.hands[s]:count() > limit then error(("seed %d: hand %d above %d"):format(seed, s, limit)) end
          end
        end)
        assert.is_true(g:over())
      end
    end)
  end
end)
