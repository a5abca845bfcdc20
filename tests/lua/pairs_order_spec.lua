-- pairs_order_spec.lua - the sandbox's pairs visits keys booleans first
-- (false, true), then numbers ascending, then strings bytewise, whatever
-- the table's layout; keys already in order (a list's 1..n) are not sorted
-- again (issue 25, item 4). docs/security.md, "Determinism".
-- Run: build/kontor run tests/busted.lua tests/lua/pairs_order_spec.lua
local sandbox = require "kontor.sandbox"
local support = require "tests.lua.support"
local write = support.write
local tmp, cleanup_tmp = support.scratch()
local env = sandbox.env(kontor.core)

teardown(cleanup_tmp)

local function keys(t)
  local out = {}
  for k, v in env.pairs(t) do
    assert.are.equal(rawget(t, k), v)
    out[#out + 1] = k
  end
  return out
end

describe("the sandbox's pairs", function()
  it("visits a list's keys 1..n", function()
    assert.are.same({ 1, 2, 3, 4, 5 }, keys({ "a", "b", "c", "d", "e" }))
  end)

  it("sorts numbers that come out of order, and floats among integers", function()
    local t = {}
    for _, k in ipairs { 40, 3, 17, 2.5, -1, 1e9, 8 } do t[k] = true end
    assert.are.same({ -1, 2.5, 3, 8, 17, 40, 1e9 }, keys(t))
  end)

  it("sorts a list with keys added past its end and below it", function()
    local t = { 10, 20, 30 }
    t[100], t[0], t[50] = 1, 2, 3
    assert.are.same({ 0, 1, 2, 3, 50, 100 }, keys(t))
  end)

  it("sorts strings bytewise", function()
    local t = {}
    for _, w in ipairs { "wren", "amber", "Zinc", "moss", "am", "b" } do t[w] = #w end
    assert.are.same({ "Zinc", "am", "amber", "b", "moss", "wren" }, keys(t))
  end)

  it("puts booleans first, then numbers, then strings", function()
    local t = { 1, 2, 3, x = 1, [2.5] = 2, y = 3, [true] = 4, [false] = 5 }
    assert.are.same({ false, true, 1, 2, 2.5, 3, "x", "y" }, keys(t))
    assert.are.same({ false, true }, keys({ [true] = 1, [false] = 2 }))
  end)

  it("refuses a key with no fixed order", function()
    local ok, err = pcall(keys, { [{}] = 1 })
    assert.is_false(ok)
    assert.truthy(err:find("pairs: a table key has no fixed order (keys must be booleans, numbers or strings)",
      1, true), err)
  end)

  it("next(t, k) follows the same order", function()
    local t = { 5, 6, z = 1, a = 2, [true] = 3 }
    local k, out = env.next(t), {}
    while k ~= nil do out[#out + 1] = k; k = env.next(t, k) end
    assert.are.same({ true, 1, 2, "a", "z" }, out)
  end)

  it("names the rule script's line when a key has no fixed order", function()
    local bad = [==[
local R = { name = "badkeys", players = { min = 1, max = 1 } }
function R.setup(g) g.t = { [R] = 1 } end
function R.play(g)
  for k in pairs(g.t) do g.x = k end
end
function R.scores(g) return { 0 } end
return R
]==]
    local path = write(tmp("badkeys.lua"), bad)
    local ok, err = pcall(kontor.new_game, { rules = path, players = 1 })
    assert.is_false(ok)
    err = tostring(type(err) == "table" and err.message or err)
    assert.truthy(err:find("badkeys.lua:4: pairs: a table key has no fixed order (keys must be booleans, "
      .. "numbers or strings)", 1, true), err)
  end)

  it("next(t, k) names the rule script's line too", function()
    local bad = [==[
local R = { name = "badnext", players = { min = 1, max = 1 } }
function R.setup(g) g.t = { 1, [R] = 2 } end
function R.play(g)
  g.x = next(g.t, 1)
end
function R.scores(g) return { 0 } end
return R
]==]
    local path = write(tmp("badnext.lua"), bad)
    local ok, err = pcall(kontor.new_game, { rules = path, players = 1 })
    assert.is_false(ok)
    err = tostring(type(err) == "table" and err.message or err)
    assert.truthy(err:find("badnext.lua:4: next: a table key has no fixed order", 1, true), err)
  end)
end)
