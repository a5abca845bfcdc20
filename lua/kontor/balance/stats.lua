-- kontor.balance.stats: means and 95% confidence intervals.
--
-- Every function reads a list of numbers in order and returns plain
-- numbers, so the same lists give the same results to the last bit (what
-- makes a merged run equal a single one). Intervals use Student's t: the
-- paired interval is the t interval of the per-game differences; the
-- unpaired one is Welch's, with the Welch-Satterthwaite degrees of freedom.

local M = {}

local sqrt = math.sqrt

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

-- The verdict word of an interval of b - a: `up` when it lies above zero,
-- `down` below, nil when it contains zero.
function M.verdict(ci, up, down)
  if not ci then return nil end
  if ci[1] > 0 then return up end
  if ci[2] < 0 then return down end
  return nil
end

return M
