-- tests/bots/speed.lua: how long a bot takes to decide, and what a copy of
-- a game for search costs (docs/bots.md, docs/performance.md).
--   build/kontor run tests/bots/speed.lua [BOT] [DECISIONS] [RULES] [PLAYERS]
-- Plays one game per seed with random bots on every seat and asks BOT
-- (default mcts, 1,000 iterations) for seat 1's decisions; prints the median
-- and quartiles of the time per decision (CPU time, os.clock), then the
-- time of one copy at turn 5 and at turn 35.
local bots = require "kontor.bots"
local fork = require "kontor.fork"

local spec = arg[1] or "mcts"
local want = tonumber(arg[2] or 30)
local rules, players = arg[3] or "sea_merchants", tonumber(arg[4] or 4)

local function decider(g)
  local w = g:who()
  if type(w) == "table" then return w[1] end
  return w
end

-- A copy at turn 5 and at turn 35 of a random game: its cost should not
-- grow with the game (lua/kontor/fork.lua).
local copies = {}
for _, turn in ipairs { 5, 35 } do
  local g
  for gs = 1, 50 do                        -- the first game that lasts so long
    g = kontor.new_game { rules = rules, players = players, seed = gs }
    local r = kontor.rng(gs)
    while not g:over() and (g.turn < turn or decider(g) == "chance") do
      local s = decider(g)
      g:step(s, r:below(#g:options(s)) + 1)
    end
    if not g:over() then break end
  end
  if not g:over() then
    local base = fork.base(g, decider(g))
    local reps = 500
    local t0 = os.clock()
    for _ = 1, reps do fork.copy(base) end
    local t1 = os.clock()
    for i = 1, reps do fork.sample(base, kontor.rng(i)) end
    local t2 = os.clock()
    -- the copy as a replay from the start, for comparison
    local gm = require "kontor.game"
    for _ = 1, 50 do
      local c = gm.new(g.R, g.params, true)
      for i = 1, g:step_count() do
        local seat, _, k = g:step_at(i)
        c:step(seat, k)
      end
    end
    local replay = (os.clock() - t2) / 50 * 1e6
    copies[#copies + 1] = string.format("copy at turn %d (step %d, %d steps replayed): %.1f us; a sample (copy and deal of the unseen cards): %.1f us; a replay from the start: %.1f us",
      turn, g:step_count(), #base.steps_seat, (t1 - t0) / reps * 1e6, (t2 - t1) / reps * 1e6, replay)
  end
end

local times = {}
local seed = 0
while #times < want do
  seed = seed + 1
  local g = kontor.new_game { rules = rules, players = players, seed = seed }
  local r = kontor.rng(seed)
  local b = assert(bots.new(spec, 1, seed))
  while not g:over() and #times < want do
    local s = decider(g)
    local n = #g:options(s)
    if s == 1 and n > 1 and g.turn > 0 then
      local t0 = os.clock()
      local k = b:choose(require("kontor.seat").view(g, s))
      times[#times + 1] = os.clock() - t0
      g:step(s, k)
    else
      g:step(s, r:below(n) + 1)
    end
  end
end
table.sort(times)
local function q(p) return times[math.max(1, math.floor(#times * p + 0.5))] end
print(string.format("%s, %s %dp: %d decisions, median %.3f s (quartiles %.3f, %.3f; max %.3f)",
  spec, rules, players, #times, q(0.5), q(0.25), q(0.75), times[#times]))
for _, line in ipairs(copies) do print(line) end
