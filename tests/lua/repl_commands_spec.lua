-- repl_commands_spec.lua: REPL commands as a person types them: `bot`
-- with a seat named with a space ("Player 2"), the state after the bots
-- move (who is to choose, or the result when they finish the game), undo
-- and redo when a bot plays every seat (each move counts: there are no
-- person's moves to count by); `as` alone asks what is shown; `board()`
-- is answered with a word on commands; the autosave names the bots; a
-- move for a seat the game lacks names the seats.
local support = require "tests.lua.support"

local BIN = support.binary()
local has = support.has

local run = support.kontor_rc   -- the output, then "rc=" and the exit status

describe("bot SEAT=KIND in the REPL", function()
  it("takes a seat by a name with a space; an empty or bad line names what was typed", function()
    local out = run("--players 2 --seed 3", "bot\nbot 2\nbot Player 2=random\nbots\n")
    assert.are.equal("bot SEAT=KIND: which seat, which bot? (KIND: random, greedy, mcts, or off)\n"
      .. "bot 2: expected SEAT=KIND (KIND: random, greedy, mcts, or off)\n"
      .. "Player 2 is played by the random bot.\n"
      .. "1  Player 1: person\n2  Player 2: random bot\nrc=0\n", out)
  end)

  it("says who is to choose after the bots moved", function()
    local out = run("--players 2 --seed 3", "1\nbot 2=random\n")
    assert.truthy(has(out, "Player 2 is played by the random bot.\nPlayer 2 loads porcelain on ship 2\n"
      .. "Player 1 to choose (load).\n"), out)
  end)

  it("prev from a finished game gives undo's note: the game is back in play", function()
    local out = run("--players 2 --seed 3", "auto\nprev\nprev\n")
    assert.truthy(has(out, "Seed 3 (new seed=3 plays this deal again).\nBack: Player 1: draw (move 97 of 98)\n"
      .. "The game had ended: prev took it back into play (the REPL's, to explore; kontor play ends a finished game).\n"
      .. "Back: Player 1: pass (move 96 of 98)\nrc=0\n"), out)
  end)

  it("shows the result when the bots finish the game, and undo/redo count single moves with only bots",
    function()
      local out = run("--players 2 --seed 3", "bot 2=random\nbot 1=random\nundo\nundo 2\nredo\n=#g:move_list()\n")
      assert.truthy(has(out, "\nthe deck is empty: the game ends\nGame over. Final scores:\n  Player 1     7  winner\n"
        .. "  Player 2     6\nWinner: Player 1\nWhy: Player 1 has the most coins: 7 (S11); next Player 2 with 6\n"
        .. "Seed 3 (new seed=3 plays this deal again).\n"
        .. "Undid 1 move: Player 2: draw\nPlayer 2 (bot) to choose (phase 2).\n"
        .. "The game had ended: undo took it back into play (the REPL's, to explore; kontor play ends a finished game).\n"
        .. "Undid 2 moves: Player 1: no office draw; Player 2: exchange ship 1 to spices\n"
        .. "Player 1 (bot) to choose (office).\n"
        .. "Redid 1 move.\nPlayer 2 (bot) to choose (phase 1).\n"
        .. "100\nrc=0\n"), out)
    end)
end)

describe("as in the REPL", function()
  it("alone says what is shown and changes nothing", function()
    local out = run("--players 2 --seed 3 --names Ann,Bob", "as 2\nas\nview 1\nboard\n")
    assert.truthy(has(out, "Showing what Bob (seat 2) sees; `as all` shows everything.\n"
      .. "Showing what Bob (seat 2) sees; `as all` shows everything.\n"), out)
    -- the board is still Bob's: Ann's hand hidden
    assert.truthy(has(out, "\n* Ann: 0 coins; ships empty, empty; no special cards; hand 3 cards\n"
      .. "  Bob: 0 coins; ships empty, empty; no special cards; hand 3 cards: grain, fish, spices\nAnn to choose (load).\n"),
      out)
    out = run("--players 2 --seed 3 --names Ann,Bob", "as\n")
    assert.are.equal("Showing everything; `as SEAT` shows what one seat sees.\nrc=0\n", out)
  end)

  it("options shows only the seat's own: another seat's would show its hand", function()
    -- (Ann's options name the products she may load, the ships she has)
    local out = run("--players 2 --seed 3 --names Ann,Bob", "as 2\noptions\nas 1\noptions\n")
    assert.truthy(has(out, "Showing what Bob (seat 2) sees; `as all` shows everything.\n"
      .. "Bob (seat 2) has no decision now. Ann to choose (load). (`as 1` or `as all` shows those options.)\n"
      .. "Showing what Ann (seat 1) sees; `as all` shows everything.\n   1  load "), out)
    assert.falsy(has(out:match("^.-Showing what Ann") or "", "load "), out)
  end)

  it("why is asked for the seat shown, at another seat's turn too", function()
    local out = run("--players 2 --seed 3 --names Ann,Bob", "as 2\nwhy load fish on ship 1\nas all\n"
      .. "why load fish on ship 1\n")
    assert.truthy(has(out, "\n'load fish on ship 1': it is not Bob's turn to decide (waiting for Ann: load)\n"
      .. "Showing everything.\n'load fish on ship 1' is legal now.\n"), out)
  end)
end)

describe("a command called as a Lua function", function()
  it("board() and save('x') get the Lua error and a word on commands; foo() only the error", function()
    local out = run("--players 2 --seed 3", "board()\nsave('x')\nfoo()\n")
    assert.are.equal("stdin:1: attempt to call a nil value (global 'board')\n"
      .. "(`board` is a command, not a Lua function: type it without brackets; help lists the commands)\n"
      .. "stdin:1: attempt to call a nil value (global 'save')\n"
      .. "(`save` is a command, not a Lua function: type it without brackets; help lists the commands)\n"
      .. "stdin:1: attempt to call a nil value (global 'foo')\nrc=0\n", out)
  end)
end)

local tmux = dofile("tests/repl/tmux.lua")
local pty = tmux.available() and describe or pending

pty("leaving the REPL against bots (tmux)", function()
  local session, home = support.terminals(before_each, after_each)

  it("the autosave message says how to put the bots back after load", function()
    local t = session(BIN .. " --players 3 --seed 3 --bot 2=mcts:iterations=50 --bot '3=greedy:avoid=buy contract'",
      { NO_COLOR = "1" }, 220, 40)
    assert.truthy(t:wait_for("\n>$", 5))
    t:send("1", "Enter")
    assert.truthy(t:wait_for("Player 3 loads", 10, true))
    assert.truthy(t:wait_for("\n>$", 10))
    t:send("C-d")
    local s = t:wait_for("%[exit 0%]", 10)
    local path = home() .. "/.kontor_autosave.json"
    assert.truthy(s and has(s:gsub("\n", ""), "The game is not over: saved 3 moves to " .. path .. " (load it with: "
      .. "kontor, then load " .. path .. ", then bot 2=mcts:iterations=50, then bot 3=greedy:avoid=buy contract)."),
      s or t:screen())
  end)
end)

describe("a move for a seat the game does not have", function()
  it("do and why name the seats by their players' names, not 'it is not seat 3's turn'", function()
    local out = run("--players 2 --seed 3 --names Ann,Bob", "3: load grain on ship 1\nwhy 3: load grain on ship 1\n"
      .. "do 9: pass\n2: load grain on ship 1\n")
    assert.are.equal("no seat '3' (seats: 1 Ann, 2 Bob)\nno seat '3' (seats: 1 Ann, 2 Bob)\n"
      .. "no seat '9' (seats: 1 Ann, 2 Bob)\n"
      .. "'load grain on ship 1': it is not Bob's turn to decide (waiting for Ann: load)\nrc=0\n", out)
  end)
end)

describe("a move at another seat's turn", function()
  it("at another seat's turn: the decision in the status line's words, the seats by name, do and why alike", function()
    local out = run("--rules caribbean --players 3 --seed 3 --names Ann,Bob,Cy",
      "reveal\nreveal\nstop\ntake nothing\n1: take nothing\nwhy 3: take nothing\n")
    local want = "it is not %s's turn to decide (waiting for Bob: take other)\n"
    assert.truthy(has(out, "\nBob to choose (take other).\n'take nothing': " .. want:format("Ann")
      .. "'take nothing': " .. want:format("Cy") .. "rc=0\n"), out)
  end)
end)
