-- kontor.errors: the errors a front end acts on, as data.
--
-- An error value has a `kind` and a `message` (what a person reads, one
-- line or a few, never a traceback: a rule script's frames, where there
-- are, are in `traceback`), and may carry fields of its own (kontor sim's failing game: `game`, `seed`,
-- `why`). Front ends read `.kind` (and those fields), never the text:
--
--   usage     what was asked for does not fit: an unknown rule set or
--             variant, players out of range, a bad option, name or seed
--   rules     a rule or variant script is broken or fails while it runs
--             (a syntax error, an error in R.setup, a move that no longer
--             replays under the rules)
--   limit     a rule script reached a limit of the sandbox (time, work,
--             memory): the sandbox returns it as such a value, its field
--             `limit` "time", "work" or "memory" (M.limit)
--   file      a file cannot be read, written or understood (a save file)
--   protocol  a request of kontor serve that is not of the protocol
--   interrupt Ctrl-C, raised wherever Lua was running (its message:
--             "interrupted"); kontor.core.sandbox.catch_sigint(true, e)
--             gives the hook the value to raise (M.interrupt())
--
-- A value prints as its message and its traceback (tostring, ..), and
-- string methods read that (err:find(...), err:match(...)): code that treated errors
-- as text goes on working.

local M = {}

M.KINDS = { usage = true, rules = true, limit = true, file = true, protocol = true,
            interrupt = true }

local Error = {}
local getmt = debug.getmetatable
-- always a string: a rule script that caught an error value may have set
-- its fields, and no code of its may run from here
local function text(e)
  local m = rawget(e, "message")
  return type(m) == "string" and m or "(an error value without a message)"
end

-- The message and, where the value has one, the traceback after it: what
-- the value prints as (front ends show the frames of rule scripts).
local function message(e)
  local tb = rawget(e, "traceback")
  if type(tb) == "string" then return text(e) .. "\nstack traceback:\n" .. tb end
  return text(e)
end

Error.__name = "kontor.Error"
Error.__metatable = false   -- a rule script that catches one cannot reach this table
Error.__tostring = message
Error.__concat = function(a, b)
  if getmt(a) == Error then a = message(a) end
  if getmt(b) == Error then b = message(b) end
  return a .. b
end
-- err:find(...), err:match(...), ...: the string methods, on the message
Error.__index = function(_, k)
  local f = k ~= "dump" and string[k]
  if f then return function(self, ...) return f(message(self), ...) end end
  return nil
end

-- "file:line: " of the function `level` levels above the caller, as
-- error() puts before a message (nothing for a C function).
local function where(level)
  local info = debug.getinfo(level + 2, "Sl")
  if info and info.currentline > 0 then return info.short_src .. ":" .. info.currentline .. ": " end
  return ""
end

-- A new error value: `fields` (optional) are copied into it. A message
-- with a traceback (what a rule script's call returns) keeps the frames
-- apart, in `traceback`: `message` is what a person reads.
function M.new(kind, msg, fields)
  if not M.KINDS[kind] then error("kontor.errors: no error kind '" .. tostring(kind) .. "'", 2) end
  msg = tostring(msg)
  local first, tb = msg:match("^(.-)\nstack traceback:\n(.*)$")
  local e = { kind = kind, message = first or msg, traceback = tb }
  for k, v in pairs(fields or {}) do
    if e[k] == nil then e[k] = v end
  end
  return setmetatable(e, Error)
end

-- Raises an error value. `level` as error()'s: 1 (the default) names the
-- function that called raise, 2 its caller, 0 adds no position. An error
-- value given as `msg` is raised as it is.
function M.raise(kind, msg, fields, level)
  if M.is(msg) then error(msg, 0) end
  level = level or 1
  if level > 0 and type(msg) == "string" then msg = where(level) .. msg end
  error(M.new(kind, msg, fields), 0)
end

-- Raises the error value e, its message led by the position `level`
-- names (as raise's); Ctrl-C's as it is ("interrupted" happened nowhere).
function M.throw(e, level)
  level = level or 1
  if level > 0 and rawget(e, "kind") ~= "interrupt" then e.message = where(level) .. e.message end
  error(e, 0)
end

-- Whether v is an error value.
function M.is(v)
  return getmt(v) == Error
end

-- The kind of an error value; nil for anything else.
function M.kind(v)
  if getmt(v) == Error then return rawget(v, "kind") end
  return nil
end

-- The message of an error value, or tostring(v).
function M.message(v)
  if getmt(v) == Error then return message(v) end
  return tostring(v)
end

-- What to raise when a rule script's call made for `what` (a text such
-- as "sea_merchants: R.estimate") failed with `err`: Ctrl-C's value as it
-- is, so that the front end still sees an interrupt (and a bot that was
-- thinking has not moved); a limit's value with its kind and limit, `what`
-- before its message; anything else the message for people, `what`
-- before it (the script's error, kind rules where it is caught).
function M.context(err, what)
  local k = M.kind(err)
  if k == "interrupt" then return err end
  if k == "limit" then
    err.message = what .. ": " .. text(err)
    return err
  end
  return what .. ": " .. M.message(err)
end

-- Whether err must go on up whatever the code that met it would do with a
-- failed call (keep a default, try the next card): Ctrl-C, and a limit
-- the game reached (time, work, memory).
function M.must_rise(err)
  local k = M.kind(err)
  return k == "interrupt" or k == "limit"
end

-- A fresh value for Ctrl-C to raise: kind "interrupt", "interrupted".
function M.interrupt()
  return M.new("interrupt", "interrupted")
end

-- Whether v is (or tells of) a memory error: a limit error of a rule
-- script's call whose `limit` is "memory", or, outside one (Lua raises
-- its memory error with its own text and no value of ours), whether the
-- sandbox's allocator refused a block since the last call began
-- (kontor.core.sandbox.out_of_memory, which it clears). No text is read.
function M.is_out_of_memory(v)
  if getmt(v) == Error and rawget(v, "kind") == "limit" and rawget(v, "limit") == "memory" then
    return true
  end
  local ok, core = pcall(require, "kontor.core")
  return ok and core.sandbox.out_of_memory() or false
end

-- The kind of what a rule script's call raised: the sandbox returns a
-- limit's error as an error value of kind "limit" (made where the limit
-- is reached: its watchdog, its work counter, its allocator; the value's
-- `limit` is "time", "work" or "memory"); anything else is an error of
-- the script. No text is read.
function M.of_script(msg)
  if M.is(msg) then return M.kind(msg) end
  return "rules"
end

-- The error value of a limit the sandbox reached (kontor.core.sandbox's
-- limit_errors; lua/engine/sandbox.c): `limit` "time", "work" or "memory",
-- `message` the sandbox's, with the script's traceback.
function M.limit(limit, msg)
  return M.new("limit", msg, { limit = limit })
end

return M
