-- bot_all_spec.lua - g:choose_all while the simulation's bot plays a game
-- inside (lua/engine/playout.c, bot_all): g.choose_all is then the bot's
-- own C function, which must answer, check and fail exactly as
-- Ctx.choose_all does; and g:choose of a plain list, checked by bot_method
-- itself, fails as the driver's check does.

local Ctx = require("kontor.game").Ctx

local support = require "tests.lua.support"
local write = support.write
local tmp, cleanup = support.scratch()
teardown(cleanup)

-- A rule set whose decision on turn 3 is the call `call` (line 9); every
-- turn both seats bid at once from a constant and a plain list.
local function rules_with(name, call)
  return write(tmp(name .. ".lua"), ([[
local R = { name = "%s", players = { min = 3, max = 3 } }
local AB = kontor.options { "a", "b" }
local XYZ = { "x", "y", "z" }
function R.setup(g) g.n = { 0, 0, 0 } end
function R.play(g)
  for turn = 1, 4 do
    g:begin_turn(turn %% 3 + 1)
    if turn == 3 then
      %s
    end
    local c = g:choose_all({ 3, 1 }, "bid", { AB, nil, XYZ })
    g.n[1] = g.n[1] + c[1]; g.n[3] = g.n[3] + 10 * c[3]
    g.n[2] = g.n[2] + g:choose(2, "pick", XYZ)
  end
end
function R.scores(g) return g.n end
return R
]]):format(name, call))
end

-- The errors of a playout by the bot inside and by the driver.
local function errors_of(path) return support.playout_errors(path, 3) end

describe("g:choose_all answered by the simulation's bot", function()
  it("plays the same steps and choices as the driver", function()
    local path = rules_with("same", [[g.n[2] = g.n[2] + 100 * g:choose_all({ 2 }, "one", { [2] = XYZ })[2] ]])
    for seed = 1, 6 do
      local inside, driver = support.playouts(path, 3, seed)
      assert.same(driver:actions(), inside:actions())
      assert.same(driver:result().scores, inside:result().scores)
      assert.equal(13, #inside:actions())
    end
  end)

  local cases = {
    { "seat0", [[g:choose_all({ 0 }, "bad", { AB })]], "seat0.lua:9: g:choose_all: seats[1] is 0, not a seat 1..3" },
    { "twice", [[g:choose_all({ 1, 1 }, "bad", { AB })]], "twice.lua:9: g:choose_all: seat 1 is listed twice" },
    { "noseats", [[g:choose_all({}, "bad", { AB })]], "noseats.lua:9: g:choose_all: no seats" },
    { "byseat", [[g:choose_all({ 1 }, "bad", "AB")]],
      "byseat.lua:9: g:choose_all: the options by seat must be a plain table" },
    { "noname", [[g:choose_all({ 1 }, 7, { AB })]],
      "noname.lua:9: g:choose_all: the decision's name must be a string, not number" },
    { "empty", [[g:choose_all({ 1, 2 }, "bad", { AB, {} })]],
      "empty.lua:9: g:choose_all: decision 'bad' of seat 2 has no options" },
    { "missing", [[g:choose_all({ 1, 2 }, "bad", { AB })]],
      "missing.lua:9: g:choose_all: the options of decision 'bad' of seat 2 must be a list, not nil" },
    { "badopt", [[g:choose_all({ 2 }, "bad", { [2] = { "a", true } })]],
      "badopt.lua:9: g:choose_all: option 2 of decision 'bad' of seat 2 is not a string or a list of words and whole numbers" },
    { "chooseempty", [[g:choose(1, "bad", {})]], "chooseempty.lua:9: g:choose: decision 'bad' of seat 1 has no options" },
    { "choosemeta", [[g:choose(1, "bad", setmetatable({ "a" }, {}))]],
      "choosemeta.lua:9: g:choose: the options of decision 'bad' of seat 1 are a table with a metatable (options are plain lists)" },
    { "choosebad", [[g:choose(1, "bad", { "a", { "b", 1.5 } })]],
      "choosebad.lua:9: g:choose: option 2 of decision 'bad' of seat 1 has an entry that is not a string or a whole number" },
  }
  for _, c in ipairs(cases) do
    it("fails at the script's line as the driver does: " .. c[1], function()
      local inside, driver = errors_of(rules_with(c[1], c[2]))
      assert.truthy(inside:find(c[3], 1, true), inside)
      assert.truthy(driver:find(c[3], 1, true), driver)
    end)
  end

  it("refuses g:choose_all inside an order entry, as the driver does", function()
    local path = rules_with("entry", [[g:choose_orders({ 1, 2 }, "order", function(gg, seat)
        return { gg:choose_all({ seat }, "inner", { AB, AB }) }
      end)]])
    local inside, driver = errors_of(path)
    local want = "g:choose_all inside seat 1's order entry"
    assert.truthy(inside:find(want, 1, true), inside)
    assert.truthy(driver:find(want, 1, true), driver)
  end)

  it("puts Ctx.choose_all back when the playout ends, and the bot's, kept, is Ctx.choose_all", function()
    local path = rules_with("kept", [[g.kept = g.choose_all]])
    local g = kontor.new_game { rules = path, players = 3, seed = 2 }
    g:play_random(kontor.rng(2))
    assert.is_true(g:over())
    assert.equal(Ctx.choose_all, rawget(g.ctx, "choose_all"))
    local kept = rawget(g.ctx, "kept")
    assert.is_not.equal(Ctx.choose_all, kept)
    -- now Ctx.choose_all: outside the game's coroutine it cannot ask anyone
    local ok, err = pcall(kept, g.ctx, { 1 }, "late", { { "a" } })
    local ok2, err2 = pcall(Ctx.choose_all, g.ctx, { 1 }, "late", { { "a" } })
    assert.is_false(ok)
    assert.is_false(ok2)
    assert.equal(tostring(err2), tostring(err))
  end)

  it("leaves a g.choose_all the script put there", function()
    local path = write(tmp("own.lua"), [[
local R = { name = "own", players = { min = 2, max = 2 } }
function R.setup(g)
  g.calls = 0
  local choose_all = g.choose_all
  g.choose_all = function(self, ...) self.calls = self.calls + 1; return choose_all(self, ...) end
end
function R.play(g)
  for t = 1, 3 do g:begin_turn(1); g:choose_all({ 1, 2 }, "pick", { kontor.options { "a", "b" }, { "c", "d" } }) end
end
function R.scores(g) return { g.calls, 0 } end
return R
]])
    local g = kontor.new_game { rules = path, players = 2, seed = 3 }
    g:play_random(kontor.rng(3))
    assert.same({ 3, 0 }, g:result().scores)
    assert.equal(6, #g:actions())
    assert.is_not.equal(Ctx.choose_all, rawget(g.ctx, "choose_all"))
  end)

  it("with the script's own g.choose_all, still refuses an entry's choice for another seat", function()
    local path = write(tmp("ownentry.lua"), [[
local R = { name = "ownentry", players = { min = 2, max = 2 } }
local AB = kontor.options { "a", "b" }
function R.setup(g) local c = g.choose_all; g.choose_all = function(...) return c(...) end end
function R.play(g)
  g:begin_turn(1)
  g:choose(1, "start", AB)                      -- (the first decision is the driver's)
  g:choose_orders({ 1, 2 }, "order", function(gg, seat)
    local k = gg:choose(seat, "first", { "a", "b" })
    if seat == 2 then gg:choose(1, "other", AB) end
    return { k }
  end)
end
function R.scores(g) return { 0, 0 } end
return R
]])
    local inside = kontor.new_game { rules = path, players = 2, seed = 1 }
    local ok1, e1 = pcall(inside.play_random, inside, kontor.rng(1))
    local driver = kontor.new_game { rules = path, players = 2, seed = 1 }
    local ok2, e2 = pcall(driver.play_random, driver, kontor.rng(1), function() end)
    assert.is_false(ok1)
    assert.is_false(ok2)
    local want = "ownentry.lua:9: g:choose: seat 2's order entry chose for seat 1 (an entry chooses only for its own seat)"
    assert.truthy(tostring(e1):find(want, 1, true), tostring(e1))
    assert.truthy(tostring(e2):find(want, 1, true), tostring(e2))
  end)
end)
