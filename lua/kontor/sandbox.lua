-- kontor.sandbox: the environment rule scripts run in.
--
-- Allow lists, not deny lists: a rule script sees exactly the names below.
-- Library tables are copies, so a script that replaces string.rep or
-- math.floor changes only its own copy. The limits themselves (instruction
-- budget, memory cap) live in C (lua/engine/sandbox.c).

local core = require "kontor.core"
local errors = require "kontor.errors"
local csb = core.sandbox

-- A limit's error comes back from csb.call and csb.resume as an error
-- value of kind "limit" (kontor.errors), made where the limit is reached.
csb.limit_errors(errors.limit)

local M = {}

local BASE = {
  "assert", "error", "ipairs", "next", "pairs", "select", "tonumber",
  "tostring", "type", "rawequal", "rawlen", "rawget", "rawset",
}
local LIBS = {
  string = { "byte", "char", "find", "format", "gmatch", "gsub", "len",
             "lower", "match", "rep", "reverse", "sub", "upper", "pack",
             "packsize", "unpack" },
  table = { "concat", "insert", "move", "pack", "remove", "sort", "unpack" },
  math = { "abs", "ceil", "exp", "floor", "fmod", "huge", "log", "max",
           "maxinteger", "min", "mininteger", "modf", "pi", "sqrt", "tointeger",
           "type", "ult", "sin", "cos", "tan", "asin", "acos", "atan" },
  utf8 = { "char", "charpattern", "codepoint", "codes", "len", "offset" },
  coroutine = { "close", "create", "isyieldable", "running", "status", "yield" },
}

local API_NAMES = { "pile", "counter" }

-- The RNG that math.random draws from: the game whose step (R.setup or
-- R.play) is running; nil at any other time (lua/kontor/game/driver.lua
-- clears it when a step returns), so that R.view, R.board and R.scores
-- cannot move the game they show, nor the game played last.
M.current_rng = nil

local function game_random(m, n)
  local rng = M.current_rng
  if not rng then
    error("math.random: only a step of the game draws (R.view, R.board and R.scores draw nothing)", 2)
  end
  if m == nil then return rng:float() end
  if n == nil then m, n = 1, m end
  return rng:int(m, n)
end

local function no_randomseed()
  error("math.randomseed is not available: the game's seed decides", 2)
end

-- pairs and next in a fixed order (principle 1: a game is a pure function
-- of its inputs). Lua 5.4 seeds its string hashes per process, so the real
-- order of string keys differs from run to run, and with it any game whose
-- script iterates them. Keys come booleans first (false, true), then
-- numbers ascending, then strings bytewise; a table, function or userdata
-- key has no fixed order and is an error.
local KEY_RANK = { boolean = 1, number = 2, string = 3 }
local raw_next, sort = next, table.sort

local function key_less(a, b)
  local ra, rb = KEY_RANK[type(a)], KEY_RANK[type(b)]
  if ra ~= rb then return ra < rb end
  if ra == 1 then return a == false and b == true end
  return a < b
end

-- The keys are gathered and ordered in C (lua/engine/guards.c, "pairs and
-- next in a fixed order"): sorted by `sort` (table.sort: keys all numbers
-- or all strings by its own `<`, the same order as key_less, which
-- compares them with `<` too; mixed keys by key_less), and not sorted at
-- all when they come in order already, as a list's 1..n do.
-- c_pairs(t) -> iterator, t, nil; sorted_keys(t, fname) -> keys, n.
local c_pairs, sorted_keys = csb.ordered(sort, key_less)

local function ordered_pairs(t)
  local mt = getmetatable(t)
  if type(mt) == "table" and rawget(mt, "__pairs") then return rawget(mt, "__pairs")(t) end
  if type(t) ~= "table" then
    error(string.format("bad argument #1 to 'pairs' (table expected, got %s)", type(t)), 2)
  end
  return c_pairs(t)
end

local function ordered_next(t, k)
  if type(t) ~= "table" then
    error(string.format("bad argument #1 to 'next' (table expected, got %s)", type(t)), 2)
  end
  if k == nil then   -- the common use, next(t) == nil: no sort needed
    local first = raw_next(t)
    if first == nil then return nil end
    local best = first
    for key in raw_next, t do
      if not KEY_RANK[type(key)] then
        error(string.format("next: a %s key has no fixed order", type(key)), 2)
      end
      if key_less(key, best) then best = key end
    end
    return best, rawget(t, best)
  end
  local keys, n = sorted_keys(t, "next")
  local lo, hi = 1, n   -- binary search for k, then its successor
  while lo <= hi do
    local mid = (lo + hi) // 2
    local m = keys[mid]
    if m == k then
      local nk = keys[mid + 1]
      if nk == nil then return nil end
      return nk, rawget(t, nk)
    elseif key_less(m, k) then lo = mid + 1 else hi = mid - 1 end
  end
  error("invalid key to 'next'", 2)
end

-- The shared string metatable: hidden from scripts (getmetatable("") is
-- false), and its methods are the string library without `dump`, so that
-- ("").dump is nil as string.dump is (trusted code keeps string.dump).
do
  local smt = getmetatable("")
  local methods = {}
  for k, f in pairs(string) do if k ~= "dump" then methods[k] = f end end
  smt.__index = methods
  smt.__metatable = false
end

local real_setmetatable, real_getmetatable = setmetatable, getmetatable

-- setmetatable and getmetatable for one script. The metatable installed is
-- the script's own copy of the one given, refreshed at every call, and
-- getmetatable gives back the script's table: so a metatable changed after
-- setmetatable cannot become weak (__mode) or finalizable (__gc) behind the
-- check. Weak tables are refused because Lua 5.4.4's emergency collection
-- can free a table still in use when one is involved (luaV_finishset);
-- finalizers because they run at any later time, outside the limits;
-- __close because rule scripts have no to-be-closed values (5.4.4's bugs
-- in closing them: docs/security.md).
--
-- Both maps are weak (the engine's, never a script's): a script that makes
-- a new metatable at every call (`setmetatable({}, { __index = card.crew })`)
-- kept each one, its copy and everything their fields reached for as long
-- as the rule set was loaded, some 0.7 MB a game of Old World's estimate
-- on a bot's copies. copy_of[mt] lives while mt does; original_of[c] while
-- c, the installed copy, does (an ephemeron: c keeps mt alive for
-- getmetatable).
local function metatable_functions()
  local copy_of = real_setmetatable({}, { __mode = "k" })
  local original_of = real_setmetatable({}, { __mode = "k" })
  local function set(t, mt)
    if type(mt) ~= "table" then return real_setmetatable(t, mt) end
    if type(t) ~= "table" then  -- let setmetatable say what is wrong
      return real_setmetatable(t, mt)
    end
    local c = copy_of[mt]
    if not c then c = {}; copy_of[mt] = c; original_of[c] = mt end
    for k in raw_next, c do c[k] = nil end
    for k, v in raw_next, mt do
      if k == "__gc" then
        error("setmetatable: __gc finalizers are not allowed in rule scripts", 2)
      elseif k == "__mode" then
        error("setmetatable: weak tables (__mode) are not allowed in rule scripts", 2)
      elseif k == "__close" then
        error("setmetatable: __close is not allowed in rule scripts (no to-be-closed values)", 2)
      end
      if type(k) == "string" and k:sub(1, 2) == "__" then c[k] = v end
    end
    return real_setmetatable(t, c)
  end
  local function get(t)
    local m = real_getmetatable(t)
    if m == nil then return nil end
    return original_of[m] or m
  end
  return set, get
end

local function copy(src, names)
  local t = {}
  for _, k in ipairs(names) do t[k] = src[k] end
  return t
end

local function wrap_coroutine(co)
  co.resume = csb.coresume
  co.wrap = function(f)
    local c = coroutine.create(f)
    return function(...)
      local res = table.pack(csb.coresume(c, ...))
      if not res[1] then error(res[2], 2) end
      return table.unpack(res, 2, res.n)
    end
  end
  return co
end

-- The secret state rule scripts declare (docs/security.md, "Seat views"):
-- every pile a rule script makes that not every seat may see (vis "owner"
-- or "hidden", fixed when it is made) is registered, at its creation, for
-- the game whose script is running (the game of M.current_rng):
-- secret_piles[rng][pile] = "file:line" where it was made. Weak both ways:
-- nothing here outlives its game or its pile. lua/kontor/fork.lua deals
-- all of them again for a bot and refuses a pile it cannot reach.
M.secret_piles = setmetatable({}, { __mode = "k" })
-- The secret piles a script made while it was loaded, which no game owns
-- (every game that uses one shares it): pile -> "file:line".
M.loaded_piles = setmetatable({}, { __mode = "k" })
local loading = false

-- "file:line" of the caller `level` up (lua/l_pile.c: one C call; it
-- keeps the texts for each function and line)
local made_at = core.pile_place

local function registering_pile(make)
  return function(spec)
    local p = make(spec)
    local rng = M.current_rng
    if (rng or loading) and p:vis() ~= "public" then
      local where = made_at(2)
      if rng then
        local reg = M.secret_piles[rng]
        if not reg then reg = setmetatable({}, { __mode = "k" }); M.secret_piles[rng] = reg end
        reg[p] = where
      else
        M.loaded_piles[p] = where
      end
    end
    return p
  end
end

-- kontor.bad_option(msg): a variant's apply refusing the value of an
-- option, where the option's declared bounds cannot say it (hand_limit's
-- size below the cards the rule set deals, which a variant before it may
-- raise). It raises `msg` as it is (it names the option: no place is
-- added) and keeps it, for the engine to tell the refusal (M.apply) from
-- a failing script: what was asked for does not fit, an error of kind
-- "usage", as an option out of its bounds (the command line exits 2).
-- (The sandbox returns a script's error as a text: an error value of the
-- engine's would not pass.)
-- Only while a variant's apply runs (M.apply): anywhere else (R.setup,
-- R.play, a closure apply left behind) no option is being given, so it is
-- the script's mistake, said at its line, and nothing is kept. (It was
-- kept until the next variant was applied: a game's script that caught
-- its own refusal of 200 MiB held that memory for every later game in
-- the program, red team 6.)
local applying, refused = false, nil

local function bad_option(msg)
  if type(msg) ~= "string" then
    error("kontor.bad_option: the message must be a text, not " .. type(msg), 2)
  end
  if not applying then
    error("kontor.bad_option is for a variant's apply (refusing an option's value), not here", 2)
  end
  refused = msg
  error(msg, 0)
end

-- Calls a variant's apply, f(...), under the sandbox's limits, with
-- kontor.bad_option allowed. Returns true, or false, the error and the
-- message of the kontor.bad_option that raised it (nil when the error is
-- another: a refusal the script caught does not count). Nothing is kept
-- once it returns.
function M.apply(f, ...)
  applying, refused = true, nil
  local res = table.pack(pcall(core.sandbox.call, f, ...))
  local r = refused
  applying, refused = false, nil
  if not res[1] then error(res[2], 0) end
  if res[2] then return true end
  local err = res[3]
  if r and type(err) == "string" and (err == r or err:sub(1, #r + 1) == r .. "\n") then return false, err, r end
  return false, err, nil
end

-- kontor.format(fmt, ...): string.format for a rule script's messages, a
-- table, function or userdata shown by its type ("a table"), not by its
-- address, which changes from run to run (and no metamethod of the value
-- runs: __tostring and __name are not asked).
local function shown_format(fmt, ...)
  local args = table.pack(...)
  for i = 1, args.n do
    local t = type(args[i])
    if t == "table" or t == "function" or t == "userdata" or t == "thread" then args[i] = "a " .. t end
  end
  return string.format(fmt, table.unpack(args, 1, args.n))
end

-- A new environment for one rule script (or one variant file).
-- `api` is the rule-script half of the kontor module.
function M.env(api)
  local env = {}
  for _, k in ipairs(BASE) do env[k] = _G[k] end
  env.pairs, env.next = ordered_pairs, ordered_next
  for lib, names in pairs(LIBS) do env[lib] = copy(_G[lib], names) end
  env.math.random = game_random
  env.math.randomseed = no_randomseed
  wrap_coroutine(env.coroutine)
  env.pcall = csb.pcall
  env.xpcall = csb.xpcall
  env.setmetatable, env.getmetatable = metatable_functions()
  env.unpack = table.unpack
  env.print = function() end  -- rule scripts log through g:log
  env.load = function(chunk, name, mode, e)
    if type(chunk) ~= "string" then
      error("load: rule scripts may load only source text", 2)
    end
    if mode ~= nil and mode ~= "t" then
      error("load: binary chunks are not allowed", 2)
    end
    -- a chunk a script makes is never a file: "@name" would have the
    -- engine (a message's file:line, the module-level watch) open `name`
    -- (docs/security.md, "Red team 2"); "=name" shows the same text
    if type(name) == "string" and name:sub(1, 1) == "@" then name = "=" .. name:sub(2) end
    return csb.load(chunk, name or "=(load)", e or env)
  end
  env.kontor = copy(api, API_NAMES)   -- each script its own table
  env.kontor.pile = registering_pile(api.pile)   -- seat registry: secret piles registered
  -- constant option lists and families, checked once (docs/api.md, "Constant options")
  env.kontor.options, env.kontor.family = core.options.constant, core.options.constant_family
  env.kontor.format = shown_format
  env.kontor.bad_option = bad_option
  env._G = env
  return env
end

-- Loads and runs a rule script's text in a new environment.
-- Returns the script's value and its environment, or nil and a message
-- (nil and no message: the script returned nothing).
function M.run(source, chunkname, api)
  local env = M.env(api)
  local f, err = csb.load(source, chunkname, env)
  if not f then return nil, err end
  -- no game runs while a script loads: a pile it makes belongs to none
  local rng, was = M.current_rng, loading
  M.current_rng, loading = nil, true
  local ok, value = csb.call(f)
  M.current_rng, loading = rng, was
  if not ok then
    if value == csb.FINISH then value = "g:finish() called while loading" end
    return nil, value
  end
  if value == nil then return nil end
  return value, env
end

return M
