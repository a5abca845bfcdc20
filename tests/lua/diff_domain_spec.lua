-- The interval of a difference stays inside what the difference can be
-- (the designer pass saw a share of games differ by +0.9508 to +1.0164):
-- two shares differ by -1 to 1; a count's difference is not bounded.
local stats = require "kontor.balance.stats"
local support = require "tests.lua.support"

describe("a difference's interval", function()
  it("of two shares is kept within -1..1, a count's is left as it is", function()
    assert.are.same({ 0.9508, 1 }, stats.diff_ci({ 0.9508, 1.0164 }, "share"))
    assert.are.same({ -1, -0.9 }, stats.diff_ci({ -1.02, -0.9 }, "share"))
    assert.are.same({ 0.9508, 1.0164 }, stats.diff_ci({ 0.9508, 1.0164 }, "count"))
    assert.is_nil(stats.diff_ci(nil, "share"))
  end)

  it("of a compare's shares lies within -1..1 where the raw t interval would pass 1", function()
    -- 10 paired games: B makes the move in every game, A in one: the
    -- differences 1 (9 times) and 0 have the t interval [0.6738, 1.1262]
    local pair = stats.acc()
    for i = 1, 10 do stats.add(pair, stats.diff({ m = i == 10 and 1 or 0 }, { m = 1 })) end
    local r = stats.acc_paired(pair, "m", 1)
    assert.is_true(r.ci[2] > 1, tostring(r.ci[2]))
    local ci = stats.diff_ci(r.ci, "share")
    assert.are.same({ r.ci[1], 1 }, ci)
    assert.are.equal("up", stats.verdict(r.ci, "up", "down"))   -- the verdict is the interval's before
  end)

  it("of a share the same on both sides in every game has a width: Wilson's bound for none of n", function()
    -- compare --bot 4=greedy:avoid=buy: the random seats never won, on either side
    local pair = stats.acc()
    for _ = 1, 20 do stats.add(pair, stats.diff({ m = 0 }, { m = 0 })) end
    local r = stats.acc_paired(pair, "m", 1, "share")
    assert.are.same({ "-0.1611", "0.1611" }, { ("%.4f"):format(r.ci[1]), ("%.4f"):format(r.ci[2]) })
    assert.is_nil(stats.verdict(r.ci, "up", "down"))
  end)

  it("of a count the same on both sides in every game has a width: -ln(0.025)/n either way", function()
    -- no game showed one more on either side: as a count 0 in every game,
    -- the mean of such events may still be up to -ln(0.025)/n a game
    local pair = stats.acc()
    for _ = 1, 20 do stats.add(pair, stats.diff({ m = 3 }, { m = 3 })) end
    local r = stats.acc_paired(pair, "m", 1, "count")
    assert.are.equal(0, r.diff)
    assert.are.same({ "-0.1844", "0.1844" }, { ("%.4f"):format(r.ci[1]), ("%.4f"):format(r.ci[2]) })
    assert.are.same(r.ci, stats.diff_ci(r.ci, "count"))
    assert.is_nil(stats.verdict(r.ci, "more", "fewer"))
    -- 1000 games: +-0.0037; a measure of no domain (a score) still has none
    for _ = 21, 1000 do stats.add(pair, stats.diff({ m = 3 }, { m = 3 })) end
    assert.are.equal("0.0037", ("%.4f"):format(stats.acc_paired(pair, "m", 1, "count").ci[2]))
    assert.are.same({ 0, 0 }, stats.acc_paired(pair, "m", 1).ci)
  end)

  it("unpaired, of shares and counts alike in every game of each side, has a width too", function()
    -- --unpaired: Welch's interval has no width where neither side varied
    local a, b = stats.acc(), stats.acc()
    for _ = 1, 20 do
      stats.add(a, { s = 1, c = 3, z = 0, x = 7 })
      stats.add(b, { s = 1, c = 3, z = 0, x = 7 })
    end
    local function ci(key, domain)
      local r = stats.acc_unpaired(a, b, key, 1, domain)
      return { ("%.4f"):format(r.ci[1]), ("%.4f"):format(r.ci[2]) }
    end
    assert.are.same({ "-0.1611", "0.1611" }, ci("s", "share"))   -- Wilson's for 20 of 20, each side
    assert.are.same({ "-0.3689", "0.3689" }, ci("c", "count"))   -- 3 +- 0.1844 on each side
    assert.are.same({ "-0.1844", "0.1844" }, ci("z", "count"))   -- 0 cannot go below 0
    assert.are.same({ "0.0000", "0.0000" }, ci("x"))              -- no domain: none
  end)

  it("of compare's counts the same in every game, as kontor compare prints them", function()
    -- the same game on both sides under two labels: every game alike
    local out = support.kontor_rc("compare --rules tests/balance/dice.lua --a '' --b '--option target=20' "
      .. "--games 20 --jobs 1")
    for _, row in ipairs { "game length %(turns%)", "lead changes", "turn: bank per game", "turn: roll per game" } do
      assert.matches("\n" .. row .. " +[%d.]+ +[%d.]+ +%+0%.0000  %[%-0%.1844, %+0%.1844%]\n", out)
    end
    assert.matches("\nturn: bank: share of games +1%.0000 +1%.0000 +%+0%.0000  %[%-0%.1611, %+0%.1611%]\n", out)
    -- the first player's advantage differs as seat 1's win rate does (it was [0, 0] beside [-0.1611, +0.1611])
    assert.matches("\nwin rate, seat 1 +0%.5000 +0%.5000 +%+0%.0000  %[%-0%.1611, %+0%.1611%]\n", out)
    assert.matches("\nfirst%-player advantage %(seat 1%) +0%.0000 +0%.0000 +%+0%.0000  %[%-0%.1611, %+0%.1611%]\n", out)
    -- a measure in the rule set's units has no bound to give
    assert.matches("\nmean score, seat 1 +16%.2500 +16%.2500 +%+0%.0000  %[%+0%.0000, %+0%.0000%]\n", out)
    assert.matches("rc=0", out, 1, true)
  end)
end)
