-- designer_data_names_spec.lua: a rule script that reads a name R.data
-- does not have (a misspelling) is told which name, where, and the name
-- it is close to, not Lua's "attempt to index a nil value"; the game is
-- as it was, and a read of a name R.data has is as before.
local support = require "tests.lua.support"

local tmp, cleanup = support.scratch()

local RULES = [[
local R = { name = "rd", players = { min = 2, max = 2 } }
R.data = { start_coins = 3, prices = { 4, 7 }, [2] = "two" }
function R.setup(g) g.coins = R.data.start_coins end
function R.play(g)
  local k = g:choose(1, "go", { "a", "b", "c" })
  if k == 1 then g:log("paid %d", R.data.prices[k]) end
  if k == 2 then g:log("paid %d", R.data.pricess[k]) end
  if k == 3 then g:log("tax %d", R.data.toll_per_ship_and_port) end
  g:choose(2, "go", { "a" })
end
function R.scores(g) return { g.coins, 0 } end
return R
]]

describe("a read of a name R.data does not have", function()
  teardown(cleanup)
  local file = support.write(tmp("rd.lua"), RULES)

  it("says the name, the script's file:line and the name it is close to; the game is as it was", function()
    local g = kontor.new_game { rules = file, seed = 1 }
    local before = kontor.json.encode(g:state())
    local ok, err = pcall(g.apply, g, "b")
    assert.is_false(ok)
    assert.truthy(tostring(err):find(file .. ":7: R.data has no 'pricess': did you mean 'prices'?", 1, true), err)
    assert.falsy(tostring(err):find("attempt to index", 1, true), err)
    assert.are.equal(before, kontor.json.encode(g:state()))
    -- far from every name: the names there are
    ok, err = pcall(g.apply, g, "c")
    assert.is_false(ok)
    assert.truthy(tostring(err):find(file .. ":8: R.data has no 'toll_per_ship_and_port': its names are prices, "
      .. "start_coins", 1, true), err)
    -- a name it has reads as before
    assert.truthy(g:apply("a"))
    assert.are.same({ "paid 4" }, g:log())
  end)

  it("in the REPL too, from a Lua line", function()
    local out = support.kontor_rc("--rules " .. file, "g.R.data.start_coinz\n=g.R.data.start_coins\n")
    assert.truthy(support.has(out, "stdin:1: R.data has no 'start_coinz': did you mean 'start_coins'?\n3\n"), out)
  end)

  it("a variant still adds names to R.data and reads them; the rule sets' games play as before", function()
    local v = support.write(tmp("more.lua"), 'return { variant = true, name = "more", base = "rd",\n'
      .. '  apply = function(R) R.data.extra = (R.data.extra or 0) + 5 end }\n')
    local g = kontor.new_game { rules = file, variants = { v }, seed = 1 }
    assert.are.equal(5, g.R.data.extra)
    for _, rules in ipairs { "sea_merchants", "caribbean", "old_world" } do
      local s = kontor.sim { rules = rules, players = 3, games = 20, seed = 4 }
      assert.are.equal(20, s.games)
    end
  end)
end)
