-- A tiny rule set for the engine's tests: simultaneous, secret, multi-step
-- orders (g:choose_orders), after the build order of Merchants of the Old
-- World.
--
-- Rules. Every player starts with `coins` coins; seat 1 has the
-- first-player token. Each round:
--   1. Chance puts 1 or 2 ships in the yard; the shop has no limit on
--      sheds and land.
--   2. All at once and in secret, every player writes an order of 1 to
--      `max_buys` purchases (ship 3 coins, land 2, shed 1) that their coins
--      can pay for together; a player who cannot pay for anything writes
--      an empty order.
--   3. The orders are revealed and carried out from the first player on:
--      each purchase is paid and scores (ship 3 points, land 2, shed 1);
--      a ship the yard no longer has is not bought and not paid.
--   4. The first player chooses to keep the token or pass it on; every
--      player gains 2 coins.
-- After `rounds` rounds, the most points wins.
local R = {
  name = "secret_orders",
  title = "Secret orders",
  summary = "test rule set: simultaneous secret orders of several purchases",
  players = { min = 2, max = 4, default = 3 },
  options = {
    rounds = { default = 3, type = "integer", min = 1, max = 6, doc = "rounds played" },
    coins = { default = 4, type = "integer", min = 0, max = 20, doc = "coins at the start" },
    max_buys = { default = 3, type = "integer", min = 1, max = 5, doc = "purchases in one order, at most" },
  },
}

local ITEMS = { "ship", "land", "shed" }
local COST = { ship = 3, land = 2, shed = 1 }
local POINTS = { ship = 3, land = 2, shed = 1 }
local BUY = { ship = "buy ship", land = "buy land", shed = "buy shed" }

function R.setup(g)
  g.coins = kontor.counter { n = g.players, min = 0, init = g.options.coins }
  g.points = kontor.counter { n = g.players, min = 0 }
  g.spent = kontor.counter { n = g.players, min = 0 }
  g.owned = {}                            -- seat -> { ship = n, land = n, shed = n }
  for s = 1, g.players do g.owned[s] = { ship = 0, land = 0, shed = 0 } end
  g.yard = 0
  g.first = 1
  g.round = 0
end

-- 2. One seat's order, step by step against its own copy of its coins;
-- the draft shows the seat its order so far (R.view).
local function enter_order(g, seat, draft)
  local budget, order = g.coins:get(seat), {}
  draft.items = order
  while #order < g.options.max_buys do
    local opts, items = {}, {}
    for _, item in ipairs(ITEMS) do
      if COST[item] <= budget then opts[#opts + 1] = BUY[item]; items[#items + 1] = item end
    end
    if #order > 0 then opts[#opts + 1] = "done" end
    if #opts == 0 then break end
    local k = g:choose(seat, #order == 0 and "first purchase" or "purchase", opts)
    local item = items[k]
    if not item then break end            -- "done"
    order[#order + 1] = item
    budget = budget - COST[item]
  end
  return order
end

-- 3. Carry out the orders from the first player on.
local function carry_out(g, orders)
  for _, s in ipairs(g:turn_order(g.first)) do
    local got = {}
    for _, item in ipairs(orders[s]) do
      if item ~= "ship" or g.yard > 0 then
        if item == "ship" then g.yard = g.yard - 1 end
        g.coins:add(s, -COST[item])
        g.spent:add(s, COST[item])
        g.points:add(s, POINTS[item])
        g.owned[s][item] = g.owned[s][item] + 1
        got[#got + 1] = item
      end
    end
    g:log("%s orders %s, gets %s", g.names[s], #orders[s] > 0 and table.concat(orders[s], ", ") or "nothing",
      #got > 0 and table.concat(got, ", ") or "nothing")
  end
end

function R.play(g)
  for round = 1, g.options.rounds do
    g.round = round
    g.yard = g:chance("yard", { "1 ship", "2 ships" })                       -- 1.
    local orders = g:choose_orders(g:turn_order(g.first), "order", enter_order) -- 2.
    carry_out(g, orders)                                                     -- 3.
    g:begin_turn(g.first)                                                    -- 4.
    if g:choose(g.first, "token", { "keep token", "pass token" }) == 2 then
      g.first = g:next_seat(g.first)
    end
    for s = 1, g.players do g.coins:add(s, 2) end
  end
end

function R.scores(g) return g.points:values() end

-- What a seat sees: everything public, and its own order while it enters it.
function R.view(g, seat)
  local draft = g:draft(seat)
  return { coins = g.coins, points = g.points, owned = g.owned, yard = g.yard, first = g.first,
           round = g.round, my_order = draft and draft.items or false }
end

function R.invariants(g)
  for s = 1, g.players do
    local o, pts = g.owned[s], 0
    for _, item in ipairs(ITEMS) do pts = pts + o[item] * POINTS[item] end
    if pts ~= g.points:get(s) then return "seat " .. s .. ": points do not match what it owns" end
    -- coins: start + 2 a round completed - spent
    local income = 2 * (g.round - 1)
    if g.coins:get(s) ~= g.options.coins + income - g.spent:get(s)
        and g.coins:get(s) ~= g.options.coins + income + 2 - g.spent:get(s) then
      return "seat " .. s .. ": coins do not add up"
    end
  end
  if g.yard < 0 or g.yard > 2 then return "the yard holds " .. g.yard .. " ships" end
end

return R
