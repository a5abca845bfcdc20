-- kontor.game: one game, as a pure function of (rule set + options, seed,
-- actions).
--
-- A rule set's R.play(g) is a program running in a coroutine; it yields at
-- every decision (g:choose, g:choose_all, a manual g:chance). The engine
-- keeps the list of steps taken. Everything else follows from that list:
-- undo and redo replay a prefix of it, a script error is rolled back by
-- replaying it (apply is a transaction), save files store it, reload replays
-- it under re-read rules.

local core = require "kontor.core"
local sandbox = require "kontor.sandbox"
local dump = require "kontor.dump"

local csb = core.sandbox
local resume, call, FINISH = csb.resume, csb.call, csb.FINISH
-- Options as data (lua/l_options.c): check at the boundary, texts on demand.
local copt = core.options
local check_options, option_text, option_texts = copt.check, copt.text, copt.texts
local same_text, extends_opt = copt.same, copt.extends
local expand, pick = copt.expand, copt.pick
local yield, costatus = coroutine.yield, coroutine.status

-- What g:choose, g:choose_all and g:chance yield to the engine: tokens no
-- rule script can name, so a script's own coroutine.yield from the game's
-- thread is an error (settle), never a decision with unchecked options.
local PLAYER, ALL, CHANCE, ORDERS = {}, {}, {}, {}

-- While a simulation's bot plays inside the game (Game:play_random), it
-- answers decisions without leaving the coroutine: BOTS[ctx], where no
-- rule script can call or replace it.
local BOTS = setmetatable({}, { __mode = "k" })
-- The game (its rule-facing table) and the seat whose order entry the
-- simulation runs inside (g:choose_orders), which g:choose checks; where
-- no script can change them. (Two locals, not a weak table: a table
-- lookup that finds nothing costs more than the whole check.)
local entering_ctx, entering_seat = nil, nil
-- The game the simulation's bot is playing inside now, that bot and the
-- game's seats (play_random_inside): g:choose's first test, so that a
-- simulation's step reads two locals, not BOTS and SEATS (weak tables).
local sim_ctx, sim_bot, sim_players = nil, nil, nil
local format, concat = string.format, table.concat

local Game = {}
local STEP_LISTS = { hist = true, hseat = true, hidx = true, hstop = true }
Game.__index = function(t, k)
  local m = Game[k]
  if m ~= nil then return m end
  -- A playout's bot kept the steps in C (M.playout): the lists are made
  -- the first time something reads them, and the bot writes to them then.
  local rec = STEP_LISTS[k] and rawget(t, "_rec")
  if rec then
    t._rec = nil
    t.hist, t.hseat, t.hidx, t.hstop = core.bot_lists(rec)
    return rawget(t, k)
  end
  local ctx = rawget(t, "ctx")
  return ctx and ctx[k]
end

---------------------------------------------------------------------------
-- The rule-facing side: what a rule script gets as `g`.
---------------------------------------------------------------------------

local Ctx = {}

-- The options R.constraints allow at one decision: `cons` are the
-- constraints that look at it (see compile_constraints), each a function
-- (g, seat, decision, text, option) -> a reason, or nil when the option is
-- allowed. Returns nil when every option is allowed, else the allowed
-- options and their indices in `options`.
local copt_allowed = copt.allowed   -- the loop, in C (lua/l_options.c)
local function allowed(ctx, cons, seat, name, options)
  local kept, map = copt_allowed(ctx, cons, seat, name, options)
  if kept and kept[1] == nil then
    error(format("the constraints of the variants leave seat %s no option at decision '%s'",
      tostring(seat), tostring(name)), 3)
  end
  return kept, map
end

-- The error of an order entry's g:choose for another seat.
local function other_seat(entering, seat)
  return format("g:choose: seat %d's order entry chose for seat %s (an entry chooses only for its own seat)",
    entering, tostring(seat))
end

-- While a simulation's bot plays inside the game (Game:play_random),
-- BOTS[ctx] answers decisions without leaving the coroutine. With a
-- `family` (g:choose_from, `options` its options made), returns the
-- entries the chosen option takes from the family's lists.
local function choose_allowed(self, cons, seat, name, options, family)
  local kept, map = allowed(self, cons, seat, name, options)
  if kept then options = kept end
  local bot, k = self == sim_ctx and sim_bot or BOTS[self]
  if bot then
    if entering_ctx == self and seat ~= entering_seat then error(other_seat(entering_seat, seat), 2) end
    k = bot(seat, options)
  else
    k = yield(PLAYER, seat, name, options)
  end
  if map then k = map[k] end
  if family then return pick(family, k) end
  return k
end

-- Each game's number of seats, by its rule-facing table: the engine reads
-- this, not g.players, which a script may replace. Weak keys: nothing here
-- outlives its game.
local SEATS = setmetatable({}, { __mode = "k" })

-- Each game's stat counts (g:stat), kept where a script cannot reach them.
local STATS = setmetatable({}, { __mode = "k" })

local function seats_of(ctx, fname)
  local n = SEATS[ctx]
  if n == nil then error(format("%s: call it on the game, as g:%s(...)", fname, fname:match("[%w_]+$")), 3) end
  return n
end

-- What an order entry may not do: it must leave the game as it found it,
-- so that its seat's steps give the same order in any interleaving.
local function not_in_entry(self, what)
  local s = self._entering
  if s then
    error(format("%s inside seat %d's order entry: an entry only chooses (g:choose) for its own seat "
      .. "and works on its own copy of the state; do that when the orders are revealed", what, s), 3)
  end
end

-- The boundary: check_options raises, at the rule script's line, unless
-- `options` is a plain list of 1..MAX options (strings, or plain lists of
-- words and whole numbers), `name` a string and `seat` a seat.
function Ctx:choose(seat, name, options)
  local by = self._cons
  if self == sim_ctx and not (by and by[name]) then
    if entering_ctx == self and seat ~= entering_seat then error(other_seat(entering_seat, seat), 2) end
    return sim_bot(seat, options, name, sim_players)   -- checks as check_options
  end
  local players = SEATS[self] or seats_of(self, "g:choose")
  if by then
    local cons = by[name]
    if cons then
      check_options(options, seat, name, players)
      return choose_allowed(self, cons, seat, name, options)
    end
  end
  local bot = BOTS[self]
  if bot then
    -- the simulation enters orders inside (g:choose_orders)
    if entering_ctx == self and seat ~= entering_seat then error(other_seat(entering_seat, seat), 2) end
    return bot(seat, options, name, players)   -- checks as check_options
  end
  check_options(options, seat, name, players)
  return yield(PLAYER, seat, name, options)
end

-- g:choose_from(seat, name, family): g:choose of the options a family
-- stands for (lua/l_options.c: { "load", { "fish", "wood" }, "on ship",
-- { 1, 2 } } is the four options "load fish on ship 1" ... "load wood on
-- ship 2"); returns the entries the chosen option takes from the lists
-- ("fish", 2). The simulation's bot makes only the option chosen; any other
-- way makes them all, and goes on exactly as g:choose does.
function Ctx:choose_from(seat, name, family)
  local by = self._cons
  if self == sim_ctx and not (by and by[name]) then
    if entering_ctx == self and seat ~= entering_seat then error(other_seat(entering_seat, seat), 2) end
    return sim_bot(seat, family, name, sim_players, true)   -- checks as expand
  end
  local players = SEATS[self] or seats_of(self, "g:choose_from")
  if by then
    local cons = by[name]
    if cons then
      return choose_allowed(self, cons, seat, name, expand(family, seat, name, players), family)
    end
  end
  local bot = BOTS[self]
  if bot then
    if entering_ctx == self and seat ~= entering_seat then error(other_seat(entering_seat, seat), 2) end
    return bot(seat, family, name, players, true)   -- checks as expand
  end
  return pick(family, yield(PLAYER, seat, name, expand(family, seat, name, players)))
end

-- check_seats(seats, players, fname) -> n: a plain list of distinct seats
-- of this game, at least one; raises at the rule script's line, so it is
-- called from the g: method itself (lua/l_options.c).
local check_seats = copt.seats

function Ctx:choose_all(seats, name, by_seat)
  if self._entering then not_in_entry(self, "g:choose_all") end
  local nseats = check_seats(seats, SEATS[self] or seats_of(self, "g:choose_all"), "g:choose_all")
  if type(by_seat) ~= "table" or getmetatable(by_seat) ~= nil then
    error("g:choose_all: the options by seat must be a plain table", 2)
  end
  local lists = {}        -- the engine's own copies: seats and their lists, read raw once
  for i = 1, nseats do
    local s = rawget(seats, i)
    local o = rawget(by_seat, s)
    check_options(o, s, name, SEATS[self], "g:choose_all")
    lists[s] = o
  end
  seats = { table.unpack(seats, 1, nseats) }
  by_seat = lists
  local cons, maps = self._cons, nil
  cons = cons and cons[name]
  if cons then
    local filtered = {}
    for _, s in ipairs(seats) do
      local kept, map = allowed(self, cons, s, name, by_seat[s])
      filtered[s] = kept or by_seat[s]
      if map then maps = maps or {}; maps[s] = map end
    end
    by_seat = filtered
  end
  local chosen
  local bot = BOTS[self]
  if bot then
    chosen = {}
    for _, s in ipairs(seats) do chosen[s] = bot(s, by_seat[s]) end
  else
    chosen = yield(ALL, seats, name, by_seat)
  end
  if maps then
    local out = {}
    for s, k in pairs(chosen) do out[s] = maps[s] and maps[s][k] or k end
    return out
  end
  return chosen
end

---------------------------------------------------------------------------
-- Simultaneous secret orders (docs/api.md, "Secret orders")
---------------------------------------------------------------------------

-- A seat's order is what its entry returned, handed to the script as it is:
-- the engine keeps it until the reveal and never reads inside it (the record
-- is the steps; a copy of the game for search replays the entries).
local draw = copt.draw

-- g:choose_orders(seats, name, enter) -> { [seat] = order }: every seat in
-- `seats` enters a whole order at once and in secret. enter(g, seat) runs
-- once per seat, in its own coroutine; it takes the order's small steps
-- with g:choose(seat, ...) against its own copy of that seat's state and
-- returns the order. The steps are revealed, in the order of
-- `seats`, when the last seat has finished.
function Ctx:choose_orders(seats, name, enter)
  not_in_entry(self, "g:choose_orders")
  local nseats = check_seats(seats, SEATS[self] or seats_of(self, "g:choose_orders"), "g:choose_orders")
  if type(name) ~= "string" then
    error(format("bad argument #2 to 'choose_orders' (a decision name expected, got %s)", type(name)), 2)
  end
  if type(enter) ~= "function" then
    error(format("bad argument #3 to 'choose_orders' (a function enter(g, seat) expected, got %s)",
      type(enter)), 2)
  end
  seats = { table.unpack(seats, 1, nseats) }
  if BOTS[self] then
    -- The simulation's bot answers inside: the seats enter one after the
    -- other, in the order of `seats`, which records the steps exactly as
    -- the reveal of an order entered step by step does.
    -- g:choose checks that an entry chooses only for its own seat
    -- (entering_ctx, entering_seat).
    local orders, rng, drafts = {}, sandbox.current_rng, {}
    sandbox.current_rng = nil
    self._drafts = drafts
    for i = 1, nseats do
      local s = seats[i]
      local outer_ctx, outer_seat = entering_ctx, entering_seat
      self._entering, entering_ctx, entering_seat = s, self, s
      local draft = {}
      drafts[s] = draft
      local order = enter(self, s, draft)
      self._entering, entering_ctx, entering_seat = false, outer_ctx, outer_seat
      orders[s] = order
    end
    sandbox.current_rng, self._drafts = rng, nil
    return orders
  end
  return yield(ORDERS, seats, name, enter)
end

-- g:draft(seat): while orders are open, the table seat's entry got as its
-- third argument (its work so far, for R.view and R.board to show that
-- seat only); nil otherwise.
function Ctx:draft(seat)
  local d = self._drafts
  return d and d[seat]
end

function Ctx:chance(name, options, weights)
  if self._entering then not_in_entry(self, "g:chance") end
  if self._manual_chance then
    check_options(options, 0, name, nil, "g:chance")
    return yield(CHANCE, 0, name, options)
  end
  local k = draw(self.rng, options, name, weights)   -- checks the options and the weights
  if not self._quiet then self._log:add(format("chance %s: %s", name, option_text(options[k]))) end
  return k
end

-- A decision the rules skip (nobody to ask, or nothing to choose): no
-- step, but a trace a script can read with g:skipped() (issue 12).
function Ctx:skip(seat, name, why)
  local list = rawget(self, "_skipped")
  list[#list + 1] = { seat = seat, decision = name, why = why, turn = self.turn }
end

-- TURN_HOOK[ctx]: lua/kontor/fork.lua's snapshot, called before a turn
-- begins (only in the engine's own replays for search).
local TURN_HOOK = setmetatable({}, { __mode = "k" })

function Ctx:begin_turn(seat)
  local hook = TURN_HOOK[self]
  if hook then hook(self, seat) end
  self.turn = self.turn + 1
  self.active = seat
end

function Ctx:next_seat(seat)
  return seat % self.players + 1
end

-- The seats in turn order from `first`; the list is shared: do not change it.
function Ctx:turn_order(first)
  local orders = self._orders
  local t = orders[first]
  if not t then
    t = {}
    local s = first
    for i = 1, self.players do t[i] = s; s = s % self.players + 1 end
    orders[first] = t
  end
  return t
end

function Ctx:log(fmt, ...)
  if self._quiet then return end
  if self._entering then not_in_entry(self, "g:log") end
  if select("#", ...) > 0 then fmt = format(fmt, ...) end
  self._log:add(fmt)
end

function Ctx:finish()
  if self._entering then not_in_entry(self, "g:finish") end
  csb.finish()
end

-- g:stat(name [, n]): adds n (default 1) to this game's count of `name`, a
-- stat the rule set declares in R.stats; kontor sim and compare report it
-- per game (docs/api.md, "Stats"). Nothing is kept until a script calls it.
function Ctx:stat(name, n)
  if type(name) ~= "string" then
    error(format("bad argument #1 to 'stat' (a stat name expected, got %s)", type(name)), 2)
  end
  if n == nil then n = 1 elseif type(n) ~= "number" or n ~= n then
    error(format("bad argument #2 to 'stat' (a number expected, got %s)", tostring(n)), 2)
  end
  local t = STATS[self]
  if not t then
    if SEATS[self] == nil then error("g:stat: call it on the game, as g:stat(...)", 2) end
    t = {}
    STATS[self] = t
  end
  t[name] = (t[name] or 0) + n
end

-- Joins two strings, each pair built once per game: the memo lives in the
-- game (ctx._text), so nothing of it outlives the game or reaches another.
function Ctx:text(a, b)
  local memo = self._text
  local t = memo[a]
  if not t then t = {}; memo[a] = t end
  local s = t[b]
  if not s then s = a .. b; t[b] = s end
  return s
end

-- The methods are fields of each game's table (new_ctx): a rule script
-- calls them thousands of times a game, and a direct field is cheaper than
-- __index. new_ctx's table constructor names them, which sizes the table
-- once (copying them in a loop grew it twice a game); this checks that it
-- names them all.
local CTX_METHODS = {}
for k, f in pairs(Ctx) do CTX_METHODS[k] = f end
local function methods_fields(ctx)
  for k, f in pairs(CTX_METHODS) do
    if rawget(ctx, k) ~= f then error("game.lua: new_ctx does not name the method " .. k, 0) end
  end
end

---------------------------------------------------------------------------
-- Driving the coroutine
---------------------------------------------------------------------------

local function set_over(game)
  game.kind, game.seat, game.dname, game.opts = "over", nil, nil, nil
  game.seats, game.by_seat, game.chosen = nil, nil, nil
  game.entries = nil
end

-- Secret orders, the engine's side. While the game waits for orders
-- (kind "orders"), game.entries[seat] = { co = the entry's coroutine,
-- name and opts = its current decision, or done = true and order }, and
-- the steps entered so far are the tail of the step list after
-- game.ostart, in the order they arrived. Since no entry changes the game,
-- replaying that tail in any order rebuilds the same entries; the step
-- list is read back (actions, moves, save files) with each such block in
-- seat order (canonical_order).

-- "file:line: " of the rule script's line an entry stopped at.
local function where(co)
  for level = 1, 8 do
    local info = debug.getinfo(co, level, "Sl")
    if not info then break end
    if info.currentline > 0 and not info.short_src:match("kontor/game%.lua$") then
      return info.short_src .. ":" .. info.currentline .. ": "
    end
  end
  return ""
end

-- Records where an entry stopped: at its next step, or finished with its
-- order. Returns true, or false and a message.
local function entry_settle(game, seat, e, ok, kind, a, b, c)
  local ctx = game.ctx
  ctx._entering = false
  if not ok then
    e.co = nil
    if kind == FINISH then return false, "g:finish() inside an order entry" end
    return false, kind
  end
  if costatus(e.co) == "dead" then                   -- kind: what the entry returned
    e.co, e.name, e.opts, e.done, e.order = nil, nil, nil, true, kind
    game.waiting = game.waiting - 1
    return true
  end
  if kind ~= PLAYER then
    return false, format("%s: the order entry of seat %d yielded a %s (an entry takes its steps with g:choose)",
      game.R.file or game.R.name, seat, type(kind))
  end
  if a ~= seat then
    return false, where(e.co) .. other_seat(seat, a)
  end
  e.name, e.opts = b, c
  return true
end

-- Runs seat's entry until its next step (or its end), with `...` the
-- answer to the step it stopped at.
local function entry_resume(game, seat, e, ...)
  local ctx, rng = game.ctx, game.rng
  ctx._entering = seat
  sandbox.current_rng = nil       -- an entry draws nothing: math.random raises
  local before = rng:state()
  local ok, err = entry_settle(game, seat, e, resume(e.co, ...))
  if ok and rng:state() ~= before then
    return false, format("%s: the order entry of seat %d drew from the game's RNG "
      .. "(an entry changes nothing; draw when the orders are revealed)", game.R.file or game.R.name, seat)
  end
  return ok, err
end

-- The game now waits for the orders of `seats`: every entry starts and
-- runs to its first step. When every entry is already finished the
-- orders are revealed at once.
local reveal
local function orders_begin(game, seats, name, enter)
  game.kind, game.dname, game.seat, game.opts = "orders", name, nil, nil
  game.seats, game.enter, game.ostart = seats, enter, #game.hist
  game.entries, game.waiting = {}, #seats
  local ctx, drafts = game.ctx, {}
  ctx._drafts = drafts
  for i = 1, #seats do
    local s = seats[i]
    local e = { co = csb.thread(enter) }
    game.entries[s] = e
    drafts[s] = {}
    local ok, err = entry_resume(game, s, e, ctx, s, drafts[s])
    if not ok then return false, err end
  end
  if game.waiting == 0 then return reveal(game) end
  return true
end

-- Records the decision the program yielded (or its end or error).
-- Returns true, or false and an error message.
local function settle(game, ok, kind, a, b, c)
  game.tcache = nil
  if ok and kind == PLAYER then
    game.kind, game.seat, game.dname, game.opts = "player", a, b, c
    return true
  end
  if not ok then
    if kind == FINISH then set_over(game); return true end
    return false, kind
  end
  if costatus(game.co) == "dead" then set_over(game); return true end
  if kind == CHANCE then
    game.kind, game.seat, game.dname, game.opts = "chance", a, b, c
    return true
  elseif kind == ALL then
    game.kind, game.dname, game.seat, game.opts = "all", b, nil, nil
    game.seats, game.by_seat, game.chosen = a, c, {}
    game.waiting = #a
    return true
  elseif kind == ORDERS then
    return orders_begin(game, a, b, c)
  end
  return false, format("%s: the rule script yielded a %s outside g:choose (use g:choose, g:choose_all or g:chance)",
    game.R.file or game.R.name, type(kind))
end

-- Resumes the game's program with the given values.
local function advance(game, ...)
  sandbox.current_rng = game.rng
  return settle(game, resume(game.co, ...))
end

-- Every seat has finished its order: the block of steps is closed (read
-- back in seat order) and the rule script gets { [seat] = order }.
function reveal(game)
  local seats, entries, orders = game.seats, game.entries, {}
  for i = 1, #seats do orders[seats[i]] = entries[seats[i]].order end
  local blocks = game.oblocks
  if #game.hist > game.ostart + 1 then
    blocks[#blocks + 1] = { game.ostart + 1, #game.hist, seats }
  end
  game.entries, game.enter, game.ostart = nil, nil, nil
  game.ctx._drafts = nil
  return advance(game, orders)
end

-- R.constraints, read raw once per rule set: each entry a function
-- (g, seat, decision, text, option) -> reason or nil, which looks at every
-- decision, or { decisions = { name, ... }, check = function }, which looks
-- only at the decisions named. Returns nil (no constraint) or a table:
-- decision name -> the constraints that look at it, in R.constraints'
-- order; any other name -> those that look at every decision (through
-- its metatable, when there are such).
local function compile_constraints(R)
  local list = rawget(R, "constraints")
  if list == nil then return nil end
  local function bad(i, what)
    error(format("%s: R.constraints[%d] %s", R.name, i, what), 0)
  end
  if type(list) ~= "table" or getmetatable(list) ~= nil then
    error(format("%s: R.constraints must be a plain list", R.name), 0)
  end
  local any, named = {}, {}
  for i = 1, rawlen(list) do
    local c = rawget(list, i)
    if type(c) == "function" then
      any[#any + 1] = c
    elseif type(c) == "table" and getmetatable(c) == nil then
      local f, decisions = rawget(c, "check"), rawget(c, "decisions")
      if type(f) ~= "function" then bad(i, "has no check function") end
      if type(decisions) ~= "table" or getmetatable(decisions) ~= nil or rawlen(decisions) == 0 then
        bad(i, "must name its decisions: decisions = { \"name\", ... }")
      end
      for j = 1, rawlen(decisions) do
        local d = rawget(decisions, j)
        if type(d) ~= "string" then bad(i, format("decisions[%d] is not a decision name", j)) end
        named[d] = named[d] or {}
        local l = named[d]
        l[#l + 1] = f
      end
    else
      bad(i, "is not a function or { decisions = {...}, check = function }")
    end
  end
  if #any == 0 and next(named) == nil then return nil end
  -- every decision's list keeps R.constraints' order
  local by = {}
  if #any > 0 then setmetatable(by, { __index = function() return any end }) end
  for d in pairs(named) do
    local l = {}
    for i = 1, rawlen(list) do
      local c = rawget(list, i)
      if type(c) == "function" then
        l[#l + 1] = c
      else
        local ds = rawget(c, "decisions")
        for j = 1, rawlen(ds) do
          if rawget(ds, j) == d then l[#l + 1] = rawget(c, "check"); break end
        end
      end
    end
    by[d] = l
  end
  return by
end

-- Runs a started game's program to its first decision.
local function run_to_decision(game)
  local ok, err = advance(game, game.ctx)
  if not ok then error(err, 0) end
end

local function deep_copy(v)
  if type(v) ~= "table" then return v end
  local t = {}
  for k, x in pairs(v) do t[k] = deep_copy(x) end
  return t
end

-- The metatable of every game's `g`: hidden, so no script reaches it.
local CTX_META = { __index = Ctx, __metatable = false }

-- The rule script's `g`. Its metatable is CTX_META, hidden
-- (getmetatable(g) is false), names and options are copies of the game's
-- parameters, and the engine keeps its own references to what it reads
-- back (game.players, game.log_obj): a script that replaces g._log,
-- g.players or g.names changes only what it sees itself.
local function new_ctx(game)
  local p = game.params
  for i, name in ipairs(p.names or {}) do
    if type(name) ~= "string" or not utf8.len(name) then
      error(format("the name of player %d is not valid UTF-8 text", i), 0)
    end
  end
  local log, rng = core.log(), core.rng(p.seed)
  game.log_obj, game.players, game.rng = log, p.players, rng
  local ctx = setmetatable({
    players = p.players, names = deep_copy(p.names), options = deep_copy(p.options),
    rng = rng, turn = 0, active = nil, logging = not game.quiet,
    _log = log, _quiet = game.quiet, _orders = {}, _text = {},
    _manual_chance = p.manual_chance or false,
    _entering = false,      -- the seat whose order entry runs (g:choose_orders)
    _cons = game.cons or false, _skipped = {},   -- false, not nil: g:choose reads them
    choose = Ctx.choose, choose_from = Ctx.choose_from, choose_all = Ctx.choose_all,
    choose_orders = Ctx.choose_orders, draft = Ctx.draft, chance = Ctx.chance, skip = Ctx.skip,
    begin_turn = Ctx.begin_turn, next_seat = Ctx.next_seat, turn_order = Ctx.turn_order,
    log = Ctx.log, finish = Ctx.finish, stat = Ctx.stat, text = Ctx.text,
  }, CTX_META)
  SEATS[ctx] = p.players
  return ctx
end

methods_fields(new_ctx({ params = { players = 1, seed = 1 } }))

-- (Re)starts the game from its parameters: setup, then run to the first
-- decision (`deferred`: not yet; the simulation's playout runs it with its
-- bot inside, so that the first decision too is made as every other; with
-- `buffered` its bot keeps the steps, and the step lists are made when
-- read). Raises a message on a rule-script error.
local function start(game, deferred, buffered)
  local R = game.R
  if game.cons_of ~= R then
    game.cons, game.cons_of = compile_constraints(R), R
  end
  local ctx = new_ctx(game)
  game.ctx = ctx
  game._rec = nil
  if buffered then
    game.hist, game.hseat, game.hidx, game.hstop = nil, nil, nil, nil
  else
    game.hist, game.hseat, game.hidx, game.hstop = copt.steps(200)   -- room for most games
  end
  game.oblocks = {}       -- the blocks of secret steps revealed so far (orders, g:choose_all)
  sandbox.current_rng = ctx.rng
  local ok, err = call(R.setup, ctx, deep_copy(game.params.scenario))
  if not ok then
    if err == FINISH then err = "g:finish() called during setup" end
    error(format("setting up %s failed: %s", R.name, err), 0)
  end
  game.co = csb.thread(R.play)
  if not deferred then run_to_decision(game) end
end

local function seat_label(seat)
  if seat == 0 then return "chance" end
  return tostring(seat)
end

-- Whether the character at i ends a word of an action text.
local function is_boundary(text, i)
  local c = text:sub(i, i)
  return c == " " or c == ","
end

-- Whether `opts` (option values, or their texts) holds an option that
-- extends `text` (so an option equal to `text` there means "stop here":
-- the move so far is complete).
local extends_any = extends_opt

-- Appends option k of `opts`, chosen by `seat`, to the step list, as its
-- text (the simulation's bot, lua/l_bot.c, does the same in C). A copy for
-- search keeps the option's number alone: a bot's rollouts make no text.
local function record(game, seat, opts, k)
  local hist, hseat = game.hist, game.hseat
  local n = #hist + 1
  if game.copy then   -- a copy for search (lua/kontor/fork.lua): its steps are never read as texts
    hist[n], hseat[n], game.hidx[n] = false, seat, k
    return
  end
  local text = opts[k]
  if type(text) ~= "string" then text = option_text(text) end
  hist[n], hseat[n], game.hidx[n] = text, seat, k
  if n > 1 and hseat[n - 1] == seat and same_text(hist[n - 1], text) then
    game.hstop[n] = extends_any(opts, text)   -- rare: a repeated text
  end
end

-- The step list as texts. A game played out for its result alone
-- (play_random with texts false, as kontor sim does) kept only each step's
-- seat and option number: replaying those makes the texts, the first time
-- something reads them.
local rebuild
local function hist_texts(game)
  if game.copy then
    error("a copy of a game for search (kontor.fork) keeps its steps as option numbers, not texts", 3)
  end
  if game.textless then
    game.textless = nil
    rebuild(game, #game.hist)
  end
  return game.hist
end

-- Applies option k of `seat` at the current decision (already validated).
-- Returns true, or false and the script's error (the step is then undone).
local function step(game, seat, k)
  local kind = game.kind
  if kind == "all" then
    record(game, seat, game.by_seat[seat], k)
    game.chosen[seat] = k
    game.waiting = game.waiting - 1
    if game.waiting > 0 then return true end
    -- the secret choices are read back in the order of their seats
    local n, blocks = #game.hist, game.oblocks
    if #game.seats > 1 then blocks[#blocks + 1] = { n - #game.seats + 1, n, game.seats } end
    return advance(game, game.chosen)
  elseif kind == "orders" then
    local e = game.entries[seat]
    record(game, seat, e.opts, k)
    -- whether the text is a "stop here", kept for every step of an order:
    -- the step before it in the record is known only at the reveal
    local n = #game.hist
    game.hstop[n] = extends_any(e.opts, game.hist[n])
    game.tcache = nil
    local ok, err = entry_resume(game, seat, e, k)
    if not ok then return false, err end
    if game.waiting > 0 then return true end
    return reveal(game)
  end
  record(game, seat, game.opts, k)
  sandbox.current_rng = game.rng
  return settle(game, resume(game.co, k))
end

-- The options of `seat` now (the engine's own list: do not change it).
local function options_of(game, seat)
  local kind = game.kind
  if kind == "player" or kind == "chance" then
    if seat == nil or seat == game.seat then return game.opts, game.seat end
    return nil, seat
  elseif kind == "all" then
    if seat == nil then
      for _, s in ipairs(game.seats) do
        if not game.chosen[s] then
          if seat ~= nil then return nil, nil end  -- ambiguous
          seat = s
        end
      end
      if seat == nil then return nil, nil end
    end
    if game.chosen[seat] then return nil, seat end
    return game.by_seat[seat], seat
  elseif kind == "orders" then
    local entries = game.entries
    if seat == nil then
      for _, s in ipairs(game.seats) do
        if not entries[s].done then
          if seat ~= nil then return nil, nil end  -- ambiguous
          seat = s
        end
      end
      if seat == nil then return nil, nil end
    end
    local e = entries[seat]
    if not e or e.done then return nil, seat end
    return e.opts, seat
  end
  return nil, seat
end

-- The name of the decision `seat` is at (an order entry's own step).
local function dname_of(game, seat)
  if game.kind == "orders" then
    local e = seat and game.entries[seat]
    return e and e.name or game.dname
  end
  return game.dname
end

-- The texts of the options of `seat` now, cached until the next decision.
local function texts_of(game, seat)
  local opts, who = options_of(game, seat)
  if not opts then return nil, who end
  local cache = game.tcache
  if not cache then cache = {}; game.tcache = cache end
  local t = cache[opts]
  if not t then t = option_texts(opts); cache[opts] = t end
  return t, who
end

-- Replays steps 1..n of `steps` (lists of seats and option indices) on a
-- fresh start.
-- Recorded steps run with the replay time limit (core.sandbox.replay): each
-- passed the smaller play limit when it was taken (docs/security.md).
local function replay_steps(game, hseat, hidx, n)
  start(game)
  for i = 1, n do
    local ok, err = step(game, hseat[i], hidx[i])
    if not ok then error(err, 0) end
  end
end

local function replay_indices(game, hseat, hidx, n)
  csb.replay(replay_steps, game, hseat, hidx, n)
end

-- Goes back to the first n steps (used by undo and to roll back).
function rebuild(game, n)
  local hseat, hidx = game.hseat, game.hidx
  replay_indices(game, hseat, hidx, n)
end

---------------------------------------------------------------------------
-- The public side
---------------------------------------------------------------------------

local M = {}
M.Game = Game
M.Ctx = Ctx

local function new_game(R, params, quiet)
  return setmetatable({ R = R, params = params, quiet = quiet or false, future = {} }, Game)
end

-- Creates a game from a loaded rule set and parameters (see kontor.new_game).
function M.new(R, params, quiet)
  local game = new_game(R, params, quiet)
  start(game)
  return game
end

local function copy_list(t)
  local c = {}
  for i = 1, #t do c[i] = t[i] end
  return c
end

local function check_seat(game, seat, fname)
  if seat ~= nil and (math.type(seat) ~= "integer" or seat < 1 or seat > game.players) then
    error(format("bad argument #1 to '%s' (a seat 1..%d expected, got %s)", fname,
      game.players, tostring(seat)), 3)
  end
end

function Game:who()
  local kind = self.kind
  if kind == "player" then return self.seat end
  if kind == "chance" then return "chance" end
  if kind == "all" then
    local t = {}
    for _, s in ipairs(self.seats) do if not self.chosen[s] then t[#t + 1] = s end end
    return t
  end
  if kind == "orders" then
    local t = {}
    for _, s in ipairs(self.seats) do if not self.entries[s].done then t[#t + 1] = s end end
    return t
  end
  return nil
end

-- The counts of the stats the rule script counted with g:stat: a copy.
function Game:stats()
  local out = {}
  for k, v in pairs(STATS[self.ctx] or {}) do out[k] = v end
  return out
end

function Game:over()
  return self.kind == "over"
end

function Game:decision(viewer)
  local kind = self.kind
  if kind == "over" then return { kind = "over", seats = {} } end
  if kind == "orders" then
    -- With a viewer, only that seat's own entry: the others' options
    -- would tell what they have entered.
    local opts, steps, done = {}, {}, {}
    local seats = self:who()
    for _, s in ipairs(seats) do
      if viewer == nil or viewer == s then
        opts[s] = copy_list(texts_of(self, s))
        steps[s] = self.entries[s].name
      end
    end
    for _, s in ipairs(self.seats) do if self.entries[s].done then done[#done + 1] = s end end
    table.sort(done)
    return { kind = "orders", name = self.dname, seats = seats, options = opts, steps = steps,
             done = done }
  end
  if kind == "all" then
    local opts = {}
    local seats = self:who()
    for _, s in ipairs(seats) do opts[s] = copy_list(texts_of(self, s)) end
    return { kind = "simultaneous", name = self.dname, seats = seats, options = opts,
             chosen = (function() local t = {}; for s in pairs(self.chosen) do t[#t + 1] = s end; table.sort(t); return t end)() }
  end
  return { kind = kind, name = self.dname, seats = { self.seat }, options = copy_list(texts_of(self)) }
end

function Game:options(seat)
  local texts = texts_of(self, seat)
  if not texts then return {} end
  return copy_list(texts)
end

-- Fast path for bots and simulations: option k of `seat` (no parsing).
function Game:step(seat, k)
  local ok, err = step(self, seat, k)
  if not ok then
    local n = #self.hist - 1
    rebuild(self, n)
    error(err, 0)
  end
end

local function NO_CHECK() end

-- A game started with its first decision deferred, played to the end.
local function play_from_start(self, bot, check, max_steps)
  run_to_decision(self)
  return Game.play_random(self, bot, check, max_steps)
end

-- The simulation's fast path: the bot answers inside the game's coroutine,
-- so a decision costs no coroutine switch. Every step is still recorded
-- (replay, save and undo work on the result) and gets a fresh instruction
-- budget. The first decision, already pending, is answered from outside;
-- with `deferred` (M.playout) the game has not run to it yet, and the bot
-- answers it inside too.
local function play_random_inside(self, bot, max_steps, texts, deferred)
  local ctx = self.ctx
  -- Lua's `record` done in C (lua/l_bot.c), with or without the texts; a
  -- game started without step lists (M.playout, no texts) has its steps
  -- kept by the bot itself (Game.__index).
  local rbot
  if rawget(self, "hist") == nil then
    rbot = core.random_bot(bot, false, false, false, false, max_steps, false)
    self._rec = rbot
  else
    rbot = core.random_bot(bot, self.hist, self.hseat, self.hidx, self.hstop, max_steps, texts)
  end
  if not texts then self.textless = true end
  BOTS[ctx] = rbot
  local outer_ctx, outer_bot, outer_players = sim_ctx, sim_bot, sim_players
  sim_ctx, sim_bot, sim_players = ctx, rbot, SEATS[ctx]
  local ok, err = pcall(deferred and play_from_start or Game.play_random, self, bot, NO_CHECK, max_steps)
  sim_ctx, sim_bot, sim_players = outer_ctx, outer_bot, outer_players
  BOTS[ctx] = nil
  if entering_ctx == ctx then entering_ctx, entering_seat = nil, nil end   -- an entry raised
  if not ok then error(err, 0) end
  return self
end

-- Plays to the end choosing uniformly at random with `bot` (a kontor.Rng):
-- the simulation's inner loop. `check(game)`, if given, runs after setup
-- and after every step. Raises on a rule-script error or after max_steps.
-- With `texts` false, a game played from its start keeps each step's seat
-- and option number but makes no text: the texts are made by replaying
-- when something reads them (kontor sim wants the result alone).
function Game:play_random(bot, check, max_steps, texts)
  max_steps = max_steps or 100000
  local below = bot.below
  if not check and self.kind ~= "over" and #self.hist == 0 then
    return play_random_inside(self, bot, max_steps, texts ~= false)
  end
  if check then check(self) end
  for _ = 1, max_steps do
    local kind = self.kind
    local seat, k
    if kind == "over" then return self end
    if kind == "all" then
      local seats, chosen = self.seats, self.chosen
      for i = 1, #seats do
        local s = seats[i]
        if not chosen[s] then seat = s; break end
      end
      k = below(bot, #self.by_seat[seat]) + 1
    elseif kind == "orders" then
      -- the first seat still entering, as the bot inside enters them
      local seats, entries = self.seats, self.entries
      for i = 1, #seats do
        local s = seats[i]
        if not entries[s].done then seat = s; break end
      end
      k = below(bot, #entries[seat].opts) + 1
    else
      seat = self.seat
      k = below(bot, #self.opts) + 1
    end
    local ok, err = step(self, seat, k)
    if not ok then
      rebuild(self, #self.hist - 1)
      error(err, 0)
    end
    if check then check(self) end
  end
  if self.kind == "over" then return self end
  error(format("the game did not end within %d steps", max_steps), 0)
end

-- The number of steps taken: #game.hist, without making a playout's lists.
function Game:step_count()
  local hist = rawget(self, "hist")
  if hist then return #hist end
  return core.bot_steps(rawget(self, "_rec"))
end

-- A new game played to its end as Game:play_random(bot, nil, max_steps,
-- texts) plays it, its first decision included: the same game, its
-- options made as the simulation makes every other decision's. Raises as
-- M.new and Game:play_random do.
function M.playout(R, params, bot, max_steps, texts, quiet)
  local game = new_game(R, params, quiet)
  start(game, true, texts == false)
  return play_random_inside(game, bot, max_steps or 100000, texts ~= false, true)
end

local function explain(game, seat, name, text)
  local cons = game.cons
  cons = cons and cons[name] or {}
  local option = text                  -- the option itself, if the text is one
  local opts, texts = options_of(game, seat), texts_of(game, seat)
  for i = 1, texts and #texts or 0 do
    if texts[i] == text then option = opts[i]; break end
  end
  for _, c in ipairs(cons) do
    local ok, why = call(c, game.ctx, seat, name, text, option)
    if ok and type(why) == "string" then return why end
  end
  local f = game.R.explain[name]
  if not f then return nil end
  local ok, why = call(f, game.ctx, seat, text)
  if ok and type(why) == "string" then return why end
  return nil
end

-- Up to 12 of the option texts, for a message (with `prefix`: only those
-- that extend it).
local function expected(opts, prefix)
  if prefix then
    local some = {}
    for i = 1, #opts do
      local o = opts[i]
      if #o > #prefix and o:sub(1, #prefix) == prefix and is_boundary(o, #prefix + 1) then some[#some + 1] = o end
    end
    opts = some
  end
  local shown = {}
  for i = 1, math.min(#opts, 12) do shown[i] = opts[i] end
  local s = concat(shown, ", ")
  if #opts > 12 then s = s .. format(", ... (%d in all)", #opts) end
  return s
end

-- The options that extend `text` at a word boundary: the first one's
-- index and how many there are.
local function extensions_of(opts, text)
  local first, n, len = nil, 0, #text
  for i = 1, #opts do
    local o = opts[i]
    if #o > len and o:sub(1, len) == text and is_boundary(o, len + 1) then
      first, n = first or i, n + 1
    end
  end
  return first, n
end

-- Walks the steps of one move text for `seat`. Returns true, or nil and a
-- message (the game then is as it was).
local function walk(game, seat, text)
  local start_n = #game.hist
  local prev = -1
  local tlen = #text
  local last_n                 -- steps taken before the decision the text last passed through
  local function fail(msg)
    if #game.hist > start_n then rebuild(game, start_n) end
    return nil, msg
  end
  local function illegal(name, opts)
    local why = explain(game, seat, name, text)
    return format("'%s' is not a legal action%s; expected one of: %s",
      text, why and (": " .. why) or "", expected(opts))
  end
  -- The text ran past the end of a move: explain it at the decision it
  -- last passed through, in the state of that moment.
  local function overran()
    rebuild(game, last_n)
    return fail(illegal(dname_of(game, seat), texts_of(game, seat)))
  end
  while true do
    local opts, who = texts_of(game, seat)
    if not opts and last_n then return overran() end
    if not opts then
      if game.kind == "over" then return fail(format("'%s': the game is over", text)) end
      if (game.kind == "all" or game.kind == "orders") and who == nil then
        return fail(format("'%s': several seats choose at once (%s): say which, e.g. '%d: %s'",
          text, concat(game:who(), ", "), game:who()[1], text))
      end
      local cur = game:who()
      return fail(format("'%s': it is not seat %s's turn to decide (waiting for %s)", text,
        seat_label(who), type(cur) == "table" and concat(cur, ", ") or seat_label(cur)))
    end
    seat = who
    local best, bestlen = nil, 0
    for i = 1, #opts do
      local o = opts[i]
      local l = #o
      if l > bestlen and l <= tlen and (l == tlen and o == text or
          (text:sub(1, l) == o and is_boundary(text, l + 1))) then
        best, bestlen = i, l
      end
    end
    if not best or bestlen <= prev then
      -- A short form: the text names exactly one option by its beginning
      -- ("load fish" when one ship is empty). The step records the option.
      local k, n = extensions_of(opts, text)
      if n == 1 then
        best, text = k, opts[k]
        bestlen, tlen = #text, #text
      elseif n > 1 and not (last_n and not extends_any(opts, text:sub(1, prev))) then
        return fail(format("'%s' is ambiguous: it could be %s", text, expected(opts, text)))
      end
    end
    if not best or bestlen <= prev then
      if last_n and not extends_any(opts, text:sub(1, prev)) then
        return overran()   -- this decision starts a new move
      end
      return fail(illegal(dname_of(game, seat), opts))
    end
    if bestlen < tlen then last_n = #game.hist end
    local ok, err = step(game, seat, best)
    if not ok then
      rebuild(game, start_n)
      error(err, 0)
    end
    prev = bestlen
    if bestlen == tlen then
      -- The move is complete; take a "stop here" option that repeats it.
      local nopts, nwho = texts_of(game, seat)
      if nopts and nwho == seat and extends_any(nopts, text) then
        for i = 1, #nopts do
          if nopts[i] == text then
            local ok2, err2 = step(game, seat, i)
            if not ok2 then rebuild(game, start_n); error(err2, 0) end
            break
          end
        end
      end
      return true
    end
  end
end

local function parse_seat(action)
  local s, rest = action:match("^%s*(%d+)%s*:%s*(.-)%s*$")
  if s then return tonumber(s), rest end
  rest = action:match("^%s*chance%s*:%s*(.-)%s*$")
  if rest then return 0, rest end
  return nil, (action:match("^%s*(.-)%s*$"))
end

-- Applies an action: an option number, an option text or a whole move
-- text, optionally "seat: text". Returns true, or nil and a message.
-- A rule-script error raises (the game is then exactly as before).
function Game:apply(action, seat)
  if self.kind == "over" then return nil, "the game is over" end
  local n0 = #self.hist
  local ok, err
  if seat ~= nil and seat ~= 0 and (math.type(seat) ~= "integer" or seat < 1 or seat > self.players) then
    return nil, format("there is no seat %s (seats 1..%d)", tostring(seat), self.players)
  end
  if math.type(action) == "integer" then
    local opts, who = options_of(self, seat)
    if not opts then
      if (self.kind == "all" or self.kind == "orders") and seat == nil then
        return nil, format("several seats choose at once (%s): say which, e.g. g:apply(%d, %d)",
          concat(self:who(), ", "), action, self:who()[1])
      end
      return nil, format("seat %s has no decision now", seat_label(seat or "?"))
    end
    if action < 1 or action > #opts then
      return nil, format("option %d does not exist (there are %d)", action, #opts)
    end
    self:step(who, action)
    ok = true
  elseif type(action) == "string" then
    local s, text = parse_seat(action)
    if s and seat and s ~= seat then
      return nil, format("'%s' names seat %d but seat %d was given", action, s, seat)
    end
    if text == "" then return nil, "an empty action" end
    ok, err = walk(self, s or seat, text)
  else
    return nil, format("an action is an option number or text, not a %s", type(action))
  end
  if not ok then return nil, err end
  -- Redo survives only while the new steps are the ones undone.
  local fut = self.future
  hist_texts(self)
  for i = n0 + 1, #self.hist do
    local f = fut[#fut]
    if f and f[1] == self.hseat[i] and f[2] == self.hist[i] then
      fut[#fut] = nil
    else
      self.future = {}
      fut = self.future
    end
  end
  return true
end

function Game:why(action, seat)
  if self.kind == "over" then return "the game is over" end
  local n0 = #self.hist
  local fut = { table.unpack(self.future) }
  local ok, err = self:apply(action, seat)
  if ok then rebuild(self, n0) end
  self.future = fut
  if ok then return nil end
  return err
end

-- Takes back up to n of `seat`'s own steps of the secret order it is
-- entering (or has entered, while others still enter theirs); the other
-- seats' entries stay as they are. Returns how many.
local function undo_entry(game, n, seat)
  if game.kind ~= "orders" or not game.entries[seat] then return 0 end
  local hist, hseat, hidx, hstop = hist_texts(game), game.hseat, game.hidx, game.hstop
  local drop, k = {}, 0
  for i = #hist, game.ostart + 1, -1 do
    if k == n then break end
    if hseat[i] == seat then drop[i] = true; k = k + 1 end
  end
  if k == 0 then return 0 end
  local ks, ki, m, fut = {}, {}, 0, {}
  for i = 1, #hist do
    if drop[i] then fut[#fut + 1] = { hseat[i], hist[i], hstop[i] }
    else m = m + 1; ks[m], ki[m] = hseat[i], hidx[i] end
  end
  -- the oldest step undone is redone first: the redo list's last entry
  for j = #fut, 1, -1 do game.future[#game.future + 1] = fut[j] end
  replay_indices(game, ks, ki, m)
  return k
end

function Game:undo(n, seat)
  n = n or 1
  if seat ~= nil then
    check_seat(self, seat, "undo")
    return undo_entry(self, n, seat)
  end
  local len = #hist_texts(self)
  if n > len then n = len end
  if n <= 0 then return 0 end
  for i = len, len - n + 1, -1 do
    self.future[#self.future + 1] = { self.hseat[i], self.hist[i], self.hstop[i] }
  end
  rebuild(self, len - n)
  return n
end

-- The texts of `seat`'s own steps of the secret order it is entering (or
-- has entered, while others still enter theirs), oldest first.
function Game:pending(seat)
  check_seat(self, seat, "pending")
  local out = {}
  if self.kind ~= "orders" or not self.entries[seat] then return out end
  local hist, hseat = hist_texts(self), self.hseat
  for i = self.ostart + 1, #hist do
    if hseat[i] == seat then out[#out + 1] = hist[i] end
  end
  return out
end

function Game:redo(n)
  n = n or 1
  local done = 0
  while done < n do
    local f = self.future[#self.future]
    if not f then break end
    local opts, who = texts_of(self, f[1])
    local k
    if opts then for i = 1, #opts do if opts[i] == f[2] then k = i; break end end end
    if not k then break end
    self.future[#self.future] = nil
    self:step(who, k)
    done = done + 1
  end
  return done
end

-- The steps undo has taken off, next to redo last: { {seat, text}, ... }.
function Game:redo_list()
  local out = {}
  for i, f in ipairs(self.future) do out[i] = { f[1], f[2] } end
  return out
end

-- The number of steps at the end of the list that are secret choices of
-- a simultaneous decision still waiting for other seats.
local function pending_secret(game)
  if game.kind ~= "all" then return 0 end
  local n = 0
  for _ in pairs(game.chosen) do n = n + 1 end
  return n
end

-- The step list's indices in the order it is read back: each block of
-- secret steps (an order, or the choices of a g:choose_all; revealed, or
-- still open) in the order of its seats, the steps of one seat in the
-- order they were entered. nil when that is the list's own order.
local function canonical_order(game)
  local blocks, n = game.oblocks, #game.hist
  local ostart = game.kind == "orders" and game.ostart or nil
  if game.kind == "all" then ostart = n - pending_secret(game) end
  if #blocks == 0 and (ostart == nil or ostart >= n - 1) then return nil end
  local hseat, idx = game.hseat, {}
  for i = 1, n do idx[i] = i end
  local function sort_block(first, last, seats)
    local pos, part = {}, {}
    for i, s in ipairs(seats) do pos[s] = i end
    for i = first, last do part[#part + 1] = i end
    table.sort(part, function(x, y)
      local px, py = pos[hseat[x]], pos[hseat[y]]
      if px ~= py then return px < py end
      return x < y
    end)
    for j, i in ipairs(part) do idx[first + j - 1] = i end
  end
  for _, blk in ipairs(blocks) do sort_block(blk[1], blk[2], blk[3]) end
  if ostart and ostart < n - 1 then sort_block(ostart + 1, n, game.seats) end
  return idx
end

-- The steps in canonical order as { seat, text, stop, hidden }: hidden
-- steps are what `viewer` may not see yet, the others' choices in an open
-- g:choose_all decision; the others' steps of an open secret order are
-- left out altogether (even their number is secret), and so are hidden
-- steps when `omit` is set.
local function visible_steps(game, viewer, omit)
  local hist, hseat, hstop = hist_texts(game), game.hseat, game.hstop
  local n = #hist
  local hidden_from = n - (viewer and pending_secret(game) or 0)
  local ostart = viewer and game.kind == "orders" and game.ostart or n
  local order = canonical_order(game)
  local out = {}
  for j = 1, n do
    local i = order and order[j] or j
    local s = hseat[i]
    if not (i > ostart and s ~= viewer) then
      local hidden = i > hidden_from and s ~= viewer
      if not (hidden and omit) then
        out[#out + 1] = { s, hist[i], hstop[i], hidden }
      end
    end
  end
  return out
end

-- Steps as canonical texts, "seat: text". With `viewer`, what that seat
-- may see: the choices other seats made in a simultaneous decision that is
-- still open read "(secret)" (or are left out, with `omit`), their steps
-- of secret orders not yet revealed are left out.
function Game:actions(viewer, omit)
  local out = {}
  for i, st in ipairs(visible_steps(self, viewer, omit)) do
    out[i] = seat_label(st[1]) .. ": " .. (st[4] and "(secret)" or st[2])
  end
  return out
end

-- Whether step b (text tb, seat sb) continues step a's move: its text
-- extends a's, or repeats it as a "stop here".
local function continues(ta, sa, tb, sb, stop)
  if sa ~= sb or #tb < #ta or tb:sub(1, #ta) ~= ta then return false end
  if #tb == #ta then return stop == true end
  return is_boundary(tb, #ta + 1)
end

-- Steps ({ seat, text, stop, hidden } in order) merged into moves:
-- { {seat, text, hidden}, ... }.
local function merge_moves(steps)
  local out = {}
  for _, st in ipairs(steps) do
    local last = out[#out]
    if last and continues(last[2], last[1], st[2], st[1], st[3]) then
      last[2], last[3] = st[2], st[4]
    else
      out[#out + 1] = { st[1], st[2], st[4] }
    end
  end
  return out
end

-- The step list in the order it was taken (secret orders as they arrived).
local function taken_steps(game)
  local hist, hseat, hstop, out = hist_texts(game), game.hseat, game.hstop, {}
  for i = 1, #hist do out[i] = { hseat[i], hist[i], hstop[i] } end
  return out
end

-- Steps merged into moves: { {seat, text}, ... }.
function Game:move_list()
  local out = merge_moves(visible_steps(self))
  for _, m in ipairs(out) do m[3] = nil end
  return out
end

-- Takes back the last n whole moves with one rebuild; returns them,
-- oldest first, as { {seat, text}, ... }.
function Game:undo_moves(n)
  local list = merge_moves(taken_steps(self))
  n = math.min(n or 1, #list)
  if n <= 0 then return {} end
  local undone = {}
  for i = #list - n + 1, #list do undone[#undone + 1] = { list[i][1], list[i][2] } end
  -- the steps of those moves: walk back from the end, move by move
  local hist, hseat, steps, m = hist_texts(self), self.hseat, 0, 0
  local i = #hist
  while m < n and i >= 1 do
    steps = steps + 1
    if i == 1 or not continues(hist[i - 1], hseat[i - 1], hist[i], hseat[i], self.hstop[i]) then
      m = m + 1
    end
    i = i - 1
  end
  self:undo(steps)
  return undone
end

-- Does the next n whole moves of the redo list again; returns how many.
function Game:redo_moves(n)
  n = n or 1
  local done = 0
  while done < n do
    local f = self.future[#self.future]
    if not f or self:redo(1) ~= 1 then break end
    local text = f[2]
    while true do
      local nf = self.future[#self.future]
      if not (nf and continues(text, f[1], nf[2], nf[1], nf[3])) then break end
      if self:redo(1) ~= 1 then break end
      text = nf[2]
    end
    done = done + 1
  end
  return done
end

function Game:moves(viewer, omit)
  local out = {}
  local list = merge_moves(visible_steps(self, viewer, omit))
  local secret = viewer and not omit and pending_secret(self) or 0
  for i, m in ipairs(list) do
    local text = m[2]
    if m[3] or (i > #list - secret and m[1] ~= viewer) then text = "(secret)" end
    out[i] = seat_label(m[1]) .. ": " .. text
  end
  return out
end

-- Replays move texts ({seat, text} pairs) from a fresh start. Returns true,
-- or nil, the index of the move that failed, and why.
local function replay_moves(self, moves)
  start(self)
  self.future = {}
  for i, m in ipairs(moves) do
    local ok, res, err = pcall(walk, self, m[1], m[2])
    if not ok then return nil, i, res end
    if not res then return nil, i, err end
  end
  return true
end

function Game:replay(moves)
  return csb.replay(replay_moves, self, moves)
end

-- The decisions the rules skipped so far: { {seat =, decision =, why =,
-- turn =}, ... }, oldest first (read raw, copied: plain data only).
function Game:skipped()
  local out, list = {}, rawget(self.ctx, "_skipped")
  if type(list) ~= "table" then return out end
  for i = 1, rawlen(list) do
    local e = rawget(list, i)
    if type(e) == "table" then
      local seat, name, why, turn = rawget(e, "seat"), rawget(e, "decision"), rawget(e, "why"), rawget(e, "turn")
      out[#out + 1] = { seat = math.type(seat) == "integer" and seat or nil,
                        decision = type(name) == "string" and name or nil,
                        why = type(why) == "string" and why or nil,
                        turn = math.type(turn) == "integer" and turn or nil }
    end
  end
  return out
end

function Game:log()
  return self.log_obj:lines()
end

-- The scores and winners, computed in one armed call that reads only raw
-- numbers: what a rule script returns cannot hang the engine (a looping
-- __index or __lt) or hand it something that is not a score.
function Game:result()
  if self.kind ~= "over" then return nil, "the game is not over" end
  local R, ctx, players = self.R, self.ctx, self.players
  local ok, res = call(function()
    local raw = R.scores(ctx)
    if type(raw) ~= "table" then error("R.scores must return a list of numbers, one per seat", 0) end
    local scores = {}
    for s = 1, players do
      local v = rawget(raw, s)
      if type(v) ~= "number" or v ~= v then
        error(format("R.scores: the score of seat %d is %s, not a number", s, type(v)), 0)
      end
      scores[s] = v
    end
    local winners = {}
    if R.winners then
      local w = R.winners(ctx)
      if type(w) ~= "table" then error("R.winners must return a list of seats", 0) end
      for i = 1, rawlen(w) do
        local x = rawget(w, i)
        if math.type(x) ~= "integer" or x < 1 or x > players then
          error(format("R.winners: entry %d is not a seat 1..%d", i, players), 0)
        end
        winners[i] = x
      end
    else
      local best
      for s = 1, players do
        local v = scores[s]
        if best == nil or v > best then best = v; winners = { s }
        elseif v == best then winners[#winners + 1] = s end
      end
    end
    return { scores = scores, winners = winners, turns = math.type(ctx.turn) == "integer" and ctx.turn or 0 }
  end)
  if not ok then error(format("%s: %s", R.name, tostring(res)), 0) end
  return res
end

function Game:state()
  return dump.state(self.R, self.ctx)
end

function Game:view(seat)
  if seat == nil then error("bad argument #1 to 'view' (a seat expected; g:state() is the whole state)", 2) end
  check_seat(self, seat, "view")
  return dump.view(self.R, self.ctx, seat, self)
end

function Game:show(seat)
  check_seat(self, seat, "show")
  return dump.show(self.R, self.ctx, seat, self)
end

function Game:invariants()
  local f = self.R.invariants
  if not f then return nil end
  local ok, msg = call(f, self.ctx)
  if not ok then return "R.invariants failed: " .. tostring(msg) end
  return msg
end

-- Ctrl-C in the REPL raises "interrupted" wherever Lua runs, so it can land
-- inside the engine's own bookkeeping (between recording a step and giving
-- it to the rule script). These calls then put the game back as it was
-- before them: the step lists only grow past their old length, so their
-- first entries still describe that game.
local function protect(name)
  local f = Game[name]
  Game[name] = function(self, ...)
    local hseat, hidx, n0 = self.hseat, self.hidx, #self.hist
    local future = { table.unpack(self.future) }
    local res = table.pack(pcall(f, self, ...))
    if res[1] then return table.unpack(res, 2, res.n) end
    if type(res[2]) == "string" and res[2]:match("interrupted$") then
      replay_indices(self, hseat, hidx, n0)
      self.future = future
    end
    error(res[2], 0)
  end
end
for _, name in ipairs { "apply", "why", "undo", "redo", "undo_moves", "redo_moves" } do protect(name) end

---------------------------------------------------------------------------
-- Copies for search (lua/kontor/fork.lua owns the rest)
---------------------------------------------------------------------------

-- Starts `game` afresh with hook(ctx, seat) called before each turn begins.
function M.start_hooked(game, hook)
  start(game)
  TURN_HOOK[game.ctx] = hook
end

-- Applies step (seat, k) without a rebuild on failure (the copy is thrown
-- away instead). Returns true, or false and the error.
M.raw_step = step

-- A game restarted from a turn's beginning: `fields` (a copy of the rule
-- fields of the context then), `turn`, `active` and the RNG's state. R.play
-- runs again from that state (the rule set declares R.resumes_at_turn).
-- Nothing is logged; the step list starts empty.
-- before(ctx), if given, runs before R.play; hook is as in start_hooked.
function M.restore(R, params, fields, turn, active, rng_state, hook, before)
  local game = setmetatable({ R = R, params = params, quiet = true, future = {}, copy = true }, Game)
  if game.cons_of ~= R then game.cons, game.cons_of = compile_constraints(R), R end
  local ctx = new_ctx(game)
  for k, v in pairs(fields) do ctx[k] = v end
  ctx.turn, ctx.active = turn, active
  ctx.rng:set_state(rng_state)
  game.ctx = ctx
  TURN_HOOK[ctx] = hook
  if before then before(ctx) end
  game.hist, game.hseat, game.hidx, game.hstop = copt.steps(64)
  game.oblocks = {}
  game.co = csb.thread(R.play)
  local ok, err = advance(game, ctx)
  if not ok then error(err, 0) end
  return game
end

M.seat_label = seat_label
M.parse_seat = parse_seat
return M
