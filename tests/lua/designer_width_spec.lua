-- designer_width_spec.lua: --until-width says what it did (a QA finding:
-- `compare --games 4000 --until-width 0.01` printed "games 4000 paired"
-- and nothing else, so a designer could not tell that the width asked
-- was never reached, nor, with 0.5, that the run had stopped at 1000).
local support = require "tests.lua.support"

local function last_line(args)
  local out, e, code = support.run_split(support.plain_binary() .. " " .. args .. " --jobs 1")
  assert.are.equal(0, code, e)
  local lines = support.lines(out)
  return lines[#lines - 1], out   -- the last line before the final ""
end

describe("--until-width", function()
  local dice = "compare --rules tests/balance/dice.lua --a '' --b '--option target=30'"

  it("says where it stopped, and the widest interval then", function()
    local l, out = last_line(dice .. " --games 3000 --until-width 0.05")
    assert.truthy(support.has(out, "games        2000 paired (seed 1)"), out)
    assert.are.equal("until-width 0.05: stopped at 2000 of 3000 games, every win rate's interval narrower "
      .. "(widest 0.0369: first-player advantage (seat 1))", l)
  end)

  it("says when the width was not reached, and about how many games would reach it", function()
    assert.are.equal("until-width 0.02: not reached in 2000 games (widest 0.0369: first-player advantage (seat 1); "
      .. "about 7000 games would narrow it)", (last_line(dice .. " --games 2000 --until-width 0.02")))
  end)

  it("says so in sim when every game was needed and the width was met", function()
    assert.are.equal("until-width 0.5: every win rate's interval narrower after all 1000 games "
      .. "(widest 0.0616: first-player advantage (seat 1))",
      (last_line("sim --rules tests/balance/dice.lua --games 1000 --until-width 0.5")))
  end)

  it("judges the win rates and the first player's advantage, not the scores in the rule set's units", function()
    -- the mean scores' and the stat's intervals are far wider than 0.05 at 2000 games (0.88 for banked
    -- per game): judged alike, a width fit for win rates was never reached (the designer pass)
    local _, out = last_line(dice .. " --games 3000 --until-width 0.05")
    local lo, hi = out:match("\nbanked per game[^\n]*%[([%-+%d.]+), ([%-+%d.]+)%]")
    assert.truthy(lo, out)
    assert.is_true(tonumber(hi) - tonumber(lo) > 0.5, out)   -- stopped all the same, at 2000 of 3000
    assert.truthy(support.has(out, "games        2000 paired (seed 1)"), out)
  end)

  it("prints nothing without it", function()
    local l = last_line(dice .. " --games 200")
    assert.falsy(l:find("until%-width"), l)
  end)
end)
