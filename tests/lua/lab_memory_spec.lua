-- The lab's memory is flat in the number of games (docs/balance.md, "All
-- cores"): compare, sweep and worth with --jobs keep sums, never the games,
-- so three times the games leave the largest resident set where it was; and a
-- shard whose games its own --jobs play keeps none either (it still merges;
-- merge --games-out asks for one made without --jobs).

local support = require "tests.lua.support"
local json = kontor.core.json

local q = support.sh_quote
local runner = support.lab()
local ROOT, PLAIN, tmp, kontor_cmd = runner.root, runner.binary, runner.tmp, runner.run
teardown(runner.cleanup)

-- The largest resident set (KiB) of the command and every process it
-- started, as /usr/bin/time (Debian package time) reads it from the kernel.
local function max_rss(args)
  local f = tmp("rss.txt")
  local ok = os.execute(string.format("cd %s && /usr/bin/time -f %%M -o %s %s %s > /dev/null 2>&1", q(ROOT), q(f),
    q(PLAIN), args))
  assert.is_true(ok, args)
  return tonumber(support.read(f):match("(%d+)%s*$"))
end

describe("the lab's memory", function()
  local cases = {
    { "compare", "compare --players 3 --a '' --b '--variant hand_limit' --jobs 2 --games " },
    { "sweep", "sweep --players 3 --variant hand_limit --over size=4,6 --jobs 2 --games " },
    { "worth", "worth --players 3 --bot random --kinds 'phase1: buy' --jobs 2 --games " },
  }
  for _, c in ipairs(cases) do
    -- from 1,500 games on: a rule script's kept option lists (Sea
    -- Merchants' by the sets they offer) fill in the first games
    it("does not grow with the games: " .. c[1] .. " --jobs 2, 1500 and 4500 games", function()
      local small = max_rss(c[2] .. "1500")
      local large = max_rss(c[2] .. "4500")
      -- holding every game would add megabytes (a shard that keeps its
      -- 2,000 paired games' lines: 32.6 MB against 8.0)
      -- (a rule set's kept lists are bounded: sweep's two rule sets fill
      -- theirs to about 23.6 MB at 15,000 games and 23.9 at 40,000)
      assert.is_true(large < small * 1.15 + 6144, string.format("%s: %d KiB for 1500 games, %d KiB for 4500", c[1], small, large))
    end)
  end

  it("is flat for a shard that keeps its games for merge --games-out, which gets them all", function()
    local args = "compare --players 3 --a '' --b '--variant hand_limit' --shard 1/1 --games "
    local small, large = max_rss(args .. "1500"), max_rss(args .. "4500")
    -- (it held them all before: 10.9 MB for 150 games, 25.3 MB for 1500)
    -- (the room for the rule sets' bounded kept lists, as above)
    assert.is_true(large < small * 1.15 + 6144, string.format("%d KiB for 1500 games, %d KiB for 4500", small, large))
    local shard = tmp("kept.json")
    support.write(shard, (kontor_cmd(args .. "150")))
    local sh = json.decode(support.read(shard))
    assert.are.equal(150, #sh.sides[1].games)
    assert.are.equal(150, #sh.sides[2].games)
    assert.are.equal(150, sh.sides[2].games[150].game)
    assert.are.equal("b", sh.sides[2].games[1].side)
    local g = tmp("kept.jsonl")
    local _, e, code = kontor_cmd("merge " .. q(shard) .. " --games-out " .. q(g))
    assert.are.equal(0, code, e)
    local n = 0
    for _ in support.read(g):gmatch("[^\n]+") do n = n + 1 end
    assert.are.equal(300, n)
  end)

  it("is flat for a shard its own jobs play: it keeps no games, and merges", function()
    local a, e, code = kontor_cmd("compare --players 3 --a '' --b '--variant hand_limit' --games 40 --shard 1/2 --jobs 2")
    assert.are.equal(0, code, e)
    local sh = json.decode(a)
    assert.is_nil(sh.sides[1].games)
    assert.is_nil(sh.sides[2].games)
    local b = kontor_cmd("compare --players 3 --a '' --b '--variant hand_limit' --games 40 --shard 2/2")
    assert.are.equal(20, #json.decode(b).sides[1].games)     -- played here: its games kept for --games-out
    local fa, fb = tmp("a.json"), tmp("b.json")
    support.write(fa, a)
    support.write(fb, b)
    local merged = kontor_cmd("merge " .. q(fa) .. " " .. q(fb) .. " --json")
    local one = kontor_cmd("compare --players 3 --a '' --b '--variant hand_limit' --games 40 --jobs 1 --json")
    assert.are.equal(one, merged)
    local _, me, mcode = kontor_cmd("merge " .. q(fa) .. " " .. q(fb) .. " --games-out " .. q(tmp("g.jsonl")))
    assert.are.equal(1, mcode)
    assert.are.equal("kontor: merge: shard 1 (games 1-20) keeps no games: it was made with --jobs; "
      .. "make it with --shard K/N alone\n", me)
  end)
end)
