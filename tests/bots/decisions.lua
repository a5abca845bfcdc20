-- tests/bots/decisions.lua: every step a bot takes in a few games, as text,
-- to check that a change to a bot's search keeps its choices (docs/bots.md,
-- "What it costs"). A check by hand, not a test:
--   build/kontor run tests/bots/decisions.lua RULES PLAYERS SPEC GAMES > before.txt
-- (again after the change; the two outputs must be the same). Plays games
-- of seeds 1..GAMES with SPEC on every seat and prints each game's moves.
local rules, players, spec, games = arg[1], tonumber(arg[2]), arg[3], tonumber(arg[4])
local bots = require "kontor.bots"
local selfplay = dofile("tests/bots/selfplay.lua")
for seed = 1, games do
  local g = selfplay(bots, rules, players, spec, seed)
  print(("game %d: %s"):format(seed, table.concat(g:moves(), " | ")))
  print(("  result: %s"):format(kontor.json.encode(g:result())))
end
