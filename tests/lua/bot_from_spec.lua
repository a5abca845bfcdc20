-- bot_from_spec.lua - g:choose_from while the simulation's bot plays a game
-- inside (lua/engine/playout.c, bot_from): g.choose_from is then the bot's
-- own C function, which must answer, check and fail exactly as
-- Ctx.choose_from does.

local Ctx = require("kontor.game").Ctx

local support = require "tests.lua.support"
local write = support.write
local tmp, cleanup = support.scratch()
teardown(cleanup)

-- A rule set whose decision `bad` (turn 3, seat 1) is the call `call`; the
-- other decisions take a constant family (the first one is the driver's).
local function rules_with(name, call)
  return write(tmp(name .. ".lua"), ([[
local R = { name = "%s", players = { min = 2, max = 2 } }
local TAKE = kontor.family { "take", { "a", "b" }, "times", { 1, 2, 3 } }
function R.setup(g) g.n = 0 end
function R.play(g)
  for turn = 1, 4 do
    g:begin_turn(turn %% 2 + 1)
    if turn == 3 then
      %s
    end
    local word, times = g:choose_from(turn %% 2 + 1, "take", TAKE)
    g.n = g.n + (word == "a" and 1 or 10) * times
  end
end
function R.scores(g) return { g.n, 0 } end
return R
]]):format(name, call))
end

describe("g:choose_from answered by the simulation's bot", function()
  local cases = {
    { "seat0", [[g:choose_from(0, "bad", TAKE)]],
      "seat0.lua:8: g:choose_from: decision 'bad' is for seat 0, not a seat 1..2" },
    { "seat3", [[g:choose_from(3, "bad", TAKE)]],
      "seat3.lua:8: g:choose_from: decision 'bad' is for seat 3, not a seat 1..2" },
    { "seatstr", [[g:choose_from("1", "bad", TAKE)]],
      "seatstr.lua:8: g:choose_from: decision 'bad' is for a string, not a seat 1..2" },
    { "noname", [[g:choose_from(1, 5, TAKE)]],
      "noname.lua:8: g:choose_from: the decision's name must be a string, not number" },
    { "options", [[g:choose_from(1, "bad", kontor.options { "a", "b" })]],
      "options.lua:8: g:choose_from: the family of decision 'bad' of seat 1 is a list of options (kontor.options): g:choose takes it" },
    { "emptylist", [[g:choose_from(1, "bad", { "take", {} })]],
      "emptylist.lua:8: g:choose_from: " },
  }
  for _, c in ipairs(cases) do
    it("fails at the script's line as the driver does: " .. c[1], function()
      local inside, driver = support.playout_errors(rules_with(c[1], c[2]), 2)
      assert.truthy(inside:find(c[3], 1, true), inside)
      assert.truthy(driver:find(c[3], 1, true), driver)
      -- the same message, word for word, both ways
      local at = c[1] .. "%.lua:8: [^\n]*"
      assert.equal(driver:match(at), inside:match(at))
    end)
  end

  it("returns the chosen entries of a constant family as the driver does, drawing the same", function()
    local path = rules_with("const", [[g.n = g.n + 1000]])
    for seed = 1, 6 do
      local inside, driver = support.playouts(path, 2, seed)
      assert.same(driver:actions(), inside:actions())
      assert.same(driver:result().scores, inside:result().scores)
      assert.equal(4, #inside:actions())
    end
  end)

  it("takes a plain family, a float seat and extra arguments as Ctx.choose_from does", function()
    local path = rules_with("plain", [[
      local w, k = g:choose_from(1.0, "plain", { "say", { "x", "y" }, "then", { 4, 5 } }, "extra")
      g.n = g.n + (w == "x" and 100 or 200) * k]])
    for seed = 1, 4 do
      local inside, driver = support.playouts(path, 2, seed)
      assert.same(driver:actions(), inside:actions())
      assert.same(driver:result().scores, inside:result().scores)
      assert.equal(5, #inside:actions())
    end
  end)

  it("puts Ctx.choose_from back when the playout ends, and the bot's, kept, is Ctx.choose_from", function()
    local path = write(tmp("kept.lua"), [[
local R = { name = "kept", players = { min = 2, max = 2 } }
local AB = kontor.family { "pick", { "a", "b" } }
function R.setup(g) g.n = 0 end
function R.play(g)
  g:begin_turn(1)
  g.n = #g:choose_from(1, "first", AB)      -- (the first decision is the driver's)
  g.kept = g.choose_from
  g.n = g.n + #g:choose_from(1, "pick", AB)
end
function R.scores(g) g.kept(g, 1, "late", AB); return { g.n, 0 } end
return R
]])
    local g = kontor.new_game { rules = path, players = 2, seed = 2 }
    g:play_random(kontor.rng(2))
    assert.is_true(g:over())
    assert.equal(Ctx.choose_from, rawget(g.ctx, "choose_from"))
    assert.is_not.equal(Ctx.choose_from, rawget(g.ctx, "kept"))
    local ok, err = pcall(g.result, g)
    assert.is_false(ok)
    -- what Ctx.choose_from says outside the game's coroutine
    local ok2, err2 = pcall(Ctx.choose_from, g.ctx, 1, "late", kontor.family { "pick", { "a", "b" } })
    assert.is_false(ok2)
    assert.truthy(tostring(err):find(tostring(err2):gsub("^.-: ", ""), 1, true), tostring(err))
  end)

  it("leaves a g.choose_from the script put there", function()
    local path = write(tmp("own.lua"), [[
local R = { name = "own", players = { min = 2, max = 2 } }
local AB = kontor.family { "pick", { "a", "b" } }
function R.setup(g)
  g.calls = 0
  local choose_from = g.choose_from
  g.choose_from = function(self, ...) self.calls = self.calls + 1; return choose_from(self, ...) end
end
function R.play(g)
  for t = 1, 3 do g:begin_turn(1); g:choose_from(1, "pick", AB) end
end
function R.scores(g) return { g.calls, 0 } end
return R
]])
    local g = kontor.new_game { rules = path, players = 2, seed = 3 }
    g:play_random(kontor.rng(3))
    assert.same({ 3, 0 }, g:result().scores)
    assert.is_not.equal(Ctx.choose_from, rawget(g.ctx, "choose_from"))
  end)

  it("refuses an order entry's choice for another seat, at the entry's line", function()
    local path = write(tmp("entry.lua"), [[
local R = { name = "entry", players = { min = 2, max = 2 } }
local AB = kontor.family { "pick", { "a", "b" } }
function R.setup(g) end
function R.play(g)
  g:begin_turn(1)
  g:choose_from(1, "start", AB)                 -- (the first decision is the driver's)
  g:choose_orders({ 1, 2 }, "order", function(gg, seat)
    local w = gg:choose_from(seat, "first", AB)
    if seat == 2 then gg:choose_from(1, "other", AB) end
    return { w }
  end)
end
function R.scores(g) return { 0, 0 } end
return R
]])
    local inside, driver = support.playout_errors(path, 2)
    local want = "entry.lua:9: g:choose: seat 2's order entry chose for seat 1 (an entry chooses only for its own seat)"
    assert.truthy(inside:find(want, 1, true), inside)
    assert.truthy(driver:find(want, 1, true), driver)
  end)

  it("plays Sea Merchants as the driver does, with g.choose_from the bot's inside", function()
    for seed = 1, 3 do
      local inside, driver = support.playouts("sea_merchants", 4, seed)
      assert.same(driver:actions(), inside:actions())
      assert.same(driver:result().scores, inside:result().scores)
    end
  end)
end)
