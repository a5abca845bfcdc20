-- tests/bots/cost.lua: the CPU time of games with the same bot on every
-- seat (docs/bots.md). A benchmark, not a test.
--   build/kontor run tests/bots/cost.lua RULES PLAYERS SPEC GAMES [BOTS.lua]
-- Plays GAMES games (seeds 1..GAMES) with SPEC on every seat, with this
-- build's bots or those of BOTS.lua (another build's lua/kontor/bots/init.lua),
-- and prints the CPU time a game and a decision (os.clock).
local rules, players, spec, games = arg[1], tonumber(arg[2]), arg[3], tonumber(arg[4])
local bots = arg[5] and dofile(arg[5]) or require "kontor.bots"
local selfplay = dofile("tests/bots/selfplay.lua")
local t0, steps = os.clock(), 0
for seed = 1, games do
  local _, n = selfplay(bots, rules, players, spec, seed)
  steps = steps + n
end
local t = os.clock() - t0
print(string.format("%s %dp, %s%s on every seat: %d games, %.1f steps a game, %.3f ms a game, %.1f us a step",
  rules, players, spec, arg[5] and " (" .. arg[5] .. ")" or "", games, steps / games, t / games * 1000,
  t / steps * 1e6))
