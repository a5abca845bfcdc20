-- What a rule script's calls of pile and counter methods cost, its reads
-- of piles and counters, the sandbox's pairs, and what making a constant
-- option list (kontor.options, kontor.family) costs against one check of
-- the same plain list: run by tests/bench/call_costs.sh under callgrind
-- with build/kontor, N and 2N times, so the difference divided by N is
-- one operation's instructions (docs/performance.md, "Per-call costs" and
-- "Reads of piles and counters"). Each read as a script writes it: a hand
-- of 6 products (a card is its product's number), a counter of 6.
--   build/kontor run tests/bench/call_costs.lua OPERATION N
local core = kontor.core
local op, n = arg[1], tonumber(arg[2])
local env = require("kontor.sandbox").env(core)
local options, family = env.kontor.options, env.kontor.family
local check = core.options.check
local hand, deck = core.pile {}, core.pile {}
for c = 1, 6 do hand:push(c, c % 3 + 1) end
local cubes = core.counter { n = 6, init = 3 }
local menu = { "release 1", "release 2", "assign seaman", "assign land", "done" }
local words = { "load", { "Fish", "Wine", "Salt" }, "on ship", { 1, 2, 3 } }
local into = {}
local list = { 10, 20, 30, 40, 50, 60, 70, 80, 90, 100 }
local named = { amber = 1, basalt = 2, cedar = 3, dune = 4, ember = 5, fjord = 6 }
local pairs = env.pairs
local cards = {}
for i = 1, 119 do cards[i] = i % 17 + 1 end
local sink -- luacheck: ignore (written, never read: the work measured)
local OPS = {
  ["cubes:add(p, 1) and back"] = function() for _ = 1, n do cubes:add(3, 1); cubes:add(3, -1) end end,
  ["cubes:get(p)"] = function() for _ = 1, n do sink = cubes:get(3) end end,
  ["cubes:set(p, v)"] = function() for _ = 1, n do cubes:set(3, 4) end end,
  ["hand:push(c) and hand:pop()"] = function() for _ = 1, n do hand:push(2); sink = hand:pop() end end,
  ["hand:count()"] = function() for _ = 1, n do sink = hand:count() end end,
  ["hand:move_to(deck) and back"] = function() for _ = 1, n do hand:move_to(deck); deck:move_to(hand) end end,
  ["kontor.options{ 5 texts }"] = function() for _ = 1, n do sink = options(menu) end end,
  ["kontor.family{ 2 lists }"] = function() for _ = 1, n do sink = family(words) end end,
  ["check of the plain list of 5"] = function() for _ = 1, n do check(menu, 1, "build", 4) end end,
  ["119 cards pushed one by one"] = function()
    for _ = 1, n do deck:clear(); for i = 1, #cards do deck:push(cards[i]) end end
  end,
  ["119 cards by one deck:push_all(list)"] = function() for _ = 1, n do deck:clear(); deck:push_all(cards) end end,
  -- reads
  ["hand:counts(6), a new list"] = function() for _ = 1, n do sink = hand:counts(6) end end,
  ["hand:counts(6, t), into a kept list"] = function() for _ = 1, n do sink = hand:counts(6, into) end end,
  ["cubes:values(), a new list"] = function() for _ = 1, n do sink = cubes:values() end end,
  ["cubes:values(t), into a kept list"] = function() for _ = 1, n do sink = cubes:values(into) end end,
  ["hand:count_of(c)"] = function() for _ = 1, n do sink = hand:count_of(3) end end,
  ["#hand"] = function() for _ = 1, n do sink = #hand end end,
  ["pairs over a list of 10"] = function() for _ = 1, n do for _, v in pairs(list) do sink = v end end end,
  ["pairs over 6 string keys"] = function() for _ = 1, n do for _, v in pairs(named) do sink = v end end end,
}
if op == "list" then
  local names = {}
  for name in next, OPS do names[#names + 1] = name end
  table.sort(names)
  print(table.concat(names, "\n"))
else
  assert(OPS[op], "unknown operation")()
end
