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
    local l, out = last_line(dice .. " --games 3000 --until-width 1")
    assert.truthy(support.has(out, "games        2000 paired (seed 1)"), out)
    assert.are.equal("until-width 1: stopped at 2000 of 3000 games, every result's interval narrower "
      .. "(widest 0.8809: banked per game)", l)
  end)

  it("says when the width was not reached, and about how many games would reach it", function()
    assert.are.equal("until-width 0.05: not reached in 2000 games (widest 0.8809: banked per game; "
      .. "about 621000 games would narrow it)", (last_line(dice .. " --games 2000 --until-width 0.05")))
  end)

  it("says so in sim when every game was needed and the width was met", function()
    assert.are.equal("until-width 50: every result's interval narrower after all 1000 games "
      .. "(widest 1.0935: mean score, seat 2)", (last_line("sim --rules tests/balance/dice.lua --games 1000 --until-width 50")))
  end)

  it("prints nothing without it", function()
    local l = last_line(dice .. " --games 200")
    assert.falsy(l:find("until%-width"), l)
  end)
end)
