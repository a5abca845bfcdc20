-- Sea Merchants as a plain Lua 5.4 loop: the yardstick of `make bench`.
--
-- It plays the game of variants/sea_merchants.lua (rulings S1-S12) and of
-- the house preset (variants/house.lua: snake_draft, hand_limit,
-- house_specials, delivered_payout with their defaults; rulings H1-H9)
-- with the policy of `kontor sim`: at every decision the rule set asks,
-- each of its options is equally likely. No engine, no sandbox, no option
-- texts, no step list: the state is plain tables, a decision is a count of
-- options and `random(n)`. A decision with one option still counts as a
-- step, as it does in the engine.
--
-- Returns { sea_merchants = play, house = play }; play(random, players)
-- plays one game and returns its turns, its steps and its scores.

local NP = 6                    -- products: grain, wood, porcelain, fish, spices, cloth
local CARDS, SLOTS = 10, 6

local function make(rules)
  local specials, price, supply = rules.specials, rules.price, rules.supply

  return function(random, n)
    local steps, turns = 0, 0
    local function choose(k) steps = steps + 1; return random(k) end

    -- S3: shuffle; 6 cards to the market; 3 to each player.
    local deck = {}
    for p = 1, NP do for _ = 1, CARDS do deck[#deck + 1] = p end end
    for i = #deck, 2, -1 do
      local j = random(i)
      deck[i], deck[j] = deck[j], deck[i]
    end
    local market = {}
    for s = 1, SLOTS do market[s] = table.remove(deck) end
    local hand, held, ships, owned, coins = {}, {}, {}, {}, {}
    for q = 1, n do
      held[q] = 0
      hand[q] = { 0, 0, 0, 0, 0, 0 }         -- cards per product
      for _ = 1, 3 do
        local p = table.remove(deck)
        hand[q][p] = hand[q][p] + 1
        held[q] = held[q] + 1
      end
      ships[q] = { 0, 0 }                   -- product per ship, 0 = empty
      owned[q] = {}
      for _, c in ipairs(specials) do owned[q][c] = 0 end
      coins[q] = 0
    end
    local pool = { 5, 5, 5, 5, 5, 5 }        -- cubes per product (S12)
    local left = {}                          -- special cards in the pool (S2)
    for _, c in ipairs(specials) do left[c] = supply[c] end
    left.ship = supply.ship - 2 * n
    local over = false

    local scratch = {}
    local function pool_products(except)     -- products with a cube in the pool
      local m = 0
      for p = 1, NP do
        if pool[p] > 0 and p ~= except then m = m + 1; scratch[m] = p end
      end
      return m
    end

    local function limit(q) return 6 + 2 * (owned[q].warehouse or 0) end   -- H5
    local function full(q) return rules.hand_limit and held[q] >= limit(q) end

    -- S4 / H3: load one empty ship.
    local function load(q)
      local empty, e = {}, 0
      for k, c in ipairs(ships[q]) do if c == 0 then e = e + 1; empty[e] = k end end
      if e == 0 then return end
      local m = pool_products()
      local i = choose(m * e) - 1
      local p, k = scratch[i // e + 1], empty[i % e + 1]
      pool[p] = pool[p] - 1
      ships[q][k] = p
    end
    for round = 1, 2 do
      for i = 1, n do
        local q = i
        if rules.snake and round == 1 then q = n + 1 - i end
        load(q)
      end
    end

    -- S6: the ships that may be exchanged now.
    local exchanged, new_ship = {}, 0
    local function exchangeable(q, out)
      local m, avail = 0, pool_products()
      for k, c in ipairs(ships[q]) do
        local others = avail - (pool[c] > 0 and 1 or 0)      -- other products in the pool
        if not exchanged[k] and k ~= new_ship and others > 0 then m = m + 1; out[m] = k end
      end
      return m
    end
    local function swap(q, k)
      local old = ships[q][k]
      local m = pool_products(old)
      local p = scratch[choose(m)]
      pool[old] = pool[old] + 1
      pool[p] = pool[p] - 1
      ships[q][k] = p
      exchanged[k] = true
    end

    local function buyable(q, out)           -- S7
      local m = 0
      for _, c in ipairs(specials) do
        if left[c] > 0 and coins[q] >= price[c] and (c ~= "ship" or pool_products() > 0) then
          m = m + 1; out[m] = c
        end
      end
      return m
    end

    local ship_list, card_list = {}, {}
    local function phase_one(q)
      exchanged, new_ship = {}, 0
      local can_x = exchangeable(q, ship_list) > 0
      local can_b = buyable(q, card_list) > 0
      local k = choose(1 + (can_x and 1 or 0) + (can_b and 1 or 0))
      if can_x and k == 1 then                               -- exchange
        swap(q, ship_list[choose(exchangeable(q, ship_list))])
      elseif can_b and k == (can_x and 2 or 1) then           -- buy
        local c = card_list[choose(buyable(q, card_list))]
        coins[q] = coins[q] - price[c]
        left[c] = left[c] - 1
        owned[q][c] = owned[q][c] + 1
        if c == "ship" then                                 -- loaded at once
          local p = scratch[choose(pool_products())]
          pool[p] = pool[p] - 1
          ships[q][#ships[q] + 1] = p
          new_ship = #ships[q]
        end
      end
      for _ = 1, owned[q][rules.exchange_card] do              -- S5: docks / H7: cranes
        local m = exchangeable(q, ship_list)
        if m == 0 then break end
        local i = choose(m + 1)
        if i > m then break end                              -- no extra exchange
        swap(q, ship_list[i])
      end
    end

    -- S9 / S11 / H5: one card; the deck's last card ends the game.
    local function draw(q)
      if full(q) then return false end
      local p = table.remove(deck)
      hand[q][p] = hand[q][p] + 1
      held[q] = held[q] + 1
      if #deck == 0 then over = true end
      return true
    end
    local function draw_cards(q, k)
      for _ = 1, k do
        if not draw(q) or over then return end
      end
    end

    local in_hand = {}
    local function play(q)                                   -- S8
      local m = 0
      for p = 1, NP do if hand[q][p] > 0 then m = m + 1; in_hand[m] = p end end
      local p = in_hand[choose(m)]
      local have = hand[q][p]
      local slots, last = 1, choose(SLOTS)
      market[last] = p
      while slots < have and last < SLOTS do
        local k = choose(1 + SLOTS - last)                   -- stop, or a higher slot
        if k == 1 then break end
        last = last + k - 1
        market[last] = p
        slots = slots + 1
      end
      hand[q][p] = have - slots
      held[q] = held[q] - slots
      local shows = 0
      for s = 1, SLOTS do if market[s] == p then shows = shows + 1 end end
      if rules.delivered then shows = slots end              -- H8 option (off)
      for r = 1, n do
        local carried = 0
        for _, c in ipairs(ships[r]) do if c == p then carried = carried + 1 end end
        if carried > 0 then
          coins[r] = coins[r] + carried * shows + 2 * (owned[r].contract or 0)
        end
      end
      if rules.office_pays then coins[q] = coins[q] + 2 * owned[q].office end   -- H4
    end

    local function phase_two(q)
      local can_play, can_draw = held[q] > 0, not full(q)
      local k = choose((can_play and 1 or 0) + (can_draw and 1 or 0))
      if can_play and k == 1 then
        play(q)
      else
        draw_cards(q, 2)
        if rules.forklift then                               -- H6
          for _ = 1, owned[q].forklift do
            if over then return end
            local allowed = full(q) and 1 or 2               -- a full hand: only "no forklift draw"
            if choose(allowed) ~= 1 or allowed == 1 then return end
            draw_cards(q, 1)
          end
        end
      end
      if not rules.office_pays then                          -- S10: office draws
        for _ = 1, owned[q].office do
          if over or choose(2) ~= 1 then return end
          draw_cards(q, 1)
        end
      end
    end

    local q = 1
    while not over do
      turns = turns + 1
      phase_one(q)
      phase_two(q)
      q = q % n + 1
    end
    return turns, steps, coins
  end
end

return {
  sea_merchants = make {
    specials = { "ship", "contract", "office", "dock" },
    price = { ship = 10, contract = 11, office = 8, dock = 12 },
    supply = { ship = 14, contract = 2, office = 2, dock = 2 },
    exchange_card = "dock",
  },
  house = make {
    specials = { "ship", "office", "warehouse", "forklift", "crane" },
    price = { ship = 10, office = 8, warehouse = 15, forklift = 15, crane = 12 },
    supply = { ship = 14, office = 2, warehouse = 2, forklift = 2, crane = 2 },
    exchange_card = "crane",
    snake = true, hand_limit = true, forklift = true, office_pays = true,
  },
}
