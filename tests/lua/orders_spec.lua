-- orders_spec.lua - simultaneous secret orders (g:choose_orders, docs/api.md
-- "Secret orders"): interleavings, undo of a seat's own step, secrecy in
-- every view, replay and save/load through open orders, errors of entries,
-- random games with invariants, and the simulation's path.
-- Run: build/kontor run tests/busted.lua tests/lua/orders_spec.lua
local support = require "tests.lua.support"
local read = support.read
local tmp, cleanup_tmp = support.scratch()

local ORDERS = "tests/rulesets/secret_orders.lua"

local function new(players, seed, extra)
  local p = { rules = ORDERS, players = players or 3, seed = seed or 1 }
  for k, v in pairs(extra or {}) do p[k] = v end
  return kontor.new_game(p)
end

local function ok(g, action, seat)
  local done, err = g:apply(action, seat)
  assert(done, err)
end

local saves = 0
local function save_text(g, seat)
  saves = saves + 1
  local path = tmp("s" .. saves .. ".json")
  assert(g:save(path, seat))
  return read(path)
end

-- Plays a game with `rng` choosing everything; orders are entered with the
-- seats' steps interleaved at random. Returns the script: { "step", seat,
-- text } for ordinary steps, { "block", { {seat, text}, ... } } for the
-- steps of one round's orders, in the order they arrived.
local function random_script(g, rng, check)
  local script = {}
  while not g:over() do
    local d = g:decision()
    if d.kind == "orders" then
      local block = {}
      while g:decision().kind == "orders" do
        local who = g:who()
        local s = who[rng:below(#who) + 1]
        local opts = g:options(s)
        local text = opts[rng:below(#opts) + 1]
        ok(g, s .. ": " .. text)
        block[#block + 1] = { s, text }
        if check then check(g) end
      end
      script[#script + 1] = { "block", block }
    else
      local s = d.seats[1]
      local text = d.options[rng:below(#d.options) + 1]
      ok(g, s .. ": " .. text)
      script[#script + 1] = { "step", s, text }
      if check then check(g) end
    end
  end
  return script
end

-- The block's steps with each seat's steps kept in order, the seats taken
-- in `seat_order` one after the other.
local function seat_major(block, seat_order)
  local out = {}
  for _, s in ipairs(seat_order) do
    for _, st in ipairs(block) do if st[1] == s then out[#out + 1] = st end end
  end
  return out
end

local function play_script(g, script, arrange)
  for _, item in ipairs(script) do
    if item[1] == "step" then ok(g, item[2] .. ": " .. item[3])
    else for _, st in ipairs(arrange(item[2])) do ok(g, st[1] .. ": " .. st[2]) end end
  end
end

local function invariants(g)
  local msg = g:invariants()
  assert(msg == nil, msg)
end

describe("secret orders", function()
  teardown(cleanup_tmp)

  it("waits for every seat, each with its own options and decision name", function()
    local g = new(3, 7)
    local d = g:decision()
    assert.equal("orders", d.kind)
    assert.equal("order", d.name)
    assert.same({ 1, 2, 3 }, d.seats)
    assert.same({ 1, 2, 3 }, g:who())
    assert.same({ "buy ship", "buy land", "buy shed" }, d.options[2])
    assert.equal("first purchase", d.steps[2])
    assert.same({}, d.done)
    ok(g, "2: buy ship")                      -- 4 coins: 1 left
    assert.same({ "buy shed", "done" }, g:options(2))
    assert.equal("purchase", g:decision().steps[2])
    assert.same({ "buy ship", "buy land", "buy shed" }, g:options(1))
    ok(g, "2: buy shed")                      -- 0 left, 2 bought: only done
    ok(g, "2: done")
    assert.same({ 1, 3 }, g:who())
    assert.same({ 2 }, g:decision().done)
    assert.same({}, g:options(2))
  end)

  it("reveals the orders together and carries them out from the first player", function()
    local g = new(2, 2)                       -- seed 2: the yard gets 1 ship
    ok(g, "1: buy ship"); ok(g, "2: buy ship"); ok(g, "2: done"); ok(g, "1: done")
    assert.same({ "chance yard: 1 ship", "Player 1 orders ship, gets ship",
                  "Player 2 orders ship, gets nothing" }, g:log())
    local st = g:state()
    assert.same({ 1, 4 }, st.coins)
    assert.same({ 3, 0 }, st.points)
    assert.equal("player", g:decision().kind)
    assert.equal("token", g:decision().name)
  end)

  it("parses a seat prefix and asks for one while several seats enter", function()
    local g = new(3, 2)
    local done, err = g:apply("buy land")
    assert.is_nil(done)
    assert.equal("'buy land': several seats choose at once (1, 2, 3): say which, e.g. '1: buy land'", err)
    done, err = g:apply(1)
    assert.is_nil(done)
    assert.equal("several seats choose at once (1, 2, 3): say which, e.g. g:apply(1, 1)", err)
    ok(g, 2, 3)                               -- option 2 for seat 3
    ok(g, "buy shed", 1)
    assert.same({ "buy land" }, g:pending(3))
    assert.same({ "buy shed" }, g:pending(1))
    done, err = g:apply("2: buy castle")
    assert.is_nil(done)
    assert.equal("'buy castle' is not a legal action; expected one of: buy ship, buy land, buy shed", err)
    -- once one seat is left, no prefix is needed
    ok(g, "1: done"); ok(g, "3: done")
    ok(g, "buy land")
    assert.same({ "buy land" }, g:pending(2))
  end)

  it("gives a byte-identical save file for the same orders in any interleaving", function()
    for seed = 1, 12 do
      local players = 2 + seed % 3
      local a = new(players, seed)
      local script = random_script(a, kontor.core.rng(100 + seed))
      local seats = {}
      for s = 1, players do seats[s] = s end
      local reverse = {}
      for s = 1, players do reverse[s] = players + 1 - s end
      local b, c = new(players, seed), new(players, seed)
      play_script(b, script, function(block) return seat_major(block, reverse) end)
      play_script(c, script, function(block) return seat_major(block, seats) end)
      local sa = save_text(a)
      assert.equal(sa, save_text(b))
      assert.equal(sa, save_text(c))
      assert.same(a:actions(), c:actions())
      assert.same(a:log(), b:log())
      assert.same(a:result(), b:result())
    end
  end)

  it("gives the same save file for the same open orders in any interleaving", function()
    local a, b = new(3, 4), new(3, 4)
    for _, t in ipairs { "1: buy land", "3: buy shed", "1: buy shed", "3: buy shed", "3: done" } do ok(a, t) end
    for _, t in ipairs { "3: buy shed", "3: buy shed", "1: buy land", "3: done", "1: buy shed" } do ok(b, t) end
    assert.equal(save_text(a), save_text(b))
    assert.same({ "1: buy land", "1: buy shed", "3: buy shed", "3: buy shed", "3: done" }, a:actions())
    assert.same(a:decision(), b:decision())
  end)

  it("gives the same save file for the same secret choices in any order (g:choose_all)", function()
    local function bids(order)
      local g = kontor.new_game { rules = "tests/rulesets/sealed_bid.lua", players = 3, seed = 2 }
      for _, t in ipairs(order) do ok(g, t) end
      return g
    end
    local a = bids { "2: bid 1", "1: bid 0", "3: bid 2" }
    local b = bids { "3: bid 2", "2: bid 1", "1: bid 0" }
    assert.equal(save_text(a), save_text(b))
    assert.same(a:actions(), b:actions())
    local acts = a:actions()
    assert.same({ "1: bid 0", "2: bid 1", "3: bid 2" }, { acts[#acts - 2], acts[#acts - 1], acts[#acts] })
    -- still open: two of three bids in, either way round
    local c, d = bids { "3: bid 2", "1: bid 0" }, bids { "1: bid 0", "3: bid 2" }
    assert.equal(save_text(c), save_text(d))
    assert.equal(save_text(c, 2), save_text(d, 2))
    -- a save from before (the bids in the order entered) still loads, and
    -- is saved again in seat order
    local old = tmp("bids_old.json")
    local text = save_text(b):gsub('"1: bid 0",(%s*)"2: bid 1",(%s*)"3: bid 2"', '"3: bid 2",%1"2: bid 1",%2"1: bid 0"')
    assert.truthy(text:find('"3: bid 2",%s*"2: bid 1"'))
    support.write(old, text)
    local was = assert(kontor.load_game(old))
    assert.same(a:actions(), was:actions())
    assert.equal(save_text(a), save_text(was))
    -- and a save read back is the same game
    local path = tmp("bids.json")
    assert(b:save(path))
    local l = assert(kontor.load_game(path))
    assert.same(a:actions(), l:actions())
    assert.same(a:view(1), l:view(1))
    assert.same(a:options(1), l:options(1))
  end)

  it("undoes a seat's own step and leaves the other seats' entries alone", function()
    local g = new(3, 5)
    ok(g, "1: buy land"); ok(g, "2: buy ship"); ok(g, "1: buy shed"); ok(g, "3: buy land")
    assert.equal(1, g:undo(1, 2))
    assert.same({}, g:pending(2))
    assert.same({ "buy land", "buy shed" }, g:pending(1))
    assert.same({ "buy land" }, g:pending(3))
    assert.same({ "buy ship", "buy land", "buy shed" }, g:options(2))
    assert.same({ "buy shed", "done" }, g:options(1))
    assert.equal(0, g:undo(1, 2))             -- nothing of seat 2's left
    assert.equal(1, g:redo())                 -- seat 2's ship again
    assert.same({ "buy ship" }, g:pending(2))
    -- two of seat 1's, the first before seat 2's step
    assert.equal(2, g:undo(5, 1))
    assert.same({}, g:pending(1))
    assert.same({ "buy ship" }, g:pending(2))
    assert.same({ { 1, "buy shed" }, { 1, "buy land" } }, g:redo_list())   -- the land is redone first
    -- a seat that has finished may still take a step back while others enter
    ok(g, "3: done")
    assert.same({ 1, 2 }, g:who())
    assert.equal(1, g:undo(1, 3))
    assert.same({ 1, 2, 3 }, g:who())
    assert.same({ "buy land" }, g:pending(3))
    -- without a seat: the last step taken, whoever took it
    ok(g, "2: done")
    assert.equal(1, g:undo())
    assert.same({ "buy ship" }, g:pending(2))
    assert.same({ 1, 2, 3 }, g:who())
  end)

  it("undoes an order step only while the orders are open", function()
    local g = new(2, 3)
    ok(g, "1: buy shed"); ok(g, "1: done"); ok(g, "2: buy shed"); ok(g, "2: done")
    assert.equal("token", g:decision().name)
    assert.equal(0, g:undo(1, 2))
    assert.same({}, g:pending(1))
    assert.has_error(function() g:undo(1, 5) end, "bad argument #1 to 'undo' (a seat 1..2 expected, got 5)")
  end)

  it("shows no seat another seat's steps before the reveal", function()
    local g = new(3, 6)
    local before, log = {}, g:log()
    for s = 1, 3 do before[s] = { view = g:view(s), actions = g:actions(s), show = g:show(s) } end
    ok(g, "2: buy land"); ok(g, "2: buy shed"); ok(g, "3: buy ship")
    for _, s in ipairs { 1, 2, 3 } do
      local d = g:decision(s)
      for other = 1, 3 do
        if other ~= s then assert.is_nil(d.options[other]); assert.is_nil(d.steps[other]) end
      end
    end
    assert.same({}, g:actions(1))
    assert.same({}, g:moves(1))
    assert.same({ "2: buy land", "2: buy shed" }, g:actions(2))
    assert.same({ "3: buy ship" }, g:moves(3))
    assert.same(log, g:log())                 -- entries cannot log
    -- seat 1 entered nothing: its view is as it was; the others see their own drafts
    assert.same(before[1].view, g:view(1))
    assert.equal(before[1].show, g:show(1))
    assert.same({ "land", "shed" }, g:view(2).my_order)
    assert.same({ "ship" }, g:view(3).my_order)
    local v2 = g:view(2)
    v2.my_order = {}
    assert.same(before[2].view, v2)
    -- the save file a seat may see holds its own steps only, and no seed
    -- (which replays the deal): a record, which does not load
    local text = save_text(g, 3)
    assert.is_nil(text:find("buy land", 1, true))
    assert.truthy(text:find("3: buy ship", 1, true))
    assert.is_nil(text:find('"seed"', 1, true))
    local path = tmp("seat3.json")
    assert(g:save(path, 3))
    local l, lerr = kontor.load_game(path)
    assert.is_nil(l)
    assert.truthy(lerr:find("seat 3's record of a game in progress", 1, true), lerr)
    -- after the reveal everyone sees everything
    ok(g, "1: buy shed"); ok(g, "1: done"); ok(g, "2: done"); ok(g, "3: done")
    assert.same(g:actions(), g:actions(1))
    assert.same({ "1: buy shed", "1: done", "2: buy land", "2: buy shed", "2: done", "3: buy ship", "3: done" },
      g:actions(1))
  end)

  it("saves and loads a game with open orders and goes on as if never saved", function()
    local a = new(3, 8)
    ok(a, "3: buy land"); ok(a, "1: buy ship"); ok(a, "3: done")
    local path = tmp("open.json")
    assert(a:save(path))
    local b = assert(kontor.load_game(path))
    assert.same(a:actions(), b:actions())
    assert.same({ 1, 2 }, b:who())
    assert.same({ "buy ship" }, b:pending(1))
    assert.same(a:decision(), b:decision())
    for _, g in ipairs { a, b } do
      ok(g, "2: buy shed"); ok(g, "1: done"); ok(g, "2: done")
    end
    assert.equal(save_text(a), save_text(b))
    assert.same(a:log(), b:log())
    -- replay from the moves, and reload under the same rules
    local c = new(3, 8)
    assert(c:replay(a:move_list()))
    assert.same(a:state(), c:state())
    assert(a:reload())
    assert.same(c:actions(), a:actions())
  end)

  it("replays undo and redo through open orders to the same game", function()
    local g = new(4, 9)
    local rng = kontor.core.rng(9)
    random_script(g, rng)
    local final = save_text(g)
    local n = #g:actions()
    for _ = 1, 6 do
      local k = rng:below(n) + 1
      assert.equal(k, g:undo(k))
      assert.equal(k, g:redo(k))
      assert.equal(final, save_text(g))
    end
    -- by whole moves too
    local moves = #g:move_list()
    assert.equal(moves, #g:undo_moves(moves))
    assert.equal(moves, g:redo_moves(moves))
    assert.equal(final, save_text(g))
  end)

  it("rolls back an entry's error and tells where it is", function()
    local function bad(body)
      local R = kontor.load_rules(ORDERS)
      local f = assert(load([[return function(g, seat) ]] .. body .. [[ end]], "=entry.lua", "t"))()
      R.play = function(g)
        local orders = g:choose_orders({ 1, 2 }, "order", function(gg, seat)
          local k = gg:choose(seat, "first", { "a", "b" })
          if k == 2 then return f(gg, seat) end
          return { k }
        end)
        g:choose(1, "end", { tostring(orders[1][1]) })
      end
      local g = kontor.new_game { rules = R, players = 2, seed = 1 }
      ok(g, "1: a")
      local before = g:actions()
      local okc, err = pcall(g.apply, g, "2: b")
      assert.is_false(okc)
      assert.same(before, g:actions())
      assert.same({ 2 }, g:who())
      return err
    end
    assert.truthy(bad([[g:log("x")]]):find("entry.lua:1: g:log inside seat 2's order entry", 1, true))
    assert.truthy(bad([[g:chance("c", { "x", "y" })]]):find("entry.lua:1: g:chance inside seat 2's order entry", 1, true))
    assert.truthy(bad([[g:choose(1, "other", { "x" })]]):find(
      "entry.lua:1: g:choose: seat 2's order entry chose for seat 1 (an entry chooses only for its own seat)", 1, true))
    assert.truthy(bad([[g.rng:below(6); return {}]]):find("the order entry of seat 2 drew from the game's RNG", 1, true))
    assert.truthy(bad([[g:choose_orders({ 1 }, "x", function() end)]]):find(
      "g:choose_orders inside seat 2's order entry", 1, true))
    assert.truthy(bad([[error("broken")]]):find("entry.lua:1: broken", 1, true))
  end)

  it("hands the script whatever an entry returned, as it is, whatever its size and shape", function()
    local R = kontor.load_rules(ORDERS)
    local kept = {}
    R.play = function(g)
      local orders = g:choose_orders({ 1, 2 }, "order", function(gg, seat)
        gg:choose(seat, "first", { "a", "b" })
        local shared = { "x" }
        local t = { seat = seat, a = shared, b = shared, deep = { { { 1.5, true, false } } } }
        for i = 1, 2500 do t[i] = i * seat end          -- more than the copy keeps on the stack
        for i = 1, 1200 do t["k" .. i] = { i } end
        t.f, t.self, t[{}] = function() return seat * 10 end, t, "a table key"   -- any value
        setmetatable(t, { __index = function(_, k) return "no " .. k end })
        kept[seat] = t
        return t, "more"                                 -- the first value is the order
      end)
      for s = 1, 2 do
        local o, t = orders[s], kept[s]
        assert(o == t and o.a == o.b, "the entry's own tables, not a copy")
        assert(#o == 2500 and o[2500] == 2500 * s and o.k1200[1] == 1200 and o.seat == s)
        assert(o.a[1] == "x" and o.deep[1][1][1] == 1.5 and o.deep[1][1][3] == false)
        assert(o.self == o and o.f() == s * 10 and o.nothing == "no nothing")
        local n = 0
        for _ in next, o do n = n + 1 end
        assert(n == 2500 + 1200 + 7, "every key: " .. n)
      end
      g:choose(1, "end", { "ok" })
    end
    for _, manual in ipairs { false, true } do              -- the simulation's path and the driver's
      local g = kontor.new_game { rules = R, players = 2, seed = 1 }
      if manual then
        ok(g, "1: a")
        ok(g, "2: b")
      else
        g:play_random(kontor.rng(1))
      end
      assert.is_true(g:over() or g:decision().name == "end")
    end
  end)

  it("checks its arguments", function()
    local function run(f)
      local R = kontor.load_rules(ORDERS)
      R.play = f
      local okc, err = pcall(kontor.new_game, { rules = R, players = 2, seed = 1 })
      assert.is_false(okc)
      return err
    end
    assert.truthy(run(function(g) g:choose_orders({ 1, 1 }, "o", function() end) end):find(
      "g:choose_orders: seat 1 is listed twice", 1, true))
    assert.truthy(run(function(g) g:choose_orders({ 3 }, "o", function() end) end):find(
      "g:choose_orders: seats[1] is 3, not a seat 1..2", 1, true))
    assert.truthy(run(function(g) g:choose_orders({ 1 }, "o", "enter") end):find(
      "bad argument #3 to 'choose_orders' (a function enter(g, seat) expected, got string)", 1, true))
  end)

  it("reveals at once when no seat has a step to take", function()
    local g = new(2, 2, { options = { coins = 0 } })
    -- nobody can pay for anything: empty orders, straight to the token
    assert.equal("token", g:decision().name)
    assert.same({ "chance yard: 1 ship", "Player 1 orders nothing, gets nothing",
                  "Player 2 orders nothing, gets nothing" }, g:log())
  end)

  it("keeps back-to-back orders, constraints and a simultaneous choice apart", function()
    local R = kontor.load_rules(ORDERS)
    local function pick(g, seat)
      local a = g:choose(seat, "pick", { "red", "green", "blue" })
      local b = g:choose(seat, "pick", { "red", "green", "blue" })
      return { a, b }
    end
    R.constraints = { { decisions = { "pick" }, check = function(_, seat, _, text)
      if seat == 2 and text == "red" then return "seat 2 may not pick red" end
    end } }
    R.play = function(g)
      local first = g:choose_orders({ 2, 1 }, "first", pick)
      local second = g:choose_orders({ 1, 2 }, "second", pick)
      local all = g:choose_all({ 1, 2 }, "vote", { { "yes", "no" }, { "yes", "no" } })
      g:log("%d%d %d%d %d%d %d%d %d %d", first[1][1], first[1][2], first[2][1], first[2][2],
        second[1][1], second[1][2], second[2][1], second[2][2], all[1], all[2])
    end
    local function play(script)
      local g = kontor.new_game { rules = R, players = 2, seed = 1 }
      for _, t in ipairs(script) do ok(g, t) end
      return g
    end
    local a = play { "1: red", "2: blue", "1: green", "2: green", "2: blue", "1: red", "1: red", "2: green",
                     "2: no", "1: yes" }
    local b = play { "2: blue", "2: green", "1: red", "1: green", "1: red", "1: red", "2: blue", "2: green",
                     "2: no", "1: yes" }
    assert.same({ "12 32 11 32 1 2" }, a:log())   -- seat 2's options lack red: blue is its 2nd
    assert.equal(save_text(a), save_text(b))
    assert.same({ "2: blue", "2: green", "1: red", "1: green", "1: red", "1: red", "2: blue", "2: green",
                  "1: yes", "2: no" }, a:actions())     -- the vote in the order of its seats
    local done, err = kontor.new_game { rules = R, players = 2, seed = 1 }:apply("2: red")
    assert.is_nil(done)
    assert.equal("'red' is not a legal action: seat 2 may not pick red; expected one of: green, blue", err)
  end)

  it("keeps the invariants in random games, step by step, with undo", function()
    for seed = 1, 30 do
      local players = 2 + seed % 3
      local g = new(players, seed, { options = { rounds = 2 + seed % 4, max_buys = 1 + seed % 5 } })
      local rng = kontor.core.rng(seed)
      local steps = 0
      random_script(g, rng, function(gg)
        invariants(gg)
        steps = steps + 1
        if steps % 7 == 0 and gg:decision().kind == "orders" then
          local s = gg:who()[1]
          local pend = gg:pending(s)
          if #pend > 0 then
            local snap = { gg:actions(), gg:state() }
            assert.equal(1, gg:undo(1, s))
            assert.same(#pend - 1, #gg:pending(s))
            assert.equal(1, gg:redo())
            assert.same(snap, { gg:actions(), gg:state() })
          end
        end
      end)
      assert.truthy(g:over())
      invariants(g)
      local r = g:replay(g:move_list())
      assert.truthy(r)
    end
  end)

  it("plays the same game in the simulation's fast path as step by step", function()
    for seed = 1, 20 do
      local players = 2 + seed % 3
      local fast, slow = new(players, seed, { quiet = true }), new(players, seed, { quiet = true })
      fast:play_random(kontor.core.rng(seed))               -- the bot inside the coroutine
      slow:play_random(kontor.core.rng(seed), invariants)  -- step by step, checked
      assert.same(slow:actions(), fast:actions())
      assert.same(slow:state(), fast:state())
      local again = new(players, seed, { quiet = true })
      assert(again:replay(fast:move_list()))
      assert.same(fast:state(), again:state())
    end
  end)
end)

describe("secret orders at the terminal", function()
  local function run(args, input)
    local path = tmp("in.txt")
    support.write(path, input)
    local f = assert(io.popen(support.binary() .. " " .. args .. " < " .. support.sh_quote(path) .. " 2>&1"))
    local out = f:read("a")
    f:close()
    return out
  end

  it("play: one seat enters its whole order, then hands over; the next sees none of it", function()
    local out = run("play --rules " .. ORDERS .. " --players 2 --seed 2",
      "1\nbuy shed\nundo\ndone\n3\n1\n1\n")
    local p1 = out:find("--- Player 1's turn (seat 1) ---", 1, true)
    local p2 = out:find("--- Player 2's turn (seat 2) ---", 1, true)
    assert.truthy(p1 and p2 and p1 < p2)
    local first, second = out:sub(p1, p2 - 1), out:sub(p2)
    assert.truthy(first:find("Player 1, your secret order (order): buy ship, buy shed so far; next: purchase.", 1, true))
    assert.truthy(first:find("Took back 1 step of Player 1's order: buy shed", 1, true))
    -- seat 2's screen, up to the reveal, shows nothing of seat 1's order
    local reveal = second:find("Player 1 orders", 1, true)
    assert.truthy(reveal)
    local before = second:sub(1, reveal - 1)
    assert.is_nil(before:find("Player 1's order", 1, true))
    assert.is_nil(before:find("Player 1, your", 1, true))
    assert.is_nil(before:find("1: buy", 1, true))
    assert.truthy(second:find("Player 2, your secret order (order): buy shed, buy ship so far; next: purchase.", 1, true))
    assert.truthy(second:find("Player 1 orders ship, gets ship\nPlayer 2 orders shed, ship, gets shed", 1, true))
    -- every step shows the seat its draft so far, as the step before left it
    local drafts = {}
    for d in first:gmatch("my_order = (%b{})") do drafts[#drafts + 1] = d end
    assert.same({ "{}", '{ "ship" }', '{ "ship", "shed" }', '{ "ship" }' }, drafts)
  end)

  it("repl: steps of seats in any order, undo of the seat's own step, a seat's save file", function()
    local save = tmp("as2.json")
    local out = run("repl", table.concat({
      "new rules=" .. ORDERS .. " players=3 seed=2",
      "2: buy land", "buy shed", "1: buy ship", "undo", "as 2", "moves", "save " .. save .. " as 2", "" }, "\n"))
    assert.truthy(out:find("Player 2's order so far: buy land, buy shed; next: purchase.", 1, true))
    assert.truthy(out:find("Took back 1 step of Player 1's order: buy ship", 1, true))
    assert.truthy(out:find("1  Player 2: buy land\n2  Player 2: buy shed\n", 1, true))
    assert.truthy(out:find("Saved 2 moves to " .. save .. " (what Player 2 sees). It holds no deal", 1, true))
    local doc = kontor.core.json.decode(support.read(save))
    assert.same({ "2: buy land", "2: buy shed" }, doc.actions)
    assert.is_nil(doc.seed)
    assert.is_nil(kontor.load_game(save))
  end)

  it("sim: plays secret orders for every player count", function()
    for players = 2, 4 do
      local out = run("sim --rules " .. ORDERS .. " --players " .. players .. " --games 200", "")
      assert.truthy(out:find("games        200 (seed 1)", 1, true), out)
    end
  end)
end)
