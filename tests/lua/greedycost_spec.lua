-- What made greedy's search cheaper keeps what it gives (lua/kontor/fork.lua,
-- lua/kontor/bots/init.lua; docs/bots.md "What it costs"): the deal of a
-- sample's unseen cards, the names and options of a copy's g, the
-- estimates greedy reads, and the fail-closed check of hidden cards kept
-- outside piles when a card's text fails.

local fork = require "kontor.fork"
local bots = require "kontor.bots"
local seat = require "kontor.seat"
local support = require "tests.lua.support"
local core = kontor.core

local tmp, cleanup = support.scratch()
teardown(cleanup)

local decider = support.decider

-- A Sea Merchants game of seed 3 at the first decision of turn `turn`, its
-- steps taken at random (kontor.rng(3)).
local function at_turn(turn) return support.game_at("sea_merchants", 4, 3, turn) end

-- The deal as docs/bots.md says it: the unseen cards of each pool sorted,
-- shuffled by rng:below from the last card down, and dealt back to the
-- piles in order, each keeping its count.
local function deal_by_hand(piles, rng)
  local by, names = {}, {}
  for i, p in ipairs(piles) do
    local name = p:pool() or ""
    if not by[name] then by[name] = {}; names[#names + 1] = name end
    table.insert(by[name], i)
  end
  table.sort(names)
  local out = {}
  for _, name in ipairs(names) do
    local pool = {}
    for _, i in ipairs(by[name]) do
      for _, c in ipairs(piles[i]:cards()) do pool[#pool + 1] = c end
    end
    table.sort(pool)
    for i = #pool, 2, -1 do
      local j = rng:below(i) + 1
      pool[i], pool[j] = pool[j], pool[i]
    end
    local at = 0
    for _, i in ipairs(by[name]) do
      out[i] = {}
      for k = 1, piles[i]:count() do at = at + 1; out[i][k] = pool[at] end
    end
  end
  return out
end

describe("a sample's deal", function()
  it("is the unseen cards sorted, shuffled by rng:below and dealt pile by pile", function()
    local g, s = at_turn(10)
    local base = fork.base(g, s)
    assert.are.equal(0, #base.steps_seat)      -- the turn's first decision: no step replayed
    local want = deal_by_hand(base.unseen, core.rng(7))
    local ref = core.rng(7)
    deal_by_hand(base.unseen, ref)
    local copy = fork.sample(base, core.rng(7))
    local piles = fork.secret_piles(copy, s)
    assert.are.equal(#base.unseen, #piles)
    local cards = 0
    for i, p in ipairs(piles) do
      assert.are.same(want[i], p:cards())
      cards = cards + p:count()
    end
    assert.is_true(cards > 20)
    -- the copy's RNG is drawn from the deal's RNG after the deal
    assert.are.equal(core.rng(ref:int(1, 0x3fffffffffffffff)):state(), copy.ctx.rng:state())
  end)

  it("is the same deal again for the same RNG, and another for another", function()
    local g, s = at_turn(12)
    local base = fork.base(g, s)
    local function deal(seed)
      local t = {}
      for _, p in ipairs(fork.secret_piles(fork.sample(base, core.rng(seed)), s)) do
        t[#t + 1] = table.concat(p:cards(), ",")
      end
      return table.concat(t, "|")
    end
    local first = deal(5)
    assert.are.equal(first, deal(5))
    assert.are_not.equal(first, deal(6))
    assert.are.equal(first, deal(5))
  end)
end)

describe("core.pile_sorted (a deal's pool, gathered and sorted in C)", function()
  it("holds the cards of the piles named, smallest first, in a new public pile", function()
    local a = core.pile { vis = "hidden" }
    a:push(7); a:push(-3); a:push(7); a:push(2)
    local b = core.pile { vis = "owner", owner = 2, pool = "deck" }
    b:push(5); b:push(0); b:push(2147483647); b:push(-2147483648)
    local c = core.pile {}
    c:push(99)
    local p = core.pile_sorted({ a, c, b }, { 3, 1 })
    assert.are.same({ -2147483648, -3, 0, 2, 5, 7, 7, 2147483647 }, p:cards())
    assert.are.equal("public", p:vis())
    assert.is_nil(p:pool())
    -- the piles it read are as they were
    assert.are.same({ 7, -3, 7, 2 }, a:cards())
    assert.are.same({ 5, 0, 2147483647, -2147483648 }, b:cards())
    assert.are.same({}, core.pile_sorted({ a }, {}):cards())
    assert.are.same({ 99 }, core.pile_sorted({ c }, { 1 }):cards())
  end)

  it("is table.sort's order of the same cards, for a deck of 300", function()
    local r, list = core.rng(5), {}
    local piles = {}
    for i = 1, 3 do
      piles[i] = core.pile {}
      for _ = 1, 100 do
        local x = r:below(40) - 10
        piles[i]:push(x)
        list[#list + 1] = x
      end
    end
    table.sort(list)
    assert.are.same(list, core.pile_sorted(piles, { 1, 2, 3 }):cards())
  end)

  it("refuses what is not a pile", function()
    assert.has_error(function() core.pile_sorted({ {} }, { 1 }) end)
    assert.has_error(function() core.pile_sorted({ core.pile {} }, { "x" }) end)
  end)
end)

describe("core.pile_values (the cards the check of hidden cards asks about)", function()
  it("lists the card values of the piles, each once, smallest first", function()
    local a = core.pile { vis = "hidden" }
    for _, c in ipairs { 4, 4, -1, 9, 4 } do a:push(c) end
    local b = core.pile { vis = "owner", owner = 1 }
    for _, c in ipairs { 9, 0, 2147483647 } do b:push(c) end
    assert.are.same({ -1, 0, 4, 9, 2147483647 }, core.pile_values { a, b })
    assert.are.same({ 4, 4, -1, 9, 4 }, a:cards())
    assert.are.same({}, core.pile_values {})
    assert.are.same({}, core.pile_values { core.pile {} })
    assert.has_error(function() core.pile_values { a, {} } end)
  end)
end)

describe("a saved state's lists of plain values", function()
  -- a state whose list `log` has n texts (a hole at `hole`, a table at
  -- `deep`) and whose list `seen` is empty or not
  local function state(n, opts)
    opts = opts or {}
    local log = {}
    for i = 1, n do log[i] = "v" .. i end
    if opts.hole then log[opts.hole] = nil end
    if opts.deep then log[opts.deep] = { "inner" } end
    local deck = core.pile { vis = "hidden" }
    deck:push(n)
    return { log = log, seen = opts.seen or {}, deck = deck, pair = { 1, 2 }, phase = "trade" }
  end
  local function check(s)
    local c = fork.copy_planned(s)
    assert.are_not.equal(s.log, c.log)
    assert.are_not.equal(s.seen, c.seen)
    for k, v in pairs(s.log) do
      if type(v) == "table" then
        assert.are_not.equal(v, c.log[k])
        assert.are.same(v, c.log[k])
      else
        assert.are.equal(v, c.log[k])
      end
    end
    for k in pairs(c.log) do assert.is_not_nil(s.log[k]) end
    assert.are.same(s.seen, c.seen)
    assert.are.same(s.deck:cards(), c.deck:cards())
    return c
  end

  it("are copied whatever their length, each its own table", function()
    for _ = 1, 3 do check(state(10)) end      -- (the shape used again: compiled)
    local c = check(state(14, { seen = { 3, 4 } }))
    assert.are.equal(14, #c.log)
    assert.are.equal("v14", c.log[14])
    check(state(9))
    assert.are.same({}, check(state(12)).seen)
  end)

  it("keep their holes and copy the tables put in them", function()
    for _ = 1, 3 do check(state(10)) end
    local c = check(state(20, { hole = 16 }))
    assert.is_nil(c.log[16])
    assert.are.equal("v20", c.log[20])
    c = check(state(11, { deep = 4 }))
    assert.are.same({ "inner" }, c.log[4])
    check(state(10))
  end)
end)

describe("a copy's names and options", function()
  it("are the game's, in tables of the copy's own", function()
    local g, s = at_turn(5)
    local base = fork.base(g, s)
    local a, b = fork.copy(base), fork.copy(base)
    assert.are.same(g.ctx.names, a.ctx.names)
    assert.are.same(g.ctx.options, a.ctx.options)
    assert.are.same({ "Player 1", "Player 2", "Player 3", "Player 4" }, a.ctx.names)
    assert.are_not.equal(a.ctx.options, b.ctx.options)
    assert.are_not.equal(a.ctx.names, b.ctx.names)
    assert.are_not.equal(g.params.options, a.ctx.options)
    a.ctx.options.start_coins = 99
    a.ctx.names[1] = "changed"
    assert.are.equal(g.params.options.start_coins, b.ctx.options.start_coins)
    assert.are.equal("Player 1", b.ctx.names[1])
    assert.are.equal("Player 1", g.params.names[1])
    assert.are.equal("Player 1", fork.copy(base).ctx.names[1])
  end)
end)

describe("a copy's trace of skipped decisions", function()
  it("starts empty at the turn's start (it grows all game long); the game keeps its own", function()
    local g = kontor.new_game { rules = "caribbean", players = 2, seed = 3 }
    local r = core.rng(3)
    while not g:over() and (g.turn < 10 or decider(g) == "chance") do
      local s = decider(g)
      g:step(s, r:below(#g:options(s)) + 1)
    end
    local trace = g:skipped()
    assert.is_true(#trace > 2)
    local s = decider(g)
    local copy = fork.sample(fork.base(g, s), core.rng(1))
    local this_turn = {}                      -- what the turn skipped so far: the copy replays it
    for _, t in ipairs(trace) do
      if t.turn == g.ctx.turn then this_turn[#this_turn + 1] = t end
    end
    assert.is_true(#this_turn < #trace)
    assert.are.same(this_turn, copy:skipped())
    assert.are.same(trace, g:skipped())
    copy.ctx:skip(1, "a decision", "why")
    this_turn[#this_turn + 1] = { seat = 1, decision = "a decision", why = "why", turn = copy.ctx.turn }
    assert.are.same(this_turn, copy:skipped())
    assert.are.same(trace, g:skipped())
  end)
end)

describe("bots.estimates", function()
  it("gives a list of its own with one estimate a seat", function()
    local g4 = kontor.new_game { rules = "sea_merchants", players = 4, seed = 1 }
    local e4 = bots.estimates(g4)
    assert.are.equal(4, #e4)
    for s = 1, 4 do assert.are.equal(g4.R.estimate(g4.ctx, s), e4[s]) end
    e4[1] = -1000
    assert.are.equal(g4.R.estimate(g4.ctx, 1), bots.estimates(g4)[1])
    local g2 = kontor.new_game { rules = "sea_merchants", players = 2, seed = 1 }
    local e2 = bots.estimates(g2)
    assert.are.equal(2, #e2)
    assert.is_nil(e2[3])
    assert.are.same({ [3] = g4.R.estimate(g4.ctx, 3) }, bots.estimates(g4, 3))
  end)
end)

describe("the check of hidden cards kept outside piles", function()
  it("still names the card when another card's text fails", function()
    local file = support.write(tmp("peek.lua"), [[
local R = { name = "peek", players = { min = 2, max = 2 }, resumes_at_turn = true }
function R.card_text(_, c)
  if c == 3 then error("no text for 3") end
  return ({ "a", "b" })[c]
end
function R.setup(g)
  g.score = 0
  g.deck = kontor.pile { vis = "hidden" }
  g.deck:push(1); g.deck:push(2); g.deck:push(3)
  g.deck:shuffle(g.rng)
  while g.deck:top() == 3 do g.deck:shuffle(g.rng) end
  g._peek = R.card_text(g, g.deck:top())
end
function R.play(g)
  g:begin_turn(1)
  local k = g:choose(1, "guess", { "guess a", "guess b" })
  if k == g.deck:top() then g.score = 1 end
end
function R.scores(g) return { g.score, 0 } end
return R]])
    local g = kontor.new_game { rules = file, players = 2, seed = 1 }
    local ok, err = pcall(function()
      return assert(bots.new("greedy", 1, 1)):choose(seat.view(g, 1))
    end)
    assert.is_false(ok)
    assert.matches('^peek: g%._peek holds a card seat 1 cannot see, kept outside a pile', err)
  end)
end)
