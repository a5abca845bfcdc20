-- designer_compare_base_spec.lua: `--a ''` is the base game of B's variant
-- (a QA finding: `kontor compare --a '' --b '--variant ./low_tax.lua'`, a
-- Caribbean variant, played Sea Merchants as A, and printed 2000 "paired"
-- games with verdicts such as "game length +29.5685 longer": a comparison
-- of two different games, said nowhere but in the A line).
local support = require "tests.lua.support"

local LOW_TAX = [[
return { variant = true, name = "low_tax", base = "caribbean",
  options = { threshold = { default = 16, type = "integer", min = 1 } },
  apply = function(R, opts) R.data.tax_threshold = opts.threshold end }
]]

describe("compare --a ''", function()
  local tmp, cleanup = support.scratch()
  teardown(cleanup)

  local function compare(a, b, jobs)
    return support.run_split(support.plain_binary() .. " compare --games 2 --no-moves --json --jobs " .. (jobs or 1)
      .. " --a " .. support.sh_quote(a) .. " --b " .. support.sh_quote(b))
  end

  it("plays the rule set B's variant is for, with --jobs 2 too", function()
    local f = support.write(tmp("low_tax.lua"), LOW_TAX)
    for _, jobs in ipairs { 1, 2 } do
      local out, e, code = compare("", "--variant " .. f, jobs)
      assert.are.equal(0, code, e)
      assert.are.equal("", e)
      local js = kontor.core.json.decode(out)
      assert.are.equal("caribbean", js.a.rules)
      assert.are.equal("--rules caribbean", js.a.setup)
      assert.are.equal("--rules caribbean --variant " .. f, js.b.setup)
    end
    -- and B empty, A the variant: the same
    local out = compare("--variant " .. f, "")
    assert.are.equal("--rules caribbean", kontor.core.json.decode(out).b.setup)
  end)

  it("stays the default game beside an explicit --rules, and two rule sets are warned of", function()
    local out, e, code = compare("", "--rules old_world")
    assert.are.equal(0, code, e)
    assert.are.equal("--rules sea_merchants", kontor.core.json.decode(out).a.setup)
    assert.are.equal("kontor: compare: warning: A plays sea_merchants and B old_world: two rule sets, so the same "
      .. "seeds deal different games and the pairs are no closer than two separate runs\n", e)
  end)
end)
