-- tests/bots/strength.lua: how often one bot wins against others, on paired
-- deals (docs/bots.md). A benchmark, not a test: it takes minutes.
--   build/kontor run tests/bots/strength.lua RULES PLAYERS HERO OTHER DEALS [VARIANT] [FIRST]
-- Each deal (game seed derive_seed(7, d)) is played once per seat with HERO
-- on that seat and OTHER on the others, so every seat and every deal is
-- played by HERO equally often. A win shared by k seats counts 1/k. The
-- 95% confidence interval is over deals (the mean of a deal's games, normal
-- approximation), which is what pairing asks for.
local bots = require "kontor.bots"

local rules, players, hero, other = arg[1], tonumber(arg[2]), arg[3], arg[4]
local deals, variant, first = tonumber(arg[5]), arg[6], tonumber(arg[7] or 1)
if variant == "" or variant == "-" then variant = nil end

local function decider(g)
  local w = g:who()
  if type(w) == "table" then return w[1] end
  return w
end

local MAX_STEPS = 20000          -- a bot that stalls is an error, not a hang
local per_deal, games, hero_time, hero_decisions = {}, 0, 0, 0
local t_start = os.clock()
for d = first, first + deals - 1 do
  local seed = kontor.core.derive_seed(7, d)
  local sum = 0
  for h = 1, players do
    local g = kontor.new_game { rules = rules, players = players, seed = seed,
                                variants = variant and { variant } or nil }
    local seats = {}
    for s = 1, players do seats[s] = assert(bots.new(s == h and hero or other, s, seed)) end
    local steps = 0
    while not g:over() do
      steps = steps + 1
      if steps > MAX_STEPS then
        error(string.format("deal %d, %s on seat %d: the game did not end within %d steps", d, hero, h, MAX_STEPS), 0)
      end
      local s = decider(g)
      if s == "chance" then
        g:step(0, 1)
      else
        local t0 = os.clock()
        local k = seats[s]:choose(require("kontor.seat").view(g, s))
        if s == h then hero_time = hero_time + os.clock() - t0; hero_decisions = hero_decisions + 1 end
        g:step(s, k)
      end
    end
    local res = g:result()
    for _, w in ipairs(res.winners) do if w == h then sum = sum + 1 / #res.winners end end
    games = games + 1
  end
  per_deal[#per_deal + 1] = sum / players
  io.stderr:write(string.format("deal %d: %.4g (%d games, %.0f s)\n", d, sum / players, games, os.clock() - t_start))
end
local n, mean = #per_deal, 0
for _, x in ipairs(per_deal) do mean = mean + x end
mean = mean / n
local var = 0
for _, x in ipairs(per_deal) do var = var + (x - mean) ^ 2 end
var = n > 1 and var / (n - 1) or 0
local half = 1.96 * math.sqrt(var / n)
print(string.format("%s%s %dp: %s vs %s: %d games (%d deals x %d seats): wins %.1f%% [%.1f%%, %.1f%%]; baseline %.1f%%; %s %.3f s/decision; %.0f s",
  rules, variant and (" + " .. variant) or "", players, hero, other, games, n, players, 100 * mean,
  100 * (mean - half), 100 * (mean + half), 100 / players, hero, hero_time / math.max(1, hero_decisions),
  os.clock() - t_start))
print(string.format("per-deal: %s", table.concat((function() local t = {} for i, x in ipairs(per_deal) do t[i] = string.format("%.4g", x) end return t end)(), " ")))
