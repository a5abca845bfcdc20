-- designer_report_order_spec.lua: a comparison report's "What changed"
-- lists the results and how the game plays before what players do (a QA
-- finding: for a variant adding a decision, its moves, which B has and A
-- never had, took the first 12 places by their huge standard scores, and
-- "game length: shorter" and the win rates were left in "and 12 more").
local support = require "tests.lua.support"

describe("What changed, of a variant that adds a decision", function()
  local tmp, cleanup = support.scratch()
  teardown(cleanup)

  it("puts the results and the tension measures first, the new moves after", function()
    local report = tmp("r.html")
    local _, e, code = support.run_split(support.plain_binary() .. " compare --a '' --b "
      .. "'--variant hand_limit:size=4,overflow=discard' --games 300 --jobs 1 --report " .. report)
    assert.are.equal(0, code, e)
    local html = support.read(report)
    local list = html:match('<ol id="changed">(.-)</ol>')
    local items = {}
    for li in list:gmatch("<li>(.-)</li>") do items[#items + 1] = li end
    assert.are.equal("mean score, seat 1: lower (A 7.3833, B 5.8933; B - A -1.4900, 95% interval [-2.2638, -0.7162])",
      items[1])
    assert.truthy(items[2]:find("^options per decision: fewer"), items[2])
    assert.truthy(items[3]:find("^decisions with one option: more"), items[3])
    assert.truthy(items[4]:find("^discard: "), items[4])
    assert.truthy(support.has(html, "B against A, the results first, then how the game plays, then what players do, "
      .. "each biggest effect first (in standard errors)"))
  end)
end)
