-- docsqa_merge_spec.lua - kontor merge of shards from two runs says what
-- differs (docs/balance.md, docs/bots.md: merge checks every part), not
-- only "setup, seed, games or coverage differ".
-- Run: build/kontor run tests/busted.lua tests/lua/docsqa_merge_spec.lua
local support = require "tests.lua.support"
local BIN = support.plain_binary()
local q = support.sh_quote

describe("kontor merge of shards from another run", function()
  local tmp, cleanup = support.scratch()
  teardown(cleanup)

  local function shard(name, args)
    local out, code = support.run("(" .. BIN .. " " .. args .. " > " .. q(tmp(name)) .. ")")
    assert.are.equal(0, code, out)
    return q(tmp(name))
  end

  it("names what differs: seed, games, setup, the kinds of move, coverage, the command", function()
    local first = shard("a.json", "sim --games 20 --shard 1/2")
    local cases = {
      { "sim --games 20 --seed 2 --shard 2/2", "its seed is 2, shard 1's 1" },
      { "sim --games 30 --shard 2/2", "it is of a run of 30 games, shard 1 of 20" },
      { "sim --games 20 --players 3 --shard 2/2",
        "its setup is --rules sea_merchants --players 3, shard 1's --rules sea_merchants" },
      { "sim --games 20 --no-moves --shard 2/2", "one counts the kinds of move, the other not (--no-moves)" },
      { "sim --games 20 --coverage --shard 2/2", "one was made with --coverage, the other without" },
      { "compare --a '' --b '--variant house' --games 20 --shard 2/2",
        "it is of kontor compare, shard 1 of kontor sim" },
    }
    for i, c in ipairs(cases) do
      local other = shard("b" .. i .. ".json", c[1])
      local out, code = support.run(BIN .. " merge " .. first .. " " .. other)
      assert.are.equal(1, code, out)
      local lo = c[1]:find("games 30") and "16-30" or "11-20"
      assert.are.equal(string.format("kontor: merge: shard 2 (games %s) is from another run than shard 1: %s\n",
        lo, c[2]), out)
    end
  end)

  it("a ladder's part names another list of bots; a worth part another bot #slow", function()
    local a = shard("l1.json", "ladder --deals 4 --shard 1/2 random greedy")
    -- (mcts at 20 iterations: at its default 1,000 these 4 games took 15 s)
    local b = shard("l2.json", "ladder --deals 4 --shard 2/2 random mcts:iterations=20")
    local out, code = support.run(BIN .. " merge " .. a .. " " .. b)
    assert.are.equal(1, code, out)
    assert.are.equal(string.format("kontor: merge: %s:1: deals 3-4 are from another ladder than %s:1: "
      .. "its list of bots is random mcts:iterations=20, not random greedy\n", tmp("l2.json"), tmp("l1.json")), out)
    a = shard("w1.json", "worth --bot random --games 4 --kinds 'phase1: buy' --shard 1/2")
    b = shard("w2.json", "worth --bot random --games 4 --kinds 'phase1: pass' --shard 2/2")
    out, code = support.run(BIN .. " merge " .. a .. " " .. b)
    assert.are.equal(1, code, out)
    assert.are.equal(string.format("kontor: merge: %s:1: games 3-4 are from another run than %s:1: "
      .. "its list of kinds is phase1: pass, not phase1: buy\n", tmp("w2.json"), tmp("w1.json")), out)
  end)
end)
