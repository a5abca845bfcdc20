-- The REPL, its game commands and play mode, driven through the real binary:
-- through pipes for the scripted path, through tmux (a pseudo-terminal) for
-- completion, history, Ctrl-C and colour.

local BIN = os.getenv("KONTOR_PLAIN") or "build/kontor"
local tmux = dofile("tests/repl/tmux.lua")

local function write(path, s) local f = assert(io.open(path, "w")); f:write(s); f:close() end
local function read(path) local f = assert(io.open(path)); local s = f:read("a"); f:close(); return s end

local function sh(cmd, stdin)
  local tmp = os.tmpname()
  local full = string.format("%s >%s 2>&1", cmd, tmp)
  local inp
  if stdin then
    inp = os.tmpname()
    write(inp, stdin)
    full = full .. " <" .. inp
  else
    full = full .. " </dev/null"
  end
  local _, how, code = os.execute(full)
  local out = read(tmp)
  os.remove(tmp)
  if inp then os.remove(inp) end
  return out, (how == "exit" and code or 128 + code)
end

local function kontor_cmd(args, stdin) return sh(BIN .. " " .. args, stdin) end

local function tmpdir()
  local p = io.popen("mktemp -d"); local d = p:read("l"); p:close(); return d
end

local function lines(s)
  local t = {}
  for l in s:gmatch("[^\n]*") do t[#t + 1] = l end
  return t
end

local function has(s, needle) return s:find(needle, 1, true) ~= nil end

describe("kontor repl, scripted (stdin is a pipe)", function()
  it("help lists every command", function()
    local out = kontor_cmd("", "help\n")
    for _, c in ipairs { "board", "options", "do N", "why TEXT", "undo", "redo", "auto", "moves",
      "log", "result", "new", "save FILE", "load FILE", "replay FILE", "next", "prev",
      "view SEAT", "as SEAT", "bot SEAT=KIND", "bots", "reload", "help", "quit" } do
      assert.truthy(has(out, c), c)
    end
  end)

  it("board and numbered options; a number, an option text, do N and do TEXT all move", function()
    local out, code = kontor_cmd("--players 3 --seed 7",
      "board\noptions\n1\nload grain on ship 2\ndo 3\ndo load fish on ship 2\n=#g:actions()\n")
    assert.are.equal(0, code)
    assert.truthy(has(out, "Sea Merchants - loading, Player 1 to act"))
    assert.truthy(has(out, "Player 1 to choose (load)."))
    assert.truthy(out:match("\n%s+1  load grain on ship 1\n%s+2  load grain on ship 2\n"))
    assert.truthy(has(out, "Player 1 loads grain on ship 1\n"))
    assert.truthy(has(out, "Player 2 loads grain on ship 2\n"))
    assert.truthy(has(out, "Player 3 loads wood on ship 1\n"))
    assert.truthy(has(out, "Player 1 loads fish on ship 2\n"))
    assert.truthy(out:match("\n4\n$"))
  end)

  it("why explains; an illegal action is one message and changes nothing", function()
    local out = kontor_cmd("--players 3 --seed 7",
      "why load fish on ship 9\nwhy load grain on ship 1\ndo load fish on ship 9\ndo 99\nload fish on ship 9\n=#g:actions()\n")
    local l = lines(out)
    assert.truthy(l[1]:find("you have no ship 9", 1, true))
    assert.are.equal("'load grain on ship 1' is legal now.", l[2])
    assert.truthy(l[3]:find("'load fish on ship 9' is not a legal action", 1, true))
    assert.are.equal("option 99 does not exist (there are 12)", l[4])
    assert.truthy(l[5]:find("'load fish on ship 9' is not a legal action", 1, true))
    assert.are.equal("0", l[6])
  end)

  it("undo and redo whole moves; moves and log", function()
    local out = kontor_cmd("--players 3 --seed 7",
      "1\n1\n1\nundo 2\n=#g:moves()\nredo\n=#g:moves()\nmoves\nlog 1\nundo 5\nredo 9\n=#g:moves()\nredo\n")
    assert.truthy(has(out, "Undid 2 moves: Player 2: load grain on ship 1; Player 3: load grain on ship 1\nPlayer 2 to choose (load).\n1\n"))
    assert.truthy(has(out, "\nPlayer 2 loads grain on ship 1\nRedid 1 move.\nPlayer 3 to choose (load).\n2\n"))
    assert.truthy(has(out, "\n1  Player 1: load grain on ship 1\n2  Player 2: load grain on ship 1\nPlayer 2 loads grain on ship 1\n"))
    assert.truthy(has(out, "Undid 2 moves: Player 1: load grain on ship 1; Player 2: load grain on ship 1\n"))
    assert.truthy(has(out, "Redid 3 moves.\nPlayer 1 to choose (load).\n3\nNothing to redo.\n"))
  end)

  it("a move of several steps: the options go on, and undo takes the whole move back", function()
    local out = kontor_cmd("--players 2 --seed 3",
      "auto 4\noptions\ndo 1\ndo 1\n=#g:actions()\n=#g:moves()\nundo\n=#g:actions()\ndo exchange ship 1 to fish\n=g:moves()[5]\n")
    assert.truthy(has(out, "Played 4 of your moves (4 moves in all).\nPlayer 1 to choose (phase1).\n  1  exchange\n  2  pass\n"))
    assert.truthy(has(out, "The move goes on:\n  1  exchange ship 1\n  2  exchange ship 2\nThe move goes on:\n  1  exchange ship 1 to grain\n"))
    assert.truthy(has(out, "\n6\n5\nUndid 1 move: Player 1: exchange ship 1\nPlayer 1 to choose (phase1).\n4\n"))
    assert.truthy(has(out, '"1: exchange ship 1 to fish"'))
  end)

  it("a full game against two random bots, through commands only, ends with scores and the winner", function()
    local script = read("tests/repl/full_game_vs_bots.txt")
    local args = "--players 3 --seed 11 --names Ann,Bob,Cy --bot 2=random --bot 3=random"
    local out, code = kontor_cmd(args, script)
    assert.are.equal(0, code)
    assert.truthy(has(out, "Ann loads "))
    assert.truthy(has(out, "Bob loads "))
    assert.truthy(has(out, "Game over. Final scores:"))
    assert.truthy(out:match("\n  Ann%s+%d+"))
    assert.truthy(out:match("\nWinners?: [%a, ]+\n"))
    -- the bots are seeded from the game seed: the same game again
    local again = kontor_cmd(args, script)
    assert.are.equal(out, again)
    assert.falsy(has(out, "\27"))
  end)

  it("undo with bots takes back your move and the bots' replies", function()
    local out = kontor_cmd("--players 3 --seed 7 --bot 2=random --bot 3=random",
      "1\nundo\n=#g:moves()\n=g:who()\n")
    assert.truthy(has(out, "Undid 3 moves: Player 1: load grain on ship 1; Player 2: "))
    assert.truthy(out:match("\n0\n1\n$"))
  end)

  it("save, load and replay a game; the loaded game is the same game", function()
    local dir = tmpdir()
    local f = dir .. "/g.json"
    local out = kontor_cmd("--players 3 --seed 7",
      "1\n2\n3\nsave " .. f .. "\nnew seed=9\n=#g:moves()\nload " .. f .. "\n=#g:moves()\n=g:moves()[3]\n")
    assert.truthy(has(out, "Saved 3 moves to " .. f .. "."))
    assert.truthy(has(out, "New game: Sea Merchants, 3 players (Player 1, Player 2, Player 3), seed 9."))
    assert.truthy(has(out, "Loaded " .. f .. ": Sea Merchants, 3 players (Player 1, Player 2, Player 3), seed 7; 3 moves."))
    assert.truthy(out:match('\n3\n"3: load wood on ship 1"\n$'))
    -- another process: load, then replay step by step
    local out2 = kontor_cmd("", "load " .. f .. "\nmoves\nreplay " .. f .. "\nnext\nnext 2\nnext\nprev\n=#g:moves()\n")
    assert.truthy(has(out2, "Replaying " .. f .. ": Sea Merchants, 3 players"))
    assert.truthy(has(out2, "1  Player 1: load grain on ship 1\nPlayer 1 loads grain on ship 1\n(move 1 of 3)"))
    assert.truthy(has(out2, "(move 3 of 3)"))
    assert.truthy(has(out2, "At the end (move 3 of 3)."))
    assert.truthy(has(out2, "Back: Player 3: load wood on ship 1 (move 2 of 3)"))
    assert.truthy(out2:match("\n2\n$"))
    os.execute("rm -rf " .. dir)
  end)

  it("load of a missing or broken file is one message; the game stays", function()
    local out = kontor_cmd("--players 3 --seed 7", "1\nload /nonexistent/x.json\n=#g:moves()\n")
    assert.truthy(has(out, "/nonexistent/x.json"))
    assert.truthy(out:match("\n1\n$"))
  end)

  it("reload of a changed rule script keeps the game; a move made illegal stops the replay before it", function()
    local dir = tmpdir()
    local rules = dir .. "/sea_merchants.lua"
    write(rules, read("variants/sea_merchants.lua"))
    local edit = function(from, to)
      return string.format([[do local f = io.open(%q) local s = f:read("a") f:close() f = io.open(%q, "w") f:write((s:gsub(%q, %q))) f:close() end]],
        rules, rules, from, to) .. "\n"
    end
    local out, code = kontor_cmd("--rules " .. rules .. " --players 3 --seed 7",
      "1\n1\n1\n" .. edit("loads %%s on ship", "stows %%s on ship") .. "reload\n=#g:moves()\nlog\n"
      .. edit('{ "load", name', '{ "stow", name') .. "reload\n=#g:moves()\noptions\n")
    assert.are.equal(0, code)
    assert.truthy(has(out, "Reloaded the rules of sea_merchants; replayed 3 moves."))
    assert.truthy(has(out, "\n3\nPlayer 1 stows grain on ship 1\n"))
    assert.truthy(has(out, "reloaded; stopped before move 1 '1: load grain on ship 1'"))
    assert.truthy(out:match("\n0\n%s+1  stow grain on ship 1\n"))
    os.execute("rm -rf " .. dir)
  end)

  it("new takes k=v settings and reports bad ones; the game stays", function()
    local out = kontor_cmd("--players 3", "new players=2 seed=4 names=A,B\n=g.players\nnew players=9\n=g.players\nnew rules=nosuch\n")
    assert.truthy(has(out, "New game: Sea Merchants, 2 players (A, B), seed 4."))
    assert.truthy(has(out, "is for 2 to 4 players, not 9"))
    assert.truthy(out:match("\n2\n[^\n]*\n2\n"))
    assert.truthy(has(out, "unknown rule set or variant 'nosuch'"))
  end)

  it("view and as show a seat's view: other hands hidden", function()
    local out = kontor_cmd("--players 3 --seed 7", "view 1\nas 2\nboard\nas all\nview Bob\n")
    assert.truthy(has(out, "> Player 1: 0 coins; ships empty, empty; no special cards; hand 3 cards: grain, grain, porcelain\n  Player 2: 0 coins; ships empty, empty; no special cards; hand 3 cards\n"))
    assert.truthy(has(out, "Showing what Player 2 (seat 2) sees"))
    assert.truthy(has(out, "> Player 1: 0 coins; ships empty, empty; no special cards; hand 3 cards\n  Player 2: 0 coins; ships empty, empty; no special cards; hand 3 cards: grain, porcelain, fish\n"))
    assert.truthy(has(out, "no seat 'Bob' (seats: 1 Player 1, 2 Player 2, 3 Player 3)"))
  end)

  it("Lua still works: expressions, =expr, statements, continuation; g prints as the board", function()
    local out = kontor_cmd("--players 2 --seed 5", "x = {1, 2, a = {b = 3}}\nx\n=x.a.b\nfunction f(n)\n return n * 2\nend\nf(21)\ng\nt = {} t.t = t\nt\n")
    local l = lines(out)
    assert.are.equal('{ 1, 2, a = { b = 3 } }', l[1])
    assert.are.equal("3", l[2])
    assert.are.equal("42", l[3])
    assert.truthy(l[4]:find("^Sea Merchants %- loading"))
    assert.truthy(has(out, "{ t = <cycle> }"))
  end)

  it("no prompt, no banner and no escape codes in piped output, even when errors are printed", function()
    local out = kontor_cmd("--players 2", "error('x')\ndo 99\nfoo bar\n")
    assert.falsy(has(out, "\27"))
    assert.falsy(has(out, "> "))
    assert.falsy(has(out, "Kontor "))
  end)

  it("the program starts within 50 ms (best of 5, to the end of an empty script)", function()
    local best = math.huge
    for _ = 1, 5 do
      local out = sh("s=$(date +%s%N); " .. BIN .. " --players 3 </dev/null; e=$(date +%s%N); echo $(( (e - s) / 1000000 ))")
      best = math.min(best, tonumber(out:match("(%d+)%s*$")))
    end
    assert.truthy(best < 50, best .. " ms")
  end)
end)

describe("docs/repl.md", function()
  it("every transcript of the tour prints what the doc shows", function()
    local tour = dofile("tests/repl/tour.lua")
    os.execute("rm -rf /tmp/tour")
    local steps = tour.run_all(BIN, read("docs/repl.md"))
    local checked = 0
    for _, s in ipairs(steps) do
      if s.kind == "shell" then
        assert.truthy(s.ok, s.cmd)
      else
        for i, c in ipairs(s.cmds) do
          assert.are.equal(s.outs[i], s.got[i], "kontor " .. s.args .. "\n> " .. c)
          checked = checked + 1
        end
      end
    end
    assert.truthy(checked >= 25, checked .. " commands checked")
    os.execute("rm -rf /tmp/tour")
  end)

  it("the tour's banner is what a terminal shows", function()
    if not tmux.available() then return pending("tmux is not installed") end
    local tour = dofile("tests/repl/tour.lua")
    local steps = tour.parse(read("docs/repl.md"))
    local home = tmpdir()
    os.execute("mkdir -p /tmp/tour && cp variants/sea_merchants.lua /tmp/tour/")
    for _, s in ipairs(steps) do
      if s.kind == "kontor" and #s.banner > 0 then
        local t = tmux.start(BIN .. " " .. s.args, { HOME = home, NO_COLOR = "1" }, 200, 40)
        local screen = t:wait_for("\n>$")
        t:stop()
        assert.truthy(screen, "no prompt")
        assert.are.equal(table.concat(s.banner, "\n") .. "\n>", screen)
      end
    end
    os.execute("rm -rf /tmp/tour " .. home)
  end)
end)

describe("kontor startup errors", function()
  it("an unknown rule set lists what exists", function()
    local out, code = kontor_cmd("--rules nosuch")
    assert.are.equal(2, code)
    assert.truthy(has(out, "unknown rule set or variant 'nosuch'"))
    assert.truthy(has(out, "sea_merchants"))
  end)

  it("a variant that does not fit lists the variants that do", function()
    local out, code = kontor_cmd("--rules caribbean --variant house")
    assert.are.equal(2, code)
    assert.truthy(has(out, "variant house is for sea_merchants, not caribbean (variants of caribbean: port_royal)"), out)
    out, code = kontor_cmd("--variant nosuch")
    assert.are.equal(2, code)
    assert.truthy(has(out, "unknown rule set or variant 'nosuch' (available: "), out)
  end)

  it("a bad player count says the range", function()
    local out, code = kontor_cmd("play --players 9")
    assert.are.equal(2, code)
    assert.truthy(has(out, "2 to 4 players, not 9"))
  end)

  it("bad bots list the kinds and the seats", function()
    local out, code = kontor_cmd("play --players 3 --bot 2=genius")
    assert.are.equal(2, code)
    assert.truthy(has(out, "unknown bot 'genius' (bots: random)"))
    out, code = kontor_cmd("play --players 3 --bot 5=random")
    assert.are.equal(2, code)
    assert.truthy(has(out, "there is no seat 5 (the game has 3 players)"))
    out, code = kontor_cmd("play --bot two")
    assert.are.equal(2, code)
    assert.truthy(has(out, "expected SEAT=KIND"))
  end)

  it("--names alone sets the number of players", function()
    local out, code = kontor_cmd("--names Ann,Bob,Cem,Dan", "=g.players\n=g.names[4]\n")
    assert.are.equal(0, code)
    assert.are.equal('4\n"Dan"\n', out)
  end)

  it("--help shows play and --bot", function()
    local out = kontor_cmd("--help")
    assert.truthy(has(out, "[repl|play]"))
    assert.truthy(has(out, "--bot SEAT=KIND"))
  end)
end)

describe("kontor play, scripted", function()
  it("hot-seat: each person sees only their own hand; a hand-over line between seats", function()
    local out, code = kontor_cmd("play --players 2 --seed 3 --names Ann,Bob", "1\n1\n")
    assert.are.equal(0, code)
    assert.truthy(has(out, "--- Ann's turn (seat 1) ---"))
    assert.truthy(has(out, "--- Bob's turn (seat 2) ---"))
    local ann = out:match("%-%-%- Ann's turn.-%-%-%- Bob")
    assert.truthy(ann:match("> Ann: [^\n]*hand 3 cards: "))
    assert.truthy(ann:match("\n  Bob: [^\n]*hand 3 cards\n"))
    local bob = out:match("%-%-%- Bob's turn.*")
    assert.truthy(bob:match("\n  Ann: [^\n]*hand 3 cards\n"))
    assert.truthy(bob:match("> Bob: [^\n]*hand 3 cards: "))
    assert.truthy(has(out, "Ann, your move (load):"))
  end)

  it("against two bots: the game runs to the end, then the scores and the winner", function()
    local out, code = kontor_cmd("play --players 3 --seed 11 --bot 2=random --bot 3=random",
      read("tests/repl/full_game_vs_bots.txt"))
    assert.are.equal(0, code)
    assert.falsy(has(out, "---"))    -- one person: no hand-over
    assert.truthy(has(out, "Sea Merchants - game over"))
    assert.truthy(has(out, "Game over. Final scores:"))
    assert.truthy(out:match("\nWinners?: [%w ,]+\n$"))
  end)

  it("all seats bots: the game plays itself", function()
    local out, code = kontor_cmd("play --players 2 --seed 2 --bot 1=random --bot 2=random")
    assert.are.equal(0, code)
    assert.truthy(has(out, "Game over. Final scores:"))
  end)
end)

local pty = tmux.available() and describe or pending

pty("kontor in a terminal (tmux)", function()
  local home
  local sessions = {}
  before_each(function() home = tmpdir() end)
  after_each(function()
    for _, t in ipairs(sessions) do t:stop() end   -- also when a test failed
    sessions = {}
    os.execute("rm -rf " .. home)
  end)

  local function start(args, env)
    env = env or {}
    env.HOME = home
    local t = tmux.start(BIN .. " " .. args, env)
    sessions[#sessions + 1] = t
    assert.truthy(t:wait_for("\n>$"), "no prompt")
    return t
  end

  it("shows a banner and a prompt; TAB completes methods: g:op -> g:options(", function()
    local t = start("--players 3 --seed 7", { NO_COLOR = "1" })
    local s = t:screen()
    assert.truthy(has(s, "Kontor " .. kontor.version .. " - Sea Merchants, 3 players"))
    t:send("g:op", "Tab")
    assert.truthy(t:wait_for("\n> g:options%($"))
    t:send(")[1]", "Enter")
    assert.truthy(t:wait_for('"load grain on ship 1"', 3, true))
    t:send("string.for", "Tab")
    assert.truthy(t:wait_for("\n> string.format%($"))
    t:send("C-u", "g.coins:val", "Tab")
    assert.truthy(t:wait_for("\n> g.coins:values%($"))
    t:send("C-u", "hel", "Tab")
    assert.truthy(t:wait_for("\n> help$"))
    t:stop()
  end)

  it("TAB completes action text after do, and inside g:apply(\"", function()
    local t = start("--players 3 --seed 7", { NO_COLOR = "1" })
    t:send("do load ", "Tab", "Tab")
    assert.truthy(t:wait_for("cloth%s+fish%s+grain%s+porcelain%s+spices%s+wood"))
    t:send("fi", "Tab")
    assert.truthy(t:wait_for("\n> do load fish$"))
    t:send("on ship ", "Tab", "Tab")
    assert.truthy(t:wait_for("\n1%s+2%s*\n"))
    t:send("2", "Enter")
    assert.truthy(t:wait_for("Player 1 loads fish on ship 2", 3, true))
    t:send('g:apply("load wo', "Tab")
    assert.truthy(t:wait_for('\n> g:apply%("load wood$'))
    t:stop()
  end)

  it("history is kept in ~/.kontor_history and comes back with Up", function()
    local t = start("--players 2", { NO_COLOR = "1" })
    t:send("40 + 2", "Enter")
    assert.truthy(t:wait_for("\n42\n"))
    t:send("C-d")
    assert.truthy(t:wait_for("[exit 0]", 3, true))
    t:stop()
    -- libedit's format: a header line, then lines with spaces written \040
    local h = read(home .. "/.kontor_history")
    assert.truthy(has(h:gsub("\\040", " "), "40 + 2"))
    t = start("--players 2", { NO_COLOR = "1" })
    t:send("Up")
    assert.truthy(t:wait_for("> 40 + 2", 3, true))
    t:send("Enter")
    assert.truthy(t:wait_for("\n42\n"))
    t:stop()
  end)

  it("Ctrl-C stops a running script, not the REPL; at the prompt it drops the line", function()
    local t = start("--players 2", { NO_COLOR = "1" })
    t:send("while true do end", "Enter")
    os.execute("sleep 0.3")
    t:send("C-c")
    assert.truthy(t:wait_for("interrupted", 3, true))
    t:send("half a line", "C-c")
    os.execute("sleep 0.2")
    t:send("6 * 7", "Enter")
    assert.truthy(t:wait_for("\n42\n"))
    t:send("C-d")
    assert.truthy(t:wait_for("[exit 0]", 3, true))
    t:stop()
  end)

  it("colour on a terminal; none with NO_COLOR", function()
    local t = start("--players 2")
    t:send("error('boom')", "Enter")
    local s = t:wait_for("boom", 3, true, true)
    assert.truthy(s and s:find("\27%[[0-9;]*31m[^\n]*boom"))
    t:stop()
    t = start("--players 2", { NO_COLOR = "1" })
    t:send("error('boom')", "Enter")
    s = t:wait_for("boom", 3, true, true)
    assert.truthy(s)
    assert.falsy(s:find("\27%[[0-9;]*31m"))
    t:stop()
  end)

  it("play: a hand-over screen between two people, cleared, waiting for Enter", function()
    local t = tmux.start(BIN .. " play --players 2 --seed 3 --names Ann,Bob", { HOME = home, NO_COLOR = "1" })
    sessions[#sessions + 1] = t
    assert.truthy(t:wait_for("Pass the keyboard to Ann (seat 1) and press Enter.", 3, true))
    t:send("Enter")
    assert.truthy(t:wait_for("\nAnn>$"))
    t:send("1", "Enter")
    local s = t:wait_for("Pass the keyboard to Bob (seat 2) and press Enter.", 3, true)
    assert.truthy(s)
    assert.falsy(has(s, "Ann, your move"))  -- the screen was cleared: Ann's hand is gone
    t:send("Enter")
    assert.truthy(t:wait_for("\nBob>$"))
    t:stop()
  end)
end)
