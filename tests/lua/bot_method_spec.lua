-- bot_method_spec.lua - g:choose while the simulation's bot plays a game
-- inside (lua/engine/playout.c, bot_method): g.choose is then the bot's own
-- C function, which must answer, check and fail exactly as Ctx.choose does.

local Ctx = require("kontor.game").Ctx

local support = require "tests.lua.support"
local write = support.write
local tmp, cleanup = support.scratch()
teardown(cleanup)

-- A rule set whose decision `bad` (turn 3, seat 1) is the call `call`.
local function rules_with(name, call)
  return write(tmp(name .. ".lua"), ([[
local R = { name = "%s", players = { min = 2, max = 2 } }
local AB = kontor.options { "a", "b" }
function R.setup(g) g.n = 0 end
function R.play(g)
  for turn = 1, 4 do
    g:begin_turn(turn %% 2 + 1)
    if turn == 3 then
      %s
    end
    g.n = g.n + g:choose(turn %% 2 + 1, "pick", AB)
  end
end
function R.scores(g) return { g.n, 0 } end
return R
]]):format(name, call))
end

-- The errors of a playout by the bot inside and by the driver.
local function errors_of(path) return support.playout_errors(path, 2) end

describe("g:choose answered by the simulation's bot", function()
  local cases = {
    { "seat0", [[g:choose(0, "bad", AB)]], "seat0.lua:8: g:choose: decision 'bad' is for seat 0, not a seat 1..2" },
    { "seat3", [[g:choose(3, "bad", AB)]], "seat3.lua:8: g:choose: decision 'bad' is for seat 3, not a seat 1..2" },
    { "seatstr", [[g:choose("1", "bad", AB)]],
      "seatstr.lua:8: g:choose: decision 'bad' is for a string, not a seat 1..2" },
    { "noname", [[g:choose(1, 5, AB)]], "noname.lua:8: g:choose: the decision's name must be a string, not number" },
    { "empty", [[g:choose(1, "bad", {})]], "empty.lua:8: g:choose: decision 'bad' of seat 1 has no options" },
    { "notlist", [[g:choose(1, "bad", "a")]],
      "notlist.lua:8: g:choose: the options of decision 'bad' of seat 1 must be a list, not string" },
    { "badopt", [[g:choose(1, "bad", { "a", true })]],
      "badopt.lua:8: g:choose: option 2 of decision 'bad' of seat 1 is not a string or a list of words and whole numbers" },
  }
  for _, c in ipairs(cases) do
    it("fails at the script's line as the driver does: " .. c[1], function()
      local inside, driver = errors_of(rules_with(c[1], c[2]))
      assert.truthy(inside:find(c[3], 1, true), inside)
      assert.truthy(driver:find(c[3], 1, true), driver)
    end)
  end

  it("takes a plain list, a float seat and extra arguments as Ctx.choose does", function()
    local path = rules_with("plain", [[g.n = g.n + 10 * g:choose(1.0, "plain", { "x", { "y", 2 }, "z" }, "extra")]])
    local inside, driver = support.playouts(path, 2, 4)
    assert.same(driver:actions(), inside:actions())
    assert.same(driver:result().scores, inside:result().scores)
    assert.equal(5, #inside:actions())
  end)

  it("puts Ctx.choose back in g.choose when the playout ends, and the bot's, kept, is Ctx.choose", function()
    local path = write(tmp("kept.lua"), [[
local R = { name = "kept", players = { min = 2, max = 2 } }
function R.setup(g) g.n = 0 end
function R.play(g)
  g:begin_turn(1)
  g.n = g:choose(1, "first", kontor.options { "a", "b" })   -- (the first decision is the driver's)
  g.kept = g.choose
  g.n = g.n + g:choose(1, "pick", kontor.options { "a", "b", "c" })
end
function R.scores(g) g.kept(g, 1, "late", { "a" }); return { g.n, 0 } end
return R
]])
    local g = kontor.new_game { rules = path, players = 2, seed = 2 }
    g:play_random(kontor.rng(2))
    assert.is_true(g:over())
    assert.equal(Ctx.choose, rawget(g.ctx, "choose"))
    assert.is_not.equal(Ctx.choose, rawget(g.ctx, "kept"))
    local ok, err = pcall(g.result, g)
    assert.is_false(ok)
    -- what Ctx.choose says outside the game's coroutine
    local ok2, err2 = pcall(Ctx.choose, g.ctx, 1, "late", { "a" })
    assert.is_false(ok2)
    assert.truthy(tostring(err):find(tostring(err2):gsub("^.-: ", ""), 1, true), tostring(err))
  end)

  it("leaves a g.choose the script put there", function()
    local path = write(tmp("own.lua"), [[
local R = { name = "own", players = { min = 2, max = 2 } }
function R.setup(g)
  g.calls = 0
  local choose = g.choose
  g.choose = function(self, ...) self.calls = self.calls + 1; return choose(self, ...) end
end
function R.play(g)
  for t = 1, 3 do g:begin_turn(1); g:choose(1, "pick", kontor.options { "a", "b" }) end
end
function R.scores(g) return { g.calls, 0 } end
return R
]])
    local g = kontor.new_game { rules = path, players = 2, seed = 3 }
    g:play_random(kontor.rng(3))
    assert.same({ 3, 0 }, g:result().scores)
    assert.is_not.equal(Ctx.choose, rawget(g.ctx, "choose"))
  end)

  it("refuses an order entry's choice for another seat, at the entry's line", function()
    local path = write(tmp("entry.lua"), [[
local R = { name = "entry", players = { min = 2, max = 2 } }
local AB = kontor.options { "a", "b" }
function R.setup(g) end
function R.play(g)
  g:begin_turn(1)
  g:choose(1, "start", AB)                      -- (the first decision is the driver's)
  g:choose_orders({ 1, 2 }, "order", function(gg, seat)
    local k = gg:choose(seat, "first", AB)
    if seat == 2 then gg:choose(1, "other", AB) end
    return { k }
  end)
end
function R.scores(g) return { 0, 0 } end
return R
]])
    local inside, driver = errors_of(path)
    local want = "entry.lua:9: g:choose: seat 2's order entry chose for seat 1 (an entry chooses only for its own seat)"
    assert.truthy(inside:find(want, 1, true), inside)
    assert.truthy(driver:find(want, 1, true), driver)
  end)

  it("plays the orders a playout enters as the driver does", function()
    local path = write(tmp("orders.lua"), [[
local R = { name = "orders", players = { min = 2, max = 2 } }
local AB = kontor.options { "a", "b" }
function R.setup(g) g.sum = { 0, 0 } end
function R.play(g)
  for t = 1, 3 do
    g:begin_turn(1)
    local o = g:choose_orders({ 1, 2 }, "order", function(gg, seat)
      return { gg:choose(seat, "first", AB), gg:choose(seat, "second", AB) }
    end)
    for s = 1, 2 do g.sum[s] = g.sum[s] + o[s][1] * 2 + o[s][2] end
    g.sum[1] = g.sum[1] + g:choose(1, "after", AB)
  end
end
function R.scores(g) return g.sum end
return R
]])
    for seed = 1, 5 do
      local inside, driver = support.playouts(path, 2, seed)
      assert.same(driver:actions(), inside:actions())
      assert.same(driver:result().scores, inside:result().scores)
    end
  end)
end)

describe("a bot's g:choose kept past its playout (module-level, as docs/api.md says not to)", function()
  -- Kept in a module-level variable by game 1 (a playout), used by game 2.
  local path = write(tmp("stale.lua"), [[
local R = { name = "stale", players = { min = 2, max = 2 } }
local AB = kontor.options { "a", "b" }
local CHOOSE, CHOOSE_ALL
function R.setup(g) g.n = 0 end
function R.play(g)
  g:begin_turn(1)
  g.n = g:choose(1, "first", AB)
  local choose, choose_all = CHOOSE or g.choose, CHOOSE_ALL or g.choose_all
  CHOOSE, CHOOSE_ALL = choose, choose_all
  g:begin_turn(2)
  g.n = g.n + 10 * choose(g, 2, "pick", AB)
  if g.bad then choose_all(g, { 1, 2 }, "bid", AB) end
  g.n = g.n + 100 * choose_all(g, { 1, 2 }, "bid", { AB, AB })[2]
end
function R.scores(g) return { g.n, 0 } end
return R
]])

  it("waits for the decision in a game the driver steps, as Ctx.choose and Ctx.choose_all do", function()
    local R = kontor.load_rules(path)
    local first = kontor.new_game { rules = R, players = 2, seed = 1 }
    first:play_random(kontor.rng(1))
    assert.is_true(first:over())
    local g = kontor.new_game { rules = R, players = 2, seed = 2 }
    g:step(1, 2)
    g:step(2, 1)
    g:step(1, 1)
    g:step(2, 2)
    assert.is_true(g:over())
    assert.same({ 2 + 10 * 1 + 100 * 2, 0 }, g:result().scores)
  end)

  it("fails at the script's line, as Ctx.choose_all does", function()
    local R = kontor.load_rules(path)
    local first = kontor.new_game { rules = R, players = 2, seed = 1 }
    first:play_random(kontor.rng(1))
    local g = kontor.new_game { rules = R, players = 2, seed = 2 }
    g.ctx.bad = true
    g:step(1, 1)
    local ok, err = pcall(g.step, g, 2, 1)
    assert.is_false(ok)
    assert.truthy(tostring(err):find("stale.lua:12: g:choose_all: the options by seat must be a plain table", 1, true),
      tostring(err))
  end)
end)
