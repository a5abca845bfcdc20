-- Fairness as a property of every output a seat can receive (issue 24):
-- two games that differ only in what seat S may not see give S
-- byte-identical board, view, decision, options, moves, record, log, why,
-- hint, undo, save, serve messages and bot choices. Every output goes
-- through S's seat view (lua/kontor/seat.lua), which holds no way back to
-- the game; the determiniser deals again every secret pile the rule
-- script made (lua/kontor/fork.lua) and refuses hidden state it cannot.

local seat = require "kontor.seat"
local bots = require "kontor.bots"
local rules = require "kontor.rules"
local serve = require "serve"
local json = kontor.core.json
local support = require "tests.lua.support"

local tmp, cleanup = support.scratch()
teardown(cleanup)

local PILE_MT = debug.getmetatable(kontor.core.pile {})

---------------------------------------------------------------------------
-- Twins: the same actions on two deals that differ in what S cannot see
---------------------------------------------------------------------------

local function sorted_keys(t)
  local keys = {}
  for k in next, t do
    if type(k) == "string" or type(k) == "number" then keys[#keys + 1] = k end
  end
  table.sort(keys, function(a, b)
    if type(a) ~= type(b) then return type(a) == "number" end
    return a < b
  end)
  return keys
end

-- The piles of the state `g` (a rule script's g) that S cannot see, in a
-- fixed order.
local function unseen(g, S)
  local out, seen = {}, {}
  local function walk(v)
    if type(v) == "userdata" and debug.getmetatable(v) == PILE_MT and not seen[v] then
      seen[v] = true
      local vis = v:vis()
      if vis == "hidden" or (vis == "owner" and v:owner() ~= S) then out[#out + 1] = v end
    elseif type(v) == "table" and not seen[v] then
      seen[v] = true
      for _, k in ipairs(sorted_keys(v)) do
        if not (type(k) == "string" and k:sub(1, 1) == "_") then walk(rawget(v, k)) end
      end
    end
  end
  local fields = {}
  for k, v in next, g do
    if type(k) == "string" and not ({ players = 1, names = 1, options = 1, rng = 1 })[k] then fields[k] = v end
  end
  walk(fields)
  return out
end

-- Swaps `n` pairs of different cards among the piles S cannot see, each
-- pair within one pool.
local function swap_unseen(g, S, seed, n)
  local rng = kontor.rng(seed)
  local slots = {}
  for _, p in ipairs(unseen(g, S)) do
    for j = 1, p:count() do slots[#slots + 1] = { p, j } end
  end
  if #slots < 2 then return end
  for _ = 1, n do
    local a, b = slots[rng:below(#slots) + 1], slots[rng:below(#slots) + 1]
    local ca, cb = a[1]:get(a[2]), b[1]:get(b[2])
    if ca ~= cb and a[1]:pool() == b[1]:pool() then a[1]:set(a[2], cb); b[1]:set(b[2], ca) end
  end
end

-- R with a setup that deals what S cannot see differently (swap seed k).
local function twin_rules(R, S, k)
  local R2 = {}
  for key, v in pairs(R) do R2[key] = v end
  R2.setup = function(g, sc)
    R.setup(g, sc)
    swap_unseen(g, S, k, 6)
  end
  return R2
end

local function new(R, c, seed)
  return kontor.new_game { rules = R, variants = c.variants, players = c.players, seed = seed }
end

local decider = support.decider

local function enc(...)
  local t = table.pack(...)
  local out = {}
  for i = 1, t.n do out[i] = t[i] == nil and json.null or t[i] end
  return json.encode(out)
end

---------------------------------------------------------------------------
-- Everything S receives, as texts
---------------------------------------------------------------------------

local BOT_KINDS = { "random", "greedy:samples=2,budget=16", "mcts:iterations=20,rollout=8" }

-- The serve responses to S's requests about game `g` (a session of its own).
local function serve_texts(g, S, out, mutate)
  local sess = serve.new_session(kontor)
  sess:add(g, { game = "t" })
  local function ask(req)
    req.id, req.game = 1, "t"
    return json.encode(sess:handle(json.encode(req)))
  end
  out["serve view"] = ask { op = "view", seat = S }
  out["serve decision"] = ask { op = "decision", seat = S }
  out["serve moves"] = ask { op = "moves", seat = S }
  out["serve why"] = ask { op = "why", seat = S, action = "nonsense 7" }
  local opts = seat.view(g, S).options()
  if opts then
    out["serve why 1"] = ask { op = "why", seat = S, action = opts[1] }
    -- an action may reveal a card: its answer is compared only where it cannot
    if mutate then out["serve apply"] = ask { op = "apply", seat = S, action = 1 } end
  end
end

-- A copy of g: the same rule set and parameters, its moves replayed.
local function rebuilt(g)
  local c = kontor.new_game { rules = g.R, variants = g.params.variants, players = g.players,
                              seed = g.params.seed }
  assert(c:replay(g:move_list()))
  return c
end

-- Every output S may receive at g's position, by name.
local function outputs(g, S, tag, deep)
  local v = seat.view(g, S)
  local o = {}
  o.board = v.board()
  o.view = json.encode(v.view())
  o.now = json.encode(v.now())
  o.options = enc(v.options())
  o.who = enc(v.who())
  o.moves = json.encode(v.moves())
  o.record = json.encode(v.record())
  o.log = json.encode(v.log())
  o.pending = json.encode(v.pending())
  o.decision = tostring(v.decision)
  o.undo_plan = enc(v.undo_plan(1))
  o["why nonsense"] = tostring(v.why("nonsense 7"))
  local opts = v.options() or {}
  for i = 1, math.min(#opts, 5) do o["why " .. opts[i]] = tostring(v.why(opts[i])) end
  local path = tmp("save-" .. tag .. ".json")
  assert(v.save(path))
  o.save = support.read(path)
  serve_texts(g, S, o)
  if deep then
    -- what changes the game, on copies
    local u = seat.view(rebuilt(g), S)
    o.undo = enc(u.undo(1, function() return true end))
    o["board after undo"] = u.board()
    serve_texts(rebuilt(g), S, o, deep == "apply")
    if #opts > 0 then
      o.hint = enc(v.hint("mcts:iterations=20,rollout=8"))
      for _, spec in ipairs(BOT_KINDS) do
        local b = assert(bots.new(spec, S, 7))
        local k, top = b:explain(v)
        local t = { tostring(k) }
        for i = 1, math.min(#top, 8) do
          t[#t + 1] = string.format("%s|%s|%.17g", top[i][1], tostring(top[i].visits), top[i].value)
        end
        o["bot " .. spec] = table.concat(t, ";")
      end
    end
  end
  return o
end

local function assert_same(a, b, what)
  local names = {}
  for k in pairs(a) do names[#names + 1] = k end
  for k in pairs(b) do if a[k] == nil then names[#names + 1] = k end end
  table.sort(names)
  for _, k in ipairs(names) do
    if a[k] ~= b[k] then
      error(string.format("%s: '%s' differs:\n%s\n--- vs ---\n%s", what, k, tostring(a[k]), tostring(b[k])), 2)
    end
  end
end

---------------------------------------------------------------------------
-- Rule sets whose hidden information is in piles
---------------------------------------------------------------------------

local PILE_CASES = {
  { rules = "sea_merchants", players = 4 },
  { rules = "sea_merchants", players = 3, variants = { "house" } },
  { rules = "sea_merchants", players = 3, variants = { "snake_draft", "hand_limit" } },
  { rules = "caribbean", players = 2 },
  { rules = "caribbean", players = 3, variants = { "port_royal" } },
  { rules = "tests/rulesets/take_one_each.lua", players = 3, every = 2 },
  { rules = "tests/rulesets/two_pools.lua", players = 2, every = 1 },
}

local function label(c)
  return c.rules .. (c.variants and (" + " .. table.concat(c.variants, " + ")) or "") .. ", " .. c.players .. "p"
end

-- What S has seen so far: its view and the log (a twin S could tell
-- apart from the game at some step is no twin from then on).
local function seen(g, S)
  return json.encode(seat.view(g, S).view()) .. json.encode(g:log())
end

describe("every output a seat receives is the same whatever it cannot see", function()
  for _, c in ipairs(PILE_CASES) do
    it(label(c), function()
      local R = assert(rules.load(c.rules, c.variants))
      local checked, deep = 0, 0
      for seed = 1, 2 do
        for S = 1, c.players do
          -- the game and its twins for S, played in step
          local a = new(R, c, seed)
          local twins = {}
          for k = 1, 4 do
            local b = new(twin_rules(R, S, seed * 100 + k), c, seed)
            if seen(b, S) == seen(a, S) then twins[#twins + 1] = b end
          end
          local rng = kontor.rng(seed * 10 + S)
          local i = 0
          while not a:over() and i < 120 and #twins > 0 do
            i = i + 1
            if i % (c.every or 7) == 0 then
              for _, b in ipairs(twins) do
                if json.encode(b:state()) ~= json.encode(a:state()) then
                  local full = (checked % 4 == 0)
                  assert_same(outputs(a, S, "a", full), outputs(b, S, "b", full),
                    string.format("%s, seed %d, step %d, seat %d", label(c), seed, i, S))
                  checked = checked + 1
                  if full then deep = deep + 1 end
                  break
                end
              end
            end
            local d = decider(a)
            local k = d == "chance" and 1 or rng:below(#a:options(d)) + 1
            local s = d == "chance" and 0 or d
            a:step(s, k)
            local _, text = a:step_at(a:step_count())
            local kept = {}
            for _, b in ipairs(twins) do
              local ok = not b:over() and pcall(b.apply, b, s == 0 and ("chance: " .. text) or text, s ~= 0 and s or nil)
              if ok and b:step_count() == a:step_count() and seen(b, S) == seen(a, S) then kept[#kept + 1] = b end
            end
            twins = kept
          end
        end
      end
      assert.is_true(checked >= 6, "only " .. checked .. " positions had a twin")
      assert.is_true(deep >= 2, "only " .. deep .. " positions were checked in full")
    end)
  end

  it("the comparison sees a difference where a seat may look (the check is not vacuous)", function()
    local c = PILE_CASES[1]
    local R = assert(rules.load(c.rules))
    local a = new(R, c, 1)
    local b = new(twin_rules(R, 1, 5), c, 1)
    -- what seat 1 cannot see was dealt differently: seat 1's board is the
    -- same, another seat's (its own hand) and the referee's are not
    assert.are.equal(seat.view(a, 1).board(), seat.view(b, 1).board())
    local differs = 0
    for S = 2, 4 do if seat.view(a, S).board() ~= seat.view(b, S).board() then differs = differs + 1 end end
    assert.is_true(differs > 0)
    assert.are_not.equal(seat.referee(a):board(), seat.referee(b):board())
  end)
end)

---------------------------------------------------------------------------
-- Rule sets whose secrets are choices: secret orders, simultaneous choices
---------------------------------------------------------------------------

-- Plays g until `pred(g)`, chance and seats taking option 1.
local function until_kind(g, kind)
  local n = 0
  while g:decision().kind ~= kind and not g:over() and n < 500 do
    n = n + 1
    local d = decider(g)
    g:step(d == "chance" and 0 or d, 1)
  end
  return g:decision().kind == kind
end

describe("other seats' secret choices still open change nothing a seat receives", function()
  local ORDER_CASES = {
    { rules = "old_world", players = 3 },
    { rules = "tests/rulesets/secret_orders.lua", players = 3 },
  }
  for _, c in ipairs(ORDER_CASES) do
    it(label(c) .. ": the others' orders, entered differently", function()
      local checked = 0
      for seed = 1, 3 do
        -- A: seat X enters its first option at each step, B: its last
        local function game(pick)
          local g = new(c.rules, c, seed)
          assert.is_true(until_kind(g, "orders"))
          local X = g:decision().seats[2]
          local opts = g:options(X)
          if #opts > 1 then g:step(X, pick(#opts)) end
          return g, X
        end
        local a, X = game(function() return 1 end)
        local b = game(function(n) return n end)
        -- who has finished an order is public: the twins must agree on it
        if a:decision().kind == "orders" and b:decision().kind == "orders"
            and json.encode(a:decision().done) == json.encode(b:decision().done)
            and json.encode(a:pending(X)) ~= json.encode(b:pending(X)) then
          for _, S in ipairs(a:decision().seats) do
            if S ~= X then
              assert_same(outputs(a, S, "a", "apply"), outputs(b, S, "b", "apply"),
                string.format("%s, seed %d, seat %d", label(c), seed, S))
              checked = checked + 1
            end
          end
        end
      end
      assert.is_true(checked >= 2, "only " .. checked .. " positions were checked")
    end)
  end

  it("sealed_bid: the others' bids in a simultaneous decision", function()
    local c = { rules = "tests/rulesets/sealed_bid.lua", players = 3 }
    local function game(bid)
      local g = new(c.rules, c, 2)
      assert.is_true(until_kind(g, "simultaneous"))
      assert.is_true(g:apply("3: bid " .. bid))
      return g
    end
    local a, b = game(0), game(2)
    assert.are_not.equal(json.encode(a:actions()), json.encode(b:actions()))
    for S = 1, 2 do assert_same(outputs(a, S, "a", "apply"), outputs(b, S, "b", "apply"), "sealed_bid seat " .. S) end
  end)
end)

---------------------------------------------------------------------------
-- A seat view holds no way back to the game
---------------------------------------------------------------------------

describe("a seat view", function()
  -- Everything reachable from x without the debug library: table keys
  -- and values, metatables (getmetatable), and what the view's methods
  -- return. Returns true when `target` is among them.
  local function reaches(x, targets)
    local visited = {}
    local found
    local function walk(v, path)
      if found then return end
      local tv = type(v)
      if tv ~= "table" and tv ~= "userdata" and tv ~= "function" and tv ~= "thread" then return end
      if visited[v] then return end
      visited[v] = true
      if targets[v] then found = path; return end
      if tv == "table" or tv == "userdata" then
        local mt = getmetatable(v)
        if mt ~= nil then walk(mt, path .. "<mt>") end
      end
      if tv == "table" then
        for k, x2 in next, v do
          walk(k, path .. "<key>")
          walk(x2, path .. "." .. tostring(k))
        end
      end
    end
    walk(x, "v")
    return found
  end

  it("reaches neither the game nor its state through any field, method or result", function()
    for _, c in ipairs { { rules = "sea_merchants", players = 3 }, { rules = "old_world", players = 3 } } do
      local g = new(c.rules, c, 1)
      for _ = 1, 12 do local d = decider(g); g:step(d == "chance" and 0 or d, 1) end
      local targets = { [g] = true, [g.ctx] = true, [g.rec] = true, [g.co] = true, [g.params] = true }
      local S = decider(g)
      S = type(S) == "number" and S or 1
      local v = seat.view(g, S)
      assert.is_nil(next(v))
      assert.is_false(getmetatable(v))
      assert.is_nil(reaches(v, targets))
      assert.has_error(function() v.game = g end, "a seat view cannot be changed (field 'game')")
      for _, name in ipairs(seat.members()) do
        local m = v[name]
        assert.is_nil(reaches(m, targets), name)
        if type(m) == "function" and name ~= "apply" and name ~= "undo" and name ~= "redo"
            and name ~= "save" then
          local res = table.pack(pcall(m, name == "sample" and kontor.rng(1) or nil))
          for i = 1, res.n do
            local hit = reaches(res[i], targets)
            assert.is_nil(hit, name .. " returns " .. tostring(hit))
          end
        end
      end
      assert.is_nil(rawget(v, "game"))
      assert.is_nil(v.game)
      assert.is_nil(v.ctx)
    end
  end)

  it("what kontor play is given (seat.table) reaches no game either", function()
    local g = new("sea_merchants", { players = 3 }, 2)
    local tbl = seat.table(g)
    local targets = { [g] = true, [g.ctx] = true, [g.rec] = true, [g.co] = true, [g.params] = true }
    local b = assert(tbl.new_bot("mcts:iterations=5", 1))
    b:choose(tbl.views[1])
    assert.is_nil(reaches(tbl, targets))
    assert.is_nil(reaches(b, targets))
    for s = 1, 3 do assert.is_true(seat.is_view(tbl.views[s])) end
    assert.is_nil(tbl.autosave(tmp("nothing.json")))     -- no move yet: nothing to save
  end)

  it("acts and asks only for its own seat", function()
    local g = new("sea_merchants", { players = 2 }, 3)
    local v2 = seat.view(g, 2)
    assert.are.same({ nil, 1 }, { v2.options() })
    assert.is_nil(v2.decision)
    local ok, err = v2.apply("1: load grain on ship 1")
    assert.is_nil(ok)
    assert.are.equal("Player 2 (seat 2) acts only for itself, not for Player 1 (seat 1)", err)
    assert.are.equal("Player 2 (seat 2) acts only for itself, not for Player 1 (seat 1)", v2.why("1: load grain on ship 1"))
    ok, err = v2.apply("load grain on ship 1")
    assert.is_nil(ok)
    assert.matches("it is not Player 2's turn to decide %(waiting for Player 1: load%)", err)
    assert.are.equal(0, #g:moves())
    local v1 = seat.view(g, 1)
    assert.are.equal("load", v1.decision)
    assert.is_true(v1:apply("load grain on ship 1"))
    assert.are.same({ "1: load grain on ship 1" }, v2.moves())
  end)

  it("undo takes back the seat's own moves; another seat's go only with its yes", function()
    local g = new("sea_merchants", { players = 2 }, 3)
    assert.is_true(g:apply("load grain on ship 1"))
    assert.is_true(g:apply("load grain on ship 1"))
    local v1 = seat.view(g, 1)
    assert.are.same({ moves = { { 1, "load grain on ship 1" }, { 2, "load grain on ship 1" } }, others = { 2 } },
      v1.undo_plan(1))
    local r, why = v1.undo(1, function() return false end)
    assert.is_nil(r)
    assert.are.equal("seat 2 did not agree: a move goes back without the others' consent only when none of theirs goes with it", why)
    assert.are.equal(2, #g:moves())
    assert.are.same({ { 1, "load grain on ship 1" }, { 2, "load grain on ship 1" } },
      v1.undo(1, function(s) return s == 2 end))
    assert.are.equal(0, #g:moves())
    assert.are.same({}, seat.view(g, 2).undo(1))
  end)

  it("the referee sees everything; a bot refuses it", function()
    local g = new("sea_merchants", { players = 2 }, 3)
    local ref = seat.referee(g)
    assert.are.equal(g:show(), ref:board())
    assert.is_false(seat.is_view(ref))
    local b = assert(bots.new("random", 1, 1))
    assert.has_error(function() b:choose(ref) end,
      "Bot:choose takes a seat view (kontor.seat.view(game, seat)), not a table")
    assert.has_error(function() b:choose(g, 1) end,
      "Bot:choose takes a seat view (kontor.seat.view(game, seat)), not a table")
  end)
end)

---------------------------------------------------------------------------
-- The leaks of issue 24, each closed
---------------------------------------------------------------------------

describe("serve: a seat's requests tell it nothing of the others' secrets", function()
  local function session(bots_spec, players)
    local sess = serve.new_session(kontor)
    local id = 0
    local function ask(req)
      id = id + 1
      req.id = id
      local res = sess:handle(json.encode(req))
      assert.is_true(res.ok, res.error and res.error.message)
      return res.result
    end
    ask { op = "new", game = "g", rules = "tests/rulesets/secret_orders.lua", players = players or 3, seed = 1,
          bots = bots_spec }
    return ask, sess
  end

  it("apply with a seat gives that seat's decision only, not the next seat's order options", function()
    local ask, sess = session()
    local g = sess.games.g.g
    assert.is_true(until_kind(g, "orders"))
    local res = ask { op = "apply", game = "g", seat = 1, action = 1 }
    assert.are.equal("orders", res.decision.kind)
    assert.is_true(#res.decision.options > 0)
    for _, o in ipairs(res.decision.options) do assert.are.equal(1, o.seat) end
    local d = ask { op = "decision", game = "g", seat = 2 }
    for _, o in ipairs(d.options) do assert.are.equal(2, o.seat) end
  end)

  it("undo lists no bot's unrevealed order step, and names the moves it took", function()
    local ask, sess = session({ ["2"] = "random", ["3"] = "random" })
    local g = sess.games.g.g
    -- seat 1 makes its moves; the bots enter their orders at once
    local n = 0
    while g:decision().kind ~= "orders" and n < 50 do
      n = n + 1
      local d = decider(g)
      if d == "chance" then ask { op = "apply", game = "g", action = "chance: 1 ship" }
      else ask { op = "apply", game = "g", seat = d, action = 1 } end
    end
    assert.are.equal("orders", g:decision().kind)
    assert.are.same({ 1 }, g:who())                    -- the bots have entered theirs
    local secret = {}
    for i = g.ostart + 1, g:step_count() do
      local s, text = g:step_at(i)
      secret[#secret + 1] = s .. ": " .. text
    end
    assert.is_true(#secret > 0)
    local before = seat.view(g, 1).moves()
    local res = ask { op = "undo", game = "g", n = 1 }
    for _, m in ipairs(res.undone) do
      assert.are_not.equal(2, m.seat, json.encode(res.undone))
      assert.are_not.equal(3, m.seat, json.encode(res.undone))
    end
    -- what is listed is what was taken: the last moves seat 1 had seen
    for i, m in ipairs(res.undone) do
      assert.are.equal(before[#before - #res.undone + i], m.seat .. ": " .. m.text)
    end
  end)
end)

---------------------------------------------------------------------------
-- The determiniser: every secret pile dealt again, or a clear refusal
---------------------------------------------------------------------------

-- A guessing game: two cards, one in a hidden pile PUT keeps, the other
-- in g.spare; seat 1 scores 1 for naming the first (GET) on the second
-- turn (so that a copy starts from the state saved when it began).
-- Game positions: the guess.
local GUESS = [[
local R = { name = "guess", players = { min = 2, max = 2 } }
R.resumes_at_turn = %s
%s
function R.card_text(_, c) return ({ "a", "b" })[c] end
function R.setup(g)
  g.score = 0
  local deck = kontor.pile { vis = "hidden" }
  deck:push(1); deck:push(2)
  deck:shuffle(g.rng)
  g.spare = kontor.pile { vis = "hidden" }
  g.spare:push(deck:pop())
  PUT(g, deck)
end
function R.play(g)
  if not g.waited then                -- turn 1: seat 2 waits
    g.waited = true
    g:begin_turn(2)
    g:choose(2, "wait", { "wait" })
  end
  g:begin_turn(1)                     -- turn 2: seat 1 guesses
  LATE(g)
  local k = g:choose(1, "guess", { "guess a", "guess b" })
  if k == GET(g) then g.score = 1 end
end
function R.score(g, s) return s == 1 and g.score or 0 end
function R.scores(g) return { g.score, 0 } end
return R]]

local function guess_rules(name, place, resumes)
  return support.write(tmp(name .. ".lua"), GUESS:format(resumes == false and "false" or "true", place))
end

local PLACES = {
  ["a pile deeper than 20 levels"] = [[
local function nest(g)
  local t = g
  for _ = 1, 25 do t.d = t.d or {}; t = t.d end
  return t
end
function PUT(g, deck) nest(g).p = deck end
function GET(g) return nest(g).p:top() end
function LATE() end]],
  ["a pile under a boolean key"] = [[
function PUT(g, deck) g.box = { [true] = deck } end
function GET(g) return g.box[true]:top() end
function LATE() end]],
  ["a pile made after the turn began"] = [[
function PUT(g, deck) g.unused = deck end
function GET(g) return g.late:top() end
function LATE(g)
  g.deck = kontor.pile { vis = "hidden" }
  g.deck:push(1); g.deck:push(2)
  g.deck:shuffle(g.rng)
  g.late = kontor.pile { vis = "hidden" }
  g.late:push(g.deck:pop())
end]],
}

describe("bots deal again every secret pile", function()
  local names = {}
  for k in pairs(PLACES) do names[#names + 1] = k end
  table.sort(names)
  for i, name in ipairs(names) do
    it(name .. ": the bot does not find the hidden card every time", function()
      local file = guess_rules("guess" .. i, PLACES[name])
      for _, spec in ipairs { "greedy:samples=1", "mcts:iterations=30,rollout=0" } do
        local right = 0
        for seed = 1, 24 do
          local g = kontor.new_game { rules = file, players = 2, seed = seed }
          g:step(2, 1)
          g:step(1, assert(bots.new(spec, 1, seed)):choose(seat.view(g, 1)))
          right = right + g:result().scores[1]
        end
        if os.getenv("FAIRNESS_COUNTS") then print(name, spec, right) end
        assert.is_true(right > 3 and right < 21, spec .. " named the hidden card " .. right .. " times of 24")
      end
    end)
  end

  it("a pile kept in R.play's local: dealt again too", function()
    local file = support.write(tmp("guess_local.lua"), [[
local R = { name = "guess_local", players = { min = 2, max = 2 }, resumes_at_turn = true }
function R.card_text(_, c) return ({ "a", "b" })[c] end
function R.setup(g) g.score = 0; g.spare = kontor.pile { vis = "hidden" } end
function R.play(g)
  if not g.waited then
    g.waited = true
    g:begin_turn(2)
    g:choose(2, "wait", { "wait" })
  end
  g:begin_turn(1)
  local mine = kontor.pile { vis = "hidden" }       -- only this local holds it
  mine:push(1); mine:push(2)
  mine:shuffle(g.rng)
  g.spare:clear()
  g.spare:push(mine:pop())
  local k = g:choose(1, "guess", { "guess a", "guess b" })
  if k == mine:top() then g.score = 1 end
end
function R.score(g, s) return s == 1 and g.score or 0 end
function R.scores(g) return { g.score, 0 } end
return R]])
    local right = 0
    for seed = 1, 24 do
      local g = kontor.new_game { rules = file, players = 2, seed = seed }
      g:step(2, 1)
      g:step(1, assert(bots.new("greedy:samples=1", 1, seed)):choose(seat.view(g, 1)))
      right = right + g:result().scores[1]
    end
    assert.is_true(right > 3 and right < 21, "named the hidden card " .. right .. " times of 24")
  end)

  it("a hidden pile the turn made and dropped is not refused", function()
    local file = guess_rules("guess_dropped", [[
function PUT(g, deck) g.unused = deck end
function GET(g) return g.late:top() end
function LATE(g)
  local temp = kontor.pile { vis = "hidden" }     -- dropped before the decision
  temp:push(1); temp:push(2)
  temp:shuffle(g.rng)
  g.late = kontor.pile { vis = "hidden" }
  g.late:push(temp:pop())
  g.spare:clear()
  g.spare:push(temp:pop())
end]])
    local right = 0
    for seed = 1, 12 do
      local g = kontor.new_game { rules = file, players = 2, seed = seed }
      g:step(2, 1)
      g:step(1, assert(bots.new("greedy:samples=1", 1, seed)):choose(seat.view(g, 1)))
      right = right + g:result().scores[1]
    end
    assert.is_true(right > 0 and right < 12, "named the hidden card " .. right .. " times of 12")
  end)

  it("a bot that could read the hidden pile would find it every time (the test can fail)", function()
    local file = guess_rules("guess_cheat", PLACES["a pile under a boolean key"])
    local right = 0
    for seed = 1, 24 do
      local g = kontor.new_game { rules = file, players = 2, seed = seed }
      g:step(2, 1)
      g:step(1, g.ctx.box[true]:top())
      right = right + g:result().scores[1]
    end
    assert.are.equal(24, right)
  end)
end)

describe("hidden state the engine cannot deal again is refused, naming it", function()
  local function refusal(name, place, resumes)
    local file = guess_rules(name, place, resumes)
    local g = kontor.new_game { rules = file, players = 2, seed = 1 }
    g:step(2, 1)
    local ok, err = pcall(function()
      return assert(bots.new("greedy:samples=1", 1, 1)):choose(seat.view(g, 1))
    end)
    assert.is_false(ok)
    return err, file
  end

  it("a hidden card kept as a plain value", function()
    local err = refusal("plain", [[
function PUT(g, deck) g.deck = deck; g._peek = R.card_text(g, deck:top()) end
function GET(g) return g.deck:top() end
function LATE() end]])
    assert.matches('^guess: g%._peek holds a card seat 1 cannot see, kept outside a pile: the engine '
      .. "deals only hidden piles again for a bot, so keep hidden cards in piles", err)
  end)

  it("a hidden pile kept in a closure", function()
    local err, file = refusal("closure", [[
function PUT(g, deck) g.get = function() return deck end end
function GET(g) return g.get():top() end
function LATE() end]])
    assert.are.equal(string.format("guess: the hidden pile made at %s:9 (a pile { vis = \"hidden\" } of 1 card) "
      .. "is kept where the engine cannot deal it again for a bot (not in g's fields or R.play's locals); "
      .. "keep hidden cards where g reaches them", file), err)
  end)

  it("a hidden pile made when the script was loaded, shared by every game", function()
    local err, file = refusal("shared", [[
local SHARED = kontor.pile { vis = "hidden" }
function PUT(g, deck) SHARED:clear(); SHARED:push(deck:pop()); g.deck = SHARED end
function GET(g) return g.deck:top() end
function LATE() end]], false)
    assert.are.equal(string.format("guess: the hidden pile made at %s:3 (a pile { vis = \"hidden\" } of 1 card) "
      .. "was made as the rule script loaded: every game shares it, and a bot's imagined deal would change "
      .. "them all; make hidden piles in R.setup or R.play", file), err)
  end)
end)

---------------------------------------------------------------------------
-- kontor play: it holds the seats' views, never the game
---------------------------------------------------------------------------

local BIN = support.binary()
local tmux = dofile("tests/repl/tmux.lua")

local function play(args, stdin) return (support.run(BIN .. " play " .. args, stdin or "")) end

local has = support.has

describe("kontor play shows a seat only what its view shows", function()
  it("view of a bot's seat is refused, and no board shows a bot's hand", function()
    local out = play("--players 2 --seed 3 --names Ann,Bob --bot 2=random", "view 2\nview Bob\nview 1\n")
    assert.truthy(has(out, "view: in play you see and act only for your own seat (Ann)\n"
      .. "view: in play you see and act only for your own seat (Ann)\n"), out)
    assert.falsy(out:match("\n[ *] Bob:[^\n]*hand %d+ cards?: "), out)
    assert.truthy(out:match("\n%* Ann:[^\n]*hand %d+ cards: "), out)
  end)

  it("save FILE writes what the seat at the keyboard sees: no bot's unrevealed order", function()
    local file = tmp("orders_save.json")
    local out = play("--rules tests/rulesets/secret_orders.lua --players 3 --seed 1 --bot 2=random --bot 3=random",
      "save " .. file .. "\n")
    assert.truthy(has(out, "(what Player 1 sees). It holds no deal, which that seat may not see yet: "
      .. "a record of the moves, not a game to go on with."), out)
    -- the bots had entered their orders; the file has none of their steps,
    -- and no seed: it would replay the deal and every order to come
    local doc = kontor.core.json.decode(support.read(file))
    assert.is_nil(doc.seed)
    assert.are.equal(1, doc.seat)
    assert.falsy(has(support.read(file), '"2: '), support.read(file))
    local g, err = kontor.load_game(file)
    assert.is_nil(g)
    assert.truthy(has(err, "seat 1's record of a game in progress: it leaves out the deal (the seed)"), err)
    out = play("--rules tests/rulesets/secret_orders.lua --players 3 --seed 1 --bot 2=random --bot 3=random",
      "save " .. file .. " as 2\n")
    assert.truthy(has(out, "save: in play you see and act only for your own seat (Player 1)"), out)
  end)

  it("no Lua, no other seat's moves, no REPL", function()
    local out = play("--players 2 --seed 3 --names Ann,Bob", "g:show()\n2: load grain on ship 1\nas 2\nload x.json\n")
    assert.truthy(has(out, "'g:show()' is not a command or a move here (help lists the commands)"), out)
    assert.truthy(has(out, "do: in play you see and act only for your own seat (Ann)"), out)
    assert.truthy(has(out, "as: in play the board shows your own seat"), out)
    assert.truthy(has(out, "load: not in play (a saved game goes on with kontor play --load FILE)"), out)
    assert.falsy(has(out, "kontor repl"), out)
  end)
end)

local pty = tmux.available() and describe or pending

pty("kontor play in a terminal", function()
  local session, home = support.terminals(before_each, after_each)
  local function start(args)
    return session(BIN .. " play " .. args, { NO_COLOR = "1" }, 220, 30)
  end
  local function enter(t, who)
    assert.truthy(t:wait_for("Pass the keyboard to " .. who, 3, true))
    t:send("Enter")
    assert.truthy(t:wait_for("\n" .. who:match("^%a+") .. ">$"))
  end

  it("the undo consent is asked on a cleared screen, not under the mover's hand", function()
    local t = start("--players 2 --seed 3 --names Ann,Bob")
    enter(t, "Ann (seat 1)")
    t:send("1", "Enter")
    assert.truthy(t:wait_for("press Enter to hide your hand", 3, true))
    t:send("Enter")
    enter(t, "Bob (seat 2)")
    t:send("1", "Enter")
    assert.truthy(t:wait_for("press Enter to hide your hand", 3, true))
    t:send("Enter")
    enter(t, "Ann (seat 1)")
    assert.truthy(has(t:history(), "wood, spices, cloth"))          -- Ann's hand, on her screen
    t:send("undo", "Enter")
    assert.truthy(t:wait_for("Pass the keyboard to Bob (seat 2) and press Enter: Ann asks to take back a move "
      .. "of yours.", 3, true))
    local h = t:history()
    assert.falsy(has(h, "wood, spices, cloth"), h)                  -- gone before Bob comes
    t:send("Enter")
    assert.truthy(t:wait_for("Bob, do you agree? (yes/no)", 3, true))
    assert.falsy(has(t:history(), "wood, spices, cloth"))
    t:send("yes", "Enter")
    assert.truthy(t:wait_for("Pass the keyboard to Ann (seat 1) and press Enter: back to you.", 3, true))
    assert.falsy(has(t:history(), "grain, fish, spices"))           -- nor Bob's under Ann's eyes
    t:send("Enter")
    assert.truthy(t:wait_for("Undid 2 moves: Ann: load grain on ship 1; Bob: load grain on ship 1", 3, true))
  end)

  it("Ctrl-D saves the game and says how to go on in play, not in the REPL", function()
    local t = start("--players 2 --seed 3 --names Ann,Bob")
    enter(t, "Ann (seat 1)")
    t:send("1", "Enter")
    assert.truthy(t:wait_for("press Enter to hide your hand", 3, true))
    t:send("Enter")
    enter(t, "Bob (seat 2)")
    t:send("C-d")
    local path = home() .. "/.kontor_autosave.json"
    local s = t:wait_for("go on with: kontor play --load " .. path, 3, true)
    assert.truthy(s, t:screen())
    assert.truthy(has(s, "The game is not over: saved 1 move to " .. path), s)
    assert.falsy(has(s, "then load"), s)
    -- and it goes on, in play
    local out = play("--load " .. path, "moves\n")
    assert.truthy(has(out, "--- Bob's turn (seat 2) ---"), out)
    assert.truthy(has(out, "1  Ann: load grain on ship 1"), out)
  end)
end)
