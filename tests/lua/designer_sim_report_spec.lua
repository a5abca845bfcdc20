-- designer_sim_report_spec.lua: the report of one setup (kontor sim
-- --report) names its variants and does not speak of sides (a QA finding:
-- the report of `sim --variant ./sell_card.lua` opened with "300 games of
-- sea_merchants", no variant, and captioned each score chart "(the sides
-- share the bins)", where there was one side).
local support = require "tests.lua.support"

describe("kontor sim --report", function()
  local tmp, cleanup = support.scratch()
  teardown(cleanup)

  it("names the variants in its first line, and its score charts have no sides", function()
    local report = tmp("sim.html")
    local _, e, code = support.run_split(support.plain_binary() .. " sim --variant hand_limit:size=5 --players 2 --games 6"
      .. " --jobs 1 --report " .. report)
    assert.are.equal(0, code, e)
    local html = support.read(report)
    assert.truthy(support.has(html, '<p class="summary">6 games of sea_merchants with hand_limit, 2 players '
      .. '(seat 1 random, seat 2 random), seed 1.</p>'), html)
    assert.truthy(support.has(html, "<figcaption>Final scores of seat 2.</figcaption>"), html)
    assert.falsy(support.has(html, "share the bins"))
  end)

  it("of a comparison still says the sides share the bins", function()
    local report = tmp("compare.html")
    local _, e, code = support.run_split(support.plain_binary() .. " compare --a '' --b '--variant hand_limit' "
      .. "--players 2 --games 6 --jobs 1 --report " .. report)
    assert.are.equal(0, code, e)
    assert.truthy(support.has(support.read(report), "<figcaption>Final scores of seat 2 (the sides share the bins).</figcaption>"))
  end)

  it("of a sweep gives the first value's setup, which names the variant swept", function()
    local report = tmp("sweep.html")
    local _, e, code = support.run_split(support.plain_binary() .. " sweep --variant hand_limit --over size=4,5 --players 2"
      .. " --games 4 --jobs 1 --report " .. report)
    assert.are.equal(0, code, e)
    assert.truthy(support.has(support.read(report), "<p>The first value's setup: <code>--rules sea_merchants --variant "
      .. "hand_limit:size=4 --players 2</code>.</p>"))
  end)
end)
