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

  it("draws by weight, and says at the script's line what is wrong with the weights", function()
    local function run(weights)
      local R = kontor.load_rules(BID)
      function R.play(g)
        local n = { 0, 0, 0 }
        for _ = 1, 300 do
          local k = g:chance("pick", { "a", "b", "c" }, weights)
          n[k] = n[k] + 1
        end
        g:log("%d %d %d", n[1], n[2], n[3])
      end
      return pcall(kontor.new_game, { rules = R, players = 2, seed = 7 })
    end
    local ok, g = run { 0, 3, 1 }
    assert.is_true(ok, g)
    local a, b, c = g:log()[#g:log()]:match("^(%d+) (%d+) (%d+)$")
    assert.are.equal("0", a)                            -- weight 0: never
    assert.is_true(tonumber(b) > tonumber(c) * 2)       -- 3 to 1
    for weights, msg in pairs {
      [{ 1, "x", 1 }] = "g:chance: weight 2 of 'pick' is a string, not a whole number 0..2^48",
      [{ 1, 1.5, 1 }] = "g:chance: weight 2 of 'pick' is 1.5, not a whole number 0..2^48",
      [{ 1, 1, -1 }] = "g:chance: weight 3 of 'pick' is -1, not a whole number 0..2^48",
      [{ 1, 1 }] = "g:chance: weight 3 of 'pick' is a nil, not a whole number 0..2^48",
      [{ 0, 0, 0 }] = "g:chance: the weights of 'pick' are all 0",
      [setmetatable({}, { __index = function() return 1 end })] =
        "g:chance: the weights of 'pick' must be a plain list of whole numbers",
    } do
      local okw, err = run(weights)
      assert.is_false(okw)
      assert.truthy(tostring(err):find(msg, 1, true), tostring(err))
      assert.truthy(tostring(err):find("chance_spec.lua:%d+:"), tostring(err))
    end
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
