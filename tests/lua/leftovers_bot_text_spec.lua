-- leftovers_bot_text_spec.lua - which of a bot's options its text shows
-- (Bot:spec: `bots` at the REPL and in play, the ladder's and worth's
-- names; docs/bots.md "What a bot's text shows"): the options of its
-- effort and pace always, a switch (quiet: off at its default) only where
-- it is on, against its kind's default or the rule set's; the text, given
-- back, makes the same bot.
local kontor = require "kontor"
local bots = require "kontor.bots"
local support = require "tests.lua.support"

local function tuned(spec, rules)
  local b = assert(bots.new(spec, 1, 1))
  b:tune(kontor.load_rules(rules))
  return b
end

describe("a bot's text", function()
  it("leaves out every switch at its default, margin=0 as center=0", function()
    assert.are.equal("mcts:c=0.7,iterations=1000,rollout=30,step_cost=0.001", assert(bots.new("mcts", 1, 1)):spec())
    assert.are.equal("mcts:c=0.7,iterations=1000,rollout=30,step_cost=0.001",
      assert(bots.new("mcts:margin=0,center=0,best=0,estimate=0", 1, 1)):spec())
    assert.are.equal("greedy:budget=12,depth=8,samples=1", assert(bots.new("greedy:focus=0", 1, 1)):spec())
  end)

  it("shows a switch that is on", function()
    assert.are.equal("mcts:c=0.7,center=1,iterations=1000,margin=0.5,rollout=30,step_cost=0.001",
      assert(bots.new("mcts:margin=0.5,center=1", 1, 1)):spec())
  end)

  it("shows the rule set's switches, and a switch turned off against the rule set's default", function()
    assert.are.equal("mcts:c=0.7,center=1,estimate=1,iterations=1000,margin=2,rollout=5,step_cost=0.001",
      tuned("mcts", "sea_merchants"):spec())
    assert.are.equal("mcts:best=0.5,c=0.7,center=1,estimate=1,iterations=600,margin=1,rollout=0,step_cost=0.001",
      tuned("mcts", "old_world"):spec())
    local off = tuned("mcts:center=0,margin=0", "old_world")
    assert.are.equal("mcts:best=0.5,c=0.7,center=0,estimate=1,iterations=600,margin=0,rollout=0,step_cost=0.001",
      off:spec())
    -- given back, the text makes the same bot
    assert.are.same(off.options, tuned(off:spec(), "old_world").options)
    assert.are.equal("greedy:budget=6,depth=8,focus=0,samples=1", tuned("greedy:focus=0", "sea_merchants"):spec())
  end)

  it("is what `bots` lists at the REPL", function()
    local out = support.run(support.binary() .. " repl --players 2 --seed 1", "bot 2=mcts:iterations=20\nbots\n")
    assert.truthy(support.has(out, "2  Player 2: mcts:c=0.7,center=1,estimate=1,iterations=20,margin=2,rollout=5,step_cost=0.001 bot"), out)
  end)
end)
