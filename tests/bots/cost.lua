-- tests/bots/cost.lua: the CPU time of games with the same bot on every
-- seat (docs/bots.md). A benchmark, not a test.
--   build/kontor run tests/bots/cost.lua RULES PLAYERS SPEC GAMES [BOTS.lua]
-- Plays GAMES games (seeds 1..GAMES) with SPEC on every seat, with this
-- build's bots or those of BOTS.lua (another build's lua/kontor/bots/init.lua),
-- and prints the CPU time a game and a decision (os.clock).
local rules, players, spec, games = arg[1], tonumber(arg[2]), arg[3], tonumber(arg[4])
local bots = arg[5] and dofile(arg[5]) or require "kontor.bots"
local t0, steps = os.clock(), 0
for seed = 1, games do
  local g = kontor.new_game { rules = rules, players = players, seed = seed }
  local seats = {}
  for s = 1, players do seats[s] = assert(bots.new(spec, s, seed)) end
  while not g:over() do
    local w = g:who()
    local s = type(w) == "table" and w[1] or w
    if s == "chance" then g:step(0, 1) else g:step(s, seats[s]:choose(require("kontor.seat").view(g, s))) end
    steps = steps + 1
  end
end
local t = os.clock() - t0
print(string.format("%s %dp, %s%s on every seat: %d games, %.1f steps a game, %.3f ms a game, %.1f us a step",
  rules, players, spec, arg[5] and " (" .. arg[5] .. ")" or "", games, steps / games, t / games * 1000,
  t / steps * 1e6))
