-- kontor.balance.measures: is it still a game? Per-game measures of
-- tension, after Browne's game metrics (as Ludii counts them): lead
-- changes, how late the game is decided, the winning margin, the
-- branching factor and the share of forced decisions (docs/balance.md).
--
-- The lab notes each seat's worth at the start of every turn (a point;
-- lua/kontor/balance/moves.lua calls point from the game's g:begin_turn),
-- and the final scores as the last point. The leader at a point is the
-- seat with the highest worth, alone; a tie has no leader.

local M = {}

-- The seat with the highest value alone, or 0.
local function leader(values)
  local best, who = nil, 0
  for s = 1, #values do
    local v = values[s]
    if type(v) ~= "number" then return 0 end
    if best == nil or v > best then best, who = v, s
    elseif v == best then who = 0 end
  end
  return who
end
M.leader = leader

-- A tracker of one game: point(values) notes the worth of each seat, in
-- seat order (a closure on upvalues: it runs at every turn of every game
-- the lab plays); finish(scores, winners) takes the final scores as the
-- last point and returns the game's measures: { lead_changes, decided (0:
-- the winner led from the first point on, 1: only the final scores made
-- them leader; a shared win counts 1), margin (the winner's score less the
-- best other score; 0 when shared) }.
function M.tracker()
  local points, last, cur, since, changes = 0, 0, 0, 1, 0
  local function point(values)
    points = points + 1
    local lead = type(values) == "table" and leader(values) or 0
    if lead ~= 0 then
      if last ~= 0 and lead ~= last then changes = changes + 1 end
      last = lead
      if lead ~= cur then since = points end
    end
    cur = lead
  end
  local function finish(scores, winners)
    point(scores)
    local decided = 1
    if #winners == 1 and cur == winners[1] and points > 1 then
      decided = (since - 1) / (points - 1)
    end
    local margin = 0
    if #winners == 1 then
      local w, other = winners[1], nil
      for s = 1, #scores do
        if s ~= w and (other == nil or scores[s] > other) then other = scores[s] end
      end
      if other then margin = scores[w] - other end
    end
    return { lead_changes = changes, decided = decided, margin = margin }
  end
  return point, finish
end

-- The measures of a list of points (each a list of worths by seat) and
-- the final scores and winners: what a game's tracker gives (tests, docs).
function M.of_series(points, scores, winners)
  local point, finish = M.tracker()
  for _, v in ipairs(points) do point(v) end
  return finish(scores, winners)
end

return M
