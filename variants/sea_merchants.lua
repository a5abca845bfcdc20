-- Sea Merchants (Reiner Knizia): the base rule set.
--
-- Sources: the rulebook sea_merchants.en.txt and the rulings S1..S12,
-- cited in comments where they apply; docs/rules/sea_merchants.md states
-- them and the rules as implemented here.
--
-- State (all on g). A card is the number of its product: the cards of one
-- product are alike (S2), so a pile counts them itself (pile:count_of).
--   g.deck      pile, hidden: top = the next card drawn
--   g.market    pile, public: get(s) is the card showing on market slot s
--   g.covered   pile: covered market cards, out of play
--   g.hands[s]  pile, owner s
--   g.coins     counter, one per seat (min 0)
--   g.cubes     counter, one per product: cubes in the pool (0..5)
--   g._pool     the products with a cube in the pool, as a set (a bit mask,
--               see BIT), kept with g.cubes by cube_to_ship and cube_to_pool
--   g.ships[s]  list of product numbers, one per ship (0 = empty)
--   g.specials[s] {ship = ships bought, contract = n, office = n, dock = n}
--   g.pool      special cards left in the pool {ship =, contract =, ...}
--   g.phase     "load" | "phase1" | "phase2" | "over"
--   g.current   the seat to act (loading or turn)
--   g.first     the first player (S4)
--   g.exchanged ships exchanged in the current phase I (S6)
--   g.new_ship  the ship bought in the current phase I, or false (S6)
--   g.new_dock  true while a dock bought this phase waits (option dock_at_once off)
--
-- Options are data (docs/api.md): { "load", "fish", "on ship", 2 } reads
-- "load fish on ship 2", and the rule reads the product and ship back. A
-- decision over every product and ship is asked as one family,
-- g:choose_from(seat, "load", { "load", products, "on ship", ships }),
-- which gives back the product and the ship chosen.

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
-- The components, as data. A variant may change R.data; R.prepare() then
-- rebuilds the name lookups.
---------------------------------------------------------------------------

R.data = {
  products = { "grain", "wood", "porcelain", "fish", "spices", "cloth" }, -- canonical order
  cards_per_product = 10,   -- S2: 60 product cards (a card is its product's number)
  cubes_per_product = 5,    -- S2, S12: 30 cubes
  market_slots = 6,
  hand_at_start = 3,        -- S3
  ships_at_start = 2,       -- S3
  cards_per_draw = 2,       -- S9
  contract_bonus = 2,       -- S8
  office_draw = 1,          -- S10: the cards each office may draw at the end of phase II
  specials = { "ship", "contract", "office", "dock" },                -- canonical order
  price = { ship = 10, contract = 11, office = 8, dock = 12 },       -- S7
  supply = { ship = 14, contract = 2, office = 2, dock = 2 },        -- S2 (ships: 2 per player dealt)
  article = { ship = "a", contract = "a", office = "an", dock = "a" },
  exchange_card = "dock",   -- S5: the special card that allows an extra exchange
}

-- The rules a variant may replace or wrap (docs/designing-variants.md).
-- The script calls them through this table (`rules`, R.rules itself), so a
-- replacement takes effect everywhere; each is defined below with the rule
-- it implements.
R.rules = {}
local rules = R.rules

local D                   -- R.data
local PRODUCT, IS_SPECIAL -- product name -> number; special card name -> true
local SLOTS               -- the market slots, { 1, 2, ..., 6 }
local CHEAPEST            -- the lowest price of a special card (S7)
local PLAYS               -- PLAYS[p][s]: the play of product p on slot s; .first: the slot's family
local LONGER, SLOTS_OF    -- see longer_plays and new_play
local EXTRA               -- the extra exchange's options (S5): words, ship[k], none
local NP, BIT             -- the number of products; BIT[i] = 1 << (i - 1), for sets as bit masks
local KEPT                -- option lists and families by the sets they offer (see `kept`)
local CUBES, HELD         -- scratch lists g.cubes:values and pile:counts fill, read before any choice

-- S8: a play as an option, { "play", "fish", "on slots", 1, 4 }, kept
-- with its slots { 1, 4 } (SLOTS_OF).
local function new_play(name, slots)
  local play = { "play", name, "on slots", table.unpack(slots) }
  SLOTS_OF[play] = slots
  return play
end

function R.prepare()
  D = R.data
  PRODUCT, IS_SPECIAL, SLOTS = {}, {}, {}
  for p, name in ipairs(D.products) do PRODUCT[name] = p end
  for _, card in ipairs(D.specials) do IS_SPECIAL[card] = true end
  for s = 1, D.market_slots do SLOTS[s] = s end
  PLAYS, LONGER, SLOTS_OF = {}, {}, {}
  EXTRA = { words = D.exchange_card .. " exchange", ship = {} }
  EXTRA.none = "no " .. EXTRA.words
  -- the log names the card a variant gives the extra exchange (H7: "uses a crane")
  EXTRA.uses = ("uses %s %s: exchanges"):format(D.article[D.exchange_card] or "a", D.exchange_card)
  for k = 1, D.supply.ship do EXTRA.ship[k] = { EXTRA.words, "ship", k } end
  for p, name in ipairs(D.products) do
    PLAYS[p] = { first = kontor.family{ "play", name, "on slots", SLOTS } }
    for s = 1, D.market_slots do PLAYS[p][s] = new_play(name, { s }) end
  end
  NP, BIT, CUBES, HELD = #D.products, {}, {}, {}
  KEPT = { play = {}, exchange = {}, dock = {}, exchange_product = {}, dock_product = {} }
  for i = 1, math.max(NP, D.supply.ship, #D.specials) do BIT[i] = 1 << (i - 1) end
  CHEAPEST = math.huge
  for _, card in ipairs(D.specials) do CHEAPEST = math.min(CHEAPEST, D.price[card]) end
end
R.prepare()

-- The pile and counter methods the rules call at every turn, looked up
-- once: a method call (g.cubes:get(p)) looks its method up through the
-- userdata's metatable each time. Called as get(g.cubes, p),
-- move_to(g.deck, hand, n), card_at(g.market, s), number_of(pile) for
-- pile:count(). Scenarios, the views and the texts keep the method calls.
local push, move_to, number_of, count_of, counts, take, card_at, set_card   -- piles
local get, add, sum, values                                              -- counters
do
  local pile, counter = kontor.pile{ vis = "public" }, kontor.counter{ n = 1 }
  push, move_to, number_of, count_of, counts = pile.push, pile.move_to, pile.count, pile.count_of, pile.counts
  take, card_at, set_card = pile.take, pile.get, pile.set
  get, add, sum, values = counter.get, counter.add, counter.sum, counter.values
end

---------------------------------------------------------------------------
-- Small helpers
---------------------------------------------------------------------------

-- Options are data that nothing changes, so a list or family is made once
-- for each set it offers and kept: KEPT[kind][key], made by make(key, a)
-- (a constant, kontor.options or kontor.family: checked once, when made).
-- A set (of products, ships or cards) is a bit mask: BIT[i] for entry i.
-- The decisions of every turn read theirs as `KEPT.play[key] or kept(...)`
-- (a call only when one is missing: a Lua call costs some 200
-- instructions); R.prepare makes their kinds.
local function kept(kind, key, make, a)
  local by = KEPT[kind]
  if not by then by = {}; KEPT[kind] = by end
  local v = by[key]
  if v == nil then v = make(key, a); by[key] = v end
  return v
end

-- The entries of `list` whose bits are in `mask`, in order.
local function subset(mask, list)
  local out = {}
  for i = 1, #list do
    if mask & BIT[i] ~= 0 then out[#out + 1] = list[i] end
  end
  return out
end

local function product_names(mask) return subset(mask, D.products) end
local function ship_numbers(mask)
  local out = {}
  for k = 1, D.supply.ship do
    if mask & BIT[k] ~= 0 then out[#out + 1] = k end
  end
  return out
end

local function plural(n, word)
  return n == 1 and ("1 " .. word) or (n .. " " .. word .. "s")
end

function R.product_number(name)           -- "fish" -> 4
  return PRODUCT[name]
end

-- The ships of a list that carry a cube.
local function loaded_ships(ships)
  local n = 0
  for k = 1, #ships do
    if ships[k] ~= 0 then n = n + 1 end
  end
  return n
end

-- S12: the products with a cube in the pool, read from g.cubes, as a set
-- (a bit mask). The rules read it kept in g._pool.
local function products_in_pool(g)
  local cubes, set = g.cubes:values(CUBES), 0
  for p = 1, NP do
    if cubes[p] > 0 then set = set | BIT[p] end
  end
  return set
end

-- S12: a cube of product p goes from the pool onto a ship; one returns.
local function cube_to_ship(g, p)
  if add(g.cubes, p, -1) == 0 then g._pool = g._pool & ~BIT[p] end
end

local function cube_to_pool(g, p)
  add(g.cubes, p, 1)
  g._pool = g._pool | BIT[p]
end

-- The cards of each product in a hand: { [p] = n }.
function R.cards_in_hand(g, seat, into)        -- into: a list to fill (pile:counts), else a new one
  return counts(g.hands[seat], NP, into)
end

local function end_of_game(g)             -- S11
  g.phase = "over"
  g:log("the deck is empty: the game ends")
  g:finish()
end

---------------------------------------------------------------------------
-- Game preparation (S1, S2, S3)
---------------------------------------------------------------------------

-- The tables of the components are made by constructors with room for
-- what they hold in the base game (4 seats, 2 ships, 4 special cards; a
-- nil field takes no key but makes room): a table grown key by key is
-- rebuilt each time it fills.
local function new_components(g)
  local n, specials = g.players, D.specials
  g.deck = kontor.pile{ vis = "hidden" }
  g.market = kontor.pile{ vis = "public" }
  g.covered = kontor.pile{ vis = "public" }
  local hands, all_ships, all_owned = { nil, nil, nil, nil }, { nil, nil, nil, nil }, { nil, nil, nil, nil }
  for seat = 1, n do
    hands[seat] = kontor.pile{ vis = "owner", owner = seat }
    local ships, owned = { nil, nil }, { ship = nil, contract = nil, office = nil, dock = nil }
    for k = 1, D.ships_at_start do ships[k] = 0 end     -- S3: 2 empty ships
    for i = 1, #specials do owned[specials[i]] = 0 end
    all_ships[seat], all_owned[seat] = ships, owned
  end
  g.hands, g.ships, g.specials = hands, all_ships, all_owned
  g.coins = kontor.counter{ n = n, min = 0, init = g.options.start_coins }  -- S1: 0 coins, unlimited
  g.cubes = kontor.counter{ n = NP, min = 0, max = D.cubes_per_product,
                            init = D.cubes_per_product }        -- S12
  g._pool = D.cubes_per_product > 0 and (1 << NP) - 1 or 0     -- every product's cubes
  local pool = { ship = nil, contract = nil, office = nil, dock = nil }
  for i = 1, #specials do pool[specials[i]] = D.supply[specials[i]] end
  pool.ship = D.supply.ship - D.ships_at_start * n              -- S2: 2 ships per player dealt
  g.pool = pool
  g.exchanged = { nil, nil }
  g.new_ship, g.new_dock = false, false
end

-- S3: shuffle; 6 cards to market slots 1..6; 3 cards to each player in seat
-- order, one player at a time.
local function shuffle_and_deal(g)
  local deck, hands = g.deck, g.hands
  for p = 1, NP do push(deck, p, D.cards_per_product) end
  deck:shuffle(g.rng)
  move_to(deck, g.market, D.market_slots)
  for seat = 1, g.players do move_to(deck, hands[seat], D.hand_at_start) end
end

---------------------------------------------------------------------------
-- Scenario set-up: a stated position instead of the shuffle
-- (docs/rules/sea_merchants.md, "Scenario set-up")
---------------------------------------------------------------------------

local SCENARIO_FIELDS = { deck = true, market = true, hands = true, ships = true,
  coins = true, specials = true, active = true, phase = true, first_player = true,
  -- table: the other fields of g:state(), so that a copy of a state is a scenario
  engine = true, covered = true, cubes = true, pool = true, current = true, first = true,
  exchanged = true, new_ship = true, new_dock = true, step = true }
local PHASES = { load = true, phase1 = true, phase2 = true, dock = true, office = true }

-- A scenario's mistake, its values shown as the scenario gave them (a
-- table is "a table", not its address).
local function bad(fmt, ...)
  error("scenario: " .. kontor.format(fmt, ...), 0)
end

local function product_named(name, where)
  local p = PRODUCT[name]
  if not p then
    bad("%s: unknown product %s (products: %s)", where, name, table.concat(D.products, ", "))
  end
  return p
end

local function seat_in_range(g, v, what)
  if math.type(v) ~= "integer" or v < 1 or v > g.players then
    bad("%s must be a seat from 1 to %d, not %s", what, g.players, v)
  end
  return v
end

local function zeros()
  local t = {}
  for p = 1, #D.products do t[p] = 0 end
  return t
end

-- The product cards: market, hands, deck; the rest out of play (or, with
-- no deck stated, shuffled into the deck).
local function place_cards(g, sc)
  local n = g.players
  if type(sc.market) ~= "table" or #sc.market ~= D.market_slots then
    bad("market must list %d product names, one per slot", D.market_slots)
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
  for i, name in ipairs(sc.covered or {}) do want(name, "covered card " .. i) end
  for p, name in ipairs(D.products) do
    if wanted[p] > D.cards_per_product then         -- S2
      bad("%d %s cards are placed, but there are only %d", wanted[p], name, D.cards_per_product)
    end
  end

  for _, name in ipairs(sc.market) do g.market:push(PRODUCT[name]) end
  for seat = 1, n do
    for _, name in ipairs(hands[seat] or {}) do g.hands[seat]:push(PRODUCT[name]) end
  end
  if deck then
    if sc.engine then                                 -- a copy of g:state(): bottom first
      for i = 1, #deck do g.deck:push(PRODUCT[deck[i]]) end
    else
      for i = #deck, 1, -1 do g.deck:push(PRODUCT[deck[i]]) end  -- deck[1] on top
    end
  end
  for _, name in ipairs(sc.covered or {}) do g.covered:push(PRODUCT[name]) end   -- bottom first
  local rest = deck and g.covered or g.deck     -- the cards placed nowhere: out of play,
  for p = 1, #D.products do                     -- or with no deck stated, shuffled in
    for _ = wanted[p] + 1, D.cards_per_product do rest:push(p) end
  end
  if not deck then
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
      if type(list) ~= "table" or #list < D.ships_at_start then
        bad("seat %d must have at least the %d ships of the setup", seat, D.ships_at_start)
      end
      g.ships[seat] = {}
      for k = 1, #list do
        local name = list[k]
        if math.type(name) == "integer" then name = name > 0 and D.products[name] or false end   -- g:state()'s form
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
    g.specials[seat].ship = #g.ships[seat] - D.ships_at_start
  end
  for p, name in ipairs(D.products) do
    if on_ships[p] > D.cubes_per_product then
      bad("%d %s cubes are on ships, but there are only %d", on_ships[p], name, D.cubes_per_product)
    end
    g.cubes:set(p, D.cubes_per_product - on_ships[p])
  end
  g._pool = products_in_pool(g)
  if all_ships > D.supply.ship then bad("%d ships, but there are only %d", all_ships, D.supply.ship) end
  g.pool.ship = D.supply.ship - all_ships
  return any_empty
end

-- Special cards (S2) and coins.
local function place_specials_and_coins(g, sc)
  for seat, owned in pairs(sc.specials or {}) do
    seat_in_range(g, seat, "a specials entry")
    for card, count in pairs(owned) do
      if not IS_SPECIAL[card] then bad("seat %d: unknown special card '%s'", seat, card) end
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
          bad("more %s cards are owned than the %d there are", card, D.supply[card])
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

-- What g:state() derives (the cubes and cards left in the pool): a stated
-- value must be what the position gives (table).
local function check_derived(g, sc)
  if sc.cubes ~= nil then
    for p, name in ipairs(D.products) do
      if sc.cubes[p] ~= nil and sc.cubes[p] ~= g.cubes:get(p) then
        bad("cubes: %d %s in the pool stated, but the ships leave %d", sc.cubes[p], name, g.cubes:get(p))
      end
    end
  end
  for card, n in pairs(sc.pool or {}) do
    if g.pool[card] ~= nil and n ~= g.pool[card] then
      bad("pool: %d %s cards stated, but the owners leave %d", n, card, g.pool[card])
    end
  end
end

-- The moment inside phase I or II (table): the dock exchanges after the
-- phase I action (S5), the office draws after phase II (S10).
local function place_step(g, sc)
  local phase, step = sc.phase, sc.step
  if phase == "dock" or phase == "office" then step = phase end
  if step == "dock" then g.phase = "phase1"
  elseif step == "office" then g.phase = "phase2"
  elseif step ~= nil then bad("step must be dock or office, not %s", step) end
  g.step = step
  -- the ships exchanged this phase I: a list of ship numbers, or as
  -- g:state() gives it (ship number -> true)
  for k, v in pairs(type(sc.exchanged) == "table" and sc.exchanged or {}) do
    local ship = v == true and math.tointeger(tonumber(k)) or v
    if math.type(ship) ~= "integer" or not g.ships[g.current][ship] then
      bad("exchanged: %s is not a ship of seat %d", ship, g.current)
    end
    g.exchanged[ship] = true
  end
  g.new_ship = sc.new_ship or false
  g.new_dock = sc.new_dock or false
end

-- S4 (or a variant's order, H3): a scenario stopped mid-loading shows,
-- for each seat, the ships the loading order has it load before the
-- active seat's turn (its round: the active seat's loaded ships + 1).
local function check_loading(g)
  local rounds, current = rules.loading_order(g), g.current
  local round, want = loaded_ships(g.ships[current]) + 1, {}
  for s = 1, g.players do want[s] = 0 end
  for r = 1, round do
    for _, s in ipairs(rounds[r] or {}) do
      if r == round and s == current then break end
      want[s] = want[s] + 1
    end
  end
  for s = 1, g.players do
    local n = loaded_ships(g.ships[s])
    if n ~= want[s] then
      bad("loading: seat %d has %d loaded ships, but the loading order gives it %d before seat %d loads (S4)",
          s, n, want[s], current)
    end
  end
end

local function set_up_scenario(g, sc)
  for field in pairs(sc) do
    if not SCENARIO_FIELDS[field] then bad("unknown field '%s'", field) end
  end
  local first = sc.first_player or sc.first
  if first ~= nil then g.first = seat_in_range(g, first, "first_player") end
  place_cards(g, sc)
  local any_empty = place_ships(g, sc)
  place_specials_and_coins(g, sc)
  check_derived(g, sc)
  g.phase = sc.phase or (any_empty and "load" or "phase1")
  if not PHASES[g.phase] then bad("phase must be load, phase1, dock, phase2 or office, not %s", g.phase) end
  if g.phase ~= "load" and any_empty then bad("every ship must carry a cube after the loading") end
  local active = sc.active or sc.current
  g.current = active ~= nil and seat_in_range(g, active, "active") or g.first
  place_step(g, sc)
  if sc.engine and type(sc.engine.rng) == "string" then g.rng:set_state(sc.engine.rng) end   -- goes on alike
  if g.phase == "load" then
    if loaded_ships(g.ships[g.current]) >= D.ships_at_start then bad("active seat %d has no empty ship to load", g.current) end
    check_loading(g)
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

-- S4, S12: a player puts 1 cube of any product still in the pool on one
-- of their empty ships (options: products in canonical order, then ships).
-- key: the products (low NP bits) and the empty ships (the bits above)
local function load_family(key)
  local pool, empty = key & ((1 << NP) - 1), key >> NP
  return kontor.family{ "load", kept("names", pool, product_names), "on ship", kept("ships", empty, ship_numbers) }
end

local function load_a_ship(g, seat)
  local ships, empty = g.ships[seat], 0
  for k = 1, #ships do
    if ships[k] == 0 then empty = empty | BIT[k] end
  end
  local pool = g._pool                              -- S12: the products in the pool
  if pool == 0 or empty == 0 then return g:skip(seat, "load", "no cube is left in the pool") end
  local name, k = g:choose_from(seat, "load", kept("load", pool | empty << NP, load_family))
  local p = PRODUCT[name]
  cube_to_ship(g, p)
  ships[k] = p
  if g.logging then g:log("%s loads %s on ship %d", g.names[seat], name, k) end
end

local function has_empty_ship(g, seat)
  local ships = g.ships[seat]
  for k = 1, #ships do
    if ships[k] == 0 then return true end
  end
  return false
end

-- S4: starting with the first player, in turn order, each player loads one
-- ship; then a second round in the same order. A list of rounds, each a
-- list of seats.
function R.rules.loading_order(g)
  local rounds = {}
  for round = 1, D.ships_at_start do rounds[round] = g:turn_order(g.first) end
  return rounds
end

-- The loading, in the order of R.rules.loading_order. (A scenario may start
-- in the middle: at the active seat, in the round its loaded ships show.)
local function loading(g)
  local rounds = rules.loading_order(g)
  local start_round, start_at, loaded = 1, 1, 0
  for seat = 1, g.players do loaded = loaded + loaded_ships(g.ships[seat]) end
  if loaded > 0 then   -- a scenario stopped mid-loading: resume at the active seat
    start_round = start_round + loaded_ships(g.ships[g.current])
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

-- S12: whether the pool holds a cube of a product other than `p` (p = 0:
-- any cube).
local function other_cube_in_pool(g, p)
  local cubes = g.cubes
  return sum(cubes) > (p > 0 and get(cubes, p) or 0)
end

-- S6, S12: the ships of the player that can be exchanged, as a set: a
-- ship that carries a cube, was not exchanged yet in this phase I, was not
-- bought in it, while another product is in the pool (`in_pool`: the
-- products with a cube there, a set).
local function exchangeable_ships(g, seat, in_pool)
  local ships, exchanged, new_ship, set = g.ships[seat], g.exchanged, g.new_ship, 0
  for k = 1, #ships do
    local cube = ships[k]
    if cube ~= 0 and not exchanged[k] and new_ship ~= k and in_pool & ~BIT[cube] ~= 0 then
      set = set | BIT[k]
    end
  end
  return set
end

-- S7: a special card the player can buy: its price paid, one left in the
-- pool; a ship also needs a cube to load (S12: `in_pool`, the products
-- with a cube in the pool).
local function can_buy(g, card, coins, in_pool)
  return coins >= D.price[card] and g.pool[card] > 0
    and (card ~= "ship" or in_pool ~= 0)
end

-- S7: the special cards the player can buy, as a set (canonical order).
local function buyable_cards(g, seat, in_pool)
  local set, coins = 0, get(g.coins, seat)
  for i = 1, #D.specials do
    if can_buy(g, D.specials[i], coins, in_pool) then set = set | BIT[i] end
  end
  return set
end

-- S7: whether the player can buy some special card (none below the
-- cheapest price).
local function may_buy(g, seat, in_pool)
  local coins = get(g.coins, seat)
  if coins < CHEAPEST then return false end
  for i = 1, #D.specials do
    if can_buy(g, D.specials[i], coins, in_pool) then return true end
  end
  return false
end

-- Swap the cube on ship k for product p from the pool; the old cube returns.
local function swap_cube(g, seat, k, p, how)
  local old = g.ships[seat][k]
  cube_to_pool(g, old)
  cube_to_ship(g, p)
  g.ships[seat][k] = p
  g.exchanged[k] = true
  if g.logging then
    g:log("%s %s %s for %s on ship %d", g.names[seat], how, D.products[old], D.products[p], k)
  end
end

-- key: the products (low NP bits) and the ship (above)
local function product_family(key, words)
  return kontor.family{ words, "ship", key >> NP, "to", kept("names", key & ((1 << NP) - 1), product_names) }
end

-- S6, S12: the product for ship k, chosen at decision `name`: every other
-- product with a cube in the pool, "<words> ship k to fish".
local function choose_product(g, seat, name, words, k)
  local products = g._pool & ~BIT[g.ships[seat][k]]   -- S12: the others in the pool
  local key = products | k << NP
  return PRODUCT[g:choose_from(seat, name, KEPT[name][key] or kept(name, key, product_family, words))]
end

local function exchange_family(ships)
  return kontor.family{ "exchange", "ship", kept("ships", ships, ship_numbers) }
end

-- Phase I action 1: exchange a product cube, once, on one of `ships` (S6:
-- those that can be, a set).
local function exchange_action(g, seat, ships)
  local k = g:choose_from(seat, "exchange_ship", KEPT.exchange[ships] or kept("exchange", ships, exchange_family))
  local p = choose_product(g, seat, "exchange_product", "exchange", k)
  swap_cube(g, seat, k, p, "exchanges")
end

-- S7: a bought ship is loaded at once with 1 cube of any product in the pool.
local function buy_ship_family(pool)
  return kontor.family{ "buy ship and load", kept("names", pool, product_names) }
end

local function buy_a_ship(g, seat)
  local p = PRODUCT[g:choose_from(seat, "load_ship", kept("buy ship", g._pool, buy_ship_family))]
  local ships = g.ships[seat]
  add(g.coins, seat, -D.price.ship)
  g.pool.ship = g.pool.ship - 1
  g.specials[seat].ship = g.specials[seat].ship + 1
  ships[#ships + 1] = p
  cube_to_ship(g, p)
  g.new_ship = not g.options.exchange_new_ship and #ships   -- S6: not exchanged this phase
  if g.logging then
    g:log("%s buys a ship for %d and loads %s on it (ship %d)", g.names[seat], D.price.ship, D.products[p], #ships)
  end
end

local function buy_family(cards)
  return kontor.family{ "buy", subset(cards, D.specials) }
end

-- Phase I action 2: buy one of the special cards the player can buy (S7).
local function buy_action(g, seat, in_pool)
  local card = g:choose_from(seat, "buy_card", kept("buy", buyable_cards(g, seat, in_pool), buy_family))
  if card == "ship" then return buy_a_ship(g, seat) end
  add(g.coins, seat, -D.price[card])
  g.pool[card] = g.pool[card] - 1
  g.specials[seat][card] = g.specials[seat][card] + 1
  if card == D.exchange_card and not g.options.dock_at_once then g.new_dock = true end   -- S5 option
  if g.logging then g:log("%s buys %s %s for %d", g.names[seat], D.article[card], card, D.price[card]) end
end

-- S5: each dock owned allows one optional extra exchange in phase I, after
-- the main action, whatever it was; a dock bought this phase counts.
-- Docks are alike, so a "no dock exchange" ends them.
local function dock_options(ships)
  local options = {}
  for k = 1, D.supply.ship do
    if ships & BIT[k] ~= 0 then options[#options + 1] = EXTRA.ship[k] end
  end
  options[#options + 1] = EXTRA.none                    -- "no dock exchange"
  return kontor.options(options)
end

function R.rules.extra_exchanges(g, seat)
  local words = EXTRA.words                             -- "dock exchange"
  for _ = 1, (g.specials[seat][D.exchange_card] or 0) - (g.new_dock and 1 or 0) do
    local ships = exchangeable_ships(g, seat, g._pool)
    if ships == 0 then
      return g:skip(seat, "dock", "no ship can be exchanged (S6)")
    end
    local options = KEPT.dock[ships] or kept("dock", ships, dock_options)
    local choice = options[g:choose(seat, "dock", options)]
    if type(choice) == "string" then return end
    local k = choice[3]
    swap_cube(g, seat, k, choose_product(g, seat, "dock_product", words, k), EXTRA.uses)
  end
end

-- S5: the phase I actions open to a player, by whether a ship can be
-- exchanged and whether a card can be bought; pass is always open.
local EXCHANGE_BUY, EXCHANGE = kontor.options{ "exchange", "buy", "pass" }, kontor.options{ "exchange", "pass" }
local BUY, PASS = kontor.options{ "buy", "pass" }, kontor.options{ "pass" }

-- S5: exactly one of exchange, buy, pass; then the docks (`at_docks`: a
-- scenario starts there, table).
local function phase_one(g, seat, at_docks)
  if not at_docks then
    g.phase = "phase1"
    g.new_ship, g.new_dock = false, false
    local in_pool = g._pool                       -- S12: the products in the pool
    local ships, buy = exchangeable_ships(g, seat, in_pool), may_buy(g, seat, in_pool)
    local options = ships ~= 0 and (buy and EXCHANGE_BUY or EXCHANGE) or (buy and BUY or PASS)
    local action = options[g:choose(seat, "phase1", options)]
    if action == "exchange" then
      exchange_action(g, seat, ships)
    elseif action == "buy" then
      buy_action(g, seat, in_pool)
    else
      if g.logging then g:log("%s passes", g.names[seat]) end
    end
  end
  g.step = "dock"
  rules.extra_exchanges(g, seat)
  g.step = nil
  local exchanged = g.exchanged                     -- S6 holds within one phase I
  for k = 1, #g.ships[seat] do exchanged[k] = nil end
end

---------------------------------------------------------------------------
-- Phase II: play or draw (S8, S9), then offices (S10)
---------------------------------------------------------------------------

-- S9: one card from the top of the deck to the hand. Returns false when
-- the card is not drawn (no base rule refuses one; a hand limit may).
function R.rules.draw_card(g, seat)
  move_to(g.deck, g.hands[seat], 1)
  return true
end

-- S9 / S10 / S11: draw n cards one at a time; the last card of the deck
-- ends the game at once.
function R.rules.draw_cards(g, seat, n, why)
  local drawn = 0
  for _ = 1, n do
    if not rules.draw_card(g, seat) then break end
    drawn = drawn + 1
    if number_of(g.deck) == 0 then
      if g.logging then g:log("%s draws %s%s", g.names[seat], plural(drawn, "card"), why) end
      end_of_game(g)
    end
  end
  if g.logging then g:log("%s draws %s%s", g.names[seat], plural(drawn, "card"), why) end
  return drawn
end

-- S9: every hand may draw. A variant that takes the draw away returns the
-- reason here (hand_limit, H5): the draw is then not offered.
function R.rules.no_draw(g, seat)
  return nil
end

-- S9: phase II's draw action.
function R.rules.draw_action(g, seat)
  rules.draw_cards(g, seat, D.cards_per_draw, "")
end

-- Take one card of product p from the hand.
function R.rules.take_from_hand(g, seat, p)
  take(g.hands[seat], p)
  return p
end

-- S8: N, what each ship carrying the product earns: the market slots
-- showing the product after the play (`slots`: the slots played on).
function R.rules.payout_count(g, p, slots)
  return g.market:count_of(p)
end

-- S8: every player, the active one first, earns N coins per ship carrying
-- the product; a player who earned also gets 2 coins per contract (once
-- per play). Returns N and, when logging, who earned what.
function R.rules.trade(g, seat, p, slots)
  local shows = rules.payout_count(g, p, slots)
  local report = g.logging and {} or nil
  local n, all_ships, q = g.players, g.ships, seat      -- q: the seats in turn order from `seat`
  local on_ships = D.cubes_per_product - get(g.cubes, p)   -- S12: the cubes not in the pool
  for _ = 1, n do
    if on_ships == 0 then break end                       -- every ship carrying p is paid
    local ships, cubes = all_ships[q], 0
    for k = 1, #ships do
      if ships[k] == p then cubes = cubes + 1 end
    end
    on_ships = on_ships - cubes
    if cubes * shows > 0 then
      local contracts = g.specials[q].contract or 0   -- a variant may have no contracts
      local bonus = contracts * D.contract_bonus
      add(g.coins, q, cubes * shows + bonus)
      if report then
        report[#report + 1] = bonus > 0
          and ("%s earns %d (+%d %s)"):format(g.names[q], cubes * shows + bonus, bonus,
                                              contracts == 1 and "contract" or "contracts")
          or ("%s earns %d"):format(g.names[q], cubes * shows)
      end
    end
    q = q % n + 1
  end
  return shows, report
end

-- S8: after `play`, the options: stop here, or one more slot to the right
-- of its last. Each list is made once and kept (LONGER), with the
-- constant the engine is asked with (.ask, checked once): options are data
-- that nothing changes.
local function longer_plays(play)
  local options = LONGER[play]
  if not options then
    options = { play }                                  -- first: stop here
    local slots = SLOTS_OF[play]
    for s = slots[#slots] + 1, D.market_slots do
      local more = table.move(slots, 1, #slots, 1, {})
      more[#more + 1] = s
      options[#options + 1] = new_play(play[2], more)
    end
    options = { list = options, ask = kontor.options(options) }
    LONGER[play] = options
  end
  return options
end

-- S8: the player picks the product, then the slots one at a time, in
-- ascending order, one card each. Returns the slots.
local function choose_slots(g, seat, p, have)
  local play = PLAYS[p][g:choose_from(seat, "play_slot", PLAYS[p].first)]
  while #SLOTS_OF[play] < have and play[#play] < D.market_slots do
    local options = longer_plays(play)
    local k = g:choose(seat, "play_more", options.ask)
    if k == 1 then break end
    play = options.list[k]
  end
  return SLOTS_OF[play]
end

-- S8: one or more cards of one product, each on a different market slot;
-- covered cards leave play; then the trade.
local function play_family(products)
  return kontor.family{ "play", kept("names", products, product_names) }
end

local function play_cards(g, seat)
  local hand, products = g.hands[seat], 0
  local held = counts(hand, NP, HELD)
  for p = 1, NP do
    if held[p] > 0 then products = products | BIT[p] end
  end
  local p = PRODUCT[g:choose_from(seat, "play_product", KEPT.play[products] or kept("play", products, play_family))]
  local slots = choose_slots(g, seat, p, count_of(hand, p))
  local market, covered = g.market, g.covered
  for i = 1, #slots do
    local s = slots[i]
    push(covered, card_at(market, s))
    set_card(market, s, rules.take_from_hand(g, seat, p))
  end
  local paid, report = rules.trade(g, seat, p, slots)
  if report then
    -- what the market shows; and N, when a variant pays another count (H8)
    local shows = count_of(market, p)
    g:log("%s plays %s on %s %s: %s shows %d%s; %s", g.names[seat], D.products[p],
          #slots == 1 and "slot" or "slots", table.concat(slots, ","), D.products[p], shows,
          paid ~= shows and (", pays %d per cube"):format(paid) or "",
          #report > 0 and table.concat(report, ", ") or "nobody earns")
  end
end

local PLAY_OR_DRAW = kontor.options{ "play", "draw" }
local DRAW, PLAY = kontor.options{ "draw" }, kontor.options{ "play" }

local function phase_two(g, seat)
  g.phase = "phase2"
  local options = DRAW
  if number_of(g.hands[seat]) > 0 then options = rules.no_draw(g, seat) and PLAY or PLAY_OR_DRAW end
  if options[g:choose(seat, "phase2", options)] == "play" then
    play_cards(g, seat)
  else
    rules.draw_action(g, seat)
  end
end

-- S10: at the end of phase II, each office owned: an optional draw of 1
-- (R.data.office_draw), one at a time. Offices are alike, so a "no office
-- draw" ends them.
local OFFICE = kontor.options{ "office draw", "no office draw" }
local NO_OFFICE = kontor.options{ "no office draw" }

function R.rules.end_of_phase_two(g, seat)
  for _ = 1, (g.specials[seat].office or 0) * D.office_draw do
    local options = rules.no_draw(g, seat) and NO_OFFICE or OFFICE
    if options[g:choose(seat, "office", options)] ~= "office draw" then return end
    rules.draw_cards(g, seat, 1, " (office)")
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
  local seat, step = g.current, g.step            -- a scenario's step, its first turn only
  while true do                                  -- ends in draw_cards (S11)
    g.current = seat
    g:begin_turn(seat)
    if g.phase ~= "phase2" then phase_one(g, seat, step == "dock") end   -- a scenario may start in phase II
    if step ~= "office" then phase_two(g, seat) end       -- ... or at the office draws (table)
    step = nil
    g.step = "office"
    rules.end_of_phase_two(g, seat)
    g.step = nil
    g.phase = "phase1"
    seat = seat % g.players + 1                  -- the next seat in turn order
  end
end

function R.scores(g)                             -- S11: most coins wins, ties share
  return values(g.coins)
end

function R.card_text(g, card)
  return D.products[card]
end

---------------------------------------------------------------------------
-- Invariants: the components are all accounted for
---------------------------------------------------------------------------

function R.invariants(g)
  local cards = zeros()                          -- S2: 10 cards of each product
  local function each(pile, where)
    for i = 1, pile:count() do
      local c = pile:get(i)
      if math.type(c) ~= "integer" or c < 1 or c > #D.products then
        return ("%s holds a bad card %s"):format(where, tostring(c))
      end
      cards[c] = cards[c] + 1
    end
  end
  local err = each(g.deck, "the deck") or each(g.market, "the market") or each(g.covered, "the covered pile")
  if err then return err end
  for seat = 1, g.players do
    err = each(g.hands[seat], "hand " .. seat)
    if err then return err end
  end
  for p, name in ipairs(D.products) do
    if cards[p] ~= D.cards_per_product then
      return ("%d %s cards accounted for, not %d"):format(cards[p], name, D.cards_per_product)
    end
  end
  if g.market:count() ~= D.market_slots then return ("the market has %d cards"):format(g.market:count()) end

  local cubes, bought = {}, 0
  for p = 1, #D.products do cubes[p] = g.cubes:get(p) end
  for seat = 1, g.players do
    local ships = g.ships[seat]
    if #ships ~= D.ships_at_start + g.specials[seat].ship then
      return ("seat %d has %d ships but %d bought"):format(seat, #ships, g.specials[seat].ship)
    end
    for k, c in ipairs(ships) do
      if math.type(c) ~= "integer" or c < 0 or c > #D.products then
        return ("ship %d of seat %d holds %s: a ship holds one cube"):format(k, seat, tostring(c))
      end
      if c == 0 and g.phase ~= "load" then return ("ship %d of seat %d is empty after the loading"):format(k, seat) end
      if c > 0 then cubes[c] = cubes[c] + 1 end
    end
    bought = bought + g.specials[seat].ship
    if g.coins:get(seat) < 0 then return ("seat %d has negative coins"):format(seat) end
  end
  for p, name in ipairs(D.products) do
    if cubes[p] ~= D.cubes_per_product then
      return ("%d %s cubes in pool and on ships, not %d"):format(cubes[p], name, D.cubes_per_product)
    end
  end
  if g._pool ~= products_in_pool(g) then
    return ("the pool's products kept (%d) are not those with a cube there (%d)"):format(g._pool, products_in_pool(g))
  end
  for _, card in ipairs(D.specials) do
    local owned = 0
    for seat = 1, g.players do owned = owned + g.specials[seat][card] end
    if card == "ship" then owned = owned + D.ships_at_start * g.players end
    if g.pool[card] < 0 or g.pool[card] + owned ~= D.supply[card] then
      return ("%s cards: %d in the pool + %d owned, not %d"):format(card, g.pool[card], owned, D.supply[card])
    end
  end
  return nil
end

---------------------------------------------------------------------------
-- Views
---------------------------------------------------------------------------

local function names_of(pile)
  local list = {}
  for i = 1, pile:count() do list[i] = D.products[pile:get(i)] end
  return list
end

local function ship_names(ships)
  local list = {}
  for k, c in ipairs(ships) do list[k] = c > 0 and D.products[c] or false end
  return list
end

local function copy_counts(t)
  local c = {}
  for _, card in ipairs(D.specials) do c[card] = t[card] end
  return c
end

function R.view(g, seat)
  local v = {
    phase = g.phase, current = g.current, first = g.first,
    market = names_of(g.market), deck = g.deck:count(), covered = g.covered:count(),
    cubes = {}, pool = {}, players = {},
  }
  for p, name in ipairs(D.products) do v.cubes[name] = g.cubes:get(p) end
  for _, card in ipairs(D.specials) do v.pool[card] = g.pool[card] end
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
  for s = 1, D.market_slots do slots[s] = s .. " " .. D.products[g.market:get(s)] end
  line("Market: %s", table.concat(slots, " | "))
  local cubes, specials = {}, {}
  for p, name in ipairs(D.products) do cubes[p] = name .. " " .. g.cubes:get(p) end
  for i, card in ipairs(D.specials) do specials[i] = card .. " " .. g.pool[card] end
  line("Pool: cubes %s; cards %s", table.concat(cubes, ", "), table.concat(specials, ", "))
  for q = 1, g.players do
    local sp, owned = g.specials[q], {}
    for _, card in ipairs(D.specials) do
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
    line("%s%s: %s; ships %s; %s; hand %s", q == g.current and "* " or "  ", g.names[q],
         plural(g.coins:get(q), "coin"), table.concat(ships, ", "),
         #owned > 0 and table.concat(owned, ", ") or "no special cards", hand)
  end
  return table.concat(out, "\n")
end

---------------------------------------------------------------------------
-- Why a text is illegal (g:why)
---------------------------------------------------------------------------

local function why_product(name)
  if name == nil or name == "" then return nil, "name a product (" .. table.concat(D.products, ", ") .. ")" end
  local p = PRODUCT[name]
  if not p then return nil, ("there is no product '%s' (%s)"):format(name, table.concat(D.products, ", ")) end
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
    if not other_cube_in_pool(g, ships[k]) then return "no cube of another product is left in the pool" end
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
    for _, card in ipairs(D.specials) do
      if g.pool[card] > 0 and (not cheapest or D.price[card] < D.price[cheapest]) then cheapest = card end
    end
    if not cheapest then return "no special card is left in the pool" end
    return ("you cannot buy: the cheapest card left, %s %s, costs %d and you have %s"):format(
      D.article[cheapest], cheapest, D.price[cheapest], plural(coins, "coin"))
  end
  local card, tail = rest:match("^ (%a+)(.*)$")
  if not card or not IS_SPECIAL[card] then
    return ("there is no special card '%s' (%s)"):format(card or rest, table.concat(D.specials, ", "))
  end
  if g.pool[card] == 0 then return ("no %s card left in the pool"):format(card) end
  if coins < D.price[card] then
    return ("%s %s costs %d and you have %s"):format(D.article[card], card, D.price[card], plural(coins, "coin"))
  end
  if card == "ship" then
    if not other_cube_in_pool(g, 0) then return "no cube is left in the pool to load a new ship" end
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
  local have = R.cards_in_hand(g, seat)[p]
  if have == 0 then return ("you hold no %s card"):format(name) end
  if tail == "" then return nil end
  local list = tail:match("^ on slots? ([%d,]*)$")
  if not list then return ("expected 'play %s on slots <slot>,<slot>...'"):format(name) end
  local used, last, n = {}, 0, 0
  for item in (list .. ","):gmatch("([^,]*),") do
    local s = tonumber(item)
    if not s then return "name the slots by number, separated by commas (1 to 6)" end
    if s < 1 or s > D.market_slots then return ("there is no market slot %d (slots 1 to %d)"):format(s, D.market_slots) end
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
      if text == "no " .. word then return nil end
    end
    if stage == "phase2" then
      if verb == "play" then return why_not_play(g, seat, rest) end
      if text == "draw" then return rules.no_draw(g, seat) end
    end
    if stage == "office" and text == "office draw" then return rules.no_draw(g, seat) end
    if stage == "office" and text == "no office draw" then return nil end
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
-- Option descriptions (docs/rules/sea_merchants.md)
---------------------------------------------------------------------------

-- The first words of every move (a typed "buy dock" is a move of the game
-- even when it is not legal now: it gets R.explain's reason).
R.move_words = { "load", "exchange", "buy", "pass", "dock", "no", "play", "draw", "office" }

-- What each special card does, read from R.data when asked (a variant that
-- changes a price or a bonus changes the text); a variant adds its cards.
R.card_effects = {
  ship = function() return "one more ship, loaded at once with a cube from the pool (S7)" end,
  contract = function()
    return ("+%s every time a delivery pays you (S8)"):format(plural(D.contract_bonus, "coin"))
  end,
  office = function() return "at the end of your phase II you may draw 1 card (S10)" end,
  dock = function() return "one extra exchange after your phase I action, every turn (S5)" end,
}

local function card_description(card)
  local f = R.card_effects[card]
  local does = f and f() or nil
  return plural(D.price[card], "coin") .. (does and (": " .. does) or "")
end

-- S8: what a play of product p on `slots` pays each seat: N per cube, plus
-- the contracts. R.rules.payout_count is asked about the market as it would
-- be after the play (a variant's payout counts too).
local function payout_text(g, seat, p, slots)
  local after = g.market:count_of(p)
  for _, s in ipairs(slots) do
    if g.market:get(s) ~= p then after = after + 1 end
  end
  local market = { count_of = function(_, q) return q == p and after or g.market:count_of(q) end }
  local shows = rules.payout_count(setmetatable({ market = market }, { __index = g }), p, slots)
  local parts = {}
  for _, q in ipairs(g:turn_order(seat)) do
    local cubes = 0
    for _, c in ipairs(g.ships[q]) do if c == p then cubes = cubes + 1 end end
    if cubes * shows > 0 then
      local bonus = (g.specials[q].contract or 0) * D.contract_bonus
      parts[#parts + 1] = ("%s +%d"):format(q == seat and "you" or g.names[q], cubes * shows + bonus)
    end
  end
  return ("pays %d per %s cube on a ship: %s"):format(shows, D.products[p],
    #parts > 0 and table.concat(parts, ", ") or "nobody earns")
end

local function describe_buy(g, seat)
  local prices = {}
  for _, card in ipairs(D.specials) do
    if g.pool[card] > 0 then prices[#prices + 1] = ("%s %d"):format(card, D.price[card]) end
  end
  return ("a special card (%s); you have %s"):format(table.concat(prices, ", "), plural(g.coins:get(seat), "coin"))
end

-- The end screen's reason (S11): most coins wins, ties share.
local function names_and(g, seats)
  local t = {}
  for i, s in ipairs(seats) do t[i] = g.names[s] end
  if #t <= 1 then return t[1] or "" end
  return table.concat(t, ", ", 1, #t - 1) .. " and " .. t[#t]
end

function R.why_won(g)
  local coins, best, winners, second = g.coins:values(), -1, {}, nil
  for s = 1, g.players do
    if coins[s] > best then best, winners = coins[s], { s } elseif coins[s] == best then winners[#winners + 1] = s end
  end
  for s = 1, g.players do
    if coins[s] < best and (not second or coins[s] > coins[second]) then second = s end
  end
  local why = #winners > 1 and ("%s share the win with %s each (S11: ties share)"):format(names_and(g, winners), plural(best, "coin"))
    or ("%s has the most coins: %d (S11)"):format(g.names[winners[1]], best)
  if second then why = why .. ("; next %s with %d"):format(g.names[second], coins[second]) end
  return why
end

function R.describe_option(g, seat, decision, text)
  if text == "buy" then return describe_buy(g, seat) end
  local card = text:match("^buy (%a+)$") or (text:match("^buy ship and load") and "ship")
  if card and D.price[card] then return card_description(card) end
  if text == "exchange" then return "swap the cube on one of your ships for another product from the pool (S6)" end
  if text == "pass" then return "no phase I action" end
  if text == "draw" then return ("draw %s (S9)"):format(plural(D.cards_per_draw, "card")) end
  if text == "office draw" then return "draw 1 card (S10)" end
  if text == "play" then return "play cards of one product to the market; ships carrying it earn (S8)" end
  local name, list = text:match("^play (%a+) on slots? ([%d,]+)$")
  if name then
    local slots = {}
    for s in list:gmatch("%d+") do slots[#slots + 1] = tonumber(s) end
    return payout_text(g, seat, PRODUCT[name], slots)
  end
  name = text:match("^play (%a+)$")
  if name and PRODUCT[name] then
    return ("you hold %s"):format(plural(R.cards_in_hand(g, seat)[PRODUCT[name]], name .. " card"))
  end
  local from, to = text:match("ship (%d+) to (%a+)$")
  if from and PRODUCT[to] then
    local old = g.ships[seat][tonumber(from)]
    return ("%s -> %s; the market shows %d %s"):format(D.products[old] or "?", to,
      g.market:count_of(PRODUCT[to]), to)
  end
  name = text:match("^load (%a+) on ship %d+$")
  if name and PRODUCT[name] then
    return ("the market shows %d %s; %d %s cubes in the pool"):format(g.market:count_of(PRODUCT[name]),
      name, g.cubes:get(PRODUCT[name]), name)
  end
  local k = tonumber(text:match("exchange ship (%d+)$") or "")   -- S6: which ship, before the product
  if k then
    return ("ship %d carries %s: it goes back to the pool for another product (S6)"):format(k,
      D.products[g.ships[seat][k]] or "nothing")
  end
  if text == EXTRA.none then return "keep the cubes on your ships as they are" end
  return nil
end

---------------------------------------------------------------------------
-- For the bots (docs/bots.md)
---------------------------------------------------------------------------

-- R.play picks up from g.phase and g.current when a turn begins: a copy of
-- the game for search restarts it from a saved state. Nothing in the state
-- is derived from the hands, so a bot's resampled deal needs no
-- R.resampled to follow it.
R.resumes_at_turn = true

-- What a position is worth to `seat`, as the bots see it: coins, plus
-- half a coin per card in hand, plus for each loaded ship what it would
-- earn now (the market slots showing its product) and half a coin.
function R.score(g, seat)
  local s = g.coins:get(seat) + 0.5 * g.hands[seat]:count()
  for _, p in ipairs(g.ships[seat]) do
    if p > 0 then s = s + 0.5 + g.market:count_of(p) end
  end
  return s
end

-- Position evaluation (docs/bots.md)
--
-- R.estimate(g, seat): the coins the seat may expect to hold at the end
-- (S11), from what it may see. The deck runs out after about
-- deck / players more turns of each seat (a turn draws two cards or none).
--   * its coins;
--   * its hand: a card of a product it carries adds a coin for each ship
--     carrying it to the play it goes in (S8: N counts the slots showing
--     the product after the play), and a play pays 2 coins a contract
--     (S8); one product a turn, so only the best plays that the turns left
--     allow count, at three quarters (others may cover the slots first).
--     A card of a product it carries no ship for is worth a quarter coin
--     (a ship may be exchanged to it);
--   * its loaded ships: half a coin for each slot showing the product, for
--     the plays of it to come (its own and others');
--   * its special cards other than ships: the price they were sold for
--     (R.data.price, so a variant's prices count) times the share of the
--     deck still to be drawn: the part of the game they still work in.
local HAND_SHARE, LOOSE_CARD, SLOT_SHOWING = 3 / 4, 1 / 4, 1 / 2
local function more(a, b) return a > b end
local ceil, sort = math.ceil, table.sort
-- Scratch lists, emptied at every call (the estimate is asked for often:
-- no new tables): the ships carrying each product, the cards held of
-- each, the plays.
-- (The piles and counters are read with their methods looked up once,
-- above, and the smaller of two numbers by a comparison: each method
-- call through a pile's metatable, and each call of math.min, costs more
-- than the rest of its line. Every term but the special cards' is a
-- multiple of a quarter, which a float adds exactly in any order: the
-- plays are sorted only when the turns left do not allow them all.)
local CARRIED, HOLDS, HELD_PLAYS = {}, {}, {}

function R.estimate(g, seat)
  local deck = number_of(g.deck)
  local turns = deck / g.players
  local share = deck / (D.cards_per_product * NP)
  local est = get(g.coins, seat)
  local ships, carried, market = g.ships[seat], CARRIED, g.market
  for p = 1, NP do carried[p] = 0 end
  for i = 1, #ships do
    local p = ships[i]
    if p > 0 then
      carried[p] = carried[p] + 1
      est = est + SLOT_SHOWING * count_of(market, p)
    end
  end
  local held, plays, m = R.cards_in_hand(g, seat, HOLDS), HELD_PLAYS, 0
  local owned = g.specials[seat]
  local bonus = (owned.contract or 0) * D.contract_bonus
  local slots = D.market_slots
  for p = 1, NP do
    local h = held[p]
    if h > 0 then
      local c = carried[p]
      if c > 0 then
        if h > slots then h = slots end     -- a play covers at most every slot
        m = m + 1
        plays[m] = c * h + bonus
      else
        est = est + LOOSE_CARD * h
      end
    end
  end
  -- the best plays the turns left allow (all of them when they allow that)
  local allowed = m
  if m > turns then
    allowed = ceil(turns)
    if allowed < m then
      for i = #plays, m + 1, -1 do plays[i] = nil end
      sort(plays, more)
    end
  end
  for i = 1, allowed do est = est + HAND_SHARE * plays[i] end
  -- the special cards in R.data's order (a loop, not pairs: the sandbox's
  -- pairs orders the keys at every call)
  local specials, price = D.specials, D.price
  for i = 1, #specials do
    local card = specials[i]
    local k = owned[card] or 0
    if k > 0 and card ~= "ship" and price[card] then est = est + k * price[card] * share end
  end
  return est
end

-- mcts judges a rollout that stops before the end by this estimate, after
-- 5 random steps: stronger than 30 steps judged by R.score, and cheaper.
-- greedy gives its lines beyond one per option to the best option so far,
-- and half as many: as strong as 12 in turn, and cheaper (docs/bots.md).
-- mcts scores a line by each seat's lead less its lead at the decision,
-- through a logistic of 2 coins (margin=2, center=1), not by who leads: a
-- seat far behind found every line lost and played at random (house, 3
-- players, seed 7: bought ships for 10 coins a turn before the end).
-- Against two mcts seats of before, 3 players, deals 1-24: 53.9% [42.8,
-- 65.1] of 72 games, the fair share 33.3%.
R.bot_options = { mcts = { estimate = 1, rollout = 5, margin = 2, center = 1 }, greedy = { budget = 6, focus = 1 } }

return R
