-- copy_steps_spec.lua - the steps of a game the engine drives (a copy for
-- search takes thousands a game) cost less, and give what they gave
-- (issue 27 item 2; docs/greedy-cost.md "Cheaper again"): a constant family's
-- options and the values of each option are made once, then shared by
-- every decision that offers it; a rule script never reaches them.
-- Run: build/kontor run tests/busted.lua tests/lua/copy_steps_spec.lua
local support = require "tests.lua.support"
local fork = require "kontor.fork"
local write = support.write
local tmp, cleanup_tmp = support.scratch()
teardown(cleanup_tmp)

-- Four rounds of the same decisions, from families made by MAKE
-- (kontor.family, or plain tables): one list, two, three. g.got keeps
-- what each g:choose_from returned.
local GAME = [==[
local MAKE = %s
local R = { name = "families", players = { min = 2, max = 2 } }
local SHIP = MAKE{ "ship", { 1, 2, 3 } }
local LOAD = MAKE{ "load", { "fish", "wood" }, "on ship", { 1, 2, 3 } }
local MOVE = MAKE{ "move", { "a", "b" }, "to", { 1, 2, 3 }, "at", { "x", "y" } }
function R.setup(g) g.got = {} end
function R.play(g)
  for round = 1, 4 do
    local seat = round %% 2 + 1
    g.got[#g.got + 1] = tostring(g:choose_from(seat, "ship", SHIP))
    local p, s = g:choose_from(seat, "load", LOAD)
    g.got[#g.got + 1] = p .. s
    local a, b, c = g:choose_from(3 - seat, "move", MOVE)
    g.got[#g.got + 1] = a .. b .. c
  end
end
function R.scores(g) return { #g.got, 0 } end
return R
]==]

local function rules(kind)
  return write(tmp("families_" .. kind .. ".lua"),
    GAME:format(kind == "const" and "kontor.family" or "function(t) return t end"))
end

-- Plays `g` by the option numbers in `ks` (1 = the first option, 0 = the
-- last); returns the texts offered at each decision.
local function play(g, ks)
  local offered = {}
  for i = 1, #ks do
    local seat = g:who()
    local opts = g:options(seat)
    offered[i] = table.concat(opts, "|")
    g:step(seat, ks[i] == 0 and #opts or ks[i])
  end
  assert.is_true(g:over())
  return offered
end

describe("a constant family offered again", function()
  local KS = { 1, 1, 1, 3, 6, 12, 2, 4, 7, 0, 0, 0 }

  it("gives the options and values it gave the first time", function()
    local const, plain = rules("const"), rules("plain")
    local a, b = kontor.new_game { rules = const, seed = 1 }, kontor.new_game { rules = plain, seed = 1 }
    local seen_a, seen_b = play(a, KS), play(b, KS)
    assert.are.same(seen_b, seen_a)
    assert.are.same({ "1", "fish1", "a1x", "3", "wood3", "b3y", "2", "wood1", "b1x", "3", "wood3", "b3y" },
      a:state().got)
    assert.are.same(b:state().got, a:state().got)
    assert.are.same(b:actions(), a:actions())
    assert.are.equal("ship 1|ship 2|ship 3", seen_a[10])
    assert.are.equal("move b to 3 at y", select(2, a:step_at(12)))
    -- a second game of the same rule set: the same again
    local c = kontor.new_game { rules = const, seed = 2 }
    play(c, KS)
    assert.are.same(a:state().got, c:state().got)
  end)

  it("in a copy for search, gives what the game itself gives", function()
    local const = rules("const")
    local g = kontor.new_game { rules = const, seed = 1 }
    for i = 1, 5 do g:step(g:who(), KS[i]) end
    local copy = fork.copy(fork.base(g))
    for i = 6, #KS do
      g:step(g:who(), KS[i] == 0 and #g:options(g:who()) or KS[i])
      local seat, opts = fork.decider(copy)
      fork.step(copy, seat, KS[i] == 0 and #opts or KS[i])
    end
    assert.is_true(copy.kind == "over")
    assert.are.same(g:state().got, copy.ctx.got)
  end)

  it("has its texts made once, which no caller changes", function()
    local texts_of = require("kontor.game.driver").texts_of
    local g = kontor.new_game { rules = rules("const"), seed = 1 }
    local first = texts_of(g, g:who())
    assert.are.same({ "ship 1", "ship 2", "ship 3" }, first)
    local mine = g:options(g:who())
    mine[1] = "changed"
    for _ = 1, 3 do g:step(g:who(), 1) end
    -- round 2 offers the same family again: the same list of texts
    assert.are.equal(first, texts_of(g, g:who()))
    assert.are.same({ "ship 1", "ship 2", "ship 3" }, g:options(g:who()))
    local plain = kontor.new_game { rules = rules("plain"), seed = 1 }
    local before = texts_of(plain, plain:who())
    for _ = 1, 3 do plain:step(plain:who(), 1) end
    assert.are_not.equal(before, texts_of(plain, plain:who()))   -- (a plain family's are made again)
    assert.are.same(before, texts_of(plain, plain:who()))
  end)

  it("is checked for its seat and name as the first time", function()
    local function fails(call)
      local file = write(tmp("bad_call.lua"), ([[
local R = { name = "bad_call", players = { min = 2, max = 2 } }
local F = kontor.family{ "ship", { 1, 2, 3 } }
function R.setup(g) end
function R.play(g)
  g:choose_from(1, "ship", F)
  %s
end
function R.scores(g) return { 0, 0 } end
return R]]):format(call))
      local g = kontor.new_game { rules = file, seed = 1 }
      local ok, err = pcall(g.step, g, 1, 1)
      assert.is_false(ok, "no error")
      assert.are.equal(1, g:who())           -- the step undone
      return tostring(err.message or err)
    end
    assert.truthy(fails('g:choose_from(9, "ship", F)'):find(
      "bad_call.lua:6: g:choose_from: decision 'ship' is for seat 9, not a seat 1..2", 1, true))
    assert.truthy(fails('g:choose_from("1", "ship", F)'):find(
      "bad_call.lua:6: g:choose_from: decision 'ship' is for a string, not a seat 1..2", 1, true))
    assert.truthy(fails('g:choose_from(1, 7, F)'):find(
      "bad_call.lua:6: g:choose_from: the decision's name must be a string, not number", 1, true))
    assert.truthy(fails('g:choose_from(1.5, "ship", F)'):find(
      "bad_call.lua:6: g:choose_from: decision 'ship' is for seat 1.5, not a seat 1..2", 1, true))
    -- a seat given as a float with a whole value is that seat, as before
    local file = write(tmp("float_seat.lua"), [[
local R = { name = "float_seat", players = { min = 2, max = 2 } }
local F = kontor.family{ "ship", { 1, 2, 3 } }
function R.setup(g) g.got = {} end
function R.play(g)
  g.got[1] = g:choose_from(1, "ship", F)
  g.got[2] = g:choose_from(2.0, "ship", F)
  g.got[3] = g:choose_from(2, "ship", F)
end
function R.scores(g) return { 0, 0 } end
return R]])
    local g = kontor.new_game { rules = file, seed = 1 }
    g:step(1, 2); g:step(2, 3); g:step(2, 1)
    assert.are.same({ 2, 3, 1 }, g:state().got)
  end)

  it("is never handed to a rule script: a constraint that changes its option changes nothing else", function()
    local file = write(tmp("constrained.lua"), [[
local R = { name = "constrained", players = { min = 2, max = 2 } }
local F = kontor.family{ "ship", { 1, 2, 3 } }
R.constraints = { { decisions = { "watched" }, check = function(g, seat, decision, text, option)
  g.texts[#g.texts + 1] = text
  option[2] = 99                      -- its own list: nothing else sees this
end } }
function R.setup(g) g.got, g.texts = {}, {} end
function R.play(g)
  g.got[1] = g:choose_from(1, "free", F)
  g.got[2] = g:choose_from(1, "watched", F)
  g.got[3] = g:choose_from(1, "free", F)
  g.got[4] = g:choose_from(1, "watched", F)
end
function R.scores(g) return { 0, 0 } end
return R]])
    local g = kontor.new_game { rules = file, seed = 1 }
    local offered = {}
    for i, k in ipairs { 1, 2, 3, 3 } do
      offered[i] = table.concat(g:options(1), "|")
      g:step(1, k)
    end
    -- (the constrained decision's own list is the one the constraint saw)
    assert.are.equal("ship 1|ship 2|ship 3", offered[1])
    assert.are.equal("ship 1|ship 2|ship 3", offered[3])
    assert.are.same({ 1, 2, 3, 3 }, g:state().got)
    assert.are.same({ "ship 1", "ship 2", "ship 3", "ship 1", "ship 2", "ship 3" }, g:state().texts)
  end)
end)

describe("a constant list of options offered again", function()
  local SCRIPT = [[
local R = { name = "lists", players = { min = 2, max = 2 } }
local L = kontor.options{ "stop", { "go", 1, 2 }, { "go", "far" } }
function R.setup(g) g.got = {} end
function R.play(g)
  for round = 1, 3 do
    local o = L[g:choose(round %% 2 + 1, "go", L)]
    g.got[#g.got + 1] = type(o) == "string" and o or (o[1] .. ":" .. tostring(o[#o]))
  end
  %s
end
function R.scores(g) return { 0, 0 } end
return R]]

  it("gives the same options, texts and answers", function()
    local g = kontor.new_game { rules = write(tmp("lists.lua"), SCRIPT:format("")), seed = 1 }
    local offered = {}
    for i, k in ipairs { 2, 3, 1 } do
      offered[i] = table.concat(g:options(g:who()), "|")
      g:step(g:who(), k)
    end
    assert.is_true(g:over())
    for i = 1, 3 do assert.are.equal("stop|go 1,2|go far", offered[i]) end
    assert.are.same({ "go:2", "go:far", "stop" }, g:state().got)
  end)

  it("is checked for its seat and name as the first time", function()
    local function fails(call)
      local g = kontor.new_game { rules = write(tmp("bad_list.lua"), SCRIPT:format(call)), seed = 1 }
      for _ = 1, 2 do g:step(g:who(), 1) end
      local ok, err = pcall(g.step, g, g:who(), 1)
      assert.is_false(ok, "no error")
      assert.are.equal(2, g:who())              -- the step undone
      return tostring(err.message or err)
    end
    assert.truthy(fails('g:choose(3, "go", L)'):find(
      "bad_list.lua:9: g:choose: decision 'go' is for seat 3, not a seat 1..2", 1, true))
    assert.truthy(fails('g:choose(1, false, L)'):find(
      "bad_list.lua:9: g:choose: the decision's name must be a string, not boolean", 1, true))
  end)
end)

describe("g:skip's trace, made with room for two skips", function()
  it("keeps every skip in order, two and more", function()
    local file = write(tmp("skips.lua"), [[
local R = { name = "skips", players = { min = 2, max = 2 } }
function R.setup(g) end
function R.play(g)
  g:skip(1, "load", "nothing to load")
  g:skip(2, "buy", "no coins")
  g:choose(1, "go", { "on", "off" })
  g:skip(2, "play", "no cards")
  g:choose(2, "go", { "on", "off" })
end
function R.scores(g) return { 0, 0 } end
return R]])
    local g = kontor.new_game { rules = file, seed = 1 }
    assert.are.same({ { seat = 1, decision = "load", why = "nothing to load", turn = 0 },
                      { seat = 2, decision = "buy", why = "no coins", turn = 0 } }, g:skipped())
    g:step(1, 2)
    assert.are.same({ seat = 2, decision = "play", why = "no cards", turn = 0 }, g:skipped()[3])
    assert.are.equal(3, #g:skipped())
  end)
end)
