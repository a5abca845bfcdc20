-- designer_report_seats_spec.lua: the report's first sentence names each
-- seat's bot with its restriction, and both sides where they differ (a QA
-- finding: with --bot 4=greedy:avoid=sell it said "(seat 1 greedy, seat 2
-- greedy, seat 3 greedy, seat 4 greedy)", and a comparison of a restricted
-- seat in A against a free one in B named A's seats alone, unrestricted).
local support = require "tests.lua.support"

describe("the report's first sentence", function()
  local tmp, cleanup = support.scratch()
  teardown(cleanup)

  local function first(args)
    local report = tmp("r.html")
    local _, e, code = support.run_split(support.plain_binary() .. " " .. args .. " --games 4 --no-moves --jobs 1 --report "
      .. report)
    assert.are.equal(0, code, e)
    local html = support.read(report)
    return html:match('<p class="summary">([^<]*)</p>') or html:match("<p>(4 paired games of A and B[^<]*)</p>")
  end

  it("of a comparison names a seat's restriction", function()
    assert.are.equal("4 paired games of A and B, 4 players (seat 1 random, seat 2 random, seat 3 random, "
      .. "seat 4 random:avoid=pass).", first("compare --bot 4=random:avoid=pass --a '' --b '--variant hand_limit'"))
  end)

  it("of a comparison whose sides seat other bots names both", function()
    assert.are.equal("4 paired games of A and B, 4 players (A: seat 1 random:avoid=buy, seat 2 random, seat 3 random, "
      .. "seat 4 random; B: seat 1 random, seat 2 random, seat 3 random, seat 4 random).",
      first("compare --a \"--bot '1=random:avoid=buy'\" --b '--bot 1=random'"))
  end)

  it("of a sim names a seat's restriction", function()
    assert.are.equal("4 games of sea_merchants, 4 players (seat 1 random, seat 2 random, seat 3 random, "
      .. "seat 4 random:avoid=pass), seed 1.", first("sim --bot 4=random:avoid=pass"))
  end)
end)
