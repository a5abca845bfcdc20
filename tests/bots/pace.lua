-- tests/bots/pace.lua: how long a person waits for the bots at the table
-- (docs/bots.md, "Old World's mcts"). A benchmark, not a test.
--   build/kontor run tests/bots/pace.lua RULES PLAYERS VARIANT SEED BOT1 BOT2 ...
-- Plays one game of RULES (VARIANT, or - for none) with the seed SEED and
-- BOTk on seat k, and prints for each seat its decisions, the mean and the
-- longest CPU time (os.clock) of one, and the longest time all bots
-- together spent in one phase of one turn (in Old World, a round of build
-- orders: what a person waits for after their pick).
local bots = require "kontor.bots"
local seatmod = require "kontor.seat"

local rules, players, variant, seed = arg[1], tonumber(arg[2]), arg[3], tonumber(arg[4])
if variant == "-" or variant == "" then variant = nil end
local g = kontor.new_game { rules = rules, players = players, seed = seed, variants = variant and { variant } or nil }
local seats, kinds = {}, {}
for s = 1, players do
  kinds[s] = assert(arg[4 + s], "a bot for each seat")
  seats[s] = assert(bots.new(kinds[s], s, seed))
end
local stats, per_phase = {}, {}
while not g:over() do
  local w = g:who()
  local s = type(w) == "table" and w[1] or w
  if s == "chance" then g:step(0, 1) else
    local t0 = os.clock()
    local k = seats[s]:choose(seatmod.view(g, s))
    local dt = os.clock() - t0
    local st = stats[s] or { n = 0, sum = 0, max = 0 }
    stats[s] = st
    st.n, st.sum = st.n + 1, st.sum + dt
    if dt > st.max then st.max, st.at = dt, g.turn end
    local key = tostring(g.turn) .. " " .. tostring(g.phase)
    per_phase[key] = (per_phase[key] or 0) + dt
    g:step(s, k)
  end
end
for s = 1, players do
  local st = stats[s] or { n = 0, sum = 0, max = 0 }
  print(string.format("seat %d %-10s %4d decisions, mean %.3f s, longest %.3f s (turn %s)", s, kinds[s], st.n,
    st.n > 0 and st.sum / st.n or 0, st.max, tostring(st.at)))
end
local longest, where = 0, nil
for key, v in pairs(per_phase) do if v > longest then longest, where = v, key end end
print(string.format("longest phase of a turn, all bots: %.2f s (turn %s)", longest, tostring(where)))
