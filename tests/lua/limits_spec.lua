-- limits_spec.lua - issue 24, items 6 and 8: the work a library function
-- does in C is charged before it runs (or refused), and the language of a
-- rule script keeps Lua 5.4.4's known bugs out of reach. Cases that would
-- hang or crash without their protection run in a child process under
-- `timeout` (tests/hostile/run.lua), so a missing protection fails the
-- test instead of hanging the suite. docs/security.md lists each charge
-- and each bug.
-- Run: build/kontor run tests/busted.lua tests/lua/limits_spec.lua
local json = kontor.json
local sb = kontor.core.sandbox
local support = require "tests.lua.support"
local sh_quote, binary, write = support.sh_quote, support.binary, support.write
local tmp, cleanup_tmp = support.scratch()

local LIMITS = "tests/hostile/limits.lua"
local ATTACK = "tests/hostile/attack.lua"

teardown(cleanup_tmp)

-- A game of `file`, one safe step, then `action`, in a fresh process
-- (work: the work limit, units per step; nil: the default).
local function in_child(file, action, work)
  local cmd = string.format("T=0.5 %s timeout -s KILL 60 %s run tests/hostile/run.lua %s %s 2>&1",
    work and ("W=" .. work) or "", sh_quote(binary()), sh_quote(file), sh_quote(action))
  local p = assert(io.popen(cmd))
  local out = p:read("a")
  local _, how, code = p:close()
  assert(how == "exit" and code == 0,
    string.format("'%s' did not end cleanly (%s %s): %s", action, tostring(how), tostring(code), out:sub(1, 600)))
  return json.decode(out:match("([^\n]*)\n?$"))
end

-- The step failed with `pattern` (a plain string), raised in C function
-- `fname`, changed nothing, and the game and the host went on.
local function refused(r, pattern, fname)
  assert.is_false(r.ok, "the step was not refused")
  assert.is_truthy(r.err:find(pattern, 1, true), r.err)
  if fname then assert.is_truthy(r.err:find("[C]: in function '" .. fname .. "'", 1, true), r.err) end
  assert.is_true(r.same, "the failed step changed the game")
  assert.are.equal(2, r.after)
  assert.are.equal("ABCxx[1]", r.host)
end

local WORK = "work limit reached (10000000 units per step)"
local WORK_1M = "work limit reached (1000000 units per step)"
local COMPLEX = "pattern too complex for a subject of "

describe("work in C is charged before it runs (issue 24, item 6)", function()
  it("string.find of a 2 MiB literal in 4 MiB stops with the work limit, in well under a second", function()
    -- It ran for minutes under a 0.5 s limit: memcmp of 2 MiB at 2 Mi places.
    refused(in_child(LIMITS, "plain find 2 MiB in 4 MiB"), WORK, "string.find")
    refused(in_child(LIMITS, "find without specials 2 MiB in 4 MiB"), WORK, "string.find")
    refused(in_child(LIMITS, "format %f of 1e308 100,000 times"), WORK, "string.format")
    -- The same call as a rule script makes it, timed (CPU) in a child.
    local snippet = write(tmp("find_time.lua"), [[
      local sb = kontor.core.sandbox
      local env = require("kontor.sandbox").env(require("kontor.rules").api)
      local f = assert(sb.load('return string.find(string.rep("a", 4*2^20), string.rep("a", 2*2^20 - 1) .. "b", 1, true)',
        "=rule.lua", env))
      local t = os.clock()
      local ok, err = sb.call(f)
      print(string.format("%s %.3f %s", tostring(ok), os.clock() - t, err:match("^[^\n]*")))]])
    local p = assert(io.popen("timeout -s KILL 60 " .. sh_quote(binary()) .. " run " .. sh_quote(snippet) .. " 2>&1"))
    local out = p:read("a")
    p:close()
    local ok, secs, msg = out:match("^(%a+) ([%d.]+) ([^\n]*)")
    assert.are.equal("false", ok, out)
    assert.are.equal(WORK, msg)
    assert.is_true(tonumber(secs) < 0.5, out)
  end)

  for _, c in ipairs {
    { "match with a dot 2 MiB in 4 MiB", "string.match" },
    { "gmatch 1 MiB literal in 2 MiB", "string.gmatch" },
    { "class of 512 KiB", "string.find" },
    { "back references", "string.find" },
    { "gsub replacement of 512 Ki %1", "string.gsub" },
  } do
    it("the matcher's bound counts the pattern's length too: " .. c[1], function()
      refused(in_child(LIMITS, c[1]), COMPLEX, c[2])
    end)
  end

  for _, c in ipairs {
    { "tonumber of 32 MiB", "tonumber" },
    { "utf8.len of 32 MiB", "utf8.len" },
    { "utf8.codes of 32 MiB", "utf8.codes" },
    { "packsize of a 4 MiB format", "string.packsize" },
    { "upper of 32 MiB", "string.upper" },
    { "format %q of 16 MiB", "string.format" },
    { "sub of 32 MiB", "string.sub" },
    { "rep to 32 MiB", "string.rep" },
    { "sort 8192 strings of 2.5 KB", "table.sort" },
  } do
    it("a pass over the bytes is charged: " .. c[1], function()
      refused(in_child(LIMITS, c[1], 1000000), WORK_1M, c[2])
    end)
  end

  it("the charges are the documented ones, and everyday calls cost next to nothing", function()
    local charged = require("tests.lua.support").work_charged
    local base = charged("return 1")
    -- A plain find: #p / 16 for reading the pattern, (n - #p + 1) * #p / 256
    -- for comparing: 2^10 / 16 + (2^20 - 2^10 + 1) * 2^10 / 256 = 64 + 4,190,212.
    assert.are.equal(4190276, charged('local s = ("a"):rep(1 << 20) return s:find(("a"):rep(1023) .. "b", 1, true)')
      - charged('local s = ("a"):rep(1 << 20) return ("a"):rep(1023) .. "b"'))
    -- s:gsub("%s+", " ") on 64 KiB stays linear: a few units a byte at most.
    local g = charged('local s = ("a b "):rep(16384) return s:gsub("%s+", " ")')
      - charged('local s = ("a b "):rep(16384) return s')
    assert.is_true(g > 0 and g < 65536, tostring(g))
    -- Short strings: nothing beyond the step's own.
    assert.are.equal(base, charged('return ("Sea Merchants"):upper(), ("x=1"):match("^(%w+)=(%d+)$")'))
  end)

  it("argument errors of a guarded function read as Lua's own (they said '?' and no line)", function()
    local env = require("kontor.sandbox").env(require("kontor.rules").api)
    for src, msg in pairs {
      ["string.find()"] = "c:1: bad argument #1 to 'find' (string expected, got no value)",
      ["tonumber()"] = "c:1: bad argument #1 to 'tonumber' (value expected)",
      ["('x'):rep({})"] = "c:1: bad argument #1 to 'rep' (number expected, got table)",
      ["('x'):upper(nil) return utf8.len('x', 9)"] = "c:1: bad argument #2 to 'len' (initial position out of bounds)",
      ["local f = string.sub f()"] = "c:1: bad argument #1 to 'f' (string expected, got no value)",
    } do
      local ok, err = sb.call(assert(sb.load(src, "=c", env)))
      assert.is_false(ok)
      assert.are.equal(msg, err:match("^[^\n]*"))
    end
  end)
end)

-- A rule-set file with `text`: nil and the loader's message, or the game.
local function load_rules(name, text)
  local ok, err = pcall(kontor.new_game, { rules = write(tmp(name), text) })
  if ok then return nil end
  return tostring(err)
end

describe("the language of a rule script keeps Lua 5.4.4's bugs out of reach (issue 24, item 8)", function()
  local file = tmp("x")   -- the scratch folder's path, for the messages
  local dir = file:match("^(.*)/")

  it("to-be-closed variables are refused at load, naming the file and line (bugs 5, 6, 9)", function()
    -- The issue's crash: a break out of a block with a to-be-closed
    -- variable (bug 6) and lua_settop's stale pointer (bug 5).
    local err = load_rules("close.lua", [[
local R = { name = "close", players = { min = 1, max = 1 } }
function R.play(g)
  for i = 1, 2 do
    local x <close> = setmetatable({}, { __close = function() end })
    local function keep() return x, i end
    break
  end
end
return R
]])
    assert.are.equal(dir .. "/close.lua:4: to-be-closed variables (<close>) are not allowed in rule scripts", err)
    assert.are.equal(dir .. "/close2.lua:2: to-be-closed variables (<close>) are not allowed in rule scripts",
      load_rules("close2.lua", "local a <const>, b\n  < close > = 1, nil\nreturn {}"))
    -- load() in a script: the same scan.
    local env = require("kontor.sandbox").env(require("kontor.rules").api)
    local f = assert(sb.load('return load("local t <close> = nil")', "=c", env))
    local ok, fn, msg = sb.call(f)
    assert.is_true(ok)
    assert.is_nil(fn)
    assert.are.equal("(load):1: to-be-closed variables (<close>) are not allowed in rule scripts", msg)
  end)

  it("no value a script holds has __close, so a generic for's closing value is refused too", function()
    refused(in_child(ATTACK, "loop in __close"), "setmetatable: __close is not allowed in rule scripts")
    refused(in_child(ATTACK, "pile as a for's closing value"), "variable '(for state)' got a non-closable value")
    local env = require("kontor.sandbox").env(require("kontor.rules").api)
    local ok, err = sb.call(assert(sb.load("for _ in next, { 1 }, nil, kontor.counter { n = 1 } do break end",
      "=c.lua", env)))
    assert.is_false(ok)
    assert.are.equal("c.lua:1: variable '(for state)' got a non-closable value", err:match("^[^\n]*"))
  end)

  it("<const> is allowed, but not on _ENV (bug 2)", function()
    local env = require("kontor.sandbox").env(require("kontor.rules").api)
    local ok, v = sb.call(assert(sb.load("local x <const> = 6 local y <const> = x * 7 return y", "=c", env)))
    assert.is_true(ok)
    assert.are.equal(42, v)
    assert.are.equal(dir .. "/env.lua:1: _ENV cannot be <const> in rule scripts (Lua 5.4.4 may compile its uses wrongly)",
      load_rules("env.lua", "local _ENV <const> = { x = 1 }\nreturn x"))
  end)

  it("a C-stack overflow while handling an error is a clean error (bug 4)", function()
    local env = require("kontor.sandbox").env(require("kontor.rules").api)
    local f = assert(sb.load("local function loop() assert(pcall(loop)) end\nreturn xpcall(loop, loop)", "=b4", env))
    local ok, caught, msg = sb.call(f)
    assert.is_true(ok)
    assert.is_false(caught)
    assert.is_truthy(msg:find("C stack overflow$"), msg)
  end)

  it("utf8.codes skipping stray continuation bytes is harmless (bug 8)", function()
    local env = require("kontor.sandbox").env(require("kontor.rules").api)
    local f = assert(sb.load([[
      local t = {}
      for p, c in utf8.codes("a\x80\x80b") do t[#t + 1] = p .. ":" .. c end
      return table.concat(t, " ")]], "=b8", env))
    local ok, codes = sb.call(f)
    assert.is_true(ok)
    assert.are.equal("1:97 4:98", codes)   -- 5.4.5 raises "invalid UTF-8 code" instead
  end)

  it("an arithmetic error over several lines names a line of it (bug 10: at worst the wrong one)", function()
    local env = require("kontor.sandbox").env(require("kontor.rules").api)
    local ok, err = sb.call(assert(sb.load("local a = {}\nlocal b = 1 +\n  a\nreturn b", "=b10.lua", env)))
    assert.is_false(ok)
    local line, msg = err:match("^b10%.lua:(%d+): ([^\n]*)")
    assert.is_truthy(line == "2" or line == "3", err)
    assert.are.equal("attempt to perform arithmetic on a table value (local 'a')", msg)
  end)

  it("no collectgarbage (bug 7) and no binary chunks (bug 11)", function()
    local env = require("kontor.sandbox").env(require("kontor.rules").api)
    assert.is_nil(env.collectgarbage)
    local ok, fn, msg = sb.call(assert(sb.load('return load("\\27Lua\\x54\\0")', "=c", env)))
    assert.is_true(ok)
    assert.is_nil(fn)
    assert.are.equal("attempt to load a binary chunk (mode is 't')", msg)
  end)
end)
