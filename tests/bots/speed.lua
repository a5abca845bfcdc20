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

local times, copies = {}, {}
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
      local k = b:choose(g, s)
      times[#times + 1] = os.clock() - t0
      g:step(s, k)
    else
      g:step(s, r:below(n) + 1)
    end
    for _, turn in ipairs { 5, 35 } do
      if g.turn == turn and not copies[turn] and not g:over() and decider(g) ~= "chance" then
        local base = fork.base(g, decider(g))
        local reps = 300
        local t0 = os.clock()
        for _ = 1, reps do fork.copy(base) end
        copies[turn] = { us = (os.clock() - t0) / reps * 1e6, steps = #base.steps_seat, hist = #g.hist }
      end
    end
  end
end
table.sort(times)
local function q(p) return times[math.max(1, math.floor(#times * p + 0.5))] end
print(string.format("%s, %s %dp: %d decisions, median %.3f s (quartiles %.3f, %.3f; max %.3f)",
  spec, rules, players, #times, q(0.5), q(0.25), q(0.75), times[#times]))
for _, turn in ipairs { 5, 35 } do
  local c = copies[turn]
  if c then
    print(string.format("copy at turn %d (step %d of the game, %d replayed): %.1f us", turn, c.hist, c.steps, c.us))
  end
end
