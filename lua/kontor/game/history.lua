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
-- deep inside: "attempt to compare number with string").
local function count_arg(n, name)
  if n == nil then return 1 end
  if math.type(n) ~= "integer" then
    error(string.format("bad argument #1 to '%s' (a whole number expected, got %s)", name, tostring(n)), 3)
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

-- Where two states (g:state()) first differ: the path ("coins[1]",
-- "ships[2][1]", "engine.rng") and both values, or nil. Keys in a fixed
-- order (numbers first, then names), so the answer is the same each time.
local function key_before(x, y)
  local tx, ty = type(x), type(y)
  if tx ~= ty then return tx == "number" end
  if tx == "number" or tx == "string" then return x < y end
  return tostring(x) < tostring(y)
end

local function first_change(a, b, path)
  if type(a) ~= "table" or type(b) ~= "table" then
    if a ~= b and not (a ~= a and b ~= b) then return path, a, b end
    return nil
  end
  local keys = {}
  for k in next, a do keys[#keys + 1] = k end
  for k in next, b do if a[k] == nil then keys[#keys + 1] = k end end
  table.sort(keys, key_before)
  for _, k in ipairs(keys) do
    local sub = type(k) == "string" and k:match("^[%a_][%w_]*$")
      and (path == "" and k or path .. "." .. k) or format("%s[%s]", path, tostring(k))
    local p, x, y = first_change(a[k], b[k], sub)
    if p then return p, x, y end
  end
  return nil
end

local function short(v)
  if type(v) == "table" then return "a table" end
  if type(v) == "string" then return format("%q", #v > 40 and v:sub(1, 37) .. "..." or v) end
  if v == nil then return "nothing" end
  if type(v) == "function" or type(v) == "userdata" or type(v) == "thread" then return "a " .. type(v) end
  return tostring(v)
end

-- What a line may change that g:state() does not show (redteam3): the
-- game's `g` as it is stored (a metatable set on one of its tables, its
-- engine fields g._manual_chance, g.choose, ...), the rule set (g.R, its
-- data) and the game's parameters and moves to redo. Each table reached
-- (raw: no __pairs or __len answers for it) is kept with a copy of its
-- fields and its metatable, each pile, counter and RNG with what it holds;
-- changed() reads them again. The rule script's "_" fields are its
-- scratch (old_world's g._desks) and left out, as in g:state().
local getmt = debug.getmetatable
local ENGINE_SCRATCH = { _log = true, _text = true, _orders = true, _skipped = true }
local PILE_MT, COUNTER_MT, RNG_MT = getmt(core.pile {}), getmt(core.counter { n = 1 }), getmt(core.rng(1))

local function holds(u)
  local mt = getmt(u)
  if mt == PILE_MT then return u:vis() .. ":" .. tostring(u:owner()) .. ":" .. table.concat(u:cards(), ",")
  elseif mt == COUNTER_MT then return table.concat(u:values(), ",")
  elseif mt == RNG_MT then return u:state() end
  return nil
end

-- A key in a path, without calling a script's __tostring or __name (a
-- table used as a key may have one that raises or loops).
local function key_text(k)
  local tk = type(k)
  if tk == "string" or tk == "number" or tk == "boolean" then return tostring(k) end
  return "a " .. tk
end

local function picture(roots)
  local pic = { tables = {}, order = {}, path = {}, ud = {}, root = {} }
  local root
  local function add(v, path)
    local tv = type(v)
    if tv == "table" then
      if not pic.tables[v] then
        pic.tables[v] = true; pic.order[#pic.order + 1] = v; pic.path[v] = path; pic.root[v] = root
      end
    elseif tv == "userdata" and pic.ud[v] == nil then
      pic.ud[v] = holds(v) or false; pic.path[v] = path; pic.root[v] = root
      add(getmt(v), path .. " (its type)")
    end
  end
  local i = 1
  for r = 1, #roots do
    root = r
    add(roots[r][1], roots[r][2])
    while pic.order[i] do
      local t = pic.order[i]
      i = i + 1
      local copy, base = {}, pic.path[t]
      for k, x in next, t do
        if not (t == roots.ctx and type(k) == "string" and k:sub(1, 1) == "_" and (ENGINE_SCRATCH[k]
            or not roots.engine[k])) then
          copy[k] = x
          local sub = type(k) == "string" and k:match("^[%a_][%w_]*$") and (base == "" and k or base .. "." .. k)
            or format("%s[%s]", base, key_text(k))
          add(k, sub); add(x, sub)
        end
      end
      local mt = getmt(t)
      pic.tables[t] = { copy = copy, mt = mt }
      add(mt, (base == "" and "g" or base) .. "'s metatable")
    end
  end
  return pic
end

-- A change at `path` from `was` to `now`, as the message says it.
local function change_text(path, was, now)
  if path:match("^engine%.rng") then return "numbers drawn from the game's random generator" end
  return format("%s: %s to %s", path, short(was), short(now))
end

-- The first change since picture(roots) (of the tables reached from the
-- first `upto` roots), as the message says it.
local function changed(pic, roots, upto)
  for _, t in ipairs(pic.order) do
    local was, path = pic.tables[t], pic.path[t]
    if pic.root[t] > upto then break end
    if getmt(t) ~= was.mt then return (path == "" and "g" or path) .. ": its metatable" end
    local function name(k)
      return type(k) == "string" and k:match("^[%a_][%w_]*$") and (path == "" and k or path .. "." .. k)
        or format("%s[%s]", path, key_text(k))
    end
    for k, x in next, was.copy do
      if rawget(t, k) ~= x then return change_text(name(k), x, rawget(t, k)) end
    end
    for k, x in next, t do
      if was.copy[k] == nil and not (t == roots.ctx and type(k) == "string" and k:sub(1, 1) == "_"
          and (ENGINE_SCRATCH[k] or not roots.engine[k])) then
        return change_text(name(k), nil, x)
      end
    end
  end
  for u, h in next, pic.ud do
    if h and pic.root[u] <= upto and holds(u) ~= h then return pic.path[u] .. " (what it holds)" end
  end
  return nil
end

-- The rule set and the parameters first: after moves the game is rebuilt
-- from its record, and only what outlives that is looked at (upto 2).
-- Puts back what picture() saw of the tables reached from roots `from`
-- (the rule set, the parameters, the moves to redo: a rebuild makes a new
-- `g`, but these it keeps).
local function put_back(pic, from)
  for _, t in ipairs(pic.order) do
    if from[pic.root[t]] then
      local was = pic.tables[t]
      for k in next, t do if was.copy[k] == nil then rawset(t, k, nil) end end
      for k, x in next, was.copy do rawset(t, k, x) end
      debug.setmetatable(t, was.mt)
    end
  end
end

local function roots_of(game)
  local ctx = game.ctx
  local engine = {}
  for k, v in next, ctx do
    if type(k) == "string" and k:sub(1, 1) == "_" and type(v) ~= "table" and type(v) ~= "userdata" then
      engine[k] = true
    end
  end
  return { { game.R, "R" }, { game.params, "params" }, { ctx, "" }, engine = engine, ctx = ctx }
end

-- The moves to redo as a value (g:why puts back a copy of the list).
local function future_of(game)
  local ok, out = pcall(function()
    local t = {}
    for i, f in ipairs(rawget(game, "future")) do t[i] = { rawget(f, 1), rawget(f, 2), rawget(f, 3) } end
    return t
  end)
  return ok and out or false
end

-- Runs f(...) from outside the game's steps (a REPL line, a front end's
-- own code) and keeps principle 1: a game changes only by its moves, so
-- undo, save, replay and reload give it back. If f changed the game some
-- other way (g.coins:add(1, 50), g.ships[1][1] = 3, g.rng:int(1, 6)),
-- the game is rebuilt from its step record, with the moves f made, and
-- the change is refused with one message that names the first field it
-- touched. When f made moves, the game is replayed once to tell them
-- from other changes. What g:state() does not show is looked at too
-- (picture, above). A game whose state could not be read before f is not
-- checked; one whose state f left unreadable is rebuilt.
function Game:outside(f, ...)
  local read, before = pcall(self.state, self)
  local rec, n, ctx = self.rec, #self.rec, self.ctx
  local roots = read and roots_of(self)
  local pic = read and picture(roots)
  local kept = { R = self.R, params = self.params }
  local plain = {}            -- the game's own numbers and flags (g.players, g.kind)
  for k, v in next, self do
    local tv = type(v)
    if tv == "number" or tv == "string" or tv == "boolean" then plain[k] = v end
  end
  local future = future_of(self)
  local res = table.pack(pcall(f, ...))
  if read then
    -- (what the line left for the collector is finalized now: a __gc that
    -- changes the game does it in the line it belongs to)
    collectgarbage()
    local moved = self.rec ~= rec or #self.rec ~= n or self.ctx ~= ctx
    local swapped
    for k, v in next, kept do
      if rawget(self, k) ~= v then swapped = "g." .. k .. ": another table"; rawset(self, k, v) end
    end
    if not moved then
      for k, v in next, plain do
        if rawget(self, k) ~= v then swapped = format("g.%s: %s to %s", k, short(v), short(rawget(self, k))) end
        rawset(self, k, v)
      end
    end
    -- (a move starts a new list)
    if not moved and future and first_change(future, future_of(self) or {}, "") ~= nil then
      swapped = "the moves to redo"
      self.future = future
    end
    -- what the state does not show (after moves: the rule set and the
    -- parameters only, the rest is rebuilt), put back before a rebuild
    local other = changed(pic, roots, moved and 2 or #roots)
    if other then put_back(pic, { true, true, not moved }) end
    other = swapped or other
    local ok, now = pcall(self.state, self)
    local what, rebuilt
    if not ok then
      what = "its state could no longer be read: " .. tostring(now):match("^[^\n]*")
    else
      local canon = before
      if moved then          -- the moves' own state: a replay of the record
        rebuilt = pcall(self.atomically, self, rebuild, self, #self.rec)
        local r
        r, canon = false, nil
        if rebuilt then r, canon = pcall(self.state, self) end
        if not r then canon = nil end
      end
      local path, was, is
      if canon ~= nil then path, was, is = first_change(canon, now, "") end
      what = path and change_text(path, was, is) or other
    end
    if what then
      if not rebuilt then self:atomically(rebuild, self, moved and #self.rec or n) end
      error(format("that changed the game outside a move (%s), so it was put back%s: a game changes only by "
        .. "its moves, which undo, save and replay give back (to start from another position, give the game "
        .. "a scenario: docs/designing-variants.md)", what, moved and ", with the moves made" or ""), 0)
    end
  end
  if not res[1] then error(res[2], 0) end
  return table.unpack(res, 2, res.n)
end

-- The moves a reload could not replay (see reload), while the game is
-- still where that reload left it: { {seat, text}, ... }, oldest first.
function Game:held_moves()
  local h = rawget(self, "held")
  if not h or h.at ~= #self.rec then return {} end
  return { table.unpack(h.moves) }
end

-- Does up to n held moves again (as typed: g:apply); returns how many.
-- A rule-script error raises, as in apply.
function Game:redo_held(n)
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
    self.held = #rest > 0 and { at = #self.rec, moves = rest } or nil
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
  if not R then return nil, unchanged(err) end
  local options, oerr = rules.resolve_options(R, p.given_options)   -- edited defaults count
  if not options then return nil, unchanged(oerr) end
  local moves = self:move_list()
  local all = { table.unpack(moves) }
  for _, m in ipairs(self:held_moves()) do all[#all + 1] = m end
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
  self.held = { at = #self.rec, moves = rest }
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
