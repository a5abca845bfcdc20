-- kontor.game.module_state: a rule script's module-level variables, watched.
--
-- A game is a pure function of its rule set, options, seed and steps
-- (docs/api.md, "Keep all of a game's state on g"). A rule script that
-- keeps a count or a flag in a file-level `local` and changes it as the
-- game goes breaks that quietly: undo, redo, a saved game's load, a
-- reload and every bot's copy for search replay the steps from a state
-- that variable no longer has, and play another game. This file finds the
-- plain values (numbers, strings, booleans) a rule set's functions reach
-- through their upvalues, and says which of them changed, where and when.
-- Tables are not compared (scratch lists and data built once are common
-- and harmless), nor a variable that was nil (a value computed once, when
-- first needed).

local M = {}

local getupvalue, upvalueid, getinfo = debug.getupvalue, debug.upvalueid, debug.getinfo
local format = string.format
local fs = require("kontor.core").fs
local MAX_SCRIPT = require("kontor.files").MAX_SCRIPT

local WATCHED = { number = true, string = true, boolean = true }
-- The engine's own Lua (this folder's parent): not a rule script's.
local ENGINE = debug.getinfo(1, "S").source:match("^(@.*[/\\])game[/\\][^/\\]*$") or "\0"

-- Where a variable is declared: the file's line "local NAME" at the top
-- level (not indented), else the line of the function that uses it.
-- (`files`: for each file read in one call of M.changes, each name on a
-- line "local ... =" -> the first such line: one pass over the file, not
-- one a variable)
local function declared(info, name, files)
  local path = info.source:match("^@(.*)$")
  local names = path and files[path]
  if path and names == nil then
    -- (a regular file of at most a rule file's size, opened without
    -- blocking: never a device or a FIFO, whatever a source names)
    local text = fs.read(path, MAX_SCRIPT)
    names = false
    if text then
      names = {}
      local n = 0
      for l in (text .. "\n"):gmatch("([^\n]*)\n") do
        n = n + 1
        if l:find("^local%s") then
          for w in l:sub(7):match("^[^=]*"):gmatch("[%w_]+") do names[w] = names[w] or n end
        end
      end
    end
    files[path] = names
  end
  local n = names and names[name]
  return format("%s:%d", info.short_src, n or info.linedefined)
end

-- Whether a chunk's source is the engine's own Lua. (`memo`: the answers
-- of one walk. Not one for the process: a source is a text a script may
-- choose, and such a memo kept every one, 38 MB a rule file of 2,000
-- chunks named by 20 KB each, after its games were gone.)
local function engine_source(src, memo)
  local yes = memo[src]
  if yes == nil then
    yes = src:sub(1, #ENGINE) == ENGINE
    memo[src] = yes
  end
  return yes
end

-- The slots of R: { f =, i =, name =, where = }, one per upvalue (by its
-- id), reached from R's functions and the tables they keep, made once per
-- rule set (a reload makes a new R, and so new slots).
local SLOTS = setmetatable({}, { __mode = "k" })

local WALK_LIMIT = 100000     -- table entries and upvalues looked at from one field of R, at most
                              -- (a huge data table does not keep R.play from being looked at)
local TOTAL_LIMIT = 200000    -- ... and from all of R: the walk's own lists stay some 10 MB, within
                              -- the memory the cap keeps for the engine (a rule set may hold 7/8)
local MAX_SLOTS = 1000        -- variables watched, at most (the shipped rule sets: 10 to 30)

local function slots_of(R)
  local slots = SLOTS[R]
  if slots then return slots end
  slots = {}
  -- The functions R names itself, by where they are: R.play, a rule
  -- R.rules.trade, a constraint's R.constraints[2].check (the first name
  -- found, R's fields in the order of their names, two tables deep). A
  -- variable is said to be of the function that uses it, where that has
  -- such a name: a variant's wrapped rule or constraint, not the first of
  -- R's fields whose upvalues lead to it (R.board, R.describe_option).
  local named, name_budget = {}, WALK_LIMIT
  local function name_in(t, path, depth)
    local keys = {}
    for k in next, t do
      name_budget = name_budget - 1
      if name_budget <= 0 then break end
      local tk = type(k)
      if tk == "string" or math.type(k) == "integer" then keys[#keys + 1] = k end
    end
    table.sort(keys, function(a, b)
      if type(a) ~= type(b) then return type(a) == "number" end
      return a < b
    end)
    for _, k in ipairs(keys) do
      local x = rawget(t, k)
      local at = type(k) == "string" and (path .. "." .. k) or format("%s[%d]", path, k)
      if type(x) == "function" then named[x] = named[x] or at
      elseif type(x) == "table" and depth > 0 and name_budget > 0 then name_in(x, at, depth - 1) end
    end
  end
  if type(R) == "table" then name_in(R, "R", 2) end
  local seen, seen_up, total, memo = { [R] = true }, {}, TOTAL_LIMIT, {}
  -- A walk with a list of its own, not a recursion: a rule set's tables may
  -- nest deeper than the C stack (a hostile one: tests/lua/module_state_spec.lua).
  local function walk(root, owner)
    local todo, n, budget = { root }, 1, math.min(WALK_LIMIT, total)
    local function push(x)             -- a function or table not seen yet goes on the list
      local tx = type(x)
      if (tx == "function" or tx == "table") and not seen[x] then
        seen[x] = true
        n = n + 1; todo[n] = x
      end
    end
    while n > 0 and budget > 0 do
      local v = todo[n]
      todo[n], n = nil, n - 1
      if type(v) == "table" then
        for _, x in next, v do
          budget = budget - 1
          push(x)
        end
      else
        local info = getinfo(v, "S")
        if info.what ~= "C" and not engine_source(info.source, memo) then
          local i = 1
          while true do
            local name, x = getupvalue(v, i)
            if name == nil then break end
            budget = budget - 1
            if name ~= "_ENV" then
              local id = upvalueid(v, i)
              if not seen_up[id] then
                seen_up[id] = true
                -- (only a variable that holds a plain value or nil is looked
                -- at again: one that holds a table or a function is walked)
                if (x == nil or WATCHED[type(x)]) and #slots < MAX_SLOTS then
                  slots[#slots + 1] = { f = v, i = i, name = name, owner = named[v] or owner }
                end
                push(x)
              end
            end
            i = i + 1
          end
        end
      end
    end
    total = total - (math.min(WALK_LIMIT, total) - budget)
  end
  -- R's own fields, its functions first, each in the order of their names
  -- and walked whole before the next: the field that names a variable
  -- (R.play) is the first that reaches it, whatever the tables' hash
  -- order, and R's data tables come after its functions
  local names, is_fn = {}, {}
  for k, x in next, R do
    local tx = type(x)
    total = total - 1
    if total <= 0 then break end
    if type(k) == "string" and (tx == "function" or tx == "table") then
      names[#names + 1] = k
      is_fn[k] = tx == "function"
    end
  end
  table.sort(names, function(a, b)
    if is_fn[a] ~= is_fn[b] then return is_fn[a] end
    return a < b
  end)
  for _, k in ipairs(names) do
    if total <= 0 then break end
    local v = R[k]
    if not seen[v] then seen[v] = true; walk(v, "R." .. k) end
  end
  SLOTS[R] = slots
  return slots
end

-- The watched values of R's slots now: { [k] = value } (only plain ones).
function M.snapshot(R)
  local slots, vals = slots_of(R), {}
  for k = 1, #slots do
    local s = slots[k]
    local _, v = getupvalue(s.f, s.i)
    if WATCHED[type(v)] then vals[k] = v end
  end
  return vals
end

-- What is said of slot s that changed from old to v: { text =, public = }
-- (the message, and the same without the values, for a seat: a variable
-- may hold what the seat may not see).
local function message(s, old, v, when, files)
  s.where = s.where or declared(getinfo(s.f, "S"), s.name, files)
  local head = format("%s: '%s', a module-level variable%s, changed %s", s.where, s.name,
    s.owner and (" of " .. s.owner) or "", when)
  local tail = ": undo, a saved game, a reload and the bots replay the steps without it and "
    .. "play another game; keep the game's state on g (docs/api.md)"
  return { text = format("%s (%s)%s", head, M.change(old, v), tail), public = head .. tail }
end

-- The slots whose plain value changed since `before` (a snapshot), each
-- said once (`said`: slot -> true): a list of messages (message above),
-- or nil; `when` says what ran in between. With `update`, `before` is
-- brought up to date as it is read (one pass: a game's watch).
function M.changes(R, before, said, when, update)
  local slots, out, files = slots_of(R), nil, {}   -- (files: each source read once a call)
  for k = 1, #slots do
    local s = slots[k]
    local _, v = getupvalue(s.f, s.i)
    local raw = v                                  -- (a table now reads "a table", not nil)
    if not WATCHED[type(v)] then v = nil end
    local old = before[k]
    if v ~= old and (v == v or old == old) then   -- (NaN, kept as it was, is no change)
      if old ~= nil and not said[k] then
        said[k] = true
        out = out or {}
        out[#out + 1] = message(s, old, v == nil and raw or v, when, files)
      end
      if update then before[k] = v end
    end
  end
  return out
end

function M.shown(v)
  if type(v) == "string" then return format("%q", #v > 20 and v:sub(1, 20) .. "..." or v) end
  return tostring(v)
end

-- A string's 20 characters from character i on, with "..." outside the
-- quotes where it goes on either side.
local function piece(v, i)
  return format("%s%q%s", i > 1 and "..." or "", v:sub(i, i + 19), i + 19 < #v and "..." or "")
end

-- "0 to 1": what a variable held and holds now, told apart. Two values
-- that print alike (0.1 + 0.2 and 0.3; long strings with the same first
-- 20 characters) show more: all the digits, or the strings from where
-- they first differ. A value that is no longer plain is named by its type
-- ("3 to a table"), not as nil.
function M.change(old, v)
  if v ~= nil and not WATCHED[type(v)] then return format("%s to a %s", M.shown(old), type(v)) end
  local a, b = M.shown(old), M.shown(v)
  if a ~= b then return a .. " to " .. b end
  if math.type(old) == "float" or math.type(v) == "float" then
    return format("%.17g to %.17g", old, v)
  end
  if type(old) == "string" and type(v) == "string" then
    local i = 1
    while old:byte(i) == v:byte(i) do i = i + 1 end
    local from = math.max(1, i - 5)
    return format("%s to %s, first different at character %d", piece(old, from), piece(v, from), i)
  end
  return a .. " to " .. b
end

M.slots_of = slots_of
return M
