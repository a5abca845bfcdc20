-- kontor.balance.coverage: what of a rule set fired over a run's games.
--
-- Counts, per run: each R.rules entry called, each decision answered (by
-- decision name), each option kind chosen (the first word of the option's
-- text), each card kind named in a chosen option; and whether each line of
-- the rule scripts ran. Nothing of this exists unless coverage is asked
-- for: the recorder wraps a rule set loaded for the run only.
--
-- Lines are counted by a line hook (the debug library, engine side) set on
-- the game's threads while they run the rule scripts. That hook takes the
-- place of the sandbox's instruction-count hook there, so a game under
-- coverage is bounded by a line budget instead, and runs several times
-- slower (docs/balance.md).

local core = require "kontor.core"
local rules = require "kontor.rules"

local M = {}
local Rec = {}
Rec.__index = Rec

local getinfo, sethook = debug.getinfo, debug.sethook

-- WRAPS[f] = g: f is the lab's wrapper of a rule script's function g
-- (kontor.balance.moves wraps R.play); the lines that could fire are g's.
M.WRAPS = setmetatable({}, { __mode = "k" })

-- Lines one game may execute under coverage (the instruction limit's stand-in).
M.LINE_BUDGET = 50000000

local PILE_MT = debug.getmetatable(core.pile {})   -- the exposed types hide theirs

-- The functions of the script's own files (`own`: path -> true) that R
-- reaches (fields, upvalues) within 12 steps, and their active lines: the
-- lines that could fire. Breadth first, so the same functions are found
-- whatever order `next` gives; the engine's functions are not walked
-- through (their upvalues reach the whole program: the lab's wrappers,
-- other setups' rule sets loaded from the same file).
local function script_lines(R, own)
  local lines, seen = {}, { [R] = true }
  -- what a game never runs, even where an upvalue (the script's own rule
  -- table) reaches it: checks, views, explanations, load-time code
  for _, k in ipairs { "invariants", "view", "board", "prepare", "apply",
      "describe_option", "why_won", "tile_effect", "board_abbrev", "card_effects" } do   -- table: descriptions
    if type(R[k]) == "function" or type(R[k]) == "table" then seen[R[k]] = true end
  end
  for _, f in pairs(type(R.explain) == "table" and R.explain or {}) do seen[f] = true end
  local queue, depth_of = {}, {}
  local function push(v, depth)
    while M.WRAPS[v] do v = M.WRAPS[v] end    -- the lab's own wrapper: what it wraps
    local t = type(v)
    if depth > 12 or seen[v] or (t ~= "table" and t ~= "function") then return end
    if t == "table" and debug.getmetatable(v) == PILE_MT then return end
    seen[v] = true
    queue[#queue + 1] = v
    depth_of[#queue] = depth
  end
  local function visit(v, depth)
    if type(v) == "table" then
      for k, x in next, v do
        push(k, depth + 1)
        push(x, depth + 1)
      end
      return
    end
    local info = getinfo(v, "SL")
    local src = info.source
    if info.what == "C" or src:sub(1, 1) ~= "@" or not own[src:sub(2)] then return end
    local set = lines[src]
    if not set then set = {}; lines[src] = set end
    -- a function's last line ("end") runs only if it falls off the end
    for l in pairs(info.activelines or {}) do
      if l ~= info.lastlinedefined then set[l] = true end
    end
    for i = 1, 255 do
      local name, x = debug.getupvalue(v, i)
      if not name then break end
      push(x, depth + 1)
    end
  end
  -- what games run: the entry points, the rules, the constraints (and
  -- what they reach), not views, invariants or load-time code
  for _, k in ipairs { "setup", "play", "scores", "winners", "card_text" } do push(R[k], 0) end
  push(R.rules, 0)
  push(R.constraints, 0)
  local i = 1
  while queue[i] do
    visit(queue[i], depth_of[i])
    i = i + 1
  end
  return lines
end

-- The decision names a script's source gives as the first string literal
-- of a call of something named ...choose, ...choose_all or ...chance.
local function declared_decisions(files)
  local names = {}
  for _, file in ipairs(files) do
    local f = io.open(file, "r")
    if f then
      local src = f:read("a")
      f:close()
      for call in src:gmatch("[%w_]*choose[%w_]*%s*(%b())") do
        local name = call:match('^%([^"\n]-"([%w_%-]+)"')
        if name then names[name] = true end
      end
      for call in src:gmatch("[:.]chance%s*(%b())") do
        local name = call:match('^%(%s*"([%w_%-]+)"')
        if name then names[name] = true end
      end
    end
  end
  return names
end

-- A recorder for the loaded setup L: wraps L.R's rules and entry points.
function M.new(L)
  local R = L.R
  local rec = setmetatable({
    rules = {}, decisions = {}, options = {}, cards = {}, lines = {},
    card_kinds = nil, card_words = nil, left = M.LINE_BUDGET,
  }, Rec)
  -- lines that could fire (before wrapping: the wrappers are not scripts)
  local own = { [R.file] = true }
  for _, v in ipairs(R.applied or {}) do
    local file = rules.find(v.spec)
    if file then own[file] = true end
  end
  local possible = script_lines(R, own)
  -- files are named from the program's home when they are in it, so that
  -- shards made on machines with other homes still add up
  local home = rules.home and (rules.home .. "/")
  local files, key_of = {}, {}
  rec.key_of = key_of
  for src, set in pairs(possible) do
    local path = src:sub(2)
    local file = path
    if home and path:sub(1, #home) == home then file = path:sub(#home + 1) end
    if own[path] then
      key_of[path] = file
      files[#files + 1] = file
      local t = {}
      for l in pairs(set) do t[tostring(l)] = 0 end
      rec.lines[file] = t
    end
  end
  table.sort(files)
  rec.files = files
  for name in pairs(declared_decisions(files)) do rec.decisions[name] = 0 end
  -- the rules: each R.rules entry counts its calls
  for name, f in pairs(R.rules or {}) do
    if type(f) == "function" then
      rec.rules[name] = 0
      local counts = rec.rules
      R.rules[name] = function(...)
        counts[name] = counts[name] + 1
        return f(...)
      end
    end
  end
  -- the lines: a line hook on the thread running each entry point. The
  -- hook finds the running function ("f" is the cheapest getinfo) and its
  -- file's counts through a cache.
  local hits, file_of = {}, setmetatable({}, { __mode = "k" })
  for file in pairs(rec.lines) do hits[file] = {} end
  rec.hits = hits
  local function hook(_, line)
    local f = getinfo(2, "f").func
    local t = file_of[f]
    if t == nil then
      local key = key_of[getinfo(f, "S").source:sub(2)]
      t = key and hits[key] or false
      file_of[f] = t
    end
    if t then t[line] = true end
    local left = rec.left - 1
    rec.left = left
    if left < 0 then
      error(string.format("coverage: the game ran more than %d lines of rule script", M.LINE_BUDGET), 2)
    end
  end
  local function hooked(f)
    if type(f) ~= "function" then return f end
    return function(...)
      sethook(hook, "l")
      return f(...)
    end
  end
  for _, k in ipairs { "setup", "play", "scores", "winners" } do R[k] = hooked(R[k]) end
  rec.hooked = hooked
  -- card kinds a rule set names (R.card_kinds), if it does
  if type(R.card_kinds) == "table" then
    rec.card_kinds = {}
    for _, k in ipairs(R.card_kinds) do
      if type(k) == "string" then rec.card_kinds[#rec.card_kinds + 1] = k end
    end
  end
  rec.R = R
  return rec
end

-- The card kinds of a game: R.card_text of each card in its piles (once).
function Rec:game_start(game)
  self.left = M.LINE_BUDGET
  -- chance events are decisions too (resolved by the game's RNG)
  local ctx, decisions = game.ctx, self.decisions
  local chance = ctx.chance
  ctx.chance = function(g, name, ...)
    decisions[name] = (decisions[name] or 0) + 1
    return chance(g, name, ...)
  end
  -- an order entry may run in a thread of its own (g:choose_orders): the
  -- line hook goes with it. (Tail calls: an error still names the script.)
  local choose_orders, hooked = ctx.choose_orders, self.hooked
  ctx.choose_orders = function(g, seats, name, enter)
    return choose_orders(g, seats, name, type(enter) == "function" and hooked(enter) or enter)
  end
  if self.card_words then return end
  local kinds = {}
  for _, k in ipairs(self.card_kinds or {}) do kinds[k] = true end
  local R = self.R
  if R.card_text then
    local seen = {}
    local function walk(v, depth)
      if depth > 3 or type(v) ~= "table" and type(v) ~= "userdata" or seen[v] then return end
      seen[v] = true
      if debug.getmetatable(v) == PILE_MT then
        for i = 1, v:count() do
          local ok, text = core.sandbox.inspect("R.card_text", false, R.card_text, ctx, v:get(i))
          if ok and type(text) == "string" and text ~= "" then kinds[text] = true end
        end
      elseif type(v) == "table" then
        for _, x in next, v do walk(x, depth + 1) end
      end
    end
    walk(ctx, 0)
  end
  self.card_words = kinds
  for k in pairs(kinds) do self.cards[k] = self.cards[k] or 0 end
end

-- One answered decision: its name and the option's text.
function Rec:step(name, text)
  if name then self.decisions[name] = (self.decisions[name] or 0) + 1 end
  if type(text) ~= "string" then return end
  local kind = text:match("^(%S+)")
  if kind then self.options[kind] = (self.options[kind] or 0) + 1 end
  local words = self.card_words
  if words then
    for w in text:gmatch("[^%s,]+") do
      if words[w] then self.cards[w] = self.cards[w] + 1 end
    end
  end
end

-- A check function for Game:play_random that records each step.
function Rec:checker(game)
  local last, name = 0, nil
  return function()
    local n = game:step_count()
    if n > last then self:step(name, select(2, game:step_at(n))); last = n end
    name = game.dname
  end
end

-- The counts as plain data (kept in shard files; merged by adding). A line
-- is 1 (fired) or 0 (never): how often a line runs can depend on how the
-- games were split between processes (a rule set's memo tables fill once
-- per process), whether it runs at all does not.
function Rec:data()
  local lines = {}
  for file, universe in pairs(self.lines) do
    local t = {}
    for k, v in pairs(universe) do t[k] = v end
    for l in pairs(self.hits[file]) do t[tostring(l)] = 1 end
    lines[file] = t
  end
  return { rules = self.rules, decisions = self.decisions, options = self.options,
           cards = self.cards, lines = lines }
end

-- Adds coverage data b into a (either may be nil); returns the sum.
function M.add(a, b)
  if not a then return b end
  if not b then return a end
  local function addmap(x, y)
    for k, v in pairs(y) do x[k] = (x[k] or 0) + v end
  end
  for _, part in ipairs { "rules", "decisions", "options", "cards" } do
    a[part] = a[part] or {}
    addmap(a[part], b[part] or {})
  end
  a.lines = a.lines or {}
  for file, t in pairs(b.lines or {}) do
    local x = a.lines[file] or {}
    a.lines[file] = x
    for k, v in pairs(t) do x[k] = math.max(x[k] or 0, v) end
  end
  return a
end

-- Sorted entries of a count map: never fired first (by name), then by count
-- (most first), then name.
function M.sorted(map)
  local out = {}
  for k, v in pairs(map or {}) do out[#out + 1] = { name = k, count = v } end
  table.sort(out, function(x, y)
    if (x.count == 0) ~= (y.count == 0) then return x.count == 0 end
    if x.count ~= y.count then return x.count > y.count end
    return x.name < y.name
  end)
  return out
end

-- The line figures of one file: lines that could fire, lines that fired,
-- and the never-fired lines in order.
function M.line_summary(t)
  local total, fired, never = 0, 0, {}
  for k, v in pairs(t) do
    total = total + 1
    if v > 0 then fired = fired + 1 else never[#never + 1] = math.tointeger(tonumber(k)) end
  end
  table.sort(never)
  return total, fired, never
end

-- "12-15, 20" from a sorted list of line numbers.
function M.ranges(list)
  local parts, i = {}, 1
  while i <= #list do
    local j = i
    while j < #list and list[j + 1] == list[j] + 1 do j = j + 1 end
    parts[#parts + 1] = i == j and tostring(list[i]) or (list[i] .. "-" .. list[j])
    i = j + 1
  end
  return table.concat(parts, ", ")
end

-- Text: never-fired rules, decisions and lines first, then the counts.
function M.format(cov, title)
  local lines = {}
  local function add(...) lines[#lines + 1] = string.format(...) end
  add("coverage%s", title and (" of " .. title) or "")
  for _, part in ipairs { { "rules", "rules (R.rules)" }, { "decisions", "decisions" },
                          { "options", "option kinds" }, { "cards", "card kinds" } } do
    local list = M.sorted(cov[part[1]])
    local never = {}
    for _, e in ipairs(list) do if e.count == 0 then never[#never + 1] = e.name end end
    add("  %s: %d, never fired: %s", part[2], #list, #never > 0 and table.concat(never, ", ") or "none")
    local fired = {}
    for _, e in ipairs(list) do if e.count > 0 then fired[#fired + 1] = e.name .. " " .. e.count end end
    if #fired > 0 then add("    %s", table.concat(fired, ", ")) end
  end
  local files = {}
  for f in pairs(cov.lines or {}) do files[#files + 1] = f end
  table.sort(files)
  for _, f in ipairs(files) do
    local total, fired, never = M.line_summary(cov.lines[f])
    add("  lines of %s: %d of %d fired%s", f, fired, total,
      #never > 0 and (", never: " .. M.ranges(never)) or "")
  end
  return table.concat(lines, "\n")
end

return M
