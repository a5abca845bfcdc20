-- kontor.sandbox: the environment rule scripts run in.
--
-- Allow lists, not deny lists: a rule script sees exactly the names below.
-- Library tables are copies, so a script that replaces string.rep or
-- math.floor changes only its own copy. The limits themselves (instruction
-- budget, memory cap) live in C (lua/l_sandbox.c).

local core = require "kontor.core"
local csb = core.sandbox

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

-- The RNG that math.random draws from: the game whose step is running.
M.current_rng = nil

local function game_random(m, n)
  local rng = M.current_rng
  if not rng then error("math.random: no game is running", 2) end
  if m == nil then return rng:float() end
  if n == nil then m, n = 1, m end
  return rng:int(m, n)
end

local function no_randomseed()
  error("math.randomseed is not available: the game's seed decides", 2)
end

-- Protect the shared string metatable from scripts (getmetatable("")).
getmetatable("").__metatable = false

local real_setmetatable = setmetatable

local function safe_setmetatable(t, mt)
  if type(mt) == "table" and rawget(mt, "__gc") ~= nil then
    error("setmetatable: __gc finalizers are not allowed in rule scripts", 2)
  end
  return real_setmetatable(t, mt)
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

-- A new environment for one rule script (or one variant file).
-- `api` is the rule-script half of the kontor module.
function M.env(api)
  local env = {}
  for _, k in ipairs(BASE) do env[k] = _G[k] end
  for lib, names in pairs(LIBS) do env[lib] = copy(_G[lib], names) end
  env.math.random = game_random
  env.math.randomseed = no_randomseed
  wrap_coroutine(env.coroutine)
  env.pcall = csb.pcall
  env.xpcall = csb.xpcall
  env.setmetatable = safe_setmetatable
  env.getmetatable = getmetatable
  env.unpack = table.unpack
  env.print = function() end  -- rule scripts log through g:log
  env.load = function(chunk, name, mode, e)
    if type(chunk) ~= "string" then
      error("load: rule scripts may load only source text", 2)
    end
    if mode ~= nil and mode ~= "t" then
      error("load: binary chunks are not allowed", 2)
    end
    return csb.load(chunk, name or "=(load)", e or env)
  end
  env.kontor = copy(api, API_NAMES)   -- each script its own table
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
  local ok, value = csb.call(f)
  if not ok then
    if value == csb.FINISH then value = "g:finish() called while loading" end
    return nil, value
  end
  if value == nil then return nil end
  return value, env
end

return M
