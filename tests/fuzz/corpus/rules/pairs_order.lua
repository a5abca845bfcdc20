-- pairs_order.lua - a rule set whose log and state depend on the order in
-- which `pairs` visits string keys (and mixed keys), for the determinism
-- test of tests/lua/hostile_spec.lua: two fresh processes must produce the
-- same log and save file.
local R = { name = "pairs_order", players = { min = 2, max = 2 } }

local WORDS = { "amber", "basalt", "cedar", "dune", "ember", "fjord", "garnet", "heath",
  "iris", "jade", "kelp", "loam", "moss", "nacre", "onyx", "peat", "quartz", "reed",
  "slate", "tern", "umber", "vale", "wren", "yew", "zinc" }

local function keys_in_pairs_order(t)
  local out = {}
  for k in pairs(t) do out[#out + 1] = tostring(k) end
  return table.concat(out, ",")
end

function R.setup(g)
  g.bag = {}
  for i, w in ipairs(WORDS) do g.bag[w .. math.random(100)] = i end
  g.mixed = { 1, 2, 3, x = 1, [2.5] = 2, y = 3, [true] = 4 }
  g.order = keys_in_pairs_order(g.bag)
  g:log("bag order: %s", g.order)
  g:log("mixed order: %s", keys_in_pairs_order(g.mixed))
  g.turns = 0
end

function R.play(g)
  while g.turns < 6 do
    for _, p in ipairs(g:turn_order(1)) do
      g:begin_turn(p)
      -- The options come from pairs: their order (and so the meaning of
      -- option numbers) follows the table's iteration order.
      local names = {}
      for k in pairs(g.bag) do names[#names + 1] = k end
      local k = g:choose(p, "take", { names[1], names[2], names[3] })
      g:log("%d takes %s; order now %s", p, names[k], keys_in_pairs_order(g.bag))
      g.bag[names[k]] = nil
      g.bag[names[k] .. "x"] = p
      g.turns = g.turns + 1
    end
  end
end

function R.scores(g) return { g.turns, 0 } end

return R
