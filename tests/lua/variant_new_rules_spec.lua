-- variant_new_rules_spec.lua - a rule a variant adds next to the rule
-- set's own: refused when nothing could call it and its name is close to
-- one the rule set has (a misspelling: the variant would change nothing),
-- kept when the variant's own text calls it (lua/kontor/rules.lua).

local support = require "tests.lua.support"
local tmp, cleanup = support.scratch()
teardown(cleanup)

local function sim(file, text)
  local path = tmp(file)
  support.write(path, text)
  return support.run(support.binary() .. " sim --variant " .. path .. " --games 20 --seed 1 --json 2>&1", ""), path
end

describe("a rule a variant adds", function()
  it("with a name close to the rule set's, called by the variant itself: kept, and it plays", function()
    local out = sim("bonus.lua", [[
return { variant = true, base = "sea_merchants", apply = function(R)
  -- one more card each time a player draws two or more
  R.rules.draw_card2 = function(g, seat) return R.rules.draw_card(g, seat) end
  local draw_cards = R.rules.draw_cards
  R.rules.draw_cards = function(g, seat, n, why)
    if n >= 2 and #g.deck > n then R.rules.draw_card2(g, seat) end
    return draw_cards(g, seat, n, why)
  end
end }
]])
    local js = kontor.core.json.decode(out)
    local base = kontor.core.json.decode((support.run(support.binary() .. " sim --games 20 --seed 1 --json", "")))
    assert.are_not.equal(base.mean_turns, js.mean_turns)
  end)

  it("that nothing calls, with a name close to one the rule set has: refused, naming it", function()
    local out, path = sim("typo.lua", [[
return { variant = true, base = "sea_merchants", apply = function(R)
  R.rules.draw_card2 = function() return true end
end }
]])
    assert.equal("kontor: sim: " .. path .. ":2: R.rules.draw_card2 is not a rule of sea_merchants (nothing would "
      .. "call it): did you mean 'draw_card'? (rules: draw_action, draw_card, draw_cards, end_of_phase_two, "
      .. "extra_exchanges, loading_order, no_draw, payout_count, take_from_hand, trade)\n", out)
  end)

  it("a new name in R.data close to one there (a card 'shop' beside 'ship'), named again: kept", function()
    local out = sim("shop.lua", [[
return { variant = true, base = "sea_merchants", apply = function(R)
  R.data.price.shop = 9
  R.data.supply.shop = 2
  R.data.article.shop = "a"
  R.data.specials[#R.data.specials + 1] = "shop"
end }
]])
    local js = kontor.core.json.decode(out)
    assert.truthy(js, out)
    assert.equal(20, js.games)
  end)

end)

describe("a variant's own fields", function()
  it("of the designer's (author, notes) are left alone; a rule set's function is refused", function()
    local out = sim("meta.lua", 'return { variant = true, base = "sea_merchants", author = "Ann", '
      .. 'notes = "cheaper docks", apply = function(R) R.data.price.dock = 9 end }\n')
    assert.equal(20, kontor.core.json.decode(out).games)
    local path
    out, path = sim("setup.lua", 'return { variant = true, base = "sea_merchants", setup = function(g) end, '
      .. 'apply = function(R) end }\n')
    assert.equal("kontor: sim: " .. path .. ": a variant has no field 'setup' (fields: apply, base, explain, "
      .. "includes, name, options, replaces, summary, title, variant): a variant changes the rule set in "
      .. "apply = function(R, opts) ... end (there: R.setup = ...)\n", out)
  end)

  it("a name with a pattern's characters gets the same message, not the engine's (before: 'unfinished capture')", function()
    local out, path = sim("magic.lua", [[
return { variant = true, base = "sea_merchants", apply = function(R)
  R.rules["draw_card("] = function() return true end
end }
]])
    assert.equal("kontor: sim: " .. path .. ":2: R.rules.draw_card( is not a rule of sea_merchants (nothing would "
      .. "call it): did you mean 'draw_card'? (rules: draw_action, draw_card, draw_cards, end_of_phase_two, "
      .. "extra_exchanges, loading_order, no_draw, payout_count, take_from_hand, trade)\n", out)
  end)
end)
