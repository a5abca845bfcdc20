-- lab_sweep_values_spec.lua - a sweep over values an option does not take
-- says which of the sweep's values it is, and the range given (`kontor
-- sweep --over OPTION=LO..HI`; the option's own bounds in its message).

local support = require "tests.lua.support"
local BIN = support.binary()

describe("kontor sweep over values an option does not take", function()
  it("names the --over given and the value, for a rule set's option", function()
    local out = support.run(BIN .. " sweep --rules sea_merchants --players 2 --over first_player=1..6 --games 4 2>&1", "")
    assert.equal("kontor: sweep: --over first_player=1..6, the value 5: option first_player of sea_merchants: "
      .. "5 is above the maximum 4\nTry 'kontor --help'.\n", out)
  end)

  it("and for a variant's option, below its minimum", function()
    local out = support.run(BIN .. " sweep --rules sea_merchants --variant hand_limit --over hand_limit.size=0..3 "
      .. "--games 4 2>&1", "")
    assert.equal("kontor: sweep: --over hand_limit.size=0..3, the value 0: option size of hand_limit: "
      .. "0 is below the minimum 3\nTry 'kontor --help'.\n", out)
  end)

  it("a range of what is not a whole number says what a range is", function()
    local out = support.run(BIN .. " sweep --variant hand_limit --over size=a..b --games 4 2>&1", "")
    assert.equal("kontor: sweep: --over 'a..b': a range is LO..HI of whole numbers (e.g. 4..7, or 4..12:2); "
      .. "other values are a list, a,b,c\nTry 'kontor --help'.\n", out)
  end)
end)

describe("kontor ladder --games", function()
  it("says that the ladder counts deals", function()
    local out = support.run(BIN .. " ladder --games 10 random greedy 2>&1", "")
    assert.equal("kontor: ladder: unknown option '--games' (the ladder counts --deals: each pair of bots "
      .. "plays each deal twice)\nTry 'kontor --help'.\n", out)
  end)
end)
