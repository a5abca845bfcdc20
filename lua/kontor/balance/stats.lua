-- kontor.balance.stats: means and 95% confidence intervals.
--
-- Every function reads a list of numbers in order and returns plain
-- numbers, so the same lists give the same results to the last bit (what
-- makes a merged run equal a single one). Intervals use Student's t: the
-- paired interval is the t interval of the per-game differences; the
-- unpaired one is Welch's, with the Welch-Satterthwaite degrees of freedom.

local M = {}

local sqrt = math.sqrt

-- A figure as the lab's reports print it, the text and the HTML alike: 4
-- decimals, signed when asked ("+0.0125"), "-" for none. A mean of whole
-- numbers may be an integer (0 wins of a seat, read back from a shard's
-- JSON): it prints as 0.0000 all the same, not 0.
function M.num(x, signed)
  if x == nil then return "-" end
  return string.format(signed and "%+.4f" or "%.4f", x)
end

-- The 97.5% quantiles of Student's t for 1..30 degrees of freedom.
local T975 = {
  12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
  2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
  2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
}
local Z975 = 1.959964

-- The two-sided 95% critical value of t with df degrees of freedom (df may
-- be fractional: Welch). Above 30, the Cornish-Fisher expansion in 1/df.
function M.t975(df)
  if df ~= df or df < 1 then return nil end
  if df <= 30 then
    local lo = math.floor(df)
    if lo == df or lo >= 30 then return T975[lo] end
    -- between two rows: interpolate in 1/df, as such tables are read
    local w = (1 / lo - 1 / df) / (1 / lo - 1 / (lo + 1))
    return T975[lo] + (T975[lo + 1] - T975[lo]) * w
  end
  local z = Z975
  local z3, z5 = z ^ 3, z ^ 5
  return z + (z3 + z) / (4 * df) + (5 * z5 + 16 * z3 + 3 * z) / (96 * df * df)
end

-- Mean and sample variance of xs[1..n] (two passes: stable and exact in order).
function M.mean_var(xs, n)
  n = n or #xs
  if n == 0 then return nil, nil end
  local s = 0
  for i = 1, n do s = s + xs[i] end
  local mean = s / n
  if n < 2 then return mean, nil end
  local q = 0
  for i = 1, n do local d = xs[i] - mean; q = q + d * d end
  return mean, q / (n - 1)
end

-- { mean, ci = {low, high} } of one list (ci nil under 2 values).
function M.mean_ci(xs)
  local n = #xs
  local mean, var = M.mean_var(xs, n)
  if not var then return { mean = mean } end
  local h = M.t975(n - 1) * sqrt(var / n)
  return { mean = mean, ci = { mean - h, mean + h } }
end

-- The difference b - a of the means and its interval, for lists paired
-- game by game (a[i] and b[i] come from the same deal).
function M.paired(a, b)
  local n = math.min(#a, #b)
  local d = {}
  for i = 1, n do d[i] = b[i] - a[i] end
  local mean, var = M.mean_var(d, n)
  if not var then return { diff = mean } end
  local h = M.t975(n - 1) * sqrt(var / n)
  return { diff = mean, ci = { mean - h, mean + h } }
end

-- The same for independent lists (Welch's t interval).
function M.unpaired(a, b)
  local ma, va = M.mean_var(a)
  local mb, vb = M.mean_var(b)
  if not va or not vb then return { diff = ma and mb and mb - ma } end
  local na, nb = #a, #b
  local ea, eb = va / na, vb / nb
  local se2 = ea + eb
  local diff = mb - ma
  if se2 == 0 then return { diff = diff, ci = { diff, diff } } end
  local df = se2 * se2 / (ea * ea / (na - 1) + eb * eb / (nb - 1))
  local h = M.t975(df) * sqrt(se2)
  return { diff = diff, ci = { diff - h, diff + h } }
end

-- The interval of a difference of two measures of `domain`, kept inside
-- what such a difference can be: two shares differ by -1 to 1 (the t
-- interval of shares of 0 and 1 nearly everywhere reached +1.0164); a
-- count's difference has no bound. A new list; nil for nil.
function M.diff_ci(ci, domain)
  if not ci then return nil end
  if domain == "share" then return { math.max(-1, ci[1]), math.min(1, ci[2]) } end
  return { ci[1], ci[2] }
end

-- The verdict word of an interval of b - a: `up` when it lies above zero,
-- `down` below, nil when it contains zero.
function M.verdict(ci, up, down)
  if not ci then return nil end
  if ci[1] > 0 then return up end
  if ci[2] < 0 then return down end
  return nil
end

---------------------------------------------------------------------------
-- Running sums (the lab's summaries in memory flat in the games)
---------------------------------------------------------------------------
-- A run keeps, per measure, the number of games and the sums of the
-- per-game values and of their squares. The lab gives each measure a
-- scale that makes its per-game values whole numbers (a win shared by k
-- counts lcm(1..players)/k, a share of a game 1000ths of it), so the sums
-- are exact integers: adding them up in any order, in one process or in
-- shards, gives the same sums to the last bit. A value that is not whole
-- (a rule set's fractional score) makes its sums floating point.
--
-- An integer sum stays within 2^62 (M.BOUND), so that two of them (a
-- shard's and another's) add up without wrapping: a sum that would pass
-- it goes on as a floating-point number (53 bits: each later addition is
-- rounded, a relative error of at most 2^-53 each), never wrapping. Only
-- the win measures of many seats get there (a win counts lcm(1..P): 2^62
-- is 17 billion games' sums of squares at 8 seats, 85 at 20, and one game
-- at 23; docs/balance.md, "Many seats").

M.BOUND = 1 << 62
local BOUND = M.BOUND
local ROOT = 2147483648          -- 2^31: a whole number of at most this squares within 2^62

-- x + y: an integer while both are and the sum stays within 2^62, else
-- a float (also where a value of a rule set's own passes 2^63 with it).
local function plus(x, y)
  local s = x + y
  if math.type(s) == "integer" and (s > BOUND or s < -BOUND or (y >= 0) ~= (s >= x)) then
    return (x + 0.0) + y
  end
  return s
end
M.plus = plus

-- v * v: an integer while it stays within 2^62, else a float.
local function square(v)
  if math.type(v) == "integer" and (v > ROOT or v < -ROOT) then return (v + 0.0) * v end
  return v * v
end
M.square = square

function M.acc()
  return { n = 0, sum = {}, sq = {}, hist = {} }
end

-- Adds one game: vals maps measure keys to scaled values (a key left out
-- is 0); hist_keys: the keys whose values are also counted by value
-- (hist[key][value] = games; M.to_json makes the values texts).
function M.add(a, vals, hist_keys)
  a.n = a.n + 1
  local sum, sq = a.sum, a.sq
  for k, v in pairs(vals) do
    sum[k] = plus(sum[k] or 0, v)
    sq[k] = plus(sq[k] or 0, square(v))
  end
  if hist_keys then
    local hist = a.hist
    for _, k in ipairs(hist_keys) do
      local v = vals[k] or 0
      local h = hist[k]
      if not h then h = {}; hist[k] = h end
      h[v] = (h[v] or 0) + 1
    end
  end
end

-- The sums as JSON takes them: each count by value keyed by the value's text.
function M.to_json(a)
  local hist = {}
  for k, h in pairs(a.hist) do
    local t = {}
    for v, c in pairs(h) do
      t[math.type(v) == "float" and string.format("%.17g", v) or tostring(v)] = c
    end
    hist[k] = t
  end
  return { n = a.n, sum = a.sum, sq = a.sq, hist = hist }
end

-- The sums of M.to_json read back (JSON gives lists or objects for empty
-- tables, and texts for the values counted).
function M.from_json(a)
  local function map(t) if type(t) ~= "table" then return {} end return t end
  a = map(a)
  local hist = {}
  for k, h in pairs(map(a.hist)) do
    local t = {}
    for v, c in pairs(map(h)) do
      local x = tonumber(v)
      t[math.tointeger(x) or x] = c
    end
    hist[k] = t
  end
  return { n = math.tointeger(a.n) or 0, sum = map(a.sum), sq = map(a.sq), hist = hist }
end

-- Adds the sums of b into a.
function M.merge(a, b)
  a.n = a.n + b.n
  for k, v in pairs(b.sum) do a.sum[k] = plus(a.sum[k] or 0, v) end
  for k, v in pairs(b.sq) do a.sq[k] = plus(a.sq[k] or 0, v) end
  for k, h in pairs(b.hist or {}) do
    local t = a.hist[k]
    if not t then t = {}; a.hist[k] = t end
    for v, c in pairs(h) do t[v] = (t[v] or 0) + c end
  end
  return a
end

-- The per-game differences b - a of paired games (every key of either).
function M.diff(va, vb)
  local d = {}
  for k, v in pairs(vb) do d[k] = v - (va[k] or 0) end
  for k, v in pairs(va) do if vb[k] == nil then d[k] = -v end end
  return d
end

-- Mean and sample variance of measure `key` of acc a, at `scale`.
function M.acc_mean_var(a, key, scale)
  local n = a.n
  if n == 0 then return nil, nil end
  scale = scale or 1
  local s, q = a.sum[key] or 0, a.sq[key] or 0
  local mean = s / n / scale
  if n < 2 then return mean, nil end
  local num
  if math.type(s) == "integer" and math.type(q) == "integer"
     and q <= math.maxinteger // n and math.abs(s) <= 3037000499 then
    num = n * q - s * s            -- exact
  else
    num = n * (q + 0.0) - (s + 0.0) * s
  end
  if num < 0 then num = 0 end
  -- (scale squared as a float: a win scale past 2^31 squares past 2^63)
  return mean, num / (n * (n - 1.0)) / ((scale + 0.0) * scale)
end

-- Wilson's score interval of a share `mean` (0..1) over n games: it has a
-- width where every game was alike (0 of 20: [0, 0.1611]) and stays in
-- 0..1.
function M.wilson(mean, n)
  local z = 1.959964
  local z2 = z * z
  local centre = (mean + z2 / (2 * n)) / (1 + z2 / n)
  local half = z * sqrt(mean * (1 - mean) / n + z2 / (4 * n * n)) / (1 + z2 / n)
  return math.max(0, centre - half), math.min(1, centre + half)
end

-- No event in n games: the largest mean count a game (Poisson) that
-- gives none with a chance of 2.5% or more, -ln(0.025) / n.
local NONE_IN = -math.log(0.025)

-- { mean, ci } of measure `key` of acc a. A measure with a `domain`
-- gets no interval outside it: a "share" (0..1: a win rate, a share of
-- games) whose t interval leaves 0..1 or has no width (every game alike)
-- gets Wilson's interval instead (M.wilson); a "count" (never below 0:
-- moves a game, lead changes) is cut at 0, and where every game counted 0
-- it reaches NONE_IN / n (20 games: [0, 0.1844]).
function M.acc_ci(a, key, scale, domain)
  local mean, var = M.acc_mean_var(a, key, scale)
  if not var then return { mean = mean } end
  local n = a.n
  local h = M.t975(n - 1) * sqrt(var / n)
  local lo, hi = mean - h, mean + h
  if domain == "share" and (lo < 0 or hi > 1 or h == 0) and mean >= 0 and mean <= 1 then
    lo, hi = M.wilson(mean, n)
  elseif domain == "count" and mean >= 0 then
    if h == 0 and mean == 0 then hi = NONE_IN / n end
    if lo < 0 then lo = 0 end
  end
  return { mean = mean, ci = { lo, hi } }
end

-- The paired difference: acc p holds the per-game differences. Where
-- every game differed by the same d (not 0), the t interval has width 0
-- and would give a verdict after 2 games: the interval is then that of
-- the n differences and one more of 0 (its mean n d / (n + 1), its
-- standard error |d| / (n + 1)): 2 games of d = 1 give [-0.77, +2.10], no
-- verdict; 6 games [+0.51, +1.21]; 1000 games [+0.997, +1.001].
-- Where every game differed by 0, a share or a count gets the interval
-- of what n games could have missed (below), not [0, 0].
function M.acc_paired(p, key, scale, domain)
  local r = M.acc_ci(p, key, scale)
  if r.ci and r.ci[1] == r.ci[2] and r.mean ~= 0 then
    local n, d = p.n, r.mean
    local m, h = n * d / (n + 1), M.t975(n) * math.abs(d) / (n + 1)
    return { diff = d, ci = { m - h, m + h } }
  end
  if domain == "share" and r.ci and r.ci[1] == r.ci[2] then
    -- a share that was the same on both sides in every game (a seat that
    -- never won, on either side): each game's difference is -1..1, so the
    -- mean's is at most the share of the games that could have differed
    -- unseen, Wilson's bound for none of n: 20 games, +-0.1611, not [0, 0]
    local _, u = M.wilson(0, p.n)
    return { diff = r.mean, ci = { -u, u } }
  end
  if domain == "count" and r.ci and r.ci[1] == r.ci[2] then
    -- a count that was the same on both sides in every game (a move no
    -- seat made, or made as often, on either side): as a count that was
    -- 0 in every game (M.acc_ci), one more on either side is an event
    -- none of the n games showed, whose mean a game may still be up to
    -- -ln(0.025) / n: 20 games, +-0.1844, not [0, 0]
    local u = NONE_IN / p.n
    return { diff = r.mean, ci = { -u, u } }
  end
  return { diff = r.mean, ci = r.ci }
end

-- The interval of a side's mean where every game gave the same value m,
-- as far as n games can tell: a share's Wilson interval; a count's m
-- give or take -ln(0.025) / n (one event more, or fewer, that no game
-- showed), never below 0. nil for a measure of no domain.
local function alike_ci(m, n, domain)
  if domain == "share" and m >= 0 and m <= 1 then return { M.wilson(m, n) } end
  if domain == "count" and m >= 0 then return { math.max(0, m - NONE_IN / n), m + NONE_IN / n } end
  return nil
end

-- Welch's interval of mean(b) - mean(a) from two accs. Where every game
-- of each side gave one value (no variance), a share or a count
-- (`domain`) gets the difference of the two sides' intervals as n games
-- can tell them (alike_ci), not one of width 0: 20 games of a share of 1
-- on both sides, +-0.1611; of a count, +-0.3689.
function M.acc_unpaired(a, b, key, scale, domain)
  local ma, va = M.acc_mean_var(a, key, scale)
  local mb, vb = M.acc_mean_var(b, key, scale)
  if not va or not vb then return { diff = ma and mb and mb - ma } end
  local na, nb = a.n, b.n
  local ea, eb = va / na, vb / nb
  local se2 = ea + eb
  local diff = mb - ma
  if se2 == 0 then
    local ca, cb = alike_ci(ma, na, domain), alike_ci(mb, nb, domain)
    if ca and cb then return { diff = diff, ci = { cb[1] - ca[2], cb[2] - ca[1] } } end
    return { diff = diff, ci = { diff, diff } }
  end
  local df = se2 * se2 / (ea * ea / (na - 1) + eb * eb / (nb - 1))
  local h = M.t975(df) * sqrt(se2)
  return { diff = diff, ci = { diff - h, diff + h } }
end

-- Holm's step-down correction of a family of intervals at 95%: rows is a
-- list of { diff, se, df }; returns, for each row, whether it holds
-- (its two-sided p-value passes Holm's threshold). Normal approximation
-- of t for the p-values above 30 degrees of freedom.
function M.holm(pvalues, alpha)
  alpha = alpha or 0.05
  local idx = {}
  for i = 1, #pvalues do idx[i] = i end
  table.sort(idx, function(x, y)
    if pvalues[x] ~= pvalues[y] then return pvalues[x] < pvalues[y] end
    return x < y
  end)
  local keep, m = {}, #pvalues
  for r, i in ipairs(idx) do
    if pvalues[i] <= alpha / (m - r + 1) then keep[i] = true else break end
  end
  return keep
end

-- The two-sided p-value of a difference whose 95% interval is ci (a t or
-- normal interval, symmetric about diff): from z = diff / se, se = the
-- half-width / 1.96, with the normal distribution (erfc by its series).
function M.p_of(diff, ci)
  if not ci then return 1 end
  local half = (ci[2] - ci[1]) / 2
  if half <= 0 then return diff == 0 and 1 or 0 end
  local z = math.abs(diff) / (half / Z975)
  -- complementary error function (Numerical Recipes' erfcc, |error| < 1.2e-7)
  local x = z / math.sqrt(2)
  local t = 1 / (1 + 0.5 * x)
  local r = t * math.exp(-x * x - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 +
    t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 +
    t * (-0.82215223 + t * 0.17087277)))))))))
  return r
end

return M
