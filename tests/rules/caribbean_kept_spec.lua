-- Merchants of the Caribbean: the data the script keeps beside its piles
-- (the harbour and the expedition display as lists of ids, the deck's
-- count) and the turn's fields, false when unused, in g:state().
-- Run: build/kontor run tests/busted.lua tests/rules/caribbean_kept_spec.lua

local json = kontor.core.json

local function new(seed, sc)
  return kontor.new_game { rules = "caribbean", players = 2, seed = seed, names = { "Alex", "Bea" }, scenario = sc }
end

-- Plays random steps until `stop(g)` or the end; returns the game.
local function play_until(g, rng, stop)
  while not g:over() and not stop(g) do
    local s = g:who()
    g:step(s, rng:below(#g:options(s)) + 1)
  end
  return g
end

describe("Caribbean kept data", function()
  it("g:state() lists the turn's fields as false outside their moment, and no '_' field", function()
    local st = new(1):state()          -- at the first discover: the first card is out (must_reveal)
    assert.are.equal(true, st.revealing)
    assert.are.equal(false, st.loot_at)
    assert.are.equal(false, st.takes_left)
    assert.are.equal(false, st.fulfilling)
    for k in pairs(st) do assert.are_not.equal("_", k:sub(1, 1)) end
    assert.is_nil(st.st[1]._none)
  end)

  it("the turn's fields are set in the loot phase and false again after it", function()
    local g = play_until(new(3), kontor.rng(3), function(x) return x:decision().name == "take_other" end)
    assert.are.equal("take_other", g:decision().name)
    local st = g:state()
    assert.are.equal(2, st.loot_at)
    assert.are.equal(1, st.takes_left)
    play_until(g, kontor.rng(4), function(x) return x:decision().name == "discover" end)
    st = g:state()
    assert.are.equal(false, st.loot_at)
    assert.are.equal(false, st.takes_left)
  end)

  it("a copy of g:state() with the false fields is a scenario of the same position", function()
    local g = play_until(new(5), kontor.rng(5), function(x) return x:decision().name == "discover" and x.ctx.turn > 3 end)
    local copy = new(5, g:state())
    local a, b = g:state(), copy:state()
    assert.are.equal(false, a.loot_at)
    a.engine.turn, b.engine.turn = nil, nil     -- a scenario counts its turns from its start
    assert.are.equal(json.encode(a), json.encode(b))
    assert.are.same(g:options(g:who()), copy:options(copy:who()))
    assert.is_nil(copy:invariants())
  end)

  it("the invariants compare the kept lists and count with the piles", function()
    local g = new(7, { deck = { "Pinnace 1/1", "Flute 1/1", "Sailor 3/1" }, harbour = { "Skiff 1/1", "Sailor 3/1" },
                       expeditions = { "expedition 2 anchors" }, coins = { 2, 2 } })
    assert.is_nil(g:invariants())
    assert.are.same({ 3, 2 }, { g.ctx._in_deck, #g.ctx._harbour })
    g.ctx._harbour[2] = g.ctx._harbour[1]
    assert.are.equal("g._harbour is not the harbour", g:invariants())
    g = new(7, { deck = { "Pinnace 1/1" }, expeditions = { "expedition 2 anchors" } })
    g.ctx._expeditions[1] = nil
    assert.are.equal("g._expeditions is not the expedition display", g:invariants())
    g = new(7, { deck = { "Pinnace 1/1" }, harbour = { "Sailor 3/1" } })
    g.ctx._in_deck = 5
    assert.are.equal("g._in_deck is 5, the deck holds 1", g:invariants())
  end)

  it("the kept data follows a reveal, a take and the end of the turn", function()
    -- Alex reveals the Flute, stops, loots it; the harbour is empty after the turn
    local g = new(9, { deck = { "Flute 1/1", "Pinnace 1/1", "Skiff 1/1", "Galleon 2/1" }, coins = { 1, 0 },
                       harbour = { "Sailor 3/1" }, phase = "discover" })
    g:apply("reveal")
    assert.are.same({ "Sailor 3/1", "Flute 1/1" }, g:view(1).harbour)
    assert.are.equal(2, #g.ctx._harbour)
    assert.are.equal(3, g.ctx._in_deck)
    assert.is_nil(g:invariants())
    g:apply("stop")
    g:apply("loot Flute 1")            -- the Pinnace is Alex's coin; Bea has none: her turn, the Skiff revealed
    assert.is_nil(g:invariants())
    assert.are.same({ "Skiff 1/1" }, g:view(1).harbour)
    assert.are.equal(1, #g.ctx._harbour)
    assert.are.equal(1, g.ctx._in_deck)
  end)
end)
