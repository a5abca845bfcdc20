-- tests/module/module_spec.lua: `require "kontor"` from stock lua5.4 (the
-- C module build/lua/kontor/core.so and the engine's Lua files), run by
-- busted under lua5.4 itself, not inside the kontor program:
--   LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='build/lua/?.so;;' \
--     lua5.4 tests/busted.lua -o TAP tests/module/module_spec.lua
-- The program ($KONTOR_PLAIN, else build/kontor) is the reference: the same
-- games, the same sandbox, the same limits.
local kontor = require "kontor"

local PROGRAM = os.getenv("KONTOR_PLAIN") ~= "" and os.getenv("KONTOR_PLAIN") or "build/kontor"
local SRC = (function()
  local p = assert(io.popen("pwd"))
  local d = p:read("l")
  p:close()
  return d
end)()

local function sh_quote(s) return "'" .. tostring(s):gsub("'", "'\\''") .. "'" end

local function capture(cmd)
  local p = assert(io.popen(cmd .. " 2>&1"))
  local out = p:read("a")
  local _, how, code = p:close()
  return out, how == "exit" and code or -1
end

local function tmpdir()
  local p = assert(io.popen("mktemp -d"))
  local d = p:read("l")
  p:close()
  return d
end

-- A Lua snippet run by lua5.4 with the build tree's module, from `dir`.
local function lua54(snippet, env, dir)
  local vars = string.format("LUA_PATH=%s LUA_CPATH=%s",
    sh_quote(SRC .. "/lua/?.lua;" .. SRC .. "/lua/?/init.lua;;"), sh_quote(SRC .. "/build/lua/?.so;;"))
  return capture(string.format("cd %s && env -u KONTOR_HOME %s %s lua5.4 -e %s", sh_quote(dir or SRC), vars,
    env or "", sh_quote(snippet)))
end

local function program(snippet)
  local f = os.tmpname()
  local h = assert(io.open(f, "w")); h:write(snippet); h:close()
  local out, code = capture(sh_quote(PROGRAM) .. " run " .. sh_quote(f))
  os.remove(f)
  return out, code
end

describe("require 'kontor' from stock lua5.4", function()
  it("runs in lua5.4's own interpreter, with the C module from build/lua", function()
    assert.are.equal("Lua 5.4", _VERSION)
    assert.is_truthy(package.searchpath("kontor.core", package.cpath):match("build/lua/kontor/core%.so$"))
    assert.are.equal("function", type(kontor.new_game))
    assert.is_nil(kontor.core.term)   -- the program's terminal stays out of the module
  end)

  it("finds the rule sets of the source tree it was loaded from", function()
    local names = {}
    for _, e in ipairs(kontor.list()) do names[e.name] = e.kind end
    assert.are.equal("rules", names.sea_merchants)
    assert.are.equal("rules", names.caribbean)
    assert.are.equal("variant", names.house)
  end)

  it("shows the same board as the program", function()
    local snippet = 'print(kontor.new_game{ players = 3, seed = 9 }:show())'
    local mine = kontor.new_game { players = 3, seed = 9 }:show() .. "\n"
    assert.are.equal(program(snippet), mine)
    assert.are.equal(mine, (lua54('print(require("kontor").new_game{ players = 3, seed = 9 }:show())')))
  end)

  for _, case in ipairs {
    { rules = "sea_merchants", players = 4, seed = 11 },
    { rules = "sea_merchants", variants = { "house" }, players = 3, seed = 12 },
    { rules = "caribbean", players = 3, seed = 13 },
    { rules = "caribbean", variants = { "port_royal" }, players = 2, seed = 14 },
  } do
    local label = case.rules .. (case.variants and (" + " .. case.variants[1]) or "")
    it("plays a random game of " .. label .. " to the same moves and scores as the program", function()
      local g = kontor.new_game { rules = case.rules, variants = case.variants, players = case.players,
        seed = case.seed, quiet = true }
      g:play_random(kontor.rng(case.seed))
      local mine = kontor.json.encode { moves = g:moves(), result = g:result() }
      local theirs = program(string.format([[
        local g = kontor.new_game { rules = %q, variants = %s, players = %d, seed = %d, quiet = true }
        g:play_random(kontor.rng(%d))
        print(kontor.json.encode { moves = g:moves(), result = g:result() })]],
        case.rules, case.variants and string.format("{ %q }", case.variants[1]) or "nil",
        case.players, case.seed, case.seed))
      assert.are.equal(theirs, mine .. "\n")
      assert.is_true(#g:moves() > 20)
    end)
  end

  it("writes save files the program loads, and loads the program's", function()
    local dir = tmpdir()
    local g = kontor.new_game { players = 2, seed = 3 }
    for _ = 1, 6 do assert(g:apply(1)) end
    assert.is_true(g:save(dir .. "/a.json"))
    local out = program(string.format([[
      local g = assert(kontor.load_game(%q))
      print(#g:moves(), g:who())
      g:apply(1); assert(g:save(%q))]], dir .. "/a.json", dir .. "/b.json"))
    assert.are.equal(string.format("%d\t%s\n", #g:moves(), tostring(g:who())), out)
    local g2 = assert(kontor.load_game(dir .. "/b.json"))
    assert.are.equal(#g:actions() + 1, #g2:actions())
    os.execute("rm -rf " .. sh_quote(dir))
  end)
end)

describe("the module's rule sets are found", function()
  it("through KONTOR_HOME", function()
    local dir = tmpdir()
    os.execute(string.format("mkdir -p %s/variants && cp %s %s/variants/only.lua", sh_quote(dir),
      sh_quote(SRC .. "/tests/rulesets/race.lua"), sh_quote(dir)))
    local out, code = lua54('local k = require "kontor"; for _, e in ipairs(k.list()) do print(e.name) end',
      "KONTOR_HOME=" .. sh_quote(dir), "/")
    assert.are.equal(0, code, out)
    assert.are.equal("only\n", out)
    os.execute("rm -rf " .. sh_quote(dir))
  end)

  it("through KONTOR_PATH, before the home's", function()
    local dir = tmpdir()
    os.execute(string.format("cp %s %s/race.lua", sh_quote(SRC .. "/tests/rulesets/race.lua"), sh_quote(dir)))
    local out, code = lua54('local k = require "kontor"; print(k.new_game{ rules = "race" }.R.file)',
      "KONTOR_PATH=" .. sh_quote(dir), "/")
    assert.are.equal(0, code, out)
    assert.are.equal(dir .. "/race.lua\n", out)
    os.execute("rm -rf " .. sh_quote(dir))
  end)

  it("after make install PREFIX=..., from anywhere, with nothing but the Lua paths set", function()
    local dir = tmpdir()
    local out, code = capture(string.format(
      "cd %s && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s install PREFIX=%s", sh_quote(SRC), sh_quote(dir .. "/usr")))
    assert.are.equal(0, code, out)
    local run = string.format("cd / && env -u KONTOR_HOME -u KONTOR_PATH LUA_PATH=%s LUA_CPATH=%s lua5.4 -e %s",
      sh_quote(dir .. "/usr/share/lua/5.4/?.lua;" .. dir .. "/usr/share/lua/5.4/?/init.lua"),
      sh_quote(dir .. "/usr/lib/lua/5.4/?.so"),
      sh_quote('local k = require "kontor"; print(k.home); print(k.new_game{seed = 1}:show())'))
    out, code = capture(run)
    assert.are.equal(0, code, out)
    assert.are.equal(dir .. "/usr/share/kontor\n" .. kontor.new_game { seed = 1 }:show() .. "\n", out)
    os.execute("rm -rf " .. sh_quote(dir))
  end)

  it("after make install DESTDIR=... PREFIX=/usr/local, in the staging folder", function()
    local dir = tmpdir()
    local out, code = capture(string.format(
      "cd %s && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s install DESTDIR=%s PREFIX=/usr/local",
      sh_quote(SRC), sh_quote(dir)))
    assert.are.equal(0, code, out)
    local root = dir .. "/usr/local"
    out, code = capture(string.format("cd / && env -u KONTOR_HOME -u KONTOR_PATH LUA_PATH=%s LUA_CPATH=%s lua5.4 -e %s",
      sh_quote(root .. "/share/lua/5.4/?.lua;" .. root .. "/share/lua/5.4/?/init.lua"),
      sh_quote(root .. "/lib/lua/5.4/?.so"),
      sh_quote('local k = require "kontor"; print(k.home, #k.list(), k.new_game{ rules = "caribbean" }.R.name)')))
    assert.are.equal(0, code, out)
    assert.are.equal(string.format("%s/share/kontor\t%d\tcaribbean\n", root, #kontor.list()), out)
    os.execute("rm -rf " .. sh_quote(dir))
  end)
end)

describe("rule scripts under lua5.4 get the program's sandbox and limits", function()
  it("counts the interpreter's memory from what it held before the module came", function()
    collectgarbage()
    local used = kontor.core.sandbox.limits().used
    local counted = collectgarbage("count") * 1024
    -- the cap counts Lua's memory and, besides, the buffers the engine keeps
    -- in C under it (the walk of a view's game, JSON): a few KiB
    assert.is_true(used - counted > -1024 and used - counted < 65536, used .. " vs " .. counted)
  end)

  it("gives rule scripts only the allow list", function()
    local env = require("kontor.sandbox").env(require("kontor.rules").api)
    for _, name in ipairs { "io", "os", "require", "debug", "package", "dofile", "loadfile", "collectgarbage" } do
      assert.is_nil(env[name], name)
    end
    assert.is_nil(env.string.dump)
  end)

  -- Each attack of tests/hostile/attack.lua in a fresh lua5.4 and a fresh
  -- kontor program (tests/hostile/run.lua): the same refusal, the game
  -- unchanged, the host still working, in both.
  local ATTACKS = { "loop in xpcall handler", "pcall loop in coroutine", "loop in __close",
    "loop in __index", "unbounded table", "doubling concat", "many coroutines", "log flood",
    "pile flood", "find .-.-.-b", "concat 2^40 via __index", "nested coroutine.close", "__gc",
    "plain find 2 MiB in 4 MiB" }
  -- (the steps' time limit of tests/hostile/run.lua: 0.1 s in make check's
  -- quick loop, its 0.5 s otherwise; most attacks loop until it)
  local T = os.getenv("CHECK") == "1" and "T=0.1 " or ""
  local function attack(cmd)
    local out, code = capture(T .. "timeout -s KILL 120 " .. cmd)
    assert.are.equal(0, code, out)
    return kontor.json.decode(out:match("([^\n]*)\n?$"))
  end
  for _, a in ipairs(ATTACKS) do
    it(a, function()
      local args = " tests/hostile/run.lua tests/hostile/attack.lua " .. sh_quote(a)
      local theirs = attack(sh_quote(PROGRAM) .. " run" .. args)
      local mine = attack(string.format("env LUA_PATH=%s LUA_CPATH=%s lua5.4 -e %s",
        sh_quote(SRC .. "/lua/?.lua;" .. SRC .. "/lua/?/init.lua;;"), sh_quote("build/lua/?.so;;"),
        sh_quote('kontor = require "kontor"')) .. args)
      assert.is_false(mine.ok, "the attack was not refused")
      assert.is_true(mine.same, "the failed step changed the game")
      assert.are.equal("ABCxx[1]", mine.host)
      -- The same message. Where a limit is timed, the traceback (the
      -- script stops wherever it happens to be) and, in a race between a
      -- time and a memory limit, which one comes first may differ.
      for _, r in ipairs { theirs, mine } do
        r.err = r.err:match("^[^\n]*")
        if r.err:match("^%a+ limit reached") then r.err, r.err_limit = "a limit reached", r.err_limit and "a limit" end
      end
      assert.are.same(theirs, mine)
    end)
  end
end)

-- An option's description reads the seat's copy of the game, as in the
-- program (tests/lua/describe_seat_spec.lua, docs/security.md).
describe("descriptions under lua5.4", function()
  it("tell seat 1 nothing of seat 2's open entry or hand", function()
    local seat = require "kontor.seat"
    local function note(deal, pick2)
      local g = kontor.new_game { rules = "tests/rulesets/leaky_describe.lua", players = 2, seed = 3,
                                  options = { deal = deal } }
      if pick2 then assert(g:apply(pick2, 2)) end
      assert(g:apply("pick blue", 1))
      return seat.view(g, 1).note("pick red")
    end
    local a = note(0)
    assert.are.equal(a, note(1, "pick green"))
    assert.are.equal("seat 1, pick, pick red: drafts 1=pick blue 2=; spy 1=pick blue 2=; ", a:match("^.-; spy .-; "))
  end)
end)

-- kontor.sim's games are bounded as the command line's (2^31): 10^12
-- played until stopped.
describe("kontor.sim under lua5.4", function()
  it("refuses more games than 2^31, naming the range", function()
    local ok, e = pcall(kontor.sim, { games = 1000000000000, only = 1 })   -- (before: one game, then a summary)
    assert.is_false(ok)
    assert.are.equal("usage", e.kind)
    assert.are.equal("kontor.sim: games must be a whole number from 1 to 2147483648, not 1000000000000", e.message)
  end)
end)

-- A front end's mistakes with seat views, and the kinds of error values.
assert(loadfile("tests/module/seat_args_spec.lua", "t", _ENV))()
