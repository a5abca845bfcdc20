-- bot_errors_spec.lua - a bot's call into the rule script that fails keeps
-- what the front end acts on (kontor.errors.context): a limit stays a limit
-- error with its `limit`, Ctrl-C stays an interrupt (play then says the bot
-- has not moved), and a script's own error is a message naming the call.

local support = require "tests.lua.support"
local bots = require "kontor.bots"
local seatmod = require "kontor.seat"
local errors = kontor.errors
local csb = kontor.core.sandbox
local tmp, cleanup = support.scratch()
teardown(cleanup)

-- A rule set of two decisions whose R.estimate does `estimate`.
local function rules_with(name, estimate)
  return support.write(tmp(name .. ".lua"), ([[
local R = { name = "%s", players = { min = 2, max = 2 } }
local AB = kontor.options { "a", "b" }
function R.setup(g) g.n = 0 end
function R.play(g)
  g:begin_turn(1)
  g.n = g:choose(1, "pick", AB)
  g:begin_turn(2)
  g.n = g.n + g:choose(2, "pick", AB)
end
function R.scores(g) return { g.n, 0 } end
function R.estimate(g, seat) %s end
return R
]]):format(name, estimate))
end

local function greedy_error(path)
  local g = kontor.new_game { rules = path, players = 2, seed = 1 }
  local b = assert(bots.new("greedy", 1, 1))
  local ok, e = pcall(b.choose, b, seatmod.view(g, 1))
  assert.is_false(ok)
  return e, g
end

describe("a greedy bot whose estimate fails", function()
  local saved
  before_each(function() saved = csb.limits(); csb.limits { time = 0.2 } end)
  after_each(function() csb.limits { time = saved.time, memory = saved.memory, work = saved.work } end)

  it("raises the time limit as a limit error, naming the call", function()
    local e, g = greedy_error(rules_with("slow", "while true do end"))
    assert.equal("limit", errors.kind(e))
    assert.equal("time", e.limit)
    assert.truthy(errors.message(e):find("^slow: R%.estimate: time limit reached"), errors.message(e))
    assert.same({}, g:actions())                         -- the game as it was
  end)

  it("raises a script's own error as a message naming the call", function()
    local e = greedy_error(rules_with("broken", "error('no estimate here')"))
    assert.is_nil(errors.kind(e))
    assert.truthy(tostring(e):find("^broken: R%.estimate: .*no estimate here"), tostring(e))
  end)
end)

describe("errors.context", function()
  it("keeps Ctrl-C's value as it is", function()
    local i = errors.interrupt()
    assert.equal(i, errors.context(i, "x: R.estimate"))
    assert.equal("interrupted", errors.message(i))
    assert.is_true(errors.must_rise(i))
  end)

  it("keeps a limit's kind and limit, the call before its message", function()
    local e = errors.context(errors.limit("memory", "memory limit reached (64 MiB)"), "x: R.score")
    assert.same({ "limit", "memory", "x: R.score: memory limit reached (64 MiB)" },
      { errors.kind(e), e.limit, errors.message(e) })
    assert.is_true(errors.must_rise(e))
  end)

  it("makes anything else a message", function()
    assert.equal("x: R.resampled: oops", errors.context("oops", "x: R.resampled"))
    assert.is_false(errors.must_rise("oops"))
    assert.is_false(errors.must_rise(errors.new("rules", "broken")))
  end)
end)
