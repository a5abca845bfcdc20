-- Merchants of the Old World with tiles a variant adds to R.data (issue 25:
-- a card marks its tiles in bit sets, the ships after them): the options
-- name the added tiles and the ships as with the rule set's own, games with
-- them keep the invariants, and too many kinds of tile is said plainly.
-- Run: build/kontor run tests/busted.lua tests/rules/old_world_data_spec.lua

local support = require "tests.lua.support"
local rules = require "kontor.rules"

local DIR = os.tmpname()
os.remove(DIR)
assert(os.execute("mkdir -p " .. DIR))

-- A variant adding `n` one-slot buildings hut_1 .. hut_n (cost 1) to T7's.
local function huts(n)
  local file = ("%s/huts_%d.lua"):format(DIR, n)
  local f = assert(io.open(file, "w"))
  f:write(([[
return {
  variant = true, name = "huts_%d", base = "old_world", summary = "%d huts",
  apply = function(R)
    for i = 1, %d do
      R.data.buildings_24[#R.data.buildings_24 + 1] = { id = "hut_" .. i, name = "Hut " .. i, cost = 1, slots = 1 }
    end
  end,
}
]]):format(n, n, n))
  f:close()
  return file
end

describe("Old World with added tiles", function()
  teardown(function() os.execute("rm -rf " .. DIR) end)

  it("names an added tile and the ships in the release and assign options (past 32 kinds of tile)", function()
    -- 30 tiles of the rule set and 4 huts: hut_4 is the 34th kind of tile
    local g = kontor.new_game { rules = "old_world", variants = { huts(4) }, players = 2, seed = 1,
      options = { buildings_24 = true },
      scenario = { gold = { 0, 0 }, first = 2, line = {},
                   tiles = { { sheep_herding = 1, hut_4 = 1, ships = 2 } },
                   workers = { { sheep_herding = 1, hut_4 = 1, pool = { seaman = 2 } } } } }
    support.invariants(g)
    assert.same({ "release sheep_herding", "release hut_4", "done" }, g:options(1))
    assert(g:apply("release hut_4", 1))
    assert.same({ "release sheep_herding", "done" }, g:options(1))
    assert(g:apply("done", 1))
    assert.same({ "assign hut_4", "assign ship 1", "assign ship 2", "done" }, g:options(1))
    assert(g:apply("assign ship 2", 1))
    assert.same({ "assign hut_4", "assign ship 1", "done" }, g:options(1))
  end)

  it("plays whole games with them, the invariants kept at every step", function()
    local R = assert(rules.load("old_world", { huts(6) }))
    for seed = 1, 5 do
      local g = kontor.new_game { rules = "old_world", variants = { huts(6) }, players = 4, seed = seed,
                                  options = { buildings_24 = true } }
      local rng = kontor.rng(seed)
      while not g:over() do
        local w = g:who()
        local s = type(w) == "table" and w[1] or w
        g:step(s, rng:below(#g:options(s)) + 1)
        local bad = R.invariants(g.ctx)
        assert(bad == nil, bad)
      end
      assert.is_true(g.turn >= 1)
    end
  end)

  it("says so when there are more kinds of tile than a card's bit sets hold", function()
    local R, err = rules.load("old_world", { huts(21) })
    assert.is_nil(R)
    assert.matches("R.prepare failed after the variants: R.data: 51 kinds of tile, at most 50 "
      .. "%(a card marks them in a bit set%)", err)
  end)
end)
