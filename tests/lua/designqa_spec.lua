-- designqa_spec.lua: what a game designer meets in the first hour, from a
-- QA pass that used only the docs (designing-variants, balance, bots,
-- repl): each mistake gives one clear message and the right exit status.
local support = require "tests.lua.support"

local tmp, cleanup = support.scratch()
teardown(cleanup)

-- kontor ARGS: stdout, stderr, exit status.
local function kontor(args, stdin)
  return support.run_split(support.plain_binary() .. " " .. args, stdin)
end

describe("a bot option with a bad value in a lab setup", function()
  it("is a usage error before any game (exit 2), not game 1's failure", function()
    local out, e, code = kontor("compare --a '--bot 1=greedy:depth=x' --b '' --games 2")
    assert.are.equal(2, code)
    assert.are.equal("", out)
    assert.are.equal("kontor: compare: --bot 1=greedy: greedy option depth=x: expected a whole number\n"
      .. "Try 'kontor --help'.\n", e)
    out, e, code = kontor("sim --bot 2=mcts:iterations=0 --games 2")
    assert.are.equal(2, code)
    assert.are.equal("kontor: sim: --bot 2=mcts: mcts option iterations=0: expected 1..10000000\n"
      .. "Try 'kontor --help'.\n", e)
    assert.falsy(support.has(e, "Reproduce"), e)
  end)
end)
