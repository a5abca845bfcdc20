-- tests/bots/ladder.lua: a skill ladder of bots (docs/bots.md). A
-- benchmark, not a test: it takes minutes.
--   build/kontor run tests/bots/ladder.lua RULES DEALS BOT BOT... [--variant NAME]
-- A round robin of two-player games: every pair of BOTs plays every deal
-- (game seed derive_seed(11, d)) twice, each bot once on each seat. A
-- shared win counts a half. The ratings are a Bradley-Terry fit of the
-- wins (P(a beats b) = r_a / (r_a + r_b)), on the Elo scale (400 log10 r,
-- the first BOT at 0); the 95% intervals are the 2.5th and 97.5th
-- percentiles of 200 fits to the deals drawn again with replacement (a
-- bootstrap over deals, so the pairing stays).
local bots = require "kontor.bots"

local rules, deals = arg[1], tonumber(arg[2])
local names, variant = {}, nil
local i = 3
while arg[i] do
  if arg[i] == "--variant" then variant = arg[i + 1]; i = i + 2
  else names[#names + 1] = arg[i]; i = i + 1 end
end
assert(rules and deals and #names >= 2,
  "usage: tests/bots/ladder.lua RULES DEALS BOT BOT... [--variant NAME]")

local function decider(g)
  local w = g:who()
  if type(w) == "table" then return w[1] end
  return w
end

-- The share of the game `a` (on seat sa) won against `b`.
local function play(seed, a, b, sa)
  local g = kontor.new_game { rules = rules, players = 2, seed = seed,
                              variants = variant and { variant } or nil }
  local seats = {}
  seats[sa] = assert(bots.new(a, sa, seed))
  seats[3 - sa] = assert(bots.new(b, 3 - sa, seed))
  local steps = 0
  while not g:over() do
    steps = steps + 1
    assert(steps < 20000, "a game did not end within 20000 steps")
    local s = decider(g)
    if s == "chance" then g:step(0, 1) else g:step(s, seats[s]:choose(require("kontor.seat").view(g, s))) end
  end
  local share = 0
  local winners = g:result().winners
  for _, w in ipairs(winners) do if w == sa then share = 1 / #winners end end
  return share
end

-- results[d][p] = { a =, b =, wa = a's wins of the deal's 2 games }
local n = #names
local pairs_list = {}
for x = 1, n do for y = x + 1, n do pairs_list[#pairs_list + 1] = { x, y } end end
local results = {}
local t0 = os.clock()
for d = 1, deals do
  local seed = kontor.core.derive_seed(11, d)
  results[d] = {}
  for p, xy in ipairs(pairs_list) do
    local a, b = names[xy[1]], names[xy[2]]
    results[d][p] = play(seed, a, b, 1) + play(seed, a, b, 2)
  end
  io.stderr:write(string.format("deal %d done (%.0f s)\n", d, os.clock() - t0))
end

-- Bradley-Terry by minorization-maximization; wins w[x][y] of x over y.
local function fit(sample)
  local w = {}
  for x = 1, n do w[x] = {}; for y = 1, n do w[x][y] = 0 end end
  for _, d in ipairs(sample) do
    for p, xy in ipairs(pairs_list) do
      local x, y = xy[1], xy[2]
      local wa = results[d][p]
      w[x][y] = w[x][y] + wa
      w[y][x] = w[y][x] + 2 - wa
    end
  end
  local r = {}
  for x = 1, n do r[x] = 1 end
  for _ = 1, 500 do
    local nr = {}
    for x = 1, n do
      local wins, den = 0.1, 0           -- a tenth of a win against a virtual equal: no infinities
      for y = 1, n do
        if y ~= x then
          wins = wins + w[x][y]
          den = den + (w[x][y] + w[y][x]) / (r[x] + r[y])
        end
      end
      den = den + 0.2 / (r[x] + 1)
      nr[x] = wins / den
    end
    local base = nr[1]
    for x = 1, n do r[x] = nr[x] / base end
  end
  local elo = {}
  for x = 1, n do elo[x] = 400 * math.log(r[x], 10) end
  return elo
end

local all = {}
for d = 1, deals do all[d] = d end
local point = fit(all)
local rng = kontor.rng(2012)
local boots = {}
for x = 1, n do boots[x] = {} end
for _ = 1, 200 do
  local sample = {}
  for k = 1, deals do sample[k] = rng:below(deals) + 1 end
  local e = fit(sample)
  for x = 1, n do boots[x][#boots[x] + 1] = e[x] end
end
print(string.format("%s%s, 2 players: %d deals, %d games a pair, %d games (%.0f s of CPU)", rules,
  variant and (" + " .. variant) or "", deals, 2 * deals, 2 * deals * #pairs_list, os.clock() - t0))
local order = {}
for x = 1, n do order[x] = x end
table.sort(order, function(a, b) return point[a] > point[b] end)
for _, x in ipairs(order) do
  table.sort(boots[x])
  print(string.format("  %-28s %6.0f  [%6.0f, %6.0f]", names[x], point[x], boots[x][6], boots[x][195]))
end
for p, xy in ipairs(pairs_list) do
  local s = 0
  for d = 1, deals do s = s + results[d][p] end
  print(string.format("  %s vs %s: %.1f%% of %d games", names[xy[1]], names[xy[2]], 100 * s / (2 * deals), 2 * deals))
end
