-- The boundary (docs/security.md, "The boundary: files, text, work"):
-- the engine, not each front end, keeps files, text and work in bounds.
-- Each case drives the real binary (or the engine) with a hostile input
-- and checks the exact bytes, exit status and files left.

local support = require "tests.lua.support"

local BIN = kontor.core.fs.realpath(support.plain_binary())
local q = support.sh_quote
local tmp, cleanup = support.scratch()
local fs = kontor.core.fs

local sh = support.run_split

local function kontor_cmd(args, stdin, prefix)
  return sh((prefix or "") .. BIN .. " " .. args, stdin)
end

local temps = support.temps

-- A one-seat rule set `name` whose every move keeps 13 MB more: the game
-- of the memory cap's tests.
local function growing(name)
  return ([[
return { name = "%s", players = { min = 1, max = 2, default = 1 },
  setup = function(g) g.keep = {} end,
  scores = function(g) return { 0, 0 } end,
  play = function(g)
    for i = 1, 10 do
      g:choose(1, "grow", { "grow", "stop" })
      g.keep[#g.keep + 1] = string.rep("x", 13 * 1024 * 1024 + i)
    end
  end }
]]):format(name)
end

-- A rule set whose every name is hostile: control sequences that would
-- retitle the window (OSC 0), write the clipboard (OSC 52), clear the
-- screen and ring the bell.
local EVIL = [[
return { name = "ev\27]0;pwned\7il", title = "T\27[2Jitle", summary = "sum\27[31mmary",
  players = { min = 2, max = 2, default = 2 },
  stats = { busts = "busts" },
  setup = function(g) end,
  scores = function(g) return { 1, 0 } end,
  play = function(g)
    g:choose(1, "pick\27[31m", { "go\27[1m", "stop" })
    g:log("logged \27]52;c;SGVsbG8=\7 line")
    g:stat("busts")
  end }
]]

local function no_control(s, what)
  local at = s:find("[\1-\8\11-\31\127]")
  assert.is_nil(at, what .. ": a raw control byte at " .. tostring(at) .. " in " .. s)
end

teardown(cleanup)

describe("one text sink", function()
  local dir
  setup(function()
    dir = tmp("evil")
    os.execute("mkdir -p " .. q(dir))
    support.write(dir .. "/evil.lua", EVIL)
  end)

  it("every command shows hostile rule, decision, option and log names escaped, never raw", function()
    local cd = "cd " .. q(dir) .. " && "
    local cases = {
      { "sim --rules evil.lua --games 3", "rules        ev\\e]0;pwned\\ail\n" },
      { "sim --rules evil.lua --games 3 --json", '"rules":"ev\\u001B]0;pwned\\u0007il"' },
      { "sim --rules evil.lua --games 3 --coverage",
        "    pick\\e[31m 3\n  option kinds: 2, never fired: none\n    stop 2, go\\e[1m 1\n" },
      { "sim --rules evil.lua --games 3 --jobs 2", "rules        ev\\e]0;pwned\\ail\n" },
      { "compare --rules evil.lua --a '' --b '--variant ./ev\27[5mil.lua' --games 3",
        "B            --rules evil.lua --variant ./ev\\e[5mil.lua\n" },
      { "--list", "rules                      T\\e[2Jitle                  sum\\e[31mmary\n" },
    }
    -- a variant whose file name holds an escape
    support.write(dir .. "/ev\27[5mil.lua", 'return { variant = true, base = "ev\\27]0;pwned\\7il",\n'
      .. '  apply = function(R) end }\n')
    for _, c in ipairs(cases) do
      local out, err, code = kontor_cmd(c[1], nil, cd .. "KONTOR_PATH=" .. q(dir) .. " ")
      assert.are.equal(0, code, c[1] .. ": " .. err)
      no_control(out, c[1])
      no_control(err, c[1])
      assert.truthy(out:find(c[2], 1, true), c[1] .. ":\n" .. out)
    end
  end)

  it("merge prints the merged summary escaped", function()
    local cd = "cd " .. q(dir) .. " && "
    for k = 1, 2 do
      local shard, err, code = kontor_cmd(string.format("sim --rules evil.lua --games 4 --shard %d/2", k), nil, cd)
      assert.are.equal(0, code, err)
      support.write(string.format("%s/s%d.json", dir, k), shard)
    end
    local out, err, code = kontor_cmd("merge s1.json s2.json", nil, cd)
    assert.are.equal(0, code, err)
    no_control(out, "merge")
    assert.truthy(out:find("rules        ev\\e]0;pwned\\ail\n", 1, true), out)
  end)

  it("the REPL and play show the log line and names escaped", function()
    local out, err, code = kontor_cmd("play --rules " .. q(dir .. "/evil.lua") .. " --seed 3", "go\27[1m\n")
    assert.are.equal(0, code, err)
    no_control(out, "play")
    assert.truthy(out:find("logged \\e]52;c;SGVsbG8=\\a line", 1, true), out)
    out, err, code = kontor_cmd("--rules " .. q(dir .. "/evil.lua") .. " --seed 3", "go\27[1m\nlog\nmoves\nboard\n")
    assert.are.equal(0, code, err)
    no_control(out, "repl")
    assert.truthy(out:find("logged \\e]52;c;SGVsbG8=\\a line\n1  Player 1: go\\e[1m\n", 1, true), out)
  end)

  it("a usage error quoting a hostile rule-set name is escaped too", function()
    local _, err, code = kontor_cmd("sim --rules " .. q(dir .. "/evil.lua") .. " --players 9")
    assert.are.equal(2, code)
    assert.are.equal("kontor: sim: ev\\e]0;pwned\\ail is for 2 players, not 9\nTry 'kontor --help'.\n", err)
    _, err, code = kontor_cmd("compare --rules " .. q(dir .. "/evil.lua") .. " --players 9 --a '' --b '' --games 2")
    assert.are.equal(2, code)
    assert.are.equal("kontor: compare: ev\\e]0;pwned\\ail is for 2 players, not 9\nTry 'kontor --help'.\n", err)
  end)
end)

describe("one file policy", function()
  it("a serve load document naming /dev/stdin, /etc/passwd or a file outside is refused as a save file's", function()
    local outside = os.tmpname() .. ".lua"
    support.write(outside, "return {}")
    for _, c in ipairs {
      { "/dev/stdin", "document: rule set /dev/stdin: a save may name only .lua rule files" },
      { "/etc/passwd", "document: rule set /etc/passwd: a save may name only .lua rule files" },
      { outside, "document: rule set " .. outside .. ": refused: outside the folders a save may name" },
    } do
      local doc = { format = "kontor-save", version = 1, rules = c[1], players = 2, seed = 1, actions = {} }
      local g, err = kontor.load_document(doc)
      assert.is_nil(g)
      assert.are.equal(1, err:find(c[2], 1, true), err)
      -- serve: the same message, code game_setup
      local req = kontor.json.encode { id = 1, op = "load", document = doc }
      local out = kontor_cmd("serve", req .. "\n")
      local resp = kontor.json.decode(out)
      assert.are.equal(false, resp.ok)
      assert.are.equal("game_setup", resp.error.code)
      assert.are.equal(1, resp.error.message:find(c[2], 1, true), resp.error.message)
    end
    os.remove(outside)
  end)

  it("--games-out and --report on a full disk: exit 1, the message, the old file whole, no temp file", function()
    local d = tmp("full")
    os.execute("mkdir -p " .. q(d))
    -- (the old files are of their kind: another file is not replaced at all)
    local OLD_GAMES, OLD_REPORT = '{"game":0}\n', "<h1>Kontor old report</h1>\n"
    for _, c in ipairs {
      { "--games-out", d .. "/games.jsonl", "sim --games 300 --jobs 1 --games-out ", OLD_GAMES },
      { "--report", d .. "/r.html", "sim --games 300 --report ", OLD_REPORT },
      { "--games-out", d .. "/c.jsonl", "compare --a '' --b '' --games 300 --jobs 1 --games-out ", OLD_GAMES },
    } do
      support.write(c[2], c[4])
      -- ulimit -f counts 512-byte blocks: 8 blocks are 4 KB
      local out, err, code = kontor_cmd(c[3] .. q(c[2]), nil, "ulimit -f 8; ")
      assert.are.equal(1, code, c[1] .. ": " .. out .. err)
      assert.are.equal(string.format("kontor: %s: %s: write failed: File too large\n", c[3]:match("^%a+"), c[2]), err)
      assert.are.equal(c[4], support.read(c[2]))
      assert.are.same({}, temps(d))
      os.remove(c[2])
    end
    -- with jobs: each job's part file fails; the old file stays whole and
    -- no part file is left
    local g = d .. "/games.jsonl"
    support.write(g, OLD_GAMES)
    local out, err, code = kontor_cmd("compare --a '' --b '' --games 300 --jobs 2 --games-out " .. q(g), nil, "ulimit -f 8; ")
    assert.are.equal(1, code, out .. err)
    -- one message: the job's own, said by the parent
    assert.are.equal("kontor: compare: " .. g .. ".job1: write failed: File too large\n", err)
    assert.are.equal(OLD_GAMES, support.read(g))
    assert.are.same({ "games.jsonl" }, fs.list(d))
  end)

  it("sweep --svg makes its folder without a shell; a folder under a file is refused", function()
    local d = tmp("svg")
    local charts = d .. "/a b/'c;touch x'"
    local _, err, code = kontor_cmd("sweep --rules tests/balance/dice.lua --over target=20,30 --games 6 --jobs 1 --svg "
      .. q(charts))
    assert.are.equal(0, code, err)
    assert.are.equal("directory", fs.stat(charts).type)
    assert.are.equal("", support.read(charts .. "/turns.svg"):match("^<%?xml[^\n]*\n<svg") and "" or "no chart")
    assert.are.same({}, temps(charts))
    support.write(d .. "/file", "x")
    _, err, code = kontor_cmd("sweep --rules tests/balance/dice.lua --over target=20,30 --games 6 --jobs 1 --svg "
      .. q(d .. "/file/charts"))
    assert.are.equal(1, code)
    assert.are.equal("kontor: sweep: " .. d .. "/file/charts: Not a directory\n", err)
  end)

  it("--games-out with jobs: the parts come together in one file, and go", function()
    local d = tmp("parts")
    os.execute("mkdir -p " .. q(d))
    local one, two = d .. "/one.jsonl", d .. "/two.jsonl"
    local _, err, code = kontor_cmd("compare --a '' --b '--variant hand_limit' --games 30 --jobs 1 --games-out " .. q(one))
    assert.are.equal(0, code, err)
    _, err, code = kontor_cmd("compare --a '' --b '--variant hand_limit' --games 30 --jobs 3 --games-out " .. q(two))
    assert.are.equal(0, code, err)
    local text = support.read(one)
    assert.are.equal(text, support.read(two))
    local n, b = 0, 0
    for line in text:gmatch("[^\n]+") do
      n = n + 1
      local rec = kontor.json.decode(line)
      if rec.side == "b" then b = b + 1 else assert.are.equal(0, b, "every A line before the B lines") end
    end
    assert.are.equal(60, n)
    assert.are.equal(30, b)
    assert.are.same({ "one.jsonl", "two.jsonl" }, fs.list(d))
  end)

  it("fs.atomic: the file appears whole at commit; abort and a dropped writer leave the old file, no temp", function()
    local d = tmp("atomic")
    os.execute("mkdir -p " .. q(d))
    local path = d .. "/out.txt"
    support.write(path, "old")
    local w = assert(fs.atomic(path))
    assert.are.equal(w, w:write("new ", "text"))
    assert.are.equal("old", support.read(path))
    assert.are.equal(1, #temps(d))
    assert.is_true(w:commit())
    assert.are.equal("new text", support.read(path))
    assert.has_error(function() w:write("x") end, "write to a finished file")
    w = assert(fs.atomic(path))
    w:write("half")
    w:abort()
    do
      local w2 <close> = assert(fs.atomic(path))
      w2:write("dropped")
    end
    w = assert(fs.atomic(path))
    w:write("collected")
    w = nil   -- luacheck: ignore 311
    collectgarbage()
    assert.are.equal("new text", support.read(path))
    assert.are.same({ "out.txt" }, fs.list(d))
    local ok, err = fs.atomic(d .. "/no/such/out.txt")
    assert.is_nil(ok)
    assert.are.equal(d .. "/no/such/out.txt: cannot create a file in the folder " .. d .. "/no/such: No such file or directory", err)
    -- write_with: an error in the producer keeps the old file
    ok, err = require("kontor.files").write_with(path, function(put)
      put("partial")
      error("producer failed", 0)
    end)
    assert.is_nil(ok)
    assert.are.equal("producer failed", err)
    assert.are.equal("new text", support.read(path))
    assert.are.same({ "out.txt" }, fs.list(d))
  end)

  it("an output onto a device, a FIFO or a folder is refused: the rename would replace it", function()
    local fifo = tmp("fifo")
    os.execute("mkfifo " .. q(fifo))
    for _, target in ipairs { "/dev/null", fifo } do
      local _, err, code = kontor_cmd("sim --games 2 --games-out " .. q(target))
      assert.are.equal(1, code, err)
      assert.are.equal(string.format("kontor: sim: %s: not a regular file (refused as an output)\n", target), err)
    end
    assert.are.equal("other", fs.stat(fifo).type)
    assert.are.equal("other", fs.stat("/dev/null").type)
    local ok, err = kontor.new_game { seed = 1 }:save("/dev/null")
    assert.is_nil(ok)
    assert.are.equal("/dev/null: not a regular file (refused as an output)", err)
  end)

  it("--json to a full stdout (/dev/full) is exit 1 with the reason", function()
    local function to_full(args) return sh("sh -c " .. q(q(BIN) .. " " .. args .. " >/dev/full")) end
    local out, err, code = to_full("sim --games 2 --json")
    assert.are.equal(1, code, out)
    assert.are.equal("kontor: cannot write the output: No space left on device\n", err)
    out, err, code = to_full("compare --a '' --b '' --games 3 --json")
    assert.are.equal(1, code, out)
    assert.are.equal("kontor: cannot write the output: No space left on device\n", err)
  end)

  it("merge refuses a bad line, data shorter than claimed and wins that do not add up, naming file:line", function()
    local d = tmp("shards")
    os.execute("mkdir -p " .. q(d))
    local one = kontor_cmd("sim --players 2 --games 4 --seed 3 --shard 1/2")
    local two = kontor_cmd("sim --players 2 --games 4 --seed 3 --shard 2/2")
    support.write(d .. "/one.json", one)
    local function merge_err(text)
      support.write(d .. "/bad.json", text)
      local out, err, code = kontor_cmd(string.format("merge %s %s", q(d .. "/one.json"), q(d .. "/bad.json")))
      assert.are.equal(1, code, out)
      return err
    end
    local bad = d .. "/bad.json"
    -- the shard as a test changes it (version 2: the sums of its games)
    local function changed(f)
      local shd = kontor.json.decode(two)
      assert.are.equal(2, shd.version)
      f(shd, shd.sides[1].acc)
      return merge_err(kontor.json.encode(shd) .. "\n")
    end
    local function refused(why) return "kontor: merge: " .. bad .. ":1: " .. why .. "\n" end
    -- a line that is not JSON (after a blank line: line 2)
    local err = merge_err("\n{\"kontor\": \"shard\", \n")
    assert.truthy(err:find("kontor: merge: " .. bad .. ":2: not valid JSON: ", 1, true), err)
    -- data shorter than the shard's range: the sums of fewer games, fewer
    -- counts by value, fewer games kept
    err = changed(function(_, acc) acc.n = 1 end)
    assert.are.equal(refused("side 1: the sums are of 1 game, the shard claims 2"), err)
    err = changed(function(_, acc) acc.hist.turns = { ["45"] = 1 } end)
    assert.are.equal(refused("side 1: the counts of turns add up to 1 game, the shard claims 2"), err)
    err = changed(function(shd) table.remove(shd.sides[1].games) end)
    assert.are.equal(refused("side 1: the games kept: 1 given, 2 expected"), err)
    -- wins that do not add up to one a game (a win counts 2 in a game of 2)
    err = changed(function(_, acc) acc.sum["win_rate.1"] = 4 end)
    assert.are.equal(refused("side 1: the wins add up to 3 games, not the 2 games of the shard"), err)
    -- counts by value that do not add up to the sum
    err = changed(function(_, acc) acc.sum.turns = acc.sum.turns + 1 end)
    assert.truthy(err:find("^kontor: merge: " .. bad:gsub("%p", "%%%0") .. ":1: side 1: the counts of turns add up to %d+, its sum is %d+\n$"), err)
    -- a negative count, a value that is not a number
    err = changed(function(_, acc) acc.sum.steps, acc.sq.steps = -5, 25 end)
    assert.are.equal(refused("side 1: the sum of steps is -5, below 0"), err)
    err = changed(function(_, acc) acc.sq.margin = "wide" end)
    assert.are.equal(refused("side 1: the sum of squares of margin is not a finite number"), err)
    err = changed(function(_, acc) acc.hist["score.1"]["7"] = -1 end)
    assert.are.equal(refused("side 1: the counts of score.1: -1 games have 7, not a count"), err)
    -- a range past the run's games
    err = changed(function(shd) shd.hi = 9 end)
    assert.are.equal(refused("games 3-9 are not a range of games 1-4"), err)
    -- a shard of an older kontor (its games, not their sums)
    err = changed(function(shd) shd.version = nil end)
    assert.are.equal(refused("made by an older kontor (its games, not their sums): make it again"), err)
    -- the good pair still merges
    support.write(bad, two)
    local out, e2, code = kontor_cmd(string.format("merge %s %s", q(d .. "/one.json"), q(bad)))
    assert.are.equal(0, code, e2)
    assert.truthy(out:find("games        4 (seed 3)", 1, true), out)
  end)
end)

describe("trusted code never reads a script's values", function()
  it("a script that replaces g.names with a looping table: play and the REPL start and show the names", function()
    local f = support.write(tmp("names.lua"), [[
return { name = "names", players = { min = 2, max = 2, default = 2 },
  setup = function(g)
    g.names = setmetatable({}, { __index = function() while true do end end })
  end,
  scores = function(g) return { 0, 0 } end,
  play = function(g) g:choose(1, "go", { "go" }) end }
]])
    local out, err, code = kontor_cmd("--rules " .. q(f) .. " --names Ann,Bo --seed 2", "bots\n", "timeout 20 ")
    assert.are.equal(0, code, err)
    assert.truthy(out:find("1  Ann: person\n2  Bo: person\n", 1, true), out)
    local g = kontor.new_game { rules = f, names = { "Ann", "Bo" }, seed = 1 }
    assert.are.same({ "Ann", "Bo" }, g.names)
  end)

  it("serve: log from 2^63-1 answers at once; bot seats are written as numbers", function()
    local reqs = table.concat({
      '{"id":1,"op":"new","players":2,"seed":1}',
      '{"id":2,"op":"log","game":"g1","from":9223372036854775807}',
      '{"id":3,"op":"new","players":2,"seed":1,"bots":{"01":"random"}}',
      '{"id":4,"op":"new","players":2,"seed":1,"bots":{"0x2":"random"}}',
      '{"id":5,"op":"new","players":2,"seed":1,"bots":{"2":"random"}}',
    }, "\n") .. "\n"
    local out, err, code = kontor_cmd("serve", reqs, "timeout 20 ")
    assert.are.equal(0, code, err)
    local r = {}
    for line in out:gmatch("[^\n]+") do r[#r + 1] = kontor.json.decode(line) end
    assert.are.equal(0, #r[2].result.lines)
    assert.are.equal(r[2].result.total, #kontor.new_game { players = 2, seed = 1 }:log())
    -- (they said "there is no seat 01", which left a client guessing)
    assert.are.equal('"bots": a seat is written as a plain number in a string: "1", not "01"', r[3].error.message)
    assert.are.equal('"bots": a seat is written as a plain number in a string: "2", not "0x2"', r[4].error.message)
    assert.are.equal(true, r[5].ok)
  end)
end)

describe("memory errors are errors, not deaths", function()
  it("printing a huge log line of control characters: a message, the session goes on", function()
    local f = support.write(tmp("biglog.lua"), [[
return { name = "biglog", players = { min = 1, max = 2, default = 1 },
  setup = function() end,
  scores = function(g) return { 0, 0 } end,
  play = function(g)
    g:choose(1, "go", { "go", "stop" })
    g:log(string.rep("\27", 8 * 1024 * 1024))
    g:choose(1, "go", { "go", "stop" })
  end }
]])
    -- under a 32 MiB cap an 8 MiB line escapes to 16 MiB, printed beside
    -- the line itself: over the cap (40 MiB under the default 256 MiB)
    local out, err, code = kontor_cmd("--rules " .. q(f) .. " --seed 1",
      "kontor.core.sandbox.limits{ memory = 32 * 1024 * 1024 }\ngo\nmoves\n", "timeout 60 ")
    assert.are.equal(0, code, err)
    assert.truthy(out:find("not enough memory for that (the memory limit is the interpreter's; the game is as it was)\n"
      .. "1  Player 1: go\n", 1, true), out:sub(1, 400))
  end)

  it("undo near the memory cap fails whole: the game is as it was", function()
    local f = support.write(tmp("big.lua"), growing("big"))
    local out, err, code = kontor_cmd("--rules " .. q(f) .. " --seed 1",
      -- a cap of 64 MiB: three moves of 13 MB fit, and the two of the undo
      -- do not fit beside them (k holds them)
      "kontor.core.sandbox.limits{ memory = 64 * 1024 * 1024 }\n"
      .. "grow\ngrow\ngrow\nk = g.ctx.keep\nundo\nmoves\nprint(#g.ctx.keep)\n", "timeout 60 ")
    assert.are.equal(0, code, err)
    assert.truthy(out:find("undo failed, the game is as it was: memory limit reached (64 MiB)\n"
      .. "1  Player 1: grow\n2  Player 1: grow\n3  Player 1: grow\n3\n", 1, true), out)
  end)
end)

describe("Game:atomically (the REPL's and serve's undo)", function()
  it("a memory error half-way through an undo puts the game back as it was", function()
    local f = support.write(tmp("grow.lua"), growing("grow"))
    local sb = kontor.core.sandbox
    local old = sb.limits().memory
    sb.limits { memory = 64 * 1024 * 1024 }
    local ok, err = pcall(function()
      local g = kontor.new_game { rules = f, seed = 1 }
      for _ = 1, 3 do assert(g:apply("grow")) end
      local ctx, log = g.ctx, #g:log()
      local k = g.ctx.keep   -- holds the old moves' strings: the undo cannot fit beside them
      local uok, uerr = pcall(g.atomically, g, g.undo, g, 1)
      assert.is_false(uok)
      assert.are.equal("memory limit reached (64 MiB)", require("kontor.text").error_line(uerr))
      assert.are.equal(3, #g:move_list())
      assert.are.same({}, g:redo_list())
      assert.are.equal(ctx, g.ctx)      -- the very state of before
      assert.are.equal(3, #g.ctx.keep)
      assert.are.equal(log, #g:log())
      assert.are.equal(k, g.ctx.keep)
      -- and it is whole: its record replays to the same moves
      assert.are.same({ "1: grow", "1: grow", "1: grow" }, g:moves())
      return true
    end)
    sb.limits { memory = old }
    collectgarbage()
    assert.is_true(ok, tostring(err))
  end)
end)

describe("a game without --seed is a new game", function()
  it("the API draws a fresh seed, keeps it in params and in the save", function()
    local a, b = kontor.new_game {}, kontor.new_game {}
    assert.are_not.equal(a.params.seed, b.params.seed)
    assert.is_true(a.params.seed >= 1 and a.params.seed < 2 ^ 53)
    local r = kontor.new_game { seed = "random" }
    assert.are.equal("integer", math.type(r.params.seed))
    a:apply(1)
    local path = tmp("seeded.json")
    assert(a:save(path))
    local back = assert(kontor.load_game(path))
    assert.are.equal(a.params.seed, back.params.seed)
    assert.are.equal(kontor.json.encode(a:state()), kontor.json.encode(back:state()))
  end)

  it("play without --seed: two games, two seeds, each shown after the game and replayable", function()
    local seeds = {}
    for i = 1, 2 do
      local out, err, code = kontor_cmd("play --players 2 --bot 1=random --bot 2=random")
      assert.are.equal(0, code, err)
      local s = out:match("\nSeed (%d+) %(%-%-seed %d+ plays this deal again%)%.\n$")
      assert.truthy(s, out:sub(-300))
      seeds[i] = s
      -- the same seed plays the same game
      local again = kontor_cmd("play --players 2 --bot 1=random --bot 2=random --seed " .. s)
      assert.are.equal(out, again)
    end
    assert.are_not.equal(seeds[1], seeds[2])
  end)

  it("sim keeps seed 1 unless told; --seed random prints the seed it drew, which replays the run", function()
    local out = kontor_cmd("sim --games 3")
    assert.truthy(out:find("games        3 (seed 1)\n", 1, true), out)
    out = kontor_cmd("sim --games 3 --seed random")
    local s = out:match("games        3 %(seed (%d+)%)\n")
    assert.truthy(s, out)
    local again = kontor_cmd("sim --games 3 --seed " .. s)
    assert.are.equal(out:gsub("speed[^\n]*", ""), (again:gsub("speed[^\n]*", "")))
    local _, err, code = kontor_cmd("sim --games 3 --seed lucky")
    assert.are.equal(2, code)
    assert.are.equal("kontor: sim: --seed must be a whole number or 'random', not 'lucky'\nTry 'kontor --help'.\n", err)
    -- jobs are given the seed drawn, as a number: two jobs give one job's result
    out = kontor_cmd("compare --a '' --b '--variant hand_limit' --games 6 --seed random --jobs 2 --json")
    local shown = kontor.json.decode(out)
    again = kontor_cmd(string.format("compare --a '' --b '--variant hand_limit' --games 6 --seed %d --jobs 1 --json", shown.seed))
    assert.are.equal(out, again)
    -- each shard would draw its own
    _, err, code = kontor_cmd("sim --games 4 --seed random --shard 1/2")
    assert.are.equal(2, code)
    assert.are.equal("kontor: sim: --seed random would draw another seed in each shard: give every shard the same "
      .. "whole number\nTry 'kontor --help'.\n", err)
  end)

  it("serve's new without a seed gives a fresh one back", function()
    local out = kontor_cmd("serve", '{"id":1,"op":"new"}\n{"id":2,"op":"new"}\n')
    local r1, r2 = out:match("^([^\n]+)\n([^\n]+)\n$")
    local s1, s2 = kontor.json.decode(r1).result.seed, kontor.json.decode(r2).result.seed
    assert.are.equal("integer", math.type(s1))
    assert.are_not.equal(s1, s2)
  end)
end)

describe("limit errors keep their exit status", function()
  it("a set-up that hits the time limit is a failure (1), one line, not a usage error #slow", function()
    local f = support.write(tmp("loop.lua"), [[
return { name = "loop", players = { min = 1, max = 2, default = 2 },
  setup = function(g) while true do end end, scores = function() return { 0, 0 } end,
  play = function(g) end }
]])
    for _, cmd in ipairs { "--rules ", "play --rules " } do
      local out, err, code = kontor_cmd(cmd .. q(f) .. " --seed 1", "")
      assert.are.equal(1, code, out .. err)
      assert.are.equal("kontor: setting up loop failed: time limit reached (0.5 s of CPU per step), in " .. f .. ":2\n", err)
    end
  end)
end)
