-- tests/bots/versus_old.lua: a bot of this build against the greedy bot of
-- another build, on paired deals (docs/bots.md). A benchmark, not a test.
--   git show ea16517:lua/kontor/bots/init.lua > /tmp/old_bots.lua
--   build/kontor run tests/bots/versus_old.lua /tmp/old_bots.lua RULES PLAYERS DEALS [SPEC] [FIRST]
-- Deal d (game seed d) is played once per seat with SPEC (default greedy)
-- of this build on that seat and the old build's greedy on the others. A
-- win shared by k seats counts 1/k; the 95% interval is over deals.
local new = require "kontor.bots"
local old = dofile(arg[1])
local rules, players, deals, spec = arg[2], tonumber(arg[3]), tonumber(arg[4]), arg[5] or "greedy"
local from = tonumber(arg[6] or 1)
local total, n, sq = 0, 0, 0
for d = from, from + deals - 1 do
  local dsum = 0
  for h = 1, players do
    local g = kontor.new_game { rules = rules, players = players, seed = d }
    local bs = {}
    for s = 1, players do bs[s] = assert((s == h and new or old).new(s == h and spec or "greedy", s, d)) end
    -- the old bot plays its own defaults: a rule set's R.bot_options.greedy
    -- are for this build's greedy (no rule set had any at ea16517), and
    -- name options the old one does not take
    for s = 1, players do if s ~= h then bs[s].tuned = true end end
    while not g:over() do
      local w = g:who()
      local s = type(w) == "table" and w[1] or w
      if s == "chance" then g:step(0, 1) else g:step(s, s == h and bs[s]:choose(require("kontor.seat").view(g, s)) or bs[s]:choose(g, s)) end
    end
    for _, w in ipairs(g:result().winners) do
      if w == h then dsum = dsum + 1 / #g:result().winners end
    end
  end
  local x = dsum / players
  total, sq, n = total + x, sq + x * x, n + 1
  io.stderr:write(string.format("deal %d: %.3f (so far %.3f)\n", d, x, total / n))
end
local mean = total / n
local sd = math.sqrt(math.max(0, sq / n - mean * mean) * n / math.max(1, n - 1))
local half = 1.96 * sd / math.sqrt(n)
print(string.format("%s %dp: %s vs the old greedy: %.1f%% [%.1f, %.1f] over %d deals (%d games); fair share %.1f%%",
  rules, players, spec, 100 * mean, 100 * (mean - half), 100 * (mean + half), n, n * players, 100 / players))
