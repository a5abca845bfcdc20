-- A measure's interval stays inside what the measure can be
-- (lua/kontor/balance/stats.lua acc_ci, docs/balance.md "Reading the
-- intervals"): a share (a win rate, a share of games) never below 0 or
-- above 1 and never of no width; a count (moves a game) never below 0.
-- Before, 1 game with a contract in 60 printed "0.0167 [-0.0167, 0.0500]"
-- and a move in every game of 20 "1.0000 [1.0000, 1.0000]".
local stats = require "kontor.balance.stats"

local function acc_of(values)
  local a = stats.acc()
  for _, v in ipairs(values) do stats.add(a, { x = v }) end
  return a
end

local function rep(v, n) local t = {} for i = 1, n do t[i] = v end return t end

local function near(want, got)
  assert.is_true(math.abs(want - got) < 5e-5, ("%.6f, not %.6f"):format(got, want))
end

describe("an interval within the measure's domain", function()
  it("a share of 0 or 1 in every game gets Wilson's interval, not one of no width", function()
    local r = stats.acc_ci(acc_of(rep(0, 20)), "x", 1, "share")
    near(0, r.ci[1]); near(0.1611, r.ci[2])
    r = stats.acc_ci(acc_of(rep(1, 20)), "x", 1, "share")
    near(0.8389, r.ci[1]); near(1, r.ci[2])
  end)

  it("a share whose t interval crosses 0 or 1 gets Wilson's, which does not", function()
    local v = rep(0, 59); v[60] = 1
    local plain = stats.acc_ci(acc_of(v), "x", 1)
    assert.is_true(plain.ci[1] < 0)                      -- the t interval: [-0.0167, 0.0500]
    local r = stats.acc_ci(acc_of(v), "x", 1, "share")
    near(0.0167, r.mean); near(0.0029, r.ci[1]); near(0.0886, r.ci[2])
    -- one inside 0..1 with a width is the t interval, as before
    local w = { 0, 1, 0, 1, 1, 0, 1, 0 }
    assert.are.same(stats.acc_ci(acc_of(w), "x", 1).ci, stats.acc_ci(acc_of(w), "x", 1, "share").ci)
  end)

  it("a count is cut at 0, and none in every game reaches -ln(0.025) / n", function()
    local v = rep(0, 59); v[60] = 1
    local r = stats.acc_ci(acc_of(v), "x", 1, "count")
    near(0, r.ci[1]); near(0.0500, r.ci[2])
    r = stats.acc_ci(acc_of(rep(0, 20)), "x", 1, "count")
    near(0, r.ci[1]); near(-math.log(0.025) / 20, r.ci[2])
    -- a measure without a domain (a score, a difference) keeps its t interval
    assert.is_true(stats.acc_ci(acc_of(v), "x", 1).ci[1] < 0)
  end)
end)

describe("kontor sweep", function()
  it("prints no share and no count below 0", function()
    local support = require "tests.lua.support"
    local dir = support.tmpdir()
    support.write(dir .. "/price.lua", [[
return { variant = true, name = "price", base = "sea_merchants",
  options = { price = { default = 11, type = "integer", min = 0, doc = "a contract's price" } },
  apply = function(R, o) R.data.price.contract = o.price end }
]])
    local bin = support.binary()
    if bin:sub(1, 1) ~= "/" then bin = os.getenv("PWD") .. "/" .. bin end   -- (the run starts in dir)
    local out = support.run("cd " .. support.sh_quote(dir) .. " && " .. bin
      .. " sweep --variant ./price.lua --over price=11..12 --games 12")
    os.execute("rm -rf " .. support.sh_quote(dir))
    local rows = 0
    for label, lo in out:gmatch("\n([%w_ :]-%a[%w_ :]-) +%d* +%-?%d+%.%d+  %[(%-?%d+%.%d+),") do
      if label:match("share of games") or label:match("per game") or label:match("^win rate") then
        rows = rows + 1
        assert.is_true(tonumber(lo) >= 0, label .. ": " .. lo .. "\n" .. out)
      end
    end
    assert.is_true(rows > 5, out)
  end)
end)
