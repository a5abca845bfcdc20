-- designer_typo_line_spec.lua: a misspelt rule or data name a variant sets
-- is told with the line that names it (a QA finding: a REPL `reload` of a
-- variant edited to set R.data.tax_treshold said "./low_tax.lua: ..." and
-- left the designer to search the file).
local support = require "tests.lua.support"

local LOW_TAX = [[
-- Caribbean: the tax takes half only from `threshold` coins.
return {
  variant = true,
  name = "low_tax",
  base = "caribbean",
  options = {
    threshold = { default = 16, type = "integer", min = 1, max = 40 },
  },
  apply = function(R, opts)
    R.data.%s = opts.threshold
  end,
}
]]

describe("a misspelt name a variant sets", function()
  local tmp, cleanup = support.scratch()
  teardown(cleanup)

  it("is told at the REPL's reload with file:line, the game kept, and the fixed file reloads", function()
    local f = support.write(tmp("low_tax.lua"), LOW_TAX:format("tax_threshold"))
    local bad = support.write(tmp("bad.lua"), LOW_TAX:format("tax_treshold"))
    local good = support.write(tmp("good.lua"), LOW_TAX:format("tax_threshold"))
    local script = table.concat({ "1",
      ("os.execute(%q)"):format("cp " .. bad .. " " .. f), "reload", "moves",
      ("os.execute(%q)"):format("cp " .. good .. " " .. f), "reload" }, "\n") .. "\n"
    local out = support.run(support.plain_binary() .. " --variant " .. f .. " --players 2 --seed 3", script)
    assert.truthy(support.has(out, "reload failed, the game is as it was: " .. f .. ":10: R.data.tax_treshold is not "
      .. "in the data of caribbean (nothing would read it): did you mean 'tax_threshold'? (R.data: "), out)
    assert.truthy(support.has(out, "\n1  Player 1: reveal\n"), out)
    assert.truthy(support.has(out, "with the variant low_tax (" .. f .. "); replayed 1 move.\n"), out)
  end)

  it("a rule's name: the line of R.rules.NAME", function()
    local f = support.write(tmp("rule.lua"), 'return { variant = true, base = "sea_merchants",\n'
      .. '  apply = function(R)\n\n    R.rules.payuot_count = function() return 5 end\n  end }\n')
    local _, e, code = support.run_split(support.plain_binary() .. " sim --variant " .. f .. " --games 2")
    assert.are.equal(1, code)
    assert.truthy(support.has(e, "kontor: sim: " .. f .. ":4: R.rules.payuot_count is not a rule of sea_merchants "
      .. "(nothing would call it): did you mean 'payout_count'?"), e)
  end)
end)
