-- constlist_spec.lua - constant option lists and families (kontor.options,
-- kontor.family; docs/api.md, "Constant options"): checked once when made,
-- then taken by g:choose, g:choose_from, g:choose_all and g:chance as the
-- same decision as the plain list; nothing a script can reach changes them.
-- And the constraint path (R.constraints): the options checked and asked in
-- one pass, its errors at the script's line.
-- Run: build/kontor run tests/busted.lua tests/lua/constlist_spec.lua
local support = require "tests.lua.support"
local write = support.write
local tmp, cleanup_tmp = support.scratch()

-- A rule set whose decisions come from lists made by MAKE (kontor.options
-- and kontor.family, or plain tables): three of every kind.
local GAME = [==[
local MAKE_OPTIONS, MAKE_FAMILY = %s, %s
local R = { name = "consts", players = { min = 2, max = 2 } }
local FIRST = MAKE_OPTIONS{ "stop", { "go", 1, 2 }, { "go", "far" } }
local LOAD = MAKE_FAMILY{ "load", { "fish", "wood" }, "on ship", { 1, 2, 3 } }
local COIN = MAKE_OPTIONS{ "heads", "tails" }
local BIDS = MAKE_OPTIONS{ "bid 1", "bid 2" }
function R.setup(g) g.got = {} end
function R.play(g)
  for turn = 1, 3 do
    local seat = turn %% 2 + 1
    local k = g:choose(seat, "first", FIRST)
    local o = FIRST[k]
    g.got[#g.got + 1] = type(o) == "string" and o or (o[1] .. ":" .. tostring(o[#o]))
    local p, s = g:choose_from(seat, "load", LOAD)
    g.got[#g.got + 1] = p .. s
    g.got[#g.got + 1] = COIN[g:chance("coin", COIN)]
    local bids = g:choose_all({ 1, 2 }, "bid", { BIDS, BIDS })
    g.got[#g.got + 1] = BIDS[bids[1]] .. "/" .. BIDS[bids[2]]
  end
end
function R.scores(g) return { #g.got, 0 } end
return R
]==]

local function rules(kind)
  local make = kind == "const" and { "kontor.options", "kontor.family" }
    or { "function(t) return t end", "function(t) return t end" }
  return write(tmp("consts_" .. kind .. ".lua"), GAME:format(make[1], make[2]))
end

-- A script that does `body` in R.play; returns the error of the first step
-- (new_game runs R.play up to its first decision).
local function fails(body)
  local file = write(tmp("fails.lua"), "local R = { name = 'fails', players = { min = 2, max = 2 } }\n"
    .. "function R.setup(g) end\nfunction R.play(g)\n" .. body .. "\nend\n"
    .. "function R.scores(g) return { 0, 0 } end\nreturn R\n")
  local ok, err = pcall(kontor.new_game, { rules = file, players = 2, seed = 1 })
  assert.is_false(ok, "no error")
  return tostring(err.message or err)
end

describe("constant option lists", function()
  it("give the same decisions, texts, steps and game as plain lists", function()
    local const, plain = rules("const"), rules("plain")
    for seed = 1, 6 do
      local a = kontor.new_game { rules = const, seed = seed }
      local b = kontor.new_game { rules = plain, seed = seed }
      assert.are.same(b:options(), a:options())
      assert.are.same({ "stop", "go 1,2", "go far" }, a:options())
      a:play_random(kontor.core.rng(seed))
      b:play_random(kontor.core.rng(seed))
      assert.are.same(b:actions(), a:actions())
      assert.are.same(b:log(), a:log())
      assert.are.same(b:state().got, a:state().got)
      -- and step by step, through the text parser
      local c = kontor.new_game { rules = const, seed = seed }
      for _, act in ipairs(b:actions()) do
        local s, t = act:match("^(%d+): (.*)$")
        assert.is_true(c:apply(t, tonumber(s)))
      end
      assert.are.same(b:state().got, c:state().got)
    end
    local g = kontor.new_game { rules = const, seed = 1, manual_chance = true }
    g:apply("stop"); g:apply("load wood on ship 3")
    assert.are.same({ "heads", "tails" }, g:options())
    assert.is_true(g:apply("chance: tails"))
    assert.are.same({ "stop", "wood3", "tails" }, g:state().got)
  end)

  it("read like lists and cannot be changed by any means a script has", function()
    local file = write(tmp("reads.lua"), [[
local R = { name = "reads", players = { min = 2, max = 2 } }
local src = { "a", { "b", 1, 2 } }
local L = kontor.options(src)
src[1], src[2][1] = "changed", "changed"          -- the constant keeps its own copy
local F = kontor.family{ "play", { 3, 4 } }
local function try(f) local ok, e = pcall(f); return ok and "no error" or tostring(e) end
function R.setup(g)
  local words = {}
  for i, o in ipairs(L) do words[i] = type(o) == "string" and o or table.concat({ o[1], o[2], o[3] }, "+") end
  g.seen = {
    #L, L[1], table.concat(words, ","), #L[2], L[2][3], F[2][2], tostring(L[3]),
    tostring(getmetatable(L)), tostring(getmetatable(L[2])),
    try(function() L[1] = "x" end), try(function() L[2][1] = "x" end), try(function() F[2][1] = 9 end),
    try(function() rawset(L, 1, "x") end), try(function() return rawget(L, 1) end),
    try(function() return rawlen(L) end), try(function() return next(L) end),
    try(function() return pairs(L) end), try(function() setmetatable(L, {}) end),
    L[1], L[2][1],
  }
end
function R.play(g) g:choose(1, "x", L) end
function R.scores(g) return { 0, 0 } end
return R]])
    local g = kontor.new_game { rules = file, seed = 1 }
    local seen = g.ctx.seen
    assert.are.same({ 2, "a", "a,b+1+2", 3, 2, 4, "nil", "false", "false" }, { table.unpack(seen, 1, 9) })
    for i = 10, 12 do
      assert.truthy(seen[i]:find("reads.lua:13: a constant list (kontor.options, kontor.family) cannot be changed",
        1, true), seen[i])
    end
    assert.truthy(seen[13]:find("bad argument #1 to 'rawset' (table expected, got ", 1, true), seen[13])
    assert.truthy(seen[14]:find("bad argument #1 to 'rawget' (table expected, got ", 1, true), seen[14])
    assert.truthy(seen[15]:find("table or string expected", 1, true), seen[15])
    assert.truthy(seen[16]:find("bad argument #1 to 'next' (table expected, got ", 1, true), seen[16])
    assert.truthy(seen[17]:find("bad argument #1 to 'pairs' (table expected, got ", 1, true), seen[17])
    assert.truthy(seen[18]:find("(table expected, got kontor.options)", 1, true), seen[18])
    assert.are.same({ "a", "b" }, { seen[19], seen[20] })
    assert.are.same({ "a", "b 1,2" }, g:options())
  end)

  it("never hand a table of theirs to the engine's decision, which constraints are told about", function()
    local file = write(tmp("kept.lua"), [[
local R = { name = "kept", players = { min = 2, max = 2 } }
local L = kontor.options{ "a", { "b", 1 } }
function R.setup(g) g.L = L end
function R.play(g) g:choose(1, "x", L); g:choose(1, "y", L) end
function R.scores(g) return { 0, 0 } end
return R]])
    local plain = kontor.core.options.plain
    for _, cons in ipairs({ false, true }) do
      local R = kontor.load_rules(file)
      if cons then R.constraints = { function() end } end
      local g = kontor.new_game { rules = R, seed = 1 }
      local own = plain(g.ctx.L)                  -- the constant's own copy
      assert.are.same({ "a", { "b", 1 } }, g.opts)
      assert.are.equal("a", own[1])
      assert.are_not.equal(own[2], g.opts[2])     -- the decision's is another table
      assert.are.same(own[2], g.opts[2])
      assert.is_true(g:apply("b 1"))
      assert.are.same({ "a", "b 1" }, g:options())
    end
  end)

  it("are checked when made, at the script's line", function()
    local cases = {
      { "kontor.options('a')", "kontor.options: the options must be a plain list, not string" },
      { "kontor.options(setmetatable({}, {}))",
        "kontor.options: the options must be a plain list, not a table with a metatable" },
      { "kontor.options{}", "kontor.options: no options" },
      { "kontor.options{ 'a', { 'b', 1.5 } }",
        "kontor.options: option 2 has an entry that is not a string or a whole number" },
      { "kontor.options{ 'a', {} }", "kontor.options: option 2 is an empty list" },
      { "kontor.options{ 'a', true }",
        "kontor.options: option 2 is not a string or a list of words and whole numbers" },
      { "kontor.family{}", "kontor.family: the family is an empty list" },
      { "kontor.family{ 'load', {} }", "kontor.family: entry 2 of the family is an empty list (no choice there)" },
      { "kontor.family{ 'load', { 'fish', { 1 } } }",
        "kontor.family: entry 2 of the family holds a choice that is not a string or a whole number" },
      { "local l = {} for i = 1, 400 do l[i] = i end kontor.family{ l, l }",
        "kontor.family: the family stands for more than 100000 options (split it into steps)" },
    }
    for _, c in ipairs(cases) do
      local err = fails("  " .. c[1])
      assert.truthy(err:find("fails.lua:4: " .. c[2], 1, true), err)
    end
  end)

  it("keep g:choose's checks of the seat and the name, and say which kind they are", function()
    local cases = {
      { "g:choose(3, 'x', kontor.options{ 'a' })", "g:choose: decision 'x' is for seat 3, not a seat 1..2" },
      { "g:choose(1, 7, kontor.options{ 'a' })", "g:choose: the decision's name must be a string, not number" },
      { "g:choose_from(0, 'x', kontor.family{ 'a', { 1 } })",
        "g:choose_from: decision 'x' is for seat 0, not a seat 1..2" },
      { "g:choose(1, 'x', kontor.family{ 'a', { 1 } })",
        "g:choose: the options of decision 'x' of seat 1 are a family (kontor.family): g:choose_from takes it" },
      { "g:choose_from(1, 'x', kontor.options{ 'a' })",
        "g:choose_from: the family of decision 'x' of seat 1 is a list of options (kontor.options): "
          .. "g:choose takes it" },
      { "g:choose(1, 'x', kontor.options{ { 'a', 1 } }[1])",
        "g:choose: the options of decision 'x' of seat 1 are one option's words, not a list of options" },
      { "g:choose_all({ 1, 2 }, 'x', { kontor.options{ 'a' }, kontor.family{ 'a', { 1 } } })",
        "g:choose_all: the options of decision 'x' of seat 2 are a family (kontor.family): g:choose_from takes it" },
    }
    for _, c in ipairs(cases) do
      local err = fails("  " .. c[1])
      assert.truthy(err:find("fails.lua:4: " .. c[2], 1, true), err)
    end
  end)
end)

describe("the constraint path", function()
  -- R.constraints refuse options by text; the options as the script reads them
  local function constrained(kind, refuse)
    local R = kontor.load_rules(rules(kind))
    local asked = {}
    R.constraints = { { decisions = { "first", "load", "bid" }, check = function(_, seat, decision, text, option)
      asked[#asked + 1] = ("%d %s %s %s"):format(seat, decision, text, type(option))
      if decision == "first" and type(option) ~= "string" then
        assert.are.equal(text, option[1] .. " " .. tostring(option[2]) .. (#option == 3 and "," .. option[3] or ""))
      end
      if refuse[text] then return "refused: " .. text end
    end } }
    return R, asked
  end

  it("asks each option once, sees a constant's options as the script reads them, and plays the same game", function()
    local refuse = { ["go far"] = true, ["load fish on ship 1"] = true, ["bid 2"] = true }
    local Rc, asked_c = constrained("const", refuse)
    local Rp, asked_p = constrained("plain", refuse)
    for seed = 1, 4 do
      local a = kontor.new_game { rules = Rc, seed = seed }
      local b = kontor.new_game { rules = Rp, seed = seed }
      assert.are.same({ "stop", "go 1,2" }, a:options())
      a:play_random(kontor.core.rng(seed))
      b:play_random(kontor.core.rng(seed))
      assert.are.same(b:actions(), a:actions())
      for _, act in ipairs(a:actions()) do assert.is_nil(refuse[act:match("^%d+: (.*)$")]) end
    end
    -- a constant's table option reaches a constraint as its words, read-only
    assert.are.equal("2 first go 1,2 userdata", asked_c[2])
    assert.are.equal("2 first go 1,2 table", asked_p[2])
    assert.are.equal(#asked_p, #asked_c)
    local g = kontor.new_game { rules = Rc, seed = 1 }
    assert.are.equal("'go far' is not a legal action: refused: go far; expected one of: stop, go 1,2",
      g:why("go far"))
  end)

  it("says at the script's line when the constraints leave no option", function()
    local R = kontor.load_rules(rules("const"))
    R.constraints = { function(_, _, decision) if decision == "first" then return "no" end end }
    for _, sim in ipairs({ false, true }) do
      local ok, err = pcall(function()
        local g = kontor.new_game { rules = R, seed = 1, quiet = sim }
        if sim then g:play_random(kontor.core.rng(1)) end
      end)
      assert.is_false(ok)
      local msg = tostring(err.message or err)
      assert.truthy(msg:find("consts_const.lua:11: the constraints of the variants leave seat 2 no option at "
        .. "decision 'first'", 1, true), msg)
    end
  end)
end)

teardown(cleanup_tmp)
