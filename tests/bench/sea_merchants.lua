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
-- Written as tightly as a good Lua programmer would (issue 25): every
-- table is integer-indexed and made once per set of rules, reset in place
-- for each game; every function is made once, not once a game; the state
-- lives in upvalues of the functions that use it.
--
-- Returns { sea_merchants = play, house = play }; play(random, players)
-- plays one game and returns its turns, its steps and its scores.

local NP = 6                    -- products: grain, wood, porcelain, fish, spices, cloth
local CARDS, SLOTS, MAXP = 10, 6, 5

local function make(rules)
  -- Special cards by number; SHIP is card 1.
  local price, supply, NS = rules.price, rules.supply, #rules.price
  local SHIP, XCARD = 1, rules.exchange_card
  local CONTRACT, OFFICE = rules.contract or 0, rules.office
  local WAREHOUSE, FORKLIFT = rules.warehouse or 0, rules.forklift or 0
  local snake, hand_limit, office_pays, delivered = rules.snake, rules.hand_limit,
    rules.office_pays, rules.delivered

  -- The state, made once and reset for each game.
  local random
  local steps = 0
  local deck, ndeck = {}, 0
  local market = {}
  local hand, held, ships, nships, owned, coins = {}, {}, {}, {}, {}, {}
  for q = 1, MAXP do
    hand[q] = { 0, 0, 0, 0, 0, 0 }
    ships[q] = {}
    owned[q] = { [0] = 0 }              -- card 0: a card the rules lack
    for c = 1, NS do owned[q][c] = 0 end
  end
  local pool, left = {}, {}
  local over = false
  local exchanged, new_ship = { false, false, false, false, false, false, false, false }, 0
  local scratch, ship_list, card_list, in_hand = {}, {}, {}, {}

  local function choose(k) steps = steps + 1; return random(k) end

  local function pool_products(except)       -- products with a cube in the pool
    local m = 0
    for p = 1, NP do
      if pool[p] > 0 and p ~= except then m = m + 1; scratch[m] = p end
    end
    return m
  end

  local function full(q)                     -- H5
    return hand_limit and held[q] >= 6 + 2 * owned[q][WAREHOUSE]
  end

  -- S4 / H3: load one empty ship.
  local function load(q)
    local sq, e = ships[q], 0
    for k = 1, nships[q] do if sq[k] == 0 then e = e + 1; ship_list[e] = k end end
    if e == 0 then return end
    local i = choose(pool_products() * e) - 1
    local p = scratch[i // e + 1]
    pool[p] = pool[p] - 1
    sq[ship_list[i % e + 1]] = p
  end

  -- S6: the ships that may be exchanged now.
  local function exchangeable(q)
    local m, avail, sq = 0, pool_products(), ships[q]
    for k = 1, nships[q] do
      local others = avail - (pool[sq[k]] > 0 and 1 or 0)  -- other products in the pool
      if not exchanged[k] and k ~= new_ship and others > 0 then m = m + 1; ship_list[m] = k end
    end
    return m
  end

  local function swap(q, k)
    local old = ships[q][k]
    local p = scratch[choose(pool_products(old))]
    pool[old] = pool[old] + 1
    pool[p] = pool[p] - 1
    ships[q][k] = p
    exchanged[k] = true
  end

  local function buyable(q)                  -- S7
    local m, cq = 0, coins[q]
    for c = 1, NS do
      if left[c] > 0 and cq >= price[c] and (c ~= SHIP or pool_products() > 0) then
        m = m + 1; card_list[m] = c
      end
    end
    return m
  end

  local function phase_one(q)
    for k = 1, nships[q] do exchanged[k] = false end
    new_ship = 0
    local can_x = exchangeable(q) > 0
    local can_b = buyable(q) > 0
    local k = choose(1 + (can_x and 1 or 0) + (can_b and 1 or 0))
    if can_x and k == 1 then                             -- exchange
      swap(q, ship_list[choose(exchangeable(q))])
    elseif can_b and k == (can_x and 2 or 1) then         -- buy
      local c = card_list[choose(buyable(q))]
      coins[q] = coins[q] - price[c]
      left[c] = left[c] - 1
      owned[q][c] = owned[q][c] + 1
      if c == SHIP then                                   -- loaded at once
        local p = scratch[choose(pool_products())]
        pool[p] = pool[p] - 1
        local n = nships[q] + 1
        nships[q] = n
        ships[q][n] = p
        exchanged[n] = false
        new_ship = n
      end
    end
    for _ = 1, owned[q][XCARD] do                        -- S5: docks / H7: cranes
      local m = exchangeable(q)
      if m == 0 then break end
      local i = choose(m + 1)
      if i > m then break end                            -- no extra exchange
      swap(q, ship_list[i])
    end
  end

  -- S9 / S11 / H5: one card; the deck's last card ends the game.
  local function draw(q)
    if full(q) then return false end
    local p = deck[ndeck]
    ndeck = ndeck - 1
    hand[q][p] = hand[q][p] + 1
    held[q] = held[q] + 1
    if ndeck == 0 then over = true end
    return true
  end

  local function draw_cards(q, k)
    for _ = 1, k do
      if not draw(q) or over then return end
    end
  end

  local function play(q, n)                 -- S8
    local hq, m = hand[q], 0
    for p = 1, NP do if hq[p] > 0 then m = m + 1; in_hand[m] = p end end
    local p = in_hand[choose(m)]
    local have = hq[p]
    local slots, last = 1, choose(SLOTS)
    market[last] = p
    while slots < have and last < SLOTS do
      local k = choose(1 + SLOTS - last)                 -- stop, or a higher slot
      if k == 1 then break end
      last = last + k - 1
      market[last] = p
      slots = slots + 1
    end
    hq[p] = have - slots
    held[q] = held[q] - slots
    local shows = 0
    for s = 1, SLOTS do if market[s] == p then shows = shows + 1 end end
    if delivered then shows = slots end                  -- H8 option (off)
    for r = 1, n do
      local sr, carried = ships[r], 0
      for k = 1, nships[r] do if sr[k] == p then carried = carried + 1 end end
      if carried > 0 then
        coins[r] = coins[r] + carried * shows + 2 * owned[r][CONTRACT]
      end
    end
    if office_pays then coins[q] = coins[q] + 2 * owned[q][OFFICE] end   -- H4
  end

  local function phase_two(q, n)
    local can_play, can_draw = held[q] > 0, not full(q)
    local k = choose((can_play and 1 or 0) + (can_draw and 1 or 0))
    if can_play and k == 1 then
      play(q, n)
    else
      draw_cards(q, 2)
      if FORKLIFT > 0 then                               -- H6
        for _ = 1, owned[q][FORKLIFT] do
          if over then return end
          local allowed = full(q) and 1 or 2             -- a full hand: only "no forklift draw"
          if choose(allowed) ~= 1 or allowed == 1 then return end
          draw_cards(q, 1)
        end
      end
    end
    if not office_pays then                              -- S10: office draws
      for _ = 1, owned[q][OFFICE] do
        if over or choose(2) ~= 1 then return end
        draw_cards(q, 1)
      end
    end
  end

  local function setup(n)
    -- S3: shuffle; 6 cards to the market; 3 to each player.
    ndeck = 0
    for p = 1, NP do for _ = 1, CARDS do ndeck = ndeck + 1; deck[ndeck] = p end end
    for i = ndeck, 2, -1 do
      local j = random(i)
      deck[i], deck[j] = deck[j], deck[i]
    end
    for s = 1, SLOTS do market[s] = deck[ndeck]; ndeck = ndeck - 1 end
    for q = 1, n do
      local hq = hand[q]
      for p = 1, NP do hq[p] = 0 end
      for _ = 1, 3 do
        local p = deck[ndeck]
        ndeck = ndeck - 1
        hq[p] = hq[p] + 1
      end
      held[q] = 3
      ships[q][1], ships[q][2], nships[q] = 0, 0, 2   -- product per ship, 0 = empty
      local oq = owned[q]
      for c = 1, NS do oq[c] = 0 end
      coins[q] = 0
    end
    for p = 1, NP do pool[p] = 5 end                 -- cubes per product (S12)
    for c = 1, NS do left[c] = supply[c] end          -- special cards in the pool (S2)
    left[SHIP] = supply[SHIP] - 2 * n
    over = false
    for round = 1, 2 do
      for i = 1, n do
        load((snake and round == 1) and n + 1 - i or i)
      end
    end
  end

  return function(rand, n)
    random, steps = rand, 0
    setup(n)
    local turns, q = 0, 1
    while not over do
      turns = turns + 1
      phase_one(q)
      phase_two(q, n)
      q = q % n + 1
    end
    local scores = {}
    for s = 1, n do scores[s] = coins[s] end
    return turns, steps, scores
  end
end

-- Special cards: 1 ship, then the rule set's own, in its order.
return {
  sea_merchants = make {            -- ship, contract, office, dock
    price = { 10, 11, 8, 12 }, supply = { 14, 2, 2, 2 },
    contract = 2, office = 3, exchange_card = 4,
  },
  house = make {                    -- ship, office, warehouse, forklift, crane
    price = { 10, 8, 15, 15, 12 }, supply = { 14, 2, 2, 2, 2 },
    office = 2, warehouse = 3, forklift = 4, exchange_card = 5,
    snake = true, hand_limit = true, office_pays = true,
  },
}
