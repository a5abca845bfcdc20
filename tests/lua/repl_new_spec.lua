-- repl_new_spec.lua: the REPL's `new k=v ...` as a person types it: the
-- order of players= and names= does not matter (as --players and --names),
-- and a variant= that cannot be read is refused with what was expected,
-- not dropped in silence.
local support = require "tests.lua.support"

local BIN = support.binary()

local function run(args, stdin)
  local out, code = support.run(BIN .. " " .. args, stdin or "")
  return (out:gsub("seed %d+", "seed N")) .. "rc=" .. code .. "\n"
end

describe("new", function()
  it("players=3 names=A,B and names=A,B players=3 both give 3 players, A and B first", function()
    assert.are.equal("New game: Sea Merchants, 3 players (A, B, Player 3), seed N.\nA to choose (load).\n"
      .. "New game: Sea Merchants, 3 players (A, B, Player 3), seed N.\nA to choose (load).\nrc=0\n",
      run("--players 2 --seed 3", "new players=3 names=A,B\nnew names=A,B players=3\n"))
  end)

  it("names= alone sets the count; players= alone drops names of another count", function()
    assert.are.equal("New game: Sea Merchants, 3 players (X, Y, Z), seed N.\nX to choose (load).\n"
      .. "New game: Sea Merchants, 2 players (Player 1, Player 2), seed N.\nPlayer 1 to choose (load).\nrc=0\n",
      run("--players 2 --seed 3", "new names=X,Y,Z\nnew players=2\n"))
  end)

  it("variant= empty, or options after ':' that are not k=v, are refused and the game stays", function()
    assert.are.equal("new: variant= needs a NAME (variant=hand_limit:size=5); new rules=NAME starts without "
      .. "variants\n"
      .. "new: variant=hand_limit:5: expected k=v after ':', not '5'\n"
      .. "new: variant=hand_limit:size=5,x: expected k=v after ':', not 'x'\n"
      .. "3\nrc=0\n",
      run("--players 2 --seed 3", "new variant=\nnew variant=hand_limit:5\nnew variant=hand_limit:size=5,x\n"
        .. "=g.params.seed\n"))
    assert.are.equal("New game: Sea Merchants with hand_limit (size=5), 2 players (Player 1, Player 2), seed N.\n"
      .. "Player 1 to choose (load).\nrc=0\n", run("--players 2 --seed 3", "new variant=hand_limit:size=5\n"))
  end)

  it("a quoted value keeps its spaces: a snake order, names with spaces; a quote left open is refused", function()
    -- was: "new: variant=snake_draft:order=2: expected k=v, not '1'"
    assert.are.equal("New game: Sea Merchants with snake_draft (order=2 1 3/3 1 2), 3 players (Player 1, Player 2, "
      .. "Player 3), seed N.\nPlayer 2 to choose (load).\n"
      .. "New game: Sea Merchants, 2 players (Ann Lee, Bob), seed N.\nAnn Lee to choose (load).\n"
      .. "new: a quote (\") is not closed\n2\nrc=0\n",
      run("--players 3 --seed 3", "new variant='snake_draft:order=2 1 3/3 1 2'\n"
        .. "new rules=sea_merchants names=\"Ann Lee,Bob\"\nnew names=\"Ann\n=g.players\n"))
  end)

  it("a line that is not UTF-8 is refused by what it names, not by the line's reader", function()
    -- was: ".../repl/repl.lua:613: invalid UTF-8 code" while quotes were read by characters
    assert.are.equal("the name of player 1 is not valid UTF-8 text\n3\nrc=0\n",
      run("--players 3 --seed 3", "new names=\255,B\n=g.players\n"))
  end)

  it("rules= of a rule set that does not take the game's count plays its default count, and says so", function()
    local LK = "tests/rulesets/limit_kinds.lua"
    assert.are.equal("New game: Limit kinds, 1 player (Player 1), seed N.\n"
      .. "(limit_kinds is for 1 to 2 players, not 4: 1, its default; players=N for another count)\n"
      .. "Player 1 to choose (first).\n"
      .. "limit_kinds is for 1 to 2 players, not 4\n"
      .. "limit_kinds is for 1 to 2 players, not 3\nrc=0\n",
      run("--players 4 --seed 3", "new rules=" .. LK .. "\nnew rules=" .. LK .. " players=4\n"
        .. "new rules=" .. LK .. " names=A,B,C\n"))
  end)
end)
