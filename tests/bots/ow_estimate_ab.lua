-- tests/bots/ow_estimate_ab.lua: Old World's greedy with this tree's
-- R.estimate against greedy with another version's, on paired deals
-- (docs/bots.md). A benchmark, not a test: it takes minutes.
--   git show main:variants/old_world.lua > /tmp/owmain/old_world.lua
--   build/kontor run tests/bots/ow_estimate_ab.lua /tmp/owmain/old_world.lua PLAYERS DEALS [FIRST]
-- Both sides play this tree's rules; only the estimate greedy looks at
-- differs: while a seat decides, R.estimate is its side's. Deal d (game
-- seed derive_seed(7, d), as tests/bots/strength.lua) is played once per
-- seat with the new estimate on that seat and the old on the others. A
-- win shared by k seats counts 1/k; the 95% interval is over deals.
-- Prints the win share, each side's mean VP, and the share of games won on
-- VP (the winner's VP above every other seat's) rather than on the gold.
local bots = require "kontor.bots"
local seatview = require "kontor.seat"

local old_path, players, deals, first = arg[1], tonumber(arg[2] or 4), tonumber(arg[3] or 10), tonumber(arg[4] or 1)
local NEW = kontor.load_rules("old_world")
local OLD = kontor.load_rules(old_path)
local new_estimate, old_estimate = NEW.estimate, OLD.estimate
local side = "new"                               -- whose estimate greedy asks for now
NEW.estimate = function(g, s)
  if side == "old" then return old_estimate(g, s) end
  return new_estimate(g, s)
end

local per_deal, vp_new, vp_old, n_new, n_old, on_vp, games = {}, 0, 0, 0, 0, 0, 0
local t0 = os.clock()
for d = first, first + deals - 1 do
  local seed = kontor.core.derive_seed(7, d)
  local sum = 0
  for h = 1, players do
    local g = kontor.new_game { rules = NEW, players = players, seed = seed }
    local seats = {}
    for s = 1, players do seats[s] = assert(bots.new("greedy", s, seed)) end
    while not g:over() do
      local w = g:who()
      local s = type(w) == "table" and w[1] or w
      if s == "chance" then
        g:step(0, 1)
      else
        side = s == h and "new" or "old"
        g:step(s, seats[s]:choose(seatview.view(g, s)))
      end
    end
    local res = g:result()
    for _, x in ipairs(res.winners) do if x == h then sum = sum + 1 / #res.winners end end
    local best, second = -1, -1
    for s = 1, players do
      local v = res.scores[s]
      if s == h then vp_new, n_new = vp_new + v, n_new + 1 else vp_old, n_old = vp_old + v, n_old + 1 end
      if v > best then best, second = v, best elseif v > second then second = v end
    end
    if best > second then on_vp = on_vp + 1 end
    games = games + 1
  end
  per_deal[#per_deal + 1] = sum / players
  io.stderr:write(string.format("deal %d: %.4g (%d games, %.0f s)\n", d, sum / players, games, os.clock() - t0))
end
local n, mean = #per_deal, 0
for _, x in ipairs(per_deal) do mean = mean + x end
mean = mean / n
local var = 0
for _, x in ipairs(per_deal) do var = var + (x - mean) ^ 2 end
var = n > 1 and var / (n - 1) or 0
local half = 1.96 * math.sqrt(var / n)
print(string.format("old_world %dp: new estimate vs old: %d games (%d deals x %d seats): wins %.1f%% [%.1f%%, %.1f%%]; "
  .. "fair share %.1f%%; mean VP new %.2f, old %.2f; won on VP %.1f%%; %.0f s", players, games, n, players,
  100 * mean, 100 * (mean - half), 100 * (mean + half), 100 / players, vp_new / n_new, vp_old / n_old,
  100 * on_vp / games, os.clock() - t0))
print("per-deal: " .. table.concat((function()
  local t = {}
  for i, x in ipairs(per_deal) do t[i] = string.format("%.4g", x) end
  return t
end)(), " "))
