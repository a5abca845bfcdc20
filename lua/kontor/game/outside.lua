-- kontor.game.outside: g:outside(f, ...), code from outside the game's
-- steps (a REPL line, a front end's own code) held to principle 1: a game
-- changes only by its moves. A change f made some other way is found (in
-- g:state(), and in what it does not show: picture, below), the game
-- rebuilt from its moves, and the change refused with one message
-- (docs/repl.md, "The Lua prompt"; docs/api.md).

local core = require "kontor.core"
local driver = require "kontor.game.driver"

local format = string.format
local rebuild = driver.rebuild

local M = {}

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
function M.run(self, f, ...)
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

return M
