-- The kontor command line, driven through the real binary.

local support = require "tests.lua.support"

local BIN = support.plain_binary()
local function kontor_cmd(args, stdin) return support.run(BIN .. " " .. args, stdin) end

describe("kontor", function()
  it("--version prints the version and exits 0", function()
    local out, code = kontor_cmd("--version")
    assert.are.equal(0, code)
    assert.are.equal("kontor " .. kontor.version .. "\n", out)
  end)

  it("--help lists the commands and exit codes", function()
    local out, code = kontor_cmd("--help")
    assert.are.equal(0, code)
    for _, word in ipairs { "repl", "--list", "run FILE.lua", "sim [SETUP OPTIONS]", "--rules NAME|FILE", "--json", "Exit status" } do
      assert.truthy(out:find(word, 1, true), word)
    end
  end)

  it("--list shows each entry's title, then its summary where the line has room, one line each", function()
    local out, code = kontor_cmd("--list")
    assert.are.equal(0, code)
    assert.truthy(out:find("\nsea_merchants     rules                      Sea Merchants               Reiner Knizia's "
      .. "trading...\n", 1, true), out)
    assert.truthy(out:find("\nport_royal        variant of caribbean       Port Royal                  Port Royal "
      .. "edition of...\n", 1, true), out)
    for line in out:gmatch("[^\n]+") do
      assert.truthy(line:match("^[%w_%-]+%s"))
      assert.truthy(#line <= 100, line)
    end
    -- a wider terminal ($COLUMNS) has room for the whole summary, a narrow one for none
    out = support.run("COLUMNS=200 " .. BIN .. " --list")
    assert.truthy(out:find("\nsnake_draft       variant of sea_merchants   Snake draft                 snake-draft "
      .. "loading: the last player loads first, then back from the first (H3)\n", 1, true), out)
    out = support.run("COLUMNS=60 " .. BIN .. " --list")
    assert.truthy(out:find("\nhand_limit        variant of sea_merchants   Hand limit\n", 1, true), out)
  end)

  it("an unknown command is a usage error (2)", function()
    local out, code = kontor_cmd("frobnicate")
    assert.are.equal(2, code)
    assert.truthy(out:find("unknown command 'frobnicate'", 1, true))
  end)

  describe("run", function()
    it("runs a script with the API and its arguments; its integer result is the exit status", function()
      local f = os.tmpname()
      local h = assert(io.open(f, "w"))
      h:write([[
local g = kontor.new_game{ players = tonumber(arg[1]), seed = 3 }
print(g.players, #g:options() > 0, arg[2])
return 7
]])
      h:close()
      local out, code = kontor_cmd("run " .. f .. " 3 hello")
      os.remove(f)
      assert.are.equal(7, code)
      assert.are.equal("3\ttrue\thello\n", out)
    end)

    it("a script error gives a message with file:line and exit status 1", function()
      local f = os.tmpname()
      local h = assert(io.open(f, "w")); h:write("local x = nil\nreturn x.y\n"); h:close()
      local out, code = kontor_cmd("run " .. f)
      os.remove(f)
      assert.are.equal(1, code)
      assert.truthy(out:find(f .. ":2:", 1, true))
    end)

    it("a missing script is a failure (1) naming the file", function()
      local out, code = kontor_cmd("run /nonexistent/x.lua")
      assert.are.equal(1, code)
      assert.truthy(out:find("/nonexistent/x.lua", 1, true))
    end)
  end)

  describe("sim", function()
    it("prints a summary with games, turns, wins and scores per seat", function()
      local out, code = kontor_cmd("sim --rules tests/rulesets/race.lua --players 3 --games 50 --seed 4")
      assert.are.equal(0, code)
      assert.truthy(out:find("games        50 (seed 4)", 1, true))
      assert.truthy(out:match("mean turns%s+[%d.]+"))
      assert.truthy(out:match("wins%s+1: %d+  2: %d+  3: %d+"))
      assert.truthy(out:match("mean score%s+1: [%d.]+"))
      -- (a run under a millisecond has no speed to tell: sim_speed_text_spec)
      assert.truthy(out:match("speed%s+%d+ games/s") or out:find("speed        under 1 ms in all", 1, true), out)
    end)

    it("--json gives one JSON object, the same for the same seed", function()
      local a, ca = kontor_cmd("sim --rules tests/rulesets/race.lua --players 2 --games 200 --seed 9 --json")
      local b = kontor_cmd("sim --rules tests/rulesets/race.lua --players 2 --games 200 --seed 9 --json")
      assert.are.equal(0, ca)
      local ja, jb = kontor.json.decode(a), kontor.json.decode(b)
      assert.are.equal(200, ja.games)
      assert.are.equal(200, ja.wins[1] + ja.wins[2] - ja.shared_wins)
      for _, k in ipairs { "seconds", "games_per_second" } do ja[k], jb[k] = nil, nil end
      assert.are.same(ja, jb)
      local c = kontor.json.decode((kontor_cmd("sim --rules tests/rulesets/race.lua --players 2 --games 200 --seed 10 --json")))
      c.seconds, c.games_per_second = nil, nil
      assert.are_not.same(ja, c)
    end)

    it("takes options: --option target=3 makes games shorter", function()
      local long = kontor.json.decode((kontor_cmd("sim --rules tests/rulesets/race.lua --players 2 --games 100 --json")))
      local short = kontor.json.decode((kontor_cmd("sim --rules tests/rulesets/race.lua --players 2 --games 100 --option target=3 --json")))
      assert.truthy(short.mean_turns < long.mean_turns)
    end)

    it("takes variants with options, including a preset's member.option", function()
      local out, code = kontor_cmd("sim --variant house:hand_limit.size=5,delivered_payout.count=delivered --players 3 --games 20 --json")
      assert.are.equal(0, code, out)
      -- the summary names each variant with its options (issue 13)
      assert.are.same({ "house:delivered_payout.count=delivered,hand_limit.size=5" }, kontor.json.decode(out).variants)
      out, code = kontor_cmd("sim --variant hand_limit:size=5 --option start_coins=2 --players 2 --games 2")
      assert.are.equal(0, code, out)
      assert.truthy(out:find("rules        sea_merchants + hand_limit:size=5\noptions      start_coins=2\n", 1, true), out)
      out, code = kontor_cmd("sim --variant hand_limit:size=five --games 1")
      assert.are.equal(2, code)
      assert.truthy(out:find("option size of hand_limit: 'five' is not a whole number", 1, true))
    end)

    it("usage errors exit 2 with a clear message", function()
      local out, code = kontor_cmd("sim --players lots")
      assert.are.equal(2, code)
      assert.truthy(out:find("--players must be a whole number, not 'lots'", 1, true))
      out, code = kontor_cmd("sim --bogus 1")
      assert.are.equal(2, code)
      assert.truthy(out:find("unknown option '--bogus'", 1, true))
    end)

    it("an unknown rule set or a bad player count is a usage error (2) and says what exists", function()
      local out, code = kontor_cmd("sim --rules nosuch --games 1")
      assert.are.equal(2, code)
      assert.truthy(out:find("unknown rule set or variant 'nosuch'", 1, true))
      assert.truthy(out:find("sea_merchants", 1, true))
      out, code = kontor_cmd("sim --rules sea_merchants --players 9 --games 1")
      assert.are.equal(2, code)
      assert.truthy(out:find("2 to 4 players, not 9", 1, true))
    end)

    it("a failing game names its index and seed and the command that plays it alone (1)", function()
      local dir = os.tmpname(); os.remove(dir); os.execute("mkdir " .. dir)
      local f = io.open(dir .. "/crash.lua", "w")
      f:write([[return { variant = true, base = "sea_merchants", apply = function(R)
  R.constraints[#R.constraints + 1] = function(g, seat, name, text)
    if name == "phase1" and g.turn > 3 then error("constraint exploded") end
  end
end }
]])
      f:close()
      local out, code = kontor_cmd("sim --variant " .. dir .. "/crash.lua --players 2 --games 5 --seed 3")
      assert.are.equal(1, code)
      local i, _, cmd = out:match("^kontor: sim: game (%d+) of 5 %(its seed (%-?%d+)%) failed: [^\n]*/crash.lua:3: constraint exploded\nReproduce it alone: (kontor sim [^\n]+)\n$")
      assert.truthy(i, out)
      assert.are.equal("kontor sim --variant " .. dir .. "/crash.lua --players 2 --seed 3 --games 5 --game " .. i, cmd)
      local again, code2 = kontor_cmd(cmd:gsub("^kontor ", ""))
      assert.are.equal(1, code2)
      assert.are.equal(out, again)
      os.execute("rm -rf " .. dir)
    end)

    it("an error in a variant file is one line with file:line and exit 1, no usage hint", function()
      local dir = os.tmpname(); os.remove(dir); os.execute("mkdir " .. dir)
      local f = io.open(dir .. "/syn.lua", "w")
      f:write('return { variant = true, base = "sea_merchants",\n apply = function(R) R.x( end }\n')
      f:close()
      f = io.open(dir .. "/boom.lua", "w")
      f:write('return { variant = true, base = "sea_merchants",\n apply = function(R)\n error("boom") end }\n')
      f:close()
      for _, c in ipairs { { "syn.lua", ":2: unexpected symbol near 'end'" }, { "boom.lua", ":3: boom" } } do
        for _, cmd in ipairs { "--variant ", "play --variant ", "sim --games 1 --variant " } do
          local out, code = kontor_cmd(cmd .. dir .. "/" .. c[1])
          assert.are.equal(1, code, cmd .. out)
          assert.are.equal("kontor: " .. (cmd:match("^sim") and "sim: " or "") .. dir .. "/" .. c[1] .. c[2] .. "\n", out)
        end
      end
      os.execute("rm -rf " .. dir)
    end)

    it("--list keeps to one line an entry, whatever a KONTOR_PATH folder holds", function()
      local dir = os.tmpname(); os.remove(dir); os.execute("mkdir " .. dir)
      local function put(name, text) local f = io.open(dir .. "/" .. name, "w"); f:write(text); f:close() end
      put("helper.lua", 'error("no\\nway\\n\\27[2J")\n')
      put("broken.lua", "local x = \n")
      put("notes.lua", 'return "a string"\n')
      put("README.txt", "hi\n")
      local p = io.popen("KONTOR_PATH=" .. dir .. " " .. BIN .. " --list 2>&1")
      local out = p:read("a")
      p:close()
      local n = 0
      for _ in out:gmatch("[^\n]*\n") do n = n + 1 end
      local installed = #kontor.list()
      assert.are.equal(installed + 3, n, out)
      assert.truthy(out:find("\nhelper%s+broken%s+[^\n]*/helper.lua:1: no\n") or out:find("^[^\n]*helper%s+broken"), out)
      assert.falsy(out:find("\27", 1, true))
      os.execute("rm -rf " .. dir)
    end)

    it("--list lines its columns up in characters: a base in other letters shifts none", function()
      local dir = os.tmpname(); os.remove(dir); os.execute("mkdir " .. dir)
      local f = io.open(dir .. "/kase.lua", "w")   -- its base "k\195\164se": 5 bytes, 4 characters
      f:write('return { variant = true, base = "k\195\164se", title = "T\195\164st", summary = "s", '
        .. 'apply = function() end }\n')
      f:close()
      local p = io.popen("KONTOR_PATH=" .. dir .. " " .. BIN .. " --list 2>&1")
      local out = p:read("a")
      p:close()
      os.execute("rm -rf " .. dir)
      local function column(line, word) return utf8.len(line:sub(1, line:find(word, 1, true) - 1)) end
      local mine = out:match("\n(kase [^\n]*)") or out:match("^(kase [^\n]*)")
      local theirs = out:match("\n(hand_limit [^\n]*)")
      assert.truthy(mine and theirs, out)
      -- the title column starts at the same character on both lines
      assert.are.equal(column(theirs, "Hand limit"), column(mine, "T\195\164st"), out)
    end)

    it("--names refuses empty and repeated names (2)", function()
      local out, code = kontor_cmd("--names Ann,,Bob")
      assert.are.equal(2, code)
      assert.truthy(out:find("--names Ann,,Bob: name 2 is empty", 1, true), out)
      out, code = kontor_cmd("play --names Ann,Bob,ann")
      assert.are.equal(2, code)
      assert.truthy(out:find("'ann' is given twice", 1, true), out)
    end)
  end)

  describe("repl, scripted", function()
    it("evaluates expressions and statements from a pipe, with no prompt", function()
      local out, code = kontor_cmd("--seed 5 --players 2", "1 + 2\nx = 40\n=x + 2\ng.players\n")
      assert.are.equal(0, code)
      assert.are.equal("3\n42\n2\n", out)
    end)

    it("continues incomplete input on the next line", function()
      local out = kontor_cmd("", "function f(a)\n  return a * 2\nend\nf(21)\n")
      assert.are.equal("42\n", out)
    end)

    it("prints an error and goes on", function()
      local out, code = kontor_cmd("", "error('boom')\n'after'\n")
      assert.are.equal(0, code)
      assert.truthy(out:find("boom", 1, true))
      assert.truthy(out:find('\nafter\n', 1, true))
    end)

    it("plays, undoes and reports an illegal move", function()
      local out = kontor_cmd("--players 2 --seed 1",
        "g:apply(1)\n#g:actions()\ng:undo()\n#g:actions()\ng:apply('fly to the moon')\n")
      local lines = {}
      for l in out:gmatch("[^\n]+") do lines[#lines + 1] = l end
      assert.are.equal("true", lines[1])
      assert.are.equal("1", lines[2])
      assert.are.equal("1", lines[3])
      assert.are.equal("0", lines[4])
      assert.truthy(lines[5]:find("'fly to the moon' is not a legal action", 1, true))
    end)
  end)
end)
