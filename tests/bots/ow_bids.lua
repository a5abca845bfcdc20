-- tests/bots/ow_bids.lua: how often Old World's greedy bids (docs/bots.md,
-- "Old World's bids"). A benchmark, not a test.
--   build/kontor run tests/bots/ow_bids.lua GAMES [OTHER] [ESTIMATE_FILE]
-- 4 players, game seeds derive_seed(11, 1..GAMES), greedy on seat 1 and
-- OTHER (default random) on the others; with OTHER greedy, every seat's
-- bids count. ESTIMATE_FILE: a version of variants/old_world.lua whose
-- R.estimate every seat plays by (the rules stay this tree's), say
--   git show 1bf4d84:variants/old_world.lua > /tmp/ow_old.lua
-- Counts the bid decisions with more than one option (O32: with 0 gold,
-- "bid 0" is not asked), those bidding more than 0, and the gold bid.
local bots = require "kontor.bots"
local seatview = require "kontor.seat"

local games, other, file = tonumber(arg[1] or 10), arg[2] or "random", arg[3]
local est = file and kontor.load_rules(file).estimate
local asked, bids, gold, by_size, vp = 0, 0, 0, {}, 0
local t0 = os.clock()
for d = 1, games do
  local seed = kontor.core.derive_seed(11, d)
  local g = kontor.new_game { rules = "old_world", players = 4, seed = seed }
  if est then g.R.estimate = est end
  local seats = {}
  for s = 1, 4 do seats[s] = assert(bots.new(s == 1 and "greedy" or other, s, seed)) end
  while not g:over() do
    local w = g:who()
    local s = type(w) == "table" and w[1] or w
    if s == "chance" then
      g:step(0, 1)
    else
      local view = seatview.view(g, s)
      local k = seats[s]:choose(view)
      if (s == 1 or other == "greedy") and view.decision == "bid" then
        local opts = view.options()
        if #opts > 1 then
          local n = tonumber(opts[k]:match("%d+"))
          asked, by_size[n] = asked + 1, (by_size[n] or 0) + 1
          if n > 0 then bids, gold = bids + 1, gold + n end
        end
      end
      g:step(s, k)
    end
  end
  vp = vp + g:result().scores[1]
end
local sizes = {}
for n = 0, 200 do if by_size[n] then sizes[#sizes + 1] = ("bid %d: %d"):format(n, by_size[n]) end end
print(("old_world 4p, greedy on seat 1, %s on the others, %d games: %d bid decisions, %d bids above 0 (%.1f%%), "
  .. "%d gold; %s; seat 1 %.1f VP a game; %.0f s"):format(other, games, asked, bids, 100 * bids / math.max(1, asked),
  gold, table.concat(sizes, ", "), vp / games, os.clock() - t0))
