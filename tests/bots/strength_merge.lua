-- tests/bots/strength_merge.lua: one result from the progress lines of
-- several runs of tests/bots/strength.lua (a long run split into ranges of
-- deals with its FIRST argument, or restarted where it stopped).
--   build/kontor run tests/bots/strength_merge.lua PLAYERS LOG...
-- Each LOG holds strength.lua's standard error: "deal D: X (...)" lines,
-- X being the hero's share of the wins over D's games (one a seat). A deal
-- in two logs must have the same result (a run is deterministic); the
-- interval is strength.lua's: 95%, normal approximation over deals.
local players = assert(tonumber(arg[1]), "usage: strength_merge.lua PLAYERS LOG...")
local by_deal, order = {}, {}
for i = 2, #arg do
  local f = assert(io.open(arg[i]))
  for line in f:lines() do
    local d, x = line:match("^deal (%d+): ([%d.e-]+) ")
    if d then
      d, x = tonumber(d), tonumber(x)
      if by_deal[d] and math.abs(by_deal[d] - x) > 1e-3 then
        error(("deal %d: %s in one log, %s in another"):format(d, by_deal[d], x))
      end
      if not by_deal[d] then order[#order + 1] = d end
      by_deal[d] = x
    end
  end
  f:close()
end
table.sort(order)
local n, mean, var = #order, 0, 0
assert(n > 0, "no deal lines in the logs")
for _, d in ipairs(order) do mean = mean + by_deal[d] end
mean = mean / n
for _, d in ipairs(order) do var = var + (by_deal[d] - mean) ^ 2 end
var = n > 1 and var / (n - 1) or 0
local half = 1.96 * math.sqrt(var / n)
local missing = order[#order] - order[1] + 1 - n
print(string.format("%d games (%d deals x %d seats, deals %d..%d%s): wins %.1f%% [%.1f%%, %.1f%%]; baseline %.1f%%",
  n * players, n, players, order[1], order[#order], missing > 0 and (", " .. missing .. " missing") or "",
  100 * mean, 100 * (mean - half), 100 * (mean + half), 100 / players))
