-- A tiny rule set for the engine's tests: simultaneous secret bids, after the
-- worker bid of Merchants of the Old World.
--
-- Rules. Every player starts with `coins` coins; the bag holds 4 of each good;
-- seat 1 has the first-player token. Each round:
--   1. A row of one good per player is drawn from the bag (chance).
--   2. Every player secretly bids 0 .. their coins; the bids are revealed
--      together and paid (lost), whatever they win.
--   3. From the highest bid down, each player takes one good from the row;
--      equal bids go in turn order from the first-player token.
--   4. Every player gains 1 coin; the token passes to the next seat.
-- After `rounds` rounds, the most points wins.
local R = {
  name = "sealed_bid",
  title = "Sealed bid",
  summary = "test rule set: secret simultaneous bids for a row of goods",
  players = { min = 2, max = 4, default = 3 },
  options = {
    rounds = { default = 3, type = "integer", min = 1, max = 4, doc = "rounds played" },
    coins = { default = 5, type = "integer", min = 0, max = 20, doc = "coins at the start" },
  },
}

local GOODS = { "salt", "cloth", "spice", "gold" }  -- canonical order; card id = index
local POINTS = { 1, 2, 3, 5 }
local COPIES = 4                                      -- of each good: 16, enough for 4 x 4
local TAKE, BID = {}, {}
for i, name in ipairs(GOODS) do TAKE[i] = "take " .. name end
for n = 0, 40 do BID[n] = "bid " .. n end

function R.setup(g)
  g.coins = kontor.counter { n = g.players, min = 0, init = g.options.coins }
  g.points = kontor.counter { n = g.players, min = 0 }
  g.taken = kontor.counter { n = g.players, min = 0 }
  g.bag = kontor.counter { n = #GOODS, min = 0, max = COPIES, init = COPIES }
  g.row = kontor.pile { vis = "public" }
  g.first = 1
  g.round = 0
  g.bids = false                                    -- the last revealed bids
end

-- 1. Draw the row: each good is as likely as its copies left in the bag.
local function draw_row(g)
  for _ = 1, g.players do
    local k = g:chance("draw", GOODS, g.bag:values())
    g.bag:add(k, -1)
    g.row:push(k)
  end
end

-- 2. Secret bids, revealed together and paid.
local function bid(g)
  local seats, by_seat = g:turn_order(1), {}
  for s = 1, g.players do
    local o = {}
    for n = 0, g.coins:get(s) do o[n + 1] = BID[n] end
    by_seat[s] = o
  end
  local chosen = g:choose_all(seats, "bid", by_seat)
  local bids = {}
  for s = 1, g.players do
    bids[s] = chosen[s] - 1
    g.coins:add(s, -bids[s])
  end
  g.bids = bids
  if g.logging then
    local parts = {}
    for s = 1, g.players do parts[s] = g.names[s] .. " " .. bids[s] end
    g:log("bids: %s", table.concat(parts, ", "))
  end
  return bids
end

-- 3. The order of choice: highest bid first, ties from the token.
local function pick_order(g, bids)
  local order, pos = {}, {}
  for i, s in ipairs(g:turn_order(g.first)) do order[i], pos[s] = s, i end
  table.sort(order, function(a, b)
    if bids[a] ~= bids[b] then return bids[a] > bids[b] end
    return pos[a] < pos[b]
  end)
  return order
end

local function take(g, p)
  local opts, kinds = {}, {}
  for k = 1, #GOODS do
    if g.row:find(k) then opts[#opts + 1] = TAKE[k]; kinds[#kinds + 1] = k end
  end
  local k = kinds[g:choose(p, "take", opts)]
  g.row:take(k)
  g.points:add(p, POINTS[k])
  g.taken:add(p, 1)
  g:log("%s takes %s", g.names[p], GOODS[k])
end

function R.play(g)
  for round = 1, g.options.rounds do
    g.round = round
    draw_row(g)
    local bids = bid(g)
    for _, p in ipairs(pick_order(g, bids)) do
      g:begin_turn(p)
      take(g, p)
    end
    for s = 1, g.players do g.coins:add(s, 1) end   -- 4. income
    g.first = g:next_seat(g.first)
  end
end

function R.scores(g) return g.points:values() end

function R.card_text(_, card) return GOODS[card] end

function R.invariants(g)
  local n = g.row:count()
  for _, v in ipairs(g.bag:values()) do n = n + v end
  for _, v in ipairs(g.taken:values()) do n = n + v end
  if n ~= COPIES * #GOODS then return "goods: " .. n .. " in play, expected " .. COPIES * #GOODS end
  if g.row:count() > g.players then return "the row is longer than the player count" end
end

R.explain = {}
function R.explain.bid(g, seat, text)
  local n = tonumber(text:match("^bid (%d+)$"))
  if n and n > g.coins:get(seat) then
    return string.format("%s has only %d coins", g.names[seat], g.coins:get(seat))
  end
end
function R.explain.take(_, _, text)
  local name = text:match("^take (%a+)$")
  if name then return "there is no " .. name .. " in the row" end
end

return R
