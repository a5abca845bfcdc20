-- What the check of a secret order costs (g:choose_orders), against what
-- making the order costs with Lua's own table constructor.
--
--   build/kontor run tests/bench/order_check.lua ROUNDS make|check
--
-- Each round makes one Old World build order as the rule script returns it
-- (variants/old_world.lua, enter_order: the seat's card, gold and steps;
-- 10 tables, 38 values, taken from a game of `kontor sim --seed 1`) with a
-- table constructor; `check` then checks it as g:choose_orders does
-- (kontor.core.options.order_check). The last 64 are kept, as a game
-- keeps its orders. Count instructions with callgrind for two round counts
-- (docs/performance.md, "Merchants of the Old World"): `make` a round is
-- what the constructor costs, `check` minus `make` what the check costs.
local core = require "kontor.core"

local rounds, mode = tonumber(arg[1]), arg[2]
if not rounds or (mode ~= "make" and mode ~= "check") then
  io.stderr:write("usage: kontor run tests/bench/order_check.lua ROUNDS make|check\n")
  os.exit(2)
end

local function order()
  return {
    card = {
      crew = { back_strap_loom = 1, dye_house = 1 },
      own = { back_strap_loom = 1, dye_house = 1, sheep_herding = 3 },
      pool = { facility = 1, land = 0, seaman = 1 },
      ships = { { cargo = { "wool" }, crew = 0, port = false, size = 3 } },
      store = { cloth = 1, ["dye:black"] = 0, ["dye:blue"] = 0, ["dye:brown"] = 0, ["dye:red"] = 0,
                ["dye:yellow"] = 0, ["fg:black"] = 0, ["fg:blue"] = 0, ["fg:brown"] = 0, ["fg:red"] = 0,
                ["fg:yellow"] = 0, wool = 6 },
    },
    gold = 0,
    steps = { "acquire none", "release dye_house", "done", "assign back_strap_loom", "assign dye_house", "done" },
  }
end

local check, kept = core.options.order_check, {}
for i = 1, rounds do
  local o = order()
  if mode == "check" then o = check(o, 1) end
  kept[i % 64 + 1] = o
end
print(("%d orders %s, the last %d kept"):format(rounds, mode == "check" and "made and checked" or "made", #kept))
