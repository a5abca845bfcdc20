-- kontor.rules: finding, loading and checking rule sets and variants.
--
-- A rule set is a Lua file that returns a table (docs/api.md). A variant is
-- a file that returns { variant = true, base = "name", apply = function(R,
-- opts) ... end, options = {...} }: it states only what it changes.

local core = require "kontor.core"
local sandbox = require "kontor.sandbox"
local errors = require "kontor.errors"
local fs = core.fs

local M = {}

M.home = nil  -- set by kontor.init from the program's home folder

-- What goes wrong is an error value (kontor.errors), made here where it
-- is known: kind "usage" for what was asked for (an unknown name, a
-- variant that does not fit, a bad option; `lists_available` when the
-- message lists the names there are), "file" for a file that is not
-- there, and for a broken script "rules" (or "limit": the sandbox's)
-- with `script`, the message's first line without "variant NAME: ".
local function usage(msg, fields) return nil, errors.new("usage", msg, fields) end

local function script_line(msg)
  -- with the script's file:line when the first line names none (an error Lua raises in C)
  local first = require("kontor.text").error_place(msg)
  local rest = first:match("^variant [^%s:]+: (.*)$")
  -- "variant NAME: " stays where nothing else says which file failed (a
  -- memory error has no place)
  if rest and rest:find("[^%s:]:%d") then return rest end   -- (one pass: kontor.text.error_place)
  return first
end

local function broken(msg, kind)
  return nil, errors.new(kind or "rules", msg, { script = script_line(msg) })
end

-- What a script's call raised (`err`), told as `msg`: its kind the
-- sandbox's (kontor.errors.of_script); Ctrl-C's error value as it is.
local function failed(msg, err)
  if errors.kind(err) == "interrupt" then return nil, err end
  if errors.is(err) and rawget(err, "limit") == "memory" then
    -- Lua's own memory error has Lua's text and no place: say which limit
    msg = tostring(msg):gsub("not enough memory$", string.format("memory limit reached (%d MiB)",
      core.sandbox.limits().memory >> 20), 1)
  end
  local _, e = broken(msg, errors.of_script(err))
  if errors.is(err) then rawset(e, "limit", rawget(err, "limit")) end   -- which limit
  -- (a limit's message names no place: script_line adds the script's frame where it was reached)
  return nil, e
end

-- e again, its message `msg` (what it is part of says where).
local function again(e, msg)
  if errors.kind(e) == "usage" then return usage(msg, { lists_available = e.lists_available, near = e.near }) end
  return broken(msg, errors.kind(e))
end

-- The folders searched for rule sets by name, in order.
function M.path()
  local dirs = {}
  local env = os.getenv("KONTOR_PATH")
  if env then
    for d in env:gmatch("[^:]+") do dirs[#dirs + 1] = d end
  end
  if M.home then dirs[#dirs + 1] = M.home .. "/variants" end
  return dirs
end

local function is_path(spec)
  return spec:find("/", 1, true) or spec:match("%.lua$")
end

-- How much of its two ends `n` shares with `word` (of two names as close
-- to a word, the nearer: --gams is --games, not --game).
local function kept(word, n)
  local k = 0
  while k < #n and k < #word and n:byte(k + 1) == word:byte(k + 1) do k = k + 1 end
  local j = 0
  while j < #n - k and j < #word - k and n:byte(#n - j) == word:byte(#word - j) do j = j + 1 end
  return k + j
end

-- Whose option an unknown option is, in words: "the variant hand_limit",
-- or "the variants a, b" when several variants of the rule set have it
-- (`owner`: an unknown option's owner, below).
function M.owner_words(owner)
  local v = owner.variants or { owner.variant }
  return (#v > 1 and "the variants " or "the variant ") .. table.concat(v, ", ")
end

-- The name of `names` closest to `word` (a typo: at most 2 edits, and at
-- most half the word), or nil; of two as close, the one that shares more
-- of its ends with the word, then the first.
-- Each rule set's fields are tried against the engine's names as it
-- loads: a name whose length or letters are too far from the word (three
-- letters of one missing from the other) is passed over before the edit
-- distance, by the letters' bits (kontor.text.letters), kept per list.
local LETTERS = setmetatable({}, { __mode = "k" })   -- names -> their letters' bits
function M.near(word, names)
  local near, nd, nk = nil, 3, -1
  local text = require "kontor.text"
  local distance, letters = text.distance, text.letters
  local lw = #word
  local wm, ms = lw <= 64 and letters(word) or 0, LETTERS[names]
  if not ms then
    ms = {}
    for i, n in ipairs(names) do ms[i] = #n <= 64 and letters(n) or 0 end
    LETTERS[names] = ms
  end
  for i = 1, #names do
    local n, m = names[i], ms[i]
    local dl = #n - lw
    local x, y = wm & ~m, m & ~wm                    -- letters of one the other lacks
    x, y = x & (x - 1), y & (y - 1)
    if dl <= 2 and dl >= -2 and (lw > 64 or #n > 64 or x & (x - 1) == 0 and y & (y - 1) == 0) then
      local d = distance(word, n, 2)
      if d < 3 and d <= lw // 2 and (d < nd or (d == nd and kept(word, n) > nk)) then
        near, nd, nk = n, d, kept(word, n)
      end
    end
  end
  return near
end

-- Whether name `n` is nearer `word` than `near` (at distance nd, sharing
-- nk of its ends; nil: none yet), and if so n's distance and ends: as
-- M.near picks from sorted names (the least distance, the most shared,
-- then the first in byte order), in whatever order the names come.
local function nearer(word, n, near, nd, nk)
  local d = require("kontor.text").distance(word, n, 2)
  if d >= 3 or d > #word // 2 or (near and d > nd) then return false end
  local k = kept(word, n)
  if near and d == nd and (k < nk or (k == nk and n > near)) then return false end
  return true, d, k
end

-- name or path -> absolute-ish file path, or nil and a message listing what exists.
function M.find(spec)
  if type(spec) ~= "string" or spec == "" then
    return usage("a rule set name or file is expected")
  end
  if is_path(spec) then
    if fs.exists(spec) then return spec end
    local lua = not spec:match("%.lua$") and spec .. ".lua"   -- ./mine for ./mine.lua
    return nil, errors.new("file", string.format("%s: no such file%s", spec,
      lua and fs.exists(lua) and string.format(" (%s is: give its whole name)", lua) or ""))
  end
  if not spec:match("^[%w_%-]+$") then
    return usage(string.format("'%s' is not a rule set name (letters, digits, _ and -)", spec))
  end
  for _, d in ipairs(M.path()) do
    local p = d .. "/" .. spec .. ".lua"
    if fs.exists(p) then return p end
  end
  local names = {}
  for _, e in ipairs(M.list()) do names[#names + 1] = e.name end
  local near = M.near(spec, names)
  -- a file of that name in the current folder is found only by its path
  local here = not near and fs.exists(spec .. ".lua") and string.format(" (./%s.lua is a file here: give its path, "
    .. "./%s.lua)", spec, spec) or ""
  return usage(string.format("unknown rule set or variant '%s' (available: %s)%s%s",
    spec, #names > 0 and table.concat(names, ", ") or "none",
    near and (": did you mean '" .. near .. "'?") or "", here), { lists_available = true, near = near })
end

-- The rule-script half of the kontor module.
local api = { pile = core.pile, counter = core.counter }
M.api = api

-- The boundary. A rule script's table may carry metatables (a looping
-- __index, a __pairs, a __len) and may be changed by rule code at any time,
-- so the engine never reads it directly. `freeze` copies what the engine
-- reads, inside one armed call (bounded by the limits), with raw access
-- only, and refuses metatables on every table it copies: the engine then
-- reads only its own plain copy. Data tables the engine does not read
-- (R.data, R.cards ...) are passed on as they are, for rule code.
local FUNCS = { "setup", "play", "scores", "winners", "view", "board", "card_text",
                "invariants", "prepare", "apply" }
local STRINGS = { "name", "title", "summary", "base", "spec", "file" }
local getmt, raw_next = debug.getmetatable, next

local function plain(t, what, depth)
  if type(t) ~= "table" then return t end
  if getmt(t) ~= nil then error(what .. " must be a plain table (it has a metatable)", 0) end
  if depth > 4 then error(what .. " is nested too deeply", 0) end
  local c = {}
  for k, v in raw_next, t do
    if type(k) == "table" then error(what .. " has a table as a key", 0) end
    c[k] = plain(v, what, depth + 1)
  end
  return c
end

-- What is wrong with `c`, an entry of R.constraints (nil: nothing): a
-- constraint is a function, or { decisions = { name, ... }, check = function }.
-- Raw reads only: the entry is a rule script's table. (A table with a
-- metatable is freeze's to refuse: "R.constraints must be a plain table".)
local function constraint_fault(c)
  if type(c) == "function" then return nil end
  if type(c) ~= "table" then
    return string.format("is not a function or { decisions = {...}, check = function } (it is a %s)", type(c))
  end
  if getmt(c) ~= nil then return nil end
  if type(rawget(c, "check")) ~= "function" then
    return "has no check function: check = function(g, seat, decision, text, option) ... end"
  end
  local d = rawget(c, "decisions")
  if type(d) == "table" and getmt(d) ~= nil then return nil end
  if type(d) ~= "table" or rawlen(d) == 0 then
    return 'must name its decisions: decisions = { "name", ... }'
  end
  for j = 1, rawlen(d) do
    if type(rawget(d, j)) ~= "string" then return string.format("decisions[%d] is not a decision name", j) end
  end
  return nil
end

local function frozen(R)
  if getmt(R) ~= nil then error("the rule table must be a plain table (it has a metatable)", 0) end
  local E = {}
  for k, v in raw_next, R do E[k] = v end
  for _, f in ipairs(FUNCS) do
    local v = rawget(R, f)
    if v ~= nil and type(v) ~= "function" then
      error(string.format("R.%s must be a function (got %s)", f, type(v)), 0)
    end
  end
  for _, f in ipairs(STRINGS) do
    local v = rawget(R, f)
    if v ~= nil and type(v) ~= "string" then
      error(string.format("R.%s must be a string (got %s)", f, type(v)), 0)
    end
  end
  E.variant = rawget(R, "variant") and true or nil
  for _, f in ipairs { "players", "options", "includes", "replaces", "applied", "stats", "bot_options" } do
    E[f] = plain(rawget(R, f), "R." .. f, 0)
  end
  local explain = plain(rawget(R, "explain"), "R.explain", 4)
  if explain ~= nil then
    if type(explain) ~= "table" then error("R.explain must be a table", 0) end
    for k, v in raw_next, explain do
      if type(v) ~= "function" then
        error(string.format("R.explain[%s] must be a function (got %s)",
          type(k) == "string" and string.format("%q", k) or tostring(k), type(v)), 0)
      end
    end
  end
  E.explain = explain
  -- A constraint is a function, or { decisions = { name, ... }, check = function }
  -- (game.lua's compile_constraints reads the copy).
  local cons = plain(rawget(R, "constraints"), "R.constraints", 2)
  if cons ~= nil then
    if type(cons) ~= "table" then error("R.constraints must be a table", 0) end
    if #cons ~= rawlen(cons) then error("R.constraints must be a list", 0) end
    for i, c in raw_next, cons do
      local fault = constraint_fault(c)
      if fault then error(string.format("R.constraints[%s] %s", tostring(i), fault), 0) end
    end
  end
  E.constraints = cons
  return E
end

-- R -> the engine's copy, or nil and a message naming the file.
local function freeze(R, file)
  local ok, E = core.sandbox.call(frozen, R)
  if not ok then
    if E == core.sandbox.FINISH then E = "g:finish() called while loading" end
    -- The message only: the traceback would show the engine's own code.
    return failed(string.format("%s: %s", file, tostring(E):match("^[^\n]*")), E)
  end
  return E
end
M.freeze = freeze

-- What a variant file may hold (docs/designing-variants.md, "The variant
-- file"); file and spec are the engine's.
local VARIANT_FIELDS = { variant = true, name = true, title = true, base = true, summary = true, options = true,
                         apply = true, includes = true, replaces = true, explain = true,
                         file = false, spec = false }

-- A variant's options: each { default =, type =, min =, max =, values =,
-- doc = }, nothing else (typ = "integer" would be ignored). Returns R, or
-- what bad(message) returns.
local OPTION_FIELDS = { "default", "doc", "max", "min", "type", "values" }
local function check_option_decls(R, bad)
  if R.options == nil then return R end
  if type(R.options) ~= "table" then
    return bad("options must map names to { default = ..., type = ... }, not a " .. type(R.options))
  end
  local names = {}
  for k in pairs(R.options) do names[#names + 1] = tostring(k) end
  table.sort(names)
  for _, k in ipairs(names) do
    local o = R.options[k]
    if type(o) ~= "table" then
      return bad(string.format("option %s must be { default = ..., type = ... }, not a %s (options = { %s = "
        .. "{ default = %s } })", k, type(o), k, type(o) == "string" and string.format("%q", o) or tostring(o)))
    end
    for f in pairs(o) do
      local known = false
      for _, x in ipairs(OPTION_FIELDS) do known = known or x == f end
      if not known then
        local near = M.near(tostring(f), OPTION_FIELDS)
        return bad(string.format("option %s has no field '%s' (fields: %s)%s", k, tostring(f),
          table.concat(OPTION_FIELDS, ", "), near and (": did you mean '" .. near .. "'?") or ""))
      end
    end
  end
  return R
end

-- What the engine reads of a rule set's table (docs/api.md, "Writing a
-- rule set", and docs/bots.md): a field one or two letters away from one
-- of these (R.veiw, R.estimat, R.player) would be left out silently, and
-- the game played without it. A field of the designer's own (R.data,
-- R.cards_in_hand) is left alone.
local RULESET_FIELDS = { "board", "bot_options", "card_kinds", "card_text", "constraints", "decision_words",
                         "describe_option", "estimate", "explain", "invariants", "move_words", "name",
                         "options", "play", "players", "prepare", "resampled", "resumes_at_turn", "score",
                         "scores", "setup", "stats", "summary", "title", "view", "why_won", "winners" }
-- (the engine's own, and a variant's fields: a variant without variant =
-- true is told so below)
local RULESET_KNOWN = { applied = true, file = true, spec = true, variant = true, base = true, apply = true,
                        includes = true, replaces = true }
for _, f in ipairs(RULESET_FIELDS) do RULESET_KNOWN[f] = true end
-- The kind of value each of them holds.
local FIELD_TYPE = { bot_options = "table", card_kinds = "table", constraints = "table", decision_words = "table",
                     explain = "table", move_words = "table", options = "table", players = "table",
                     stats = "table", name = "string", summary = "string", title = "string",
                     resumes_at_turn = "boolean" }
for _, f in ipairs(RULESET_FIELDS) do FIELD_TYPE[f] = FIELD_TYPE[f] or "function" end
-- the engine's fields by the type of their value: a field is checked
-- against those of its own type only
local FIELDS_OF = {}
for _, f in ipairs(RULESET_FIELDS) do
  local t = FIELD_TYPE[f]
  FIELDS_OF[t] = FIELDS_OF[t] or {}
  table.insert(FIELDS_OF[t], f)
end
local NO_FIELDS = {}

-- "FILE:LINE" of the first line, not a comment, that sets field k of the
-- rule set (R.k = ..., function R.k(, or k = inside the table), or "FILE".
local function field_line(file, k)
  local src, n = fs.read(file) or "", 0
  k = k:gsub("%p", "%%%0")
  for line in (src .. "\n"):gmatch("([^\n]*)\n") do
    n = n + 1
    if not line:match("^%s*%-%-") and (line:find("R%." .. k .. "%f[^%w_]")
        or line:find("%f[%w_]" .. k .. "%s*=%f[^=]")) then
      return file .. ":" .. n
    end
  end
  return file
end

local function check_ruleset(R, file)
  local function bad(msg) return broken(file .. ": " .. msg) end
  if type(R) ~= "table" then
    return bad("the rule script must return a table (got " .. type(R) .. ")")
  end
  if not R.variant then
    local keys = {}
    for k in pairs(R) do if type(k) == "string" then keys[#keys + 1] = k end end
    table.sort(keys)
    for _, k in ipairs(keys) do
      -- only a field of the kind the near one holds: a designer's own
      -- R.names (a table) is not a misspelt R.name (a text)
      local near = not RULESET_KNOWN[k] and M.near(k, FIELDS_OF[type(R[k])] or NO_FIELDS)
      if near then
        return broken(string.format("%s: R.%s is not a field the engine reads, so the game would be played "
          .. "without it: did you mean R.%s? (docs/api.md, \"Functions a rule set may define\")",
          field_line(file, k), k, near))
      end
    end
  end
  if R.variant then
    -- a misspelt field (aply, option) would be left out silently: the
    -- variant would change nothing; so would a function a rule set has
    -- (setup = function ... in a variant). A field of the designer's own
    -- (author, notes) is left alone.
    local keys = {}
    for k in pairs(R) do keys[#keys + 1] = tostring(k) end
    table.sort(keys)
    for _, k in ipairs(keys) do
      if VARIANT_FIELDS[k] == nil then
        local names = {}
        for n, own in pairs(VARIANT_FIELDS) do if own then names[#names + 1] = n end end
        table.sort(names)
        local near = M.near(k, names)
        if near then
          return bad(string.format("a variant has no field '%s' (fields: %s): did you mean '%s'?", k,
            table.concat(names, ", "), near))
        elseif type(R[k]) == "function" then
          return bad(string.format("a variant has no field '%s' (fields: %s): a variant changes the rule set "
            .. "in apply = function(R, opts) ... end (there: R.%s = ...)", k, table.concat(names, ", "), k))
        end
      end
    end
    for _, f in ipairs { "includes", "replaces" } do   -- includes = "hand_limit" was read as no list
      if R[f] ~= nil and type(R[f]) ~= "table" then
        return bad(string.format("%s must be a list (%s = { \"hand_limit\" }), not a %s", f, f, type(R[f])))
      end
    end
    return check_option_decls(R, bad)
  end
  if type(R.setup) ~= "function" and (R.base ~= nil or R.apply ~= nil) then
    return bad(string.format("the file has %s but not variant = true: a variant returns "
      .. "{ variant = true, base = ..., apply = function(R, opts) ... end }", R.base ~= nil and "base" or "apply"))
  end
  for _, f in ipairs { "setup", "play", "scores" } do
    if type(R[f]) ~= "function" then
      return bad(string.format("the rule set has no function R.%s", f))
    end
  end
  if type(R.name) ~= "string" then return bad("the rule set has no name (R.name)") end
  local p = R.players
  if type(p) ~= "table" or math.type(p.min) ~= "integer" or math.type(p.max) ~= "integer"
      or p.min < 1 or p.max < p.min then
    return bad("R.players must be { min = m, max = n } with 1 <= m <= n")
  end
  if p.default ~= nil and (math.type(p.default) ~= "integer" or p.default < p.min or p.default > p.max) then
    return bad("R.players.default must be a whole number from min to max")
  end
  p.default = p.default or p.min
  R.options = R.options or {}
  for k, o in pairs(R.options) do
    if type(k) ~= "string" or type(o) ~= "table" then
      return bad("R.options must map names to { default = ..., type = ... }")
    end
  end
  R.explain = R.explain or {}
  return R
end

-- Loads one file (rule set or variant). Returns the engine's checked copy
-- of its table and the script's own table (which variants change), or nil
-- and a message with file:line.
function M.load_file(file)
  local src, err = fs.read(file)
  if not src then return nil, errors.new("file", err) end
  local R, msg = sandbox.run(src, "@" .. file, api)
  if R == nil then
    if msg then return failed(msg, msg) end
    return broken(file .. ": the rule script returned nothing")
  end
  if type(R) ~= "table" then
    return broken(file .. ": the rule script must return a table (got " .. type(R) .. ")")
  end
  local E, ferr = freeze(R, file)
  if not E then return nil, ferr end
  local checked, cerr = check_ruleset(E, file)
  if not checked then return nil, cerr end
  E.file = file
  return E, R
end

-- A value as the command line's "name:k=v" gives it: a text, a number,
-- true or false, a list of them as "a/b" (as option_value reads it); nil
-- for anything else. (tostring put a table's address in the unknown
-- option's hint, "hand_limit:size=table: 0x7fd5e9f19c40", which serve
-- told its client, and in option_value's refusals of a save's or a
-- request's list: red team 6.)
local function typed_as(v)
  local t = type(v)
  if t == "string" or t == "number" or t == "boolean" then return tostring(v) end
  if t == "table" and getmetatable(v) == nil then
    local items = {}
    for i = 1, rawlen(v) do
      local x = rawget(v, i)
      if type(x) ~= "string" and type(x) ~= "number" then return nil end
      items[i] = tostring(x)
    end
    if #items > 0 then return table.concat(items, "/") end
  end
  return nil
end

-- A value given, quoted for a refusal ('5', '1/2'), or its kind (a table).
local function value_said(v)
  local t = typed_as(v)
  return t and ("'" .. t .. "'") or ("a " .. type(v))
end

local function option_value(name, decl, v, owner)
  local t = decl.type or math.type(decl.default) or type(decl.default)
  local function bad(why)
    return usage(string.format("option %s of %s: %s", name, owner, why))
  end
  -- a number or yes/no for a text option is its text: a save records a
  -- number as a number, and a variant edited since may have made that
  -- option a text (the save still loads, "5" as typed on a command line)
  if t == "string" and (math.type(v) == "integer" or type(v) == "boolean") then v = tostring(v) end
  if type(v) == "string" and t ~= "string" then
    if t == "integer" then v = math.tointeger(tonumber(v)) or v
    elseif t == "boolean" then
      if v == "true" or v == "yes" or v == "1" then v = true
      elseif v == "false" or v == "no" or v == "0" then v = false end
    elseif t == "list" then
      local l = {}
      for item in v:gmatch("[^/]+") do l[#l + 1] = math.tointeger(tonumber(item)) or item end
      v = l
    end
  end
  if t == "integer" then
    if math.type(v) ~= "integer" then return bad(string.format("%s is not a whole number", value_said(v))) end
    if decl.min and v < decl.min then return bad(string.format("%d is below the minimum %d", v, decl.min)) end
    if decl.max and v > decl.max then return bad(string.format("%d is above the maximum %d", v, decl.max)) end
  elseif t == "boolean" then
    if type(v) ~= "boolean" then return bad(string.format("%s is not true or false", value_said(v))) end
  elseif t == "list" then
    if type(v) ~= "table" then return bad("a list is expected") end
  elseif type(v) ~= "string" then
    return bad(string.format("%s is not a string", value_said(v)))
  end
  if decl.values then
    local ok = false
    for _, x in ipairs(decl.values) do if x == v then ok = true end end
    if not ok then
      return bad(string.format("%s is not one of: %s", value_said(v), table.concat(decl.values, ", ")))
    end
  end
  return v
end

-- Where option `name` is declared in R's file: "FILE:LINE: " (the first
-- line from R.options on that gives it a table), "FILE: " when no line
-- says it, "" without a file. An option's broken declaration is the
-- script's mistake, and the designer goes to that line.
local function declared_at(R, name)
  local file = rawget(R, "file")
  if type(file) ~= "string" then return "" end
  local src = fs.read(file)
  if not src then return file .. ": " end
  local n, options = 0, false
  for line in (src .. "\n"):gmatch("([^\n]*)\n") do
    n = n + 1
    options = options or line:find("%f[%w_]options%s*=") ~= nil
    if options and line:find("%f[%w_]" .. name .. "%s*=%s*{") then return ("%s:%d: "):format(file, n) end
  end
  return file .. ": "
end

local OPTION_TYPE_NAMES = { "boolean", "integer", "list", "string" }
local OPTION_TYPES = {}
for _, t in ipairs(OPTION_TYPE_NAMES) do OPTION_TYPES[t] = true end

-- Resolves option values against a rule set's declarations: unknown names
-- and ill-typed values are errors; missing ones take their defaults.
function M.resolve_options(R, given)
  local out = {}
  given = given or {}
  for k in pairs(given) do
    if not R.options[k] then
      local names = {}
      for n in pairs(R.options) do names[#names + 1] = n end
      table.sort(names)
      local near = M.near(tostring(k), names)
      -- a variant's option given as the rule set's (--option pay=2 for
      -- --variant ./sell_card.lua:pay=2): say whose it is
      local whose, owner
      local applied = rawget(R, "applied") or {}
      for i, v in ipairs(applied) do
        if type(v.options) == "table" and v.options[k] ~= nil and type(v.spec) == "string" then
          local as = string.format("%s:%s=%s", v.spec, tostring(k), typed_as(given[k]) or "VALUE")
          for j = i + 1, #applied do   -- included by a preset (applied after it): set through the preset
            if (applied[j].depth or 0) < (v.depth or 0) then
              as = string.format("%s:%s.%s=%s", applied[j].spec, v.name, tostring(k), typed_as(given[k]) or "VALUE")
              if (applied[j].depth or 0) == 0 then break end
            end
          end
          owner = { variant = v.name, variants = { v.name }, as = as }
          whose = string.format(": '%s' is an option of %s: --variant %s", tostring(k), M.owner_words(owner), as)
          break
        end
      end
      -- an option of a variant of this rule set that is not in the game
      -- (--option size=5 without --variant hand_limit): say which, and how
      -- to add it with the option (an error's path only: the variants on
      -- the search path are loaded to read their options)
      if not whose and rawget(R, "variant") == nil then
        local has = {}
        for _, e in ipairs(M.list(true)) do
          if e.kind == "variant" and e.base == R.name then
            local V = e.R   -- (as the list loaded it: each file once)
            if type(rawget(V, "options")) == "table" and rawget(V.options, k) ~= nil then
              has[#has + 1] = e.name
            end
          end
        end
        if #has > 0 then
          local as = string.format("%s:%s=%s", has[1], tostring(k), typed_as(given[k]) or "VALUE")
          owner = { variant = has[1], variants = has, as = as, added = true }
          whose = string.format(": '%s' is an option of %s, not in this game: add it with --variant %s",
            tostring(k), M.owner_words(owner), as)
        end
      end
      -- (what front ends act on, as data: the option, whose options were
      -- searched, the near name, the variant that has it; `added`: a
      -- variant the game does not have yet)
      local unknown = { option = tostring(k), of = R.name, near = near or nil, owner = owner }
      local said = string.format("unknown option '%s' for %s (options: %s)", tostring(k), R.name,
        #names > 0 and table.concat(names, ", ") or "none")
      unknown.said = said
      return usage(said .. (whose or (near and (": did you mean '" .. near .. "'?") or "")),
        { unknown_option = unknown })
    end
  end
  for k, decl in pairs(R.options) do
    if decl.type ~= nil and not OPTION_TYPES[decl.type] then   -- the script's mistake (type = "int")
      local near
      for _, t in ipairs(OPTION_TYPE_NAMES) do
        if type(decl.type) == "string" and #decl.type >= 3 and t:sub(1, #decl.type) == decl.type then near = t end
      end
      near = near or (type(decl.type) == "string" and M.near(decl.type, OPTION_TYPE_NAMES))
      return broken(string.format("%soption %s of %s: type '%s' is not one of %s%s", declared_at(R, k), k, R.name,
        tostring(decl.type),
        table.concat(OPTION_TYPE_NAMES, ", "), near and (": did you mean '" .. near .. "'?") or ""))
    end
    local v = given[k]
    if v == nil then v = decl.default end
    if v ~= nil then
      local val, err = option_value(k, decl, v, R.name)
      if err and given[k] == nil then
        -- the script's own default: a broken script, not a usage error
        return broken(declared_at(R, k) .. tostring(err):gsub("^(option [^:]+: )", "%1its default "), "rules")
      end
      if err then return nil, err end
      out[k] = val
    end
  end
  return out
end

-- The command-line form of a variant, accepted wherever one is named:
-- "name:k=v,k2=v2" -> "name", { k = "v", k2 = "v2" } (values stay text; the
-- variant's option types convert them). Without ":" -> spec, nil.
function M.parse_variant(s)
  local name, rest = s:match("^([^:]+):(.*)$")
  if not name then return s, nil end
  local opts = {}
  for kv in rest:gmatch("[^,]+") do
    local k, v = require("kontor.text").trim(kv):match("^([%w_][%w_.]*)%s*=%s*(.*)$")   -- (linear: kontor.text.trim)
    if not k then return usage(string.format("bad variant option '%s' in '%s' (expected k=v)", kv, s)) end
    opts[k] = v
  end
  return name, opts
end

-- A variant as named in a list: a string (maybe "name:k=v,...") or
-- { spec, options = {...} } -> spec, options (options given in the table
-- win over those in the text), or nil and a message.
local function variant_spec(v)
  local spec, opts = v, nil
  if type(v) == "table" then spec, opts = v[1] or v.spec, v.options end
  if type(spec) ~= "string" then
    return usage(string.format("a variant is a name, a file or { name, options = {...} }, not %s",
      type(spec) == "nil" and "a table without a name" or ("a " .. type(spec))))
  end
  local name, parsed = M.parse_variant(spec)
  if not name then return nil, parsed end
  if parsed then
    for k, x in pairs(opts or {}) do parsed[k] = x end
    opts = parsed
  end
  return name, opts
end

-- The options as `apply` gets them: reading one the variant does not
-- declare (opts.treshold for threshold) is an error at that line, not a
-- nil that changes the rules silently.
local function strict_options(opts, V)
  local view = {}
  for k, v in pairs(opts) do view[k] = v end
  return setmetatable(view, { __index = function(_, k)
    if V.options[k] ~= nil then return nil end     -- declared, without a value
    local names = {}
    for n in pairs(V.options) do names[#names + 1] = n end
    table.sort(names)
    local near = type(k) == "string" and M.near(k, names)
    error(string.format("opts.%s: variant %s has no option '%s' (options: %s)%s", tostring(k), V.name, tostring(k),
      #names > 0 and table.concat(names, ", ") or "none", near and (": did you mean '" .. near .. "'?") or ""), 2)
  end })
end

-- The names of R.rules (raw: a variant's table runs no metatable here),
-- sorted.
local function rule_names(R0)
  local t, names = rawget(R0, "rules"), {}
  if type(t) ~= "table" then return names end
  for k in next, t do
    if type(k) == "string" then names[#names + 1] = k end
  end
  table.sort(names)
  return names
end

-- The string keys of R.data and of each table in it, sorted:
-- { ["R.data"] = {...}, ["R.data.price"] = {...}, ... } (raw reads).
local function data_names(R0)
  local out = {}
  local function keys(t)
    local names = {}
    for k in next, t do if type(k) == "string" then names[#names + 1] = k end end
    table.sort(names)
    return names
  end
  local data = rawget(R0, "data")
  if type(data) ~= "table" then return out end
  out["R.data"] = keys(data)
  for k, v in next, data do
    if type(k) == "string" and type(v) == "table" then
      local where = "R.data." .. k
      out[where] = keys(v)
      -- a level deeper: the fields of each entry of a list (Old World's
      -- R.data.buildings[16]) and of each table under a name (Caribbean's
      -- R.data.skills.Trader), which a variant sets in a loop or through a
      -- local, where its text never says R.data.buildings
      for k2, v2 in next, v do
        if type(v2) == "table" then
          if type(k2) == "string" then out[where .. "." .. k2] = keys(v2)
          elseif math.type(k2) == "integer" then out[where .. "[" .. k2 .. "]"] = keys(v2) end
        end
      end
    end
  end
  return out
end

-- Whether the variant's text `src` names `n` twice or more (where it is
-- set, and where the variant uses it). Only a name of letters, digits and
-- _ is looked for: a key the script made up goes into no pattern.
local function named_again(src, n)
  if not n:match("^[%a_][%w_]*$") then return false end
  local k = 0
  for _ in (src or ""):gmatch("%f[%w_]" .. n .. "%f[^%w_]") do
    k = k + 1
    if k == 2 then return true end
  end
  return false
end

-- "FILE:LINE" of the first line of `src` that names `n` (as a word when
-- it is one, else the text as it is), or "FILE" when none does: where a
-- misspelt name the variant set is, so that the designer goes to it.
local function where_named(file, src, n)
  local k = 0
  for line in ((src or "") .. "\n"):gmatch("([^\n]*)\n") do
    k = k + 1
    local hit = n:match("^[%a_][%w_]*$") and line:find("%f[%w_]" .. n .. "%f[^%w_]") or line:find(n, 1, true)
    if hit then return file .. ":" .. k end
  end
  return file
end

-- A key a variant added to R.data or a table in it that is a
-- misspelling of one there (R.data.price.dok for dock: nothing reads it,
-- and the price stays): { where, added, meant, names }, or nil.
local function misspelt_data(had, now, src)
  local wheres = {}
  for where in pairs(had) do wheres[#wheres + 1] = where end
  table.sort(wheres)
  -- an entry of a list is near the fields of its sister entries too (a
  -- Guild Hall given a misspelt Pier's pier_vp): each list's fields,
  -- gathered once (gathered for each entry, a list of 8,000 entries took
  -- 41 s, out of the time limit's reach, for a variant that added nothing)
  local sisters = {}
  for _, where in ipairs(wheres) do
    local list = where:match("^(.*)%[%d+%]$")
    if list then
      local s = sisters[list]
      if not s then s = { seen = {} }; sisters[list] = s end
      for _, n in ipairs(had[where]) do
        if not s.seen[n] then s.seen[n] = true; s[#s + 1] = n end
      end
    end
  end
  for _, s in pairs(sisters) do s.seen = nil; table.sort(s) end
  -- A bound on the work, which runs out of the time limit's reach: each
  -- added name is compared with every name it may be a misspelling of,
  -- and looked for in the variant's text. A variant that added a name of
  -- its own to each of 10,000 entries took 4.8 s of CPU (100,000: about
  -- 8 min). Past 2,000,000 names compared (a 64th of the text's bytes
  -- counting as one), the names are new data, not a typo: no more checks.
  local budget = 2000000
  local per_text = src and #src // 64 or 0
  for _, where in ipairs(wheres) do
    local old = {}
    for _, n in ipairs(had[where]) do old[n] = true end
    local list = where:match("^(.*)%[%d+%]$")
    local near_of = list and sisters[list] or had[where]
    for _, n in ipairs(now[where] or {}) do
      if not old[n] then
        budget = budget - #near_of - per_text - 1
        if budget < 0 then return nil end
        local meant = not named_again(src, n) and M.near(n, near_of)
        if meant then return { where = where, added = n, meant = meant, names = had[where] } end
      end
    end
  end
end

-- A rule a variant added (in `now`, not in `had`) whose name is a
-- misspelling of one the rule set has (R.rules.payout for payout_count:
-- the new one is never called, and the variant silently changes nothing):
-- { added, meant }, or nil. A new rule with a name of its own is fine, and
-- so is one the variant's own text names again (`src`: it calls the rule
-- it added, say R.rules.draw_bonus beside draw_cards).
local function misspelt_rule(had, now, src)
  local old = {}
  for _, n in ipairs(had) do old[n] = true end
  for _, n in ipairs(now) do
    if not old[n] and not named_again(src, n) then
      local near = M.near(n, had)
      if not near and #n >= 4 then
        for _, h in ipairs(had) do
          if h:find(n, 1, true) or n:find(h, 1, true) then near = h; break end
        end
      end
      if near then return { n, near } end
    end
  end
end

-- A preset's unknown option that one of its members has (house:size=5,
-- which hand_limit has): the error `err` says how to give it,
-- house:hand_limit.size=5. Any other error as it is.
local function member_option(V, vspec, vfile, own, err)
  local u = errors.is(err) and rawget(err, "unknown_option")
  if not u or rawget(err, "kind") ~= "usage" or type(V.includes) ~= "table" then return err end
  for _, inc in ipairs(V.includes) do
    local name = M.parse_variant(type(inc) == "table" and inc[1] or inc)
    local named = type(name) == "string" and require("kontor.files").named_in(name, vfile)
    local file = named and M.find(named)
    local M2 = file and M.load_file(file)
    if type(M2) == "table" and type(M2.options) == "table" and M2.options[u.option] ~= nil then
      local member = M2.name or name
      local as = string.format("%s:%s.%s=%s", vspec, name, u.option, tostring(own[u.option]))
      u.owner = { variant = member, as = as }
      return errors.new("usage", string.format("%s: '%s' is an option of %s, which %s includes: --variant %s",
        u.said, u.option, member, V.name, as), { unknown_option = u })
    end
  end
  return err
end

-- "FILE:LINE" of the first line of `file` that sets `field` ("base =
-- ..."), for a message about its value; FILE alone when no line does (a
-- value made in code).
local function field_place(file, field)
  local src = fs.read(file)
  if not src then return file end
  local n = 0
  for line in src:gmatch("[^\n]*") do
    n = n + 1
    if not line:match("^%s*%-%-") and line:find("%f[%w_]" .. field .. "%s*=%f[^=]") then
      return file .. ":" .. n
    end
  end
  return file
end

-- Applies one variant file (and, for a preset, the variants it includes)
-- to R0, the rule set's own table, loaded fresh for this composition; `E`
-- is the engine's copy of the rule set (its name), `extra` collects the
-- variants' explanations and `applied` what was applied. `claims` maps what
-- a variant replaces ("the special cards") to the variant that did.
local function apply_variant(E, R0, vspec, vopts, claims, depth, extra, applied)
  if depth > 8 then return usage("variants include each other too deeply (a cycle?)") end
  local vfile, verr = M.find(vspec)
  if not vfile then return nil, verr end
  local V, vlerr = M.load_file(vfile)
  if not V then return nil, vlerr end
  if not V.variant then
    return usage(string.format("%s is a rule set, not a variant (a variant returns { variant = true, base = ..., apply = function(R, opts) ... end })", vfile))
  end
  V.name = V.name or vspec
  if V.base and V.base ~= E.name then
    local sets, known = {}, false
    for _, e in ipairs(M.list()) do
      if e.kind == "rules" then sets[#sets + 1] = e.name; known = known or e.name == V.base end
    end
    if not known then   -- a typo in the file: no rule set has that name
      local near = type(V.base) == "string" and M.near(V.base, sets)
      return broken(string.format("%s: base = '%s' names no rule set (rule sets: %s)%s", vfile,
        tostring(V.base), table.concat(sets, ", "), near and (": did you mean '" .. near .. "'?") or ""))
    end
    return usage(string.format("%s: variant %s is for %s, not %s", field_place(vfile, "base"), V.name, V.base, E.name),
      { wrong_base = { variant = V.name, base = V.base, rules = E.name } })
  end
  for j, a in ipairs(applied) do
    -- a variant applied twice would wrap its rules twice (a payout
    -- doubled twice); `replaces` caught it only where the variant says it
    if a.file == vfile then
      local by
      for k = j + 1, #applied do
        if applied[k].depth < a.depth then by = applied[k].name; break end
      end
      return usage(string.format("variant %s is used twice%s", V.name, by
        and string.format(": %s includes it already (set its options through %s: --variant %s:%s.OPTION=VALUE)",
          by, by, by, a.name) or ""))
    end
  end
  V.options = V.options or {}
  V.explain = V.explain or {}
  -- A preset forwards "member.option" to the variants it includes.
  local own, forwarded = {}, {}
  for k, v in pairs(vopts or {}) do
    local member, opt = tostring(k):match("^([%w_%-]+)%.([%w_]+)$")
    if member then
      forwarded[member] = forwarded[member] or {}
      forwarded[member][opt] = v
    else
      own[k] = v
    end
  end
  local opts, oerr = M.resolve_options(V, own)
  if not opts then return nil, member_option(V, vspec, vfile, own, oerr) end
  -- What a save file keeps: the options as given (defaults come from the
  -- files when the game is loaded or reloaded, so an edited default counts).
  local recorded = {}
  for k, v in pairs(vopts or {}) do recorded[k] = v end
  for _, inc in ipairs(V.includes or {}) do
    local ispec, iopts = inc, {}
    if type(inc) == "table" then
      ispec = inc[1]
      for k, v in pairs(inc) do if k ~= 1 then iopts[k] = v end end
    end
    if type(ispec) ~= "string" then
      return broken(string.format("variant %s: R.includes lists names or { name, option = value }", V.name))
    end
    do   -- "name:k=v" too
      local name, parsed = M.parse_variant(ispec)
      if not name then return again(parsed, string.format("%s (included by %s)", parsed, V.name)) end
      ispec = name
      for k, v in pairs(parsed or {}) do if iopts[k] == nil then iopts[k] = v end end
    end
    local named, nerr = require("kontor.files").named_in(ispec, vfile)   -- the file policy
    if not named then return nil, errors.new("file", string.format("%s (included by %s)", nerr, V.name)) end
    for k, v in pairs(forwarded[ispec] or {}) do iopts[k] = v end
    forwarded[ispec] = nil
    local ok, ierr = apply_variant(E, R0, ispec, iopts, claims, depth + 1, extra, applied)
    if not ok then return again(ierr, string.format("%s (included by %s)", ierr, V.name)) end
  end
  -- a number or a yes/no given as text ("size=5" on a command line) is
  -- kept as its option's type made it, as a save file gives it back: what
  -- a front end reads (serve's games) is the same before and after a save
  for k, v in pairs(recorded) do
    local member, opt = tostring(k):match("^([%w_%-]+)%.([%w_]+)$")
    local typed = opts[k]
    if member then
      for j = #applied, 1, -1 do
        local a = applied[j]
        if a.name == member and a.depth == depth + 1 then typed = a.options[opt]; break end
      end
    end
    local t = type(typed)
    if type(v) == "string" and (t == "number" or t == "boolean") then recorded[k] = typed end
  end
  local stray = next(forwarded)
  if stray then
    return usage(string.format("variant %s includes no variant '%s'", V.name, stray))
  end
  for _, what in ipairs(V.replaces or {}) do
    if claims[what] then
      return usage(string.format("variants %s and %s cannot be used together: both replace %s",
        claims[what], V.name, what))
    end
    claims[what] = V.name
  end
  local title = rawget(R0, "title")     -- (raw: a variant's metatable is not run by trusted code)
  local had, data_had = rule_names(R0), data_names(R0)
  local cons0 = rawget(R0, "constraints")
  local ncons0 = type(cons0) == "table" and rawlen(cons0) or 0
  if V.apply then
    local ok, aerr, refusal = sandbox.apply(V.apply, R0, strict_options(opts, V))
    if not ok then
      -- an option's value the variant refused (kontor.bad_option): what
      -- was asked for, as a value below the declared min, not a broken script
      if refusal then return usage(string.format("variant %s: %s", V.name, refusal)) end
      return failed(string.format("variant %s: %s", V.name, tostring(aerr)), aerr)
    end
  end
  local vsrc = fs.read(vfile)          -- (what the variant names, for the checks below)
  -- a constraint the variant added that the engine cannot use: said at
  -- the variant's file, not at the rule set's, where nothing is wrong
  local cons = rawget(R0, "constraints")
  if type(cons) == "table" and getmt(cons) == nil then
    for i = cons == cons0 and ncons0 + 1 or 1, rawlen(cons) do
      local fault = constraint_fault(rawget(cons, i))
      if fault then
        return broken(string.format("%s: R.constraints[%d] %s", where_named(vfile, vsrc, "constraints"), i, fault))
      end
    end
  end
  local misspelt = misspelt_rule(had, rule_names(R0), vsrc)
  if misspelt then
    return broken(string.format("%s: R.rules.%s is not a rule of %s (nothing would call it): "
      .. "did you mean '%s'? (rules: %s)", where_named(vfile, vsrc, misspelt[1]), misspelt[1], E.name, misspelt[2], table.concat(had, ", ")))
  end
  local dm = misspelt_data(data_had, data_names(R0), vsrc)
  if dm then
    return broken(string.format("%s: %s.%s is not in the data of %s (nothing would read it): did you mean '%s'? "
      .. "(%s: %s)", where_named(vfile, vsrc, dm.added), dm.where, dm.added, E.name, dm.meant, dm.where, table.concat(dm.names, ", ")))
  end
  for name, f in pairs(V.explain) do extra[#extra + 1] = { name, f } end
  applied[#applied + 1] = { spec = vspec, file = vfile, name = V.name, options = opts, depth = depth,
                            recorded = recorded, titled = rawget(R0, "title") ~= title }
  return true
end

-- Loads a rule set with its variants applied in order.
-- spec: name or path; variants: list of name/path strings (with options in
-- the command-line form "name:k=v,..." if wanted) or { spec, options = {...} }.
-- Returns the engine's copy of the composed rule set (see `freeze`) or nil
-- and a message.
-- The rule set a game without one is of: the base the first variant names
-- (`--variant port_royal` alone is a Caribbean game), else Sea Merchants.
function M.default_for(variants)
  local first = variants and variants[1]
  local vspec = first and variant_spec(first)
  local vfile = vspec and M.find(vspec)
  local V = vfile and M.load_file(vfile)
  -- (a base that names no rule set is the variant's mistake: said when applied)
  if type(V) == "table" and V.variant and type(V.base) == "string" and not is_path(V.base) and M.find(V.base) then
    return V.base   -- a name: a base is never a file (kontor.files)
  end
  return "sea_merchants"
end

-- A read of a name R.data does not have is a mistake (a misspelling:
-- R.data.takes_by_namez), which Lua would let through as nil to fail later
-- as "attempt to index a nil value". Once the variants and R.prepare are
-- done with it, R.data answers such a read with an error at the script's
-- line: "./r.lua:12: R.data has no 'start_goldd': did you mean
-- 'start_gold'?". Only a missing name reaches __index: the reads of the
-- names R.data has cost what they did. A script's own metatable is left.
-- The search is one pass in Lua over the names (the time limit's hook
-- stops it like the script's own code): no sort of every name in C, which
-- a script could make cost seconds past its limit with an R.data of
-- millions of names. Its answer is the same in any order of the names.
local function data_index(data, key)
  local word = type(key) == "string" and key or nil
  local near, nd, nk = nil, nil, nil
  local first, count = {}, 0          -- the first 12 names in byte order
  for k in raw_next, data do
    if type(k) == "string" then
      count = count + 1
      local top = #first
      if top < 12 or k < first[top] then
        local i = top < 12 and top + 1 or 12
        while i > 1 and first[i - 1] > k do first[i] = first[i - 1]; i = i - 1 end
        first[i] = k
      end
      if word then
        local yes, d, kk = nearer(word, k, near, nd, nk)
        if yes then near, nd, nk = k, d, kk end
      end
    end
  end
  error(string.format("R.data has no %s: %s", word and ("'" .. key .. "'") or tostring(key),
    near and ("did you mean '" .. near .. "'?")
    or ("its names are " .. table.concat(first, ", ") .. (count > 12 and ", ..." or ""))), 2)
end

-- Each rule set loaded gets a metatable of its own, which a script cannot
-- reach (__metatable): one shared by every load let a script change
-- __index for every other rule set loaded in the program (a variant, the
-- lab's other side, the next game of kontor serve), whose reads of a
-- missing name then returned what it chose; the same seed and moves gave
-- another game once it had run.
local function guard_data(R0)
  local data = rawget(R0, "data")
  if type(data) == "table" and getmt(data) == nil then
    setmetatable(data, { __index = data_index, __metatable = false })
  end
end

-- "FILE:LINE" of the variant that set what R.prepare refused, when the
-- message names it (R.data.pay_active must be ...; R.data.buildings[16]
-- (guild_hall): guild_vp must be ...) and a variant's text names it too
-- (the last applied first): the designer goes to their own line, not to
-- the rule set's file, where nothing is wrong. nil when none does.
local function variant_at(applied, perr)
  local msg = tostring(perr)
  -- the first 4 names it gives, each once: each is looked for in each
  -- variant's every line, in the engine's own code (out of the time
  -- limit's reach), and a script's message may name hundreds (400 names
  -- and a variant of 500,000 lines: 108 s of CPU)
  local names, seen = {}, {}
  local function add(n)
    if not seen[n] and #names < 4 then seen[n] = true; names[#names + 1] = n end
  end
  local field = msg:match("([%a_][%w_]*) must be")
  if field then add(field) end
  for n in msg:gmatch("R%.data%.([%a_][%w_]*)") do add(n) end
  for j = #applied, 1, -1 do
    local src = fs.read(applied[j].file)
    for _, n in ipairs(names) do
      -- the line that sets it (".pay_active = "), else the first that names it
      local k = 0
      for line in ((src or "") .. "\n"):gmatch("([^\n]*)\n") do
        k = k + 1
        if line:find("%." .. n .. "%s*=[^=]") then return applied[j].file .. ":" .. k end
      end
      local at = src and where_named(applied[j].file, src, n)
      if at and at ~= applied[j].file then return at end
    end
  end
end

function M.load(spec, variants)
  if spec == nil then spec = M.default_for(variants) end
  local file, err = M.find(spec)
  if not file then return nil, err end
  local E, R0 = M.load_file(file)
  if not E then return nil, R0 end
  if E.variant then
    return usage(string.format("%s is a variant (of %s), not a rule set: give it with --variant %s", file,
      tostring(E.base), file), { variant_as_rules = { rules = spec, base = E.base } })
  end
  -- Variants add to these: the rule set's own table has them.
  if rawget(R0, "constraints") == nil then rawset(R0, "constraints", {}) end
  if rawget(R0, "options") == nil then rawset(R0, "options", {}) end
  local claims, seen, extra, applied = {}, {}, {}, {}
  for _, v in ipairs(variants or {}) do
    local vspec, vopts = variant_spec(v)
    if not vspec then return nil, vopts end
    if seen[vspec] then
      return usage(string.format("variant %s is given twice", vspec))
    end
    seen[vspec] = true
    local ok, verr = apply_variant(E, R0, vspec, vopts, claims, 0, extra, applied)
    if not ok then return nil, verr end
  end
  -- rebuild what the rule set derives from its data: after the variants,
  -- and before the copy that changed rule set is played as, so that what
  -- R.prepare derives into R itself (Old World's start_gold option's default
  -- from R.data.start_gold) is in it too
  local prepare = rawget(R0, "prepare")
  if #applied > 0 then   -- the variants changed the rule set: copy it again
    if type(prepare) == "function" then
      local ok, perr = core.sandbox.call(prepare)
      if not ok then
        local at = variant_at(applied, perr)
        if at then
          return failed(string.format("%s: %s (refused by %s's R.prepare, after the variants)", at,
            (errors.message(perr):gsub("\nstack traceback:.*$", "")),
            E.name), perr)
        end
        return failed(string.format("%s: R.prepare failed after the variants: %s", file, tostring(perr)), perr)
      end
    end
    local ferr
    E, ferr = freeze(R0, file)
    if not E then return nil, ferr end
    local _, cerr = check_ruleset(E, file)
    if cerr then return nil, cerr end
  elseif E.prepare then
    local ok, perr = core.sandbox.call(E.prepare)
    if not ok then
      return failed(string.format("%s: R.prepare failed after the variants: %s", file, tostring(perr)), perr)
    end
  end
  for _, x in ipairs(extra) do E.explain[x[1]] = E.explain[x[1]] or x[2] end
  E.constraints = E.constraints or {}
  E.file, E.spec, E.applied = file, spec, applied
  guard_data(R0)
  return E
end

-- The variants as given (presets once, not what they include), each
-- { spec, options = {...} }: what a save file records and a reload reapplies.
function M.given_variants(R)
  local out = {}
  for _, v in ipairs(R.applied or {}) do
    if v.depth == 0 then out[#out + 1] = { v.spec, options = v.recorded } end
  end
  return out
end

-- Every rule set and variant on the search path: { name, kind, title,
-- summary, file } (title: the file's own, else a rule set's name or the
-- variant's file name; none for a broken file).
function M.list(keep)   -- (keep: each entry's loaded table as `R` too, for the engine's own use)
  local out, seen = {}, {}
  for _, d in ipairs(M.path()) do
    for _, f in ipairs(fs.list(d) or {}) do
      local name = f:match("^([%w_%-]+)%.lua$")
      if name and not seen[name] then
        seen[name] = true
        local R, err = M.load_file(d .. "/" .. f)   -- the engine's copy
        if R then
          out[#out + 1] = { name = name, kind = R.variant and "variant" or "rules",
            title = R.title or (R.variant and name or R.name),
            summary = R.summary or R.title or "", file = d .. "/" .. f, base = R.base, R = keep and R or nil }
        else
          -- its first line with the file:line, never the engine's traceback (serve's list shows it)
          local why = errors.is(err) and rawget(err, "script") or errors.message(err)
          out[#out + 1] = { name = name, kind = "broken", summary = why, file = d .. "/" .. f }
        end
      end
    end
  end
  return out
end

return M
