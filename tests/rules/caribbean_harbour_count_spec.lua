-- Merchants of the Caribbean: g._in_harbour, the harbour's count kept
-- beside its list of ids (the rules read it instead of the list's length).
-- Run: build/kontor run tests/busted.lua tests/rules/caribbean_harbour_count_spec.lua

local function new(seed, sc)
  return kontor.new_game { rules = "caribbean", players = 2, seed = seed, names = { "Alex", "Bea" }, scenario = sc }
end

describe("Caribbean harbour count", function()
  it("a scenario's harbour sets the count", function()
    local g = new(7, { deck = { "Pinnace 1/1", "Flute 1/1" }, harbour = { "Skiff 1/1", "Sailor 3/1" } })
    assert.are.equal(2, g.ctx._in_harbour)
    assert.is_nil(g:invariants())
  end)

  it("follows a reveal and a take, and starts from 0 again the next turn", function()
    local g = new(9, { deck = { "Flute 1/1", "Pinnace 1/1", "Skiff 1/1", "Galleon 2/1" }, coins = { 1, 0 },
                       harbour = { "Sailor 3/1" }, phase = "discover" })
    g:apply("reveal")
    assert.are.equal(2, g.ctx._in_harbour)
    g:apply("stop")
    g:apply("loot Flute 1")            -- Bea's turn: the Skiff revealed into an empty harbour
    assert.are.same({ "Skiff 1/1" }, g:view(1).harbour)
    assert.are.equal(1, g.ctx._in_harbour)
    assert.is_nil(g:invariants())
  end)

  it("a bust empties it before the next turn's first card", function()
    local g = new(11, { deck = { "Pinnace 1/1", "Flute 1/1", "Skiff 1/1" }, harbour = { "Pinnace 2/2" },
                        coins = { 0, 0 }, phase = "discover" })
    g:apply("reveal")                  -- a second Pinnace: bust; Bea's turn reveals the Flute
    assert.are.same({ "Flute 1/1" }, g:view(1).harbour)
    assert.are.equal(1, g.ctx._in_harbour)
    assert.is_nil(g:invariants())
  end)

  it("the invariants compare it with the harbour", function()
    local g = new(7, { deck = { "Pinnace 1/1" }, harbour = { "Sailor 3/1", "Skiff 1/1" } })
    g.ctx._in_harbour = 3
    assert.are.equal("g._in_harbour is 3, the harbour holds 2", g:invariants())
  end)
end)
