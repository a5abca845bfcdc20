-- kontor.balance.report: one self-contained HTML file with SVG charts
-- written here (no scripts, no fonts or styles from the network): what
-- changed in plain words (Holm's correction for the rows compared), the
-- measures table, A against B (each difference in standard errors, with
-- its interval, on one axis with a zero line), win rate per seat with 95%
-- error bars, score distributions per seat, the game length and lead
-- changes histograms (the sides share the bins), what players do (unless
-- --no-moves) and coverage; a sweep's report: a line chart per measure.
--
-- Every bar is a <rect class="bar">, every chart an <svg class="chart"
-- id=...>, so a test can count them.

local stats = require "kontor.balance.stats"
local balance = require "kontor.balance"
local coverage = require "kontor.balance.coverage"

local M = {}

local COLORS = { "#3b6fb6", "#e07b39" }   -- side A, side B
local NEVER = "#c0392b"
local W, H = 640, 240
local ML, MR, MT, MB = 56, 16, 16, 44    -- margins: left, right, top, bottom

local function esc(s)
  return (tostring(s):gsub("[&<>\"']", { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;",
    ['"'] = "&quot;", ["'"] = "&#39;" }))
end

-- (the text report's figures: kontor.balance.stats.num)
local function fmt(x) return stats.num(x) end
local function fmtsigned(x) return stats.num(x, true) end

-- A "nice" upper bound and tick step for values up to `max`.
local function nice(max)
  if max <= 0 then return 1, 0.25 end
  local p = 10 ^ math.floor(math.log(max, 10))
  for _, m in ipairs { 1, 2, 2.5, 5, 10 } do
    if max <= m * p then
      local top = m * p
      return top, top / 4
    end
  end
  return max, max / 4
end

local function tick_text(v)
  if v == math.floor(v) and math.abs(v) < 1e15 then return string.format("%d", v) end
  return string.format("%.3g", v)
end

-- An SVG chart of grouped bars. groups: { {label, values = {v_side1, ...},
-- err = { {lo, hi}, ... } (optional) }, ... }; opts: { id, title, ylabel,
-- colors, ymin (default 0) }.
local function bar_chart(groups, opts)
  local out = {}
  local function add(...) out[#out + 1] = string.format(...) end
  local nside = 0
  local max = 0
  for _, g in ipairs(groups) do
    nside = math.max(nside, #g.values)
    for i, v in ipairs(g.values) do
      max = math.max(max, v)
      if g.err and g.err[i] then max = math.max(max, g.err[i][2]) end
    end
  end
  local top, step = nice(max)
  local pw, ph = W - ML - MR, H - MT - MB
  local n = math.max(#groups, 1)
  local gw = pw / n
  local bw = gw * 0.8 / math.max(nside, 1)
  local function y(v) return MT + ph - ph * math.max(0, v) / top end
  add('<svg class="chart" id="%s" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="%s">',
    esc(opts.id), W, H, W, H, esc(opts.title))
  add('<title>%s</title>', esc(opts.title))
  for k = 0, 4 do
    local v = step * k
    add('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>', ML, W - MR, y(v), y(v))
    add('<text x="%d" y="%.1f" font-size="10" text-anchor="end" fill="#555">%s</text>', ML - 4, y(v) + 3, tick_text(v))
  end
  local every = math.max(1, math.ceil(n / 20))
  for gi, g in ipairs(groups) do
    local x0 = ML + (gi - 1) * gw + gw * 0.1
    for si, v in ipairs(g.values) do
      local x = x0 + (si - 1) * bw
      add('<rect class="bar" x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s: %s</title></rect>',
        x, y(v), math.max(bw - 1, 0.5), MT + ph - y(v), (opts.colors or COLORS)[si] or "#888",
        esc(g.label), fmt(v))
      local e = g.err and g.err[si]
      if e then
        local cx = x + bw / 2
        add('<path class="errorbar" d="M%.1f %.1fV%.1fM%.1f %.1fh%.1fM%.1f %.1fh%.1f" stroke="#222" fill="none"/>',
          cx, y(e[1]), y(e[2]), cx - 3, y(e[1]), 6, cx - 3, y(e[2]), 6)
      end
    end
    if (gi - 1) % every == 0 then
      add('<text x="%.1f" y="%d" font-size="10" text-anchor="middle" fill="#333">%s</text>',
        ML + (gi - 0.5) * gw, H - MB + 14, esc(g.label))
    end
  end
  add('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="#333"/>', ML, W - MR, MT + ph, MT + ph)
  if opts.ylabel then
    add('<text x="12" y="%d" font-size="11" fill="#333" transform="rotate(-90 12 %d)" text-anchor="middle">%s</text>',
      MT + ph // 2, MT + ph // 2, esc(opts.ylabel))
  end
  if opts.xlabel then
    add('<text x="%d" y="%d" font-size="11" fill="#333" text-anchor="middle">%s</text>', ML + pw // 2, H - 6, esc(opts.xlabel))
  end
  add('</svg>')
  return table.concat(out, "\n")
end

-- Bins for the values of several count maps (value text -> games): whole
-- numbers in at most 40 bins of 1, 2, 5, 10... values, other numbers in 40
-- equal bins; one set of bins for every map, so the sides share them.
-- Returns { {label} } and a counter.
local function bins_of(maps)
  local lo, hi = math.huge, -math.huge
  local integral = true
  for _, m in ipairs(maps) do
    for k in pairs(m) do
      local v = tonumber(k)
      if v < lo then lo = v end
      if v > hi then hi = v end
      if v ~= math.floor(v) then integral = false end
    end
  end
  if lo > hi then return {}, function() return {} end end
  local bins = {}
  local width, n
  if integral then
    width = 1
    for _, w in ipairs { 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000 } do
      width = w
      if (hi - lo) // w + 1 <= 40 then break end
    end
    lo = lo - lo % width
    n = math.floor((hi - lo) // width) + 1
    for i = 1, n do
      local x = lo + (i - 1) * width
      bins[i] = { label = width == 1 and tick_text(x) or (tick_text(x) .. "-" .. tick_text(x + width - 1)) }
    end
  else
    n = 40
    width = (hi - lo) / n
    if width == 0 then width, n = 1, 1 end
    for i = 1, n do bins[i] = { label = tick_text(lo + (i - 1) * width) } end
  end
  local function count(m)
    local c = {}
    for i = 1, n do c[i] = 0 end
    for k, games in pairs(m) do
      local i = math.floor((tonumber(k) - lo) / width) + 1
      if i > n then i = n end
      c[i] = c[i] + games
    end
    return c
  end
  return bins, count
end

local function histogram(maps, opts)
  local bins, count = bins_of(maps)
  local counts = {}
  for i, m in ipairs(maps) do
    local c = count(m)
    local total = 0
    for b = 1, #bins do total = total + c[b] end
    for b = 1, #bins do c[b] = c[b] / math.max(total, 1) end
    counts[i] = c
  end
  local groups = {}
  for b, bin in ipairs(bins) do
    local values = {}
    for i = 1, #maps do values[i] = counts[i][b] end
    groups[b] = { label = bin.label, values = values }
  end
  opts.ylabel = opts.ylabel or "share of games"
  return bar_chart(groups, opts)
end

-- How many standard errors a difference lies from zero (its 95%
-- interval's half-width is 1.96 of them).
local Z = 1.959964
local function z_of(m)
  local half = (m.ci[2] - m.ci[1]) / 2
  if half <= 0 then return 0 end
  return m.diff / (half / Z)
end

-- The differences of a comparison with their intervals, one row each, on
-- one axis: the difference in standard errors of its own measure (z), so
-- that rows of different units share the axis; the line at 0 is "no
-- change", the interval is z +- 1.96.
local function forest(c, keys)
  local rows = {}
  for _, key in ipairs(keys) do
    local m = c.measures[key]
    if m.ci then rows[#rows + 1] = { key = key, m = m, z = z_of(m) } end
  end
  local rh = 20
  local h = MT + #rows * rh + 44
  local lw = 260
  local pw = W - lw - MR
  -- the axis reaches the largest interval, at most 12 standard errors:
  -- a row beyond is drawn to the edge, its dot an arrow, its z written
  local span = 4
  for _, r in ipairs(rows) do span = math.max(span, math.abs(r.z) + Z) end
  span = math.min(span, 12)
  local step = span <= 8 and 2 or 4
  span = math.ceil(span / step) * step
  local function clamp(v) return math.max(-span, math.min(span, v)) end
  local function x(v) return lw + pw / 2 + (pw / 2 - 8) * clamp(v) / span end
  local out = {}
  local function add(...) out[#out + 1] = string.format(...) end
  add('<svg class="chart" id="differences" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="B - A in standard errors with 95%% intervals">',
    W, h, W, h)
  add('<title>B - A in standard errors of each measure, with 95%% intervals</title>')
  local ybot = MT + #rows * rh
  for v = -span, span, step do
    add('<line class="tick" x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#eee"/>', x(v), x(v), MT - 4, ybot)
    add('<text x="%.1f" y="%d" font-size="10" text-anchor="middle" fill="#555">%s</text>', x(v), ybot + 14, tick_text(v))
  end
  add('<line class="axis" x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#333"/>', x(-span), x(span), ybot, ybot)
  add('<line class="zero" x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#333" stroke-dasharray="3 3"/>', x(0), x(0), MT - 4, ybot)
  add('<text x="%.1f" y="%d" font-size="11" text-anchor="middle" fill="#333">B - A, in standard errors (0: no change)</text>', x(0), ybot + 32)
  for i, r in ipairs(rows) do
    local m = r.m
    local y = MT + (i - 0.5) * rh
    local color = m.verdict and (m.diff > 0 and COLORS[2] or COLORS[1]) or "#777"
    add('<text x="%d" y="%.1f" font-size="11" fill="#222">%s</text>', 4, y + 4, esc(m.label))
    add('<path class="interval" d="M%.1f %.1fH%.1f" stroke="%s" stroke-width="2"/>', x(r.z - Z), y, x(r.z + Z), color)
    local tip = string.format("%s: %s [%s, %s]%s", esc(m.label), fmtsigned(m.diff), fmtsigned(m.ci[1]),
      fmtsigned(m.ci[2]), m.verdict and (" " .. m.verdict) or "")
    if math.abs(r.z) <= span then
      add('<circle cx="%.1f" cy="%.1f" r="4" fill="%s"><title>%s</title></circle>', x(r.z), y, color, tip)
    else                                   -- off the axis: an arrow at its edge and the z
      local e, dir = x(r.z), r.z > 0 and 1 or -1
      add('<path class="beyond" d="M%.1f %.1fl%d -5v10z" fill="%s"><title>%s</title></path>', e + 6 * dir, y, -8 * dir, color, tip)
      add('<text x="%.1f" y="%.1f" font-size="10" text-anchor="%s" fill="#333">%.0f</text>', e - 12 * dir, y - 4,
        dir > 0 and "end" or "start", r.z)
    end
  end
  add('</svg>')
  return table.concat(out, "\n")
end

-- The keys whose p values (p[i] for keys[i]) hold after Holm's
-- correction, as a set, and how many were compared.
local function holding(keys, p)
  local keep = stats.holm(p)
  local out = {}
  for i, key in ipairs(keys) do if keep[i] then out[key] = true end end
  return out, #keys
end

-- Holm's correction over every row with an interval: { [key] = true } for
-- the rows whose difference holds after it.
local function holm(c)
  local keys, p = {}, {}
  for _, key in ipairs(c.order) do
    local m = c.measures[key]
    if m.ci and not key:match("^moves%..* #%d+$") then keys[#keys + 1] = key; p[#p + 1] = stats.p_of(m.diff, m.ci) end
  end
  return holding(keys, p)
end
M.holm = holm

-- Horizontal bars, one row per label and one bar per side, with 95% error
-- bars: { {label, values = {...}, err = {{lo, hi}, ...}} }.
local function hbars(rows, opts)
  local rh = 10 * math.max(1, #(rows[1] and rows[1].values or {})) + 8
  local lw = 300
  local h = MT + #rows * rh + 30
  local max = 0
  for _, r in ipairs(rows) do
    for i, v in ipairs(r.values) do
      max = math.max(max, v, r.err and r.err[i] and r.err[i][2] or 0)
    end
  end
  local top = nice(max)
  local pw = W - lw - MR
  local function x(v) return lw + pw * math.max(0, v) / top end
  local out = {}
  local function add(...) out[#out + 1] = string.format(...) end
  add('<svg class="chart" id="%s" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="%s">',
    esc(opts.id), W, h, W, h, esc(opts.title))
  add('<title>%s</title>', esc(opts.title))
  local ybot = MT + #rows * rh
  for k = 0, 4 do
    local v = top * k / 4
    add('<line x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#ddd"/>', x(v), x(v), MT - 4, ybot)
    add('<text x="%.1f" y="%d" font-size="10" text-anchor="middle" fill="#555">%s</text>', x(v), ybot + 14, tick_text(v))
  end
  for i, r in ipairs(rows) do
    local y0 = MT + (i - 1) * rh
    add('<text x="%d" y="%.1f" font-size="11" text-anchor="end" fill="#222">%s</text>', lw - 6, y0 + rh / 2 + 4, esc(r.label))
    for si, v in ipairs(r.values) do
      local y = y0 + 4 + (si - 1) * 10
      add('<rect class="bar" x="%d" y="%d" width="%.1f" height="8" fill="%s"><title>%s: %s</title></rect>', lw, y,
        x(v) - lw, COLORS[si] or "#888", esc(r.label), fmt(v))
      local e = r.err and r.err[si]
      if e then
        add('<path class="errorbar" d="M%.1f %dH%.1f" stroke="#222"/>', x(e[1]), y + 4, x(e[2]))
      end
    end
  end
  if opts.xlabel then
    add('<text x="%.1f" y="%d" font-size="11" text-anchor="middle" fill="#333">%s</text>', lw + pw / 2, h - 4, esc(opts.xlabel))
  end
  add('</svg>')
  return table.concat(out, "\n")
end

-- Coverage: one bar per entry, never-fired entries first and in red.
local function coverage_chart(id, title, map)
  local list = coverage.sorted(map)
  local out = {}
  local never = {}
  for _, e in ipairs(list) do if e.count == 0 then never[#never + 1] = esc(e.name) end end
  out[#out + 1] = string.format('<p>%d %s; never fired: <span class="never">%s</span></p>', #list, esc(title),
    #never > 0 and table.concat(never, ", ") or "none")
  if #list > 0 then
    local rh = 16
    local h = MT + #list * rh + 10
    local lw = 200
    local max = 0
    for _, e in ipairs(list) do max = math.max(max, e.count) end
    local o = {}
    o[#o + 1] = string.format('<svg class="chart" id="%s" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="%s">',
      esc(id), W, h, W, h, esc(title))
    for i, e in ipairs(list) do
      local y = MT + (i - 1) * rh
      local w = max > 0 and (W - lw - MR - 60) * e.count / max or 0
      o[#o + 1] = string.format('<text x="%d" y="%d" font-size="11" text-anchor="end" fill="%s">%s</text>', lw - 6, y + 11,
        e.count == 0 and NEVER or "#222", esc(e.name))
      o[#o + 1] = string.format('<rect class="bar" x="%d" y="%d" width="%.1f" height="%d" fill="%s"><title>%s: %d</title></rect>',
        lw, y + 2, w, rh - 4, COLORS[1], esc(e.name), e.count)
      o[#o + 1] = string.format('<text x="%.1f" y="%d" font-size="10" fill="%s">%s</text>', lw + w + 4, y + 11,
        e.count == 0 and NEVER or "#555", e.count == 0 and "never" or tostring(e.count))
    end
    o[#o + 1] = '</svg>'
    out[#out + 1] = table.concat(o, "\n")
  end
  return table.concat(out, "\n")
end

-- A line chart of one measure over a sweep's values: the mean at each
-- value (a dot, joined by a line) and its 95% interval (a bar); a y axis
-- with ticks, and the zero line where zero is in range.
function M.line_chart(m, values, opts)
  local rows = m.rows
  local lo, hi = math.huge, -math.huge
  for _, r in ipairs(rows) do
    local a, b = r.mean or 0, r.mean or 0
    if r.ci then a, b = r.ci[1], r.ci[2] end
    lo, hi = math.min(lo, a), math.max(hi, b)
  end
  if lo == hi then lo, hi = lo - 1, hi + 1 end
  local pad = (hi - lo) * 0.08
  lo, hi = lo - pad, hi + pad
  local span = hi - lo
  local p10 = 10 ^ math.floor(math.log(span / 4, 10))
  local step = p10
  for _, f in ipairs { 1, 2, 2.5, 5, 10 } do
    step = f * p10
    if span / step <= 6 then break end
  end
  local pw, ph = W - ML - MR, H - MT - MB
  local n = #values
  local function x(i) return ML + pw * (i - 0.5) / n end
  local function y(v) return MT + ph - ph * (v - lo) / span end
  local out = {}
  local function add(...) out[#out + 1] = string.format(...) end
  add('<svg class="chart sweep" id="%s" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="%s">',
    esc(opts.id), W, H, W, H, esc(m.label))
  add('<title>%s over %s</title>', esc(m.label), esc(opts.over))
  add('<text x="%d" y="11" font-size="11" fill="#333">%s</text>', ML, esc(m.label))
  local t = math.ceil(lo / step) * step
  while t <= hi + 1e-12 do
    add('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/>', ML, W - MR, y(t), y(t))
    add('<text x="%d" y="%.1f" font-size="10" text-anchor="end" fill="#555">%s</text>', ML - 4, y(t) + 3, tick_text(t))
    t = t + step
  end
  if lo < 0 and hi > 0 then
    add('<line class="zero" x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#333" stroke-dasharray="3 3"/>', ML, W - MR, y(0), y(0))
  end
  add('<line class="axis" x1="%d" x2="%d" y1="%d" y2="%d" stroke="#333"/>', ML, ML, MT, MT + ph)
  add('<line class="axis" x1="%d" x2="%d" y1="%d" y2="%d" stroke="#333"/>', ML, W - MR, MT + ph, MT + ph)
  local path = {}
  for i, r in ipairs(rows) do
    if r.mean then path[#path + 1] = string.format("%s%.1f %.1f", #path == 0 and "M" or "L", x(i), y(r.mean)) end
  end
  add('<path class="line" d="%s" stroke="%s" fill="none" stroke-width="2"/>', table.concat(path), COLORS[1])
  for i, r in ipairs(rows) do
    if r.ci then
      add('<path class="errorbar" d="M%.1f %.1fV%.1fM%.1f %.1fh8M%.1f %.1fh8" stroke="#222" fill="none"/>',
        x(i), y(r.ci[1]), y(r.ci[2]), x(i) - 4, y(r.ci[1]), x(i) - 4, y(r.ci[2]))
    end
    if r.mean then
      add('<circle class="point" cx="%.1f" cy="%.1f" r="4" fill="%s"><title>%s=%s: %s%s%s</title></circle>', x(i), y(r.mean),
        r.verdict and COLORS[2] or COLORS[1], esc(opts.over), esc(values[i]), fmt(r.mean),
        r.ci and string.format(" [%s, %s]", fmt(r.ci[1]), fmt(r.ci[2])) or "", r.verdict and (", " .. r.verdict .. " than the first") or "")
    end
    add('<text x="%.1f" y="%d" font-size="10" text-anchor="middle" fill="#333">%s</text>', x(i), H - MB + 14, esc(values[i]))
  end
  add('<text x="%d" y="%d" font-size="11" fill="#333" text-anchor="middle">%s</text>', ML + pw // 2, H - 6, esc(opts.over))
  add('</svg>')
  return table.concat(out, "\n")
end

-- Holm's correction over the differences of a sweep from its first value
-- (every measure at every other value): { [key] = { [value index] = true } }
-- for those that hold, and how many were compared.
local function sweep_holm(sw)
  local at, p = {}, {}
  for _, key in ipairs(sw.order) do
    for i, r in ipairs(sw.measures[key].rows) do
      if i > 1 and r.diff_ci and r.diff then
        at[#at + 1] = { key, i }
        p[#p + 1] = stats.p_of(r.diff, r.diff_ci)
      end
    end
  end
  local keep = stats.holm(p)
  local out = {}
  for j, k in ipairs(at) do
    if keep[j] then
      out[k[1]] = out[k[1]] or {}
      out[k[1]][k[2]] = true
    end
  end
  return out, #at
end
M.sweep_holm = sweep_holm

local SECTIONS = {
  { "result", "Results", "sweep-results" },
  { "tension", "Is it still a game?", "sweep-tension" },
  { "moves", "What players do", "sweep-moves" },
}

-- The report of a sweep: what changes over the values in plain words
-- (Holm's correction over every measure at every value), then a section
-- of line charts per kind of measure (results, is it still a game, what
-- players do).
function M.sweep_html(sw)
  local out = {}
  local function add(...) out[#out + 1] = string.format(...) end
  add('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">')
  add('<meta name="viewport" content="width=device-width, initial-scale=1">')
  add('<title>Kontor sweep report</title>\n<style>%s</style>\n</head>\n<body>', M.CSS)
  add('<h1>Kontor sweep report</h1>')
  local seats = {}
  for s, b in ipairs(sw.seats) do seats[s] = string.format("seat %d %s", s, b) end
  local keep, m = sweep_holm(sw)
  add('<div class="summary"><h2>What changes with %s</h2>', esc(sw.over))
  if sw.over == "players" then
    add('<p>players over %s: %d games each of %s, seed %d. The same seeds deal other games at other player counts, so the games are not paired; each value is compared with the first, players=%s. Each seat\'s win rate and score are left out: a seat is not the same seat at another count.</p>',
      esc(table.concat(sw.values, ", ")), sw.games, esc(sw.rules), sw.seed, esc(sw.values[1]))
  else
    add('<p>%s over %s: %d %s games each of %s, %d players (%s), seed %d. Each value plays the same deals; each is compared with the first, %s=%s.</p>',
      esc(sw.over), esc(table.concat(sw.values, ", ")), sw.games, sw.paired and "paired" or "unpaired", esc(sw.rules),
      sw.players, esc(table.concat(seats, ", ")), sw.seed, esc(sw.over), esc(sw.values[1]))
  end
  -- the setup itself: the rule set's name alone does not say which variant is swept
  if sw.setups and sw.setups[1] then add('<p>The first value\'s setup: <code>%s</code>.</p>', esc(sw.setups[1])) end
  if sw.bots_text then add('<p class="bots">%s</p>', esc(sw.bots_text)) end
  local changed, chance = {}, {}
  for _, key in ipairs(sw.order) do
    local ms = sw.measures[key]
    local at, z, lone = {}, 0, {}
    for i, r in ipairs(ms.rows) do
      if r.verdict then
        if keep[key] and keep[key][i] then
          at[#at + 1] = string.format("%s at %s (%s)", esc(r.verdict), esc(r.value), fmtsigned(r.diff))
          local zi = math.abs(z_of { diff = r.diff, ci = r.diff_ci })
          if zi > z then z = zi end
        else
          lone[#lone + 1] = esc(r.value)
        end
      end
    end
    if #at > 0 then changed[#changed + 1] = { key = key, label = ms.label, words = at, z = z } end
    if #lone > 0 then chance[#chance + 1] = string.format("%s at %s", esc(ms.label), table.concat(lone, ", ")) end
  end
  table.sort(changed, function(x, y) if x.z ~= y.z then return x.z > y.z end return x.key < y.key end)
  if #changed == 0 then
    add('<p>Nothing measurably changes: no difference from %s=%s of the %d compared holds after Holm\'s correction for %d comparisons.</p>',
      esc(sw.over), esc(sw.values[1]), m, m)
  else
    add('<p>The measures that change from %s=%s, biggest effect first (in standard errors), at the values where the difference holds after Holm\'s correction for the %d comparisons (every measure at every value):</p><ol id="changed">',
      esc(sw.over), esc(sw.values[1]), m)
    for i, c in ipairs(changed) do
      if i > 12 then
        add('<li>and %d more (the charts below)</li>', #changed - 12)
        break
      end
      add('<li>%s: %s</li>', esc(c.label), table.concat(c.words, ", "))
    end
    add('</ol>')
  end
  if #chance > 0 then
    add('<p class="chance">%d more %s an interval that leaves out zero, but among %d comparisons that can be chance (Holm\'s correction does not hold %s): %s.</p>',
      #chance, #chance == 1 and "measure has" or "measures have", m, #chance == 1 and "it" or "them",
      table.concat(chance, "; ", 1, math.min(#chance, 12)) .. (#chance > 12 and string.format("; and %d more", #chance - 12) or ""))
  end
  add('</div>')
  for _, sec in ipairs(SECTIONS) do
    local keys = {}
    for _, key in ipairs(sw.order) do
      if sw.measures[key].section == sec[1] then keys[#keys + 1] = key end
    end
    if #keys > 0 then
      add('<section id="%s"><h2>%s</h2>', sec[3], sec[2])
      for _, key in ipairs(keys) do
        local ms = sw.measures[key]
        add('<figure>%s<figcaption>%s per value of %s, with 95%% intervals; orange where it differs from the first value.</figcaption></figure>',
          M.line_chart(ms, sw.values, { id = "sweep-" .. key:gsub("[^%w_%-]+", "_"), over = sw.over }), esc(ms.label), esc(sw.over))
      end
      add('</section>')
    end
  end
  add('<p><small>Written by kontor %s.</small></p>', esc(require("kontor.core").version))
  add('</body>\n</html>\n')
  return table.concat(out, "\n")
end

-- Holm's correction over the kinds of a worth run that were measured and
-- kept from (row.p, the difference from the same seat unrestricted): { [kind] = true }
-- for those that hold, and how many were compared.
local function worth_holm(w)
  local kinds, p = {}, {}
  for _, r in ipairs(w.rows) do
    if r.offered and type(r.p) == "number" then kinds[#kinds + 1] = r.kind; p[#p + 1] = r.p end
  end
  return holding(kinds, p)
end
M.worth_holm = worth_holm

local function has_ci(r) return type(r.diff_ci) == "table" and type(r.diff) == "number" end

-- The chart of a worth run: a row per kind, its difference (dot) and 95%
-- interval (line): the restricted seat's win less the same seat's win on
-- the same deal unrestricted, on one axis round 0 (the line where the
-- move changes nothing); blue where the seat wins less without the move
-- (it helps win), orange more (it costs), grey where the difference could
-- be chance or the seat was never kept from it.
local function worth_chart(w, keep)
  local rows = {}
  for _, r in ipairs(w.rows) do if has_ci(r) then rows[#rows + 1] = r end end
  local rh = 20
  local lw = 260
  local h = MT + #rows * rh + 44
  local pw = W - lw - MR - 8
  local far = 0.05
  for _, r in ipairs(rows) do far = math.max(far, -r.diff_ci[1], r.diff_ci[2]) end
  local top = nice(far)
  local function x(v) return lw + pw * (math.max(-top, math.min(top, v)) + top) / (2 * top) end
  local out = {}
  local function add(...) out[#out + 1] = string.format(...) end
  add('<svg class="chart" id="worth" xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" role="img" aria-label="the win without each kind of move less the win unrestricted, with 95%% intervals">',
    W, h, W, h)
  add('<title>The win of the seat that never makes the move less its win on the same deal unrestricted, with 95%% intervals; 0 dashed</title>')
  local ybot = MT + #rows * rh
  for k = -2, 2 do
    local v = top * k / 2
    add('<line class="tick" x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#eee"/>', x(v), x(v), MT - 4, ybot)
    add('<text class="tick" x="%.1f" y="%d" font-size="10" text-anchor="middle" fill="#555">%s</text>', x(v), ybot + 14,
      v > 0 and ("+" .. tick_text(v)) or v < 0 and ("-" .. tick_text(-v)) or "0")
  end
  add('<line class="axis" x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#333"/>', x(-top), x(top), ybot, ybot)
  add('<line class="zero" x1="%.1f" x2="%.1f" y1="%d" y2="%d" stroke="#333" stroke-dasharray="3 3"/>', x(0), x(0), MT - 8, ybot)
  add('<text class="zero" x="%.1f" y="%d" font-size="10" text-anchor="middle" fill="#333">as unrestricted</text>',
    x(0), MT - 10 > 8 and MT - 10 or 10)
  add('<text x="%.1f" y="%d" font-size="11" text-anchor="middle" fill="#333">win without the move less the win unrestricted, deal by deal</text>',
    lw + pw / 2, ybot + 32)
  for i, r in ipairs(rows) do
    local y = MT + (i - 0.5) * rh
    local color = "#777"
    if r.offered and keep[r.kind] then color = r.diff < 0 and COLORS[1] or COLORS[2] end
    add('<text class="kind" x="%d" y="%.1f" font-size="11" fill="%s">%s%s</text>', 4, y + 4, r.offered and "#222" or "#888",
      esc(r.kind), r.offered and "" or " (never kept from it)")
    add('<path class="interval" d="M%.1f %.1fH%.1f" stroke="%s" stroke-width="2"/>', x(r.diff_ci[1]), y, x(r.diff_ci[2]), color)
    add('<circle class="point" cx="%.1f" cy="%.1f" r="4" fill="%s"><title>%s: %s [%s, %s] against the same seat unrestricted (wins %s)%s</title></circle>',
      x(r.diff), y, color, esc(r.kind), fmtsigned(r.diff), fmtsigned(r.diff_ci[1]), fmtsigned(r.diff_ci[2]),
      type(r.win_rate) == "number" and fmt(r.win_rate) or "-",
      not r.offered and "; never kept from it: tells nothing" or (keep[r.kind] and "; holds after Holm" or ""))
  end
  add('</svg>')
  return table.concat(out, "\n")
end

-- The report of `kontor worth` (its summary, kontor.balance.worth): what
-- the moves are worth in plain words, the chart, the table.
function M.worth_html(w)
  local out = {}
  local function add(...) out[#out + 1] = string.format(...) end
  add('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">')
  add('<meta name="viewport" content="width=device-width, initial-scale=1">')
  add('<title>Kontor worth report</title>\n<style>%s</style>\n</head>\n<body>', M.CSS)
  add('<h1>Kontor worth report</h1>')
  local keep, m = worth_holm(w)
  add('<div class="summary"><h2>What a move is worth</h2>')
  local u = w.unrestricted
  add('<p>%d games for each kind of move of %s (<code>%s</code>), %d players, every seat %s, seed %d. In each game one seat in turn never makes the move while another is legal; its fair share of the wins is %s (1/%d). Every deal is also played with no seat restricted, where the same seats win %s; a kind\'s difference is, deal by deal, the seat\'s win without the move less its win unrestricted (0 in every game where the restriction was never in the way).</p>',
    w.games, esc(w.rules), esc(w.label), w.players, esc(w.bot), w.seed, fmt(w.fair), w.players,
    u and type(u.win_rate) == "number" and (fmt(u.win_rate) .. (type(u.ci) == "table" and
      string.format(" [%s, %s]", fmt(u.ci[1]), fmt(u.ci[2])) or "")) or "-")
  local helps, costs, chance, none, never = {}, {}, {}, {}, {}
  for _, r in ipairs(w.rows) do
    if not r.restriction then
      never[#never + 1] = esc(r.kind) .. " (not measured)"
    elseif not r.offered then
      never[#never + 1] = esc(r.kind)
    elseif has_ci(r) and (r.diff_ci[1] > 0 or r.diff_ci[2] < 0) then
      if keep[r.kind] then
        local z = math.abs(z_of { diff = r.diff, ci = r.diff_ci })
        local item = { r = r, z = z }
        if r.diff < 0 then helps[#helps + 1] = item else costs[#costs + 1] = item end
      else
        chance[#chance + 1] = esc(r.kind)
      end
    elseif has_ci(r) then
      none[#none + 1] = esc(r.kind)
    end
  end
  local function by_z(x, y) if x.z ~= y.z then return x.z > y.z end return x.r.kind < y.r.kind end
  table.sort(helps, by_z)
  table.sort(costs, by_z)
  local function item(i)
    local r = i.r
    return string.format('<li>%s: %s [%s, %s] against the same seat unrestricted (the seat without it wins %s)</li>', esc(r.kind),
      fmtsigned(r.diff), fmtsigned(r.diff_ci[1]), fmtsigned(r.diff_ci[2]), type(r.win_rate) == "number" and fmt(r.win_rate) or "-")
  end
  if #helps + #costs == 0 then
    add('<p>No move measurably decides games: no difference from the same seat unrestricted of the %d kinds compared holds after Holm\'s correction for %d comparisons.</p>', m, m)
  end
  if #helps > 0 then
    add('<p>Moves that help win: a seat that never makes them wins less than on the same deals unrestricted (after Holm\'s correction for the %d kinds compared), biggest effect first:</p><ol id="helps">', m)
    for _, i in ipairs(helps) do add('%s', item(i)) end
    add('</ol>')
  end
  if #costs > 0 then
    add('<p>Moves that cost games: a seat that never makes them wins more than on the same deals unrestricted (after Holm\'s correction for the %d kinds compared), biggest effect first:</p><ol id="costs">', m)
    for _, i in ipairs(costs) do add('%s', item(i)) end
    add('</ol>')
  end
  if #chance > 0 then
    add('<p class="chance">%d more %s a difference whose interval leaves out 0, but among %d comparisons that can be chance (Holm\'s correction does not hold %s): %s.</p>',
      #chance, #chance == 1 and "kind has" or "kinds have", m, #chance == 1 and "it" or "them", table.concat(chance, "; "))
  end
  if #none > 0 then
    add('<p>No one needs, as far as %d games a kind tell (the interval of the difference holds 0): %s.</p>',
      w.games, table.concat(none, "; "))
  end
  if #never > 0 then
    add('<p>Tell nothing (the seat never had a move of the kind and another at once): %s.</p>', table.concat(never, "; "))
  end
  add('</div>')
  add('<h2>What the seat wins without each move</h2>')
  add('<figure>%s<figcaption>The seat\'s win without the move less its win on the same deal unrestricted (dot), and its 95%% interval (line); the dashed line is 0, no difference. Blue: the move helps win; orange: it costs games (both after Holm\'s correction); grey: could be chance, or the seat was never kept from it.</figcaption></figure>',
    worth_chart(w, keep))
  add('<h2>Every kind</h2>')
  add('<table id="worth-table">')
  add('<tr><th>kind</th><th>win rate</th><th>95%% interval</th><th>diff</th><th>95%% interval</th><th>after Holm</th><th>kept from it</th></tr>')
  for _, r in ipairs(w.rows) do
    local verdict = ""
    if has_ci(r) and r.offered and (r.diff_ci[1] > 0 or r.diff_ci[2] < 0) then
      verdict = keep[r.kind] and (r.diff < 0 and "helps win" or "costs games") or "could be chance"
    end
    local kept
    if not r.restriction then kept = "not measured: " .. esc(r.why or "")
    elseif not r.offered then kept = "never: tells nothing"
    else kept = string.format("%.2f of games, %.1f a game", r.kept_share, r.kept_per_game) end
    add('<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td class="verdict">%s</td><td>%s</td></tr>', esc(r.kind),
      type(r.win_rate) == "number" and fmt(r.win_rate) or "-",
      type(r.ci) == "table" and string.format("[%s, %s]", fmt(r.ci[1]), fmt(r.ci[2])) or "-",
      type(r.diff) == "number" and fmtsigned(r.diff) or "-",
      has_ci(r) and string.format("[%s, %s]", fmtsigned(r.diff_ci[1]), fmtsigned(r.diff_ci[2])) or "-", verdict, kept)
  end
  add('</table>')
  add('<p><small>Written by kontor %s.</small></p>', esc(require("kontor.core").version))
  add('</body>\n</html>\n')
  return table.concat(out, "\n")
end

local CSS = [[
body { font: 14px/1.45 system-ui, sans-serif; color: #222; margin: 2em auto; max-width: 980px; padding: 0 1em; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; } td, th { padding: 2px 10px; text-align: right; }
td:not(:first-child) { white-space: nowrap; }
td:first-child, th:first-child { text-align: left; } tr:nth-child(even) { background: #f6f6f6; }
.key span { display: inline-block; width: 12px; height: 12px; margin: 0 4px 0 12px; vertical-align: -1px; }
.summary { background: #f3f7fc; border: 1px solid #cfdcee; padding: 0.2em 1em; } .chance { color: #8a5a00; }
.never { color: #c0392b; } .verdict { font-weight: bold; } code { font-size: 13px; }
figure { margin: 1em 0; } figcaption { color: #555; font-size: 13px; }
]]

local function side_label(summary, s)
  if summary.kind ~= "compare" then return summary.setup end
  return (s == 1 and "A: " or "B: ") .. (s == 1 and summary.a.setup or summary.b.setup)
end

local function seat_rows(key) return key:match("^moves%..* #%d+$") ~= nil end

-- The plain-words summary that opens the report.
-- "seat 1 greedy, ..., seat 4 greedy:avoid=sell": each seat's bot as the
-- bots line names it (with its restriction), of side i's list.
local function seat_list(summary, info, i)
  local names = {}
  for s, b in ipairs(info.seats) do names[s] = b end
  for _, b in ipairs(summary.bots and summary.bots[i] or {}) do
    if type(b) == "table" and type(b.bot) == "string" then
      for _, s in ipairs(b.seats or {}) do names[s] = b.bot end
    end
  end
  local out = {}
  for s, b in ipairs(names) do out[s] = string.format("seat %d %s", s, b) end
  return table.concat(out, ", ")
end

local function summary_words(summary, sides, add)
  local info = sides[1].info
  local seats = { seat_list(summary, info, 1) }
  if sides[2] and seat_list(summary, sides[2].info, 2) ~= seats[1] then
    seats = { "A: " .. seats[1], "B: " .. seat_list(summary, sides[2].info, 2) }
  end
  if summary.kind ~= "compare" then
    local with = #(info.variants or {}) > 0 and (" with " .. table.concat(info.variants, ", ")) or ""
    add('<p class="summary">%d games of %s%s, %d players (%s), seed %d.</p>', summary.games, esc(info.rules),
      esc(with), info.players, esc(seats[1]), summary.seed)
    return
  end
  local keep, m = holm(summary)
  local changed, chance = {}, {}
  for _, key in ipairs(summary.order) do
    local r = summary.measures[key]
    if r.ci and r.verdict and not seat_rows(key) then
      if keep[key] then changed[#changed + 1] = { key = key, m = r, z = math.abs(z_of(r)) }
      else chance[#chance + 1] = r end
    end
  end
  -- the results and the tension measures before what players do (a move
  -- only B has would else fill the list before who wins), each biggest first
  local RANK = { result = 1, tension = 2 }
  local function rank(c) return RANK[c.m.section] or 3 end
  table.sort(changed, function(x, y)
    if rank(x) ~= rank(y) then return rank(x) < rank(y) end
    if x.z ~= y.z then return x.z > y.z end
    return x.key < y.key
  end)
  add('<div class="summary"><h2>What changed</h2>')
  add('<p>%d %s games of A and B, %d players (%s).</p>', summary.games, summary.paired and "paired" or "unpaired",
    info.players, esc(table.concat(seats, "; ")))
  -- the pairs that were the same game (the text's line under B)
  local same = summary.same_games
  if same and same == summary.games then
    add('<p id="same-games">A and B played the same games in %d of %d pairs: the change never came into play with '
      .. 'these players.</p>', same, summary.games)
  elseif same and same > 0 then
    add('<p id="same-games">A and B played the same game in %d of %d pairs: the change came into play in the other '
      .. '%d.</p>', same, summary.games, summary.games - same)
  end
  if #changed == 0 then
    add('<p>Nothing measurably changed: no difference of the %d compared holds after Holm\'s correction for %d comparisons.</p>', m, m)
  else
    add('<p>B against A, the results first, then how the game plays, then what players do, each biggest effect first (in standard errors): the differences that hold after Holm\'s correction for the %d comparisons:</p><ol id="changed">', m)
    for i, c in ipairs(changed) do
      if i > 12 then
        add('<li>and %d more (the tables below)</li>', #changed - 12)
        break
      end
      add('<li>%s: %s (A %s, B %s; B - A %s, 95%% interval [%s, %s])</li>', esc(c.m.label), esc(c.m.verdict), fmt(c.m.a),
        fmt(c.m.b), fmtsigned(c.m.diff), fmtsigned(c.m.ci[1]), fmtsigned(c.m.ci[2]))
    end
    add('</ol>')
  end
  if #chance > 0 then
    local names = {}
      for i, r in ipairs(chance) do names[i] = esc(r.label) end
    add('<p class="chance">%d more %s an interval that leaves out zero, but among %d comparisons that can be chance (Holm\'s correction does not hold %s): %s.</p>',
      #chance, #chance == 1 and "row has" or "rows have", m, #chance == 1 and "it" or "them", table.concat(names, "; "))
  end
  add('</div>')
end

-- The HTML text of the report of `summary` (a sim or compare summary) and
-- its sides ({ info, data = sums (stats.acc), coverage }).
function M.html(summary, sides)
  local out = {}
  local function add(...) out[#out + 1] = string.format(...) end
  local compare = summary.kind == "compare"
  add('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">')
  add('<meta name="viewport" content="width=device-width, initial-scale=1">')
  add('<title>Kontor balance report</title>\n<style>%s</style>\n</head>\n<body>', CSS)
  add('<h1>Kontor balance report</h1>')
  summary_words(summary, sides, add)
  add('<p>%d %sgames, seed %d.</p>', summary.games,
    compare and (summary.paired and "paired " or "unpaired ") or "", summary.seed)
  if summary.bots_text then add('<p class="bots">%s</p>', (esc(summary.bots_text):gsub("\n", "<br>"))) end
  add('<p class="key">')
  for s = 1, #sides do
    add('<span style="background:%s"></span><code>%s</code><br>', COLORS[s], esc(side_label(summary, s)))
  end
  add('</p>')

  -- the measures
  local keep = compare and holm(summary) or {}
  local main = {}
  for _, key in ipairs(summary.order) do
    if summary.measures[key].section ~= "moves" then main[#main + 1] = key end
  end
  local function table_of(id, keys)
    add('<table id="%s">', id)
    if compare then
      add('<tr><th>measure</th><th>A</th><th>B</th><th>B - A</th><th>95%% interval</th><th>verdict</th><th>after Holm</th></tr>')
      for _, key in ipairs(keys) do
        local m = summary.measures[key]
        add('<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td class="verdict">%s</td><td>%s</td></tr>',
          esc(m.label), fmt(m.a), fmt(m.b), fmtsigned(m.diff),
          m.ci and string.format("[%s, %s]", fmtsigned(m.ci[1]), fmtsigned(m.ci[2])) or "-", esc(m.verdict or ""),
          m.verdict and (keep[key] and "holds" or "could be chance") or "")
      end
    else
      add('<tr><th>measure</th><th>mean</th><th>95%% interval</th></tr>')
      for _, key in ipairs(keys) do
        local m = summary.measures[key]
        add('<tr><td>%s</td><td>%s</td><td>%s</td></tr>', esc(m.label), fmt(m.mean),
          m.ci and string.format("[%s, %s]", fmt(m.ci[1]), fmt(m.ci[2])) or "-")
      end
    end
    add('</table>')
  end
  add('<h2>Measures</h2>')
  table_of("measures", main)
  if compare then
    add('<p>Verdicts are corrected for the %d comparisons of this report by Holm\'s step-down method (family-wise 5%%): a verdict that does not hold after it could be chance.</p>',
      select(2, holm(summary)))
    add('<h2>A against B</h2>')
    add('<figure>%s<figcaption>Each difference B - A (dot) and its 95%% interval (line), in standard errors of its measure: 0 (dashed) is no change; where the interval leaves out zero, in the colour of the side that is higher (orange: B, blue: A, as in the charts below).</figcaption></figure>',
      forest(summary, main))
  end

  -- win rate per seat
  local P = 0
  for _, side in ipairs(sides) do P = math.max(P, side.info.players) end
  local groups = {}
  for seat = 1, P do
    local values, err = {}, {}
    for s, side in ipairs(sides) do
      if seat <= side.info.players then
        local r = stats.acc_ci(side.data, "win_rate." .. seat, balance.win_scale(side.info.players), "share")
        values[s] = r.mean or 0
        err[s] = r.ci
      else
        values[s] = 0
      end
    end
    groups[seat] = { label = "seat " .. seat, values = values, err = err }
  end
  add('<h2>Win rate per seat</h2>')
  add('<figure>%s<figcaption>Share of the games won (a shared win counts 1/k for each of k winners), with 95%% intervals.</figcaption></figure>',
    bar_chart(groups, { id = "winrate", title = "win rate per seat", ylabel = "win rate" }))

  -- scores per seat
  local function maps(key)
    local l = {}
    for s, side in ipairs(sides) do l[s] = side.data.hist and side.data.hist[key] or {} end
    return l
  end
  add('<h2>Score distributions per seat</h2>')
  for seat = 1, P do
    add('<figure>%s<figcaption>Final scores of seat %d%s.</figcaption></figure>',
      histogram(maps("score." .. seat), { id = "scores-" .. seat, title = "scores of seat " .. seat, xlabel = "final score" }), seat,
      #sides > 1 and " (the sides share the bins)" or "")
  end

  -- game length and lead changes
  add('<h2>Game length</h2>')
  add('<figure>%s<figcaption>Turns per game.</figcaption></figure>',
    histogram(maps("turns"), { id = "turns", title = "game length in turns", xlabel = "turns" }))
  add('<h2>Is it still a game?</h2>')
  add('<figure>%s<figcaption>Lead changes per game: how often the seat ahead (by the rule set\'s worth at each turn\'s start, then the final scores) changed.</figcaption></figure>',
    histogram(maps("lead_changes"), { id = "lead-changes", title = "lead changes per game", xlabel = "lead changes" }))

  -- moves
  local names = balance.move_names(table.unpack((function()
    local t = {}
    for s, side in ipairs(sides) do t[s] = side.data end
    return t
  end)()))
  if #names > 0 then
    add('<h2>What players do</h2>')
    local mkeys = {}
    for _, key in ipairs(summary.order) do
      if summary.measures[key].section == "moves" and not seat_rows(key) then mkeys[#mkeys + 1] = key end
    end
    table_of("moves", mkeys)
    local rows = {}
    for _, name in ipairs(names) do
      local values, err = {}, {}
      for s, side in ipairs(sides) do
        local r = stats.acc_ci(side.data, "moves." .. name, 1, "count")
        values[s], err[s] = r.mean or 0, r.ci
      end
      rows[#rows + 1] = { label = name, values = values, err = err }
    end
    add('<figure>%s<figcaption>Moves of each kind (decision: kind) per game, all seats, with 95%% intervals; per seat in the JSON (--json).</figcaption></figure>',
      hbars(rows, { id = "moves", title = "moves per game", xlabel = "per game" }))
  end

  -- coverage
  if summary.coverage then
    add('<h2>Coverage</h2>')
    for s, cov in ipairs(summary.coverage) do
      local tag = compare and (s == 1 and "a" or "b") or "a"
      if compare then add('<h3>%s</h3>', esc(side_label(summary, s))) end
      add('%s', coverage_chart("coverage-rules-" .. tag, "rules (R.rules)", cov.rules))
      add('%s', coverage_chart("coverage-decisions-" .. tag, "decisions", cov.decisions))
      add('%s', coverage_chart("coverage-options-" .. tag, "option kinds", cov.options))
      add('%s', coverage_chart("coverage-cards-" .. tag, "card kinds", cov.cards))
      local files = {}
      for f in pairs(cov.lines or {}) do files[#files + 1] = f end
      table.sort(files)
      for _, f in ipairs(files) do
        local total, fired, never = coverage.line_summary(cov.lines[f])
        add('<p>lines of <code>%s</code>: %d of %d fired%s</p>', esc(f), fired, total,
          #never > 0 and (', never: <span class="never">' .. esc(coverage.ranges(never)) .. '</span>') or "")
      end
    end
  end
  add('<p><small>Written by kontor %s.</small></p>', esc(require("kontor.core").version))
  add('</body>\n</html>\n')
  return table.concat(out, "\n")
end

M.round = balance.round
M.CSS = CSS
return M
