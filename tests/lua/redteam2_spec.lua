-- redteam2_spec.lua - the second red-team pass (docs/security.md, "Red
-- team 2"): each describe is a hole that pass found, asserting the exact
-- outcome; each fails on the code before its fix. The attacks that would
-- hang or exhaust the host run in a child process under `timeout`.
-- Run: build/kontor run tests/busted.lua tests/lua/redteam2_spec.lua
local support = require "tests.lua.support"
local sh_quote, binary, write = support.sh_quote, support.binary, support.write
local tmp, cleanup_tmp = support.scratch()

teardown(cleanup_tmp)

-- A two-seat rule set whose R.play runs `bump()` at every turn; `head` is
-- the file's text before R (it defines bump).
local function rule_file(name, head)
  return write(tmp(name .. ".lua"), head .. [[

local R = { name = "]] .. name .. [[", title = "T", summary = "hostile",
  players = { min = 2, max = 2, default = 2 } }
function R.setup(g) g.points = kontor.counter { n = g.players, min = 0 } end
function R.play(g)
  while true do
    for _, p in ipairs(g:turn_order(1)) do
      g:begin_turn(p)
      local k = g:choose(p, "turn", { "score 1", "pass" })
      bump()
      if k == 1 and g.points:add(p, 1) >= 10 then return end
    end
  end
end
function R.scores(g) return g.points:values() end
return R
]])
end

-- `code` (a kontor run script, with RULES set to `rules`) in a child
-- under a 20 s timeout (the memory cap bounds it), `stdin` its input
-- through a pipe (as serve's requests come): its output and exit status.
local function child(code, rules, stdin)
  local script = write(tmp("child.lua"), "local RULES = " .. string.format("%q", rules) .. "\n" .. code)
  return support.run(string.format("{ printf %%s %s | { timeout -s KILL 20 %s run %s; }; }",
    sh_quote(stdin), sh_quote(binary()), sh_quote(script)))
end

describe("a chunk a script loads names a file (the module-level watch opened it)", function()
  -- load(text, "@PATH"): the watch's message looked for the variable's
  -- line in PATH with io.open: /dev/stdin took the program's input (serve's
  -- requests), a FIFO hung it, /dev/zero ran it out of memory.
  local PLAY = [[
local g = kontor.new_game { rules = RULES, players = 2, seed = 1 }
g:apply("pass")
for _, w in ipairs(g:warnings()) do print(w) end
print("input left: " .. tostring(io.read("a")))
]]
  local function bumper(name, path)
    return rule_file(name, "local bump = load('local n = 0; return function() n = n + 1 end', '@"
      .. path .. "')()")
  end
  local TAIL = ": 'n', a module-level variable of R.play, changed as the game was played (0 to 1): undo, "
    .. "a saved game, a reload and the bots replay the steps without it and play another game; keep the "
    .. "game's state on g (docs/api.md)\n"

  it("/dev/stdin: the program's input is left alone", function()
    local out, rc = child(PLAY, bumper("stdin", "/dev/stdin"), "a request\n")
    assert.are.equal("/dev/stdin:1" .. TAIL .. "input left: a request\n\n", out)
    assert.are.equal(0, rc)
  end)

  it("/dev/zero: no read, one message", function()
    local out, rc = child(PLAY, bumper("zero", "/dev/zero"), "")
    assert.are.equal("/dev/zero:1" .. TAIL .. "input left: \n", out)
    assert.are.equal(0, rc)
  end)

  it("a FIFO: no wait, one message", function()
    local fifo = tmp("pipe.lua")
    assert(os.execute("mkfifo " .. sh_quote(fifo)))
    local out, rc = child(PLAY, bumper("fifo", fifo), "")
    assert.are.equal(fifo .. ":1" .. TAIL .. "input left: \n", out)
    assert.are.equal(0, rc)
  end)
end)

describe("a rule set with many variables (the watch's own lists grew past the cap)", function()
  -- 8 tables of 1,000 closures of 200 variables each (73 MB of the rule
  -- set's memory): the watch kept a record of every variable, 2.5 times
  -- that, and every g:apply failed with "not enough memory" at its first
  -- look. Now it walks 200,000 entries of R at most, keeps 1,000
  -- variables at most, R's functions first (R.play's is still said).
  it("plays, and the variable R.play changes is said", function()
    local locals, uses = {}, {}
    for i = 1, 200 do locals[i] = "a" .. i; uses[i] = "a" .. i .. " = a" .. i end
    local file = rule_file("many", "local n = 0\nlocal function bump() n = n + 1 end\n"
      .. "local function make()\n  local " .. table.concat(locals, ", ") .. "\n  return function() "
      .. table.concat(uses, "; ") .. " end\nend\n")
    write(file, (support.read(file):gsub("return R\n$", [[
for f = 1, 8 do
  local t = {}
  for i = 1, 1000 do t[i] = make() end
  R["data" .. f] = t
end
return R
]])))
    local g = kontor.new_game { rules = file, players = 2, seed = 1 }
    g:apply("pass")
    g:apply("score 1")
    assert.are.same({ 0, 1 }, g.points:values())
    assert.are.same({ file .. ":1: 'n', a module-level variable of R.play, changed as the game was played "
      .. "(0 to 2): undo, a saved game, a reload and the bots replay the steps without it and play another "
      .. "game; keep the game's state on g (docs/api.md)" }, g:warnings())
    local ms = require "kontor.game.module_state"
    assert.are.equal(1000, #ms.slots_of(g.R))
  end)
end)

describe("a bot's restriction with a long run of spaces (read in time quadratic in it)", function()
  -- Each restriction was trimmed with "^%s*(.-)%s*$", which goes back over
  -- a run of spaces once a character: 20,000 spaces took 4.5 s, serve's
  -- 1 MiB request some hours, and a rule set's R.bot_options hung every
  -- greedy bot at its first decision. Now a bot's text is at most 4096
  -- bytes, a restriction at most 64 moves, each read in one pass.
  local bots = require "kontor.bots"
  local SPACES = ("a" .. (" "):rep(200000) .. "b")

  it("a long bot text is refused at once, with its size", function()
    local c = os.clock()
    local b, err = bots.new("greedy:avoid=" .. SPACES, 1, 1)
    assert.is_nil(b)
    assert.are.equal("a bot's text is at most 4096 bytes (this one has 200015: 'greedy:avoid=a                ...')", err)
    assert.is_true(os.clock() - c < 0.5)
  end)

  it("a rule set's R.bot_options: one message at the bot's first decision, the game as it was", function()
    local file = rule_file("botopts", "local function bump() end"):gsub("%.lua$", "") .. ".lua"
    write(file, (support.read(file):gsub("return R\n$",
      "R.bot_options = { greedy = { avoid = 'a' .. (' '):rep(200000) .. 'b' } }\nreturn R\n")))
    local g = kontor.new_game { rules = file, players = 2, seed = 1 }
    g:apply("pass")
    local before = g:moves()
    local b = assert(bots.new("greedy", 2, 1))
    local c = os.clock()
    local ok, err = pcall(b.choose, b, require("kontor.seat").view(g, 2))
    assert.is_false(ok)
    assert.are.equal("botopts: R.bot_options: greedy option avoid: at most 64 moves of 4096 bytes in all (this one: "
      .. "1 moves, 200002 bytes)", err)
    assert.is_true(os.clock() - c < 0.5)
    assert.are.same(before, g:moves())
  end)

  it("3,000 spaces and 64 moves (within the limits) are read in a blink, as before", function()
    local items = {}
    for i = 1, 64 do items[i] = " x" .. (" "):rep(10) end
    items[1] = "score 1" .. (" "):rep(3000)
    local c = os.clock()
    local b = assert(bots.new("greedy:avoid=" .. table.concat(items, ";"), 1, 1))
    assert.is_true(os.clock() - c < 0.1)
    assert.are.equal(64, #b.avoid)
    -- (each with its text with letters of either case alike: option_case_spec)
    assert.are.same({ text = "score 1", ftext = "score 1" }, b.avoid[1])
    assert.are.same({ text = "x", ftext = "x" }, b.avoid[64])
    assert.are.same({ 2 }, b:allowed("turn", { "score 1", "pass" }))
  end)

  it("65 moves: refused with the count", function()
    local b, err = bots.new("greedy:avoid=" .. ("x;"):rep(64) .. "x", 1, 1)
    assert.is_nil(b)
    assert.are.equal("greedy option avoid: at most 64 moves of 4096 bytes in all (this one: 65 moves, 129 bytes)", err)
  end)
end)

describe("the module-level watch and the lab's first look", function()
  it("a variable that holds NaN and keeps it is no change (it was said as 'changed (-nan to -nan)')", function()
    local file = rule_file("nan", "local v = 0/0\nlocal function bump() if v == 1 then v = 2 end end")
    local g = kontor.new_game { rules = file, players = 2, seed = 1 }
    g:apply("pass"); g:apply("pass")
    assert.are.same({}, g:warnings())
  end)

  it("Ctrl-C in the two games before a lab run stops the run (the first look took it for a failed game)", function()
    local balance, errors, gamemod = require "kontor.balance", require "kontor.errors", require "kontor.game"
    local file = rule_file("ctrlc", "local function bump() end")
    local L = { R = assert(kontor.load_rules(file)), setup = { rules = file }, players = 2 }
    local real = gamemod.playout
    gamemod.playout = function() error(errors.interrupt(), 0) end
    local ok, err = pcall(balance.module_warnings, L)
    gamemod.playout = real
    assert.is_false(ok)
    assert.are.equal("interrupt", errors.kind(err))
  end)
end)

describe("chunk names kept by the watch after the game (a memo for the process)", function()
  -- The watch kept, for the whole process, whether each source it met was
  -- the engine's, keyed by the source: a rule file of 1,000 chunks named
  -- by 10 KB each left 10 MB behind after its games were gone, a file
  -- more (a designer's next try, serve's next path) 10 MB more.
  it("leaves nothing behind once the game is gone", function()
    local function round(tag)
      local file = rule_file("names" .. tag, "local function bump() end\nlocal FS = {}\nfor i = 1, 1000 do FS[i] = "
        .. "load('return function() return 1 end', '=" .. tag .. "' .. ('x'):rep(10000) .. i)() end")
      write(file, (support.read(file):gsub("return R\n$", "R.helpers = FS\nreturn R\n")))
      local g = kontor.new_game { rules = file, players = 2, seed = 1 }
      g:apply("pass")
      assert.are.same({}, g:warnings())
    end
    round("a")
    collectgarbage(); collectgarbage()
    local before = collectgarbage("count")
    round("b"); round("c")
    collectgarbage(); collectgarbage()
    local grown = collectgarbage("count") - before
    assert.is_true(grown < 1024, string.format("%.0f KB kept", grown))
  end)
end)

describe("a bot's list of option numbers, kept for the process", function()
  -- Bot:allowed kept { 1, ..., n } for every n it met, shared by all bots
  -- for the whole process: a rule set whose decisions offer 1, 2, ...,
  -- 2,000 options left 41 MB behind a restricted random bot's game.
  it("keeps those of at most 256 options only", function()
    local file = write(tmp("many.lua"), [[
local R = { name = "many", title = "T", summary = "hostile", players = { min = 2, max = 2, default = 2 } }
function R.setup(g) g.points = kontor.counter { n = g.players, min = 0 } end
function R.play(g)
  for i = 1, 1000 do
    g:begin_turn(1)
    local opts = {}
    for k = 1, i do opts[k] = "o" .. k end
    g:choose(1, "turn", opts)
  end
end
function R.scores(g) return g.points:values() end
return R
]])
    local bots, seat = require "kontor.bots", require "kontor.seat"
    collectgarbage(); collectgarbage()
    local before = collectgarbage("count")
    do
      local g = kontor.new_game { rules = file, players = 2, seed = 1, quiet = true }
      local b = assert(bots.new("random:avoid=o7", 1, 1))
      while not g:over() do g:step(1, b:choose(seat.view(g, 1))) end
      assert.are.equal(1000, g:step_count())
    end
    collectgarbage(); collectgarbage()
    local grown = collectgarbage("count") - before
    assert.is_true(grown < 1024, string.format("%.0f KB kept", grown))
  end)
end)
