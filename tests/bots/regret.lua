-- tests/bots/regret.lua (experiment of branch greedyorder, docs/bots.md
-- "What it costs"): at every searched decision of greedy games (SPEC on
-- every seat), every line of the decision is walked on the bot's own deal
-- and the value of the best is compared with what the bot found.
--   build/kontor run tests/bots/regret.lua RULES PLAYERS SPEC GAMES [FIRST]
-- Prints the mean regret (the best line's lead less the played line's,
-- capped at 10), its part due to the option chosen (top), how often the
-- best was missed, and per decision name how often a history ordering's
-- first choice is a best one against a uniform draw.
-- build/kontor run /tmp/go/regret.lua RULES P SPEC GAMES [FIRST]
local bots = require "kontor.bots"
local selfplay = dofile("tests/bots/selfplay.lua")
local D = { n = 0, sum = 0, miss = 0, lines = 0 }
bots.debug_regret = D
local first = tonumber(arg[5] or 1)
for seed = first, first + tonumber(arg[4]) - 1 do selfplay(bots, arg[1], tonumber(arg[2]), arg[3], seed) end
print(string.format("%s: %d decisions, mean regret %.4f (top %.4f, %.1f%%), missed %.1f%%, exhaustive copies/decision %.1f",
  arg[3], D.n, D.sum / D.n, D.top / D.n, 100 * D.topmiss / D.n, 100 * D.miss / D.n, D.lines / D.n))
if D.diag then
  local ks = {}
  for k in pairs(D.diag) do ks[#ks + 1] = k end
  table.sort(ks)
  for _, k in ipairs(ks) do
    local r = D.diag[k]
    print(string.format("  %-18s nodes %6d  policy-first hits best %.3f  random %.3f", k, r[1], r[2] / r[1], r[3] / r[1]))
  end
end
