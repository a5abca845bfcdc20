-- Sea Merchants (Reiner Knizia): the base rule set.
--
-- Sources: /work/shared/rules/sea_merchants.en.txt (the rulebook) and the
-- rulings S1..S12 of RULINGS.md, cited in comments where they apply.
-- docs/rules/sea_merchants.md states the rules as implemented here.
--
-- State (all on g):
--   g.deck      pile, hidden: top = the next card drawn
--   g.market    pile, public: get(s) is the card showing on market slot s
--   g.covered   pile: covered market cards, out of play
--   g.hands[s]  pile, owner s
--   g.held[s]   cards in hand per product (kept with the pile)
--   g.coins     counter, one per seat (min 0)
--   g.cubes     counter, one per product: cubes in the pool (0..5)
--   g.in_pool   bit mask of the products with a cube in the pool (kept with g.cubes)
--   g.ships[s]  list of product indices, one per ship (0 = empty)
--   g.specials[s] {ship = ships bought, contract = n, office = n, dock = n}
--   g.pool      special cards left in the pool {ship =, contract =, ...}
--   g.phase     "load" | "phase1" | "phase2" | "over"
--   g.current   the seat to act (loading or turn)
--   g.first     the first player (S4)
--   g.exchanged ships exchanged in the current phase I (S6)
--   g.new_ship  the ship bought in the current phase I, or false (S6)
--   g.new_dock  true while a dock bought this phase waits (option dock_at_once off)

local R = {
  name = "sea_merchants",
  title = "Sea Merchants",
  summary = "Reiner Knizia's trading game: load ships, play cards to the market, earn coins",
  players = { min = 2, max = 4, default = 4 },          -- S1
  options = {
    first_player = { default = 1, type = "integer", min = 1, max = 4,
                     doc = "the seat that loads first and plays first (S4)" },
    start_coins = { default = 0, type = "integer", min = 0,
                    doc = "the coins each player starts with (S1)" },
    dock_at_once = { default = true, type = "boolean",
                     doc = "a dock bought in phase I can be used in that same phase (S5)" },
    exchange_new_ship = { default = false, type = "boolean",
                          doc = "a ship bought in phase I may be exchanged in that same phase (S6 says no)" },
  },
}

---------------------------------------------------------------------------
-- The components, as data. A variant may change R.data, then call
-- R.prepare() to rebuild what is derived from it (texts, lookups).
---------------------------------------------------------------------------

R.data = {
  products = { "grain", "wood", "porcelain", "fish", "spices", "cloth" }, -- canonical order
  cards_per_product = 10,   -- S2: 60 product cards
  cubes_per_product = 5,    -- S2, S12: 30 cubes
  market_slots = 6,
  hand_at_start = 3,        -- S3
  ships_at_start = 2,       -- S3
  cards_per_draw = 2,       -- S9
  contract_bonus = 2,       -- S8
  specials = { "ship", "contract", "office", "dock" },                -- canonical order
  price = { ship = 10, contract = 11, office = 8, dock = 12 },       -- S7
  supply = { ship = 14, contract = 2, office = 2, dock = 2 },        -- S2 (ships: 2 per player dealt)
  article = { ship = "a", contract = "a", office = "an", dock = "a" },
  exchange_card = "dock",   -- S5: the special card that allows an extra exchange
}

-- The rules a variant may replace or wrap (docs/designing-variants.md).
-- The script calls them through this table, so a replacement takes effect
-- everywhere; each is defined below with the rule it implements.
R.rules = {}

local PRODUCTS, CARDS_PER_PRODUCT, CUBES_PER_PRODUCT, MARKET_SLOTS, HAND_AT_START
local SHIPS_AT_START, CARDS_PER_DRAW, CONTRACT_BONUS, SPECIALS, PRICE, SUPPLY, ARTICLE
local NP, PRODUCT, PRODUCT_OF, IS_SPECIAL, CHEAPEST

-- Option texts, built once (no string is built while playing), and
-- MEANING[text]: what an option text stands for.
local LOAD, EXCHANGE_SHIP, EXCHANGE_TO, DOCK_SHIP_OR_NOT, DOCK_TO
local BUY, BUY_LIST, BUY_SHIP_AND_LOAD, PLAY, PLAY_ON, SLOT_SUFFIX, MEANING
local NO_DOCK_EXCHANGE
local PHASE1_ACTIONS = { "exchange", "buy", "pass" }
local PHASE2_PLAY_OR_DRAW = { "play", "draw" }
local PHASE2_DRAW_ONLY = { "draw" }
local OFFICE_CHOICE = { "office draw", "no office draw" }

local BIT = {}
for i = 1, 62 do BIT[i] = 1 << (i - 1) end
local NO_DOCK_BIT

function R.prepare()
  local d = R.data
  PRODUCTS, CARDS_PER_PRODUCT, CUBES_PER_PRODUCT = d.products, d.cards_per_product, d.cubes_per_product
  MARKET_SLOTS, HAND_AT_START, SHIPS_AT_START = d.market_slots, d.hand_at_start, d.ships_at_start
  CARDS_PER_DRAW, CONTRACT_BONUS = d.cards_per_draw, d.contract_bonus
  SPECIALS, PRICE, SUPPLY, ARTICLE = d.specials, d.price, d.supply, d.article
  NP = #PRODUCTS
  PRODUCT, PRODUCT_OF, IS_SPECIAL = {}, {}, {}
  for p, name in ipairs(PRODUCTS) do PRODUCT[name] = p end
  for card = 1, NP * CARDS_PER_PRODUCT do PRODUCT_OF[card] = (card - 1) // CARDS_PER_PRODUCT + 1 end
  CHEAPEST = math.huge
  for _, card in ipairs(SPECIALS) do
    IS_SPECIAL[card] = true
    CHEAPEST = math.min(CHEAPEST, PRICE[card])
  end

  LOAD, EXCHANGE_SHIP, EXCHANGE_TO, DOCK_SHIP_OR_NOT, DOCK_TO = {}, {}, {}, {}, {}
  BUY, BUY_LIST, BUY_SHIP_AND_LOAD, PLAY, PLAY_ON, SLOT_SUFFIX, MEANING = {}, {}, {}, {}, {}, {}, {}
  for p, name in ipairs(PRODUCTS) do
    LOAD[p] = {}
    PLAY[p] = "play " .. name
    MEANING[PLAY[p]] = { product = p }
    PLAY_ON[p] = {}
    for s = 1, MARKET_SLOTS do PLAY_ON[p][s] = PLAY[p] .. " on slots " .. s end
    BUY_SHIP_AND_LOAD[p] = "buy ship and load " .. name
    MEANING[BUY_SHIP_AND_LOAD[p]] = { product = p }
  end
  for s = 1, MARKET_SLOTS do SLOT_SUFFIX[s] = "," .. s end
  local extra = d.exchange_card .. " exchange"              -- "dock exchange"
  NO_DOCK_EXCHANGE = "no " .. extra
  for k = 1, SUPPLY.ship do
    EXCHANGE_SHIP[k] = "exchange ship " .. k
    DOCK_SHIP_OR_NOT[k] = extra .. " ship " .. k
    MEANING[EXCHANGE_SHIP[k]] = { ship = k }
    MEANING[DOCK_SHIP_OR_NOT[k]] = { ship = k }
    EXCHANGE_TO[k], DOCK_TO[k] = {}, {}
    for p, name in ipairs(PRODUCTS) do
      LOAD[p][k] = "load " .. name .. " on ship " .. k
      EXCHANGE_TO[k][p] = EXCHANGE_SHIP[k] .. " to " .. name
      DOCK_TO[k][p] = DOCK_SHIP_OR_NOT[k] .. " to " .. name
      MEANING[LOAD[p][k]] = { ship = k, product = p }
      MEANING[EXCHANGE_TO[k][p]] = { ship = k, product = p }
      MEANING[DOCK_TO[k][p]] = { ship = k, product = p }
    end
  end
  DOCK_SHIP_OR_NOT[SUPPLY.ship + 1] = NO_DOCK_EXCHANGE
  NO_DOCK_BIT = BIT[SUPPLY.ship + 1]
  for i, card in ipairs(SPECIALS) do
    BUY[card] = "buy " .. card
    BUY_LIST[i] = BUY[card]
    MEANING[BUY[card]] = { card = card }
  end
end
R.prepare()

---------------------------------------------------------------------------
-- Small helpers
---------------------------------------------------------------------------

-- The texts of `list` that the bit mask selects, in list order. The lists
-- are memoised and shared (never changed), so a decision allocates nothing.
local SUBSETS = {}   -- keyed by the rule set's own lists, which live as long as it
local function subset(list, mask)
  local memo = SUBSETS[list]
  if not memo then memo = {}; SUBSETS[list] = memo end
  local opts = memo[mask]
  if not opts then
    opts = {}
    for i = 1, #list do
      if mask & BIT[i] ~= 0 then opts[#opts + 1] = list[i] end
    end
    memo[mask] = opts
  end
  return opts
end

-- Asks `seat` to pick one of the texts of `list` that `mask` selects.
local function choose(g, seat, name, list, mask)
  local opts = subset(list, mask)
  return opts[g:choose(seat, name, opts)]
end

local function plural(n, word)
  return n == 1 and ("1 " .. word) or (n .. " " .. word .. "s")
end

-- The cube pool. g.in_pool is the mask of the products with a cube in the
-- pool, kept with the counter (checked by R.invariants).
local function pool_mask_of(cubes)
  local m = 0
  for p = 1, NP do
    if cubes:get(p) > 0 then m = m | BIT[p] end
  end
  return m
end

local function take_cube(g, p)            -- S12: fails (an error) if none is left
  if g.cubes:add(p, -1) == 0 then g.in_pool = g.in_pool & ~BIT[p] end
end

local function return_cube(g, p)
  g.cubes:add(p, 1)
  g.in_pool = g.in_pool | BIT[p]
end

-- The hands. g.held[seat][p] counts the cards of product p in the hand,
-- kept with the pile (checked by R.invariants).
local function to_hand(g, seat, card)
  g.hands[seat]:push(card)
  local held = g.held[seat]
  local p = PRODUCT_OF[card]
  held[p] = held[p] + 1
end

local function products_in_hand(g, seat)  -- a mask
  local m, held = 0, g.held[seat]
  for p = 1, NP do
    if held[p] > 0 then m = m | BIT[p] end
  end
  return m
end

local function showing(g, p)              -- market slots showing product p
  local n, market = 0, g.market
  for s = 1, MARKET_SLOTS do
    if PRODUCT_OF[market:get(s)] == p then n = n + 1 end
  end
  return n
end

local function end_of_game(g)             -- S11
  g.phase = "over"
  g:log("the deck is empty: the game ends")
  g:finish()
end

---------------------------------------------------------------------------
-- Game preparation (S1, S2, S3)
---------------------------------------------------------------------------

local function new_components(g)
  local n = g.players
  g.deck = kontor.pile{ vis = "hidden" }
  g.market = kontor.pile{ vis = "public" }
  g.covered = kontor.pile{ vis = "public" }
  g.hands, g.held, g.ships, g.specials = {}, {}, {}, {}
  for seat = 1, n do
    g.hands[seat] = kontor.pile{ vis = "owner", owner = seat }
    g.held[seat] = {}
    for p = 1, NP do g.held[seat][p] = 0 end
    g.ships[seat] = {}
    for k = 1, SHIPS_AT_START do g.ships[seat][k] = 0 end     -- S3: 2 empty ships
    g.specials[seat] = {}
    for _, card in ipairs(SPECIALS) do g.specials[seat][card] = 0 end
  end
  g.coins = kontor.counter{ n = n, min = 0, init = g.options.start_coins }  -- S1: 0 coins, unlimited
  g.cubes = kontor.counter{ n = NP, min = 0, max = CUBES_PER_PRODUCT,
                            init = CUBES_PER_PRODUCT }         -- S12
  g.pool = {}
  for _, card in ipairs(SPECIALS) do g.pool[card] = SUPPLY[card] end
  g.pool.ship = SUPPLY.ship - SHIPS_AT_START * n              -- S2: 2 ships per player dealt
  g.in_pool = pool_mask_of(g.cubes)
  g.exchanged = {}
  g.new_ship, g.new_dock = false, false
end

-- S3: shuffle; 6 cards to market slots 1..6; 3 cards to each player in seat
-- order, one player at a time.
local function shuffle_and_deal(g)
  for card = 1, NP * CARDS_PER_PRODUCT do g.deck:push(card) end
  g.deck:shuffle(g.rng)
  g.deck:move_to(g.market, MARKET_SLOTS)
  for seat = 1, g.players do
    for _ = 1, HAND_AT_START do to_hand(g, seat, g.deck:pop()) end
  end
end

---------------------------------------------------------------------------
-- Scenario set-up: a stated position instead of the shuffle
---------------------------------------------------------------------------

local SCENARIO_FIELDS = { deck = true, market = true, hands = true, ships = true,
  coins = true, specials = true, active = true, phase = true, first_player = true }
local PHASES = { load = true, phase1 = true, phase2 = true }

local function bad(fmt, ...)
  error("scenario: " .. string.format(fmt, ...), 0)
end

local function product_named(name, where)
  local p = PRODUCT[name]
  if not p then
    bad("%s: unknown product %s (products: %s)", where, tostring(name), table.concat(PRODUCTS, ", "))
  end
  return p
end

local function seat_in_range(g, v, what)
  if math.type(v) ~= "integer" or v < 1 or v > g.players then
    bad("%s must be a seat from 1 to %d, not %s", what, g.players, tostring(v))
  end
  return v
end

local function zeros()
  local t = {}
  for p = 1, NP do t[p] = 0 end
  return t
end

-- The product cards: market, hands, deck; the rest out of play (or, with
-- no deck stated, shuffled into the deck).
local function place_cards(g, sc)
  local n = g.players
  if type(sc.market) ~= "table" or #sc.market ~= MARKET_SLOTS then
    bad("market must list %d product names, one per slot", MARKET_SLOTS)
  end
  local hands, deck = sc.hands or {}, sc.deck
  if #hands > n then bad("hands lists %d players, the game has %d", #hands, n) end
  if deck ~= nil and (type(deck) ~= "table" or #deck == 0) then
    bad("deck must list at least 1 product name (the game ends when its last card is drawn)")
  end
  local wanted = zeros()              -- count first, so that the error names the total
  local function want(name, where) local p = product_named(name, where); wanted[p] = wanted[p] + 1 end
  for s, name in ipairs(sc.market) do want(name, "market slot " .. s) end
  for seat = 1, n do
    for _, name in ipairs(hands[seat] or {}) do want(name, "hand of seat " .. seat) end
  end
  for i, name in ipairs(deck or {}) do want(name, "deck card " .. i) end
  for p = 1, NP do
    if wanted[p] > CARDS_PER_PRODUCT then         -- S2
      bad("%d %s cards are placed, but there are only %d", wanted[p], PRODUCTS[p], CARDS_PER_PRODUCT)
    end
  end

  local next_id = {}                  -- card ids: the lowest unused id of the product
  for p = 1, NP do next_id[p] = (p - 1) * CARDS_PER_PRODUCT + 1 end
  local function card(name)
    local p = PRODUCT[name]
    local id = next_id[p]; next_id[p] = id + 1
    return id
  end
  for _, name in ipairs(sc.market) do g.market:push(card(name)) end
  for seat = 1, n do
    for _, name in ipairs(hands[seat] or {}) do to_hand(g, seat, card(name)) end
  end
  if deck then
    for i = #deck, 1, -1 do g.deck:push(card(deck[i])) end     -- deck[1] on top
  end
  local rest = {}                                               -- cards placed nowhere
  for p = 1, NP do
    for id = next_id[p], p * CARDS_PER_PRODUCT do rest[#rest + 1] = id end
  end
  if deck then
    for _, id in ipairs(rest) do g.covered:push(id) end         -- out of play
  else
    for _, id in ipairs(rest) do g.deck:push(id) end           -- no deck stated: shuffle the rest
    g.deck:shuffle(g.rng)
    if g.deck:count() == 0 then bad("no card is left for the deck") end
  end
end

-- Ships and cubes (S2, S12); returns whether some ship is empty.
local function place_ships(g, sc)
  local n, all_ships, any_empty = g.players, 0, false
  local on_ships = zeros()
  local ships = sc.ships or {}
  if #ships > n then bad("ships lists %d players, the game has %d", #ships, n) end
  for seat = 1, n do
    local list = ships[seat]
    if list ~= nil then
      if type(list) ~= "table" or #list < SHIPS_AT_START then
        bad("seat %d must have at least the %d ships of the setup", seat, SHIPS_AT_START)
      end
      g.ships[seat] = {}
      for k, name in ipairs(list) do
        if name then
          local p = product_named(name, ("ship %d of seat %d"):format(k, seat))
          on_ships[p] = on_ships[p] + 1
          g.ships[seat][k] = p
        else
          g.ships[seat][k] = 0
          any_empty = true
        end
      end
    else
      any_empty = true
    end
    all_ships = all_ships + #g.ships[seat]
    g.specials[seat].ship = #g.ships[seat] - SHIPS_AT_START
  end
  for p = 1, NP do
    if on_ships[p] > CUBES_PER_PRODUCT then
      bad("%d %s cubes are on ships, but there are only %d", on_ships[p], PRODUCTS[p], CUBES_PER_PRODUCT)
    end
    g.cubes:set(p, CUBES_PER_PRODUCT - on_ships[p])
  end
  g.in_pool = pool_mask_of(g.cubes)
  if all_ships > SUPPLY.ship then bad("%d ships, but there are only %d", all_ships, SUPPLY.ship) end
  g.pool.ship = SUPPLY.ship - all_ships
  return any_empty
end

-- Special cards (S2) and coins.
local function place_specials_and_coins(g, sc)
  for seat, owned in pairs(sc.specials or {}) do
    seat_in_range(g, seat, "a specials entry")
    for card, count in pairs(owned) do
      if not IS_SPECIAL[card] then bad("seat %d: unknown special card '%s'", seat, tostring(card)) end
      if math.type(count) ~= "integer" or count < 0 then
        bad("seat %d: %s count must be a whole number >= 0", seat, card)
      end
      if card == "ship" then
        if count ~= g.specials[seat].ship then
          bad("seat %d: ship = %d, but its ships list shows %d bought ships", seat, count, g.specials[seat].ship)
        end
      else
        g.specials[seat][card] = count
        g.pool[card] = g.pool[card] - count
        if g.pool[card] < 0 then
          bad("more %s cards are owned than the %d there are", card, SUPPLY[card])
        end
      end
    end
  end
  for seat, c in pairs(sc.coins or {}) do
    seat_in_range(g, seat, "a coins entry")
    if math.type(c) ~= "integer" or c < 0 then bad("coins of seat %d must be a whole number >= 0", seat) end
    g.coins:set(seat, c)
  end
end

local function set_up_scenario(g, sc)
  for field in pairs(sc) do
    if not SCENARIO_FIELDS[field] then bad("unknown field '%s'", tostring(field)) end
  end
  if sc.first_player ~= nil then g.first = seat_in_range(g, sc.first_player, "first_player") end
  place_cards(g, sc)
  local any_empty = place_ships(g, sc)
  place_specials_and_coins(g, sc)
  g.phase = sc.phase or (any_empty and "load" or "phase1")
  if not PHASES[g.phase] then bad("phase must be load, phase1 or phase2, not %s", tostring(g.phase)) end
  if g.phase ~= "load" and any_empty then bad("every ship must carry a cube after the loading") end
  g.current = sc.active ~= nil and seat_in_range(g, sc.active, "active") or g.first
  if g.phase == "load" then
    local loaded = 0
    for _, c in ipairs(g.ships[g.current]) do if c ~= 0 then loaded = loaded + 1 end end
    if loaded >= SHIPS_AT_START then bad("active seat %d has no empty ship to load", g.current) end
  end
end

function R.setup(g, scenario)
  local n = g.players
  if n < R.players.min or n > R.players.max then
    error(("Sea Merchants is for %d to %d players"):format(R.players.min, R.players.max), 0)
  end
  g.first = g.options.first_player                            -- S4
  if g.first > n then
    error(("option first_player: %d is not a seat of a %d-player game"):format(g.first, n), 0)
  end
  new_components(g)
  if scenario then
    set_up_scenario(g, scenario)
  else
    shuffle_and_deal(g)
    g.phase = "load"
    g.current = g.first
  end
end

---------------------------------------------------------------------------
-- Loading (S4)
---------------------------------------------------------------------------

-- The load options for a pool mask and an empty-ship mask (memoised):
-- products in canonical order, then ships ascending.
local LOAD_OPTIONS = {}
local function load_options(pool, empty)
  local key = pool << 32 | empty
  local opts = LOAD_OPTIONS[key]
  if not opts then
    opts = {}
    for p = 1, NP do
      if pool & BIT[p] ~= 0 then
        for k = 1, SUPPLY.ship do
          if empty & BIT[k] ~= 0 then opts[#opts + 1] = LOAD[p][k] end
        end
      end
    end
    LOAD_OPTIONS[key] = opts
  end
  return opts
end

-- One player puts 1 cube of any product still in the pool (S12) on an
-- empty ship.
local function load_a_ship(g, seat)
  local ships, empty = g.ships[seat], 0
  for k = 1, #ships do
    if ships[k] == 0 then empty = empty | BIT[k] end
  end
  local opts = load_options(g.in_pool, empty)
  if #opts == 0 then return end
  local m = MEANING[opts[g:choose(seat, "load", opts)]]
  take_cube(g, m.product)
  ships[m.ship] = m.product
  g:log("%s loads %s on ship %d", g.names[seat], PRODUCTS[m.product], m.ship)
end

local function has_empty_ship(g, seat)
  for _, c in ipairs(g.ships[seat]) do
    if c == 0 then return true end
  end
  return false
end

-- S4: starting with the first player, in turn order, each player loads one
-- ship; then a second round in the same order. (A scenario may start in the
-- middle: at the active seat, in the round its loaded ships show.)
-- S4: starting with the first player, in turn order, each player loads one
-- ship; then a second round in the same order. A list of rounds, each a
-- list of seats.
function R.rules.loading_order(g)
  local rounds = {}
  for round = 1, SHIPS_AT_START do rounds[round] = g:turn_order(g.first) end
  return rounds
end

-- The loading, in the order of R.rules.loading_order. (A scenario may start
-- in the middle: at the active seat, in the round its loaded ships show.)
local function loading(g)
  local rounds = R.rules.loading_order(g)
  local start_round, start_at, loaded = 1, 1, 0
  for seat = 1, g.players do
    for _, c in ipairs(g.ships[seat]) do
      if c ~= 0 then loaded = loaded + 1 end
    end
  end
  if loaded > 0 then   -- a scenario stopped mid-loading: resume at the active seat
    for _, c in ipairs(g.ships[g.current]) do
      if c ~= 0 then start_round = start_round + 1 end
    end
    for i, seat in ipairs(rounds[start_round] or {}) do
      if seat == g.current then start_at = i; break end
    end
  end
  for round = start_round, #rounds do
    local order = rounds[round]
    for i = (round == start_round and start_at or 1), #order do
      local seat = order[i]
      g.current = seat
      if has_empty_ship(g, seat) then load_a_ship(g, seat) end
    end
  end
end

---------------------------------------------------------------------------
-- Phase I: exchange, buy or pass (S5, S6, S7)
---------------------------------------------------------------------------

-- S6: ship k can be exchanged if it carries a cube, was not exchanged yet
-- in this phase I, was not bought in it, and another product has a cube in
-- the pool (`pool`: the mask g.in_pool).
local function can_exchange_ship(g, seat, k, pool)
  local cube = g.ships[seat][k]
  return cube ~= 0 and not g.exchanged[k] and g.new_ship ~= k and pool & ~BIT[cube] ~= 0
end

local function exchangeable_ships(g, seat, pool)   -- a mask
  local m = 0
  for k = 1, #g.ships[seat] do
    if can_exchange_ship(g, seat, k, pool) then m = m | BIT[k] end
  end
  return m
end

-- S7: the special cards (a mask) still in the pool whose price the player
-- has; a ship also needs a cube to load (S12).
local function buyable_cards(g, seat, pool)
  local m, coins, left = 0, g.coins:get(seat), g.pool
  if coins < CHEAPEST then return 0 end
  for i = 1, #SPECIALS do
    local card = SPECIALS[i]
    if left[card] > 0 and coins >= PRICE[card] and (card ~= "ship" or pool ~= 0) then
      m = m | BIT[i]
    end
  end
  return m
end

-- Swap the cube on ship k for product p from the pool; the old cube returns.
local function swap_cube(g, seat, k, p, how)
  local old = g.ships[seat][k]
  return_cube(g, old)
  take_cube(g, p)
  g.ships[seat][k] = p
  g.exchanged[k] = true
  g:log("%s %s %s for %s on ship %d", g.names[seat], how, PRODUCTS[old], PRODUCTS[p], k)
end

-- Phase I action 1: exchange a product cube (once, on one ship), for a
-- different product with a cube in the pool (S6).
local function exchange_a_cube(g, seat)
  local pool = g.in_pool
  local k = MEANING[choose(g, seat, "exchange_ship", EXCHANGE_SHIP, exchangeable_ships(g, seat, pool))].ship
  local other = pool & ~BIT[g.ships[seat][k]]
  local p = MEANING[choose(g, seat, "exchange_product", EXCHANGE_TO[k], other)].product
  swap_cube(g, seat, k, p, "exchanges")
end

-- S7: a bought ship is loaded at once with 1 cube of any product in the pool.
local function buy_a_ship(g, seat)
  local p = MEANING[choose(g, seat, "load_ship", BUY_SHIP_AND_LOAD, g.in_pool)].product
  local ships = g.ships[seat]
  g.coins:add(seat, -PRICE.ship)
  g.pool.ship = g.pool.ship - 1
  g.specials[seat].ship = g.specials[seat].ship + 1
  ships[#ships + 1] = p
  take_cube(g, p)
  -- S6: not exchanged this phase (unless the option says otherwise)
  g.new_ship = not g.options.exchange_new_ship and #ships
  g:log("%s buys a ship for %d and loads %s on it (ship %d)", g.names[seat], PRICE.ship, PRODUCTS[p], #ships)
end

-- Phase I action 2: buy a special card (S7).
local function buy_a_special_card(g, seat)
  local card = MEANING[choose(g, seat, "buy_card", BUY_LIST, buyable_cards(g, seat, g.in_pool))].card
  if card == "ship" then return buy_a_ship(g, seat) end
  g.coins:add(seat, -PRICE[card])
  g.pool[card] = g.pool[card] - 1
  g.specials[seat][card] = g.specials[seat][card] + 1
  if card == R.data.exchange_card and not g.options.dock_at_once then g.new_dock = true end   -- S5 option
  g:log("%s buys %s %s for %d", g.names[seat], ARTICLE[card], card, PRICE[card])
end

-- S5: each dock owned allows one optional extra exchange in phase I, after
-- the main action, whatever it was; a dock bought this phase counts.
-- Docks are alike, so a "no dock exchange" ends them.
function R.rules.extra_exchanges(g, seat)
  for _ = 1, (g.specials[seat][R.data.exchange_card] or 0) - (g.new_dock and 1 or 0) do
    local pool = g.in_pool
    local ships = exchangeable_ships(g, seat, pool)
    if ships == 0 then return end
    local choice = choose(g, seat, "dock", DOCK_SHIP_OR_NOT, ships | NO_DOCK_BIT)
    if choice == NO_DOCK_EXCHANGE then return end
    local k = MEANING[choice].ship
    local p = MEANING[choose(g, seat, "dock_product", DOCK_TO[k], pool & ~BIT[g.ships[seat][k]])].product
    swap_cube(g, seat, k, p, "uses a dock: exchanges")
  end
end

-- S5: exactly one of exchange, buy, pass; then the docks.
local function phase_one(g, seat)
  g.phase = "phase1"
  g.new_ship, g.new_dock = false, false
  local pool, can = g.in_pool, BIT[3]                       -- pass
  if exchangeable_ships(g, seat, pool) ~= 0 then can = can | BIT[1] end
  if buyable_cards(g, seat, pool) ~= 0 then can = can | BIT[2] end
  local action = choose(g, seat, "phase1", PHASE1_ACTIONS, can)
  if action == "exchange" then
    exchange_a_cube(g, seat)
  elseif action == "buy" then
    buy_a_special_card(g, seat)
  else
    g:log("%s passes", g.names[seat])
  end
  R.rules.extra_exchanges(g, seat)
  local exchanged = g.exchanged   -- S6 holds within one phase I
  for k = 1, #g.ships[seat] do exchanged[k] = nil end
end

---------------------------------------------------------------------------
-- Phase II: play or draw (S8, S9), then offices (S10)
---------------------------------------------------------------------------

-- S9: one card from the top of the deck to the hand. Returns false when
-- the card is not drawn (no base rule refuses one; a hand limit may).
function R.rules.draw_card(g, seat)
  to_hand(g, seat, g.deck:pop())
  return true
end

-- S9 / S10 / S11: draw n cards one at a time; the last card of the deck
-- ends the game at once.
function R.rules.draw_cards(g, seat, n, why)
  local deck, drawn = g.deck, 0
  for _ = 1, n do
    if not R.rules.draw_card(g, seat) then break end
    drawn = drawn + 1
    if deck:count() == 0 then
      if g.logging then g:log("%s draws %s%s", g.names[seat], plural(drawn, "card"), why) end
      end_of_game(g)
    end
  end
  if g.logging then g:log("%s draws %s%s", g.names[seat], plural(drawn, "card"), why) end
  return drawn
end

-- S9: phase II's draw action.
function R.rules.draw_action(g, seat)
  R.rules.draw_cards(g, seat, CARDS_PER_DRAW, "")
end

-- Take one card of product p from the hand (the topmost such card).
function R.rules.take_from_hand(g, seat, p)
  local hand = g.hands[seat]
  g.held[seat][p] = g.held[seat][p] - 1
  for i = hand:count(), 1, -1 do
    if PRODUCT_OF[hand:get(i)] == p then return hand:remove(i) end
  end
end

-- S8: N = the market slots showing the product; every player, the active one
-- first, earns N coins per ship carrying it; a player who earned also gets
-- 2 coins per contract (once per play). Returns N and, when logging, who
-- earned what.
-- S8: N, what each ship carrying the product earns: the market slots
-- showing the product after the play (`slots`: the slots played on).
function R.rules.payout_count(g, p, slots)
  return showing(g, p)
end

function R.rules.trade(g, seat, p, slots)
  local shows, n = R.rules.payout_count(g, p, slots), g.players
  local report = g.logging and {} or nil
  for i = 0, n - 1 do
    local q = (seat - 1 + i) % n + 1
    local ships, cubes = g.ships[q], 0
    for k = 1, #ships do
      if ships[k] == p then cubes = cubes + 1 end
    end
    local coins = cubes * shows
    if coins > 0 then
      local contracts = g.specials[q].contract or 0   -- a variant may have no contracts
      local bonus = contracts * CONTRACT_BONUS
      g.coins:add(q, coins + bonus)
      if report then
        report[#report + 1] = bonus > 0
          and ("%s earns %d (+%d %s)"):format(g.names[q], coins + bonus, bonus, contracts == 1 and "contract" or "contracts")
          or ("%s earns %d"):format(g.names[q], coins)
      end
    end
  end
  return shows, report
end

-- The play_more options after `text` (whose last slot is `last`): first the
-- text itself ("stop here"), then each higher slot. Memoised by text.
local MORE = {}
local function more_slots(g, text, last)
  local opts = MORE[text]
  if not opts then
    opts = { text }
    for s = last + 1, MARKET_SLOTS do opts[#opts + 1] = g:text(text, SLOT_SUFFIX[s]) end
    MORE[text] = opts
  end
  return opts
end

-- S8: one or more cards of one product, each on a different market slot
-- chosen by the player (slots ascending); covered cards leave play.
local function play_cards(g, seat)
  local p = MEANING[choose(g, seat, "play_product", PLAY, products_in_hand(g, seat))].product
  local have = g.held[seat][p]
  local first = g:choose(seat, "play_slot", PLAY_ON[p])
  local slots, text, last = { first }, PLAY_ON[p][first], first
  while #slots < have and last < MARKET_SLOTS do
    local opts = more_slots(g, text, last)
    local k = g:choose(seat, "play_more", opts)
    if k == 1 then break end
    last, text = last + k - 1, opts[k]
    slots[#slots + 1] = last
  end
  local market, covered = g.market, g.covered
  for i = 1, #slots do
    local s = slots[i]
    covered:push(market:get(s))
    market:set(s, R.rules.take_from_hand(g, seat, p))
  end
  local shows, report = R.rules.trade(g, seat, p, slots)
  if report then
    g:log("%s plays %s on %s %s: %s shows %d; %s", g.names[seat], PRODUCTS[p],
          #slots == 1 and "slot" or "slots", table.concat(slots, ","), PRODUCTS[p], shows,
          #report > 0 and table.concat(report, ", ") or "nobody earns")
  end
end

local function phase_two(g, seat)
  g.phase = "phase2"
  local opts = g.hands[seat]:count() > 0 and PHASE2_PLAY_OR_DRAW or PHASE2_DRAW_ONLY
  if opts[g:choose(seat, "phase2", opts)] == "play" then
    play_cards(g, seat)
  else
    R.rules.draw_action(g, seat)
  end
end

-- S10: at the end of phase II, each office owned: an optional draw of 1,
-- one at a time. Offices are alike, so a "no office draw" ends them.
function R.rules.end_of_phase_two(g, seat)
  for _ = 1, g.specials[seat].office or 0 do
    if OFFICE_CHOICE[g:choose(seat, "office", OFFICE_CHOICE)] ~= "office draw" then return end
    R.rules.draw_cards(g, seat, 1, " (office)")
  end
end

---------------------------------------------------------------------------
-- The game
---------------------------------------------------------------------------

function R.play(g)
  if g.phase == "load" then
    loading(g)
    g.current = g.first
    g.phase = "phase1"
  end
  local seat = g.current
  while true do                                  -- ends in draw_cards (S11)
    g.current = seat
    g:begin_turn(seat)
    if g.phase ~= "phase2" then phase_one(g, seat) end   -- a scenario may start in phase II
    phase_two(g, seat)
    R.rules.end_of_phase_two(g, seat)
    g.phase = "phase1"
    seat = g:next_seat(seat)
  end
end

function R.scores(g)                             -- S11: most coins wins, ties share
  return g.coins:values()
end

function R.card_text(g, card)
  return PRODUCTS[PRODUCT_OF[card]]
end

---------------------------------------------------------------------------
-- Invariants: the components are all accounted for
---------------------------------------------------------------------------

function R.invariants(g)
  local total = NP * CARDS_PER_PRODUCT
  local seen, count = {}, 0
  local function each(pile, where)
    for i = 1, pile:count() do
      local c = pile:get(i)
      if math.type(c) ~= "integer" or c < 1 or c > total then return ("%s holds a bad card %s"):format(where, tostring(c)) end
      if seen[c] then return ("card %d is both in %s and in %s"):format(c, seen[c], where) end
      seen[c] = where
      count = count + 1
    end
  end
  local err = each(g.deck, "the deck") or each(g.market, "the market") or each(g.covered, "the covered pile")
  if err then return err end
  for seat = 1, g.players do
    err = each(g.hands[seat], "hand " .. seat)
    if err then return err end
    local held = {}
    for p = 1, NP do held[p] = 0 end
    for i = 1, g.hands[seat]:count() do
      local p = PRODUCT_OF[g.hands[seat]:get(i)]
      held[p] = held[p] + 1
    end
    for p = 1, NP do
      if held[p] ~= g.held[seat][p] then
        return ("hand %d holds %d %s cards, g.held says %d"):format(seat, held[p], PRODUCTS[p], g.held[seat][p])
      end
    end
  end
  if count ~= total then return ("%d cards accounted for, not %d"):format(count, total) end
  if g.market:count() ~= MARKET_SLOTS then return ("the market has %d cards"):format(g.market:count()) end

  local cubes, bought = {}, 0
  for p = 1, NP do cubes[p] = g.cubes:get(p) end
  if g.in_pool ~= pool_mask_of(g.cubes) then return "g.in_pool does not match the cube pool" end
  for seat = 1, g.players do
    local ships = g.ships[seat]
    if #ships ~= SHIPS_AT_START + g.specials[seat].ship then
      return ("seat %d has %d ships but %d bought"):format(seat, #ships, g.specials[seat].ship)
    end
    for k, c in ipairs(ships) do
      if math.type(c) ~= "integer" or c < 0 or c > NP then
        return ("ship %d of seat %d holds %s: a ship holds one cube"):format(k, seat, tostring(c))
      end
      if c == 0 and g.phase ~= "load" then return ("ship %d of seat %d is empty after the loading"):format(k, seat) end
      if c > 0 then cubes[c] = cubes[c] + 1 end
    end
    bought = bought + g.specials[seat].ship
    if g.coins:get(seat) < 0 then return ("seat %d has negative coins"):format(seat) end
  end
  for p = 1, NP do
    if cubes[p] ~= CUBES_PER_PRODUCT then
      return ("%d %s cubes in pool and on ships, not %d"):format(cubes[p], PRODUCTS[p], CUBES_PER_PRODUCT)
    end
  end
  for _, card in ipairs(SPECIALS) do
    local owned = 0
    for seat = 1, g.players do owned = owned + g.specials[seat][card] end
    if card == "ship" then owned = owned + SHIPS_AT_START * g.players end
    if g.pool[card] < 0 or g.pool[card] + owned ~= SUPPLY[card] then
      return ("%s cards: %d in the pool + %d owned, not %d"):format(card, g.pool[card], owned, SUPPLY[card])
    end
  end
  return nil
end

---------------------------------------------------------------------------
-- Views
---------------------------------------------------------------------------

local function names_of(pile)
  local list = {}
  for i = 1, pile:count() do list[i] = PRODUCTS[PRODUCT_OF[pile:get(i)]] end
  return list
end

local function ship_names(ships)
  local list = {}
  for k, c in ipairs(ships) do list[k] = c > 0 and PRODUCTS[c] or false end
  return list
end

local function copy_counts(t)
  local c = {}
  for _, card in ipairs(SPECIALS) do c[card] = t[card] end
  return c
end

function R.view(g, seat)
  local v = {
    phase = g.phase, current = g.current, first = g.first,
    market = names_of(g.market), deck = g.deck:count(), covered = g.covered:count(),
    cubes = {}, pool = {}, players = {},
  }
  for p = 1, NP do v.cubes[PRODUCTS[p]] = g.cubes:get(p) end
  for _, card in ipairs(SPECIALS) do v.pool[card] = g.pool[card] end
  for q = 1, g.players do
    local sp = g.specials[q]
    v.players[q] = { name = g.names[q], coins = g.coins:get(q), ships = ship_names(g.ships[q]),
                     specials = copy_counts(sp),
                     hand = g.hands[q]:count() }
  end
  if seat then v.hand = names_of(g.hands[seat]) end
  return v
end

local PHASE_TITLE = { load = "loading", phase1 = "phase I", phase2 = "phase II", over = "game over" }

function R.board(g, seat)
  local out = {}
  local function line(fmt, ...) out[#out + 1] = string.format(fmt, ...) end
  line("Sea Merchants - %s%s - deck %s, %d covered", PHASE_TITLE[g.phase] or g.phase,
       g.phase ~= "over" and (", " .. g.names[g.current] .. " to act") or "",
       plural(g.deck:count(), "card"), g.covered:count())
  local slots = {}
  for s = 1, MARKET_SLOTS do slots[s] = s .. " " .. PRODUCTS[PRODUCT_OF[g.market:get(s)]] end
  line("Market: %s", table.concat(slots, " | "))
  local cubes, specials = {}, {}
  for p = 1, NP do cubes[p] = PRODUCTS[p] .. " " .. g.cubes:get(p) end
  for i, card in ipairs(SPECIALS) do specials[i] = card .. " " .. g.pool[card] end
  line("Pool: cubes %s; cards %s", table.concat(cubes, ", "), table.concat(specials, ", "))
  for q = 1, g.players do
    local sp, owned = g.specials[q], {}
    for _, card in ipairs(SPECIALS) do
      if card ~= "ship" and sp[card] > 0 then owned[#owned + 1] = card .. " " .. sp[card] end
    end
    local ships = ship_names(g.ships[q])
    for k, name in ipairs(ships) do ships[k] = name or "empty" end
    local hand = plural(g.hands[q]:count(), "card")
    if seat == nil or seat == q then
      local names = names_of(g.hands[q])
      table.sort(names, function(a, b) return PRODUCT[a] < PRODUCT[b] end)
      hand = hand .. (#names > 0 and (": " .. table.concat(names, ", ")) or "")
    end
    line("%s%s: %d coins; ships %s; %s; hand %s", q == g.current and "> " or "  ", g.names[q],
         g.coins:get(q), table.concat(ships, ", "),
         #owned > 0 and table.concat(owned, ", ") or "no special cards", hand)
  end
  return table.concat(out, "\n")
end

---------------------------------------------------------------------------
-- Why a text is illegal (g:why)
---------------------------------------------------------------------------

local function why_product(name)
  if name == nil or name == "" then return nil, "name a product (" .. table.concat(PRODUCTS, ", ") .. ")" end
  local p = PRODUCT[name]
  if not p then return nil, ("there is no product '%s' (%s)"):format(name, table.concat(PRODUCTS, ", ")) end
  return p
end

-- "exchange ship 2 to fish" / "dock exchange ship 2 to fish" (S6, S12)
local function why_not_exchange(g, seat, rest, word)
  if rest == "" then
    return "no exchange is possible: every ship was exchanged or bought this phase, or no other cube is in the pool"
  end
  local k, tail = rest:match("^ ship (%d+)(.*)$")
  if not k then return ("expected '%s ship <number>'"):format(word) end
  k = tonumber(k)
  local ships = g.ships[seat]
  if k < 1 or k > #ships then return ("you have no ship %d (you have %d ships)"):format(k, #ships) end
  if ships[k] == 0 then return ("ship %d carries no cube to exchange"):format(k) end
  if g.exchanged[k] then return ("ship %d was already exchanged this phase"):format(k) end
  if g.new_ship == k then return ("ship %d was bought this phase: exchange on one of your other ships"):format(k) end
  if tail == "" then
    if g.in_pool & ~BIT[ships[k]] == 0 then return "no cube of another product is left in the pool" end
    return nil
  end
  local name = tail:match("^ to (%a*)$")
  if not name then return ("expected '%s ship %d to <product>'"):format(word, k) end
  local p, err = why_product(name)
  if not p then return err end
  if p == ships[k] then return ("ship %d already carries %s"):format(k, name) end
  if g.cubes:get(p) == 0 then return ("no %s cube left in the pool"):format(name) end
  return nil
end

-- "buy contract" / "buy ship and load fish" (S7, S12)
local function why_not_buy(g, seat, rest)
  local coins = g.coins:get(seat)
  if rest == "" then
    local cheapest
    for _, card in ipairs(SPECIALS) do
      if g.pool[card] > 0 and (not cheapest or PRICE[card] < PRICE[cheapest]) then cheapest = card end
    end
    if not cheapest then return "no special card is left in the pool" end
    return ("you cannot buy: the cheapest card left, %s %s, costs %d and you have %d coins"):format(
      ARTICLE[cheapest], cheapest, PRICE[cheapest], coins)
  end
  local card, tail = rest:match("^ (%a+)(.*)$")
  if not card or not IS_SPECIAL[card] then
    return ("there is no special card '%s' (%s)"):format(card or rest, table.concat(SPECIALS, ", "))
  end
  if g.pool[card] == 0 then return ("no %s card left in the pool"):format(card) end
  if coins < PRICE[card] then
    return ("%s %s costs %d and you have %d coins"):format(ARTICLE[card], card, PRICE[card], coins)
  end
  if card == "ship" then
    if g.in_pool == 0 then return "no cube is left in the pool to load a new ship" end
    if tail == "" then return nil end
    local name = tail:match("^ and load (%a*)$")
    if not name then return "expected 'buy ship and load <product>'" end
    local p, err = why_product(name)
    if not p then return err end
    if g.cubes:get(p) == 0 then return ("no %s cube left in the pool"):format(name) end
    return nil
  end
  if tail ~= "" then return ("expected 'buy %s'"):format(card) end
  return nil
end

-- "play fish on slots 1,4" (S8)
local function why_not_play(g, seat, rest)
  local hand = g.hands[seat]
  if hand:count() == 0 then return "you have no cards in hand: draw" end
  if rest == "" then return nil end
  local name, tail = rest:match("^ (%a+)(.*)$")
  local p, err = why_product(name)
  if not p then return err end
  local have = g.held[seat][p]
  if have == 0 then return ("you hold no %s card"):format(name) end
  if tail == "" then return nil end
  local list = tail:match("^ on slots? ([%d,]*)$")
  if not list then return ("expected 'play %s on slots <slot>,<slot>...'"):format(name) end
  local used, last, n = {}, 0, 0
  for item in (list .. ","):gmatch("([^,]*),") do
    local s = tonumber(item)
    if not s then return "name the slots by number, separated by commas (1 to 6)" end
    if s < 1 or s > MARKET_SLOTS then return ("there is no market slot %d (slots 1 to %d)"):format(s, MARKET_SLOTS) end
    if used[s] then return ("slot %d is already covered in this play"):format(s) end
    if s < last then return ("slots go in ascending order: slot %d cannot follow slot %d"):format(s, last) end
    used[s], last, n = true, s, n + 1
    if n > have then return ("you hold only %s"):format(plural(have, name .. " card")) end
  end
  return nil
end

local function why_not_load(g, seat, rest)
  local name, k = rest:match("^ (%a+) on ship (%d+)$")
  if not name then
    name = rest:match("^ (%a+)$")
    if not name then return "expected 'load <product> on ship <number>'" end
  end
  local p, err = why_product(name)
  if not p then return err end
  if g.cubes:get(p) == 0 then return ("no %s cube left in the pool"):format(name) end      -- S12
  if not k then return "expected 'load <product> on ship <number>'" end
  k = tonumber(k)
  local ships = g.ships[seat]
  if k < 1 or k > #ships then return ("you have no ship %d (you have %d ships)"):format(k, #ships) end
  if ships[k] ~= 0 then return ("ship %d is already loaded"):format(k) end
  return nil
end

local NOW = {
  load = "now: load a cube on an empty ship ('load <product> on ship <number>')",
  phase1 = "it is phase I: exchange, buy or pass",
  phase2 = "it is phase II: play or draw",
  office = "the end of phase II: 'office draw' or 'no office draw'",
}

local function explain(stage)
  return function(g, seat, text)
    local verb = text:match("^(%a+)") or ""
    local rest = text:sub(#verb + 1)
    if stage == "load" and verb == "load" then return why_not_load(g, seat, rest) end
    if stage == "phase1" then
      if verb == "exchange" then return why_not_exchange(g, seat, rest, "exchange") end
      if verb == "buy" then return why_not_buy(g, seat, rest) end
      if text == "pass" then return nil end
    end
    if stage == "dock" then
      local word = R.data.exchange_card .. " exchange"
      if text:sub(1, #word) == word then return why_not_exchange(g, seat, text:sub(#word + 1), word) end
      if text == NO_DOCK_EXCHANGE then return nil end
    end
    if stage == "phase2" then
      if verb == "play" then return why_not_play(g, seat, rest) end
      if text == "draw" then return nil end
    end
    if stage == "office" and (text == "office draw" or text == "no office draw") then return nil end
    if (verb == "play" or verb == "draw") and stage ~= "phase2" then
      return NOW[stage] .. " (play and draw are phase II actions)"
    end
    if stage == "dock" then
      local w = R.data.exchange_card
      return ("your phase I action is done: '%s exchange ship <number> to <product>' or 'no %s exchange'"):format(w, w)
    end
    return NOW[stage]
  end
end

R.explain = {
  load = explain("load"),
  phase1 = explain("phase1"), exchange_ship = explain("phase1"), exchange_product = explain("phase1"),
  buy_card = explain("phase1"), load_ship = explain("phase1"),
  dock = explain("dock"), dock_product = explain("dock"),
  phase2 = explain("phase2"), play_product = explain("phase2"), play_slot = explain("phase2"),
  play_more = explain("phase2"),
  office = explain("office"),
}

---------------------------------------------------------------------------
-- For the bots (docs/bots.md)
---------------------------------------------------------------------------

-- R.play picks up from g.phase and g.current when a turn begins: a copy of
-- the game for search restarts it from a saved state.
R.resumes_at_turn = true

-- The hands were dealt again in a bot's imagined copy: g.held follows them.
function R.resampled(g)
  for seat = 1, g.players do
    local held = g.held[seat]
    for p = 1, #held do held[p] = 0 end
    for _, card in ipairs(g.hands[seat]:cards()) do
      local name = R.card_text(g, card)
      for p = 1, #held do
        if R.data.products[p] == name then held[p] = held[p] + 1 end
      end
    end
  end
end

-- What a position is worth to `seat`, as the bots see it: coins, plus
-- half a coin per card in hand, plus for each loaded ship what it would
-- earn now (the market slots showing its product) and half a coin.
function R.score(g, seat)
  local products, shows = R.data.products, {}
  local market = g.market
  for i = 1, market:count() do
    local name = R.card_text(g, market:get(i))
    shows[name] = (shows[name] or 0) + 1
  end
  local s = g.coins:get(seat) + 0.5 * g.hands[seat]:count()
  for _, p in ipairs(g.ships[seat]) do
    if p > 0 then s = s + 0.5 + (shows[products[p]] or 0) end
  end
  return s
end

return R
