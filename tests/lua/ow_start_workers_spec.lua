-- ow_start_workers_spec.lua: Old World's set-up deals the workers
-- R.data.start_workers names (O9, docs/rules/old_world.md "Components").
-- Before, the set-up put one land worker on the Sheep Herding tile and one
-- seaman on ship 1 whatever the data said: a variant that changed
-- start_workers changed the workers counted in the game (total_workers)
-- but not the deal.

local support = require "tests.lua.support"

local tmp, cleanup = support.scratch()
teardown(cleanup)

local function variant(path, workers)
  return support.write(path, ('return { variant = true, name = "v", base = "old_world",\n'
    .. '  apply = function(R) R.data.start_workers = %s end }\n'):format(workers))
end

local function card(g, s) return g:state().card[s] end

describe("Old World's start_workers", function()
  it("is what the set-up deals: on the sheep tile and ship 1 one a slot, the rest in the pool", function()
    local v = variant(tmp("start.lua"), "{ seaman = 0, land = 2, facility = 2 }")
    local g = kontor.new_game{ rules = "old_world", variants = { v }, players = 3, seed = 1 }
    for s = 1, 3 do
      local c = card(g, s)
      assert.are.same({ sheep_herding = 1 }, c.crew)
      assert.are.equal(0, c.ships[1].crew)
      assert.are.same({ seaman = 0, land = 1, facility = 2 }, c.pool)
    end
    -- a scenario's card without tiles is the set-up's
    local sc = kontor.new_game{ rules = "old_world", variants = { v }, players = 2, seed = 1,
                                scenario = { gold = { 3, 3 } } }
    assert.are.same({ seaman = 0, land = 1, facility = 2 }, card(sc, 1).pool)
    assert.are.equal(0, card(sc, 1).ships[1].crew)
    -- and the games play to their end
    local sum = kontor.sim{ rules = "old_world", variants = { v }, players = 3, games = 5,
                            check = function(x) assert(not x:invariants()) end }
    assert.are.equal(5, sum.games)
  end)

  it("left as it is, deals what it always did", function()
    local g = kontor.new_game{ rules = "old_world", players = 4, seed = 3 }
    for s = 1, 4 do
      local c = card(g, s)
      assert.are.same({ sheep_herding = 1 }, c.crew)
      assert.are.equal(1, c.ships[1].crew)
      assert.are.same({ seaman = 0, land = 0, facility = 0 }, c.pool)
    end
  end)

  it("that is not a count is refused with its name", function()
    local v = variant(tmp("neg.lua"), "{ seaman = 1, land = -1 }")
    local ok, e = pcall(kontor.new_game, { rules = "old_world", variants = { v }, players = 2, seed = 1 })
    assert.is_false(ok)
    assert.truthy(tostring(kontor.errors.message(e)):find("R.data.start_workers.land must be a whole number >= 0, not -1",
      1, true), tostring(kontor.errors.message(e)))
  end)
end)
