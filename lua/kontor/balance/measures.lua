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

local Tracker = {}
Tracker.__index = Tracker

function M.tracker()
  return setmetatable({ points = 0, last = 0, cur = 0, since = 1, changes = 0 }, Tracker)
end

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

-- One point: the worth of each seat, in seat order.
function Tracker:point(values)
  local p = self.points + 1
  self.points = p
  local lead = type(values) == "table" and leader(values) or 0
  if lead ~= 0 then
    if self.last ~= 0 and lead ~= self.last then self.changes = self.changes + 1 end
    self.last = lead
    if lead ~= self.cur then self.since = p end
  end
  self.cur = lead
end

-- The measures of the game whose points were taken, given its final
-- scores and winners: { lead_changes, decided (0: the winner led from the
-- first point on, 1: only the final scores made them leader; a shared win
-- counts 1), margin (the winner's score less the best other score; 0 when
-- shared) }.
function Tracker:finish(scores, winners)
  self:point(scores)
  local p = self.points
  local decided = 1
  if #winners == 1 and self.cur == winners[1] and p > 1 then
    decided = (self.since - 1) / (p - 1)
  end
  local margin = 0
  if #winners == 1 then
    local w, other = winners[1], nil
    for s = 1, #scores do
      if s ~= w and (other == nil or scores[s] > other) then other = scores[s] end
    end
    if other then margin = scores[w] - other end
  end
  return { lead_changes = self.changes, decided = decided, margin = margin }
end

-- The measures of a list of points (each a list of worths by seat) and
-- the final scores and winners: what a game's tracker gives (tests, docs).
function M.of_series(points, scores, winners)
  local t = M.tracker()
  for _, v in ipairs(points) do t:point(v) end
  return t:finish(scores, winners)
end

return M
