-- A tiny rule set for the bots' tests: a player who may wait for ever.
-- Seat 1 has won already; on each of its turns it may wait (nothing
-- changes) or end the game. A search that counts only wins finds both
-- equally good (docs/bots.md, "Steps cost a little").
local R = {
  name = "stall",
  title = "Stall",
  summary = "test rule set: waiting changes nothing, ending the game is the only progress",
  players = { min = 2, max = 2, default = 2 },
}

function R.setup(g)
  g.ended = false
end

function R.play(g)
  local options = { "wait", "end the game" }
  repeat
    g:begin_turn(1)
  until options[g:choose(1, "wait", options)] == "end the game"
end

function R.scores()
  return { 10, 0 }
end

return R
