-- polish_undo_spec.lua: `undo N` and `redo N` asked for more moves than
-- there are do those there are, and say how many that was (the REPL,
-- `kontor play`); `kontor serve` says it in `only` (tests/protocol).
local support = require "tests.lua.support"

local run, has = support.kontor_rc, support.has

describe("undo N and redo N beyond what there is", function()
  it("the REPL does the moves there are and says how many", function()
    local out = run("--players 2 --seed 3", "do 1\ndo 1\nundo 2\nredo 5\nundo 9\nredo 1\nredo 3\nredo 2\n")
    assert.truthy(has(out, "\nUndid 2 moves: Player 1: load grain on ship 1; Player 2: load grain on ship 1\n"), out)
    assert.truthy(has(out, "\nPlayer 2 loads grain on ship 1\nRedid 2 moves (only 2 were there to redo).\n"), out)
    assert.truthy(has(out, "\nUndid 2 moves (only 2 were there to undo): Player 1: load grain on ship 1; "
      .. "Player 2: load grain on ship 1\n"), out)
    assert.truthy(has(out, "\nPlayer 1 loads grain on ship 1\nRedid 1 move.\n"), out)
    assert.truthy(has(out, "\nPlayer 2 loads grain on ship 1\nRedid 1 move (only 1 was there to redo).\n"), out)
    assert.truthy(has(out, "\nNothing to redo.\nrc=0\n"), out)
  end)

  it("with a bot, counts the person's moves", function()
    local out = run("--players 2 --seed 3 --bot 2=random", "1\n1\nundo 5\nredo 9\n")
    assert.truthy(has(out, "\nUndid 4 moves (only 2 of your moves were there to undo): Player 1: load grain on ship 1;"),
      out)
    assert.truthy(has(out, "\nRedid 4 moves (only 2 of your moves were there to redo).\n"), out)
  end)

  it("secret orders: the steps there were to take back", function()
    local out = run("--rules old_world --players 2 --seed 5", "bid 2\nbid 1\n1\n1\nundo 5\n")
    assert.truthy(has(out, "\nTook back 2 steps of Player 2's order (only 2 were there to take back): acquire none; "
      .. "release sheep_herding\n"), out)
  end)

  it("kontor play: a seat's own moves", function()
    local out = run("play --players 2 --seed 3 --names Ann,Bob", "1\n1\n1\nundo 3\nyes\nredo 4\n")
    assert.truthy(has(out, "\nUndid 2 moves (only 1 of your moves was there to undo): Bob: load grain on ship 1; "
      .. "Ann: load grain on ship 2\n"), out)
    assert.truthy(has(out, "Redid 1 move (only 1 of your moves was there to redo).\n"), out)
  end)
end)
