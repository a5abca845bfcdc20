-- What a rule script spends reading the engine's piles and counters, and
-- on the sandbox's pairs: run by tests/bench/read_costs.sh under callgrind
-- with build/kontor, N and 2N times, so the difference divided by N is one
-- operation's instructions (docs/performance.md, "Reads of piles and
-- counters"). Each read as a script writes it: a hand of 6 products (a
-- card is its product's number), a counter of 6.
--   build/kontor run tests/bench/read_costs.lua OPERATION N
local core = kontor.core
local op, n = arg[1], tonumber(arg[2])
local env = require("kontor.sandbox").env(core)
local hand = core.pile {}
for c = 1, 6 do hand:push(c, c % 3 + 1) end
local cubes = core.counter { n = 6, init = 3 }
local into = {}
local list = { 10, 20, 30, 40, 50, 60, 70, 80, 90, 100 }
local words = { amber = 1, basalt = 2, cedar = 3, dune = 4, ember = 5, fjord = 6 }
local pairs = env.pairs
local sink -- luacheck: ignore (written, never read: the work measured)
local OPS = {
  ["hand:counts(6), a new list"] = function() for _ = 1, n do sink = hand:counts(6) end end,
  ["hand:counts(6, t), into a kept list"] = function() for _ = 1, n do sink = hand:counts(6, into) end end,
  ["cubes:values(), a new list"] = function() for _ = 1, n do sink = cubes:values() end end,
  ["cubes:values(t), into a kept list"] = function() for _ = 1, n do sink = cubes:values(into) end end,
  ["cubes:get(p)"] = function() for _ = 1, n do sink = cubes:get(3) end end,
  ["hand:count_of(c)"] = function() for _ = 1, n do sink = hand:count_of(3) end end,
  ["#hand"] = function() for _ = 1, n do sink = #hand end end,
  ["pairs over a list of 10"] = function() for _ = 1, n do for _, v in pairs(list) do sink = v end end end,
  ["pairs over 6 string keys"] = function() for _ = 1, n do for _, v in pairs(words) do sink = v end end end,
}
if op == "list" then
  local names = {}
  for name in next, OPS do names[#names + 1] = name end
  table.sort(names)
  print(table.concat(names, "\n"))
else
  assert(OPS[op], "unknown operation")()
end
