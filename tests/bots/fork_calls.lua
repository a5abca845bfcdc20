-- tests/bots/fork_calls.lua: what one call of lua/kontor/fork.lua costs
-- (docs/bots.md, "What it costs"). A benchmark, not a test: run it under
-- callgrind N times and 0 times; the difference divided by N is a call's
-- instructions.
--   valgrind --tool=callgrind build/kontor run tests/bots/fork_calls.lua CALL N [RULES PLAYERS]
-- CALL: copy, sample (a new RNG each time), sample_again (the same RNG),
-- base, snapshot (the state saved when a turn begins: fork.base's replay
-- saves one a turn, fork.lua's snapshot of g's rule fields). The decision: seat to move at turn 10 of a game of seed 3
-- (RULES PLAYERS: a 4-player Sea Merchants game unless given), played
-- with kontor.rng(3) choosing at random.
local fork = require "kontor.fork"
local call, n = arg[1], tonumber(arg[2])
local rules, players = arg[3] or "sea_merchants", tonumber(arg[4] or 4)

local function decider(g)
  local w = g:who()
  if type(w) == "table" then return w[1] end
  return w
end

local g = kontor.new_game { rules = rules, players = players, seed = 3 }
local r = kontor.rng(3)
while not g:over() and (g.turn < 10 or decider(g) == "chance") do
  local s = decider(g)
  g:step(s, r:below(#g:options(s)) + 1)
end
local seat = decider(g)
local base = fork.base(g, seat)
fork.sample(base, kontor.rng(1))          -- the plan and the deal made once

local CALLS = {
  copy = function() for _ = 1, n do fork.copy(base) end end,
  sample = function() for i = 1, n do fork.sample(base, kontor.rng(i + 1)) end end,
  sample_again = function() for _ = 1, n do fork.sample(base, kontor.rng(1)) end end,
  base = function() for _ = 1, n do fork.base(g, seat) end end,
  snapshot = function()
    local up = {}
    for i = 1, 255 do
      local name, v = debug.getupvalue(fork.base, i)
      if not name then break end
      up[name] = v
    end
    for _ = 1, n do up.snapshot(up.rule_fields(g.ctx)) end
  end,
}
assert(CALLS[call], "CALL: copy, sample, sample_again, base or snapshot")()
