-- A copy for search whose saved state's objects are made with the rule
-- fields set straight in the copy's new `g` (lua/kontor/fork.lua's fill,
-- docs/greedy-cost.md "Cheaper again"): the copy is the game, its own, and
-- independent of the game, of the saved state and of every other copy.

local fork = require "kontor.fork"
local json = kontor.core.json
local support = require "tests.lua.support"

local decider = support.decider

local RULES = [[
local R = { name = "kept", players = { min = 2, max = 2 }, resumes_at_turn = true }
function R.setup(g)
  g.shared = { 1, 2 }
  g.alias = g.shared                   -- two fields, one table
  g.ring = { name = "ring" }
  g.ring.self = g.ring                 -- a cycle
  g.deck = kontor.pile { vis = "hidden" }
  for c = 1, 6 do g.deck:push(c) end
  g.deck:shuffle(g.rng)
  g.hands = {}
  for s = 1, 2 do
    g.hands[s] = kontor.pile { vis = "owner", owner = s }
    g.deck:move_to(g.hands[s], 2)
  end
  g.score = kontor.counter { n = 2 }
  g.turns = 0
  g.seat = 1
end
function R.play(g)
  while g.turns < 6 do
    g:begin_turn(g.seat)
    local k = g:choose(g.seat, "act", { "keep", "score" })
    if k == 2 then g.score:add(g.seat, g.hands[g.seat]:top() or 0) end
    g.shared[#g.shared + 1] = g.turns
    g.turns = g.turns + 1
    g.seat = 3 - g.seat
  end
end
function R.scores(g) return { g.score:get(1), g.score:get(2) } end
return R]]

describe("a copy made from the turn's saved state", function()
  local tmp, cleanup = support.scratch()
  teardown(cleanup)

  local function game_at(turns)
    local g = kontor.new_game { rules = support.write(tmp("kept.lua"), RULES), players = 2, seed = 4 }
    for _ = 1, turns do g:step(decider(g), 2) end
    return g
  end

  it("has the game's rule fields in its own g, shared and cyclic as in the game", function()
    local g = game_at(3)
    local s = decider(g)
    local base = fork.base(g, s)
    assert.is_truthy(base.snap, "copied from the turn's saved state")
    for _, copy in ipairs { fork.copy(base), fork.sample(base, kontor.rng(2)) } do
      local c = copy.ctx
      assert.are.same({ 1, 2, 0, 1, 2 }, rawget(c, "shared"))
      assert.are.equal(rawget(c, "shared"), rawget(c, "alias"))
      assert.are_not.equal(g.ctx.shared, c.shared)
      assert.are.equal(c.ring, c.ring.self)
      assert.are_not.equal(g.ctx.ring, c.ring)
      assert.are.equal(3, c.turns)
      assert.are.equal(2, c.players)
      assert.are.equal(g.ctx.turn, c.turn)
      assert.are.same(g.ctx.score:values(), c.score:values())
      assert.are.same(g.ctx.hands[s]:cards(), c.hands[s]:cards())
      assert.are.same(g:options(s), copy:options(s))
    end
    local copy = fork.copy(base)
    assert.are.equal(json.encode(g:state()), json.encode(copy:state()))
  end)

  it("changed, changes neither the game nor the next copy", function()
    local g = game_at(3)
    local s = decider(g)
    local before = json.encode(g:state())
    local base = fork.base(g, s)
    local a = fork.copy(base)
    local c = a.ctx
    c.shared[1] = 99
    c.alias[#c.alias + 1] = 7
    c.ring.name = "changed"
    c.deck:push(42)
    c.hands[1]:clear()
    c.score:add(2, 5)
    c.extra = "new"
    fork.step(a, s, 2)
    fork.step(a, decider(a), 2)
    assert.are.equal(before, json.encode(g:state()))
    assert.are.same({ 1, 2, 0, 1, 2 }, g.ctx.shared)
    assert.are.equal("ring", g.ctx.ring.name)
    assert.is_nil(rawget(g.ctx, "extra"))
    local b = fork.copy(base)
    assert.are.equal(before, json.encode(b:state()))
    assert.is_nil(rawget(b.ctx, "extra"))
    -- and the game changed, the copies made before are as they were
    local bstate = json.encode(b:state())
    g:step(s, 1)
    assert.are.equal(bstate, json.encode(b:state()))
    local c2 = fork.copy(fork.base(g, decider(g)))
    assert.are.equal(json.encode(g:state()), json.encode(c2:state()))
    assert.are.same({ 1, 2, 0, 1, 2, 3 }, c2.ctx.shared)
  end)

  it("as a sample, deals the unseen cards again and shows the seat what it saw", function()
    local g = game_at(2)
    local s = decider(g)
    local base = fork.base(g, s)
    local seen = json.encode(g:view(s))
    local other = 3 - s
    local deals = {}
    for i = 1, 12 do
      local x = fork.sample(base, kontor.rng(i))
      assert.are.equal(seen, json.encode(x:view(s)))
      assert.are.same(g.ctx.hands[s]:cards(), x.ctx.hands[s]:cards())
      assert.are.equal(g.ctx.hands[other]:count(), x.ctx.hands[other]:count())
      assert.are.equal(g.ctx.deck:count(), x.ctx.deck:count())
      deals[table.concat(x.ctx.hands[other]:cards(), ",")] = true
      x.ctx.hands[s]:clear()           -- nothing of it reaches the next sample
    end
    local n = 0
    for _ in pairs(deals) do n = n + 1 end
    assert.is_true(n > 1, "the other seat's hand is dealt again")
    assert.are.same(g.ctx.hands[s]:cards(), fork.sample(base, kontor.rng(1)).ctx.hands[s]:cards())
  end)
end)

describe("a sample's deal", function()
  local function game_at(rules, players, turn) return support.game_at(rules, players, 7, turn) end

  for _, c in ipairs { { "sea_merchants", 4, 8 }, { "caribbean", 2, 5 }, { "old_world", 4, 3 } } do
    it("by the base's deal plan, made at its first deal, is the deal a new base makes: " .. c[1], function()
      local g, s = game_at(c[1], c[2], c[3])
      local used = fork.base(g, s)
      for i = 1, 5 do fork.sample(used, kontor.rng(100 + i)) end
      for i = 1, 5 do
        local fresh = fork.base(g, s)
        local a = fork.sample(used, kontor.rng(i))
        local b = fork.sample(fresh, kontor.rng(i))
        assert.are.equal(json.encode(b:state()), json.encode(a:state()))
        assert.are.equal(b.ctx.rng:state(), a.ctx.rng:state())
        assert.are.equal(json.encode(g:view(s)), json.encode(a:view(s)))
        -- the deal changed in one sample is not the next one's
        a.ctx.rng:int(1, 6)
        for _, p in ipairs(fork.secret_piles(a, s)) do p:clear() end
      end
    end)
  end
end)

describe("lua/engine/fork.c", function()
  local core = kontor.core
  local tmp, cleanup = support.scratch()
  teardown(cleanup)

  it("rng_same and rng_assign compare and copy an RNG's state", function()
    local a, b = core.rng(5), core.rng(5)
    assert.is_true(core.rng_same(a, b))
    a:int(1, 10)
    assert.is_false(core.rng_same(a, b))
    core.rng_assign(b, a)
    assert.is_true(core.rng_same(a, b))
    assert.are.equal(a:state(), b:state())
    assert.are.equal(a:int(1, 1000000), b:int(1, 1000000))
    assert.has_error(function() core.rng_assign(a, "x") end)
    assert.has_error(function() core.rng_same({}, a) end)
  end)

  it("a saved state of the last shape is planned by fork_plan_like; one that differs is copied exactly", function()
    local mt = { __index = function() return 0 end }
    local function state(x)
      local shared = { x, x + 1 }
      local deck = core.pile { vis = "hidden" }
      deck:push(x); deck:push(7)
      return { a = x, b = "b" .. x, shared = shared, alias = shared, deck = deck,
               list = { 1, 2, 3, 4, 5, 6, 7, 8, x }, sub = setmetatable({ y = x }, mt),
               count = core.counter { n = 2 } }
    end
    local function same(orig, copy, seen)
      seen = seen or {}
      if type(orig) == "userdata" then
        assert.are_not.equal(orig, copy)
        if orig.cards then assert.are.same(orig:cards(), copy:cards()) else assert.are.same(orig:values(), copy:values()) end
        return
      end
      if type(orig) ~= "table" then assert.are.equal(orig, copy); return end
      assert.are_not.equal(orig, copy)
      if seen[orig] then assert.are.equal(seen[orig], copy); return end
      seen[orig] = copy
      assert.are.equal(getmetatable(orig), getmetatable(copy))
      local n = 0
      for k, v in next, orig do n = n + 1; same(v, rawget(copy, k), seen) end
      for _ in next, copy do n = n - 1 end
      assert.are.equal(0, n)
    end
    local function planned(st)
      local copy, _, plan = fork.copy_planned(st)
      same(st, copy)
      return plan
    end
    -- the same shape again and again: planned from the last one's (the
    -- walk in C) once it is the last compiled shape (a new shape is
    -- compiled at once, or one time in 16: fork.lua's new_plan)
    local from_last
    for x = 1, 40 do
      local plan = planned(state(x))
      if plan.template then from_last = plan; break end
    end
    assert.is_truthy(from_last, "planned from the last shape")
    assert.is_truthy(from_last.fn)
    -- each a different shape (or the same): copied exactly all the same
    local variants = {
      function(st) st.extra = 1 end,
      function(st) st.alias = { 9, 9 } end,
      function(st) st.shared = core.pile {} end,
      function(st) st.a = {} end,
      function(st) setmetatable(st.shared, mt) end,
      function(st) st.list[#st.list + 1] = 10 end,
      function(st) st.list[3] = {} end,
      function(st) st.sub = st.shared end,
      function(st) st.b = nil end,
      function(st) st.deck = st.count end,
    }
    for _, change in ipairs(variants) do
      for x = 1, 3 do planned(state(x)) end
      local st = state(6)
      change(st)
      planned(st)
    end
  end)

  it("fork_fields reads g's rule fields: not the engine's, not its methods", function()
    local gamemod = require "kontor.game"
    local ctx = setmetatable({ players = 2, turn = 3, log = gamemod.Ctx.log, choose = "mine",
      coins = { 1, 2 }, [7] = "seven" }, { __index = function() error("not raw") end })
    local f = core.fork_fields(ctx, { players = true, turn = true }, gamemod.Ctx)
    assert.are.same({ choose = "mine", coins = ctx.coins, [7] = "seven" }, f)
    assert.are.equal(ctx.coins, f.coins)
    assert.is_nil(getmetatable(f))
  end)

  it("fork_reach finds the piles and texts of g's rule fields that the walk in Lua finds", function()
    local g = kontor.new_game { rules = "sea_merchants", players = 4, seed = 2 }
    local rng = kontor.rng(2)
    for _ = 1, 40 do
      local s = decider(g)
      g:step(s, rng:below(#g:options(s)) + 1)
    end
    local s = decider(g)
    local fast = fork.secret_piles(g, s, true)
    local slow = fork.secret_piles(g, s)
    assert.is_true(#slow > 0)
    local set = {}
    for _, p in ipairs(slow) do set[p] = true end
    assert.are.equal(#slow, #fast)
    for _, p in ipairs(fast) do assert.is_true(set[p]) end
    local strings = {}
    local seen, piles = core.fork_reach({ a = { "x", { "y", core.pile {} } }, b = "z" }, {}, {},
      getmetatable(core.pile {}) or debug.getmetatable(core.pile {}), strings)
    assert.are.equal(1, #piles)
    assert.is_true(seen[piles[1]])
    table.sort(strings)
    assert.are.same({ "x", "y", "z" }, strings)
  end)

  it("a state nested deeper than the C walk goes is walked in Lua: its hidden piles dealt, its secrets found", function()
    local file = support.write(tmp("deep.lua"), [[
local R = { name = "deep", players = { min = 2, max = 2 }, resumes_at_turn = true }
function R.card_text(_, c) return "card " .. c end
function R.setup(g)
  local t = {}
  g.deep = t
  for _ = 1, 400 do t.next = {}; t = t.next end
  t.hand = kontor.pile { vis = "owner", owner = 2 }
  for c = 1, 5 do t.hand:push(c) end
  g.bottom = t
  g.score = 0
end
function R.play(g)
  while true do
    g:begin_turn(1)
    if g:choose(1, "go", { "on", "stop" }) == 2 then break end
    g.score = g.score + 1
  end
end
function R.scores(g) return { g.score, 0 } end
return R]])
    local g = kontor.new_game { rules = file, players = 2, seed = 1 }
    g:step(1, 1)
    local hidden = fork.secret_piles(g, 1, true)
    assert.are.equal(1, #hidden)
    assert.are.equal(g.ctx.bottom.hand, hidden[1])
    local base = fork.base(g, 1)
    local x = fork.sample(base, kontor.rng(3))
    assert.are.equal(5, x.ctx.bottom.hand:count())
    -- a card of it kept as a text no view shows: named
    g.ctx._note = "card 4"
    local ok, err = pcall(fork.base, g, 1)
    assert.is_false(ok)
    assert.matches('^deep: g%._note holds a card seat 1 cannot see', err)
  end)

  it("at a simultaneous decision, the walk of the replay still finds a hidden card kept outside a pile", function()
    local function rules(name, peek)
      return support.write(tmp(name .. ".lua"), ([[
local R = { name = "%s", players = { min = 2, max = 2 }, resumes_at_turn = true }
function R.card_text(_, c) return ({ "red", "blue", "green" })[c] end
function R.setup(g)
  g.deck = kontor.pile { vis = "hidden" }
  for c = 1, 3 do g.deck:push(c) end
  g.deck:shuffle(g.rng)
  g.score = { 0, 0 }
end
function R.play(g)
  g:begin_turn(1)
  if %s then g._peek = R.card_text(g, g.deck:top()) end
  local picks = g:choose_all({ 1, 2 }, "guess", { { "red", "blue", "green" }, { "red", "blue", "green" } })
  for s = 1, 2 do if picks[s] == g.deck:top() then g.score[s] = 1 end end
end
function R.scores(g) return g.score end
return R]]):format(name, tostring(peek)))
    end
    local g = kontor.new_game { rules = rules("secret", false), players = 2, seed = 2 }
    g:step(2, 1)                       -- seat 2's secret choice: left out of seat 1's copies
    assert.are.equal("all", g.kind)
    local x = fork.sample(fork.base(g, 1), kontor.rng(1))
    assert.are.equal(3, x.ctx.deck:count())
    local h = kontor.new_game { rules = rules("peek", true), players = 2, seed = 2 }
    h:step(2, 1)
    local ok, err = pcall(fork.base, h, 1)
    assert.is_false(ok)
    assert.matches('^peek: g%._peek holds a card seat 1 cannot see, kept outside a pile', err)
  end)
end)

