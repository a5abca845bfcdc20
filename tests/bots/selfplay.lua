-- tests/bots/selfplay.lua: one game with the same bot on every seat, for
-- the checks by hand in tests/bots (decisions.lua, cost.lua):
--   local selfplay = dofile("tests/bots/selfplay.lua")
--   local g, steps = selfplay(bots, rules, players, spec, seed)
-- `bots` is a kontor.bots module (this build's, or another build's file).
-- Seat s's bot is bots.new(spec, s, seed); chance takes its first option.
local seatmod = require "kontor.seat"

return function(bots, rules, players, spec, seed)
  local g = kontor.new_game { rules = rules, players = players, seed = seed }
  local seats = {}
  for s = 1, players do seats[s] = assert(bots.new(spec, s, seed)) end
  local steps = 0
  while not g:over() do
    local w = g:who()
    local s = type(w) == "table" and w[1] or w
    if s == "chance" then g:step(0, 1) else g:step(s, seats[s]:choose(seatmod.view(g, s))) end
    steps = steps + 1
  end
  return g, steps
end
