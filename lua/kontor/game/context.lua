-- kontor.game.context: the rule-facing side of a game, what a rule script
-- gets as `g` (docs/api.md): g:choose, g:choose_from, g:choose_all,
-- g:choose_orders, g:chance, g:log, g:stat, ... Each g:choose yields a
-- token (PLAYER, ALL, CHANCE, ORDERS) to the engine (game/driver.lua),
-- unless a simulation's bot answers inside (game/playout.lua).

local core = require "kontor.core"
local sandbox = require "kontor.sandbox"

local csb = core.sandbox
-- Options as data (lua/engine/options.c): check at the boundary, texts on demand.
local copt = core.options
local check_options, option_text = copt.check, copt.text
local expand, pick = copt.expand, copt.pick
local bot_method, bot_method_close = core.bot_method, core.bot_method_close
local yield = coroutine.yield
local format = string.format

local M = {}

-- What g:choose, g:choose_all and g:chance yield to the engine: tokens no
-- rule script can name, so a script's own coroutine.yield from the game's
-- thread is an error (settle), never a decision with unchecked options.
local PLAYER, ALL, CHANCE, ORDERS = {}, {}, {}, {}

-- GAMES[ctx]: the game whose rule-facing table ctx is, where no rule
-- script can reach or replace it. The engine's own facts of a game live
-- on the game itself, each game its own: its number of seats
-- (game.players; the engine reads this, not g.players, which a script may
-- replace), its stat counts (game._stats, g:stat), the simulation's bot
-- answering its decisions inside the coroutine (game._bot, Game:play_random)
-- and fork.lua's turn hook (game._turn_hook). Weak keys: nothing here
-- outlives its game.
local GAMES = setmetatable({}, { __mode = "k" })
-- The game (its rule-facing table) and the seat whose order entry the
-- simulation runs inside (g:choose_orders), which g:choose checks; where
-- no script can change them. (Two locals, not a weak table: a table
-- lookup that finds nothing costs more than the whole check.)
local entering_ctx, entering_seat = nil, nil
-- The game the simulation's bot is playing inside now, that bot and the
-- game's seats (play_random_inside): g:choose's first test, so that a
-- simulation's step reads locals, not GAMES (a weak table).
local sim_ctx, sim_bot, sim_players = nil, nil, nil

local Ctx = {}

-- The name of the call that reads the game now (R.view, R.board, R.scores
-- ...: sandbox.inspect, lua/engine/inspect.c), or nil. Then g:text and
-- g:turn_order keep no memo, and g:skip and g:stat, which change what no
-- walk of g sees, refuse; the rest of g is watched by the sandbox.
local inspecting = csb.inspecting
local function refuse(what)
  error(format("%s cannot change the game: it called %s (a display function reads the game; "
    .. "a change belongs in a step)", inspecting(), what), 3)
end

-- The options R.constraints allow at one decision (lua/engine/options.c):
-- allowed(ctx, cons, seat, name, options [, players [, what]]), `cons` the
-- constraints that look at it (see compile_constraints), each a function
-- (g, seat, decision, text, option) -> a reason, or nil when the option is
-- allowed. With `players` it checks the options first, as check_options
-- does (a constant list as it was made). Returns the options (a constant's
-- plain list) when every one is allowed, else the allowed options and their
-- indices in `options`; raises at the script's line (it is called from the
-- g: method itself) when it leaves none.
local allowed = copt.allowed

-- The error of an order entry's g:choose for another seat.
local function other_seat(entering, seat)
  return format("g:choose: seat %d's order entry chose for seat %s (an entry chooses only for its own seat)",
    entering, tostring(seat))
end

-- A decision that constraints look at, its options `options` (plain,
-- checked) and `map` (nil, or the indices of the allowed options in the
-- list the script gave). While a simulation's bot plays inside the game
-- (Game:play_random), game._bot answers without leaving the coroutine.
-- With a `family` (g:choose_from, `options` its options made), returns
-- the entries the chosen option takes from the family's lists.
local function choose_allowed(self, seat, name, options, map, family)
  local bot, k = self == sim_ctx and sim_bot or GAMES[self]._bot
  if bot then
    if entering_ctx == self and seat ~= entering_seat then error(other_seat(entering_seat, seat), 2) end
    k = bot(seat, options, name)      -- the name: a tally counts under it
  else
    k = yield(PLAYER, seat, name, options)
  end
  if map then k = map[k] end
  if family then return pick(family, k) end
  return k
end

-- The game of `ctx`, or an error at the script's line when a g: method is
-- called on something else.
-- A game from outside (the REPL's `g`, kontor.new_game's result) is not a
-- step's: it is told how a move is made from there.
local function outside(x)
  return type(x) == "table" and rawget(x, "ctx") ~= nil
end

local function game_of(ctx, fname)
  local game = GAMES[ctx]
  if game == nil and outside(ctx) then
    error(format("%s asks a decision inside a step of the rule script (R.play's g); from outside the game, "
      .. "make a move with g:apply(...)", fname), 3)
  end
  if game == nil then error(format("%s: call it on the game, as g:%s(...)", fname, fname:match("[%w_]+$")), 3) end
  return game
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

-- A constant family (kontor.family) never changes, so its options, and
-- what each option takes from the family's lists, are the same at every
-- decision that offers it, in every game: FAMILIES[family] = { opts = its
-- options as expand made them (the engine's own list, never handed to a
-- rule script: constraints, which are, get a list made for them), [k] =
-- what option k takes (pick's values, n = their number) }. Made the first
-- time the family is offered and each option taken, they save expand and
-- pick (a new table an option, and the family checked again) at every
-- decision of a game the engine drives (a copy for search steps through
-- thousands a game). Weak keys: nothing here outlives its family.
local FAMILIES = setmetatable({}, { __mode = "k" })
-- A constant list of options (kontor.options) likewise: LISTS[list] = the
-- plain list check_options gives for it (the engine's own).
local LISTS = setmetatable({}, { __mode = "k" })
-- The texts of those plain lists, made once when first asked for
-- (driver.texts_of): SHARED_TEXTS[opts] is false until then.
local SHARED_TEXTS = setmetatable({}, { __mode = "k" })
local pack = table.pack
-- (Lua's own table.unpack: the sandbox's guard, a C closure whose first
-- upvalue is it, charges rule scripts' work, which pick never did)
local unpack = table.unpack
do
  local _, raw = debug.getupvalue(unpack, 1)
  if type(raw) == "function" then unpack = raw end
end

-- What option k of the constant family whose record is f takes.
local function picked(f, family, k)
  local p = f[k]
  if not p then p = pack(pick(family, k)); f[k] = p end
  local n = p.n
  if n == 1 then return p[1] elseif n == 2 then return p[1], p[2] end
  return unpack(p, 1, n)
end

-- The boundary: check_options raises, at the rule script's line, unless
-- `options` is a plain list of 1..MAX options (strings, or plain lists of
-- words and whole numbers), `name` a string and `seat` a seat.
function Ctx:choose(seat, name, options)
  local by = self._cons
  if self == sim_ctx then
    local cons = by and by[name]
    if not cons then
      if entering_ctx == self and seat ~= entering_seat then error(other_seat(entering_seat, seat), 2) end
      return sim_bot(seat, options, name, sim_players)   -- checks as check_options
    end
    -- constraints look at it: checked and asked in one call, then the bot
    local opts, map = allowed(self, cons, seat, name, options, sim_players)
    if entering_ctx == self and seat ~= entering_seat then error(other_seat(entering_seat, seat), 2) end
    local k = sim_bot(seat, opts)
    if map then k = map[k] end
    return k
  end
  local game = GAMES[self] or game_of(self, "g:choose")
  local players = game.players
  if by then
    local cons = by[name]
    if cons then
      local opts, map = allowed(self, cons, seat, name, options, players)   -- checks, then asks
      return choose_allowed(self, seat, name, opts, map)
    end
  end
  local bot = game._bot
  if bot then
    -- the simulation enters orders inside (g:choose_orders)
    if entering_ctx == self and seat ~= entering_seat then error(other_seat(entering_seat, seat), 2) end
    return bot(seat, options, name, players)   -- checks as check_options
  end
  -- a constant list offered before: the seat and name checked as
  -- check_options checks them (anything else goes to check_options)
  local plain = LISTS[options]
  if plain and type(name) == "string" and math.type(seat) == "integer" and seat >= 1 and seat <= players then
    return yield(PLAYER, seat, name, plain)
  end
  local _
  _, plain = check_options(options, seat, name, players)   -- plain: a constant's own list
  if plain then
    LISTS[options] = plain
    SHARED_TEXTS[plain] = false
    return yield(PLAYER, seat, name, plain)
  end
  return yield(PLAYER, seat, name, options)
end

-- g:choose_from(seat, name, family): g:choose of the options a family
-- stands for (lua/engine/options.c: { "load", { "fish", "wood" }, "on ship",
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
  local game = GAMES[self] or game_of(self, "g:choose_from")
  local players = game.players
  if by then
    local cons = by[name]
    if cons then
      local opts, map = allowed(self, cons, seat, name, expand(family, seat, name, players))
      return choose_allowed(self, seat, name, opts, map, family)
    end
  end
  local bot = game._bot
  if bot then
    if entering_ctx == self and seat ~= entering_seat then error(other_seat(entering_seat, seat), 2) end
    return bot(seat, family, name, players, true)   -- checks as expand
  end
  -- a constant family offered before: what expand checks of the seat and
  -- the name checked here (anything else goes to expand, which says what
  -- is wrong)
  local f = FAMILIES[family]
  if f and type(name) == "string" and math.type(seat) == "integer" and seat >= 1 and seat <= players then
    return picked(f, family, yield(PLAYER, seat, name, f.opts))
  end
  local opts = expand(family, seat, name, players)
  if type(family) == "userdata" then         -- (expand took it: a constant family)
    f = { opts = opts }
    FAMILIES[family] = f
    SHARED_TEXTS[opts] = false
    return picked(f, family, yield(PLAYER, seat, name, opts))
  end
  return pick(family, yield(PLAYER, seat, name, opts))
end

-- check_seats(seats, players, fname) -> n: a plain list of distinct seats
-- of this game, at least one; raises at the rule script's line, so it is
-- called from the g: method itself (lua/engine/options.c).
local check_seats = copt.seats

function Ctx:choose_all(seats, name, by_seat)
  if self._entering then not_in_entry(self, "g:choose_all") end
  local game = GAMES[self] or game_of(self, "g:choose_all")
  local nseats = check_seats(seats, game.players, "g:choose_all")
  if type(by_seat) ~= "table" or getmetatable(by_seat) ~= nil then
    error("g:choose_all: the options by seat must be a plain table", 2)
  end
  local bot = game._bot
  if bot and not (self._cons and self._cons[name]) then
    -- The simulation's bot answers inside: each seat's options checked as
    -- below as it takes them (one C call a seat, no copies: nothing runs
    -- between the check and the choice). A list that fails its check ends
    -- the step as below, after the seats before it chose: the step is
    -- undone either way.
    local players, chosen = game.players, {}
    for i = 1, nseats do
      local s = rawget(seats, i)
      chosen[s] = bot(s, rawget(by_seat, s), name, players, "g:choose_all")
    end
    return chosen
  end
  local lists = {}        -- the engine's own copies: seats and their lists, read raw once
  for i = 1, nseats do
    local s = rawget(seats, i)
    local o = rawget(by_seat, s)
    local _, plain = check_options(o, s, name, game.players, "g:choose_all")
    lists[s] = plain or o
  end
  seats = { table.unpack(seats, 1, nseats) }
  by_seat = lists
  local cons, maps = self._cons, nil
  cons = cons and cons[name]
  if cons then
    local filtered = {}
    for _, s in ipairs(seats) do
      local kept, map = allowed(self, cons, s, name, by_seat[s])
      filtered[s] = kept
      if map then maps = maps or {}; maps[s] = map end
    end
    by_seat = filtered
  end
  local chosen
  if bot then
    chosen = {}
    for _, s in ipairs(seats) do chosen[s] = bot(s, by_seat[s], name) end
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
  local game = GAMES[self] or game_of(self, "g:choose_orders")
  local nseats = check_seats(seats, game.players, "g:choose_orders")
  if type(name) ~= "string" then
    error(format("bad argument #2 to 'choose_orders' (a decision name expected, got %s)", type(name)), 2)
  end
  if type(enter) ~= "function" then
    error(format("bad argument #3 to 'choose_orders' (a function enter(g, seat) expected, got %s)",
      type(enter)), 2)
  end
  seats = { table.unpack(seats, 1, nseats) }
  if game._bot then
    -- The simulation's bot answers inside: the seats enter one after the
    -- other, in the order of `seats`, which records the steps exactly as
    -- the reveal of an order entered step by step does.
    -- g:choose checks that an entry chooses only for its own seat
    -- (entering_ctx, entering_seat).
    local orders, rng, drafts = {}, sandbox.current_rng, {}
    sandbox.current_rng = nil
    self._drafts = drafts
    -- while g.choose is the bot's (M.enter_sim), the bot's runner of an
    -- entry tells it whose entry runs (lua/engine/playout.c, bot_entry)
    local entry = game._method_entry
    for i = 1, nseats do
      local s = seats[i]
      local outer_ctx, outer_seat = entering_ctx, entering_seat
      self._entering, entering_ctx, entering_seat = s, self, s
      local draft = {}
      drafts[s] = draft
      local order
      if entry then order = entry(enter, self, s, draft) else order = enter(self, s, draft) end
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

-- Set while kontor.seat replays the moves a seat's undo would take back:
-- whether one of them drew a chance outcome (logged for all to see; the
-- same seed and moves give it again, so the seat would know it).
local CHANCE_WATCH = { on = false, drawn = false }

function Ctx:chance(name, options, weights)
  if self._entering then not_in_entry(self, "g:chance") end
  if self._manual_chance then
    local _, plain = check_options(options, 0, name, nil, "g:chance")
    return yield(CHANCE, 0, name, plain or options)
  end
  local k = draw(self.rng, options, name, weights)   -- checks the options and the weights
  if CHANCE_WATCH.on then CHANCE_WATCH.drawn = true end
  if not self._quiet then self._log:add(format("chance %s: %s", name, option_text(options[k]))) end
  return k
end

-- A decision the rules skip (nobody to ask, or nothing to choose): no
-- step, but a trace a script can read with g:skipped() (issue 12). Kept
-- flat, five entries a skip (seat, decision, why, turn, and the count of
-- log lines before it, which places it among them in kontor play's
-- summary of what happened since a seat's turn), so that a skip makes no
-- table; Game:skipped makes the records when asked.
-- (The entries are set in order, first to last: a multiple assignment
-- sets the last first, which lands beyond the list's array part, in its
-- hash, and a rehash moves it back: that cost more than the rest of a skip.
-- _skipped is read as a field: a plain field of g, which Ctx has not.)
function Ctx:skip(seat, name, why)
  if inspecting() then refuse("g:skip") end
  -- (not in an order entry: the skip is public, and the others would read
  -- in it what the seat has entered while its order is still secret)
  if self._entering then not_in_entry(self, "g:skip") end
  local list = self._skipped
  local n = #list
  -- false for a missing one: a hole would leave #list undefined
  list[n + 1] = seat or false
  list[n + 2] = name or false
  list[n + 3] = why or false
  list[n + 4] = self.turn or false
  list[n + 5] = self._quiet and 0 or #self._log
end

-- g:skip while the simulation's bot plays a game that keeps no trace
-- (M.enter_sim).
local function skip_untraced(self)
  if self._entering then not_in_entry(self, "g:skip") end    -- as Ctx:skip
end

-- game._turn_hook: lua/kontor/fork.lua's snapshot, called before a turn
-- begins (only in the engine's own replays for search).

function Ctx:begin_turn(seat)
  local game = GAMES[self]
  local hook = game and game._turn_hook
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
    if inspecting() then return t end   -- a view keeps no memo
    orders[first] = t
  end
  return t
end

function Ctx:log(fmt, ...)
  -- (refused in an entry in the simulation too: a script that logs there
  -- fails in kontor sim as it does at the table)
  if self._entering then not_in_entry(self, "g:log") end
  if self._quiet then return end
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
  local game = GAMES[self]
  if game == nil and outside(self) then
    error("g:stat counts inside a step of the rule script (R.play's g), not from outside the game", 2)
  end
  if game == nil then error("g:stat: call it on the game, as g:stat(...)", 2) end
  if inspecting() then refuse("g:stat") end
  local t = game._stats
  if not t then
    t = {}
    game._stats = t
  end
  t[name] = (t[name] or 0) + n
end

-- Joins two strings, each pair built once per game: the memo lives in the
-- game (ctx._text), so nothing of it outlives the game or reaches another.
function Ctx:text(a, b)
  local memo = self._text
  local t = memo[a]
  local s = t and t[b]
  if s then return s end
  if inspecting() then return a .. b end   -- a view keeps no memo
  if not t then t = {}; memo[a] = t end
  s = a .. b
  t[b] = s
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
    if rawget(ctx, k) ~= f then error("game/context.lua: new_ctx does not name the method " .. k, 0) end
  end
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

-- A copy of v: a table and every table in it new, no metatable, keys as
-- they are (read raw); anything else as it is. In C (lua/l_core.c): each
-- table made at its size, where a copy in Lua grew each as it filled.
local deep_copy = core.copy

-- The metatable of every game's `g`: hidden, so no script reaches it.
local CTX_META = { __index = Ctx, __metatable = false }

-- The rule script's `g`. Its metatable is CTX_META, hidden
-- (getmetatable(g) is false), names and options are copies of the game's
-- parameters, and the engine keeps its own references to what it reads
-- back (game.players, game.log_obj): a script that replaces g._log,
-- g.players or g.names changes only what it sees itself.
-- The list of player names checked last, and a copy of its names then:
-- the games of a run share one list, whose names are not checked again
-- while they are the same (utf8.len goes through the sandbox's guard, a
-- protected call each).
local checked_list, checked = nil, {}
local function check_names(names)
  if names == checked_list then
    local n = #checked
    local same = names[n + 1] == nil
    for i = 1, n do
      if names[i] ~= checked[i] then same = false; break end
    end
    if same then return end
  end
  local copy = {}
  for i, name in ipairs(names) do
    if type(name) ~= "string" or not utf8.len(name) then
      error(format("the name of player %d is not valid UTF-8 text", i), 0)
    end
    copy[i] = name
  end
  checked_list, checked = names, copy
end

local function new_ctx(game)
  local p = game.params
  -- (a copy for search has the parameters of a game made before: checked)
  if not game.copy and p.names then check_names(p.names) end
  local log, rng = core.log(), core.rng(p.seed)
  game.log_obj, game.players, game.rng = log, p.players, rng
  -- (a copy for search brings a function that copies them, fork.lua)
  local fresh = rawget(game, "fresh_params")
  local names, options
  if fresh then names, options = fresh() else names, options = deep_copy(p.names), deep_copy(p.options) end
  local ctx = setmetatable({
    players = p.players, names = names, options = options,
    rng = rng, turn = 0, active = nil, logging = not game.quiet,
    _log = log, _quiet = game.quiet, _orders = {}, _text = {},
    _manual_chance = p.manual_chance or false,
    _entering = false,      -- the seat whose order entry runs (g:choose_orders)
    _cons = game.cons or false,                  -- false, not nil: g:choose reads it
    -- (g:skip's trace, with room for two skips: a copy for search starts
    -- it empty at every restart, and a list that grows is rehashed as it
    -- reaches 1, 2, 3, 5 and 9 entries)
    _skipped = { nil, nil, nil, nil, nil, nil, nil, nil, nil, nil },
    choose = Ctx.choose, choose_from = Ctx.choose_from, choose_all = Ctx.choose_all,
    choose_orders = Ctx.choose_orders, draft = Ctx.draft, chance = Ctx.chance, skip = Ctx.skip,
    begin_turn = Ctx.begin_turn, next_seat = Ctx.next_seat, turn_order = Ctx.turn_order,
    log = Ctx.log, finish = Ctx.finish, stat = Ctx.stat, text = Ctx.text,
    -- (nil, not stored: they make the table with room for 64 fields, so
    -- the rule set's, set by R.setup or a copy's restore, cause no rehash)
    _room1 = nil, _room2 = nil, _room3 = nil, _room4 = nil,
  }, CTX_META)
  GAMES[ctx] = game
  -- a new ctx starts them afresh; false, not nil: a game's missing field
  -- would run Game.__index
  game._stats, game._bot, game._turn_hook = false, false, false
  game._method, game._method_all, game._method_entry = false, false, false
  game._method_from = false
  return ctx
end

methods_fields(new_ctx({ params = { players = 1, seed = 1 } }))

M.Ctx = Ctx
M.PLAYER, M.ALL, M.CHANCE, M.ORDERS = PLAYER, ALL, CHANCE, ORDERS
M.new_ctx = new_ctx
M.chance_watch = CHANCE_WATCH
M.deep_copy = deep_copy
M.other_seat = other_seat
M.compile_constraints = compile_constraints
M.SHARED_TEXTS = SHARED_TEXTS

-- The number of seats of the game whose `g` is ctx (nil for another table).
function M.seats(ctx)
  local game = GAMES[ctx]
  return game and game.players
end

-- The counts g:stat kept for ctx (nil when the script counted nothing).
function M.stats(ctx)
  local game = GAMES[ctx]
  return game and game._stats
end

-- hook(ctx, seat) runs before each turn of ctx's game begins (fork.lua).
function M.set_turn_hook(ctx, hook)
  GAMES[ctx]._turn_hook = hook
end

-- The simulation's bot starts answering ctx's decisions inside the
-- coroutine (game/playout.lua). Returns what leave_sim puts back.
-- With `method` (a bot with no tally), where no constraint looks at a
-- decision and no turn hook watches the game, g.choose becomes the bot's
-- own C function for the playout (lua/engine/playout.c, bot_method): it
-- does what Ctx.choose does there, and a rule script's g:choose then
-- reaches the bot with no Lua function between them (Caribbean 2p's
-- engine cost a step, tests/bench/same_games.lua: 1,012 -> 534 Ir). Not
-- when the script put its own g.choose. g.choose_all likewise (bot_all;
-- Old World's bids), and g.choose_from (bot_from; Sea Merchants' loading,
-- exchanges, purchases and plays), unless the script put its own.
--
-- Then too (not for a copy for search), g:skip keeps no trace while the
-- bot plays: g.skip is skip_untraced, and the game is marked `untraced`;
-- Game:skipped makes the trace by replaying the record the first time it
-- is asked for, as the driver makes the texts of the steps
-- (driver.hist_texts). A skip's record cost over a thousand
-- instructions, four entries appended to a list, and Caribbean skips
-- about 80 times a game (docs/performance.md).
function M.enter_sim(ctx, bot, method)
  local game = GAMES[ctx]
  game._bot = bot
  if method and not game.cons and not game._turn_hook and rawget(ctx, "_cons") == false
     and rawget(ctx, "choose") == Ctx.choose then
    -- g.choose_all too, unless the script put its own (playout.c, bot_all)
    local own_all = rawget(ctx, "choose_all") ~= Ctx.choose_all
    local own_from = rawget(ctx, "choose_from") ~= Ctx.choose_from
    local m, all, entry, from = bot_method(bot, ctx, game.players, Ctx.choose,
      not own_all and Ctx.choose_all or nil, not own_from and Ctx.choose_from or nil)
    game._method, game._method_all, game._method_entry = m, all or false, entry or false
    game._method_from = from or false
    ctx.choose = m
    if all then ctx.choose_all = all end
    if from then ctx.choose_from = from end
    if not game.copy and rawget(ctx, "skip") == Ctx.skip then
      ctx.skip = skip_untraced
      game.untraced = true
    end
  end
  local outer_ctx, outer_bot, outer_players = sim_ctx, sim_bot, sim_players
  sim_ctx, sim_bot, sim_players = ctx, bot, game.players
  return outer_ctx, outer_bot, outer_players
end

-- The bot stops answering ctx's decisions; the outer playout (if any) is
-- the one running again. g.choose is Ctx.choose again (unless the script
-- put its own), and the bot's, should the script have kept it, is too.
function M.leave_sim(ctx, outer_ctx, outer_bot, outer_players)
  sim_ctx, sim_bot, sim_players = outer_ctx, outer_bot, outer_players
  local game = GAMES[ctx]
  game._bot = false
  local m = game._method
  if m then
    local all, from = game._method_all, game._method_from
    bot_method_close(m, all or nil, from or nil)
    if rawget(ctx, "choose") == m then ctx.choose = Ctx.choose end
    if all and rawget(ctx, "choose_all") == all then ctx.choose_all = Ctx.choose_all end
    if from and rawget(ctx, "choose_from") == from then ctx.choose_from = Ctx.choose_from end
    game._method_all, game._method_entry, game._method_from = false, false, false
    if rawget(ctx, "skip") == skip_untraced then ctx.skip = Ctx.skip end
    game._method = false
  end
  if entering_ctx == ctx then entering_ctx, entering_seat = nil, nil end   -- an entry raised
end

return M
