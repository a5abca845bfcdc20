-- designer_explain_spec.lua: a variant's explain that fails says so, with
-- its file:line (a QA finding: an `explain.sell` with a bug left `why sell
-- gold` at 'is not a legal action; expected one of: ...', the reason
-- gone and nothing said, and `trace` had nothing either).
local support = require "tests.lua.support"

local SELL = [[
return {
  variant = true, name = "sell_card", base = "sea_merchants",
  apply = function(R)
    local end_of_phase_two = R.rules.end_of_phase_two
    function R.rules.end_of_phase_two(g, seat)
      end_of_phase_two(g, seat)
      if g.phase == "over" then return end
      local options = { "keep", { "sell", "wood" } }
      if options[g:choose(seat, "sell", options)] == "keep" then return end
    end
  end,
  explain = {
    sell = function(g, seat, text) %s end,
  },
}
]]

describe("a variant's explain", function()
  local tmp, cleanup = support.scratch()
  teardown(cleanup)

  local function at_sell(body)
    local f = support.write(tmp("sell_card.lua"), SELL:format(body))
    local g = kontor.new_game { rules = "sea_merchants", variants = { f }, players = 2, seed = 3 }
    for _, m in ipairs { "1: load grain on ship 1", "2: load porcelain on ship 2", "1: load grain on ship 2",
                         "2: load wood on ship 1", "1: pass", "1: draw" } do assert(g:apply(m)) end
    return g, f
  end

  it("that fails: the reason says where, and the game is as it was", function()
    local g, f = at_sell("return g.nothing.x")
    local n = #g:moves()
    assert.are.equal("'sell gold' is not a legal action: R.explain.sell failed: " .. f .. ":13: attempt to index a "
      .. "nil value (field 'nothing'); expected one of: keep, sell wood", g:why("sell gold"))
    local ok, msg = g:apply("sell gold")
    assert.is_nil(ok)
    assert.truthy(support.has(msg, "R.explain.sell failed: " .. f .. ":13:"), msg)
    assert.are.equal(n, #g:moves())
  end)

  it("that works: its reason, as before", function()
    local g = at_sell('return "you hold no " .. text:match("sell (%a+)")')
    assert.are.equal("'sell gold' is not a legal action: you hold no gold; expected one of: keep, sell wood",
      g:why("sell gold"))
  end)
end)
