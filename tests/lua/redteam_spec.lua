-- redteam_spec.lua - the red-team pass of 2026-11-27 on principles 3 and 6
-- (docs/security.md, "Red team, 2026-11-27"): each test is a hole that
-- pass found, and fails on the code before its fix. The attacks are steps
-- of tests/hostile/redteam.lua; those that would run long in C run in a
-- child process under `timeout` (tests/hostile/run.lua), so a missing
-- protection fails the test instead of hanging the suite.
-- Run: build/kontor run tests/busted.lua tests/lua/redteam_spec.lua
local json = kontor.json
local support = require "tests.lua.support"
local sh_quote, binary, write = support.sh_quote, support.binary, support.write
local tmp, cleanup_tmp = support.scratch()

local REDTEAM = "tests/hostile/redteam.lua"

teardown(cleanup_tmp)

-- A game of REDTEAM, one safe step, then `action`, in a fresh process
-- with a time limit of `cpu` s a step and a work limit of `work` units
-- (nil: the defaults).
local function in_child(action, cpu, work)
  local cmd = string.format("T=%s %s timeout -s KILL 60 %s run tests/hostile/run.lua %s %s 2>&1",
    cpu or 0.5, work and ("W=" .. work) or "", sh_quote(binary()), sh_quote(REDTEAM), sh_quote(action))
  local p = assert(io.popen(cmd))
  local out = p:read("a")
  local _, how, code = p:close()
  assert(how == "exit" and code == 0,
    string.format("'%s' did not end cleanly (%s %s): %s", action, tostring(how), tostring(code), out:sub(1, 600)))
  return json.decode(out:match("([^\n]*)\n?$"))
end

-- The step failed with `text` (plain) in its message, changed nothing,
-- and the game and the host went on.
local function refused(r, text)
  assert.is_false(r.ok, "the step was not refused")
  assert.is_truthy(r.err:find(text, 1, true), r.err)
  assert.is_true(r.same, "the failed step changed the game")
  assert.are.equal(2, r.after)
  assert.are.equal("ABCxx[1]", r.host)
end

local WORK = "work limit reached (10000000 units per step)"
local WORK_1M = "work limit reached (1000000 units per step)"

local function snapshot(g)
  return json.encode(g:state()) .. "\n" .. table.concat(g:log(), "\n") .. "\n" .. table.concat(g:actions(), "\n")
end

describe("red team: work in C the charges missed", function()
  -- A time limit of 10 s, so that only the work limit can refuse these in
  -- the time the test waits: before, sorting took 4.7 s of CPU in C (the
  -- step went through), and each pairs 4.7 s more.
  it("table.sort of strings of zero bytes is charged a unit a zero byte", function()
    refused(in_child("sort strings of zeros", 10), WORK)
  end)

  it("pairs over string keys of zero bytes is charged the same", function()
    refused(in_child("pairs over keys of zeros", 10), WORK)
  end)

  it("string.pack's cN is charged for the N bytes it writes", function()
    refused(in_child("pack c padding", 10, 1000000), WORK_1M)
    refused(in_child("pack c padding in the middle", 10, 1000000), WORK_1M)
  end)
end)

describe("red team: no source of chance but the game's RNG", function()
  it("tostring and %s show a table, function or thread by its name, the same in every process", function()
    local lines = {}
    for i = 1, 2 do
      local f = write(tmp("addr" .. i .. ".lua"), string.format([[
        local g = kontor.new_game { rules = %q, seed = 5 }
        assert(g:apply("addresses"))
        print(g:log()[2])]], REDTEAM))
      local p = assert(io.popen(sh_quote(binary()) .. " run " .. sh_quote(f) .. " 2>&1"))
      lines[i] = p:read("a")
      p:close()
    end
    assert.are.equal("table table|  function thread Card table\n", lines[1])
    assert.are.equal(lines[1], lines[2])
  end)

  it("table.sort gives one order, whatever the comparison answers", function()
    local lines = {}
    for i = 1, 2 do
      local f = write(tmp("sort" .. i .. ".lua"), string.format([[
        local g = kontor.new_game { rules = %q, seed = 5 }
        assert(g:apply("sort adversary"))
        print(g:log()[2])]], REDTEAM))
      local p = assert(io.popen(sh_quote(binary()) .. " run " .. sh_quote(f) .. " 2>&1"))
      lines[i] = p:read("a")
      p:close()
    end
    -- a merge sort: at most n log2 n comparisons (Lua's quicksort made
    -- 2,254,497 here, and took random pivots)
    assert.are.equal("31985 comparisons: 1,3,5,7,9,11,13,15,17,19,21,23\n", lines[1])
    assert.are.equal(lines[1], lines[2])
  end)

  it("table.sort in a rule script sorts as the library's does, equal elements kept in order", function()
    local g = kontor.new_game { rules = write(tmp("sorts.lua"), [[
      local R = { name = "sorts", players = { min = 1, max = 1 } }
      function R.setup(g)
        local t = { 5, 3, 9, 1, 3.0, 7 }
        table.sort(t)
        local u = { { k = 2, v = "a" }, { k = 1, v = "b" }, { k = 2, v = "c" }, { k = 1, v = "d" } }
        table.sort(u, function(x, y) return x.k < y.k end)
        local w = { "b", "a\0b", "a", "a\0a" }
        table.sort(w)
        local v = {}
        for i, x in ipairs(u) do v[i] = x.v end
        g.out = table.concat(t, " ") .. " | " .. table.concat(v) .. " | " .. table.concat(w, " "):gsub("%z", "0")
        g.errs = { select(2, pcall(table.sort, { 1, 2 }, 5)), select(2, pcall(table.sort, { 1, "x" })) }
      end
      function R.play(g) g:choose(1, "x", { "x" }) end
      function R.scores() return { 0 } end
      return R]]), seed = 1 }
    local st = g:state()
    assert.are.equal("1 3 3.0 5 7 9 | bdac | a a0a a0b b", st.out)
    assert.are.same({ "bad argument #2 to 'table.sort' (function expected, got number)",
      "attempt to compare string with number" }, st.errs)
  end)

  it("string.format's %p is refused in a rule script", function()
    local g = kontor.new_game { rules = REDTEAM, seed = 5 }
    assert(g:apply("safe"))
    local before = snapshot(g)
    for _, a in ipairs { "%p", "%p method" } do
      local ok, err = pcall(g.apply, g, a)
      assert.is_false(ok)
      assert.are.equal(string.format("tests/hostile/redteam.lua:%d: bad argument #1 to 'format' "
        .. "(%%p is not allowed in rule scripts: an address differs from run to run)", a == "%p" and 37 or 46),
        kontor.errors.message(err):match("^[^\n]*"))
      assert.are.equal(before, snapshot(g))
    end
    -- trusted code keeps it
    assert.is_truthy(string.format("%p", {}):match("^0x"))
  end)
end)

describe("red team: a memory error that depends on the process cannot be caught", function()
  it("a pcall or a coroutine around memory filled to the cap does not take the error #slow", function()
    for _, a in ipairs { "catch memory", "catch memory in a coroutine" } do
      local r = in_child(a, 20, 1e12)
      refused(r, "memory limit reached (256 MiB)")
      assert.are.equal("memory", r.err_limit)
    end
  end)

  it("one block larger than the cap fails in every run: that may be caught", function()
    local g = kontor.new_game { rules = REDTEAM, seed = 5 }
    assert(g:apply("catch a block over the cap"))
    assert.are.equal("caught: true", g:log()[2])
  end)
end)

describe("red team: R.view, R.board and R.scores draw nothing", function()
  local function game()
    local g = kontor.new_game { rules = REDTEAM, seed = 5 }
    assert(g:apply("safe"))
    assert(g:apply("peek"))
    return g
  end
  local DRAW = "math.random: only a step of the game draws (R.view, R.board and R.scores draw nothing)"

  it("a view or a board that draws is an error, and the game's chances are unchanged", function()
    local a, b = game(), game()
    local before = snapshot(a)
    for _ = 1, 3 do
      local ok, err = pcall(a.view, a, 1)
      assert.is_false(ok)
      assert.is_truthy(kontor.errors.message(err):find(DRAW, 1, true), kontor.errors.message(err))
      ok, err = pcall(a.show, a, 1)
      assert.is_false(ok)
      assert.is_truthy(kontor.errors.message(err):find(DRAW, 1, true), kontor.errors.message(err))
    end
    assert.are.equal(before, snapshot(a))
    -- neither this game's next roll nor another game's moved
    assert(a:apply("safe"))
    assert(b:apply("safe"))
    assert.are.equal(snapshot(b), snapshot(a))
  end)

  it("viewing one game does not draw from the game played last", function()
    local a, b = game(), game()
    assert(b:apply("safe"))          -- b's step ran last
    pcall(a.view, a, 1)
    pcall(a.show, a, 1)
    local c = game()
    assert(c:apply("safe"))
    assert(b:apply("safe"))
    assert(c:apply("safe"))
    assert.are.equal(snapshot(c), snapshot(b))
  end)

  it("R.scores that draws is an error, not a chance", function()
    local g = game()
    assert(g:apply("finish"))
    local ok, err = pcall(g.result, g)
    assert.is_false(ok)
    assert.is_truthy(kontor.errors.message(err):find(DRAW, 1, true), kontor.errors.message(err))
  end)
end)

describe("red team: JSON is counted against the memory cap", function()
  it("encoding a value that would take more than the cap in jansson fails with a message", function()
    -- 8 MiB of \1 is 48 MiB of JSON ("\u0001"), made by jansson with
    -- malloc, which the cap did not see: a 60 MB view took 866 MB.
    local f = write(tmp("json.lua"), [[
      local sb = kontor.core.sandbox
      sb.limits { memory = 64 * 2^20 }
      local s = ("\1"):rep(8 * 2^20)
      collectgarbage()
      local used = sb.limits().used
      local ok, err = pcall(kontor.json.encode, { s = s })
      collectgarbage()
      print(ok, ok and #err or err, math.abs(sb.limits().used - used) < 4096)
      print(kontor.json.encode({ s = s:sub(1, 3) }))]])
    local p = assert(io.popen("timeout -s KILL 60 " .. sh_quote(binary()) .. " run " .. sh_quote(f) .. " 2>&1"))
    local out = p:read("a")
    p:close()
    assert.are.equal('false\tjson.encode: out of memory\ttrue\n{"s":"\\u0001\\u0001\\u0001"}\n', out)
  end)
end)

describe("red team: a file named inside a rule file passes the file policy", function()
  -- A preset's `includes` and a variant's `base` name other files. A path
  -- there was loaded from anywhere (any regular file, .lua or not): a
  -- variant next to a downloaded save could make the program read and run
  -- files the save itself may not name (docs/security.md, "What a save
  -- file may name").
  local function load_error(variants)
    local ok, e = pcall(kontor.new_game, { rules = "sea_merchants", variants = variants, seed = 1 })
    assert.is_false(ok, "the variant was loaded")
    return kontor.errors.message(e)
  end

  it("a preset includes a .lua file beside it, not one elsewhere or a file that is not .lua", function()
    local here, there = tmp("presets"), tmp("elsewhere")
    os.execute("mkdir -p " .. sh_quote(here) .. " " .. sh_quote(there))
    local member = [[return { variant = true, name = "member", base = "sea_merchants", apply = function(R) R.marked = true end }]]
    write(here .. "/member.lua", member)
    write(there .. "/member.lua", member)
    write(here .. "/notes.txt", member)
    local function preset(name, inc)
      return write(here .. "/" .. name .. ".lua", string.format(
        [[return { variant = true, name = %q, base = "sea_merchants", includes = { %q } }]], name, inc))
    end
    -- beside the preset: loads
    local g = kontor.new_game { rules = "sea_merchants", variants = { preset("near", here .. "/member.lua") }, seed = 1 }
    assert.is_truthy(g)
    -- elsewhere: refused, before it is read
    local far = there .. "/member.lua"
    assert.are.equal(string.format("%s: refused: outside the folders a save may name (the save's folder, the current "
      .. "folder, KONTOR_PATH and the installed variants): put it next to the save file or add its folder to "
      .. "KONTOR_PATH (included by far)", far), load_error { preset("far", far) })
    assert.are.equal(string.format("%s/notes.txt: refused: not a .lua file (included by txt)", here),
      load_error { preset("txt", here .. "/notes.txt") })
    assert.are.equal("/proc/self/environ: refused: not a .lua file (included by environ)",
      load_error { preset("environ", "/proc/self/environ") })
  end)

  it("a variant's base is a rule set's name, never a file to load", function()
    local there = tmp("elsewhere2")
    os.execute("mkdir -p " .. sh_quote(there))
    write(there .. "/evil.lua", [[error("evil.lua was run")]])
    local v = write(tmp("based.lua"), string.format(
      [[return { variant = true, name = "based", base = %q, apply = function() end }]], there .. "/evil.lua"))
    local ok, e = pcall(kontor.new_game, { variants = { v }, seed = 1 })
    assert.is_false(ok)
    local msg = kontor.errors.message(e)
    assert.is_nil(msg:find("evil.lua was run", 1, true), msg)
    assert.is_truthy(msg:find(string.format("base = '%s/evil.lua' names no rule set", there), 1, true), msg)
  end)
end)

describe("red team: a rule function's value is never shown by its own metamethods", function()
  it("a table with a looping __eq yielded by the game's thread is refused, not compared", function()
    refused(in_child("yield a table with __eq"), "the rule script yielded a table outside g:choose")
  end)

  -- R.card_text returning a table whose __tostring loops: a seat's hand
  -- (kontor.seat, what `play` shows) called tostring on it outside the
  -- limits and hung the host.
  it("a seat's hand with a card text that is such a table stops at the time limit", function()
    local rules = write(tmp("cardloop.lua"), [[
      local R = { name = "cardloop", players = { min = 1, max = 1 } }
      function R.setup(g) g.n = 0; g.hand = kontor.pile { vis = "owner", owner = 1 }; g.hand:push(3) end
      function R.play(g) while true do g:choose(1, "step", { "a", "b" }); g.n = g.n + 1 end end
      local hostile = setmetatable({}, { __tostring = function() while true do end end })
      function R.card_text(_, c) return c == 3 and hostile or "card " .. c end
      function R.scores(g) return { g.n } end
      return R]])
    local f = write(tmp("hand.lua"), string.format([[
      kontor.core.sandbox.limits { time = 0.1 }
      local g = kontor.new_game { rules = %q, seed = 7 }
      local ok, err = pcall(require("kontor.seat").view(g, 1).hand)
      print(ok, kontor.errors.message(err):match("^[^\n]*"))
      g.ctx.hand:clear(); g.ctx.hand:push(4)
      print(table.concat(require("kontor.seat").view(g, 1).hand(), ","))]], rules))
    local p = assert(io.popen("timeout -s KILL 30 " .. sh_quote(binary()) .. " run " .. sh_quote(f) .. " 2>&1"))
    local out = p:read("a")
    local _, how, code = p:close()
    assert(how == "exit" and code == 0, out)
    assert.are.equal("false\ttime limit reached (0.1 s of CPU per step)\ncard 4\n", out)
  end)

  -- R.estimate (and R.score) returning a table whose __tostring loops: the
  -- bot's message about it called tostring on it outside the limits, and
  -- `hint` hung the host.
  it("a greedy hint on an estimate that is a table says so, and returns", function()
    local rules = write(tmp("estloop.lua"), [[
      local R = { name = "estloop", players = { min = 1, max = 1 } }
      function R.setup(g) g.n = 0 end
      function R.play(g) while true do g:choose(1, "step", { "a", "b" }); g.n = g.n + 1 end end
      local hostile = setmetatable({}, { __tostring = function() while true do end end })
      function R.estimate() return hostile end
      function R.scores(g) return { g.n } end
      return R]])
    local f = write(tmp("hint.lua"), string.format([[
      local g = kontor.new_game { rules = %q, seed = 7 }
      local seat = require "kontor.seat"
      local ok, err = pcall(require("kontor.bots").hint, seat.view(g, 1), "greedy")
      print(ok, kontor.errors.message(err))
      print(pcall(require("kontor.bots").hint, seat.view(g, 1), "mcts"))   -- returns (it reads no estimate here)
      ]], rules))
    local p = assert(io.popen("timeout -s KILL 30 " .. sh_quote(binary()) .. " run " .. sh_quote(f) .. " 2>&1"))
    local out = p:read("a")
    local _, how, code = p:close()
    assert(how == "exit" and code == 0, out)
    assert.are.equal("false\testloop: R.estimate returned a table for seat 1, not a number", out:match("^[^\n]*"))
  end)
end)
