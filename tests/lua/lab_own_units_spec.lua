-- A measure in the rule set's own units (a score, the winning margin, a
-- stat) whose games never went below 0 is cut at 0, like a count, in
-- sim, compare, sweep, the JSON and the HTML report (docs/balance.md,
-- "Reading the intervals"). Before, Old World's random seats, who score
-- 0 VP in nearly every game, read "mean score, seat 2  0.0800  [-0.0019,
-- 0.1619]": a mean of VP below 0, which no game had.
local support = require "tests.lua.support"
local balance = require "kontor.balance"
local stats = require "kontor.balance.stats"
local json = require("kontor").core.json

local function kontor(args)
  local bin = support.binary()
  if bin:sub(1, 1) ~= "/" then bin = os.getenv("PWD") .. "/" .. bin end
  return support.run(bin .. " " .. args)
end

local OW = "--rules old_world --players 4 --games 200 --seed 1 --jobs 1 --no-moves"

describe("a score that no game made negative", function()
  it("reads [0, ...] in sim's text, its JSON and its report", function()
    local out, rc = kontor("sim " .. OW)
    assert.are.equal(0, rc, out)
    assert.truthy(out:find("\nmean score, seat 1 +0%.1000  %[0%.0127, 0%.1873%]\n"), out)
    assert.truthy(out:find("\nmean score, seat 2 +0%.0800  %[0%.0000, 0%.1619%]\n"), out)
    assert.truthy(out:find("\nmean score, seat 4 +0%.0600  %[0%.0000, 0%.1348%]\n"), out)
    local js = kontor("sim " .. OW .. " --json")
    local ci = json.decode(js).measures["score.2"].ci
    assert.are.equal(0, ci[1]); assert.are.equal(0.1619, tonumber(string.format("%.4f", ci[2])))
    local dir = support.tmpdir()
    local _, rc2 = kontor("sim " .. OW .. " --report " .. support.sh_quote(dir .. "/r.html"))
    assert.are.equal(0, rc2)
    local html = support.read(dir .. "/r.html")
    os.execute("rm -rf " .. support.sh_quote(dir))
    assert.truthy(html:find("<td>mean score, seat 2</td><td>0.0800</td><td>[0.0000, 0.1619]</td>", 1, true))
  end)

  it("reads [0, ...] in sweep", function()
    local out = kontor("sweep --rules old_world --over players=3..4 --games 200 --jobs 1 --no-moves")
    for lo in out:gmatch("\nwinning margin +%d+ +%-?%d+%.%d+  %[(%-?%d+%.%d+),") do
      assert.is_true(tonumber(lo) >= 0, out)
    end
    assert.truthy(out:find("\nwinning margin "), out)
  end)

  it("keeps its t interval where a game went below 0", function()
    local info = { players = 2, stats = {}, first = 1 }
    local a = stats.acc()
    for i = 1, 20 do
      local v = { ["score.1"] = i == 1 and -1 or 0, ["score.2"] = i == 1 and 1 or 0 }
      if i == 1 then v["below0.score.1"] = 1 end
      stats.add(a, v)
    end
    local s = balance.summary(info, a, 1)
    assert.is_true(s.measures["score.1"].ci[1] < -0.05, tostring(s.measures["score.1"].ci[1]))
    assert.are.equal(0, s.measures["score.2"].ci[1])
  end)
end)
