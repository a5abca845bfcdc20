-- A test rule set of many seats (up to 64), for the balance lab's win
-- measures (docs/balance.md, "Many seats"): each seat in turn names 1, 2 or
-- 3 points, once; the most points win, and a tie shares the win, so wins
-- are shared among 2, 3, ... seats (a share of 1/k, which the lab counts
-- in lcm(1..P)ths of a game).
local R = {
  name = "crowd",
  title = "Crowd",
  summary = "test rule set: up to 64 seats name 1-3 points once; the most points win, ties share",
  players = { min = 1, max = 64, default = 24 },
}

local POINTS = { "1 point", "2 points", "3 points" }

function R.setup(g)
  g.points = kontor.counter { n = g.players, min = 0 }
end

function R.play(g)
  for _, p in ipairs(g:turn_order(1)) do
    g:begin_turn(p)
    g.points:set(p, g:choose(p, "points", POINTS))
  end
end

function R.scores(g) return g.points:values() end

return R
