-- engine_spec.lua - the engine through its public API (docs/api.md):
-- decisions, action text, undo/redo, transactions, the sandbox, replay and
-- determinism, and random games checked at every step.
-- Run: build/kontor run tests/busted.lua tests/lua/engine_spec.lua
-- (from the repository root; the fresh-process test runs $KONTOR, else the
-- binary running this spec, else build/kontor).
local json = kontor.json
local support = require "tests.lua.support"
local sh_quote, write, read = support.sh_quote, support.write, support.read
local tmp, cleanup_tmp = support.scratch()

local RACE = "tests/rulesets/race.lua"
local BID = "tests/rulesets/sealed_bid.lua"
local TAKE = "tests/rulesets/take_one_each.lua"

---------------------------------------------------------------------------
-- Helpers
---------------------------------------------------------------------------





local function enc(g) return json.encode(g:state()) end

-- Everything that must come back exactly: state, log, steps.
local function snapshot(g)
  return enc(g) .. "\n--log\n" .. table.concat(g:log(), "\n") .. "\n--actions\n"
    .. table.concat(g:actions(), "\n")
end

local function ok(g, action, seat)
  local done, err = g:apply(action, seat)
  assert(done, err)
  assert.is_true(done)
end

local function view_json(g, seat)
  local v = g:view(seat)
  v.to_move = nil
  return json.encode(v)
end

local function sorted(t)
  local c = { table.unpack(t) }
  table.sort(c)
  return c
end

-- A random legal step: a random waiting seat, a random option of it.
local function random_step(g, bot)
  local w = g:who()
  local seat = w
  if type(w) == "table" then seat = w[bot:below(#w) + 1] end
  local opts = g:options(seat)
  assert(#opts > 0, "no options for the seat to move")
  ok(g, bot:below(#opts) + 1, seat)
end

-- Applies a list of "seat: text" steps one step at a time, by option number
-- (so no step text is parsed).
-- The game's steps in the order taken: { {seat, text, option}, ... }.
local function steps_of(g)
  local out = {}
  for i = 1, g:step_count() do out[i] = { g:step_at(i) } end
  return out
end

local function replay_steps(g, actions)
  for i, a in ipairs(actions) do
    local seat, text = a:match("^(%d+): (.*)$")
    seat = tonumber(seat)
    local k
    for j, o in ipairs(g:options(seat)) do if o == text then k = j; break end end
    assert(k, ("step %d '%s' is not an option"):format(i, a))
    ok(g, k, seat)
  end
end

---------------------------------------------------------------------------
-- Inline rule sets
---------------------------------------------------------------------------

-- Moves of several steps: play GOOD -> play GOOD on slots S -> ... S,T -> ...
-- where the option repeating the text so far stops (at most 3 slots).
local STEPS = [==[
local R = { name = "steps", players = { min = 2, max = 2 } }
local GOODS = { "fish", "grain" }
function R.setup(g) g.played = {} end
function R.play(g)
  while true do
    for _, p in ipairs(g:turn_order(1)) do
      g:begin_turn(p)
      local k = g:choose(p, "turn", { "play fish", "play grain", "pass" })
      if k < 3 then
        local base = "play " .. GOODS[k] .. " on slots "
        local opts = {}
        for s = 1, 4 do opts[s] = base .. s end
        local slots = { g:choose(p, "slot", opts) }
        while #slots < 3 do
          local text = base .. table.concat(slots, ",")
          local more, free, used = { text }, {}, {}
          for _, s in ipairs(slots) do used[s] = true end
          for s = 1, 4 do
            if not used[s] then more[#more + 1] = text .. "," .. s; free[#free + 1] = s end
          end
          local j = g:choose(p, "more", more)
          if j == 1 then break end
          slots[#slots + 1] = free[j - 1]
        end
        g.played[#g.played + 1] = { seat = p, good = GOODS[k], slots = slots }
        g:log("%d plays %s on %s", p, GOODS[k], table.concat(slots, ","))
      end
    end
  end
end
function R.scores(g) return { 0, 0 } end
return R
]==]

-- Every step changes the state (field, counter, log, RNG) before it fails.
local BOOM = [==[
local R = { name = "boom", players = { min = 1, max = 2 } }
local OPTS = { "safe", "boom", "loop", "pcall loop", "coroutine loop", "rep", "big rep",
               "error table", "finish in pcall", "two" }
function R.setup(g) g.n = 0; g.c = kontor.counter { n = 1, min = 0 } end
function R.play(g)
  while true do
    local o = OPTS[g:choose(1, "turn", OPTS)]
    g.n = g.n + 1
    g.c:add(1, 1)
    g:log("step %d: %s", g.n, o)
    g.rng:below(10)
    if o == "boom" then error("boom!")
    elseif o == "loop" then while true do end
    elseif o == "pcall loop" then
      for _ = 1, math.maxinteger do pcall(function() while true do end end) end
    elseif o == "coroutine loop" then
      for _ = 1, math.maxinteger do
        pcall(coroutine.wrap(function() while true do end end))
        coroutine.resume(coroutine.create(function() while true do end end))
      end
    elseif o == "rep" then g.s = #string.rep("x", 2^31)
    elseif o == "big rep" then g.s = #string.rep("x", 2^30)
    elseif o == "error table" then error({})
    elseif o == "finish in pcall" then
      pcall(function() g:finish() end)
      g.after_finish = true
    elseif o == "two" then
      g:choose(1, "two", { "two steps" })
      error("second step fails")
    end
  end
end
function R.scores(g) return { g.n } end
return R
]==]

-- Reports its globals and library contents, and probes the sandbox.
local GLOBALS = [==[
local names = {}
for k in pairs(_G) do names[#names + 1] = k end
table.sort(names)
local libs = {}
for _, lib in ipairs { "string", "table", "math", "utf8", "coroutine", "kontor" } do
  local t = {}
  for k in pairs(_G[lib]) do t[#t + 1] = k end
  table.sort(t)
  libs[lib] = t
end
local R = { name = "globals", players = { min = 1, max = 1 } }
local function msg(f, ...)
  local res = table.pack(pcall(f, ...))
  if not res[1] then return "error: " .. tostring(res[2]) end
  if res[2] == nil then return "nil: " .. tostring(res[3]) end
  return "value: " .. type(res[2])
end
function R.setup(g, sc)
  g.globals, g.libs = names, libs
  g.probe = {
    dump = tostring(string.dump),
    load_dump = msg(load, sc.chunk),
    load_dump_b = msg(load, sc.chunk, "x", "b"),
    load_esc = msg(load, "\27Lua\84\0\25\147\13\10\26\10"),
    load_fn = msg(load, function() return nil end),
    return_os = tostring(load("return os")()),
    return_io = tostring(load("return io")()),
    return_kontor = load("return kontor")() == kontor,
    string_mt = tostring(getmetatable("")),
    randomseed = msg(math.randomseed, 1),
    print = select("#", print("x")),
  }
end
function R.play(g) g:choose(1, "t", { "go" }) end
function R.scores() return { 0 } end
return R
]==]

local REP_A = [==[
string.rep = function() return "hacked" end
string.format = nil
local R = { name = "rep_a", players = { min = 1, max = 1 } }
function R.setup(g) g.rep = string.rep("ab", 2); g.method = ("ab"):rep(2) end
function R.play(g) g:choose(1, "t", { "go" }) end
function R.scores() return { 0 } end
return R
]==]

local REP_B = [==[
local R = { name = "rep_b", players = { min = 1, max = 1 } }
function R.setup(g)
  g.rep = string.rep("ab", 2)
  g.method = ("ab"):rep(2)
  g.format = string.format("%d", 7)
end
function R.play(g) g:choose(1, "t", { "go" }) end
function R.scores() return { 0 } end
return R
]==]

-- Tamper with what rule scripts share: the kontor table, and the methods of
-- the engine's userdata.
local TAMPER_API = [==[
kontor.counter = function() error("hijacked kontor.counter") end
local R = { name = "tamper_api", players = { min = 1, max = 1 } }
function R.setup(g) end
function R.play(g) g:choose(1, "t", { "go" }) end
function R.scores() return { 0 } end
return R
]==]

local TAMPER_MT = [==[
local mt = getmetatable(kontor.pile {})
if type(mt) == "table" and type(mt.__index) == "table" then
  mt.__index.push = function() error("hijacked pile:push") end
end
local R = { name = "tamper_mt", players = { min = 1, max = 1 } }
function R.setup(g) end
function R.play(g) g:choose(1, "t", { "go" }) end
function R.scores() return { 0 } end
return R
]==]

---------------------------------------------------------------------------
-- Decisions
---------------------------------------------------------------------------

describe("decisions", function()
  it("a player decision: who, decision, options", function()
    local g = kontor.new_game { rules = RACE, players = 3, seed = 1 }
    assert.are.equal(1, g:who())
    assert.are.same({ kind = "player", name = "turn", seats = { 1 },
                      options = { "score 1", "score 2", "pass" } }, g:decision())
    assert.are.same({ "score 1", "score 2", "pass" }, g:options())
    assert.are.same({ "score 1", "score 2", "pass" }, g:options(1))
    assert.are.same({}, g:options(2))
    ok(g, "score 2")
    assert.are.equal(2, g:who())
    assert.are.same({ 2, 0, 0 }, g:state().points)
    assert.is_false(g:over())
    assert.is_nil(g:result())
  end)

  it("the lists returned are copies: changing them changes nothing", function()
    local g = kontor.new_game { rules = RACE, seed = 1 }
    local o = g:options()
    o[1] = "cheat"
    g:decision().options[2] = "cheat"
    assert.are.same({ "score 1", "score 2", "pass" }, g:options())
    assert.is_nil(g:apply("cheat"))
  end)

  it("a simultaneous decision lists the seats still to choose", function()
    local g = kontor.new_game { rules = BID, players = 3, seed = 5 }
    local bids = { "bid 0", "bid 1", "bid 2", "bid 3", "bid 4", "bid 5" }
    assert.are.same({ 1, 2, 3 }, g:who())
    assert.are.same({ kind = "simultaneous", name = "bid", seats = { 1, 2, 3 }, chosen = {},
                      options = { bids, bids, bids } }, g:decision())
    ok(g, "2: bid 4")
    assert.are.same({ 1, 3 }, g:who())
    assert.are.same({ kind = "simultaneous", name = "bid", seats = { 1, 3 }, chosen = { 2 },
                      options = { [1] = bids, [3] = bids } }, g:decision())
    assert.are.same(bids, g:options(1))
    assert.are.same({}, g:options(2))
    assert.are.same({}, g:options())   -- ambiguous: two seats wait
    ok(g, "3: bid 0")
    assert.are.same({ 1 }, g:who())
    assert.are.same({ 2, 3 }, g:decision().chosen)
    assert.are.same(bids, g:options())  -- the only seat left is the default
    ok(g, "bid 1")
    -- Revealed: seat 2 bid most and picks first.
    assert.are.equal(2, g:who())
    assert.are.equal("player", g:decision().kind)
    assert.are.same({ 1, 4, 0 }, g:state().bids)
    assert.are.same({ 4, 1, 5 }, g:state().coins)
  end)

  it("sealed bid: chance draws the row; ties go from the token, which moves", function()
    local g = kontor.new_game { rules = BID, players = 3, seed = 5 }
    assert.are.same({ "chance draw: cloth", "chance draw: spice", "chance draw: spice" }, g:log())
    assert.are.same({ "cloth", "spice", "spice" }, g:state().row)
    for s = 1, 3 do ok(g, s .. ": bid 0") end
    local order = {}
    while g:decision().name == "take" do
      order[#order + 1] = g:who()
      ok(g, 1)
    end
    assert.are.same({ 1, 2, 3 }, order)
    assert.are.equal(2, g:state().first)
    assert.are.same({ 6, 6, 6 }, g:state().coins)   -- 5, no bid paid, 1 income
    ok(g, "3: bid 2"); ok(g, "1: bid 0"); ok(g, "2: bid 0")
    order = {}
    while g:decision().name == "take" do
      order[#order + 1] = g:who()
      ok(g, 1)
    end
    assert.are.same({ 3, 2, 1 }, order)
    assert.are.same({ 7, 7, 5 }, g:state().coins)
  end)

  it("a pending secret choice is in neither g:state() nor another seat's g:view()", function()
    local g = kontor.new_game { rules = BID, players = 3, seed = 5 }
    local state, v1, v2, v3 = enc(g), view_json(g, 1), view_json(g, 2), view_json(g, 3)
    ok(g, "2: bid 4")
    assert.are.equal(state, enc(g))
    assert.are.equal(v1, view_json(g, 1))
    assert.are.equal(v3, view_json(g, 3))
    assert.are.equal(v2, view_json(g, 2))
    assert.are.same({ 1, 3 }, g:view(1).to_move)
    -- The decision says who has chosen, not what.
    local d = g:decision()
    assert.are.same({ 2 }, d.chosen)
    assert.is_nil(d.options[2])
    ok(g, "1: bid 2")
    assert.are.equal(state, enc(g))
    ok(g, "3: bid 3")
    assert.are_not.equal(state, enc(g))
    assert.are.same({ 2, 4, 3 }, g:state().bids)
  end)

  it("the game over: kind over, no seats, result, no options", function()
    local g = kontor.new_game { rules = RACE, players = 2, seed = 1, options = { target = 3 } }
    ok(g, "score 2"); ok(g, "pass"); ok(g, "score 1")
    assert.is_true(g:over())
    assert.is_nil(g:who())
    assert.are.same({ kind = "over", seats = {} }, g:decision())
    assert.are.same({}, g:options())
    assert.are.same({ scores = { 3, 0 }, winners = { 1 }, turns = 3 }, g:result())
    assert.are.same({ nil, "the game is over" }, { g:apply("pass") })
    assert.are.same({ nil, "the game is over" }, { g:apply(1) })
    assert.are.equal("the game is over", g:why("pass"))
  end)

  it("options come in the rule set's canonical order, every time", function()
    -- sealed_bid: goods in the order salt, cloth, spice, gold; take_one_each:
    -- card order (colour, then value), "take nothing" last.
    local goods = { salt = 1, cloth = 2, spice = 3, gold = 4 }
    for seed = 1, 30 do
      local g = kontor.new_game { rules = BID, players = 4, seed = seed }
      for s = 1, 4 do ok(g, s .. ": bid 0") end
      local opts = g:options()
      for i = 2, #opts do
        assert.is_true(goods[opts[i - 1]:sub(6)] < goods[opts[i]:sub(6)], table.concat(opts, ", "))
      end
      local again = kontor.new_game { rules = BID, players = 4, seed = seed }
      for s = 4, 1, -1 do ok(again, s .. ": bid 0") end
      assert.are.same(opts, again:options())
    end
    local colours = { red = 0, blue = 10, green = 20, yellow = 30, black = 40 }
    local function key(o)
      local c, v = o:match("^take (%a+) (%d)$")
      if not c then return o == "take nothing" and 99 or -1 end
      return colours[c] + tonumber(v)
    end
    local checked = 0
    for seed = 1, 40 do
      local g = kontor.new_game { rules = TAKE, players = 3, seed = seed }
      local bot = kontor.core.rng(seed)
      while not g:over() do
        local opts = g:options()
        if opts[1] and opts[1]:match("^take ") then
          checked = checked + 1
          for i = 2, #opts do
            assert.is_true(key(opts[i - 1]) < key(opts[i]), table.concat(opts, ", "))
          end
        end
        random_step(g, bot)
      end
    end
    assert.is_true(checked > 40)
  end)
end)

---------------------------------------------------------------------------
-- Action text
---------------------------------------------------------------------------

describe("action text", function()
  local steps_file
  before_each(function() steps_file = write(tmp("steps.lua"), STEPS) end)

  it("applies by number and by text", function()
    local g = kontor.new_game { rules = RACE, players = 2, seed = 1 }
    ok(g, 2)
    ok(g, "score 1")
    ok(g, 3)
    ok(g, "  pass  ")
    assert.are.same({ 2, 1 }, g:state().points)
    assert.are.same({ "1: score 2", "2: score 1", "1: pass", "2: pass" }, g:actions())
    assert.are.same(g:actions(), g:moves())
  end)

  it("walks every step of a whole move and merges them in g:moves()", function()
    local g = kontor.new_game { rules = steps_file, seed = 1 }
    ok(g, "play fish on slots 1,4")
    assert.are.same({ "1: play fish", "1: play fish on slots 1", "1: play fish on slots 1,4",
                      "1: play fish on slots 1,4" }, g:actions())
    assert.are.same({ "1: play fish on slots 1,4" }, g:moves())
    assert.are.equal(2, g:who())
    ok(g, "play grain on slots 2,1,3")   -- three slots: no stop step
    assert.are.same({ "1: play fish on slots 1,4", "2: play grain on slots 2,1,3" }, g:moves())
    assert.are.equal(8, #g:actions())
    ok(g, "1: play fish on slots 3")      -- the stop step is taken too
    assert.are.same({ "1: play fish", "1: play fish on slots 3", "1: play fish on slots 3" },
      { table.unpack(g:actions(), 9) })
    assert.are.same({ { seat = 1, good = "fish", slots = { 1, 4 } },
                      { seat = 2, good = "grain", slots = { 2, 1, 3 } },
                      { seat = 1, good = "fish", slots = { 3 } } }, g:state().played)
    assert.are.same({ "1 plays fish on 1,4", "2 plays grain on 2,1,3", "1 plays fish on 3" }, g:log())
  end)

  it("merges the steps of a move taken one at a time", function()
    local g = kontor.new_game { rules = steps_file, seed = 1 }
    ok(g, "play fish")
    assert.are.same({ "play fish on slots 1", "play fish on slots 2", "play fish on slots 3",
                      "play fish on slots 4" }, g:options())
    ok(g, 1)
    assert.are.same({ "play fish on slots 1", "play fish on slots 1,2", "play fish on slots 1,3",
                      "play fish on slots 1,4" }, g:options())
    ok(g, 4)
    assert.are.same({ "play fish on slots 1,4", "play fish on slots 1,4,2",
                      "play fish on slots 1,4,3" }, g:options())
    ok(g, 1)
    assert.are.same({ "1: play fish on slots 1,4" }, g:moves())
    assert.are.same({ "1: play fish", "1: play fish on slots 1", "1: play fish on slots 1,4",
                      "1: play fish on slots 1,4" }, g:actions())
  end)

  it("a text that does not fit names what was expected and changes nothing", function()
    local g = kontor.new_game { rules = steps_file, seed = 1 }
    ok(g, "pass")
    local before = snapshot(g)
    local cases = {
      ["fly"] = "'fly' is not a legal action; expected one of: play fish, play grain, pass",
      ["play fishy"] = "'play fishy' is not a legal action; expected one of: play fish, play grain, pass",
      ["play fish on slots 5"] = "'play fish on slots 5' is not a legal action; expected one of: "
        .. "play fish on slots 1-4",
      ["play fish on slots 2,2"] = "'play fish on slots 2,2' is not a legal action; expected one of: "
        .. "play fish on slots 2, play fish on slots 2,1, play fish on slots 2,3, play fish on slots 2,4",
      ["1: pass"] = "'pass': it is not Player 1's turn to decide (waiting for Player 2: turn)",
    }
    for text, want in pairs(cases) do
      local res, err = g:apply(text)
      assert.is_nil(res, text)
      assert.are.equal(want, err)
      assert.are.equal(before, snapshot(g), text)
    end
    assert.are.same({ nil, "option 4 does not exist (there are 3)" }, { g:apply(4) })
    assert.are.same({ nil, "option 0 does not exist (there are 3)" }, { g:apply(0) })
    assert.are.same({ nil, "seat 1 has no decision now" }, { g:apply(1, 1) })
    assert.are.same({ nil, "an empty action" }, { g:apply("  ") })
    assert.are.same({ nil, "'2: pass' names seat 2 but seat 1 was given" }, { g:apply("2: pass", 1) })
    assert.are.same({ nil, "an action is an option number or text, not a table" }, { g:apply({}) })
    assert.are.equal(before, snapshot(g))
  end)

  it("takes 'seat: text' in a simultaneous decision, and refuses a seat out of turn", function()
    local g = kontor.new_game { rules = BID, players = 3, seed = 5 }
    assert.are.same({ nil, "'bid 3': several seats choose at once (1, 2, 3): say which, e.g. '1: bid 3'" },
      { g:apply("bid 3") })
    ok(g, "2: bid 3")
    assert.are.same({ nil, "'bid 1': it is not Player 2's turn to decide (waiting for Player 1, Player 3: bid)" },
      { g:apply("2: bid 1") })
    assert.are.same({ nil, "seat 2 has no decision now" }, { g:apply(1, 2) })
    local res, err = g:apply("3: bid 9")
    assert.is_nil(res)
    assert.are.equal("'bid 9' is not a legal action: Player 3 has only 5 coins; expected one of: "
      .. "bid 0-5", err)
    ok(g, 1, 3)                      -- by number for a named seat
    ok(g, "1:bid 5")
    assert.are.same({ "1: bid 5", "2: bid 3", "3: bid 0" }, g:actions())   -- in seat order, whoever was first
    assert.are.same({ 5, 3, 0 }, g:state().bids)
    -- Now seat 1 picks; seat 2 may not.
    assert.are.same({ nil, "'take spice': it is not Player 2's turn to decide (waiting for Player 1: take)" },
      { g:apply("2: take spice") })
  end)

  it("out-of-turn responses: every other player may take, in turn order", function()
    local g = kontor.new_game { rules = TAKE, players = 3, seed = 3 }
    -- seed 3: yellow 2 then yellow 1 busts seat 1; seat 2 reveals red 4, green 2, ...
    ok(g, 1)
    assert.are.same({ "reveal", "stop" }, g:options())
    ok(g, 1)
    assert.are.same({ "1: reveal", "1: reveal" }, g:actions())
    assert.are.same({ "Player 1 reveals yellow 2", "Player 1 reveals yellow 1: bust" }, g:log())
    assert.are.equal(2, g:who())
    ok(g, 1); ok(g, 1); ok(g, 2)
    assert.are.same({ "red 4", "green 2" }, g:state().row)
    assert.are.same({ "take red 4", "take green 2" }, g:options())
    assert.are.same({ nil, "'take nothing' is not a legal action: the active player must take a card; "
      .. "expected one of: take red 4, take green 2" }, { g:apply("take nothing") })
    ok(g, "take green 2")
    assert.are.equal(3, g:who())
    assert.are.same({ "take red 4", "take nothing" }, g:options())
    ok(g, "take red 4")
    assert.are.same({ 3, 4, 2 }, g:state().coins)
    assert.are.same({ {}, { "green 2" }, { "red 4" } }, g:state().hands)
    assert.are.equal(3, g:who())     -- the row is empty: seat 1 is not asked; seat 3's turn
    assert.are.equal("reveal", g:decision().name)
  end)

  it("a player without coins can only take nothing", function()
    -- Seed 4, 4 players: reveal up to 3 cards, always take the first card.
    local g = kontor.new_game { rules = TAKE, players = 4, seed = 4 }
    local seen = false
    while not g:over() do
      local d, st = g:decision(), g:state()
      local seat = d.seats[1]
      if d.name == "take" and seat ~= st.engine.active and st.coins[seat] == 0 then
        assert.are.same({ "take nothing" }, g:options())
        local text = "take " .. st.row[1]
        assert.are.same({ nil, ("'%s' is not a legal action: Player %d has no coin to pay for a card; "
          .. "expected one of: take nothing"):format(text, seat) }, { g:apply(text) })
        local before = st.coins
        ok(g, "take nothing")
        assert.are.same(before, g:state().coins)
        seen = true
        break
      end
      ok(g, (d.name == "reveal" and #st.row >= 3 and #d.options == 2) and 2 or 1)
    end
    assert.is_true(seen, "no broke responder in this game")
  end)

  -- Regression: walk() once took any next option equal to the typed text as
  -- the "stop" step of a move, so a decision that came back with the same
  -- option (1-player race, "reveal" in take_one_each, Sea Merchants'
  -- "office draw") was applied up to 64 more times.
  it("a text applies one step when the same decision comes back", function()
    local g = kontor.new_game { rules = RACE, players = 1, seed = 1 }
    ok(g, "score 1")
    assert.are.same({ "1: score 1" }, g:actions())
    local t = kontor.new_game { rules = TAKE, players = 3, seed = 3 }
    ok(t, "reveal")
    assert.are.same({ "1: reveal" }, t:actions())
  end)
end)

---------------------------------------------------------------------------
-- Undo, redo, why
---------------------------------------------------------------------------

describe("undo and redo", function()
  local function race()
    local g = kontor.new_game { rules = RACE, players = 2, seed = 1 }
    ok(g, "score 1"); ok(g, "score 2"); ok(g, "pass")
    return g
  end

  it("count the steps they take", function()
    local g = race()
    local full = snapshot(g)
    assert.are.equal(1, g:undo())
    assert.are.same({ "1: score 1", "2: score 2" }, g:actions())
    assert.are.equal(1, g:who())
    assert.are.equal(2, g:undo(5))
    assert.are.same({}, g:actions())
    assert.are.same({ 0, 0 }, g:state().points)
    assert.are.equal(0, g:undo())
    assert.are.equal(3, g:redo(10))
    assert.are.equal(full, snapshot(g))
    assert.are.equal(0, g:redo())
    assert.are.equal(2, g:undo(2))
    assert.are.equal(1, g:redo())
    assert.are.same({ "1: score 1", "2: score 2" }, g:actions())
  end)

  it("a different action clears the redo list", function()
    local g = race()
    g:undo(2)
    ok(g, "pass")
    assert.are.equal(0, g:redo())
    assert.are.same({ "1: score 1", "2: pass" }, g:actions())
  end)

  it("the same action keeps the rest of the redo list", function()
    local g = race()
    local full = snapshot(g)
    g:undo(2)
    ok(g, "score 2")
    assert.are.equal(1, g:redo(5))
    assert.are.equal(full, snapshot(g))
  end)

  it("undo and redo a simultaneous choice", function()
    local g = kontor.new_game { rules = BID, players = 3, seed = 5 }
    ok(g, "2: bid 4"); ok(g, "1: bid 1")
    assert.are.equal(1, g:undo())
    assert.are.same({ 1, 3 }, g:who())
    assert.are.equal(1, g:undo())
    assert.are.same({ 1, 2, 3 }, g:who())
    assert.are.equal(2, g:redo(2))
    assert.are.same({ 3 }, g:who())
    assert.are.same({ "1: bid 1", "2: bid 4" }, g:actions())   -- still open: in seat order too
  end)

  it("g:why: nil when legal, a reason when not, and the game unchanged", function()
    local g = race()
    local before = snapshot(g)
    assert.is_nil(g:why("score 1"))
    assert.is_nil(g:why(3))
    assert.are.equal(before, snapshot(g))
    assert.are.equal("'score 3' is not a legal action; expected one of: score 1, score 2, pass",
      g:why("score 3"))
    assert.are.equal("'pass': it is not Player 1's turn to decide (waiting for Player 2: turn)", g:why("1: pass"))
    assert.are.equal(before, snapshot(g))
    local b = kontor.new_game { rules = BID, players = 2, seed = 2 }
    assert.are.equal("'bid 6' is not a legal action: Player 1 has only 5 coins; expected one of: "
      .. "bid 0-5", b:why("1: bid 6"))
  end)

  -- Regression: Game:why() on a legal action used to pop the
  -- redo entry it matches (apply changes the saved list in place).
  it("g:why does not use up the redo list", function()
    local g = race()
    local full = snapshot(g)
    g:undo()
    assert.is_nil(g:why("pass"))
    assert.are.equal(1, g:redo())
    assert.are.equal(full, snapshot(g))
  end)
end)

---------------------------------------------------------------------------
-- Transactions
---------------------------------------------------------------------------

describe("a rule-script failure", function()
  local boom
  before_each(function() boom = write(tmp("boom.lua"), BOOM) end)

  local function failing(action, pattern)
    local g = kontor.new_game { rules = boom, seed = 3 }
    ok(g, 1)
    local before = snapshot(g)
    local okk, err = pcall(g.apply, g, action)
    assert.is_false(okk)
    -- a limit's error is a value of kind "limit" (errlimit_spec.lua); the
    -- script's own, its text
    local limit = pattern:match("(%a+) limit reached")
    if limit then
      assert.are.equal("limit", kontor.errors.kind(err))
      assert.are.equal(limit, err.limit)
      err = kontor.errors.message(err)
    end
    assert.are.equal("string", type(err))
    assert.is_truthy(err:find(pattern), err)
    assert.is_truthy(err:find("stack traceback:", 1, true), err)
    assert.are.equal(before, snapshot(g))
    assert.are.same({ "safe", "boom", "loop" }, { table.unpack(g:options(), 1, 3) })
    -- The game goes on.
    ok(g, 1)
    assert.are.same({ "1: safe", "1: safe" }, g:actions())
    assert.are.same({ "step 1: safe", "step 2: safe" }, g:log())
    return err
  end

  it("raises file:line and a traceback; the game is byte-identical", function()
    failing("boom", "boom%.lua:%d+: boom!")
    failing(2, "boom%.lua:%d+: boom!")
  end)

  it("rolls back every step of a whole move", function()
    failing("two steps", "boom%.lua:%d+: second step fails")
  end)

  it("an error object that is not a string still gives file:line", function()
    failing("error table", "^%(error object is a table value%)")
  end)

  it("an endless loop hits the time limit", function()
    failing("loop", "^time limit reached")
  end)

  it("the script's own pcall cannot swallow the limit", function()
    failing("pcall loop", "^time limit reached")
  end)

  it("nor can coroutine.wrap or coroutine.resume", function()
    failing("coroutine loop", "^time limit reached")
  end)

  it("a huge string is a clean error", function()
    failing("rep", "resulting string too large")
    failing("big rep", "memory limit reached")
    assert.are.equal("xxx", string.rep("x", 3))
  end)

  it("g:finish() inside the script's pcall still ends the game", function()
    local g = kontor.new_game { rules = boom, seed = 3 }
    ok(g, 1)
    ok(g, "finish in pcall")
    assert.is_true(g:over())
    local st = g:state()
    assert.is_nil(st.after_finish)
    assert.are.equal(2, st.n)
    assert.are.same({ scores = { 2 }, winners = { 1 }, turns = 0 }, g:result())
    -- and undo reopens it
    assert.are.equal(1, g:undo())
    assert.is_false(g:over())
  end)
end)

---------------------------------------------------------------------------
-- The sandbox
---------------------------------------------------------------------------

describe("the sandbox", function()
  local probe
  setup(function()
    local g = kontor.new_game { rules = write(tmp("globals.lua"), GLOBALS),
      scenario = { chunk = string.dump(function() return 1 end) } }
    probe = g:state()
  end)

  -- lua/kontor/sandbox.lua's allow list.
  local IMPLEMENTED = { "_G", "assert", "coroutine", "error", "getmetatable", "ipairs", "kontor",
    "load", "math", "next", "pairs", "pcall", "print", "rawequal", "rawget", "rawlen", "rawset",
    "select", "setmetatable", "string", "table", "tonumber", "tostring", "type", "unpack", "utf8",
    "xpcall" }

  it("a rule script sees exactly the allowed globals", function()
    assert.are.same(IMPLEMENTED, probe.globals)
    for _, name in ipairs { "io", "os", "require", "debug", "package", "dofile", "loadfile",
                            "loadstring", "collectgarbage", "module" } do
      for _, g in ipairs(probe.globals) do assert.are_not.equal(name, g) end
    end
  end)

  it("the globals are the ones docs/api.md lists", function()
    local doc = read("docs/api.md")
    local sec = doc:match("Rule scripts see only:(.-)No `io`")
    assert.is_truthy(sec)
    local names = { kontor = true }
    for list in sec:gmatch("`([^`]+)`") do
      for w in list:gmatch("[%w_]+") do
        if w ~= "dump" and w ~= "random" and w ~= "randomseed" and w ~= "pile" and w ~= "counter" then
          names[w] = true
        end
      end
    end
    local documented = {}
    for w in pairs(names) do documented[#documented + 1] = w end
    assert.are.same(sorted(documented), probe.globals)
  end)

  it("library tables hold only the allowed functions", function()
    assert.are.same({ "byte", "char", "find", "format", "gmatch", "gsub", "len", "lower", "match",
      "pack", "packsize", "rep", "reverse", "sub", "unpack", "upper" }, probe.libs.string)
    assert.are.same({ "concat", "insert", "move", "pack", "remove", "sort", "unpack" }, probe.libs.table)
    assert.are.same({ "abs", "acos", "asin", "atan", "ceil", "cos", "exp", "floor", "fmod", "huge",
      "log", "max", "maxinteger", "min", "mininteger", "modf", "pi", "random", "randomseed", "sin",
      "sqrt", "tan", "tointeger", "type", "ult" }, probe.libs.math)
    assert.are.same({ "char", "charpattern", "codepoint", "codes", "len", "offset" }, probe.libs.utf8)
    assert.are.same({ "close", "create", "isyieldable", "resume", "running", "status", "wrap",
      "yield" }, probe.libs.coroutine)
    assert.are.same({ "bad_option", "counter", "family", "format", "options", "pile" }, probe.libs.kontor)
  end)

  it("no binary chunks, no way back to the real globals", function()
    local p = probe.probe
    assert.are.equal("nil", p.dump)
    assert.are.equal("nil: attempt to load a binary chunk (mode is 't')", p.load_dump)
    assert.are.equal("error: load: binary chunks are not allowed", p.load_dump_b)
    assert.is_truthy(p.load_esc:find("^nil: "), p.load_esc)
    assert.are.equal("error: load: rule scripts may load only source text", p.load_fn)
    assert.are.equal("nil", p.return_os)
    assert.are.equal("nil", p.return_io)
    assert.is_true(p.return_kontor)
    assert.are.equal("false", p.string_mt)   -- not the real string metatable
    assert.are.equal("error: math.randomseed is not available: the game's seed decides", p.randomseed)
    assert.are.equal(0, p.print)
  end)

  it("math.random draws from the game's RNG", function()
    local src = [[
      local R = { name = "dice", players = { min = 1, max = 1 } }
      function R.setup(g) g.rolls = {}; for i = 1, 8 do g.rolls[i] = math.random(6) end end
      function R.play(g) g:choose(1, "t", { "go" }) end
      function R.scores() return { 0 } end
      return R]]
    local f = write(tmp("dice.lua"), src)
    local a = kontor.new_game { rules = f, seed = 9 }
    local b = kontor.new_game { rules = f, seed = 9 }
    local c = kontor.new_game { rules = f, seed = 10 }
    assert.are.same(a:state().rolls, b:state().rolls)
    assert.are_not.same(a:state().rolls, c:state().rolls)
    math.randomseed(1)   -- the host's generator is not the game's
    assert.are.same(a:state().rolls, kontor.new_game { rules = f, seed = 9 }:state().rolls)
  end)

  it("a script replacing string.rep changes only its own copy", function()
    local a = kontor.new_game { rules = write(tmp("rep_a.lua"), REP_A) }
    assert.are.equal("hacked", a:state().rep)
    assert.are.equal("abab", a:state().method)
    assert.are.equal("abab", string.rep("ab", 2))
    assert.are.equal("7", string.format("%d", 7))
    local b = kontor.new_game { rules = write(tmp("rep_b.lua"), REP_B) }
    assert.are.same({ "abab", "abab", "7" }, { b:state().rep, b:state().method, b:state().format })
    assert.are.equal(json.encode({ 1 }), "[1]")   -- the engine still works
  end)

  -- Regression: the `kontor` table of rule scripts used to be one
  -- table shared by every rule script.
  it("a script cannot change the kontor table other rule sets get", function()
    local api = require("kontor.rules").api
    local real_counter = api.counter
    finally(function() api.counter = real_counter end)
    kontor.new_game { rules = write(tmp("tamper_api.lua"), TAMPER_API) }
    local okk, g = pcall(kontor.new_game, { rules = RACE, seed = 1 })   -- uses kontor.counter
    assert.is_true(okk, g)
    assert.are.same({ 0, 0 }, g:state().points)
  end)

  -- Regression: getmetatable(pile) used to give the engine's own metatable,
  -- so a script could replace pile methods for every rule set.
  it("a script cannot change the methods of the engine's piles", function()
    local pmt = debug.getmetatable(kontor.core.pile {})
    local real_push = pmt.__index.push
    finally(function() pmt.__index.push = real_push end)
    kontor.new_game { rules = write(tmp("tamper_mt.lua"), TAMPER_MT) }
    local okk, t = pcall(kontor.new_game, { rules = TAKE, seed = 1 })   -- uses pile:push
    assert.is_true(okk, t)
    assert.are.equal(20, #t:state().deck)
    local p = kontor.core.pile {}
    assert.is_true((pcall(p.push, p, 3)))
  end)
end)

---------------------------------------------------------------------------
-- Replay and determinism
---------------------------------------------------------------------------

local function played(spec, players, seed, steps, bot_seed)
  local g = kontor.new_game { rules = spec, players = players, seed = seed }
  local bot = kontor.core.rng(bot_seed or seed)
  local n = 0
  while not g:over() and n < (steps or math.huge) do
    random_step(g, bot)
    n = n + 1
  end
  return g
end

describe("replay", function()
  it("the same seed and actions give the same log and state", function()
    for _, c in ipairs { { "sea_merchants", 3 }, { BID, 4 }, { TAKE, 3 }, { RACE, 2 } } do
      local a = played(c[1], c[2], 11, 150, 5)
      local b = played(c[1], c[2], 11, 150, 5)
      assert.are.equal(snapshot(a), snapshot(b))
      local c2 = kontor.new_game { rules = c[1], players = c[2], seed = 11 }
      replay_steps(c2, a:actions())
      assert.are.equal(snapshot(a), snapshot(c2))
    end
  end)

  it("save, then load_game: the same state, moves and log", function()
    for _, c in ipairs { { BID, 3, 40 }, { RACE, 2, 30 }, { "sea_merchants", 2, 40 } } do
      local g = played(c[1], c[2], 21, c[3])
      local path = tmp("game.json")
      assert.are.same({ true }, { g:save(path) })
      local h, err = kontor.load_game(path)
      assert.is_truthy(h, err)
      assert.are.equal(enc(g), enc(h))
      assert.are.same(g:moves(), h:moves())
      assert.are.same(g:log(), h:log())
      assert.are.same(g:actions(), h:actions())
      assert.are.same(g:options(), h:options())
    end
  end)

  it("a save file is canonical JSON with the moves", function()
    local g = kontor.new_game { rules = RACE, players = 2, seed = 4, names = { "Ann", "Bob" } }
    ok(g, "score 1"); ok(g, "pass")
    local path = tmp("race.json")
    assert(g:save(path))
    local doc = json.decode(read(path))
    assert.are.same({ "1: score 1", "2: pass" }, doc.actions)
    assert.are.same({ "Ann", "Bob" }, doc.names)
    assert.are.same({ "kontor-save", 1, RACE, 2, 4 },
      { doc.format, doc.version, doc.rules, doc.players, doc.seed })
    assert.are.equal(json.encode(doc, { indent = 2, newline = true }), read(path))
  end)

  describe("a bad save file gives nil and a message naming the file", function()
    local good, path, text
    before_each(function()
      good = played(BID, 3, 21, 12)
      path = tmp("bad.json")
      os.remove(path)   -- the test before left no save there (save keeps such a file)
      assert(good:save(path))
      text = read(path)
    end)

    local function fails(content, want)
      write(path, content)
      local g, err = kontor.load_game(path)
      assert.is_nil(g)
      assert.are.equal("string", type(err.message))
      assert.truthy(err.kind == "file" or err.kind == "rules", err.kind)
      assert.is_truthy(err:find(path, 1, true), err)
      if want then assert.is_truthy(err:find(want, 1, true), err) end
      return err
    end

    local function flip(s, i) return s:sub(1, i - 1) .. string.char(s:byte(i) ~ 1) .. s:sub(i + 1) end

    it("truncated", function()
      for _, n in ipairs { 0, 1, 2, 17, #text // 3, #text // 2, #text - 20, #text - 2 } do
        fails(text:sub(1, n), "not valid JSON")
      end
    end)

    it("with flipped bytes", function()
      fails(flip(text, 1), "not valid JSON")
      local i = text:find("kontor-save", 1, true)
      fails(flip(text, i + 3), 'not a Kontor save file ("format" is "konuor-save"')
      i = text:find('"version": 1', 1, true)
      fails(flip(text, i + 11), "save file version 0 is not valid")
      i = text:find('"players": 3', 1, true)
      fails(flip(text, i + 11), "3 names for 2 players")
      i = text:find(': bid ', 1, true)
      fails(flip(text, i + 2), "cannot be replayed")
      i = text:find('"rules"', 1, true)
      fails(flip(text, i), "not valid JSON")
    end)

    it("of a newer version, an unknown rule set, not JSON, or not replayable", function()
      local doc = json.decode(text)
      doc.version = 99
      fails(json.encode(doc), "save file version 99 is newer than this Kontor reads (1): upgrade Kontor")
      doc = json.decode(text)
      doc.rules = "no_such_rules"
      fails(json.encode(doc), "unknown rule set or variant 'no_such_rules'")
      fails("this is not a save file\n", "not valid JSON")
      fails("[1, 2, 3]", "not a Kontor save file")
      doc = json.decode(text)
      doc.actions[#doc.actions + 1] = "2: fly away"
      local err = fails(json.encode(doc), ("action %d '2: fly away' cannot be replayed"):format(#doc.actions))
      assert.is_truthy(err:find("expected one of", 1, true), err)
      doc = json.decode(text)
      doc.actions[1] = "bid 1"
      fails(json.encode(doc), "action 1 'bid 1' is not 'seat: text'")
      doc = json.decode(text)
      doc.seed = "seven"
      fails(json.encode(doc), '"seed" must be a whole number')
    end)

    it("missing", function()
      os.remove(path)
      local g, err = kontor.load_game(path)
      assert.is_nil(g)
      assert.is_truthy(err:find(path, 1, true), err)
    end)
  end)

  it("a fresh process replays a save to the same log, options and state", function()
    local function binary()
      local env = os.getenv("KONTOR")
      if env and env ~= "" then return env end
      local p = io.popen("readlink /proc/$PPID/exe 2>/dev/null")
      local exe = p:read("l")
      p:close()
      if exe and exe:match("kontor$") then return exe end
      return "build/kontor"
    end
    local child = write(tmp("child.lua"), [[
      local g = assert(kontor.load_game(arg[1]))
      local out = {}
      for _, l in ipairs(g:log()) do out[#out + 1] = l end
      local doc = kontor.json.decode(io.open(arg[1]):read("a"))
      local h = kontor.new_game { rules = doc.rules, players = doc.players, seed = doc.seed }
      for _, a in ipairs(g:actions()) do
        local seat, text = a:match("^(%d+): (.*)$")
        seat = tonumber(seat)
        local opts = h:options(seat)
        out[#out + 1] = a .. " <- " .. table.concat(opts, "|")
        for k, o in ipairs(opts) do if o == text then assert(h:apply(k, seat)); break end end
      end
      out[#out + 1] = kontor.json.encode(g:state())
      out[#out + 1] = kontor.json.encode(h:state())
      io.write(table.concat(out, "\n"), "\n")
    ]])
    for _, c in ipairs { { "sea_merchants", 3, 60 }, { BID, 4, 100 } } do
      local g = played(c[1], c[2], 31, c[3])
      local save = tmp("fresh.json")
      assert(g:save(save))
      local h = kontor.new_game { rules = c[1], players = c[2], seed = 31 }
      local want = {}
      for _, l in ipairs(g:log()) do want[#want + 1] = l end
      for _, a in ipairs(g:actions()) do
        local seat = tonumber(a:match("^(%d+):"))
        want[#want + 1] = a .. " <- " .. table.concat(h:options(seat), "|")
        replay_steps(h, { a })
      end
      want[#want + 1] = enc(g)
      want[#want + 1] = enc(g)
      local p = io.popen(sh_quote(binary()) .. " run " .. sh_quote(child) .. " " .. sh_quote(save) .. " 2>&1")
      local got = p:read("a")
      p:close()
      assert.are.equal(table.concat(want, "\n") .. "\n", got)
    end
  end)
end)

---------------------------------------------------------------------------
-- Random games, checked at every step (in the style of OpenSpiel's tests)
---------------------------------------------------------------------------

-- Thousands of games per rule set (issue 2): 1000-1200 each. `make check`
-- (CHECK=1, the quick loop) plays a sixteenth of them (62 to 75 a rule
-- set; a quarter, then an eighth, each until the quick loop passed its
-- minute again); `make test` and CI play them all on the plain build, and
-- a quarter of them under the sanitizers (ENGINE_SHARE=4, tests/run).
local SHARE = os.getenv("CHECK") == "1" and 16 or math.tointeger(tonumber(os.getenv("ENGINE_SHARE") or "")) or 1
local CONFIGS = {
  { rules = RACE, players = { 2, 3, 4, 5, 6 }, games = 1000 // SHARE },
  { rules = BID, players = { 2, 3, 4 }, games = 1000 // SHARE },
  { rules = TAKE, players = { 2, 3, 4, 5 }, games = 1000 // SHARE },
}
do
  local okk, R = pcall(kontor.load_rules, "sea_merchants")
  if okk and R then
    for _, n in ipairs { 2, 3, 4 } do
      CONFIGS[#CONFIGS + 1] = { rules = "sea_merchants", players = { n }, games = 400 // SHARE }
    end
  end
end

local UNDO_GAMES = 3   -- games per configuration whose every state is undone

describe("random games", function()
  for _, cfg in ipairs(CONFIGS) do
    local label = ("%s, %s players"):format(cfg.rules, table.concat(cfg.players, "/"))

    it(label .. ": invariants, replay, save/load, undo", function()
      local failures, failed, kinds = {}, {}, {}
      local function fail(i, kind, what)
        failures[#failures + 1] = ("game %d: %s: %s"):format(i, kind, what)
        failed[i] = true
        kinds[kind] = (kinds[kind] or 0) + 1
      end
      local save = tmp("random.json")
      local R = kontor.load_rules(cfg.rules)   -- compiled once; load_game reads it again
      for i = 1, cfg.games do
        local players = cfg.players[(i - 1) % #cfg.players + 1]
        local params = { rules = R, players = players, seed = 1000 + i }
        local g = kontor.new_game(params)
        local bot = kontor.core.rng(kontor.core.derive_seed(77, i))
        local states = i <= UNDO_GAMES and { enc(g) } or nil
        local bad = g:invariants()
        local steps = 0
        while not bad and not g:over() do
          random_step(g, bot)
          steps = steps + 1
          bad = g:invariants()
          if bad then bad = ("after step %d (%s): %s"):format(steps, g:actions()[steps], bad) end
          if states then states[#states + 1] = enc(g) end
          if steps > 20000 then bad = "did not end within 20000 steps" end
        end
        if bad then fail(i, "invariant", bad) else
          local res = g:result()
          if #res.scores ~= players or #res.winners < 1 then fail(i, "result", json.encode(res)) end
          -- Replaying the moves as text.
          local final, log = enc(g), table.concat(g:log(), "\n")
          local h = kontor.new_game(params)
          for j, m in ipairs(g:moves()) do
            local done, err = h:apply(m)
            if not done then fail(i, "replay", ("move %d '%s' does not replay: %s"):format(j, m, err)); break end
          end
          if enc(h) ~= final or table.concat(h:log(), "\n") ~= log then
            fail(i, "replay", "replaying g:moves() gives another game")
          end
          -- Save, then load.
          local sok, serr = g:save(save)
          if not sok then fail(i, "save", tostring(serr)) else
            local l, lerr = kontor.load_game(save)
            if not l then fail(i, "load", lerr)
            elseif enc(l) ~= final or table.concat(l:log(), "\n") ~= log then
              fail(i, "load", "save then load gives another game")
            end
          end
          -- Undo through every earlier state, newest to oldest.
          if states then
            for j = #states - 1, 1, -1 do
              if g:undo() ~= 1 or enc(g) ~= states[j] then
                fail(i, "undo", ("undo to step %d gives another state"):format(j - 1)); break
              end
            end
          end
        end
      end
      local n, by_kind = 0, {}
      for _ in pairs(failed) do n = n + 1 end
      for k, c in pairs(kinds) do by_kind[#by_kind + 1] = k .. " " .. c end
      table.sort(by_kind)
      assert.are.same({}, { table.unpack(failures, 1, 5) },
        ("%d of %d games failed (%s)"):format(n, cfg.games, table.concat(by_kind, ", ")))
    end)

    it(label .. ": kontor.sim gives the same summary twice", function()
      for _, players in ipairs(cfg.players) do
        local function run()
          local s = kontor.sim { rules = cfg.rules, players = players, games = 30, seed = 5,
            check = function(game)
              local bad = game:invariants()
              if bad then error(bad, 0) end
            end }
          assert.is_true(s.seconds >= 0)
          s.seconds, s.games_per_second = nil, nil
          return json.encode(s)
        end
        local a = run()
        assert.are.equal(a, run())
        local s = json.decode(a)
        assert.are.same({ 30, players, 5 }, { s.games, s.players, s.seed })
      end
    end)
  end
end)

---------------------------------------------------------------------------
-- Options as data (docs/api.md, "Options as data"; issue 10 items 2, 9)
---------------------------------------------------------------------------

local DATA = [[
local R = { name = "data_opts", players = { min = 2, max = 2 } }
function R.setup(g) g.got = {} end
function R.play(g)
  local opts = {}
  for k = 1, 2 do opts[#opts + 1] = { "load", "fish", "on ship", k } end
  opts[#opts + 1] = "pass"
  local o = opts[g:choose(1, "load", opts)]
  g.got[#g.got + 1] = type(o) == "table" and o[4] or o
  local play = { { "play", "fish", "on slots", 1 }, { "play", "fish", "on slots", 1, 4 } }
  o = play[g:choose(2, "play", play)]
  g.got[#g.got + 1] = #o
end
function R.scores() return { 0, 0 } end
return R]]

-- The same decisions as a family (g:choose_from) and as the options it
-- stands for (g:choose).
local FAMILY = [[
local R = { name = "family_opts", players = { min = 2, max = 2 } }
local SHIPS = { 1, 2, 3 }
function R.setup(g) g.got = {} end
local function decide(g, seat, name, family)
  if not LISTED then return g:choose_from(seat, name, family) end
  local opts, lists = { {} }, {}
  for i = 1, #family do                 -- the options, the first list varying slowest
    local e, more = family[i], {}
    for _, o in ipairs(opts) do
      for _, c in ipairs(type(e) == "table" and e or { e }) do
        local n = { table.unpack(o) }
        n[#n + 1] = c
        more[#more + 1] = n
      end
    end
    opts = more
    if type(e) == "table" then lists[#lists + 1] = i end
  end
  local o = opts[g:choose(seat, name, opts)]
  local values = {}
  for j, i in ipairs(lists) do values[j] = o[i] end
  return table.unpack(values, 1, #lists)
end
function R.play(g)
  for turn = 1, 3 do
    local products = turn == 2 and { "fish" } or { "grain", "fish", "wood" }
    local p, k = decide(g, 1, "load", { "load", products, "on ship", SHIPS })
    g.got[#g.got + 1] = p .. k
    g.got[#g.got + 1] = decide(g, 2, "play", { "play", "fish", "on slots", { 1, 4, 5 } })
    g.got[#g.got + 1] = select("#", decide(g, 2, "go", { "go", 1 }))
    g.got[#g.got + 1] = decide(g, 1, "play", { "play", "fish", "on slots", { 1, 4, 5 } })
  end
end
function R.scores() return { 0, 0 } end
return R]]

local function bad_rules(name, body)
  return write(tmp(name .. ".lua"), ([[
local R = { name = "%s", players = { min = 2, max = 2 } }
function R.setup(g) end
function R.play(g)
%s
end
function R.scores() return { 0, 0 } end
return R]]):format(name, body))
end

describe("piles", function()
  it("counts(n) counts each card 1..n in one pass, and nothing else", function()
    local p = kontor.pile {}
    for _, c in ipairs({ 3, 1, 3, 6, 9, 0, -2, 3 }) do p:push(c) end
    assert.are.same({ 1, 0, 3, 0, 0, 1 }, p:counts(6))
    assert.are.same({}, p:counts(0))
    local many = p:counts(100)
    assert.are.equal(100, #many)
    assert.are.equal(3, many[3])
    assert.are.equal(1, many[9])
    for c = 1, 6 do assert.are.equal(p:count_of(c), p:counts(6)[c]) end
    assert.are.same({ 0, 0 }, kontor.pile {}:counts(2))
    assert.has_error(function() p:counts(-1) end, "bad argument #1 to 'counts' (must be 0 or more)")
    assert.has_error(function() p:counts() end)
  end)

  it("push(card, n) pushes n copies", function()
    local p = kontor.pile {}
    p:push(3, 4)
    p:push(1)
    p:push(2, 0)
    p:push(5, 1)
    p:push(6, nil)
    assert.are.same({ 3, 3, 3, 3, 1, 5, 6 }, p:cards())
    assert.has_error(function() p:push(1, -1) end, "bad argument #2 to 'push' (must not be negative)")
    assert.has_error(function() p:push(1, 1.5) end)
  end)
end)

describe("options as data", function()
  it("a list of words and numbers reads as its canonical text; the script gets its own data back", function()
    local g = kontor.new_game { rules = write(tmp("data_opts.lua"), DATA) }
    assert.are.same({ "load fish on ship 1", "load fish on ship 2", "pass" }, g:options())
    assert.is_true(g:apply("load fish on ship 2"))
    assert.are.same({ "play fish on slots 1", "play fish on slots 1,4" }, g:options())
    assert.is_true(g:apply("play fish on slots 1,4"))
    assert.are.same({ 2, 5 }, g:state().got)
    assert.are.same({ "1: load fish on ship 2", "2: play fish on slots 1,4" }, g:actions())
  end)

  it("the random bot records each step; its text is made from the record when asked", function()
    local R = kontor.load_rules(write(tmp("data_opts.lua"), DATA))
    local g = kontor.new_game { rules = R, seed = 3, quiet = true }
    g:play_random(kontor.core.rng(4))
    assert.is_false(rawget(g, "texts"))                          -- none made yet
    for i = 1, g:step_count() do assert.are.equal("string", type(select(2, g:step_at(i)))) end
    local moves = g:moves()
    assert.are.equal(2, #moves)
    assert.truthy(moves[1]:match("^1: load fish on ship %d$") or moves[1] == "1: pass", moves[1])
    assert.truthy(moves[2]:match("^2: play fish on slots 1(,?4?)$"), moves[2])
    local again = kontor.new_game { rules = R, seed = 3 }
    assert.is_true(again:replay({ { 1, moves[1]:sub(4) }, { 2, moves[2]:sub(4) } }))
    assert.are.same(g:state().got, again:state().got)
  end)

  it("a game played for its result alone makes its texts when they are read, by replaying", function()
    local R = kontor.load_rules("sea_merchants")
    local with = kontor.new_game { rules = R, players = 4, seed = 11, quiet = true }
    with:play_random(kontor.core.rng(5))
    local without = kontor.new_game { rules = R, players = 4, seed = 11, quiet = true }
    without:play_random(kontor.core.rng(5), nil, nil, false)
    assert.are.equal(with:step_count(), without:step_count())
    assert.is_false(rawget(without, "texts"))                    -- no text made yet
    assert.are.same(with:result(), without:result())
    assert.are.same(with:moves(), without:moves())             -- made now
    assert.are.same(steps_of(with), steps_of(without))
    -- and undo, from a fresh game played the same way
    local again = kontor.new_game { rules = R, players = 4, seed = 11, quiet = true }
    again:play_random(kontor.core.rng(5), nil, nil, false)
    assert.are.equal(3, again:undo(3))
    assert.are.same({ table.unpack(steps_of(with), 1, with:step_count() - 3) }, steps_of(again))
    assert.are.equal(json.encode(with:state()), json.encode(again:redo(3) and again:state()))
  end)

  it("a playout plays the game new_game and play_random play, its first decision by the bot inside", function()
    local gamemod = require "kontor.game"
    local rules = require "kontor.rules"
    for _, setup in ipairs { { "sea_merchants", 4 }, { "caribbean", 2 }, { "old_world", 4 },
                             { "sea_merchants", 3, { "house" } } } do
      local R = assert(rules.load(setup[1], setup[3]))
      local names = {}
      for i = 1, setup[2] do names[i] = "P" .. i end
      local params = { rules = R.name, players = setup[2], names = names, seed = 21,
                       options = rules.resolve_options(R, {}) }
      for _, texts in ipairs { true, false } do
        local old = gamemod.new(R, params, true)
        old:play_random(kontor.core.rng(8), nil, nil, texts)
        local new = gamemod.playout(R, params, kontor.core.rng(8), nil, texts, true)
        assert.are.equal("over", new.kind)
        assert.are.equal(old:step_count(), new:step_count())
        assert.are.same(old:result(), new:result())
        assert.are.same(old:moves(), new:moves())
        assert.are.same(steps_of(old), steps_of(new))
      end
    end
    -- a script that fails before or at its first decision fails as new_game does
    for _, body in ipairs { 'error("no table")', 'g:choose(1, "x", {})' } do
      local R = kontor.load_rules(bad_rules("first_" .. #body, body))
      local params = { rules = R.name, players = 2, names = { "A", "B" }, seed = 1, options = {} }
      local _, want = pcall(gamemod.new, R, params, true)
      local done_ok, err = pcall(gamemod.playout, R, params, kontor.core.rng(1), nil, false, true)
      assert.is_false(done_ok)
      assert.are.equal(want:match("^[^\n]*"), err:match("^[^\n]*"))   -- the traceback names the bot
    end
  end)

  it("a playout keeps its steps in the game's record; texts are made when read, as play_random's", function()
    local gamemod = require "kontor.game"
    local rules = require "kontor.rules"
    local R = assert(rules.load("tests/rulesets/race.lua"))
    -- about 570 steps: the record (256 steps at first) grows twice
    local params = { rules = R.name, players = 2, names = { "A", "B" }, seed = 4,
                     options = rules.resolve_options(R, { target = 300 }) }
    local old = gamemod.new(R, params, true)
    old:play_random(kontor.core.rng(2), nil, nil, false)
    local new = gamemod.playout(R, params, kontor.core.rng(2), nil, false, true)
    assert.is_false(rawget(new, "texts"))                -- nothing made yet
    assert.is_true(new:step_count() > 512)
    assert.are.equal(old:step_count(), new:step_count())
    assert.are.same(old:result(), new:result())
    assert.is_false(rawget(new, "texts"))                -- the result does not need them
    local seat, _, k = new:step_at(new:step_count())   -- made now, by replaying
    assert.are.same({ old:step_at(old:step_count()) }, { new:step_at(new:step_count()) })
    assert.are.same({ seat, k }, { new.rec:seat(new:step_count()), new.rec:option(new:step_count()) })
    assert.are.same(old:moves(), new:moves())
    assert.are.same(steps_of(old), steps_of(new))
    assert.are.equal(2, new:undo(2))
    assert.are.equal(old:step_count() - 2, new:step_count())
    local bad, why = pcall(new.step_at, new, 0)
    assert.is_false(bad)
    assert.truthy(why:find(("bad argument #1 to 'step_at' (a step 1..%d expected, got 0)"):format(new:step_count()),
      1, true), why)
    -- the bot's own checks
    local rng = kontor.core.rng(1)
    local made, err = pcall(kontor.core.random_bot, rng, {}, 10)
    assert.is_false(made)
    assert.truthy(err:find("bad argument #2 to 'kontor.core.random_bot' (kontor.Steps expected, got table)", 1, true), err)
    made, err = pcall(kontor.core.random_bot, rng, kontor.core.steps(), "many")
    assert.is_false(made)
    assert.truthy(err:find("bad argument #3 to 'kontor.core.random_bot' (number expected, got string)", 1, true), err)
  end)

  local cases = {
    { "metatable", [[g:choose(1, "x", setmetatable({ "a" }, { __len = function() while true do end end }))]],
      "bad_metatable.lua:4: g:choose: the options of decision 'x' of seat 1 are a table with a metatable (options are plain lists)" },
    { "entry", [[g:choose(1, "x", { "a", { "b", 1.5 } })]],
      "bad_entry.lua:4: g:choose: option 2 of decision 'x' of seat 1 has an entry that is not a string or a whole number" },
    { "nested", [[g:choose(1, "x", { { "b", { "c" } } })]],
      "bad_nested.lua:4: g:choose: option 1 of decision 'x' of seat 1 has an entry that is not a string or a whole number" },
    { "empty", [[g:choose(2, "x", {})]],
      "bad_empty.lua:4: g:choose: decision 'x' of seat 2 has no options" },
    { "seat", [[g:choose(7, "x", { "a" })]],
      "bad_seat.lua:4: g:choose: decision 'x' is for seat 7, not a seat 1..2" },
    { "name", [[g:choose(1, setmetatable({}, { __tostring = function() while true do end end }), { "a" })]],
      "bad_name.lua:4: g:choose: the decision's name must be a string, not table" },
    { "many", [[local t = {}; for i = 1, 1200000 do t[i] = "x" end; g:choose(1, "big", t)]],
      "bad_many.lua:4: g:choose: decision 'big' of seat 1 has 1200000 options; a decision may have at most 100000 (split it into steps)" },
    { "twice", [[g:choose_all({ 1, 1, 2 }, "bid", { { "a" }, { "b" } })]],
      "bad_twice.lua:4: g:choose_all: seat 1 is listed twice" },
    { "noseat", [[g:choose_all({ 1, 7 }, "bid", { { "a" }, { "b" } })]],
      "bad_noseat.lua:4: g:choose_all: seats[2] is 7, not a seat 1..2" },
    { "chance", [[g:chance("roll", { "a", false })]],
      "bad_chance.lua:4: g:chance: option 2 of decision 'roll' of seat 0 is not a string or a list of words and whole numbers" },
  }
  for _, c in ipairs(cases) do
    it("refuses at the boundary, with the script's line: " .. c[1], function()
      local made, err = pcall(kontor.new_game, { rules = bad_rules("bad_" .. c[1], c[2]) })
      assert.is_false(made)
      assert.truthy(err:find(c[3], 1, true), err)
    end)
  end

  it("checks the seats of g:choose_all however many there are", function()
    local function rules(name, seats)
      return write(tmp(name .. ".lua"), ([[
local R = { name = "%s", players = { min = 2, max = 20, default = 20 } }
function R.setup(g) end
function R.play(g)
  local by = {}
  for s = 1, g.players do by[s] = { "a" } end
  g:choose_all(%s, "bid", by)
end
function R.scores(g) local t = {}; for s = 1, g.players do t[s] = 0 end; return t end
return R]]):format(name, seats))
    end
    local seat_cases = {
      { "late_twice", "{ 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,18 }", "late_twice.lua:6: g:choose_all: seat 18 is listed twice" },
      { "float_seat", "{ 1, 2, 1.5 }", "float_seat.lua:6: g:choose_all: seats[3] is 1.5, not a seat 1..20" },
      { "string_seat", "{ 1, '2' }", "string_seat.lua:6: g:choose_all: seats[2] is 2, not a seat 1..20" },
      { "no_list", "'1, 2'", "no_list.lua:6: g:choose_all: seats must be a plain list of seats" },
      { "no_seat", "{}", "no_seat.lua:6: g:choose_all: no seats" },
    }
    for _, c in ipairs(seat_cases) do
      local made, err = pcall(kontor.new_game, { rules = rules(c[1], c[2]) })
      assert.is_false(made)
      assert.truthy(err:find(c[3], 1, true), err)
    end
    local g = kontor.new_game { rules = rules("all_seats", "{ 20,19,18,17,16,15,14,13,12,11,10,9,8,7,6,5,4,3,2,1 }") }
    assert.are.equal(20, #g:who())
  end)

  it("an option's text: runs of numbers joined by commas, any integer, any length", function()
    local text = kontor.core.options.text
    assert.are.equal("x -12,3 y -9223372036854775808,0", text({ "x", -12, 3, "y", math.mininteger, 0 }))
    assert.are.equal("play fish on slots 1,4", text({ "play", "fish", "on slots", 1, 4 }))
    assert.are.equal("pass", text("pass"))
    local long = { ("a"):rep(200), 7, ("b"):rep(100), 8, 9 }
    assert.are.equal(("a"):rep(200) .. " 7 " .. ("b"):rep(100) .. " 8,9", text(long))
    local many = {}
    for i = 1, 70 do many[i] = i end                     -- more entries than an option may have
    assert.are.equal(table.concat(many, ","), text(many))
    local made, err = pcall(text, { "a", 1.5 })
    assert.is_false(made)
    assert.truthy(err:find("option entry 2 is not a string or a whole number", 1, true), err)
  end)

  it("two options are the same when their texts are, whatever their entries", function()
    local copt = kontor.core.options
    local same, extends = copt.same, copt.extends
    assert.is_true(same({ "play", "fish" }, { "play", "fish" }))
    assert.is_false(same({ "play", "fish" }, { "play", "fish", "on slots", 1 }))
    assert.is_false(same({ "play", "fish", "on slots", 1 }, { "play", "fish", "on slots", 1, 4 }))
    assert.is_true(same({ "play fish" }, { "play", "fish" }))          -- other entries, one text
    assert.is_true(same({ "ship", 1, 4 }, { "ship", "1,4" }))
    assert.is_true(same({ "ship", 2 }, { "ship 2" }))
    assert.is_false(same({ "ship", 2 }, { "ship", "2 " }))
    assert.is_true(same("play fish", { "play", "fish" }))
    assert.is_false(same("play", { "play", "fish" }))
    assert.is_true(same({ "play fish" }, "play fish"))
    assert.is_false(same({ "a", 1.5 }, { "a", 1.5 }))                  -- not options: never the same
    -- extends(list, option): some option of list goes on from option's text at a word boundary
    assert.is_true(extends({ { "play", "fish", "on slots", 1, 4 } }, { "play", "fish", "on slots", 1 }))
    assert.is_false(extends({ { "play", "fish", "on slots", 1 } }, { "play", "fish", "on slots", 1 }))
    assert.is_false(extends({ { "play", "fish" } }, { "play", "fish", "on slots", 1 }))
    assert.is_true(extends({ { "play fish", "on slots" } }, { "play", "fish" }))
    assert.is_true(extends({ { "ship", 14 } }, { "ship", 1 }) == false and extends({ { "ship", 1, 4 } }, { "ship", 1 }))
    assert.is_true(extends({ "pass", { "play", "fish" } }, "play"))
    assert.is_false(extends({ { "playing" } }, { "play" }))
  end)

  it("g:choose_from: a family's options, in order, and the entries chosen back", function()
    local g = kontor.new_game { rules = write(tmp("family.lua"), FAMILY) }
    assert.are.same({ "load grain on ship 1", "load grain on ship 2", "load grain on ship 3",
      "load fish on ship 1", "load fish on ship 2", "load fish on ship 3",
      "load wood on ship 1", "load wood on ship 2", "load wood on ship 3" }, g:options())
    assert.is_true(g:apply("load wood on ship 2"))
    assert.are.same({ "play fish on slots 1", "play fish on slots 4", "play fish on slots 5" }, g:options())
    assert.is_true(g:apply("play fish on slots 4"))
    assert.are.same({ "go 1" }, g:options())
    assert.is_true(g:apply("go 1"))
    assert.is_true(g:apply("play fish on slots 1"))
    assert.are.same({ "load fish on ship 1", "load fish on ship 2", "load fish on ship 3" }, g:options())
    assert.are.same({ "wood2", 4, 0, 1 }, g:state().got)
  end)

  it("g:choose_from and g:choose of the same options play the same games, saves and all", function()
    local fam = kontor.load_rules(write(tmp("family.lua"), FAMILY))
    local listed = kontor.load_rules(write(tmp("family_listed.lua"), "LISTED = true\n" .. FAMILY))
    for seed = 1, 12 do
      local a = kontor.new_game { rules = fam, seed = seed, quiet = true }
      a:play_random(kontor.core.rng(seed))          -- the simulation's bot, inside the game
      local b = kontor.new_game { rules = listed, seed = seed, quiet = true }
      b:play_random(kontor.core.rng(seed))
      assert.are.same(b:actions(), a:actions())
      assert.are.same(b:state().got, a:state().got)
      local moves = {}
      for _, m in ipairs(a:moves()) do
        local s, t = m:match("^(%d+): (.*)$")
        moves[#moves + 1] = { tonumber(s), t }
      end
      for _, R in ipairs({ fam, listed }) do    -- a's moves replayed step by step on both
        local c = kontor.new_game { rules = R, seed = seed }
        assert.is_true(c:replay(moves))
        assert.are.same(a:state().got, c:state().got)
      end
    end
  end)

  it("g:choose_from: constraints see each option as a list, and the bot only what they allow", function()
    local R = kontor.load_rules(write(tmp("family.lua"), FAMILY))
    local seen = 0
    R.constraints = { { decisions = { "load" }, check = function(g, seat, decision, text, option)
      seen = seen + 1
      assert.are.equal(table.concat(option, " "), text)
      if option[2] ~= "fish" then return "fish only" end
    end } }
    for seed = 1, 10 do
      local g = kontor.new_game { rules = R, seed = seed, quiet = true }
      g:play_random(kontor.core.rng(seed))
      for i = 1, 3 do assert.truthy(g:state().got[4 * i - 3]:match("^fish%d$")) end
    end
    assert.is_true(seen > 0)
  end)

  local family_cases = {
    { "empty", [[g:choose_from(1, "load", { "load", {}, "on ship", { 1 } })]],
      "g:choose_from: entry 2 of the family of decision 'load' of seat 1 is an empty list (no choice there)" },
    { "choice", [[g:choose_from(1, "load", { "load", { "fish", 1.5 } })]],
      "g:choose_from: entry 2 of the family of decision 'load' of seat 1 holds a choice that is not a string or a whole number" },
    { "nested", [[g:choose_from(1, "load", { "load", { { "fish" } } })]],
      "g:choose_from: entry 2 of the family of decision 'load' of seat 1 holds a choice that is not a string or a whole number" },
    { "entry", [[g:choose_from(1, "load", { "load", true })]],
      "g:choose_from: entry 2 of the family of decision 'load' of seat 1 is not a string, a whole number or a plain list of them" },
    { "meta", [[g:choose_from(1, "load", { "load", setmetatable({ "a" }, {}) })]],
      "g:choose_from: entry 2 of the family of decision 'load' of seat 1 is a table with a metatable (a family's lists are plain lists)" },
    { "many", [[local t = {}; for i = 1, 400 do t[i] = i end; g:choose_from(1, "big", { "a", t, t })]],
      "g:choose_from: decision 'big' of seat 1 has 160000 options; a decision may have at most 100000 (split it into steps)" },
    { "huge", [[local t = {}; for i = 1, 2000 do t[i] = i end; g:choose_from(1, "big", { t, t, t, t, t, t })]],
      "g:choose_from: decision 'big' of seat 1 has more options than a whole number counts; a decision may have at most 100000 (split it into steps)" },
    { "none", [[g:choose_from(1, "x", {})]], "g:choose_from: decision 'x' of seat 1 has no options" },
    { "seat", [[g:choose_from(3, "x", { "a", { 1 } })]], "g:choose_from: decision 'x' is for seat 3, not a seat 1..2" },
    { "list", [[g:choose_from(1, "x", "a")]],
      "g:choose_from: the options of decision 'x' of seat 1 must be a list, not string" },
  }
  for _, c in ipairs(family_cases) do
    it("g:choose_from refuses at the boundary, with the script's line, in a game and in a simulation: " .. c[1], function()
      local made, err = pcall(kontor.new_game, { rules = bad_rules("fam_" .. c[1], c[2]) })
      assert.is_false(made)
      assert.truthy(err:find("fam_" .. c[1] .. ".lua:4: " .. c[3], 1, true), err)
      -- the same call as the second decision: answered by the simulation's bot
      local R = kontor.load_rules(bad_rules("famsim_" .. c[1], 'g:choose(1, "first", { "go" })\n' .. c[2]))
      local g = kontor.new_game { rules = R, seed = 1, quiet = true }
      local sim_ok, err2 = pcall(g.play_random, g, kontor.core.rng(1))
      assert.is_false(sim_ok)
      assert.truthy(tostring(err2):find("famsim_" .. c[1] .. ".lua:5: " .. c[3], 1, true), tostring(err2))
    end)
  end

  it("a family of 64 lists gives back its 64 choices, in a game and in a simulation", function()
    local R = kontor.load_rules(write(tmp("fam64.lua"), [[
local R = { name = "fam64", players = { min = 2, max = 2 } }
function R.setup(g) end
function R.play(g)
  g:choose(1, "first", { "go" })
  local fam = {}
  for i = 1, 64 do fam[i] = i <= 16 and { i, i + 1 } or { i } end   -- 2^16 options
  local vals = { g:choose_from(1, "x", fam) }
  g.n, g.sum = #vals, 0
  for _, v in ipairs(vals) do g.sum = g.sum + v end
  local one = {}
  for i = 1, 64 do one[i] = { i } end                -- one option, taken twice: the same text again
  g:choose_from(1, "y", one)
  g.n = g.n + select("#", g:choose_from(1, "y", one)) - 64
  g:finish()
end
function R.scores(g) return { g.n or 0, g.sum or 0 } end
return R]]))
    for _, texts in ipairs { true, false } do
      local g = kontor.new_game { rules = R, seed = 1, quiet = true }
      g:play_random(kontor.core.rng(2), nil, nil, texts)
      local scores = g:result().scores
      assert.are.equal(64, scores[1])
      assert.is_true(scores[2] >= 2080 and scores[2] <= 2096)   -- choice i, or i + 1 for the first 16
      local moves = g:moves()
      assert.are.equal(4, #moves)
      assert.are.equal(moves[3]:match(": (.*)"), moves[4]:match(": (.*)"))   -- the same text twice
    end
  end)

  it("g:choose refuses in a simulation too, at the script's line", function()
    local tried = 0
    for _, c in ipairs(cases) do
      if c[2]:match("^g:choose%(") or c[2]:match("; g:choose%(") then
        local name = "chsim_" .. c[1]
        local R = kontor.load_rules(bad_rules(name, 'g:choose(1, "first", { "go" })\n' .. c[2]))
        local g = kontor.new_game { rules = R, seed = 1, quiet = true }
        local sim_ok, err = pcall(g.play_random, g, kontor.core.rng(1), nil, nil, false)
        assert.is_false(sim_ok)
        local want = name .. ".lua:5: " .. c[3]:gsub("^[^:]+:%d+: ", "")
        assert.truthy(tostring(err):find(want, 1, true), tostring(err))
        tried = tried + 1
      end
    end
    assert.are.equal(7, tried)
  end)

  it("in a simulation a script's own g:choose is the one called; the engine's methods stay", function()
    local engine = kontor.new_game { rules = "sea_merchants", players = 2, seed = 3, quiet = true }
    local choose, choose_from = engine.ctx.choose, engine.ctx.choose_from
    engine:play_random(kontor.core.rng(3), nil, nil, false)
    assert.are.equal(choose, engine.ctx.choose)                  -- given back
    assert.are.equal(choose_from, engine.ctx.choose_from)
    local R = kontor.load_rules(write(tmp("own_choose.lua"), [[
local R = { name = "own_choose", players = { min = 2, max = 2 } }
function R.setup(g)
  g.asked = 0
  local engine_choose = g.choose
  g.choose = function(self, ...) self.asked = self.asked + 1; return engine_choose(self, ...) end
end
function R.play(g)
  for _ = 1, 5 do g:choose(1, "x", { "a", "b" }) end
  g:finish()
end
function R.scores(g) return { g.asked, 0 } end
return R]]))
    local own = kontor.new_game { rules = R, seed = 1, quiet = true }
    own:play_random(kontor.core.rng(1), nil, nil, false)
    assert.are.same({ 5, 0 }, own:result().scores)
  end)

  it("a constraint that names its decisions is called only there", function()
    local calls = 0
    local R = kontor.load_rules(TAKE)
    R.constraints[#R.constraints + 1] = { decisions = { "reveal" }, check = function(g, seat, decision, text, option)
      calls = calls + 1
      assert.are.equal("reveal", decision)
      assert.are.equal(text, option)
      if text == "stop" and g.deck:count() > 0 then return "no stopping" end
    end }
    local g = kontor.new_game { rules = R, seed = 2, quiet = true }
    g:play_random(kontor.core.rng(1))
    assert.is_true(calls > 0)
    local before = calls
    local h = kontor.new_game { rules = R, seed = 2 }
    assert.are.equal("'stop' is not a legal action: no stopping; expected one of: "
      .. table.concat(h:options(), ", "), h:why("stop"))
    assert.is_true(calls > before)
  end)

  it("a constraint for every decision is asked at each; one that spoils the options gives an error", function()
    local R = kontor.load_rules(write(tmp("spoil.lua"), [[
local R = { name = "spoil", players = { min = 2, max = 2 } }
function R.setup(g) g.asked = 0 end
function R.play(g)
  g.opts = { "a", { "b", 2 }, "c" }
  local k = g:choose(1, "first", g.opts)
  g.took = k
  g:choose(1, "second", g.opts)
end
function R.scores(g) return { g.took or 0, 0 } end
return R]]))
    R.constraints[#R.constraints + 1] = function(g, seat, decision, text)
      g.asked = g.asked + 1
      if decision == "first" then return text == "a" and "not a" or nil end
      g.opts[2] = { "b", 1.5 }                  -- the list changes while it is asked
    end
    local g = kontor.new_game { rules = R, seed = 1, quiet = true }
    assert.are.same({ "b 2", "c" }, g:options())   -- "a" refused
    assert.are.equal(3, g.ctx.asked)
    local applied, err = pcall(g.apply, g, "c") -- then the second decision spoils its list
    assert.is_false(applied)
    local want = "spoil.lua:7: a constraint changed the options of decision 'second' of seat 1 while they "
      .. "were asked: option 2 has an entry that is not a string or a whole number"   -- at the script's line
    assert.truthy(tostring(err):find(want, 1, true), tostring(err))
    assert.are.same({ "b 2", "c" }, g:options())   -- the game is as it was
    assert.are.equal(0, g:step_count())
    local sim = kontor.new_game { rules = R, seed = 1, quiet = true }
    local sim_ok, sim_err = pcall(sim.play_random, sim, kontor.core.rng(1), nil, nil, false)
    assert.is_false(sim_ok)
    assert.truthy(tostring(sim_err):find(want, 1, true), tostring(sim_err))
  end)

  it("a constraint must be a function or name its decisions", function()
    local R = kontor.load_rules(RACE)
    R.constraints[1] = { check = function() end }
    local made, err = pcall(kontor.new_game, { rules = R })
    assert.is_false(made)
    assert.are.equal("rules", err.kind)
    assert.are.equal("race: R.constraints[1] must name its decisions: decisions = { \"name\", ... }", tostring(err))
  end)
end)

teardown(cleanup_tmp)
