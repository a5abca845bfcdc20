-- The compiled copy of a saved state (lua/kontor/fork.lua, docs/bots.md
-- "What it costs"): one function per shape of state, made once and read
-- with each state's values; a state of another shape gets its own.

local fork = require "kontor.fork"
local core = kontor.core

-- A state with what a rule script's fields may hold: an array with holes
-- past it, string, integer, float and boolean keys, piles, a counter, an
-- RNG, a table two entries share, a cycle, a table with a metatable
-- (`odd`: and a float key, which makes its shape one not used again).
local function state(coins, name, odd)
  local deck = core.pile { vis = "hidden" }
  for c = 1, 5 do deck:push(c * coins) end
  local hand = core.pile { vis = "owner", owner = 2 }
  hand:push(coins)
  local shared = { coins, name }
  local s = {
    list = { 1, 2, 3, [5] = 5, [7] = "seven" },
    flags = { [true] = "yes", [false] = coins, [1.5] = odd and "a half" or nil },
    deck = deck, hands = { core.pile { vis = "owner", owner = 1 }, hand },
    score = core.counter { n = 2 }, rng = core.rng(coins),
    a = shared, b = shared, name = name, phase = "trade",
    meta = setmetatable({ x = coins }, { __index = function() return "default" end }),
  }
  s.self = s
  s.list.back = s.list
  return s
end

-- Checks that c is a copy of s: the same plain values, new objects, the
-- same sharing.
local function same_copy(s, c)
  assert.are_not.equal(s, c)
  assert.are.same({ 1, 2, 3, nil, 5, nil, "seven" }, { c.list[1], c.list[2], c.list[3], c.list[4], c.list[5],
    c.list[6], c.list[7] })
  assert.are.equal(c.list, c.list.back)
  assert.are.equal(c, c.self)
  assert.are.equal(c.a, c.b)
  assert.are_not.equal(s.a, c.a)
  assert.are.same(s.a, c.a)
  assert.are.equal(s.flags[true], c.flags[true])
  assert.are.equal(s.flags[false], c.flags[false])
  assert.are.equal(s.flags[1.5], c.flags[1.5])
  assert.are_not.equal(s.deck, c.deck)
  assert.are.same(s.deck:cards(), c.deck:cards())
  assert.are.equal("hidden", c.deck:vis())
  assert.are.same(s.hands[2]:cards(), c.hands[2]:cards())
  assert.are.equal(2, c.hands[2]:owner())
  assert.are_not.equal(s.score, c.score)
  assert.are.equal(s.rng:state(), c.rng:state())
  assert.are.equal(s.meta.x, c.meta.x)
  assert.are.equal("default", c.meta.y)
  assert.are.equal(getmetatable(s.meta), getmetatable(c.meta))
  assert.are.equal(s.name, c.name)
  local n = 0
  for _ in pairs(c) do n = n + 1 end
  local m = 0
  for _ in pairs(s) do m = m + 1 end
  assert.are.equal(m, n)
end

describe("fork.copy_planned", function()
  it("copies a state as copy_value does, and the next state of the same shape with its own values", function()
    local s1 = state(3, "first")
    local c1 = fork.copy_planned(s1)
    same_copy(s1, c1)
    -- a copy changed changes neither the state nor the next copy
    c1.deck:push(99); c1.a[1] = 1000; c1.list[1] = "changed"
    local c1b = fork.copy_planned(s1)
    same_copy(s1, c1b)
    assert.are.equal(3, c1b.a[1])
    assert.are.equal(5, c1b.deck:count())
    -- a state of the same shape: the values and cards are its own
    local s2 = state(7, "second")
    local c2, _, plan2 = fork.copy_planned(s2)
    same_copy(s2, c2)
    assert.are.equal(select(3, fork.copy_planned(s1)).fn, plan2.fn)   -- one function for both
    assert.are.same({ 7, 14, 21, 28, 35 }, c2.deck:cards())
    assert.are.equal("second", c2.name)
    assert.are.equal(7, c2.flags[false])
  end)

  it("copies a state with a float key, whose shape is not used again", function()
    local s1 = state(3, "first", true)
    same_copy(s1, fork.copy_planned(s1))
    local s2 = state(8, "second", true)
    local c2 = fork.copy_planned(s2)
    same_copy(s2, c2)
    assert.are.equal("a half", c2.flags[1.5])
    assert.are.same({ 8, 16, 24, 32, 40 }, c2.deck:cards())
  end)

  it("gives a state of another shape its own plan: a key more, a shared table no longer shared", function()
    fork.copy_planned(state(3, "first"))
    local s = state(4, "more")
    s.extra = { "new" }
    local c = fork.copy_planned(s)
    same_copy(s, c)
    assert.are.same({ "new" }, c.extra)
    local t = state(5, "apart")
    t.b = { 5, "apart" }
    fork.copy_planned(state(3, "first"))
    local d = fork.copy_planned(t)
    assert.are_not.equal(d.a, d.b)
    assert.are.same(d.a, d.b)
    -- a plain value that became a table is copied, not shared
    local u = state(3, "first")
    u.phase = { "a table now" }
    fork.copy_planned(state(3, "first"))
    local e = fork.copy_planned(u)
    assert.are_not.equal(u.phase, e.phase)
    assert.are.same({ "a table now" }, e.phase)
  end)
end)
