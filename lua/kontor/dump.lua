-- kontor.dump: the state and the views as plain data, and as text.
--
-- Data here is JSON-safe: sequences become arrays, other tables objects with
-- string keys, piles lists of card names (or a count where the seat may not
-- look), counters lists of numbers. Fields whose names start with "_" and
-- functions are left out. Cycles are cut.

local core = require "kontor.core"
local csb = core.sandbox

local M = {}

local getmetatable = debug.getmetatable   -- the exposed types hide theirs
local PILE_MT = getmetatable(core.pile {})
local COUNTER_MT = getmetatable(core.counter { n = 1 })
local RNG_MT = getmetatable(core.rng(1))
local LOG_MT = getmetatable(core.log())

local ENGINE = { players = true, names = true, options = true, rng = true,
                 turn = true, active = true, logging = true }

local function is_sequence(t)
  local n = #t
  local count = 0
  for _ in pairs(t) do
    count = count + 1
    if count > n then return false end
  end
  return count == n
end

-- seat == nil: everything (the designer's state); else what that seat sees.
local function data(v, R, ctx, seat, seen, depth)
  local tv = type(v)
  if tv == "number" or tv == "string" or tv == "boolean" then return v end
  if tv == "userdata" then
    local mt = getmetatable(v)
    if mt == PILE_MT then
      local vis = v:vis()
      if seat == nil or vis == "public" or (vis == "owner" and v:owner() == seat) then
        local out = {}
        local card_text = R.card_text
        for i = 1, v:count() do
          local c = v:get(i)
          out[i] = card_text and card_text(ctx, c) or c
        end
        return out
      end
      return { hidden = v:count() }
    elseif mt == COUNTER_MT then
      return v:values()
    elseif mt == RNG_MT then
      return seat == nil and v:state() or nil
    elseif mt == LOG_MT then
      return nil
    end
    return nil
  end
  if tv ~= "table" then return nil end
  if seen[v] then return "<cycle>" end
  if depth > 40 then return "<too deep>" end
  seen[v] = true
  local out
  if is_sequence(v) then
    out = {}
    for i = 1, #v do
      local x = data(v[i], R, ctx, seat, seen, depth + 1)
      if x == nil then x = false end
      out[i] = x
    end
  else
    out = {}
    local any = false
    for k, x in pairs(v) do
      local tk = type(k)
      if (tk == "string" and k:sub(1, 1) ~= "_") or tk == "number" or tk == "boolean" then
        local d = data(x, R, ctx, seat, seen, depth + 1)
        if d ~= nil then out[tostring(k)] = d; any = true end
      end
    end
    if not any then out = setmetatable(out, core.json.object) end
  end
  seen[v] = nil
  return out
end

local function rule_fields(ctx)
  local t = {}
  for k, v in pairs(ctx) do
    if type(k) == "string" and not ENGINE[k] and k:sub(1, 1) ~= "_" then t[k] = v end
  end
  return t
end

-- f(...) armed, as a call that only reads the game `ctx`: whatever of
-- the game it changes is put back and refused (sandbox.inspect, in
-- lua/engine/inspect.c: "R.board cannot change the game: it set g.n (...)").
local function armed(name, ctx, f, ...)
  local ok, res = csb.inspect(name, ctx, f, ...)
  if not ok then
    if res == csb.FINISH then res = "g:finish() outside R.play" end
    error(res, 0)
  end
  return res
end

function M.state(R, ctx)
  return armed("R.card_text", ctx, function()
    local out = data(rule_fields(ctx), R, ctx, nil, {}, 0)
    out.engine = { players = ctx.players, names = ctx.names, turn = ctx.turn,
                   active = ctx.active or false, rng = ctx.rng:state(),
                   options = data(ctx.options, R, ctx, nil, {}, 0) }
    return out
  end)
end

function M.view(R, ctx, seat, game)
  return armed(R.view and "R.view" or "R.card_text", ctx, function()
    local raw = R.view and R.view(ctx, seat) or rule_fields(ctx)
    local out = data(raw, R, ctx, seat, {}, 0)
    out.seat = seat
    out.turn = ctx.turn
    out.active = ctx.active or false
    if game then
      local w = game:who()
      if w == nil then w = false end   -- over (`nil and false or w` was nil: no field)
      out.to_move = w
    end
    return out
  end)
end

-- Pretty-printing of any value, with depth and cycle limits.
local function keystr(k)
  if type(k) == "string" and k:match("^[%a_][%w_]*$") then return k end
  return "[" .. (type(k) == "string" and string.format("%q", k) or tostring(k)) .. "]"
end

function M.pretty(v, indent, depth, seen)
  indent, depth, seen = indent or "", depth or 0, seen or {}
  local t = type(v)
  if t == "string" then return string.format("%q", v) end
  if t ~= "table" then return tostring(v) end
  if seen[v] then return "<cycle>" end
  if depth >= 6 then return "{...}" end
  seen[v] = true
  local parts, n = {}, #v
  local flat = true
  for i = 1, n do
    if type(v[i]) == "table" then flat = false end
    parts[#parts + 1] = M.pretty(v[i], indent .. "  ", depth + 1, seen)
  end
  local keys = {}
  for k in pairs(v) do
    if not (math.type(k) == "integer" and k >= 1 and k <= n) then keys[#keys + 1] = k end
  end
  table.sort(keys, function(a, b)
    if type(a) == type(b) and (type(a) == "string" or type(a) == "number") then return a < b end
    return type(a) < type(b)
  end)
  for _, k in ipairs(keys) do
    flat = false
    parts[#parts + 1] = keystr(k) .. " = " .. M.pretty(v[k], indent .. "  ", depth + 1, seen)
  end
  seen[v] = nil
  if #parts == 0 then return "{}" end
  local one = "{ " .. table.concat(parts, ", ") .. " }"
  if flat or #one <= 72 then return one end
  return "{\n" .. indent .. "  " .. table.concat(parts, ",\n" .. indent .. "  ") .. "\n" .. indent .. "}"
end

function M.show(R, ctx, seat, game, how)
  if R.board then
    return armed("R.board", ctx, function() return tostring(R.board(ctx, seat, how)) end)
  end
  local v = seat and M.view(R, ctx, seat, game) or M.state(R, ctx)
  return M.pretty(v)
end

return M
