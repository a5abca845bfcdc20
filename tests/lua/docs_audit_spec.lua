-- docs_audit_spec.lua - the user docs say what the program prints: the
-- blocks of README.md and docs/*.md that no other spec runs (the start-up
-- mistakes, scripting, hot-seat screens and secret orders of docs/repl.md,
-- the refusal in docs/api.md, the hint of docs/bots.md), and the lists of
-- commands, flags and ops the docs give against what the program has.
-- And the lab's usage errors exit 2 with the usage hint, as plain sim's.
-- Run: build/kontor run tests/busted.lua tests/lua/docs_audit_spec.lua

local support = require "tests.lua.support"
local BIN = support.plain_binary()
local q = support.sh_quote

-- Output (stdout, then stderr) and exit status of `kontor ARGS`.
local function kontor(args, stdin)
  return support.run(BIN .. " " .. args, stdin or "")
end

local lines = support.text_lines

local function set_of(list)
  local t = {}
  for _, l in ipairs(list) do t[l] = true end
  return t
end

-- The bodies of the fenced blocks of `doc` (```LANG or plain ```).
local function blocks(doc)
  local out = {}
  for body in doc:gmatch("\n```[%w]*\n(.-)```") do out[#out + 1] = body end
  return out
end

-- The block of `doc` holding `needle`.
local function block_with(doc, needle)
  for _, b in ipairs(blocks(doc)) do
    if b:find(needle, 1, true) then return b end
  end
  error("no block holds " .. needle)
end

-- Whether `line` of a doc matches `got`, where "..." in the doc's line
-- stands for any text.
local function fits(line, got)
  local pat = "^" .. line:gsub("%p", "%%%0"):gsub("%%%.%%%.%%%.", ".-") .. "$"
  return got:match(pat) ~= nil
end

describe("docs/repl.md", function()
  local doc = support.read("docs/repl.md")

  it("the start-up mistakes print what the doc shows, exit 2", function()
    local b = block_with(doc, "$ kontor --rules seamerchants")
    local cmds = {}
    for _, l in ipairs(lines(b)) do
      local c = l:match("^%$ kontor (.*)$")
      if c then cmds[#cmds + 1] = { args = c, want = {} }
      else table.insert(cmds[#cmds].want, l) end
    end
    assert.are.equal(2, #cmds)
    for _, c in ipairs(cmds) do
      local out, code = kontor(c.args .. " 2>&1")
      assert.are.equal(2, code, c.args)
      local got = lines(out)
      assert.are.equal(#c.want, #got, out)
      for i, w in ipairs(c.want) do assert.is_true(fits(w, got[i]), w .. "\ngot: " .. got[i]) end
    end
  end)

  it("the scripting example prints what the doc shows", function()
    local b = block_with(doc, "| kontor --players 2 --seed 3")
    local l = lines(b)
    local cmd = l[1]:match("^%$ (.*)$")
    cmd = cmd:gsub("| kontor ", "| " .. BIN .. " ")
    local out = support.run("(" .. cmd .. ")")
    assert.are.same({ table.unpack(l, 2) }, lines(out))
  end)

  it("a move that is not legal now is refused with the rule set's reason", function()
    local b = block_with(doc, "'buy dock' is not a legal action")
    local out = kontor("--players 2 --seed 3", "1\n1\n2\n2\nbuy dock\n")
    assert.truthy(support.has(out, lines(b)[1] .. "\n"), out)
  end)

  it("the hot-seat screens are what play prints (but for the hand-over, a terminal's)", function()
    local out = kontor("play --players 2 --seed 3 --names Ann,Bob", "1\nview 1\n")
    local got = set_of(lines(out))
    local checked = 0
    for _, b in ipairs(blocks(doc)) do
      if b:find("Ann loads grain on ship 1", 1, true) or b:find("Bob> view 1", 1, true) then
        for _, l in ipairs(lines(b)) do
          -- typed lines, keys, elisions and the terminal's hand-over are not piped output
          if not (l:match("^%$ ") or l:match("^%[Enter%]") or l == "..." or l:match("^%s+%.%.%.$")
                  or l:match("^%a+> ") or l:match("press Enter")) then
            assert.is_true(got[l] ~= nil, "play does not print: " .. l .. "\n" .. out)
            checked = checked + 1
          end
        end
      end
    end
    assert.is_true(checked >= 15, tostring(checked))
  end)

  it("the secret order's prompt is what play prints", function()
    local out = kontor("play --rules tests/rulesets/secret_orders.lua --players 2 --names Ann,Bob --seed 1",
      "buy ship\nundo\n")
    local got = set_of(lines(out))
    local b = block_with(doc, "Ann, your secret order")
    for _, l in ipairs(lines(b)) do
      if not l:match("^Ann> ") then assert.is_true(got[l] ~= nil, "play does not print: " .. l .. "\n" .. out) end
    end
  end)

  it("the commands table names every command of the REPL's help, and only those", function()
    local help = kontor("--players 2 --seed 3", "help\n")
    local cmds = {}
    for l in help:gmatch("[^\n]+") do
      -- "  board   ...", "  moves   the moves so far   log [N]  ..."
      local a = l:match("^  (%l+)")
      if a then cmds[a] = true end
      local b = l:match("%s%s%s+(%l+) %[?%u*%]?%s%s+%l")
      if b then cmds[b] = true end
    end
    local table_text = doc:match("\n## The commands\n(.-)\n## ")
    local documented = {}
    for cell in table_text:gmatch("\n| ([^|]+) |") do
      for c in cell:gmatch("`(%l+)") do documented[c] = true end
    end
    for c in pairs(cmds) do assert.is_true(documented[c], "not in docs/repl.md's table: " .. c) end
    for c in pairs(documented) do
      if c ~= "next" and c ~= "prev" then assert.is_true(cmds[c], "not in the REPL's help: " .. c) end
    end
    assert.is_true(cmds.hint and cmds.bots and cmds.quit and cmds.log)
  end)
end)

describe("README.md", function()
  local doc = support.read("README.md")

  it("lists the REPL's commands", function()
    local para = doc:match("At the prompt, plain words are game commands: (.-)Anything else is Lua")
    for _, c in ipairs { "board", "options", "do", "why", "undo", "redo", "auto", "moves", "log", "result",
                         "new", "save", "load", "replay", "next", "prev", "view", "as", "bot", "bots",
                         "hint", "reload", "help", "quit" } do
      assert.truthy(para:find("`" .. c .. "[ `]"), c)
    end
  end)

  it("every flag of kontor --help is in the docs, every flag the README shows is in --help", function()
    local help = kontor("--help")
    local docs = support.read("README.md")
    for _, f in ipairs { "repl", "api", "protocol", "bots", "balance", "designing-variants" } do
      docs = docs .. support.read("docs/" .. f .. ".md")
    end
    local seen = {}
    for flag in help:gmatch("%-%-[%l][%l%-]*") do
      if not seen[flag] then
        seen[flag] = true
        assert.truthy(docs:find(flag:gsub("%-", "%%-") .. "%f[^%w%-]"), "undocumented: " .. flag)
      end
    end
    local usage = doc:match("## What you can type\n\n(.-)\n\n")
    for flag in usage:gmatch("%-%-[%l][%l%-]*") do
      assert.truthy(seen[flag], "the README shows " .. flag .. ", which kontor --help does not")
    end
  end)

  it("kontor help prints --help's text; kontor help CMD that command's part", function()
    assert.are.equal(kontor("--help"), kontor("help"))
    local out, code = kontor("help sim")
    assert.are.equal(0, code)
    local l = lines(out)
    assert.are.equal("usage: kontor sim [SETUP OPTIONS] [--games G] [--seed S|random] [--game I] [--json]", l[1])
    assert.truthy(support.has(out, "[--no-moves]\n\n  sim      play G random games and print a summary (the same seed gives\n"),
      out)
    assert.are.equal("(kontor --help: every command, the setup options, the exit status)", l[#l])
    -- each command of the usage has its part, with its usage lines as --help gives them
    local help = kontor("--help")
    for _, c in ipairs { "repl", "play", "run", "serve", "sim", "compare", "sweep", "worth", "ladder", "merge",
                         "--list" } do
      local part, rc = kontor("help " .. c)
      assert.are.equal(0, rc, c)
      for _, pl in ipairs(lines(part)) do
        if pl ~= "" and not pl:match("^%(kontor %-%-help") then
          assert.truthy(support.has(help, pl:gsub("^usage: ", "") .. "\n"), c .. ": " .. pl)
        end
      end
    end
    out, code = kontor("help bogus 2>&1")
    assert.are.equal(2, code)
    assert.are.equal("kontor: help: no command 'bogus' (commands: repl, play, run, serve, sim, compare, sweep, "
      .. "worth, ladder, merge, --list, help)\nTry 'kontor --help'.\n", out)
  end)
end)

describe("docs/api.md", function()
  it("a text that does not fit gets the error the doc shows", function()
    local b = block_with(support.read("docs/api.md"), "'exchange ship 5' is not a legal action")
    local out = kontor("--players 2 --seed 3", '1\n1\n2\n2\nprint(select(2, g:apply("exchange ship 5")))\n')
    assert.truthy(support.has(out, lines(b)[1] .. "\n"), out)
  end)
end)

describe("docs/bots.md", function()
  it("the REPL's hint is the one the doc shows (kontor --seed 4)", function()
    local b = block_with(support.read("docs/bots.md"), "bot would play:")
    local out = kontor("--seed 4", "hint\n")
    local got = lines(out)
    local want = {}
    for _, l in ipairs(lines(b)) do
      if not l:match("^> ") and l ~= "  ..." then want[#want + 1] = l end
    end
    assert.are.equal(want[1], got[1])
    local have = set_of(got)
    for _, l in ipairs(want) do assert.is_true(have[l] ~= nil, "hint does not print: " .. l .. "\n" .. out) end
  end)
end)

describe("docs/protocol.md", function()
  it("the op table lists the ops serve has", function()
    local out = kontor("serve", '{"id":1,"op":"hello"}\n')
    local ops = {}
    for op in out:match('"ops":%[(.-)%]'):gmatch('"(%l+)"') do ops[#ops + 1] = op end
    local doc = support.read("docs/protocol.md")
    local documented = {}
    for op in doc:match("| op | fields.-\n\n"):gmatch("\n| `(%l+)` |") do documented[#documented + 1] = op end
    table.sort(documented)
    assert.are.same(ops, documented)
  end)
end)

describe("the lab's usage errors", function()
  -- the same mistake is a usage error (exit 2, with the hint) whether the
  -- plain simulation or the lab (--jobs, compare, sweep, worth, ladder) meets it
  local function usage(args, message)
    local out, code = kontor(args .. " 2>&1")
    assert.are.equal("kontor: " .. message .. "\nTry 'kontor --help'.\n", out)
    assert.are.equal(2, code, args)
  end

  it("an unknown rule option: exit 2, in sim alone and with --jobs", function()
    local opts = "(options: dock_at_once, exchange_new_ship, first_player, start_coins)"
    usage("sim --option zz=1 --games 2", "sim: unknown option 'zz' for sea_merchants " .. opts)
    usage("sim --option zz=1 --games 2 --jobs 2", "sim: unknown option 'zz' for sea_merchants " .. opts)
    usage("compare --a '--option zz=1' --b '' --games 2", "compare: unknown option 'zz' for sea_merchants " .. opts)
    usage("sweep --over zz=3,4 --games 2",
      "sweep: --over zz=3,4, the value 3: unknown option 'zz' for sea_merchants " .. opts)
  end)

  it("an unknown bot, a bot option or seat it does not have: exit 2", function()
    usage("compare --a '--bot 2=foo' --b '' --games 2",
      "compare: --a: --bot 2=foo: unknown bot 'foo' (bots: random, greedy, mcts)")
    usage("sim --bot 2=random:x=1 --games 2",
      "sim: --bot 2=random:x=1: the random bot has no option 'x' (options: avoid, prefer)")
    usage("sim --bot 7=random --games 2", "sim: --bot 7=random: there is no seat 7 (the game has 4 players)")
    usage("worth --bot foo", "worth: --bot foo: unknown bot 'foo' (bots: random, greedy, mcts)")
    usage("worth --bot random:x=1", "worth: --bot random:x=1: the random bot has no option 'x' (options: avoid, prefer)")
  end)

  it("an unknown rule set or a player count out of range: exit 2", function()
    local avail = "(available: caribbean, delivered_payout, hand_limit, house, house_specials, old_world, "
      .. "port_royal, sea_merchants, snake_draft)"
    usage("ladder --rules nowhere random greedy", "ladder: unknown rule set or variant 'nowhere' " .. avail)
    usage("compare --rules nowhere --a '' --b ''", "compare: unknown rule set or variant 'nowhere' " .. avail)
    usage("compare --a '--players 9' --b '' --games 2", "compare: sea_merchants is for 2 to 4 players, not 9")
  end)

  it("a rule that fails in a game is still a failure: exit 1, no usage hint", function()
    local dir = support.tmpdir()
    local v = dir .. "/boom.lua"
    support.write(v, 'return { variant = true, name = "boom", base = "sea_merchants",\n'
      .. '  apply = function(R) R.setup = function() error("boom") end end }\n')
    local out, code = kontor("compare --a '' --b " .. q("--variant " .. v) .. " --games 2 --jobs 1 2>&1")
    assert.are.equal(1, code, out)
    assert.is_false(support.has(out, "Try 'kontor --help'"), out)
    os.execute("rm -rf " .. q(dir))
  end)
end)

describe("kontor ladder's header", function()
  it("names the seed, so a --seed random ladder can be played again", function()
    local out, code = kontor("ladder --seed random --deals 1 random random:avoid=buy 2>&1")
    assert.are.equal(0, code, out)
    local seed = out:match("^sea_merchants, 2 players: 1 deal %(seed (%d+)%), 2 games a pair, 2 games %(%d+ s of CPU%)\n")
    assert.truthy(seed, out)
    local again = kontor("ladder --seed " .. seed .. " --deals 1 random random:avoid=buy 2>&1")
    assert.are.equal(out:gsub("%d+ s of CPU", ""), (again:gsub("%d+ s of CPU", "")))
  end)
end)

describe("kontor run, a script that fails", function()
  it("shows the script's traceback, not the program's frames under it (exit 1)", function()
    local dir = support.tmpdir()
    local f = dir .. "/fails.lua"
    support.write(f, 'local function f() error("deep") end\nf()\n')
    local out, code = kontor("run " .. q(f) .. " 2>&1")
    assert.are.equal(1, code)
    assert.are.equal("kontor: " .. f .. ":1: deep\nstack traceback:\n\t[C]: in function 'error'\n\t"
      .. f .. ":1: in local 'f'\n\t" .. f .. ":2: in main chunk\n", out)
    os.execute("rm -rf " .. q(dir))
  end)
end)

-- An error Lua raises in C has no place in its first line ("attempt to
-- index a nil value" from the iterator of ipairs(nil)); the one-line
-- messages of the program add the rule script's file:line from the
-- traceback, and leave a message the script raised with error(text, 0) as
-- it is.
describe("a rule script's error with no place in its first line", function()
  local dir, here
  setup(function()
    dir = support.tmpdir()
    here = "cd " .. q(dir) .. " && "
    support.write(dir .. "/atload.lua", "for _ in ipairs(nil) do end\nreturn {}\n")
    support.write(dir .. "/atsetup.lua", 'local R = { name = "atsetup", players = { min = 2, max = 2, default = 2 } }\n'
      .. "function R.setup(g) for _ in ipairs(g.nothing) do end end\n"
      .. 'function R.play(g) g:choose(1, "x", { "a" }) end\n'
      .. "function R.scores() return { 0, 0 } end\nreturn R\n")
    support.write(dir .. "/inplay.lua", 'local R = { name = "inplay", players = { min = 2, max = 2, default = 2 } }\n'
      .. "function R.setup(g) end\n"
      .. 'function R.play(g)\n  g:choose(1, "x", { "a" })\n  for _ in ipairs(g.nothing) do end\nend\n'
      .. "function R.scores() return { 0, 0 } end\nreturn R\n")
  end)
  teardown(function() os.execute("rm -rf " .. q(dir)) end)

  local function run(args, stdin, env)
    local p = io.popen("realpath " .. q(BIN))
    local bin = p:read("l")
    p:close()
    return support.run(here .. (env or "") .. q(bin) .. " " .. args .. " 2>&1", stdin or "")
  end

  it("loading the rule set: its file and line", function()
    assert.are.same({ "kontor: attempt to index a nil value, in ./atload.lua:1\n", 1 }, { run("--rules ./atload.lua") })
    assert.are.same({ "kontor: sim: attempt to index a nil value, in ./atload.lua:1\n", 1 },
      { run("sim --rules ./atload.lua --games 1") })
  end)

  it("in R.setup and in a game of sim and compare", function()
    assert.are.same({ "kontor: setting up atsetup failed: attempt to index a nil value, in ./atsetup.lua:2\n", 1 },
      { run("--rules ./atsetup.lua") })
    local out, code = run("sim --rules ./inplay.lua --games 2")
    assert.are.equal(1, code)
    assert.are.equal("kontor: sim: game 1 of 2 (its seed 6869446166584666695) failed: attempt to index a nil value, "
      .. "in ./inplay.lua:5", lines(out)[1])
    out, code = run("compare --rules ./inplay.lua --a '' --b '' --games 2 --jobs 1")
    assert.are.equal(1, code)
    assert.are.equal("kontor: compare: game 1 (seed 6869446166584666695): attempt to index a nil value, in ./inplay.lua:5",
      lines(out)[1])
  end)

  it("serve's game_setup says where; a message raised with error(text, 0) stays as written", function()
    local out = run("serve", '{"id":1,"op":"new","rules":"./atsetup.lua"}\n'
      .. '{"id":2,"op":"new","rules":"caribbean","scenario":{"x":1}}\n')
    local l = lines(out)
    assert.are.equal('{"error":{"code":"game_setup","message":"setting up atsetup failed: attempt to index a nil '
      .. 'value, in ./atsetup.lua:2"},"id":1,"ok":false}', l[1])
    assert.are.equal('{"error":{"code":"game_setup","message":"setting up caribbean failed: scenario: unknown field '
      .. "'x'\"},\"id\":2,\"ok\":false}", l[2])
  end)

  it("kontor --list and serve's list: a broken file's one line says where, no traceback", function()
    local kp = dir .. "/path"
    os.execute("mkdir -p " .. q(kp))
    support.write(kp .. "/bad2.lua", "for _ in ipairs(nil) do end\nreturn {}\n")
    local out = run("--list", nil, "KONTOR_PATH=" .. q(kp) .. " ")
    local line = out:match("\n?(bad2 [^\n]*)")
    assert.truthy(line, out)
    assert.truthy(line:match("^bad2%s+broken%s+attempt to index a nil value, in " .. kp:gsub("%p", "%%%0")
      .. "/bad2%.lua:1$"), line)
    out = run("serve", '{"id":1,"op":"list"}\n', "KONTOR_PATH=" .. q(kp) .. " ")
    local json = require("kontor.core").json.decode(out)
    assert.are.same({ { name = "bad2", message = "attempt to index a nil value, in " .. kp .. "/bad2.lua:1" } },
      json.result.broken)
  end)

  it("kontor play: a move whose rule fails says where", function()
    local out = run("play --rules ./inplay.lua --seed 1", "a\n")
    assert.truthy(support.has(out, "\nattempt to index a nil value, in ./inplay.lua:5\n"), out)
  end)

  it("kontor run: an error value of the API says its message", function()
    support.write(dir .. "/nine.lua", "kontor.new_game{ players = 9 }\n")
    local out, code = run("run nine.lua")
    assert.are.equal(1, code)
    assert.are.equal("kontor: nine.lua:1: sea_merchants is for 2 to 4 players, not 9", lines(out)[1])
  end)
end)

-- docs/designing-variants.md, "Errors you may meet": each message of the
-- table is what kontor prints for that mistake.
describe("docs/designing-variants.md's errors", function()
  local dir
  local FILES = {
    ["my_specials.lua"] = 'return { variant = true, name = "my_specials", base = "sea_merchants", '
      .. 'replaces = { "the special cards" }, apply = function(R) end }\n',
    ["other.lua"] = 'return { variant = true, name = "other", base = "caribbean", apply = function(R) end }\n',
    ["broken.lua"] = 'return { variant = true, name = "broken", base = "sea_merchants",\n'
      .. "  apply = function(R) local x = R.nothing.foo end }\n",
    ["mine.lua"] = 'return { variant = true, name = "mine", base = "sea_merchant", apply = function(R) end }\n',
    ["mine2.lua"] = 'return { variant = true, name = "mine", base = "sea_merchants",\n'
      .. '  options = { amount = { default = "three", type = "integer" } }, apply = function(R) end }\n',
    ["loop.lua"] = 'return { variant = true, name = "loop", base = "sea_merchants",\n  apply = function(R)\n'
      .. "    local x = 0\n    while true do x = x + 1 end\n  end }\n",
    ["io.lua"] = 'return { variant = true, name = "iov", base = "sea_merchants",\n  apply = function(R)\n'
      .. '    local f = io.open("/etc/passwd")\n  end }\n',
    ["gone.lua"] = 'return { variant = true, name = "gone", base = "sea_merchants", apply = function(R) end }\n',
  }
  -- the row's first words -> what makes the mistake, and the file the doc's message names
  local CASES = {
    { "`variants house_specials and my_specials", "--variant house_specials --variant ./my_specials.lua" },
    { "`unknown option 'sise'", "--variant hand_limit:sise=3" },
    { "`./other.lua:1: variant other is for", "--rules sea_merchants --variant ./other.lua" },
    { "`./broken.lua:2:", "--variant ./broken.lua" },
    { "`./mine.lua: base", "--variant ./mine.lua" },
    { "`./mine.lua:2: option amount of mine", "--variant ./mine2.lua", file = "./mine2.lua" },
    { "`time limit reached", "--variant ./loop.lua" },
    { "`./mine.lua:4: attempt to index a nil value (global 'io')", "--variant ./io.lua", "io", "3" },
    { "`save.json: variant ./mine.lua", "--seed 1", "gone", nil, "load save.json\n" },
  }
  setup(function()
    dir = support.tmpdir()
    for name, text in pairs(FILES) do support.write(dir .. "/" .. name, text) end
    local p = io.popen("realpath " .. q(BIN))
    local bin = p:read("l")
    p:close()
    support.run("cd " .. q(dir) .. " && " .. q(bin) .. " --variant ./gone.lua --seed 1 --players 2", "save save.json\n")
    os.remove(dir .. "/gone.lua")
    dir = { path = dir, bin = bin }
  end)
  teardown(function() os.execute("rm -rf " .. q(dir.path)) end)

  it("each message of the table is printed for its mistake", function()
    local doc = support.read("docs/designing-variants.md")
    local tbl = doc:match("### Errors you may meet\n(.*)$")
    for _, c in ipairs(CASES) do
      local row = tbl:match("\n| (" .. c[1]:gsub("%p", "%%%0") .. "[^`]*)`")
      assert.truthy(row, c[1])
      local want = row:sub(2)
      if c[3] then want = want:gsub("mine", c[3]) end
      if c[4] then want = want:gsub(":4:", ":" .. c[4] .. ":") end
      if c.file then want = want:gsub("^%./mine%.lua", c.file) end
      local out = support.run("cd " .. q(dir.path) .. " && " .. q(dir.bin) .. " " .. c[2] .. " 2>&1", c[5])
      assert.truthy(support.has(out, want), "the doc: " .. want .. "\nkontor " .. c[2] .. ":\n" .. out)
    end
  end)

  it("a variant's list is added only where a variant does not fit its rule set", function()
    local out = kontor("--variant hand_limit --players 9 2>&1")
    assert.are.equal("kontor: sea_merchants is for 2 to 4 players, not 9\nTry 'kontor --help'.\n", out)
    out = kontor("--variant hand_limit:sise=3 2>&1")
    assert.are.equal("kontor: unknown option 'sise' for hand_limit (options: overflow, per_warehouse, size): "
      .. "did you mean 'size'?\n"
      .. "Try 'kontor --help'.\n", out)
    out = kontor("--rules caribbean --variant house 2>&1")
    assert.are.equal("kontor: " .. require("kontor.rules").find("house") .. ":8: variant house is for sea_merchants, "
      .. "not caribbean (variants of caribbean: port_royal)\n"
      .. "Try 'kontor --help'.\n", out)
  end)
end)
