-- kontor.balance.sweep: which value is right? The same paired deals over
-- a range of one option's values (a variant's option or the rule set's),
-- every measure per value with its 95% interval, and its paired difference
-- from the first value (docs/balance.md, "Which value is right?").
--
-- A sweep is a run of several sides, one per value, paired with the first
-- (lua/kontor/balance/run.lua): --jobs, --shard and kontor merge work as
-- for compare.

local balance = require "kontor.balance"
local stats = require "kontor.balance.stats"
local text = require "kontor.text"

local M = {}

-- "7..12" (whole numbers, step 1), "7..12:2" (a step) or "4,5,7" (a list)
-- -> the values as texts, or nil and a message.
function M.values(spec)
  local lo, hi, step = spec:match("^%s*(%-?%d+)%.%.(%-?%d+)%s*$")
  if not lo then lo, hi, step = spec:match("^%s*(%-?%d+)%.%.(%-?%d+):(%d+)%s*$") end
  local out = {}
  if lo then
    lo, hi, step = math.tointeger(tonumber(lo)), math.tointeger(tonumber(hi)), math.tointeger(tonumber(step or 1))
    if hi < lo or step < 1 then return nil, string.format("'%s': expected LO..HI with LO <= HI (and a step of 1 or more)", spec) end
    for v = lo, hi, step do out[#out + 1] = tostring(v) end
  else
    local a, b = spec:match("^%s*(%-?%d+)%-(%-?%d+)%s*$")
    if a then return nil, string.format("'%s': a range is LO..HI (%s..%s)", spec, a, b) end
    if spec:find("..", 1, true) then
      return nil, string.format("'%s': a range is LO..HI of whole numbers (e.g. 4..7, or 4..12:2); "
        .. "other values are a list, a,b,c", spec)
    end
    local seen = {}
    for v in spec:gmatch("[^,]+") do
      v = v:match("^%s*(.-)%s*$")
      if v == "" then return nil, string.format("'%s': an empty value", spec) end
      -- the same value twice would be compared with itself
      if seen[v] then return nil, string.format("'%s': the value %s is given twice", spec, v) end
      seen[v] = true
      out[#out + 1] = v
    end
  end
  if #out < 2 then return nil, string.format("'%s': a sweep needs two values or more (LO..HI or a,b,c)", spec) end
  if #out > 50 then return nil, string.format("'%s': %d values; a sweep takes at most 50", spec, #out) end
  return out
end

local function copy_setup(s)
  local c = { rules = s.rules, players = s.players, variants = {}, options = {}, bots = s.bots, moves = s.moves }
  for i, v in ipairs(s.variants) do
    local o = {}
    for k, x in pairs(v.options or {}) do o[k] = x end
    c.variants[i] = { v[1], options = o }
  end
  for k, x in pairs(s.options) do c.options[k] = x end
  return c
end

-- The variant a name stands for: its name as given, or the file's name
-- without folders and ".lua".
local function names_variant(given, name)
  if given == name then return true end
  local base = given:match("([^/]+)$") or given
  return base:gsub("%.lua$", "") == name
end

-- A variant a given preset includes (--variant house --over
-- hand_limit.size=4..6): the preset's place among the variants, and the
-- option as the preset forwards it ("hand_limit.size"); else nil, `opt`.
local function through_preset(variants, vname, opt)
  local rules = require "kontor.rules"
  for i, v in ipairs(variants) do
    local file = rules.find(v[1])
    local V = file and rules.load_file(file)
    for _, inc in ipairs(type(V) == "table" and type(V.includes) == "table" and V.includes or {}) do
      local iname = rules.parse_variant(type(inc) == "table" and inc[1] or inc)
      if type(iname) == "string" and names_variant(iname, vname) then return i, vname .. "." .. opt end
    end
  end
  return nil, opt
end

-- The setups of a sweep: `over` is "OPTION=VALUES" where OPTION is a
-- rule set option (--option), or VARIANT.OPTION, or OPTION alone when the
-- setup has one variant (the rule set's, where only it declares OPTION).
-- Returns setups, { over = OPTION, values }.
function M.setups(common, over)
  local name, spec = over:match("^%s*([%w_%.%-/]+)%s*=%s*(.+)$")
  if not name then
    return nil, string.format("--over '%s': expected OPTION=LO..HI or OPTION=a,b,c (e.g. --over hand_limit.size=4..7)", over)
  end
  local values, e = M.values(spec)
  if not values then return nil, "--over " .. e end
  if name == "players" then return M.player_setups(common, spec, values) end
  local vname, opt = name:match("^(.+)%.([%w_]+)$")
  local which
  if vname then
    for i, v in ipairs(common.variants) do
      if names_variant(v[1], vname) then which = i end
    end
    if not which then which, opt = through_preset(common.variants, vname, opt) end
    if not which then
      local given = {}
      for i, v in ipairs(common.variants) do given[i] = v[1] end
      return nil, string.format("--over %s: no --variant %s is given (variants: %s)", name, vname,
        #given > 0 and table.concat(given, ", ") or "none")
    end
  elseif #common.variants > 0 then
    -- the variants that declare it; a rule set's own option no variant
    -- declares (--over start_coins=1..5 beside Caribbean variants) is the
    -- rule set's; else the one variant's (which says what it has), or, of
    -- several, say whose
    local rules, whose, loaded = require "kontor.rules", {}, true
    for i, v in ipairs(common.variants) do
      local file = rules.find(v[1])
      local V = file and rules.load_file(file)
      if type(V) ~= "table" then loaded = false
      elseif type(V.options) == "table" and V.options[name] ~= nil then
        whose[#whose + 1] = { i, (v[1]:match("([^/]+)$") or v[1]):gsub("%.lua$", "") .. "." .. name }
      end
    end
    local ruleset = false
    if #whose == 0 and loaded then
      local rfile = rules.find(common.rules or rules.default_for({ common.variants[1][1] }))
      local R = rfile and rules.load_file(rfile)
      ruleset = type(R) == "table" and type(R.options) == "table" and R.options[name] ~= nil
    end
    if ruleset then opt = name
    elseif #common.variants == 1 then which, opt = 1, name
    else
      local names = {}
      for k, w in ipairs(whose) do names[k] = w[2] end
      return nil, string.format("--over %s: the setup has %d variants: say whose option, VARIANT.%s (%s)", name,
        #common.variants, name, #names > 0 and table.concat(names, " or ") or ("none of them declares " .. name))
    end
  else
    opt = name
  end
  local setups = {}
  for i, v in ipairs(values) do
    local s = copy_setup(common)
    if which then s.variants[which].options[opt] = v else s.options[opt] = v end
    s.swept = string.format("--over %s=%s, the value %s", name, spec, tostring(v))
    setups[i] = s
  end
  return setups, { over = name, values = values }
end

-- --over players=LO..HI: the same setup at each player count. The seeds
-- are the same, but a seed deals another game at another count: the
-- differences are of games played apart (docs/balance.md), and measures of
-- one seat are left out, as in every sweep.
function M.player_setups(common, spec, values)
  local setups = {}
  for i, v in ipairs(values) do
    local n = math.tointeger(tonumber(v))
    if not n or n < 1 then
      return nil, string.format("--over players=%s: '%s' is not a number of players", spec, v)
    end
    local s = copy_setup(common)
    s.players = n
    s.swept = string.format("--over players=%s, the value %s", spec, v)
    setups[i] = s
  end
  return setups, { over = "players", values = values }
end

local r6 = balance.round
local function rci(ci) return ci and { r6(ci[1]), r6(ci[2]) } or nil end

-- The summary of a sweep's sides and their differences from side 1.
function M.summary(sides, diffs, seed, sweep)
  local accs = {}
  for s, side in ipairs(sides) do accs[s] = side.data end
  local names = balance.move_names(table.unpack(accs))
  local info = sides[1].info
  -- each side's measures: over player counts a win share is kept at each
  -- count's own scale, and the seats differ
  local own, counts = {}, false
  for s, side in ipairs(sides) do
    own[s] = {}
    for _, m in ipairs(balance.measures(side.info, side.data, names)) do own[s][m.key] = m end
    if side.info.players ~= info.players then counts = true end
  end
  local order, measures = {}, {}
  for _, m in ipairs(balance.measures(info, accs[1], names)) do
    -- a seat's result is not the same measure at another player count
    local of_seat = counts and (m.key:match("^win_rate%.") or m.key:match("^score%."))
    if not m.seat and not of_seat then
      local rows = {}
      for s, side in ipairs(sides) do
        local ms = own[s][m.key]
        local r = ms and stats.acc_ci(side.data, m.key, ms.scale, ms.domain) or {}
        local row = { value = sweep.values[s], mean = r6(r.mean), ci = rci(r.ci) }
        if s > 1 and diffs and ms and ms.scale == m.scale then
          local d = stats.acc_paired(diffs[s], m.key, m.scale, m.diff_domain or m.domain)
          row.diff, row.diff_ci = r6(d.diff), rci(stats.diff_ci(d.ci, m.diff_domain or m.domain))
          row.verdict = stats.verdict(d.ci, m.up, m.down)
        elseif s > 1 and ms and r.ci and rows[1].ci then
          -- kept at another scale (a share of the wins at another player
          -- count): the difference of two independent means
          local first = rows[1]
          local h1, h2 = (first.ci[2] - first.ci[1]) / 2, (r.ci[2] - r.ci[1]) / 2
          local diff, half = r.mean - first.mean, math.sqrt(h1 * h1 + h2 * h2)
          local ci = { diff - half, diff + half }
          row.diff, row.diff_ci = r6(diff), rci(stats.diff_ci(ci, m.diff_domain or m.domain))
          row.verdict = stats.verdict(ci, m.up, m.down)
        end
        rows[s] = row
      end
      order[#order + 1] = m.key
      measures[m.key] = { label = m.label, section = m.section, rows = rows }
    end
  end
  local setups = {}
  for s, side in ipairs(sides) do setups[s] = side.info.label end
  -- per value from the second, the pairs in which it played the same game
  -- as the first value (balance.same_game; the pairs' sums count them)
  local same
  if diffs and not counts then
    same = {}
    for s = 2, #sides do same[s - 1] = diffs[s] and math.tointeger(diffs[s].sum.same or 0) or 0 end
  end
  return { kind = "sweep", over = sweep.over, values = sweep.values, games = accs[1].n, seed = seed,
           paired = diffs ~= nil and not counts, rules = info.rules, players = info.players, seats = info.seats,
           setups = setups, measures = measures, order = order, same_games = same }
end

local num = stats.num   -- (the HTML report prints the same)
local function pad(s, w) return s .. string.rep(" ", w - #s) end
local function lpad(s, w) return string.rep(" ", w - #s) .. s end

-- The sweep as a table: a block per measure, a line per value.
function M.format(sw, color)
  local lines = {}
  local function add(...) lines[#lines + 1] = string.format(...) end
  add("sweep        %s over %s: %d %s games each (seed %d)", text.escape(sw.over),
    text.escape(table.concat(sw.values, ", ")), sw.games, sw.paired and "paired" or "unpaired", sw.seed)
  add("first        %s", text.escape(sw.setups[1]))
  -- a value that played the first value's very games: the change never
  -- came into play there (compare's line, per value)
  for i, n in ipairs(sw.same_games or {}) do
    if n > 0 then
      add("%s=%s played the same game%s as %s=%s in %d of %d pairs%s", text.escape(sw.over),
        text.escape(sw.values[i + 1]), n == 1 and "" or "s", text.escape(sw.over), text.escape(sw.values[1]), n,
        sw.games, n == sw.games and ": the change never came into play with these players" or "")
    end
  end
  if sw.over == "players" then
    add("             (the same seeds deal other games at other player counts, so the games are not")
    add("             paired; each seat's win rate and score are left out: a seat is not the same")
    add("             seat at another count; the first player's advantage is a share of the wins)")
  end
  add("")
  local lw = 34
  for _, key in ipairs(sw.order) do lw = math.max(lw, #text.escape(sw.measures[key].label)) end
  local vw = #sw.over
  for _, v in ipairs(sw.values) do vw = math.max(vw, #v) end
  add("%s %s %s  %s %s  %s  %s", pad("measure", lw), lpad(text.escape(sw.over), vw), lpad("mean", 9),
    pad("95% interval", 18), lpad("- first", 9), pad("95% interval", 21), "verdict")
  for _, key in ipairs(sw.order) do
    local m = sw.measures[key]
    for i, r in ipairs(m.rows) do
      local ci = r.ci and string.format("[%s, %s]", num(r.ci[1]), num(r.ci[2])) or "-"
      local dci = r.diff_ci and string.format("[%s, %s]", num(r.diff_ci[1], true), num(r.diff_ci[2], true)) or ""
      local v = r.verdict or ""
      if color and r.verdict then v = color(v, r.verdict) end
      local line = string.format("%s %s %s  %s %s  %s  %s", pad(i == 1 and text.escape(m.label) or "", lw),
        lpad(text.escape(r.value), vw), lpad(num(r.mean), 9), pad(ci, 18), lpad(i == 1 and "" or num(r.diff, true), 9),
        pad(dci, 21), v)
      add("%s", (line:gsub("%s+$", "")))
    end
  end
  return table.concat(lines, "\n")
end

-- A file name for a measure's chart: its key, letters, digits, - and _ kept.
function M.file_of(key)
  return (key:gsub("[^%w_%-]+", "_")) .. ".svg"
end

return M
