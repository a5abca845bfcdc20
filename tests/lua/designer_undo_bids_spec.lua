-- designer_undo_bids_spec.lua: the REPL's undo against bots at a
-- simultaneous choice (Old World's bids, which the bots make as the
-- choice opens) takes back your move and names it (a QA finding: `undo`
-- after bidding said "Undid 3 moves (only 0 of your moves were there to
-- undo): Player 2: bid 0; Player 3: bid 0; Player 3: bid 0", and with
-- random bots went on to the very start of the game, 11 moves: it named
-- the last move listed, in seat order, while it took back the last one
-- taken, and never counted yours).
local support = require "tests.lua.support"

local function repl(bots, input)
  return support.run(support.plain_binary() .. " --rules old_world --players 3 --seed 2 --bot 2=" .. bots
    .. " --bot 3=" .. bots, input)
end

describe("undo against bots at Old World's bids", function()
  it("takes back your bid alone, the bots' secret bids staying", function()
    local out = repl("greedy", "1\nundo\nmoves\n")
    assert.truthy(support.has(out, "Undid 1 move: Player 1: bid 0\nPlayer 1 to choose (bid).\n"
      .. "1  Player 2: (secret)\n2  Player 3: (secret)\n"), out)
  end)

  it("goes back to your last decision, not to the start, and redo plays it all again", function()
    local out = repl("random", "1\nundo\nmoves\nredo\nmoves\n")
    assert.truthy(support.has(out, "Undid 9 moves: Player 1: bid 0; Player 3: pick facility worker; Player 2: pick "
      .. "land worker; Player 2: (secret); Player 2: (secret); Player 3: (secret); Player 3: (secret); Player 3: "
      .. "(secret); Player 3: (secret)\nPlayer 1 to choose (bid).\n1  Player 2: (secret)\n2  Player 3: (secret)\n"), out)
    assert.truthy(support.has(out, "Redid 9 moves.\n"), out)
    assert.truthy(support.has(out, "4  Player 3: pick facility worker\n5  Player 2: pick land worker\n"), out)
  end)

  it("with none of your moves yet: nothing undone, the bots' moves stay (before: the bot's move went, "
    .. "and the bot's seat waited on the prompt)", function()
    local out = support.run(support.plain_binary() .. " --players 2 --seed 2 --bot 1=random", "undo\nmoves\n")
    assert.are.equal("Player 1 loads spices on ship 1\nNothing of yours to undo (the moves so far are the bots').\n"
      .. "1  Player 1: load spices on ship 1\n", out)
    out = repl("greedy", "undo\nmoves\n")
    assert.truthy(support.has(out, "Nothing of yours to undo (the moves so far are the bots').\n"
      .. "1  Player 2: (secret)\n2  Player 3: (secret)\n"), out)
  end)
end)
