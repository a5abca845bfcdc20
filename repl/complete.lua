-- complete (repl/complete.lua): the REPL's Tab completion, loaded at the
-- first Tab (repl.lua's Session:complete): file names after load, save and
-- replay; seat names after view, as and bot; the options of the seats
-- deciding now, for do, why or a move typed as it is; command names; and
-- Lua: globals, a table's fields, a value's methods (a game's public side
-- only).
local gamemod = require "kontor.game"
local ui = require "ui"

local M = {}

local KEYWORDS = { "and", "break", "do", "else", "elseif", "end", "false", "for", "function",
  "goto", "if", "in", "local", "nil", "not", "or", "repeat", "return", "then", "true", "until", "while" }

-- The text of an action being typed on `line`, or nil.
local function action_prefix(line, g, action_word)
  local p = line:match("^%s*do%s+(.*)$") or line:match("^%s*why%s+(.*)$")
    or line:match("g:apply%(%s*[\"']([^\"']*)$") or line:match("g:why%(%s*[\"']([^\"']*)$")
  if p then return p end
  if g and not g:over() and not line:match("^%s*$") then
    local word = line:match("^%s*([%a_][%w_]*)")
    if word and action_word(g, word) then return (line:gsub("^%s+", "")) end
  end
  return nil
end

local function add(set, list, s)
  if not set[s] then set[s] = true; list[#list + 1] = s end
end

local function fields_of(v, colon, is_game)
  local names = {}
  local seen = {}
  local function from(t, depth)
    if type(t) ~= "table" or seen[t] or depth > 3 then return end
    seen[t] = true
    for k, val in pairs(t) do
      if type(k) == "string" and k:match("^[%a_][%w_]*$") and (not colon or type(val) == "function") then
        names[k] = val
      end
    end
    local mt = getmetatable(t)
    if type(mt) == "table" and type(rawget(mt, "__index")) == "table" then from(mt.__index, depth + 1) end
  end
  if is_game(v) then
    -- the public side only: the methods, the rule set's fields (not the
    -- ctx's "_" ones) and R and params; not the engine's own (co, hist, ...)
    for k, f in pairs(gamemod.Game) do
      if type(k) == "string" and k:match("^%a[%w_]*$") and type(f) == "function" then names[k] = f end
    end
    if not colon then
      local ctx = rawget(v, "ctx")
      if type(ctx) == "table" then
        for k, val in pairs(ctx) do
          if type(k) == "string" and k:match("^%a[%w_]*$") and type(val) ~= "function" then names[k] = val end
        end
      end
      names.R, names.params = rawget(v, "R"), rawget(v, "params")
    end
  elseif type(v) == "string" then
    from(string, 0)
  elseif type(v) == "userdata" then
    local mt = debug.getmetatable(v)
    if type(mt) == "table" then
      if type(mt.__index) == "table" then from(mt.__index, 0) else from(mt, 0) end
    end
  else
    from(v, 0)
  end
  return names
end

local complete_file = ui.complete_file

-- The completions of `text`, the end of `line`, in session `sess`; `h`:
-- the REPL's is_game, deciders, action_word and command names.
function M.complete(sess, text, line, h)
  local is_game, action_word = h.is_game, h.action_word
  local out, set = {}, {}
  local g = sess:game()
  -- file names after load/save/replay; seat names after view/as/bot
  local fcmd, farg = line:match("^%s*(%a+)%s+(.*)$")
  if (fcmd == "load" or fcmd == "save" or fcmd == "replay") and not (fcmd == "load" and action_word(g, "load") and not farg:find("[/.]")) then
    local before = farg:sub(1, #farg - #text)
    for _, f in ipairs(complete_file(farg)) do
      if f:sub(1, #before) == before then add(set, out, f:sub(#before + 1)) end
    end
    return out
  end
  if (fcmd == "view" or fcmd == "as" or fcmd == "bot") and g and not farg:find("[= ]") then
    for i = 1, g.players do
      local nm = g.names[i]
      if nm:lower():sub(1, #text) == text:lower() and not nm:find("%s") then add(set, out, nm) end
    end
    if fcmd == "as" and ("all"):sub(1, #text) == text then add(set, out, "all") end
    return out
  end
  local p = action_prefix(line, g, action_word)
  if p and g and not g:over() then
    -- after `as N`, seat N's options only: another seat's tell its hand
    -- or its secret order so far
    local seats = sess:shown_deciders(g)
    local sp, body = p:match("^(%d+):%s*(.*)$")
    if sp then
      seats = (sess.as == nil or sess.as == tonumber(sp)) and { tonumber(sp) } or {}
    else
      body = p
    end
    local function add1(x) add(set, out, x) end
    for _, s in ipairs(seats) do ui.complete_options(add1, g:options(s) or {}, body, text) end
    if #out > 0 or line:match("^%s*do%s") or line:match("^%s*why%s") then return out end
  end
  local first = line:match("^%s*([%a_][%w_]*)$")
  if first then
    ui.complete_commands(function(x) add(set, out, x) end, h.commands, text)
    -- and the first words of the options, in any letter case ("EX" -> exchange)
    if g and not g:over() then
      for _, s in ipairs((sess:shown_deciders(g))) do
        ui.complete_option_words(function(x) add(set, out, x) end, g:options(s) or {}, text)
      end
    end
  end
  -- Lua: globals, table fields, methods
  local expr = line:match("([%a_][%w_]*[%.:][%w_%.:]*)$") or line:match("([%a_][%w_]*)$") or ""
  if expr == "" and text ~= "" then return out end
  local base, sep, last = expr:match("^(.-)([%.:])([%w_]*)$")
  local names
  if base then
    local v = _G
    for part in base:gmatch("[^%.:]+") do
      local ok, r = pcall(function() return v[part] end)
      if not ok then return out end
      v = r
      if v == nil then return out end
    end
    names = fields_of(v, sep == ":", is_game)
  else
    last = expr
    names = fields_of(_G, false, is_game)
    for _, k in ipairs(KEYWORDS) do names[k] = names[k] or true end
  end
  local prefix = text:sub(1, #text - #last)
  local sorted = {}
  for k, v in pairs(names) do
    if k:sub(1, #last) == last then sorted[#sorted + 1] = { k, v } end
  end
  table.sort(sorted, function(a, b) return a[1] < b[1] end)
  for _, kv in ipairs(sorted) do
    local suffix = (type(kv[2]) == "function") and "(" or ""
    add(set, out, prefix .. kv[1] .. suffix)
  end
  return out
end

return M
