-- designer_sweep_spec.lua: a sweep of an option of one of several
-- variants names the variant that has it (a QA finding: `--over bonus`
-- with two variants said "say whose option, VARIANT.bonus", leaving the
-- designer to work out which VARIANT).
local support = require "tests.lua.support"

describe("sweep --over OPTION with two variants", function()
  local tmp, cleanup = support.scratch()
  teardown(cleanup)

  it("names the variant that declares the option, or says none does", function()
    local f = support.write(tmp("big_bonus.lua"), 'return { variant = true, name = "big_bonus", base = "sea_merchants",\n'
      .. '  options = { bonus = { default = 4, type = "integer", min = 0 } },\n'
      .. '  apply = function(R, o) R.data.contract_bonus = o.bonus end }\n')
    local function sweep(over)
      return support.run_split(support.plain_binary() .. " sweep --variant hand_limit --variant " .. f
        .. " --over " .. over .. " --games 2")
    end
    local out, e, code = sweep("bonus=1..2")
    assert.are.equal(2, code)
    assert.are.equal("", out)
    assert.are.equal("kontor: sweep: --over bonus: the setup has 2 variants: say whose option, VARIANT.bonus "
      .. "(big_bonus.bonus)\nTry 'kontor --help'.\n", e)
    local _; _, e = sweep("price=1..2")
    assert.are.equal("kontor: sweep: --over price: the setup has 2 variants: say whose option, VARIANT.price "
      .. "(none of them declares price)\nTry 'kontor --help'.\n", e)
    out, e, code = sweep("big_bonus.bonus=1..2 --no-moves --json")
    assert.are.equal(0, code, e)
    assert.truthy(support.has(out, '"kind":"sweep"'), out)
  end)
end)
