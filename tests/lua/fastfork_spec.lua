-- The cheap copies search makes (lua/kontor/fork.lua, docs/bots.md "Copies
-- for search"): a pile or counter copied in one call, a saved state copied
-- by its plan, a deal laid out again for the same RNG.

local fork = require "kontor.fork"
local core = kontor.core
local json = core.json
local support = require "tests.lua.support"

local decider = support.decider

-- A game of `rules` played at random up to `turn`, and the seat to decide.
local function game_at(rules, players, turn) return support.game_at(rules, players, 5, turn) end

describe("core.pile_copy", function()
  it("makes a pile with the same cards, visibility, owner and pool, apart from the original", function()
    local p = core.pile { vis = "owner", owner = 3, pool = "workers" }
    p:push(4); p:push(9); p:push(4)
    local q = core.pile_copy(p)
    assert.are.same({ 4, 9, 4 }, q:cards())
    assert.are.equal("owner", q:vis())
    assert.are.equal(3, q:owner())
    assert.are.equal("workers", q:pool())
    q:push(7)
    p:pop()
    assert.are.same({ 4, 9 }, p:cards())
    assert.are.same({ 4, 9, 4, 7 }, q:cards())
  end)

  it("with a second pile, replaces that pile's cards and keeps its visibility and owner", function()
    local p = core.pile { vis = "hidden" }
    p:push(1); p:push(2)
    local into = core.pile { vis = "owner", owner = 2 }
    into:push(8); into:push(8); into:push(8)
    assert.is_nil(core.pile_copy(p, into))
    assert.are.same({ 1, 2 }, into:cards())
    assert.are.equal("owner", into:vis())
    assert.are.equal(2, into:owner())
    assert.has_error(function() core.pile_copy(p, {}) end)
  end)
end)

describe("core.counter_copy", function()
  it("makes a counter with the same values and range, apart from the original", function()
    local c = core.counter { n = 3, min = -2, max = 9 }
    c:set(1, -2); c:set(3, 9)
    local d = core.counter_copy(c)
    assert.are.same({ -2, 0, 9 }, d:values())
    assert.are.equal(-2, d:min())
    assert.are.equal(9, d:max())
    d:set(2, 5)
    assert.are.equal(0, c:get(2))
    assert.has_error(function() d:set(1, 10) end)
  end)
end)

describe("the engine's copy functions", function()
  local tmp, cleanup = support.scratch()
  teardown(cleanup)

  it("are not in a rule script's kontor table", function()
    local file = support.write(tmp("peek.lua"), [[
local R = { name = "peek", players = { min = 1, max = 1 } }
function R.setup(g)
  g.seen = { kontor.pile_copy == nil, kontor.counter_copy == nil, kontor.pile_sorted == nil,
    kontor.pile_values == nil, kontor.pile ~= nil }
end
function R.play(g) g:choose(1, "go", { "stop" }) end
function R.scores() return { 0 } end
return R]])
    local g = kontor.new_game { rules = file, players = 1, seed = 1 }
    assert.are.same({ true, true, true, true, true }, g:state().seen)
  end)
end)

describe("a sample of a base", function()
  for _, c in ipairs { { "sea_merchants", 4, 10 }, { "caribbean", 2, 6 } } do
    it("deals the same unseen cards for the same RNG, as often as asked: " .. c[1], function()
      local g, s = game_at(c[1], c[2], c[3])
      local base = fork.base(g, s)
      assert.is_truthy(base.snap, "copied from the turn's saved state")
      local r1 = kontor.rng(11)
      local a = fork.sample(base, r1)
      local after = r1:state()
      local other = fork.sample(base, kontor.rng(12))
      local r2 = kontor.rng(11)
      local b = fork.sample(base, r2)
      -- the whole state, hidden cards too, and the copy's own RNG
      assert.are.equal(json.encode(a:state()), json.encode(b:state()))
      assert.are.equal(a.ctx.rng:state(), b.ctx.rng:state())
      assert.are.equal(after, r2:state(), "the RNG given is left as a new deal leaves it")
      assert.are_not.equal(json.encode(a:state()), json.encode(other:state()))
      -- what the seat sees is the game's in each
      for _, x in ipairs { a, b, other } do
        assert.are.equal(json.encode(g:view(s)), json.encode(x:view(s)))
        assert.are.equal(fork.seen_piles(g, s), fork.seen_piles(x, s))
      end
      -- a copy changed does not change the next one
      local k = #a:options(s)
      fork.step(a, s, k)
      local again = fork.sample(base, kontor.rng(11))
      assert.are.equal(json.encode(b:state()), json.encode(again:state()))
    end)
  end
end)

describe("a decision before the first turn begins", function()
  it("is copied from the state saved when R.setup was done: sea_merchants loading", function()
    local g = kontor.new_game { rules = "sea_merchants", players = 4, seed = 5 }
    g:step(decider(g), 1)
    local s = decider(g)
    assert.are.equal(0, g.turn)
    local base = fork.base(g, s)
    assert.is_truthy(base.snap, "copied from the saved setup state")
    assert.are.equal(0, base.snap.turn)
    assert.are.equal(1, #base.steps_seat, "the one step since")
    local copy = fork.copy(base)
    assert.are.equal(json.encode(g:state()), json.encode(copy:state()))
    assert.are.same(g:options(s), copy:options(s))
    local sample = fork.sample(base, kontor.rng(3))
    assert.are.equal(json.encode(g:view(s)), json.encode(sample:view(s)))
    assert.are.equal(fork.seen_piles(g, s), fork.seen_piles(sample, s))
  end)
end)

describe("a bot's replay of the game between its decisions", function()
  local function play(g, rng, n)
    for _ = 1, n do
      local s = decider(g)
      g:step(s, rng:below(#g:options(s)) + 1)
    end
  end

  -- The same game played straight, from g's steps.
  local function straight(g)
    local h = kontor.new_game { rules = "sea_merchants", players = 4, seed = g.params.seed }
    for i = 1, g:step_count() do
      local s, _, k = g:step_at(i)
      h:step(s, k)
    end
    return h
  end

  it("reads only the steps since the last decision, and copies as a replay from the start does", function()
    for seed = 1, 6 do
      local g = kontor.new_game { rules = "sea_merchants", players = 4, seed = seed }
      local rng = kontor.rng(seed)
      for _ = 1, 4 do
        play(g, rng, 9)
        local s = decider(g)
        local base = fork.base(g, s)
        local copy = fork.copy(base)
        assert.are.equal(json.encode(g:state()), json.encode(copy:state()))
        local h = straight(g)
        local a = fork.sample(base, kontor.rng(seed))
        local b = fork.sample(fork.base(h, s), kontor.rng(seed))
        assert.are.equal(json.encode(b:state()), json.encode(a:state()))
      end
    end
  end)

  it("after an undo and other steps, copies the game as it is now", function()
    for seed = 1, 6 do
      local g = kontor.new_game { rules = "sea_merchants", players = 4, seed = seed }
      play(g, kontor.rng(seed), 30)
      fork.base(g, decider(g))                 -- the replay is kept for g
      g:undo(); g:undo(); g:undo()
      play(g, kontor.rng(seed + 100), 5)
      local s = decider(g)
      local copy = fork.copy(fork.base(g, s))
      assert.are.equal(json.encode(g:state()), json.encode(copy:state()))
      assert.are.same(g:options(s), copy:options(s))
      local a = fork.sample(fork.base(g, s), kontor.rng(9))
      local b = fork.sample(fork.base(straight(g), s), kontor.rng(9))
      assert.are.equal(json.encode(b:state()), json.encode(a:state()))
    end
  end)
end)
