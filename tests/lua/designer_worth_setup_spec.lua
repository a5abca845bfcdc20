-- designer_worth_setup_spec.lua: kontor worth's text says which setup it
-- measured (a QA finding: `kontor worth --variant ./sell_card.lua ...`
-- printed the bot, the players and the games but not the rule set or
-- the variant, so two runs of two variants read the same; the report and
-- the JSON said it, the text did not).
local support = require "tests.lua.support"

describe("kontor worth's text", function()
  it("names the setup on its second line, variant and options as given", function()
    local out, e, code = support.run_split(support.plain_binary()
      .. " worth --variant hand_limit:size=5 --players 3 --bot random --games 6 --kinds 'phase1: pass' --jobs 1")
    assert.are.equal(0, code, e)
    local lines = support.lines(out)
    assert.are.equal("What a move is worth: random, 3 players, 6 games a kind (seed 1), the restricted seat in turn", lines[1])
    assert.are.equal("setup: --rules sea_merchants --variant hand_limit:size=5 --players 3", lines[2])
    assert.truthy(lines[3]:find("^fair share 0%.3333 %(1/3%); the same seat unrestricted on the same deals wins "), lines[3])
    assert.are.equal("win rate: of the seat that never makes the move; diff: its win less its win unrestricted, "
      .. "deal by deal", lines[4])
  end)
end)
