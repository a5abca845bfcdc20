-- kontor.game.driver: drives a game's program (R.play, a coroutine) from
-- decision to decision. It records each step taken, settles what the
-- program yields next (a decision, secret choices, secret orders, the end),
-- and rebuilds the game by replaying its steps: undo, and the rollback that
-- makes every step a transaction.

local core = require "kontor.core"
local sandbox = require "kontor.sandbox"
local context = require "kontor.game.context"
local errors = require "kontor.errors"

local csb = core.sandbox
local resume, call, FINISH = csb.resume, csb.call, csb.FINISH
local copt = core.options
local new_steps = core.steps
local push_step = new_steps(1).push      -- (Steps:push, looked up once: a method call looks it up each time)
local option_text, option_texts = copt.text, copt.texts
local same_text, extends_opt = copt.same, copt.extends
local costatus = coroutine.status
local format = string.format
local PLAYER, ALL, CHANCE, ORDERS = context.PLAYER, context.ALL, context.CHANCE, context.ORDERS
local other_seat, new_ctx, deep_copy = context.other_seat, context.new_ctx, context.deep_copy
local compile_constraints = context.compile_constraints
local SHARED_TEXTS = context.SHARED_TEXTS

local M = {}

local function set_over(game)
  game.kind, game.seat, game.dname, game.opts = "over", nil, nil, nil
  game.seats, game.by_seat, game.chosen = nil, nil, nil
  game.entries = nil
end

-- Secret orders, the engine's side. While the game waits for orders
-- (kind "orders"), game.entries[seat] = { co = the entry's coroutine,
-- name and opts = its current decision, or done = true and order }, and
-- the steps entered so far are the tail of the step record after
-- game.ostart, in the order they arrived. Since no entry changes the game,
-- replaying that tail in any order rebuilds the same entries; the step
-- record is read back (actions, moves, save files) with each such block in
-- seat order (its marks: kontor.Steps's order).

-- "file:line: " of the rule script's line an entry stopped at.
local function where(co)
  for level = 1, 8 do
    local info = debug.getinfo(co, level, "Sl")
    if not info then break end
    if info.currentline > 0 and not info.short_src:match("kontor/game/[%w_]+%.lua$") then
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
  if not rawequal(kind, PLAYER) then
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
  local was = sandbox.current_rng
  sandbox.current_rng = nil       -- an entry draws nothing: math.random raises
  local before = rng:state()
  local ok, err = entry_settle(game, seat, e, resume(e.co, ...))
  sandbox.current_rng = was
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
  game.seats, game.enter, game.ostart = seats, enter, #game.rec
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
  game.tcache = false      -- (false, not nil: texts_of reads it, and a missing field runs Game.__index)
  -- (rawequal: what the script yielded may be a table whose == loops,
  -- and this runs outside the limits)
  if ok and rawequal(kind, PLAYER) then
    game.kind, game.seat, game.dname, game.opts = "player", a, b, c
    return true
  end
  if not ok then
    if kind == FINISH then set_over(game); return true end
    return false, kind
  end
  if costatus(game.co) == "dead" then set_over(game); return true end
  if rawequal(kind, CHANCE) then
    game.kind, game.seat, game.dname, game.opts = "chance", a, b, c
    return true
  elseif rawequal(kind, ALL) then
    game.kind, game.dname, game.seat, game.opts = "all", b, nil, nil
    game.seats, game.by_seat, game.chosen = a, c, {}
    game.waiting = #a
    return true
  elseif rawequal(kind, ORDERS) then
    return orders_begin(game, a, b, c)
  end
  return false, format("%s: the rule script yielded a %s outside g:choose (use g:choose, g:choose_all or g:chance)",
    game.R.file or game.R.name, type(kind))
end

-- The game's program returned from a resume: math.random draws from
-- the RNG it drew from before (none, between steps), so that R.view,
-- R.board and R.scores, which run outside steps, draw nothing.
local function resumed(game, was, ...)
  sandbox.current_rng = was
  return settle(game, ...)
end

-- Resumes the game's program with the given values.
local function advance(game, ...)
  local was = sandbox.current_rng
  sandbox.current_rng = game.rng
  return resumed(game, was, resume(game.co, ...))
end

-- Every seat has finished its order (the block of its steps is read back
-- in seat order: their marks in the record) and the rule script gets
-- { [seat] = order }.
function reveal(game)
  local seats, entries, orders = game.seats, game.entries, {}
  for i = 1, #seats do orders[seats[i]] = entries[seats[i]].order end
  game.entries, game.enter, game.ostart = nil, nil, nil
  game.ctx._drafts = nil
  return advance(game, orders)
end

-- Runs a started game's program to its first decision.
local function run_to_decision(game)
  local ok, err = advance(game, game.ctx)
  if not ok then error(err, 0) end
end

-- (Re)starts the game from its parameters: setup, then run to the first
-- decision (`deferred`: not yet; the simulation's playout runs it with its
-- bot inside, so that the first decision too is made as every other).
-- The step record starts empty, and so does the cache of its texts (a
-- copy for search keeps none). Raises a message on a rule-script error.
local function start(game, deferred)
  local R = game.R
  if game.cons_of ~= R then
    game.cons, game.cons_of = compile_constraints(R) or false, R   -- false: read raw (new_game)
  end
  local ctx = new_ctx(game)
  game.ctx = ctx
  game.rec = new_steps(256)          -- room for most games
  game.texts = not game.copy and {} -- false, not nil: a missing field runs Game.__index
  game.untraced = false               -- its skips are traced from the start (context.enter_sim)
  local was = sandbox.current_rng
  sandbox.current_rng = ctx.rng
  local ok, err = call(R.setup, ctx, deep_copy(game.params.scenario))
  sandbox.current_rng = was
  if not ok then
    if errors.kind(err) == "interrupt" then error(err, 0) end   -- Ctrl-C: as it is
    if err == FINISH then err = "g:finish() called during setup" end
    if errors.is(err) then   -- a limit's: its kind (and traceback) goes with it
      rawset(err, "message", format("setting up %s failed: %s", R.name, tostring(rawget(err, "message"))))
      error(err, 0)
    end
    local msg = format("setting up %s failed: %s", R.name, errors.message(err))
    error(msg, 0)
  end
  game.co = csb.thread(R.play)
  if not deferred then run_to_decision(game) end
end


-- Whether `opts` (option values, or their texts) holds an option that
-- extends `text` (so an option equal to `text` there means "stop here":
-- the move so far is complete).
local extends_any = extends_opt

-- Appends option k of `opts`, chosen by `seat`, to the step record (the
-- simulation's bot, lua/engine/playout.c, appends to the same record). With `rank`
-- the step is a secret one, its seat's place in the block's seats
-- (`first`: it begins the block). Its text goes to the texts cache while
-- that is complete; a copy for search, and a game whose steps a playout's
-- bot recorded, have none until asked (hist_texts). The "stop here" mark
-- is worked out for a repeated text, and with `stop_check` for every step
-- (an order's: the step before it in the record is known only at the
-- reveal).
local function record(game, seat, opts, k, rank, first, stop_check)
  local rec, texts = game.rec, game.texts
  if not texts then
    push_step(rec, seat, k, false, rank, first)
    return
  end
  local n = #rec + 1
  local text = opts[k]
  if type(text) ~= "string" then text = option_text(text) end
  texts[n] = text
  local stop = false
  if stop_check or (n > 1 and rec:seat(n - 1) == seat and same_text(texts[n - 1], text)) then
    stop = extends_any(opts, text)   -- rare: a repeated text
  end
  push_step(rec, seat, k, stop, rank, first)
end

-- The place of `seat` in `seats`.
local function rank_of(seats, seat)
  for i = 1, #seats do
    if seats[i] == seat then return i end
  end
end

-- The texts of the steps. A game played out by a simulation's bot kept
-- only each step's seat and option number: replaying the record makes the
-- texts, the first time something reads them.
local rebuild
local function hist_texts(game)
  if game.copy then
    error("a copy of a game for search (kontor.fork) keeps its steps as option numbers, not texts", 3)
  end
  if not game.texts then rebuild(game, #game.rec) end
  return game.texts
end

-- Applies option k of `seat` at the current decision (already validated).
-- Returns true, or false and the script's error (the step is then undone).
local function step(game, seat, k)
  local kind = game.kind
  if kind == "all" then
    -- the secret choices are read back in the order of their seats
    record(game, seat, game.by_seat[seat], k, rank_of(game.seats, seat), next(game.chosen) == nil)
    game.chosen[seat] = k
    game.waiting = game.waiting - 1
    if game.waiting > 0 then return true end
    return advance(game, game.chosen)
  elseif kind == "orders" then
    local e = game.entries[seat]
    record(game, seat, e.opts, k, rank_of(game.seats, seat), #game.rec == game.ostart, true)
    game.tcache = false
    local ok, err = entry_resume(game, seat, e, k)
    if not ok then return false, err end
    if game.waiting > 0 then return true end
    return reveal(game)
  end
  -- (a game that keeps no texts, a copy for search mostly, records the
  -- step here: record's first case, without its call)
  if game.texts then record(game, seat, game.opts, k) else push_step(game.rec, seat, k) end
  local was = sandbox.current_rng
  sandbox.current_rng = game.rng
  return resumed(game, was, resume(game.co, k))
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

-- The texts of the options of `seat` now, cached until the next decision;
-- those of a constant family's options (the same list at every decision
-- that offers it, context.lua) made once, and kept with the list.
local function texts_of(game, seat)
  local opts, who = options_of(game, seat)
  if not opts then return nil, who end
  local shared = SHARED_TEXTS[opts]
  if shared then return shared, who end
  if shared == false then
    shared = option_texts(opts)
    SHARED_TEXTS[opts] = shared
    return shared, who
  end
  local cache = game.tcache
  if not cache then cache = {}; game.tcache = cache end
  local t = cache[opts]
  if not t then t = option_texts(opts); cache[opts] = t end
  return t, who
end

-- Replays steps 1..n of the step record `rec` on a fresh start (a new
-- record: `rec` is only read).
-- Recorded steps run with the replay time limit (core.sandbox.replay): each
-- passed the smaller play limit when it was taken (docs/security.md).
local function replay_steps(game, rec, n)
  start(game)
  for i = 1, n do
    local ok, err = step(game, rec:seat(i), rec:option(i))
    if not ok then error(err, 0) end
  end
end

local function replay_record(game, rec, n)
  csb.replay(replay_steps, game, rec, n)
end

-- Goes back to the first n steps (used by undo and to roll back).
function rebuild(game, n)
  replay_record(game, game.rec, n)
end

local function check_seat(game, seat, fname)
  if seat ~= nil and (math.type(seat) ~= "integer" or seat < 1 or seat > game.players) then
    error(format("bad argument #1 to '%s' (a seat 1..%d expected, got %s)", fname,
      game.players, tostring(seat)), 3)
  end
end

-- Starts `game` afresh with hook(ctx, seat) called before each turn begins
-- (after the first decision). at_start(ctx), if given, runs once R.setup
-- is done, before R.play starts.
function M.start_hooked(game, hook, at_start)
  start(game, at_start ~= nil)
  if at_start then
    at_start(game.ctx)
    run_to_decision(game)
  end
  context.set_turn_hook(game.ctx, hook)
end

-- A game restarted from a turn's beginning: `fields` (a copy of the rule
-- fields of the context then), `turn`, `active` and the RNG's state. R.play
-- runs again from that state (the rule set declares R.resumes_at_turn).
-- Nothing is logged; the step record starts empty.
-- before(ctx), if given, runs before R.play; hook is as in start_hooked.
-- `game` is a new copy (game/init.lua's M.restore).
function M.restore(game, R, fields, turn, active, rng_state, hook, before)
  if game.cons_of ~= R then game.cons, game.cons_of = compile_constraints(R) or false, R end
  local ctx = new_ctx(game)
  for k, v in pairs(fields) do ctx[k] = v end
  ctx.turn, ctx.active = turn, active
  if rng_state then ctx.rng:set_state(rng_state) end   -- (nil: before sets it, fork.lua)
  game.ctx = ctx
  context.set_turn_hook(ctx, hook)
  if before then before(ctx) end
  game.rec, game.texts = new_steps(64), false
  game.co = csb.thread(R.play)
  local ok, err = advance(game, ctx)
  if not ok then error(err, 0) end
  return game
end

M.set_over = set_over
M.advance = advance
M.run_to_decision = run_to_decision
M.start = start
M.step = step
M.rebuild = rebuild
M.replay_record = replay_record
M.hist_texts = hist_texts
M.options_of = options_of
M.dname_of = dname_of
M.texts_of = texts_of
M.check_seat = check_seat
M.extends_any = extends_any
return M
