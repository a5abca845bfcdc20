-- A tiny rule set for the balance lab's tests: each turn a player rolls a
-- die (chance) and either banks the roll or rolls on; a 1 busts the turn.
-- First to `target` points wins. It declares two stats.
local R = {
  name = "dice",
  title = "Dice",
  summary = "test rule set: push your luck, first to N points",
  players = { min = 2, max = 4, default = 2 },
  options = { target = { default = 20, type = "integer", min = 1, doc = "points to win" } },
  stats = { busts = "turns lost to a 1", banked = "points banked" },
  rules = {},
}
local TURN = { "roll", "bank" }
local FACES = { "1", "2", "3", "4", "5", "6" }

function R.setup(g)
  g.points = kontor.counter { n = g.players, min = 0 }
end

-- One turn: roll until the player banks or rolls a 1.
function R.rules.turn(g, seat)
  local pot = 0
  while true do
    local face = g:chance("die", FACES)
    if face == 1 then
      g:stat("busts")
      return
    end
    pot = pot + face
    if g:choose(seat, "turn", TURN) == 2 then
      g:stat("banked", pot)
      g.points:add(seat, pot)
      return
    end
  end
end

function R.play(g)
  while true do
    for _, seat in ipairs(g:turn_order(1)) do
      g:begin_turn(seat)
      R.rules.turn(g, seat)
      if g.points:get(seat) >= g.options.target then return end
    end
  end
end

function R.scores(g) return g.points:values() end

return R
