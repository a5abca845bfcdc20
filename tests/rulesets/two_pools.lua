-- A tiny rule set for the bots' tests: two kinds of hidden cards that never
-- mix (kontor.pile{ pool = name }, docs/api.md).
--
-- Rules. A bag holds 8 workers (values 1..8) and a stack holds 6 tiles
-- (values 101..106), both face down. On a turn a player draws a worker into
-- their hand (only they may look at it) or turns the top tile face up on the
-- row. After 6 turns the player whose workers add up to most wins.
local R = {
  name = "two_pools",
  title = "Two pools",
  summary = "test rule set: a bag of workers and a stack of tiles, both hidden",
  players = { min = 2, max = 3, default = 2 },
}

local TURNS = 6

function R.setup(g)
  g.bag = kontor.pile { vis = "hidden", pool = "workers" }
  for worker = 1, 8 do g.bag:push(worker) end
  g.bag:shuffle(g.rng)
  g.tiles = kontor.pile { vis = "hidden", pool = "tiles" }
  for tile = 101, 106 do g.tiles:push(tile) end
  g.tiles:shuffle(g.rng)
  g.row = kontor.pile { vis = "public" }
  g.hands = {}
  for s = 1, g.players do g.hands[s] = kontor.pile { vis = "owner", owner = s, pool = "workers" } end
end

function R.play(g)
  local seat = 1
  for _ = 1, TURNS do
    g:begin_turn(seat)
    local what = ({ "draw a worker", "turn a tile" })[g:choose(seat, "draw", { "draw a worker", "turn a tile" })]
    if what == "draw a worker" then g.hands[seat]:push(g.bag:pop()) else g.row:push(g.tiles:pop()) end
    seat = g:next_seat(seat)
  end
end

function R.scores(g)
  local scores = {}
  for s = 1, g.players do
    scores[s] = 0
    for i = 1, g.hands[s]:count() do scores[s] = scores[s] + g.hands[s]:get(i) end
  end
  return scores
end

function R.view(g, seat)
  local v = { bag = g.bag:count(), tiles = g.tiles:count(), row = g.row:cards(), hands = {} }
  for s = 1, g.players do v.hands[s] = g.hands[s]:count() end
  if seat then v.hand = g.hands[seat]:cards() end
  return v
end

return R
