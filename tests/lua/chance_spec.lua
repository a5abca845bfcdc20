-- Chance events: resolved by the game's RNG, or by hand with manual_chance.

local BID = "tests/rulesets/sealed_bid.lua"

describe("chance", function()
  it("is resolved by the game's RNG by default, the same for the same seed", function()
    local a = kontor.new_game { rules = BID, players = 2, seed = 3 }
    local b = kontor.new_game { rules = BID, players = 2, seed = 3 }
    assert.are.equal("simultaneous", a:decision().kind)
    assert.are.same(a:log(), b:log())
    assert.truthy(a:log()[1]:find("^chance draw: "))
  end)

  it("with manual_chance, is a decision of 'chance' that an action resolves", function()
    local g = kontor.new_game { rules = BID, players = 2, seed = 3, manual_chance = true }
    local d = g:decision()
    assert.are.equal("chance", d.kind)
    assert.are.equal("draw", d.name)
    assert.are.equal("chance", g:who())
    assert.are.same({ "salt", "cloth", "spice", "gold" }, d.options)
    assert.is_true(g:apply("chance: cloth"))
    assert.are.equal("chance", g:who())          -- one good per player: a second draw
    assert.is_true(g:apply("chance: cloth"))
    assert.are.same({ "chance: cloth", "chance: cloth" }, g:actions())
    assert.are.equal("simultaneous", g:decision().kind)
    local nil_ok, err = g:apply("bid 1")
    assert.is_nil(nil_ok)
    assert.truthy(err:find("several seats choose at once", 1, true))
  end)

  it("with manual_chance, survives save and load", function()
    local g = kontor.new_game { rules = BID, players = 2, seed = 3, manual_chance = true }
    g:apply("chance: gold")
    local path = os.tmpname()
    assert.is_true(g:save(path))
    local h, err = kontor.load_game(path)
    os.remove(path)
    assert.is_truthy(h, err)
    assert.are.same(g:actions(), h:actions())
    assert.are.equal(kontor.json.encode(g:state()), kontor.json.encode(h:state()))
  end)
end)

describe("secret choices in the record", function()
  it("stay hidden from other seats until every seat has chosen", function()
    local g = kontor.new_game { rules = BID, players = 3, seed = 5 }
    assert.is_true(g:apply("2: bid 3"))
    local n = #g:actions()
    assert.are.equal("2: bid 3", g:actions()[n])             -- the full record
    assert.are.equal("2: bid 3", g:actions(2)[n])            -- the bidder's own view
    assert.are.equal("2: (secret)", g:actions(1)[n])         -- another seat's view
    assert.are.equal("2: (secret)", g:moves(3)[#g:moves(3)])
    g:apply("1: bid 0"); g:apply("3: bid 1")                 -- all chosen: revealed
    local acts = g:actions(1)
    -- read back in the order of the seats, whoever chose first
    assert.are.same({ "1: bid 0", "2: bid 3", "3: bid 1" }, { acts[n], acts[n + 1], acts[n + 2] })
  end)
end)
