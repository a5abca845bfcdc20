-- tests/bots/lines.lua (experiment of branch greedyorder, docs/bots.md
-- "What it costs"): where greedy's lines go, over GAMES games with SPEC
-- on every seat: searched decisions, lines and copies a game, the lines
-- beyond one per option by the decision they branch at (the first where
-- they take an option no line took), and how often each improved the best.
--   build/kontor run tests/bots/lines.lua RULES PLAYERS SPEC GAMES
local bots = require "kontor.bots"
local selfplay = dofile("tests/bots/selfplay.lua")
local C = { copies = 0, lines = 0, dec = 0, by = {} }
bots.debug_count = C
local n = tonumber(arg[4])
local steps = 0
for seed = 1, n do local _, st = selfplay(bots, arg[1], tonumber(arg[2]), arg[3], seed); steps = steps + st end
print(string.format("%s: a game: %.1f steps, %.1f searched decisions, %.1f lines, %.1f copies (%.2f a decision)",
  arg[3], steps / n, C.dec / n, C.lines / n, C.copies / n, C.copies / C.dec))
local ks = {} for k in pairs(C.by) do ks[#ks+1] = k end table.sort(ks)
for _, k in ipairs(ks) do local r = C.by[k]; print(string.format("  branch at %-18s %7.2f lines a game, improved option %6.2f, improved best %6.2f", k, r[1]/n, r[2]/n, r[3]/n)) end
for i, r in ipairs(C.idx or {}) do print(string.format("  budget line %d: %.1f a game, improved the best %.1f%%", i, r[1] / n, 100 * r[2] / r[1])) end
