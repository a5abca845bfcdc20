-- tests/bots/decisions.lua: every step a bot takes in a few games, as text,
-- to check that a change to a bot's search keeps its choices (docs/bots.md,
-- "What it costs"). A check by hand, not a test:
--   build/kontor run tests/bots/decisions.lua RULES PLAYERS SPEC GAMES > before.txt
-- (again after the change; the two outputs must be the same). Plays games
-- of seeds 1..GAMES with SPEC on every seat and prints each game's moves.
local rules, players, spec, games = arg[1], tonumber(arg[2]), arg[3], tonumber(arg[4])
local bots = require "kontor.bots"
local seatmod = require "kontor.seat"
for seed = 1, games do
  local g = kontor.new_game { rules = rules, players = players, seed = seed }
  local seats = {}
  for s = 1, players do seats[s] = assert(bots.new(spec, s, seed)) end
  while not g:over() do
    local w = g:who()
    local s = type(w) == "table" and w[1] or w
    if s == "chance" then g:step(0, 1) else g:step(s, seats[s]:choose(seatmod.view(g, s))) end
  end
  print(("game %d: %s"):format(seed, table.concat(g:moves(), " | ")))
  print(("  result: %s"):format(kontor.json.encode(g:result())))
end
