-- designer_option_line_spec.lua: an option whose declaration in the file
-- is wrong (a default out of its min..max, a type the engine does not
-- know) is told with the file and the line that declares it, as every
-- other mistake of a script is (a QA finding: a REPL `reload` of a variant
-- whose default was edited from 1 to 9, max 5, said only "option pay of
-- sell_card: its default 9 is above the maximum 5").
local support = require "tests.lua.support"

local function sell(default, typ)
  return ([[
-- Sell a card at the end of phase II.
return {
  variant = true,
  name = "sell_card",
  base = "sea_merchants",
  summary = "sell one card for `pay` coins",
  options = {
    pay = { default = %s, type = %q, min = 0, max = 5, doc = "coins for a sold card" },
  },
  apply = function(R, opts) R.data.contract_bonus = opts.pay end,
}
]]):format(default, typ)
end

describe("an option declared wrong in the file", function()
  local tmp, cleanup = support.scratch()
  teardown(cleanup)

  it("is told with its file:line in sim", function()
    local f = support.write(tmp("sell_card.lua"), sell(9, "integer"))
    local out, e, code = support.run_split(support.plain_binary() .. " sim --variant " .. f .. " --games 2")
    assert.are.equal(1, code)
    assert.are.equal("", out)
    assert.are.equal("kontor: sim: " .. f .. ":8: option pay of sell_card: its default 9 is above the maximum 5\n", e)
    support.write(f, sell(1, "int"))
    local _; _, e = support.run_split(support.plain_binary() .. " sim --variant " .. f .. " --games 2")
    assert.are.equal("kontor: sim: " .. f .. ":8: option pay of sell_card: type 'int' is not one of boolean, integer, "
      .. "list, string: did you mean 'integer'?\n", e)
  end)

  it("at the REPL's reload: one line with file:line, the game as it was, and the fixed file reloads", function()
    local f = support.write(tmp("sell_card.lua"), sell(1, "integer"))
    local bad, good = support.write(tmp("bad.lua"), sell(9, "integer")), support.write(tmp("good.lua"), sell(2, "integer"))
    local script = table.concat({ "1", "1",
      ("os.execute(%q)"):format("cp " .. bad .. " " .. f), "reload", "moves",
      ("os.execute(%q)"):format("cp " .. good .. " " .. f), "reload", "moves" }, "\n")
    local out = support.run(support.plain_binary() .. " --variant " .. f .. " --players 2 --seed 3", script .. "\n")
    assert.truthy(support.has(out, "reload failed, the game is as it was: " .. f .. ":8: option pay of sell_card: "
      .. "its default 9 is above the maximum 5\nPlayer 1 to choose (load).\n1  Player 1: load grain on ship 1\n"
      .. "2  Player 2: load grain on ship 1\n"), out)
    assert.truthy(support.has(out, "with the variant sell_card (" .. f .. "); replayed 2 moves.\n"), out)
  end)
end)
