-- The REPL and its game commands, driven through the real binary:
-- through pipes for the scripted path, through tmux (a pseudo-terminal) for
-- completion, history, Ctrl-C and colour.

local support = require "tests.lua.support"
local tmux = dofile("tests/repl/tmux.lua")

local BIN = support.plain_binary()
local write, read, tmpdir, lines, has = support.write, support.read, support.tmpdir, support.lines, support.has
local sh = support.run

local function kontor_cmd(args, stdin) return support.run(BIN .. " " .. args, stdin) end

describe("kontor repl, scripted (stdin is a pipe)", function()
  it("help lists every command", function()
    local out = kontor_cmd("", "help\n")
    for _, c in ipairs { "board", "options", "do N", "why TEXT", "undo", "redo", "auto", "moves",
      "log", "result", "new", "save FILE", "load FILE", "replay FILE", "next", "prev",
      "view SEAT", "as SEAT", "bot SEAT=KIND", "bots", "hint", "reload", "help", "quit" } do
      assert.truthy(has(out, c), c)
    end
  end)

  it("board and numbered options; a number, an option text, do N and do TEXT all move", function()
    local out, code = kontor_cmd("--players 3 --seed 7",
      "board\noptions\n1\nload grain on ship 2\ndo 3\ndo load fish on ship 2\n=#g:actions()\n")
    assert.are.equal(0, code)
    assert.truthy(has(out, "Sea Merchants - loading, Player 1 to act"))
    assert.truthy(has(out, "Player 1 to choose (load)."))
    assert.truthy(out:match("\n%s+1  load grain on ship 1  %(the market shows %d grain; 5 grain cubes in the pool%)\n"
      .. "%s+2  load grain on ship 2  %([^\n]*%)\n"))
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
    assert.truthy(has(out, "Undid 2 moves (only 2 were there to undo): Player 1: load grain on ship 1; Player 2: load grain on ship 1\n"))
    assert.truthy(has(out, "Redid 3 moves (only 3 were there to redo).\nPlayer 1 to choose (load).\n3\nNothing to redo.\n"))
  end)

  it("a move of several steps: the options go on, and undo takes the whole move back", function()
    local out = kontor_cmd("--players 2 --seed 3",
      "auto 4\noptions\ndo 1\ndo 1\n=#g:actions()\n=#g:moves()\nundo\n=#g:actions()\ndo exchange ship 1 to fish\n=g:moves()[5]\n")
    assert.truthy(has(out, "Played 4 of your moves (4 moves in all).\nPlayer 1 to choose (phase 1).\n"
      .. "  1  exchange  (swap the cube on one of your ships for another product from the pool (S6))\n  2  pass  (no phase I action)\n"))
    assert.truthy(has(out, "The move goes on:\n  1  exchange ship 1  (ship 1 carries cloth: it goes back to the pool for another "
      .. "product (S6))\n  2  exchange ship 2  (ship 2 carries grain: it goes back to the pool for another product (S6))\n"
      .. "The move goes on:\n  1  exchange ship 1 to grain  ("))
    assert.truthy(has(out, "\n6\n5\nUndid 1 move: Player 1: exchange ship 1\nPlayer 1 to choose (phase 1).\n4\n"))
    assert.truthy(has(out, '\n1: exchange ship 1 to fish\n'))
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
    assert.truthy(out:match('\n3\n3: load wood on ship 1\n$'))
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
      .. edit('{ "load", kept%(', '{ "stow", kept(') .. "reload\n=#g:moves()\noptions\n")
    assert.are.equal(0, code)
    assert.truthy(has(out, "Reloaded sea_merchants (" .. rules .. "); replayed 3 moves."), out)
    assert.truthy(has(out, "\n3\nPlayer 1 stows grain on ship 1\n"))
    assert.truthy(has(out, "reloaded; stopped before move 1 '1: load grain on ship 1'"))
    assert.truthy(out:match("\n0\n%s+1  stow grain on ship 1\n"))
    os.execute("rm -rf " .. dir)
  end)

  it("a reload that stops early keeps the moves it could not replay: the rule put back, reload restores all", function()
    local dir = tmpdir()
    local rules = dir .. "/sea_merchants.lua"
    local original = read("variants/sea_merchants.lua")
    write(rules, original)
    write(dir .. "/orig.lua", original)
    write(dir .. "/stow.lua", (original:gsub('{ "load", kept%(', '{ "stow", kept(')))
    local set = function(which)
      return string.format("os.execute('cp %s/%s.lua %s')\n", dir, which, rules)
    end
    local out = kontor_cmd("--rules " .. rules .. " --players 2 --seed 5",
      "auto 30\n=#g:moves()\nh = g:moves()\n"
      .. set("stow") .. "reload\n=#g:moves()\nredo\n"
      .. set("orig") .. "reload\n=#g:moves()\n=table.concat(g:moves(), '|') == table.concat(h, '|')\n")
    assert.truthy(has(out, "\n30\n"), out)
    assert.truthy(has(out, "reloaded; stopped before move 1 '1: load "), out)
    assert.truthy(has(out, "(30 moves from there on kept: put the rule back and reload, or redo)\n"), out)
    assert.truthy(has(out, "\n0\nthe next kept move 'Player 1: load "), out)
    assert.truthy(has(out, "Reloaded sea_merchants (" .. rules .. "); replayed 30 moves.\n"), out)
    assert.truthy(out:match("\n30\ntrue\n$"), out)
    os.execute("rm -rf " .. dir)
  end)

  it("typed input means what the user meant: a lone option, did you mean, slot or slots, stop here", function()
    local out = kontor_cmd("--rules tests/repl/shop.lua", "options\nbuy apple\npass\npas\nbord\n=#g:moves()\n")
    assert.truthy(has(out, "  1  buy apple  (costs 2 coins)\n  2  buy pear  (costs 3 coins)\n  3  pass\n"), out)
    assert.truthy(has(out, "Player 2 to choose (take other 2).\nPlayer 2 passes\n"), out)  -- pass alone: the option
    assert.truthy(has(out, "unknown command or name 'pas': did you mean `pass`?\n"), out)
    assert.truthy(has(out, "unknown command or name 'bord': did you mean `board`?\n2\n"), out)
    -- Sea Merchants: a lone "draw"; "slot 3" as the log writes it; the stop option says so
    local sc = 'g = kontor.new_game{ players = 2, scenario = { market = {"grain","wood","porcelain","fish","spices","cloth"}, '
      .. 'deck = {"wood","grain","cloth","spices"}, ships = {{"grain","wood"},{"cloth","spices"}}, '
      .. 'hands = {{"fish","fish"},{}}, phase = "phase2", active = 1 } }\n'
    out = kontor_cmd("", sc .. "play\n1\n1\nundo\nplay fish on slot 3\nundo\ndraw\nmoves\n")
    assert.truthy(has(out, "  1  play fish on slots 1  (stop here: the move ends)  (pays 2 per fish cube on a ship: nobody earns)\n"
      .. "  2  play fish on slots 1,2  (pays 3 per fish cube on a ship: nobody earns)\n"), out)
    assert.truthy(has(out, "Player 1 plays fish on slot 3: "), out)
    assert.truthy(has(out, "1  Player 1: draw\n"), out)
  end)

  it("load FILE at Sea Merchants' loading decision loads the file; new after a preset keeps it", function()
    local dir = tmpdir()
    local out = kontor_cmd("--players 2 --variant house", "save " .. dir .. "/a.json\nload " .. dir .. "/a.json\n"
      .. "load " .. dir .. "/missing.json\nnew seed=2\n=g.params.seed\n")
    assert.truthy(has(out, "Loaded " .. dir .. "/a.json: "), out)
    assert.truthy(has(out, dir .. "/missing.json: No such file or directory"), out)
    assert.falsy(has(out, "is not a legal action"), out)
    assert.falsy(has(out, "cannot be used together"), out)
    assert.truthy(out:match("\n2\n$"), out)
    os.execute("rm -rf " .. dir)
  end)

  it("an error inside a move is one message, with no traceback through the engine", function()
    local dir = tmpdir()
    write(dir .. "/crash.lua", [[return { variant = true, base = "sea_merchants", apply = function(R)
  R.constraints[#R.constraints + 1] = function(g, seat, name, text)
    if name == "phase1" then error("constraint exploded") end
  end
end }
]])
    local out = kontor_cmd("--players 2 --variant " .. dir .. "/crash.lua", "1\n1\n1\n1\n=#g:moves()\n")
    assert.truthy(has(out, dir .. "/crash.lua:3: constraint exploded\n"), out)
    assert.falsy(has(out, "kontor/"), out)
    assert.falsy(has(out, "repl/"), out)
    assert.truthy(out:match("\n3\n$"), out)   -- the game as it was before the move
    os.execute("rm -rf " .. dir)
  end)

  it("new takes k=v settings and reports bad ones; the game stays", function()
    local out = kontor_cmd("--players 3", "new players=2 seed=4 names=A,B\n=g.players\nnew players=9\n=g.players\nnew rules=nosuch\n")
    assert.truthy(has(out, "New game: Sea Merchants, 2 players (A, B), seed 4."))
    assert.truthy(has(out, "is for 2 to 4 players, not 9"))
    assert.truthy(out:match("\n2\n[^\n]*\n2\n"))
    assert.truthy(has(out, "unknown rule set or variant 'nosuch'"))
    out = kontor_cmd("--players 3", "new names=A,,B\nnew names=Ann,ann\n=g.players\n")
    assert.truthy(has(out, "new: names=A,,B: name 2 is empty\n"), out)
    assert.truthy(has(out, "names 1 and 2 are the same ('ann'): each player needs a name of their own\n3\n"), out)
  end)

  it("view and as show a seat's view: other hands hidden", function()
    local out = kontor_cmd("--players 3 --seed 7", "view 1\nas 2\nboard\nas all\nview Bob\n")
    assert.truthy(has(out, "* Player 1: 0 coins; ships empty, empty; no special cards; hand 3 cards: grain, grain, porcelain\n  Player 2: 0 coins; ships empty, empty; no special cards; hand 3 cards\n"))
    assert.truthy(has(out, "Showing what Player 2 (seat 2) sees"))
    assert.truthy(has(out, "* Player 1: 0 coins; ships empty, empty; no special cards; hand 3 cards\n  Player 2: 0 coins; ships empty, empty; no special cards; hand 3 cards: grain, porcelain, fish\n"))
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

  it("'Game over' and the scores are printed once, however the game is looked at afterwards", function()
    local out = kontor_cmd("--players 2 --seed 1", "auto\nboard\noptions\ndo 1\nauto\n")
    local n = select(2, out:gsub("Game over", ""))
    assert.are.equal(1, n, out)
    assert.truthy(has(out, "Game over. Final scores:\n  Player 1     7  winner\n  Player 2     5\n"), out)
  end)

  it("no prompt, no banner and no escape codes in piped output, even when errors are printed", function()
    local out = kontor_cmd("--players 2", "error('x')\ndo 99\nfoo bar\n")
    assert.falsy(has(out, "\27"))
    assert.falsy(has(out, "> "))
    assert.falsy(has(out, "Kontor "))
  end)

  -- Start-up cost as work, not time (a timer on this shared machine varies
  -- by 20% and more): instructions to the end of an empty script, counted by
  -- callgrind. About 36 million today (docs/performance.md), some 10 ms.
  it("the program starts in under 60 million instructions (callgrind, to the end of an empty script)", function()
    local out = sh("(valgrind --tool=callgrind --callgrind-out-file=/dev/null " .. BIN ..
      " --players 3 </dev/null 2>&1 | awk '/Collected/ {print $4}')")
    local n = tonumber(out:match("(%d+)"))
    assert.truthy(n, "callgrind gave no count: " .. out)
    assert.truthy(n < 60e6, n .. " instructions")
  end)
end)

describe("docs/repl.md", function()
  it("every transcript of the tour prints what the doc shows", function()
    local tour = dofile("tests/repl/tour.lua")
    local steps, _, dir = tour.run_all(BIN, read("docs/repl.md"))
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
    os.execute("rm -rf " .. dir)
  end)

  it("the tour's banner is what a terminal shows", function()
    if not tmux.available() then return pending("tmux is not installed") end
    local tour = dofile("tests/repl/tour.lua")
    local dir = tour.tempdir()
    local steps = tour.parse(tour.localize(read("docs/repl.md"), dir))
    local home = tmpdir()
    os.execute("cp variants/sea_merchants.lua " .. dir .. "/")
    for _, s in ipairs(steps) do
      if s.kind == "kontor" and #s.banner > 0 then
        local t = tmux.start(BIN .. " " .. s.args, { HOME = home, NO_COLOR = "1" }, 200, 40)
        -- A first prompt is some 20 million instructions away (10 ms);
        -- 15 s leaves room for a CI machine running other suites.
        local screen, last = t:wait_for("\n>$", 15)
        t:stop()
        assert.truthy(screen, "no prompt after 15 s for kontor " .. s.args .. "; the screen:\n" .. tostring(last))
        assert.are.equal(table.concat(s.banner, "\n") .. "\n>", screen)
      end
    end
    os.execute("rm -rf " .. dir .. " " .. home)
  end)
end)

describe("docs/rules", function()
  it("cite the rulebooks through docs/rules/README.md, which says where each comes from", function()
    local readme = read("docs/rules/README.md")
    for _, doc in ipairs { "sea_merchants.md", "house.md", "caribbean.md" } do
      local text = read("docs/rules/" .. doc)
      local cited = 0
      for file in text:gmatch("`([%w_%.%-]+%.[tm][xd]t?)`") do
        if file:match("%.txt$") or file:match("^house_merchants%.md$") or file:match("_cards%.md$") then
          cited = cited + 1
          assert.truthy(readme:find("`" .. file .. "`", 1, true), doc .. " cites " .. file)
        end
      end
      assert.truthy(text:find("(README.md#the-rulebooks)", 1, true), doc)
      assert.truthy(cited > 0, doc)
    end
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
    assert.truthy(has(out, "unknown bot 'genius' (bots: random, greedy, mcts)"))
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
    assert.are.equal('4\nDan\n', out)   -- a string prints as lua.c prints it
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
    assert.truthy(ann:match("%* Ann: [^\n]*hand 3 cards: "))
    assert.truthy(ann:match("\n  Bob: [^\n]*hand 3 cards\n"))
    local bob = out:match("%-%-%- Bob's turn.*")
    assert.truthy(bob:match("\n  Ann: [^\n]*hand 3 cards\n"))
    assert.truthy(bob:match("%* Bob: [^\n]*hand 3 cards: "))
    assert.truthy(has(out, "Ann, your move (load):"))
  end)

  it("against two bots: the game runs to the end, then the scores and the winner", function()
    local out, code = kontor_cmd("play --players 3 --seed 11 --bot 2=random --bot 3=random",
      read("tests/repl/full_game_vs_bots.txt"))
    assert.are.equal(0, code)
    assert.falsy(has(out, "---"))    -- one person: no hand-over
    assert.truthy(has(out, "Sea Merchants - game over"))
    assert.truthy(has(out, "Game over. Final scores:"))
    assert.truthy(out:match("\nWinners?: [%w ,]+\nWhy: [^\n]+\nSeed 11 %(%-%-seed 11 plays this deal again%)%.\n$"), out)
  end)

  it("all seats bots: the game plays itself", function()
    local out, code = kontor_cmd("play --players 2 --seed 2 --bot 1=random --bot 2=random")
    assert.are.equal(0, code)
    assert.truthy(has(out, "Game over. Final scores:"))
  end)
end)

local pty = tmux.available() and describe or pending

pty("kontor in a terminal (tmux)", function()
  local session, home = support.terminals(before_each, after_each)

  local function start(args, env)
    local t = session(BIN .. " " .. args, env)
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
    -- the answer and the prompt after it: keys typed before the prompt is
    -- back reach the terminal, not the line editor, and a Tab among them
    -- completes nothing (once, under load: "string.for  mat(> string.for")
    assert.truthy(t:wait_for('\nload grain on ship 1\n>$'))
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
    t:send("do load ")
    assert.truthy(t:list_with_tab("cloth%s+fish%s+grain%s+porcelain%s+spices%s+wood"))
    t:send("fi", "Tab")
    assert.truthy(t:wait_for("\n> do load fish$"))
    t:send("on ship ")
    assert.truthy(t:list_with_tab("\n1%s+2%s*\n"))
    t:send("2", "Enter")
    -- the move, and the prompt back before the next line is typed
    assert.truthy(t:wait_for("Player 1 loads fish on ship 2.*\n>$"))
    t:send('g:apply("load wo', "Tab")
    assert.truthy(t:wait_for('\n> g:apply%("load wood$'))
    t:stop()
  end)

  it("TAB completes action text in any letter case, to the rule set's own spelling", function()
    -- before: "LOAD gr", "do load GR" and "LO" completed nothing (an action is taken in any case)
    local t = start("--players 3 --seed 7", { NO_COLOR = "1" })
    t:send("LOAD gr", "Tab")
    assert.truthy(t:wait_for("\n> LOAD grain$"), t:screen())
    t:send("C-u", "do load GR", "Tab")
    assert.truthy(t:wait_for("\n> do load grain$"), t:screen())
    t:send("C-u", "do Load Fish On S", "Tab")
    assert.truthy(t:wait_for("\n> do Load Fish On ship$"), t:screen())
    t:send("C-u", "LO", "Tab")
    assert.truthy(t:wait_for("\n> load$"), t:screen())
    t:send("fish on ship 1", "Enter")   -- (after "load " and its space)
    assert.truthy(t:wait_for("Player 1 loads fish on ship 1\n.*>$"), t:screen())
    t:stop()
  end)

  it("TAB completes file names after load/save/replay, seat names after view/as/bot; g. shows no internals", function()
    local dir = tmpdir()
    write(dir .. "/saved_game.json", "{}")
    local t = start("--names Ann,Bob", { NO_COLOR = "1" })
    t:send("load " .. dir .. "/sav", "Tab")
    assert.truthy(t:wait_for("\n> load " .. dir:gsub("%p", "%%%0") .. "/saved_game%.json$"))
    t:send("C-u", "replay " .. dir .. "/sav", "Tab")
    assert.truthy(t:wait_for("\n> replay " .. dir:gsub("%p", "%%%0") .. "/saved_game%.json$"))
    t:send("C-u", "view B", "Tab")
    assert.truthy(t:wait_for("\n> view Bob$"))
    t:send("C-u", "bot A", "Tab")
    assert.truthy(t:wait_for("\n> bot Ann$"))
    t:send("C-u", "g.")
    local s = t:list_with_tab("players", true)
    assert.truthy(s and has(s, "names") and has(s, "apply("), s)
    for _, internal in ipairs { "co", "hist", "rec", "texts", "future", "ctx", "by_seat" } do
      assert.falsy(s:find("%f[%w_]" .. internal .. "%f[^%w_]"), internal .. " offered:\n" .. s)
    end
    t:stop()
    os.execute("rm -rf " .. dir)
  end)

  it("history is kept in ~/.kontor_history and comes back with Up", function()
    local t = start("--players 2", { NO_COLOR = "1" })
    t:send("40 + 2", "Enter")
    assert.truthy(t:wait_for("\n42\n"))
    t:send("C-d")
    assert.truthy(t:wait_for("[exit 0]", 3, true))
    t:stop()
    -- libedit's format: a header line, then lines with spaces written \040
    local h = read(home() .. "/.kontor_history")
    assert.truthy(has(h:gsub("\\040", " "), "40 + 2"))
    t = start("--players 2", { NO_COLOR = "1" })
    t:send("Up")
    assert.truthy(t:wait_for("> 40 + 2", 3, true))
    t:send("Enter")
    assert.truthy(t:wait_for("\n42\n"))
    t:stop()
  end)

  it("Ctrl-D with a game in progress saves it and says where; loading it gives the game back", function()
    local t = start("--players 2 --seed 4", { NO_COLOR = "1" })
    t:send("1", "Enter")
    assert.truthy(t:wait_for("Player 2 to choose", 3, true))
    t:send("C-d")
    local s = t:wait_for("[exit 0]", 3, true)
    local path = home() .. "/.kontor_autosave.json"
    s = s and s:gsub("\n", "")   -- the line wraps at the screen's width
    assert.truthy(s and has(s, "The game is not over: saved 1 move to " .. path
      .. " (load it with: kontor, then load " .. path .. ")."), s)
    t:stop()
    local out = kontor_cmd("", "load " .. path .. "\n=#g:moves()\n")
    assert.truthy(out:match("\n1\n$"), out)
  end)

  it("Ctrl-C stops a running script, not the REPL; at the prompt it drops the line", function()
    -- (each key waits for what the program shows: fixed sleeps of 0.3 and
    -- 0.2 s before could send Ctrl-C before the loop ran, on a loaded machine)
    local t = start("--players 2", { NO_COLOR = "1" })
    t:send("print('looping') while true do end", "Enter")
    assert.truthy(t:wait_for("\nlooping$", 10), t:screen())   -- the loop is running
    t:send("C-c")
    assert.truthy(t:wait_for("interrupted\n>$", 10), t:screen())
    t:send("half a line", "C-c")
    assert.truthy(t:wait_for("\n> half a line\n>$", 10), t:screen())   -- dropped, a new prompt
    t:send("6 * 7", "Enter")
    assert.truthy(t:wait_for("\n> 6 %* 7\n42\n>$", 10), t:screen())
    t:send("C-d")
    assert.truthy(t:wait_for("[exit 0]", 3, true))
    t:stop()
  end)

  it("Ctrl-C during auto 1000 prints interrupted, with no internal path; the game is whole", function()
    local t = start("--variant tests/repl/slow.lua --players 2", { NO_COLOR = "1" })
    -- inside auto, not before it began: 0.3 s of CPU into it (a fixed
    -- sleep of 0.5 s could end before, on a loaded machine)
    local cpu = t:cpu()
    t:send("auto 1000", "Enter")
    assert.truthy(t:wait_cpu(cpu, 0.3), t:screen())
    t:send("C-c")
    local s = t:wait_for("interrupted\nPlayed %d+ of your moves", 5)
    assert.truthy(s, t:screen())
    assert.falsy(has(s, ".lua"), s)
    assert.falsy(has(s, "stack traceback"), s)
    t:send("=g:invariants()", "Enter")
    assert.truthy(t:wait_for("\nnil\n"))
    t:stop()
  end)

  it("the banner and the board name the variants and options; prompts use plain words", function()
    local t = start("--variant hand_limit:size=5 --option start_coins=3 --players 2 --seed 1", { NO_COLOR = "1" })
    local s = t:screen()
    assert.truthy(has(s, "Kontor " .. kontor.version .. " - Sea Merchants with hand_limit (size=5); "
      .. "options start_coins=3, 2 players (Player 1, Player 2), seed 1."), s)
    t:send("board", "Enter")
    s = t:wait_for("Rules: Sea Merchants with hand_limit (size=5); options start_coins=3\nPlayer 1 to choose (load).", 3, true)
    assert.truthy(s, t:screen())
    t:send("auto 4", "Enter")
    assert.truthy(t:wait_for("to choose (phase 1).", 3, true), t:screen())
    t:stop()
  end)

  it("colour on a terminal; none with NO_COLOR", function()
    -- The error's line and the prompt after it, waited for: "boom" alone
    -- is on the screen as soon as the line is typed (its echo), and a
    -- screen read then, before the REPL answered, had no red (once, under
    -- load). Held between the echo and the answer, the screen shows the
    -- echo and nothing waited for. (10 s: once, with make check's suites
    -- side by side, "boom" had not shown 3 s after Enter.)
    local RED = "\27%[[0-9;]*31m[^\n]*:1: boom\n.*>$"
    local t = start("--players 2")
    t:send("error('boom')")
    assert.truthy(t:wait_for("> error('boom')", 5, true))
    t:signal("STOP")
    t:send("Enter")
    assert.falsy((t:wait_for(RED, 0, false, true)))
    t:signal("CONT")
    local s = t:wait_for(RED, 10, false, true)
    assert.truthy(s, t:screen(true))
    t:stop()
    t = start("--players 2", { NO_COLOR = "1" })
    t:send("error('boom')", "Enter")
    s = t:wait_for("\n[^\n]*:1: boom\n>$", 10, false, true)
    assert.truthy(s, t:screen(true))
    assert.falsy(s:find("\27%[[0-9;]*31m"))
    t:stop()
  end)

  it("texts from a rule set reach the terminal escaped: no title change, clipboard write or clear", function()
    local t = start("--rules tests/repl/hostile_text.lua", { NO_COLOR = "1" })
    t:send("board", "Enter")
    assert.truthy(t:wait_for("board\\e]0;pwned\\a", 3, true))
    t:send("options", "Enter")
    assert.truthy(t:wait_for("1  take\\e[2J\\e[H$", 3, true))
    t:send("log", "Enter")
    assert.truthy(t:wait_for("log\\e]52;c;cm0gLXJmIH4=\\a", 3, true))
    t:send("1", "Enter")
    assert.truthy(t:wait_for("picked 1\\a\\e[31m", 3, true))
    local s = t:screen()
    assert.truthy(has(s, "Kontor " .. kontor.version .. " - Hostile\\e]0;pwned\\a"), s)  -- not cleared
    assert.falsy(has(t:tmux("display -p -t k '#{pane_title}'"), "pwned"))
    t:stop()
    local out = kontor_cmd("--list", nil)
    assert.falsy(has(out, "\27"))
    local l = sh("KONTOR_PATH=tests/repl " .. BIN .. " --list")
    assert.truthy(has(l, "hostile_text      rules                      Hostile\\e]0;pwned\\a         summary\\e[2J\\e[H$\n"), l)
    assert.falsy(has(l, "\27"))
  end)

  it("play: the mover sees the result, the hand-over clears the scrollback, the next player is greeted", function()
    local t = session(BIN .. " play --players 2 --seed 3 --names Ann,Bob", { NO_COLOR = "1" }, 120, 20)
    assert.truthy(t:wait_for("Pass the keyboard to Ann (seat 1) and press Enter.", 3, true))
    t:send("Enter")
    assert.truthy(t:wait_for("\nAnn>$"))
    assert.truthy(has(t:history(), "hand 3 cards: wood, spices, cloth"))
    t:send("1", "Enter")
    -- Ann sees what her move did before the screen goes
    local s = t:wait_for("Ann: press Enter to hide your hand and pass the keyboard to Bob.", 3, true)
    assert.truthy(s and has(s, "Ann loads grain on ship 1"), s)
    t:send("Enter")
    assert.truthy(t:wait_for("Pass the keyboard to Bob (seat 2) and press Enter.", 3, true))
    local h = t:history()
    assert.falsy(has(h, "wood, spices, cloth"), h)   -- Ann's hand, not even in the scrollback
    assert.falsy(has(h, "Ann, your move"), h)
    t:send("Enter")
    s = t:wait_for("\nBob>$")
    assert.truthy(s)
    s = t:history()
    assert.truthy(has(s, "Since the game began:\nAnn loads grain on ship 1\n"), s)
    assert.truthy(has(s, "* Bob: 0 coins; ships empty, empty; no special cards; hand 3 cards: grain, fish, spices"), s)
    -- nothing shows Ann's hand to Bob: not view, as, Lua, or moving for her
    for _, cmd in ipairs { "view 1", "as 1", "g:show()", "g.hands[1]", "1: load fish on ship 2" } do
      t:send("C-u", cmd, "Enter")
    end
    -- (the last command's answer: the others' came before it)
    assert.truthy(t:wait_for("do: in play you see and act only for your own seat (Bob)", 3, true))
    h = t:history()
    assert.falsy(has(h, "wood, spices, cloth"), h)
    assert.truthy(has(h, "view: in play you see and act only for your own seat (Bob)"), h)
    assert.truthy(has(h, "as: in play the board shows your own seat"), h)
    assert.truthy(has(h, "'g:show()' is not a command or a move here"), h)
    assert.truthy(has(h, "do: in play you see and act only for your own seat (Bob)"), h)
    t:stop()
  end)

  it("play: undo past another person's move needs their yes", function()
    local out = kontor_cmd("play --players 2 --seed 3 --names Ann,Bob", "1\n1\nundo\nno\nundo\nyes\n=#g:moves()\nmoves\n")
    assert.truthy(has(out, "Undo takes back Bob's move too.\nBob, do you agree? (yes/no)\nNot undone: Bob did not agree. "
      .. "A move goes back without the others' consent only when none of theirs goes with it.\n"), out)
    assert.truthy(has(out, "Undid 2 moves: Ann: load grain on ship 1; Bob: load grain on ship 1\n"), out)
    assert.truthy(has(out, "No moves yet."), out)
  end)

  it("play: auto plays your moves and the bots', never another person's", function()
    local out = kontor_cmd("play --players 3 --seed 3 --names Ann,Bob,Cem --bot 3=random", "auto\n")
    assert.truthy(has(out, "\nAnn loads grain on ship 2\nPlayed 1 of your moves (1 move in all); it stops where Bob "
      .. "decides.\nBob to choose (load).\n--- Bob's turn (seat 2) ---"), out)
  end)

  it("play: a hand-over screen between two people, cleared, waiting for Enter", function()
    local t = session(BIN .. " play --players 2 --seed 3 --names Ann,Bob", { NO_COLOR = "1" })
    assert.truthy(t:wait_for("Pass the keyboard to Ann (seat 1) and press Enter.", 3, true))
    t:send("Enter")
    assert.truthy(t:wait_for("\nAnn>$"))
    t:send("1", "Enter")
    assert.truthy(t:wait_for("press Enter to hide your hand", 3, true))
    t:send("Enter")
    local s = t:wait_for("Pass the keyboard to Bob (seat 2) and press Enter.", 3, true)
    assert.truthy(s)
    assert.falsy(has(s, "Ann, your move"))  -- the screen was cleared: Ann's hand is gone
    t:send("Enter")
    assert.truthy(t:wait_for("\nBob>$"))
    t:stop()
  end)
end)
