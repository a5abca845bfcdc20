-- Errors of the public API read like Lua's own: they name the argument and
-- what was expected, and change nothing.

describe("API errors", function()
  it("kontor.pile checks its pool's name", function()
    assert.are.equal("workers", kontor.core.pile { vis = "hidden", pool = "workers" }:pool())
    assert.is_nil(kontor.core.pile { vis = "hidden" }:pool())
    for _, bad in ipairs { "", string.rep("x", 65), 7, {} } do
      local ok, err = pcall(kontor.core.pile, { vis = "hidden", pool = bad })
      assert.is_false(ok)
      -- Lua names the function by where it finds it first: kontor.pile or kontor.core.pile
      assert.truthy(err:match("bad argument #1 to '[%w.]*pile' %(field 'pool' must be a name %(a string of 1 to 64 bytes%)%)"), err)
    end
  end)

  it("a method of a pile, a counter or an RNG takes only its own type (the tag check)", function()
    local core = kontor.core
    local pile, counter, rng = core.pile {}, core.counter { n = 2 }, core.rng(1)
    local cases = {
      { pile.count, counter, "kontor.Pile expected, got kontor.Counter" },
      { counter.get, pile, "kontor.Counter expected, got kontor.Pile" },
      { rng.below, pile, "kontor.Rng expected, got kontor.Pile" },
      { pile.count, io.stdout, "kontor.Pile expected, got FILE*" },   -- another library's userdata
      { pile.count, {}, "kontor.Pile expected, got table" },
      { counter.get, "x", "kontor.Counter expected, got string" },
    }
    for _, c in ipairs(cases) do
      local ok, err = pcall(c[1], c[2], 1)
      assert.is_false(ok)
      assert.truthy(err:find("bad argument #1 to ", 1, true) and err:find(c[3], 1, true), err)
    end
    pile:push(3, 2)
    counter:add(2, 5)
    assert.are.equal(2, pile:count())                 -- each still works on its own
    assert.are.equal(5, counter:get(2))
  end)

  it("counter:sum totals the values and refuses an overflow", function()
    local c = kontor.core.counter { n = 3, init = 2 }
    assert.are.equal(6, c:sum())
    c:set(2, -5)
    assert.are.equal(-1, c:sum())
    c:set(1, math.maxinteger)
    c:set(2, 1)
    local ok, err = pcall(c.sum, c)
    assert.is_false(ok)
    assert.truthy(err:find("counter: the sum of its values overflows", 1, true), err)
    assert.are.equal(math.maxinteger, c:get(1))
  end)

  it("g:view and g:show check the seat", function()
    local g = kontor.new_game { players = 2, seed = 1 }
    local ok, err = pcall(g.view, g, 9)
    assert.is_false(ok)
    assert.truthy(err:find("bad argument #1 to 'view' (a seat 1..2 expected, got 9)", 1, true))
    ok, err = pcall(g.view, g)
    assert.is_false(ok)
    assert.truthy(err:find("g:state() is the whole state", 1, true))
    ok, err = pcall(g.show, g, 0)
    assert.is_false(ok)
    assert.truthy(err:find("bad argument #1 to 'show'", 1, true))
    assert.is_string(g:show(1))
  end)

  it("g:apply says which seats to name in a simultaneous decision, and refuses seats that do not exist", function()
    local b = kontor.new_game { rules = "tests/rulesets/sealed_bid.lua", players = 3, seed = 1 }
    local before = kontor.json.encode(b:state())
    local ok, err = b:apply(1)
    assert.is_nil(ok)
    assert.are.equal("several seats choose at once (1, 2, 3): say which, e.g. g:apply(1, 1)", err)
    ok, err = b:apply("bid 1", 7)
    assert.is_nil(ok)
    assert.are.equal("there is no seat 7 (seats 1..3)", err)
    assert.are.equal(before, kontor.json.encode(b:state()))
    assert.is_true(b:apply(1, 2))
  end)

  it("new_game names the problem: player count, names, seed, options", function()
    local function fails(t, msg)
      local ok, err = pcall(kontor.new_game, t)
      assert.is_false(ok)
      assert.truthy(tostring(err):find(msg, 1, true), tostring(err))
    end
    fails({ players = 5 }, "sea_merchants is for 2 to 4 players, not 5")
    fails({ players = 2, names = { "A", "B", "C" } }, "3 names for 2 players")
    fails({ seed = "x" }, "the seed must be a whole number or \"random\", not 'x'")
    fails({ options = { first_player = "two" } }, "option first_player of sea_merchants: 'two' is not a whole number")
    fails({ options = { colour = 1 } }, "unknown option 'colour' for sea_merchants")
    fails({ rules = "nosuch" }, "unknown rule set or variant 'nosuch' (available: ")
    fails({ players = 3.5 }, "players must be a whole number, not '3.5'")
  end)

  it("takes players = 3.0 as 3, as --players 3.0 and kontor.sim's games = 3.0 are", function()
    local g = kontor.new_game { players = 3.0, seed = 1 }
    assert.are.equal("integer", math.type(g.players))
    assert.are.equal(3, g.players)
    local r = kontor.sim { players = 2.0, games = 2, seed = 1 }
    assert.are.equal(2, r.players)
  end)
end)
