-- kontor.game: one game, as a pure function of (rule set + options, seed,
-- actions).
--
-- A rule set's R.play(g) is a program running in a coroutine; it yields at
-- every decision (g:choose, g:choose_all, a manual g:chance). The engine
-- keeps the list of steps taken. Everything else follows from that list:
-- undo and redo replay a prefix of it, a script error is rolled back by
-- replaying it (apply is a transaction), save files store it, reload replays
-- it under re-read rules.
--
-- The rooms of the driver (docs/architecture.md):
--   game/context.lua   the `g` rule scripts call
--   game/driver.lua    the coroutine, settling decisions, recording, rollback
--   game/history.lua   undo, redo, actions, moves, replay, reload
--   game/parse.lua     action texts walked into steps; explanations
--   game/playout.lua   the simulation's fast path
-- This file is the Game type: its public methods, made from those rooms.

local core = require "kontor.core"
local dump_mod   -- kontor.dump, at the first state, view or show
local function dumps() dump_mod = dump_mod or require "kontor.dump"; return dump_mod end
-- kontor.save and game/playout.lua load when first used: a session that
-- never saves or plays out compiles neither (the REPL's first prompt).
local save_mod, playout_mod
local function saves() save_mod = save_mod or require "kontor.save"; return save_mod end
local function playouts() playout_mod = playout_mod or require "kontor.game.playout"; return playout_mod end
local errors = require "kontor.errors"
local context = require "kontor.game.context"
local driver = require "kontor.game.driver"
local parse = require "kontor.game.parse"
local history = require "kontor.game.history"

local inspect = core.sandbox.inspect    -- a call that reads the game and changes nothing of it
local format = string.format
local Ctx = context.Ctx
local step, rebuild, start = driver.step, driver.rebuild, driver.start
local texts_of, check_seat, replay_record = driver.texts_of, driver.check_seat, driver.replay_record

local Game = {}
Game.__index = function(t, k)
  local m = Game[k]
  if m ~= nil then return m end
  local ctx = rawget(t, "ctx")
  return ctx and ctx[k]
end

for _, room in ipairs { parse, history } do
  for k, f in pairs(room.methods) do Game[k] = f end
end
function Game:play_random(...) return playouts().methods.play_random(self, ...) end

local M = {}
M.Game = Game
M.Ctx = Ctx

-- (Made with the fields the engine reads set, false for none, and room for
-- those the driver sets, nil until it does: a missing field runs
-- Game.__index, a function, and a table that grows is rehashed.)
local function new_game(R, params, quiet)
  return setmetatable({ R = R, params = params, quiet = quiet or false, future = {}, copy = false,
    cons = false, cons_of = false, ctx = nil, rec = nil, texts = nil, co = nil, log_obj = nil,
    players = nil, rng = nil, _stats = nil, _bot = nil, _turn_hook = nil, kind = nil,
    _method = nil, _method_all = nil, _method_entry = nil,
    seat = nil, opts = nil, dname = nil, tcache = nil, untraced = false, mwatch = false }, Game)
end

-- A new game played to its end by `bot` (game/playout.lua). The fifth
-- argument (whether to make the texts as it plays) is not read: texts are
-- made from the step record when asked for. `tally`: the balance lab's
-- count of moves (game/playout.lua), or nil.
function M.playout(R, params, bot, max_steps, _, quiet, tally)
  return playouts().playout(new_game(R, params, quiet), bot, max_steps, tally)
end

-- The number of players of a game of R: `players`, or R's default; raises
-- an error value of kind "usage" when it is not a whole number in R's
-- range (`level` as error()'s, for the caller). The one player-count
-- check: kontor.new_game, kontor sim and the balance lab call it.
function M.players_for(R, players, level)
  players = players or R.players.default
  level = level and level > 0 and level + 1 or 0
  -- (3.0 is 3, as --players 3.0 and kontor.sim's games = 3.0 are)
  if math.type(players) == "float" then players = math.tointeger(players) or players end
  if math.type(players) ~= "integer" then
    errors.raise("usage", format("players must be a whole number, not '%s'", tostring(players)), nil, level)
  end
  if players < R.players.min or players > R.players.max then
    -- (a rule set for exactly 2 players read "is for 2 to 2 players")
    local p = R.players
    local msg = p.min == p.max and format("%s is for %d player%s, not %d", R.name, p.min, p.min == 1 and "" or "s",
      players) or format("%s is for %d to %d players, not %d", R.name, p.min, p.max, players)
    errors.raise("usage", msg, { players = players, min = p.min, max = p.max }, level)
  end
  return players
end

-- Creates a game from a loaded rule set and parameters (see kontor.new_game).
function M.new(R, params, quiet)
  local game = new_game(R, params, quiet)
  start(game)
  -- (the first look at the variables waits for the first step: a game
  -- that is only looked at, or the REPL's first prompt, makes none)
  if not game.quiet then game.mwatch = { R = R, snap = false, said = false } end
  return game
end

local function copy_list(t)
  local c = {}
  for i = 1, #t do c[i] = t[i] end
  return c
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
  for k, v in pairs(context.stats(self.ctx) or {}) do out[k] = v end
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
  -- a seat of the game, or chance (0, or "chance" as g:who() names it):
  -- any other is a mistake (seat 9 of a 2-player game has no "none")
  if seat == "chance" then seat = 0 elseif seat ~= 0 then check_seat(self, seat, "options") end
  local texts = texts_of(self, seat)
  if not texts then return {} end
  return copy_list(texts)
end

-- The rule script's module-level variables, watched in a game people
-- play (not in a quiet one: sims and bots' copies; game/module_state.lua).
-- The first method that takes or replays steps takes the first look, and
-- g:warnings() looks again: what changed since is said there, once a
-- variable. (A look at every step cost the test suite's 1.9 million calls
-- 3 s; the front ends ask after each line, request or move.)
local module_state      -- (kontor.game.module_state, loaded at the first step watched)
local function first_look(w, R)
  module_state = module_state or require "kontor.game.module_state"
  w.R, w.snap, w.said = R, module_state.snapshot(R), {}
end

local WATCHED = { "apply", "step", "atomically", "undo", "undo_moves", "redo", "redo_moves", "redo_held",
  "reload", "replay" }

-- The warnings since the last call: a list of messages (file:line
-- first), oldest first. With `viewer` (a seat), without the values a
-- module-level variable had (it may hold what that seat may not see).
function Game:warnings(viewer)
  local w = rawget(self, "mwatch")
  if not (w and w.snap) then return {} end
  if w.R ~= self.R then first_look(w, self.R); return {} end   -- a reload: the new rule set's
  local said = module_state.changes(self.R, w.snap, w.said, "as the game was played", true)
  local out = {}
  for i, m in ipairs(said or {}) do out[i] = viewer and m.public or m.text end
  return out
end

-- Fast path for bots and simulations: option k of `seat` (no parsing).
-- A seat that does not decide now, or an option it does not have, is
-- refused before anything is recorded.
function Game:step(seat, k)
  local opts = driver.options_of(self, seat)
  if seat == nil or opts == nil then
    error(format("g:step: seat %s does not decide now", tostring(seat)), 2)
  end
  if math.type(k) ~= "integer" then
    error(format("g:step: an option's number is a whole number, not %s %s", type(k), tostring(k)), 2)
  end
  if opts[k] == nil then error(format("g:step: seat %s has no option %d (it has %d)", tostring(seat), k, #opts), 2) end
  local ok, err = step(self, seat, k)
  if not ok then
    local n = #self.rec - 1
    rebuild(self, n)
    error(err, 0)
  end
end

-- The decisions the rules skipped so far: { {seat =, decision =, why =,
-- turn =}, ... }, oldest first (read raw, copied: plain data only); with
-- `lines`, each also says how many lines the log had when the rules
-- skipped it (log_lines: kontor play's summary places it so).
local function skipped(self, lines)
  -- a game the simulation's bot played kept no trace: the replay of its
  -- record makes it (context.enter_sim)
  if rawget(self, "untraced") then rebuild(self, #self.rec) end
  local out, list = {}, rawget(self.ctx, "_skipped")
  if type(list) ~= "table" then return out end
  for i = 1, rawlen(list) - 4, 5 do    -- flat: seat, decision, why, turn, log lines (Ctx:skip)
    local seat, name, why, turn = rawget(list, i), rawget(list, i + 1), rawget(list, i + 2), rawget(list, i + 3)
    local at = lines and rawget(list, i + 4)
    out[#out + 1] = { seat = math.type(seat) == "integer" and seat or nil,
                      decision = type(name) == "string" and name or nil,
                      why = type(why) == "string" and why or nil,
                      turn = math.type(turn) == "integer" and turn or nil,
                      log_lines = math.type(at) == "integer" and at or nil }
  end
  return out
end

function Game:skipped() return skipped(self) end

function Game:log()
  return self.log_obj:lines()
end

-- The scores and winners, computed in one armed call that reads only raw
-- numbers: what a rule script returns cannot hang the engine (a looping
-- __index or __lt) or hand it something that is not a score.
function Game:result()
  if self.kind ~= "over" then return nil, "the game is not over" end
  local R, ctx, players = self.R, self.ctx, self.players
  -- (a quiet game, played by kontor sim or a bot's search, is thrown
  -- away: only its piles, counters, RNG and log are watched)
  local ok, res = inspect("R.scores", not self.quiet and ctx, function()
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
  return dumps().state(self.R, self.ctx)
end

function Game:view(seat)
  if seat == nil then error("bad argument #1 to 'view' (a seat expected; g:state() is the whole state)", 2) end
  check_seat(self, seat, "view")
  return dumps().view(self.R, self.ctx, seat, self)
end

-- how: nil, or { key = false }: the board without its key of the short
-- words it uses (R.board's third argument; a front end that showed the key
-- this turn: kontor play).
function Game:show(seat, how)
  check_seat(self, seat, "show")
  if how ~= nil and type(how) ~= "table" then
    error(format("bad argument #2 to 'show' (a table such as { key = false } expected, got %s)", type(how)), 2)
  end
  return dumps().show(self.R, self.ctx, seat, self, how and { key = how.key ~= false } or nil)
end

function Game:invariants()
  local f = self.R.invariants
  if not f then return nil end
  local ok, msg = inspect("R.invariants", self.ctx, f, self.ctx)
  if not ok then return "R.invariants failed: " .. tostring(msg) end
  return msg
end

-- Writes the game to a save file (kontor.save), as `viewer` may see it.
function Game:save(path, viewer)
  if viewer ~= nil and (math.type(viewer) ~= "integer" or viewer < 1 or viewer > self.players) then
    error(format("bad argument #2 to 'save' (a seat 1..%d expected, got %s)", self.players, tostring(viewer)), 2)
  end
  return saves().write(self, path, viewer)
end

-- Ctrl-C in the REPL raises an error of kind "interrupt" (kontor.errors)
-- wherever Lua runs, so it can land
-- inside the engine's own bookkeeping (between recording a step and giving
-- it to the rule script). These calls then put the game back as it was
-- before them: the step record only grows past its old length, so its
-- first entries still describe that game (a rebuild makes a new record).
local function protect(name)
  local f = Game[name]
  Game[name] = function(self, ...)
    local rec, n0 = self.rec, #self.rec
    local future = { table.unpack(self.future) }
    local res = table.pack(pcall(f, self, ...))
    if res[1] then return table.unpack(res, 2, res.n) end
    if errors.kind(res[2]) == "interrupt" then
      replay_record(self, rec, n0)
      self.future = future
    end
    error(res[2], 0)
  end
end
for _, name in ipairs { "apply", "why", "undo", "redo", "undo_moves", "redo_moves" } do protect(name) end

for _, name in ipairs(WATCHED) do
  local f = assert(Game[name], name)
  Game[name] = function(self, ...)
    local w = rawget(self, "mwatch")
    if w and not w.snap then first_look(w, self.R) end
    return f(self, ...)
  end
end

---------------------------------------------------------------------------
-- Copies for search (lua/kontor/fork.lua owns the rest)
---------------------------------------------------------------------------

-- Starts `game` afresh with hook(ctx, seat) called before each turn begins.
M.start_hooked = driver.start_hooked

-- Applies step (seat, k) without a rebuild on failure (the copy is thrown
-- away instead). Returns true, or false and the error.
M.raw_step = step

-- A new copy of a game for search, not started: fork.lua starts it.
-- (Made with room for the fields the driver sets, which are nil until it
-- does: no rehash as a copy for search is started.)
function M.new_copy(R, params)
  return setmetatable({ R = R, params = params, quiet = true, future = {}, copy = true,
    ctx = nil, rec = nil, texts = nil, co = nil, log_obj = nil, players = nil, rng = nil,
    cons = nil, cons_of = nil, _stats = nil, _bot = nil, _turn_hook = nil, kind = nil,
    seat = nil, opts = nil, dname = nil, origin = nil }, Game)
end

-- A game restarted from a turn's beginning (driver.restore).
function M.restore(R, params, fields, turn, active, rng_state, hook, before)
  return driver.restore(M.new_copy(R, params), R, fields, turn, active, rng_state, hook, before)
end
M.seat_label = parse.seat_label
-- g:skipped() with each skip's place in the log (log_lines), for seat views
M.skipped_in_log = function(game) return skipped(game, true) end
M.parse_seat = parse.parse_seat
return M
