-- kontor.game.history: a game's steps read back and taken back. Undo and
-- redo (by steps, by whole moves, and a secret order's own steps), the
-- record as actions and moves (secret blocks read in seat order, what a
-- viewer may see), replay of move texts, and reload under re-read rules.

local core = require "kontor.core"
local rules = require "kontor.rules"
local driver = require "kontor.game.driver"
local parse = require "kontor.game.parse"
local errors = require "kontor.errors"

local csb = core.sandbox
local new_steps = core.steps
local format = string.format
local start, rebuild, replay_record = driver.start, driver.rebuild, driver.replay_record
local hist_texts, texts_of, check_seat = driver.hist_texts, driver.texts_of, driver.check_seat
local seat_label, is_boundary, walk = parse.seat_label, parse.is_boundary, parse.walk

local M = {}
local Game = {}     -- the Game methods of this file (game/init.lua)
M.methods = Game

-- Takes back up to n of `seat`'s own steps of the secret order it is
-- entering (or has entered, while others still enter theirs); the other
-- seats' entries stay as they are. Returns how many.
local function undo_entry(game, n, seat)
  if game.kind ~= "orders" or not game.entries[seat] then return 0 end
  local texts = hist_texts(game)
  local rec = game.rec
  local drop, k = {}, 0
  for i = #rec, game.ostart + 1, -1 do
    if k == n then break end
    if rec:seat(i) == seat then drop[i] = true; k = k + 1 end
  end
  if k == 0 then return 0 end
  local kept, fut = new_steps(#rec), {}
  for i = 1, #rec do
    if drop[i] then fut[#fut + 1] = { rec:seat(i), texts[i], rec:stop(i) }
    else kept:push(rec:seat(i), rec:option(i)) end
  end
  -- the oldest step undone is redone first: the redo list's last entry
  for j = #fut, 1, -1 do game.future[#game.future + 1] = fut[j] end
  replay_record(game, kept, #kept)
  return k
end

-- n of undo and redo (default 1): a whole number ("x" met a comparison
-- deep inside: "attempt to compare number with string"), not below 0
-- (-1 took back nothing and said nothing).
local function count_arg(n, name)
  if n == nil then return 1 end
  if math.type(n) ~= "integer" then
    error(string.format("bad argument #1 to '%s' (a whole number expected, got %s)", name, tostring(n)), 3)
  end
  if n < 0 then
    error(string.format("bad argument #1 to '%s' (a number of moves, 0 or more, expected, got %d)", name, n), 3)
  end
  return n
end

function Game:undo(n, seat)
  n = count_arg(n, "undo")
  if seat ~= nil then
    check_seat(self, seat, "undo")
    return undo_entry(self, n, seat)
  end
  local texts = hist_texts(self)
  local rec = self.rec
  local len = #rec
  if n > len then n = len end
  if n <= 0 then return 0 end
  for i = len, len - n + 1, -1 do
    self.future[#self.future + 1] = { rec:seat(i), texts[i], rec:stop(i) }
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
  local texts = hist_texts(self)
  local rec = self.rec
  for i = self.ostart + 1, #rec do
    if rec:seat(i) == seat then out[#out + 1] = texts[i] end
  end
  return out
end

function Game:redo(n)
  n = count_arg(n, "redo")
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

-- The steps in canonical order as { seat, text, stop, hidden }: hidden
-- steps are what `viewer` may not see yet, the others' choices in an open
-- g:choose_all decision; the others' steps of an open secret order are
-- left out altogether (even their number is secret), and so are hidden
-- steps when `omit` is set.
local function visible_steps(game, viewer, omit)
  local texts = hist_texts(game)
  local rec = game.rec
  local n = #rec
  local hidden_from = n - (viewer and pending_secret(game) or 0)
  local ostart = viewer and game.kind == "orders" and game.ostart or n
  -- each block of secret steps (an order, or the choices of a
  -- g:choose_all; revealed, or still open) in the order of its seats
  local order = rec:order()
  local out = {}
  for j = 1, n do
    local i = order and order[j] or j
    local s = rec:seat(i)
    if not (i > ostart and s ~= viewer) then
      local hidden = i > hidden_from and s ~= viewer
      if not (hidden and omit) then
        out[#out + 1] = { s, texts[i], rec:stop(i), hidden }
      end
    end
  end
  return out
end

-- The number of steps taken.
function Game:step_count()
  return #self.rec
end

-- Step i in the order taken: its seat, its text and its option number.
-- The texts are made from the record when first asked for (a game a
-- simulation's bot played has none until then).
function Game:step_at(i)
  local texts = hist_texts(self)
  local rec = self.rec
  if math.type(i) ~= "integer" or i < 1 or i > #rec then
    error(format("bad argument #1 to 'step_at' (a step 1..%d expected, got %s)", #rec, tostring(i)), 2)
  end
  return rec:seat(i), texts[i], rec:option(i)
end

-- Steps as canonical texts, "seat: text". With `viewer`, what that seat
-- may see: the choices other seats made in a simultaneous decision that is
-- still open read "(secret)" (or are left out, with `omit`), their steps
-- of secret orders not yet revealed are left out.
function Game:actions(viewer, omit)
  if viewer ~= 0 then check_seat(self, viewer, "actions") end   -- 0: what every seat may see
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

-- The step record in the order it was taken (secret orders as they arrived).
local function taken_steps(game)
  local texts, out = hist_texts(game), {}
  local rec = game.rec
  for i = 1, #rec do out[i] = { rec:seat(i), texts[i], rec:stop(i) } end
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
  n = count_arg(n, "undo_moves")
  local list = merge_moves(taken_steps(self))
  n = math.min(n or 1, #list)
  if n <= 0 then return {} end
  local undone = {}
  for i = #list - n + 1, #list do undone[#undone + 1] = { list[i][1], list[i][2] } end
  -- the steps of those moves: walk back from the end, move by move
  local texts, steps, m = hist_texts(self), 0, 0
  local rec = self.rec
  local i = #rec
  while m < n and i >= 1 do
    steps = steps + 1
    if i == 1 or not continues(texts[i - 1], rec:seat(i - 1), texts[i], rec:seat(i), rec:stop(i)) then
      m = m + 1
    end
    i = i - 1
  end
  self:undo(steps)
  return undone
end

-- Does the next n whole moves of the redo list again; returns how many.
function Game:redo_moves(n)
  n = count_arg(n, "redo_moves")
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
  if viewer ~= 0 then check_seat(self, viewer, "moves") end   -- 0: what every seat may see
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


-- Runs f(...) with the game's own fields kept aside: if f raises (a
-- memory error half-way through the replay of an undo), they are put back,
-- so the game is exactly as it was, and the error is raised again. The
-- replay builds new state (a new step record among it) and does not change
-- the old (only `future` is changed in place: a copy is kept); the old
-- state stays alive meanwhile, so a game using over half the memory cap
-- cannot undo, and says so.
function Game:atomically(f, ...)
  local kept = {}
  for k, v in next, self do kept[k] = v end
  local future = { table.unpack(self.future) }
  local res = table.pack(pcall(f, ...))
  if not res[1] then
    for k in next, self do if kept[k] == nil then rawset(self, k, nil) end end
    for k, v in pairs(kept) do rawset(self, k, v) end
    self.future = future
    kept, future = nil, nil   -- luacheck: ignore 311 (dropped before the collection)
    collectgarbage()
    error(res[2], 0)
  end
  return table.unpack(res, 2, res.n)
end

-- g:outside(f, ...): f run from outside the game's steps, refused if it
-- changed the game other than by moves (kontor.game.outside, loaded at
-- its first use: the REPL's first Lua line, not its start).
function Game:outside(f, ...)
  return require("kontor.game.outside").run(self, f, ...)
end

-- Moves held after the game's steps as they are now: { at = the steps
-- they follow, moves, texts = those steps' texts, seats = their seats }.
-- (The seats too: two secret bids entered in the other order, each seat
-- bidding what the other had, give the same texts and another game.)
local function hold(game, moves)
  local rec, seats = game.rec, {}
  for i = 1, #rec do seats[i] = rec:seat(i) end
  return { at = #rec, moves = moves, texts = { table.unpack(hist_texts(game)) }, seats = seats }
end

-- The held moves while the game is where the reload left it, or undone
-- back from there with the redo list leading to them (its steps and the
-- game's are those the held moves follow); nil once another move was made.
-- The steps are compared seat by seat: in an open secret order or
-- simultaneous choice (Old World's build order, its bids) the seats' steps
-- interleave in any order, and an undo of one seat's step there takes it
-- from the middle of the record (its redo puts it last), which is the same
-- game; elsewhere the rules fix who decides, so the same steps of each
-- seat are the same game. The other seats go on entering while one seat's
-- steps are held: their steps after those keep the held moves, as long as
-- none is of a seat with a held move and the game still waits on every
-- such seat (each seat's steps are checked against its own state only,
-- O15, so the held ones fit as well after them as before).
local function held_of(game)
  local h = rawget(game, "held")
  if not h then return nil end
  local rec, fut = game.rec, game.future
  local n = #rec
  local total = n + #fut
  if total < h.at then return nil end
  local texts = hist_texts(game)
  -- each seat's steps, held's and the game's with its redo list: seat -> { texts }
  local was, now = {}, {}
  for i = 1, h.at do
    local s = h.seats[i]
    local l = was[s] or {}
    was[s] = l
    l[#l + 1] = h.texts[i]
  end
  for i = 1, total do
    local text, s
    if i <= n then text, s = texts[i], rec:seat(i)
    else
      local f = fut[#fut - (i - n) + 1]
      text, s = f[2], f[1]
    end
    local l = now[s] or {}
    now[s] = l
    l[#l + 1] = text
  end
  local held_seat = {}
  for _, m in ipairs(h.moves) do held_seat[m[1]] = true end
  for s, l in pairs(now) do
    local before = was[s] or {}
    -- (a seat with a held move: no step of its own since)
    if #l < #before or (held_seat[s] and #l ~= #before) then return nil end
    for i = 1, #before do if l[i] ~= before[i] then return nil end end
  end
  for s in pairs(was) do if not now[s] then return nil end end
  if total > h.at and #fut == 0 then
    local open = game:who()
    if type(open) ~= "table" then return nil end
    local waiting = {}
    for _, s in ipairs(open) do waiting[s] = true end
    for _, m in ipairs(h.moves) do if not waiting[m[1]] then return nil end end
  end
  return h
end

-- Holds `moves` ({ {seat, text}, ... }) after the game's steps as they
-- are now, as a reload that stopped there would (a loaded save's).
function M.hold(game, moves)
  game.held = #moves > 0 and hold(game, moves) or nil
end

-- The moves a reload could not replay (see reload), while the game is
-- still where that reload left it (or undone back from there, the redo
-- list before them): { {seat, text}, ... }, oldest first.
function Game:held_moves()
  local h = held_of(self)
  if not h then return {} end
  return { table.unpack(h.moves) }
end

-- Does up to n held moves again (as typed: g:apply); returns how many
-- (none while the redo list, which comes before them, is not done).
-- A rule-script error raises, as in apply.
function Game:redo_held(n)
  if #self.future > 0 then return 0 end
  local moves = self:held_moves()
  local done = 0
  while done < (n or 1) and moves[done + 1] do
    local m = moves[done + 1]
    local ok = self:apply(m[2], m[1] ~= 0 and m[1] or nil)
    if not ok then break end
    done = done + 1
  end
  if done > 0 then
    local rest = {}
    for i = done + 1, #moves do rest[#rest + 1] = moves[i] end
    self.held = #rest > 0 and hold(self, rest) or nil
  end
  return done
end

-- After a reload stopped before rest[1] (a move that no longer fits): if
-- the game waits there on several seats at once (a simultaneous choice or
-- secret orders), the other seats' steps of it still fit (each is checked
-- against its own seat's state, O15) and go back in, in order; a seat's
-- step that does not fit stops that seat. Returns the moves still held.
local function keep_open_entries(game, rest)
  local open = game:who()
  if type(open) ~= "table" then return rest end
  local waiting, stopped = {}, { [rest[1][1]] = true }
  for _, s in ipairs(open) do waiting[s] = true end
  local held = { rest[1] }
  for j = 2, #rest do
    local m = rest[j]
    local s = m[1]
    local fits = false
    if waiting[s] and not stopped[s] then
      local ok, res = pcall(game.apply, game, m[2], s)
      fits = ok and res
    end
    if not fits then
      stopped[s] = true
      held[#held + 1] = m
    end
  end
  return held
end

-- A reload's error before any replay: the game has not changed, and the
-- message says so (an error value keeps its kind and script).
local function unchanged(err)
  local prefix = "reload failed, the game is as it was: "
  if errors.is(err) then
    err.message = prefix .. err.message
    return err
  end
  return prefix .. tostring(err)
end

-- Re-reads the rule scripts and replays this game's moves under them.
-- Returns true and the number of moves replayed; or nil and a message: if
-- a move has become illegal, the game stops just before it (the message
-- names it and why) and the moves from there on are held, not lost: the
-- next reload (the rule put back) replays them too, and g:redo_held (the
-- REPL's `redo`) does them again. If the new scripts cannot even start the
-- game, nothing changes.
function Game:reload()
  local p = self.params
  local R, err = rules.load(p.rules, rules.given_variants(self.R))
  if not R then
    -- an option the game was begun with, which the edited file no longer
    -- has: the game keeps it (it is part of the game), so say so
    if errors.kind(err) == "usage" and rawget(err, "unknown_option") then
      err.message = err.message .. ": the game was begun with it and keeps it (put it back in the file, or "
        .. "begin a new game without it)"
    end
    return nil, unchanged(err)
  end
  local options, oerr = rules.resolve_options(R, p.given_options)   -- edited defaults count
  if not options then return nil, unchanged(oerr) end
  local moves = self:move_list()
  local all = { table.unpack(moves) }
  -- held moves undone back from: the redo list's moves come before them
  -- (replayed with them, then undone again: you stay where you were)
  local held_now, ahead = self:held_moves(), 0
  if #held_now > 0 and #self.future > 0 then
    local steps = {}
    for j = #self.future, 1, -1 do
      local f = self.future[j]
      steps[#steps + 1] = { f[1], f[2], f[3] }
    end
    for _, m in ipairs(merge_moves(steps)) do all[#all + 1] = { m[1], m[2] }; ahead = ahead + 1 end
  end
  for _, m in ipairs(held_now) do all[#all + 1] = m end
  local old_R, old_options, old_future, old_held = self.R, p.options, self.future, rawget(self, "held")
  local function restore(msg)
    self.R, p.options = old_R, old_options
    self:replay(moves)
    self.future, self.held = old_future, old_held
    return nil, "reload failed, the game is as it was: " .. tostring(msg)
  end
  self.R, p.options = R, options
  local started, ok, i, why = pcall(self.replay, self, all)
  if not started then return restore(ok) end
  if ok then
    self.future = #all == #moves and old_future or {}
    self.held = nil
    if ahead > 0 then   -- back to where you were, the rest to redo
      self:undo_moves(#all - #moves)
      return true, #moves, #all - #moves
    end
    return true, #all
  end
  -- Keep what replays: stop just before the move that no longer fits,
  -- and hold the rest.
  local kept, rest = {}, {}
  for j = 1, #all do
    if j < i then kept[#kept + 1] = all[j] else rest[#rest + 1] = all[j] end
  end
  local kstarted, kok = pcall(self.replay, self, kept)
  if not kstarted or not kok then return restore(why) end
  rest = keep_open_entries(self, rest)
  self.future = {}
  self.held = hold(self, rest)
  -- stopped past where you were (in the moves you had undone): back there
  if #kept > #moves then self:undo_moves(#kept - #moves) end
  local held = #rest == 1 and "1 move" or (#rest .. " moves")
  -- the reason's first line (with the script's file:line where it names
  -- none: a limit), then what was kept, then the script's traceback
  local tb = tostring(why):match("\nstack traceback:\n.*$") or ""
  return nil, format("reloaded; stopped before move %d '%s: %s': %s (%s from there on kept: "
    .. "put the rule back and reload, or redo)%s", i, seat_label(all[i][1]), all[i][2],
    require("kontor.text").error_place(why), held, tb),
    { index = i, seat = all[i][1], held = held, secret = type(self:who()) == "table" }
end

return M
