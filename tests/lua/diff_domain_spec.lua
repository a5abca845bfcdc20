-- The interval of a difference stays inside what the difference can be
-- (the designer pass saw a share of games differ by +0.9508 to +1.0164):
-- two shares differ by -1 to 1; a count's difference is not bounded.
local stats = require "kontor.balance.stats"

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
    -- a count the same in every game keeps [0, 0] (its difference has no bound)
    assert.are.same({ 0, 0 }, stats.acc_paired(pair, "m", 1, "count").ci)
  end)
end)
