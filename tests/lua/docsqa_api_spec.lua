-- docsqa_api_spec.lua - docs/api.md as a newcomer types it: a step's
-- functions (g:choose, g:stat) called on the game from the prompt say
-- what to do instead, and a stat the rule set does not declare stops the
-- lab's runs with the doc's message (plain sim, which reports no stats,
-- does not look).
-- Run: build/kontor run tests/busted.lua tests/lua/docsqa_api_spec.lua
local support = require "tests.lua.support"
local BIN = support.plain_binary()
local q = support.sh_quote

local RULES = [[
local R = { name = "undeclared", players = { min = 2, max = 2, default = 2 } }
function R.setup(g) end
function R.play(g)
  g:stat("x")
  g:choose(1, "t", { "a" })
end
function R.scores(g) return { 0, 0 } end
return R
]]

describe("docs/api.md", function()
  local dir, cleanup = support.scratch()
  teardown(cleanup)

  it("g:choose and g:stat typed at the prompt say they are for a step", function()
    local out = support.run(BIN .. " --seed 1", 'g:choose(1, "a", { "b" })\ng:stat("x")\ng:choose_from(1, "a", { "b" })\n'
      .. 'g.players\n')
    assert.are.equal("g:choose asks a decision inside a step of the rule script (R.play's g); from outside the game, "
      .. "make a move with g:apply(...)\n"
      .. "g:stat counts inside a step of the rule script (R.play's g), not from outside the game\n"
      .. "g:choose_from asks a decision inside a step of the rule script (R.play's g); from outside the game, "
      .. "make a move with g:apply(...)\n4\n", out)
  end)

  it("an undeclared stat stops the lab's run, not plain sim", function()
    local file = support.write(dir("undeclared") .. ".lua", RULES)
    local out, code = support.run(BIN .. " sim --rules " .. q(file) .. " --games 2 --coverage")
    assert.are.equal(1, code, out)
    assert.are.equal("kontor: sim: game 1: g:stat counts 'x', which undeclared does not declare in R.stats\n", out)
    out, code = support.run(BIN .. " sim --rules " .. q(file) .. " --games 2")
    assert.are.equal(0, code, out)
    assert.truthy(support.has(out, "games        2 (seed 1)\n"), out)
    local doc = support.read("docs/api.md"):gsub("%s+", " ")
    assert.truthy(support.has(doc, "`kontor: sim: game 1: g:stat counts 'x', which RULES does not declare in R.stats`"))
    assert.truthy(support.has(doc, "`g:stat counts inside a step of the rule script (R.play's g), not from outside the game`"))
  end)
end)
