-- designer_restrict_spec.lua: a bot restriction on a move only the variant
-- has (`--bot 4=greedy:avoid=sell`, seated on both sides of a compare) is
-- not called a no-op because the base game (A) never offers that move (a
-- QA finding: compare warned "matches no option offered ... so it changes
-- nothing" while the restricted seat's win rate fell from 0.22 to 0.07 in B).
local support = require "tests.lua.support"


describe("a restriction in a comparison", function()
  local tmp, cleanup = support.scratch()
  teardown(cleanup)

  local function compare(bot, a)
    local file = support.write(tmp("sell_card.lua"), support.sell_card("1"))
    return support.run_split(support.plain_binary() .. " compare --games 4 --no-moves --json --jobs 1"
      .. (bot and (" --bot " .. support.sh_quote(bot)) or "")
      .. " --a " .. support.sh_quote(a or "") .. " --b " .. support.sh_quote("--variant " .. file))
  end

  it("that matches a move only B offers is not warned of", function()
    local out, e, code = compare("4=random:avoid=sell")
    assert.are.equal(0, code, e)
    assert.are.equal("", e)
    assert.truthy(support.has(out, '"games":4'), out)
  end)

  it("that matches in neither setup is warned of once, with the close word B offers", function()
    local _, e, code = compare("4=random:avoid=sel")
    assert.are.equal(0, code, e)
    local lines = support.lines(e)
    assert.are.equal(2, #lines, e)   -- the warning, then ""
    assert.truthy(support.has(lines[1], "kontor: compare: warning: --bot 4=random: avoid 'sel' matches no option "
      .. "offered in 20 random games of each of the 2 setups, so it changes nothing: did you mean 'sell'? "
      .. "(decisions: buy_card, "), e)
    assert.truthy(support.has(lines[1], "play_slot, sell; options begin with: buy, dock, draw, exchange, keep,"), e)
  end)

  it("given to A alone, on a move A does not have, is warned of for A", function()
    local _, e, code = compare(nil, "--bot 4=random:avoid=sell")
    assert.are.equal(0, code, e)
    assert.truthy(support.has(e, "kontor: compare: warning: --bot 4=random: avoid 'sell' matches no option offered "
      .. "in 20 random games of this setup, so it changes nothing: no option offered begins with those words"), e)
  end)
end)
