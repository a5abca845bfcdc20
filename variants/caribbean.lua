-- Merchants of the Caribbean (Alexander Pfister): the base rule set.
--
-- Sources: /work/shared/rules/merchants_of_the_caribbean.txt (the rulebook),
-- caribbean_cards.md (the default deck) and the rulings C1..C10 of
-- RULINGS.md, cited in comments where they apply.
-- docs/rules/caribbean.md states the rules as implemented here.
--
-- State (all on g):
--   g.deck        pile, hidden: top = the next card revealed or gained
--   g.discard     pile, public (coins paid go face down: only the count matters)
--   g.harbour     pile, public: the cards revealed this turn
--   g.expeditions pile, public: the expedition display
--   g.box         pile: cards out of play (scenario set-up with a stated deck)
--   g.display[s]  pile, public: persons hired by seat s
--   g.done[s]     pile, public: expeditions fulfilled by seat s
--   g.purse[s]    pile, hidden: seat s's coins (cards nobody may look at, C2)
--   g.st[s]       cached skills of seat s (strength, influence, ...), see add_person
--   g.hnames      bit mask of the ship names in the harbour
--   g.phase       "discover" | "loot" | "over";  g.current, g.first; g.ending
--
-- Variants: a variant changes R (R.data, R.rules, R.options ...) and then
-- calls R.prepare(R): this rebinds the script to the changed copy and
-- rebuilds everything derived from R.data (card tables, option texts).

local R = {
  name = "caribbean",
  title = "Merchants of the Caribbean",
  summary = "Alexander Pfister's push-your-luck card game: discover, repel, loot and hire (2-5 players)",
  players = { min = 2, max = 5, default = 4 },                      -- C1
  options = {
    first_player = { default = 1, type = "integer", min = 1, max = 5,
                     doc = "the starting player (the player to their right plays last, C9)" },
    start_coins = { default = 3, type = "integer", min = 0,
                    doc = "coin cards each player starts with (C1)" },
    must_reveal = { default = true, type = "boolean",
                    doc = "the first card of a turn is revealed without asking (the rulebook: 'reveals a card and starts the harbor display')" },
    fulfil_after_takes = { default = true, type = "boolean",
                           doc = "after their last take the active player is asked once more whether to fulfil an expedition (C8)" },
  },
}

---------------------------------------------------------------------------
-- The cards, as data (C3). A variant may change R.data, then call
-- R.prepare(R). Card ids are given in this order: ships, persons,
-- expeditions, taxes.
---------------------------------------------------------------------------

R.data = {
  start_coins = 3,               -- C1 (the option start_coins overrides it)
  tax_threshold = 12,            -- C5: 12 or more coins: lose half, rounded down
  admiral_min_harbour = 5,       -- C7
  takes_by_names = { [0] = 1, 1, 1, 1, 2, 3 },   -- C6: ship names in the harbour -> cards
  end_influence = 10,            -- C9
  expedition_to_end = true,      -- C9: the end needs a fulfilled expedition
  expedition_to_win = true,      -- C9: a player without one cannot win
  -- C5 / C10: what each tax mark does: "swords" = most strength gains 1,
  -- "influence" = fewest influence gains 1. In this rulebook all act as swords.
  tax_rule = { ["most swords"] = "swords", ["fewest influence"] = "swords" },
  symbols = { "anchor", "cross", "house" },       -- canonical order of expedition symbols
  ships = {  -- swords (false = skull: cannot be repelled) / coins x count
    { name = "Pinnace", colour = "yellow", cards = { {1,1,3}, {1,2,1}, {2,2,2}, {2,3,1}, {4,3,2}, {4,4,1} } },
    { name = "Flute",   colour = "blue",   cards = { {1,1,3}, {1,2,1}, {2,2,2}, {2,3,1}, {5,3,2}, {5,4,1} } },
    { name = "Skiff",   colour = "green",  cards = { {1,1,3}, {1,2,1}, {3,2,2}, {3,3,1}, {5,3,2}, {5,4,1} } },
    { name = "Frigate", colour = "red",    cards = { {1,1,3}, {3,2,3}, {6,3,2}, {false,3,1}, {false,4,1} } },
    { name = "Galleon", colour = "black",  cards = { {2,1,3}, {4,2,3}, {7,3,2}, {false,3,1}, {false,4,1} } },
  },
  -- What each skill does (C6, C7, C8): swords, symbol ("any" = joker),
  -- discount on hires, extra takes, coins per Admiral / Jester, Trader bonus.
  skills = {
    Trader = { trader = 1 },
    Settler = { symbol = "house" },
    Captain = { symbol = "anchor" },
    Priest = { symbol = "cross" },
    ["Jack of all Trades"] = { symbol = "any" },
    Sailor = { swords = 1 },
    Pirate = { swords = 2 },
    Mademoiselle = { discount = 1 },
    Jester = { jester = 1 },
    Admiral = { admiral = 2 },
    Governor = { takes = 1 },
  },
  persons = {  -- skill, cost, influence, count (Traders: the ship name they serve)
    { "Trader", 3, 1, 1, ship = "Pinnace" }, { "Trader", 5, 2, 1, ship = "Pinnace" },
    { "Trader", 3, 1, 1, ship = "Flute" },   { "Trader", 5, 2, 1, ship = "Flute" },
    { "Trader", 3, 1, 2, ship = "Skiff" },
    { "Trader", 3, 1, 2, ship = "Frigate" },
    { "Trader", 3, 1, 2, ship = "Galleon" },
    { "Settler", 4, 1, 5 }, { "Captain", 4, 1, 5 }, { "Priest", 4, 1, 5 },
    { "Jack of all Trades", 6, 1, 3 },
    { "Sailor", 3, 1, 7 }, { "Sailor", 5, 2, 2 }, { "Sailor", 7, 3, 1 },
    { "Pirate", 5, 1, 1 }, { "Pirate", 7, 2, 1 }, { "Pirate", 9, 3, 1 },
    { "Mademoiselle", 7, 2, 2 }, { "Mademoiselle", 9, 3, 2 },
    { "Jester", 5, 1, 1 }, { "Jester", 7, 2, 3 }, { "Jester", 9, 3, 1 },
    { "Admiral", 5, 1, 1 }, { "Admiral", 7, 2, 3 }, { "Admiral", 9, 3, 2 },
    { "Governor", 8, 0, 4 },
  },
  expeditions = {  -- needs (symbol counts), influence, coins, count, min_players
    { needs = { anchor = 2 }, influence = 4, coins = 2, count = 1 },
    { needs = { house = 2 }, influence = 4, coins = 2, count = 1 },
    { needs = { cross = 2 }, influence = 4, coins = 2, count = 1 },
    { needs = { anchor = 2, house = 1 }, influence = 6, coins = 3, count = 1 },
    { needs = { cross = 2, house = 1 }, influence = 6, coins = 3, count = 1 },
    { needs = { anchor = 1, cross = 1, house = 1 }, influence = 5, coins = 3, count = 1, min_players = 5 },  -- C3
  },
  taxes = { { mark = "most swords", count = 2 }, { mark = "fewest influence", count = 2 } },
}

-- The rules a variant may replace (C9, C10). They read R.data.
R.rules = {}

---------------------------------------------------------------------------
-- Derived tables, built by R.prepare (no string is built while playing)
---------------------------------------------------------------------------

local SHIP, PERSON, EXPEDITION, TAX = 1, 2, 3, 4
local NCARDS, KIND, NAME, MIN_PLAYERS              -- per card id
local SWORDS, COINS, SHIPNAME                       -- ships: swords (0 = skull), coins, name index
local COST, INFL, PSWORDS, SYMBOL, DISCOUNT, PTAKES, ADMIRAL, JESTER, TRADER  -- persons
local NEED, EXP_COINS, TAX_MARK                     -- expeditions: {n per symbol}; taxes
local SHIP_NAMES, NSHIPS, NSYM, SYMBOLS, ANY
local IDS_BY_NAME                                   -- card name -> list of ids
local TAKE_TEXT, FULFIL_TEXT
local BIT = {}
for i = 1, 62 do BIT[i] = 1 << (i - 1) end
local POPCOUNT = {}

local REVEAL_STOP = { "reveal", "stop" }
local STOP_ONLY = { "stop" }
local REPEL_OR_NOT = { "repel", "do not repel" }
local TAKE_NOTHING = "take nothing"
local NO_FULFIL = "do not fulfil"

local function plural(n, word)
  return n == 1 and ("1 " .. word) or (n .. " " .. word .. "s")
end

local function plural_symbol(n, sym)
  if n == 1 then return sym end
  return n .. " " .. sym .. (sym:sub(-1) == "s" and "es" or "s")
end

-- "2 anchors", "house + 2 anchors", "anchor + cross + house": single symbols
-- first, so that no text is the beginning of another.
local function needs_text(needs)
  local singles, multi = {}, {}
  for _, sym in ipairs(R.data.symbols) do
    local n = needs[sym] or 0
    if n == 1 then singles[#singles + 1] = sym elseif n > 1 then multi[#multi + 1] = plural_symbol(n, sym) end
  end
  for _, t in ipairs(multi) do singles[#singles + 1] = t end
  return table.concat(singles, " + ")
end

function R.prepare(RS)
  R = RS or R                      -- rebind the script to the (copied) rule set
  local d = R.data
  NCARDS = 0
  KIND, NAME, MIN_PLAYERS = {}, {}, {}
  SWORDS, COINS, SHIPNAME = {}, {}, {}
  COST, INFL, PSWORDS, SYMBOL, DISCOUNT, PTAKES, ADMIRAL, JESTER, TRADER = {}, {}, {}, {}, {}, {}, {}, {}, {}
  NEED, EXP_COINS, TAX_MARK = {}, {}, {}
  IDS_BY_NAME, TAKE_TEXT, FULFIL_TEXT = {}, {}, {}
  SHIP_NAMES, SYMBOLS = {}, d.symbols
  NSYM = #SYMBOLS
  ANY = NSYM + 1
  local sym_index = { any = ANY }
  for i, s in ipairs(SYMBOLS) do sym_index[s] = i end
  local ship_index = {}
  for i, s in ipairs(d.ships) do SHIP_NAMES[i] = s.name; ship_index[s.name] = i end
  NSHIPS = #SHIP_NAMES
  local function new_card(kind, name)
    NCARDS = NCARDS + 1
    local id = NCARDS
    KIND[id], NAME[id], MIN_PLAYERS[id] = kind, name, 0
    SWORDS[id], COINS[id], SHIPNAME[id] = 0, 0, 0
    COST[id], INFL[id], PSWORDS[id], SYMBOL[id], DISCOUNT[id] = 0, 0, 0, 0, 0
    PTAKES[id], ADMIRAL[id], JESTER[id], TRADER[id] = 0, 0, 0, 0
    local list = IDS_BY_NAME[name]
    if not list then list = {}; IDS_BY_NAME[name] = list end
    list[#list + 1] = id
    return id
  end
  for i, s in ipairs(d.ships) do
    for _, c in ipairs(s.cards) do
      local sw, coins, count = c[1], c[2], c[3]
      local name = s.name .. " " .. (sw and tostring(sw) or "skull") .. "/" .. coins
      for _ = 1, count do
        local id = new_card(SHIP, name)
        SWORDS[id], COINS[id], SHIPNAME[id] = sw or 0, coins, i
        TAKE_TEXT[id] = "loot " .. s.name .. " " .. coins
      end
    end
  end
  for _, p in ipairs(d.persons) do
    local skill, cost, infl, count = p[1], p[2], p[3], p[4]
    local sk = d.skills[skill] or error("R.data.persons: unknown skill " .. tostring(skill))
    local label = p.ship and (skill .. " " .. p.ship) or skill
    local name = label .. " " .. cost .. "/" .. infl
    for _ = 1, count do
      local id = new_card(PERSON, name)
      COST[id], INFL[id] = cost, infl
      PSWORDS[id] = sk.swords or 0
      SYMBOL[id] = sk.symbol and (sym_index[sk.symbol] or error("unknown symbol " .. sk.symbol)) or 0
      DISCOUNT[id], PTAKES[id] = sk.discount or 0, sk.takes or 0
      ADMIRAL[id], JESTER[id] = sk.admiral or 0, sk.jester or 0
      if sk.trader then
        TRADER[id] = ship_index[p.ship] or error("R.data.persons: a Trader needs a ship name")
      end
      TAKE_TEXT[id] = "hire " .. name
    end
  end
  for _, e in ipairs(d.expeditions) do
    local text = needs_text(e.needs)
    local name = "expedition " .. text
    for _ = 1, e.count or 1 do
      local id = new_card(EXPEDITION, name)
      local need = {}
      for i, s in ipairs(SYMBOLS) do need[i] = e.needs[s] or 0 end
      NEED[id], INFL[id], EXP_COINS[id] = need, e.influence, e.coins
      MIN_PLAYERS[id] = e.min_players or 0
      FULFIL_TEXT[id] = "fulfil expedition " .. text
    end
  end
  for _, t in ipairs(d.taxes) do
    for _ = 1, t.count do
      local id = new_card(TAX, "tax " .. t.mark)
      TAX_MARK[id] = t.mark
    end
  end
  for m = 0, (1 << NSHIPS) - 1 do
    local n, x = 0, m
    while x ~= 0 do n = n + (x & 1); x = x >> 1 end
    POPCOUNT[m] = n
  end
end
R.prepare()

---------------------------------------------------------------------------
-- Coins are cards (C2)
---------------------------------------------------------------------------

-- The next card of the deck; the discard pile is shuffled in when a card
-- is needed and the deck is empty. nil if both are empty.
local function draw(g)
  local deck = g.deck
  local c = deck:pop()
  if c then return c end
  local discard = g.discard
  local n = discard:count()
  if n == 0 then return nil end
  discard:move_to(deck, n)
  deck:shuffle(g.rng)
  if g.logging then g:log("the discard pile is shuffled into a new draw deck") end
  return deck:pop()
end

local function can_draw(g)
  return g.deck:count() > 0 or g.discard:count() > 0
end

-- Gain n coins: n cards face down from the deck (fewer if there are none).
local function gain(g, seat, n)
  local purse, deck = g.purse[seat], g.deck
  if deck:count() >= n then                       -- the usual case: one call
    deck:move_to(purse, n)
    return n
  end
  local got = 0
  for _ = 1, n do
    local c = draw(g)
    if not c then break end
    purse:push(c)
    got = got + 1
  end
  return got
end

local function pay(g, seat, n)                  -- to the discard pile
  if n > 0 then g.purse[seat]:move_to(g.discard, n) end
end

local function coins(g, seat) return g.purse[seat]:count() end

---------------------------------------------------------------------------
-- Persons in a display: the skills each seat has, cached in g.st[seat]
---------------------------------------------------------------------------

local function new_stats()
  local st = { strength = 0, influence = 0, discount = 0, takes = 0, admiral = 0, jester = 0,
               trader = {}, sym = {}, symbols = 0, ver = 0, fver = -1 }
  for i = 1, NSHIPS do st.trader[i] = 0 end
  for i = 1, ANY do st.sym[i] = 0 end
  return st
end

local function count_person(st, id, d)
  st.strength = st.strength + d * PSWORDS[id]
  st.influence = st.influence + d * INFL[id]
  st.discount = st.discount + d * DISCOUNT[id]
  st.takes = st.takes + d * PTAKES[id]
  st.admiral = st.admiral + d * ADMIRAL[id]
  st.jester = st.jester + d * JESTER[id]
  if TRADER[id] > 0 then st.trader[TRADER[id]] = st.trader[TRADER[id]] + d end
  if SYMBOL[id] > 0 then
    st.sym[SYMBOL[id]] = st.sym[SYMBOL[id]] + d
    st.symbols = st.symbols + d
  end
  st.ver = st.ver + 1
end

local function stats_of(g, seat)                -- from the piles (invariants, scenario)
  local st = new_stats()
  local disp = g.display[seat]
  for i = 1, disp:count() do count_person(st, disp:get(i), 1) end
  local done = g.done[seat]
  for i = 1, done:count() do st.influence = st.influence + INFL[done:get(i)] end
  st.expeditions = done:count()
  return st
end

function R.influence(g, seat) return g.st[seat].influence end
function R.strength(g, seat) return g.st[seat].strength end
function R.coins(g, seat) return coins(g, seat) end

---------------------------------------------------------------------------
-- The rules a variant may replace (C9, C10)
---------------------------------------------------------------------------

-- C9: the end is triggered once a player has end_influence and (if
-- required) a fulfilled expedition.
function R.rules.game_end(g)
  local d = R.data
  for s = 1, g.players do
    local st = g.st[s]
    if st.influence >= d.end_influence and (not d.expedition_to_end or g.done[s]:count() > 0) then
      return true
    end
  end
  return false
end

function R.rules.can_win(g, seat)               -- C9
  return not R.data.expedition_to_win or g.done[seat]:count() > 0
end

-- C5 / C10: who gains the tax card's coin: a list of seats, in turn order
-- from `active`.
function R.rules.tax_winners(g, card, active)
  local rule = R.data.tax_rule[TAX_MARK[card]] or "swords"
  local best, out = nil, {}
  for _, s in ipairs(g:turn_order(active)) do
    local v = rule == "influence" and -g.st[s].influence or g.st[s].strength
    if best == nil or v > best then best = v; out = { s }
    elseif v == best then out[#out + 1] = s end
  end
  return out
end

---------------------------------------------------------------------------
-- Game preparation (C1, C2, C3)
---------------------------------------------------------------------------

local function in_game(id, n) return MIN_PLAYERS[id] <= n end   -- C3

local function new_components(g)
  local n = g.players
  g.deck = kontor.pile{ vis = "hidden" }
  g.discard = kontor.pile{ vis = "public" }
  g.harbour = kontor.pile{ vis = "public" }
  g.expeditions = kontor.pile{ vis = "public" }
  g.box = kontor.pile{ vis = "public" }
  g.revealed = kontor.pile{ vis = "public" }      -- the ship just revealed, while its repel is decided
  g.display, g.done, g.purse, g.st = {}, {}, {}, {}
  for s = 1, n do
    g.display[s] = kontor.pile{ vis = "public" }
    g.done[s] = kontor.pile{ vis = "public" }
    g.purse[s] = kontor.pile{ vis = "hidden" }    -- C2: nobody may look, not even the owner
    g.st[s] = new_stats()
  end
  g.hnames = 0
  g.expver = 0                                    -- changes with the expedition display
  g.nexp = 0                                      -- cards in the expedition display
  g.take_pos = {}                                 -- harbour position of each take option
  g.idle = 0                                      -- turns in a row where nothing could happen
  g.ending = false
  g.exp_coins = {}
end

---------------------------------------------------------------------------
-- Scenario set-up: a stated position instead of the shuffle
---------------------------------------------------------------------------

local SCENARIO_FIELDS = { deck = true, discard = true, harbour = true, expeditions = true,
  displays = true, done = true, coins = true, active = true, first_player = true, phase = true,
  expedition_coins = true }

local function bad(fmt, ...)
  error("scenario: " .. string.format(fmt, ...), 0)
end

local function set_up_scenario(g, sc)
  local n = g.players
  for field in pairs(sc) do
    if not SCENARIO_FIELDS[field] then bad("unknown field '%s'", tostring(field)) end
  end
  local used = {}
  local function card(name, where)
    local ids = IDS_BY_NAME[name]
    if not ids then bad("%s: unknown card '%s'", where, tostring(name)) end
    for _, id in ipairs(ids) do
      if not used[id] and in_game(id, n) then used[id] = true; return id end
    end
    local avail = 0
    for _, id in ipairs(ids) do if in_game(id, n) then avail = avail + 1 end end
    bad("%s: more '%s' cards are placed than the %d there are", where, name, avail)
  end
  local function kind_check(id, kinds, where)
    if not kinds[KIND[id]] then bad("%s: '%s' cannot be there", where, NAME[id]) end
  end
  local SHIP_PERSON = { [SHIP] = true, [PERSON] = true }
  for i, name in ipairs(sc.harbour or {}) do
    local where = "harbour card " .. i
    local id = card(name, where)
    kind_check(id, SHIP_PERSON, where)
    if KIND[id] == SHIP then
      if g.hnames & BIT[SHIPNAME[id]] ~= 0 then bad("%s: a second %s in the harbour", where, SHIP_NAMES[SHIPNAME[id]]) end
      g.hnames = g.hnames | BIT[SHIPNAME[id]]
    end
    g.harbour:push(id)
  end
  for i, name in ipairs(sc.expeditions or {}) do
    local id = card(name, "expedition " .. i)
    kind_check(id, { [EXPEDITION] = true }, "expedition " .. i)
    g.expeditions:push(id)
    g.nexp = g.nexp + 1
  end
  local function per_seat(field, kinds, pile)
    local t = sc[field] or {}
    for s, list in pairs(t) do
      if math.type(s) ~= "integer" or s < 1 or s > n then bad("%s: %s is not a seat", field, tostring(s)) end
      for i, name in ipairs(list) do
        local where = ("%s of seat %d, card %d"):format(field, s, i)
        local id = card(name, where)
        kind_check(id, kinds, where)
        pile[s]:push(id)
      end
    end
  end
  per_seat("displays", { [PERSON] = true }, g.display)
  per_seat("done", { [EXPEDITION] = true }, g.done)
  local coin_counts = {}
  for s, c in pairs(sc.coins or {}) do
    if math.type(s) ~= "integer" or s < 1 or s > n then bad("coins: %s is not a seat", tostring(s)) end
    if type(c) == "table" then
      for i, name in ipairs(c) do g.purse[s]:push(card(name, ("coins of seat %d, card %d"):format(s, i))) end
    elseif math.type(c) == "integer" and c >= 0 then
      coin_counts[s] = c
    else
      bad("coins of seat %d: a number >= 0 or a list of card names", s)
    end
  end
  for i, name in ipairs(sc.discard or {}) do g.discard:push(card(name, "discard card " .. i)) end
  local deck = sc.deck
  if deck then
    for i = #deck, 1, -1 do g.deck:push(card(deck[i], "deck card " .. i)) end    -- deck[1] on top
  end
  local rest = {}
  for id = 1, NCARDS do
    if not used[id] and in_game(id, n) then rest[#rest + 1] = id end
  end
  local nrest = #rest
  for s = 1, n do                                 -- coins stated as numbers: from the rest
    for _ = 1, coin_counts[s] or (sc.coins and sc.coins[s] == nil and 0 or 0) do
      if nrest == 0 then bad("not enough cards left for the coins of seat %d", s) end
      g.purse[s]:push(rest[nrest]); rest[nrest] = nil; nrest = nrest - 1
    end
  end
  if deck then
    for i = 1, nrest do g.box:push(rest[i]) end   -- out of play
  else
    for i = 1, nrest do g.deck:push(rest[i]) end
    g.deck:shuffle(g.rng)
  end
  for name, c in pairs(sc.expedition_coins or {}) do
    local ids = IDS_BY_NAME[name]
    if not ids or KIND[ids[1]] ~= EXPEDITION then bad("expedition_coins: '%s' is not an expedition", tostring(name)) end
    if math.type(c) ~= "integer" or c < 0 then bad("expedition_coins: a number >= 0") end
    for _, id in ipairs(ids) do g.exp_coins[id] = c end
  end
  for s = 1, n do g.st[s] = stats_of(g, s) end
  if sc.first_player ~= nil then
    if math.type(sc.first_player) ~= "integer" or sc.first_player < 1 or sc.first_player > n then
      bad("first_player must be a seat from 1 to %d", n)
    end
    g.first = sc.first_player
  end
  local a = sc.active or g.first
  if math.type(a) ~= "integer" or a < 1 or a > n then bad("active must be a seat from 1 to %d", n) end
  g.current = a
  g.phase = sc.phase or "discover"
  if g.phase ~= "discover" and g.phase ~= "loot" then bad("phase must be discover or loot, not %s", tostring(g.phase)) end
end

function R.setup(g, scenario)
  local n = g.players
  if n < R.players.min or n > R.players.max then
    error(("Merchants of the Caribbean is for %d to %d players"):format(R.players.min, R.players.max), 0)
  end
  g.first = g.options.first_player
  if g.first > n then
    error(("option first_player: %d is not a seat of a %d-player game"):format(g.first, n), 0)
  end
  new_components(g)
  if scenario then return set_up_scenario(g, scenario) end
  for id = 1, NCARDS do
    if in_game(id, n) then g.deck:push(id) end
  end
  g.deck:shuffle(g.rng)
  local start = g.options.start_coins                           -- C1
  for s = 1, n do gain(g, s, start) end
  g.current = g.first
  g.phase = "discover"
end

---------------------------------------------------------------------------
-- Expeditions (C8)
---------------------------------------------------------------------------

local function can_fulfil(st, id)
  local need, sym, short = NEED[id], st.sym, 0
  for i = 1, NSYM do
    local d = need[i] - sym[i]
    if d > 0 then short = short + d end
  end
  return short <= sym[ANY]
end

local NONE = {}

-- The fulfil texts `seat` has now (expedition display order, identical
-- cards once); cached until the display or the expeditions change.
local function fulfil_texts(g, seat)
  local st = g.st[seat]
  if st.symbols == 0 or g.nexp == 0 then return NONE end     -- no symbol person, or no expedition
  if st.fver == st.ver and st.fexp == g.expver then return st.ftexts end
  local exps, out = g.expeditions, NONE
  local n = exps:count()
  if n > 0 and st.symbols > 0 then
    for i = 1, n do
      local id = exps:get(i)
      if can_fulfil(st, id) then
        local text = FULFIL_TEXT[id]
        if out == NONE then out = {} end
        local dup = false
        for k = 1, #out do if out[k] == text then dup = true end end
        if not dup then out[#out + 1] = text end
      end
    end
  end
  st.fver, st.fexp, st.ftexts, st.fmerged = st.ver, g.expver, out, {}
  return out
end

-- `base` followed by the fulfil texts of the active player (a memoised
-- list), or `base` itself when there are none.
local function with_fulfils(g, seat, base)
  local f = fulfil_texts(g, seat)
  if f == NONE then return base end
  local merged = g.st[seat].fmerged
  local out = merged[base]
  if not out then
    out = {}
    for k = 1, #base do out[k] = base[k] end
    for k = 1, #f do out[#base + k] = f[k] end
    merged[base] = out
  end
  return out
end

local function expedition_by_text(g, text)
  local exps = g.expeditions
  for i = 1, exps:count() do
    local id = exps:get(i)
    if FULFIL_TEXT[id] == text then return id, i end
  end
end

-- Discard persons whose symbols match (specific ones first, from the top
-- of the display; Jacks of all Trades for the rest), take the card and
-- its coins.
local function fulfil(g, seat, text)
  local id, pos = expedition_by_text(g, text)
  local st, disp = g.st[seat], g.display[seat]
  local short = {}
  for i = 1, NSYM do short[i] = NEED[id][i] end
  local jokers = 0
  for i = 1, NSYM do
    local d = short[i] - st.sym[i]
    if d > 0 then jokers = jokers + d end
  end
  local gone = g.logging and {} or nil
  for k = disp:count(), 1, -1 do
    local p = disp:get(k)
    local s = SYMBOL[p]
    local use = false
    if s > 0 and s <= NSYM and short[s] > 0 then short[s] = short[s] - 1; use = true
    elseif s == ANY and jokers > 0 then jokers = jokers - 1; use = true end
    if use then
      disp:remove(k)
      count_person(st, p, -1)
      g.discard:push(p)
      if gone then gone[#gone + 1] = NAME[p] end
    end
  end
  g.expeditions:remove(pos)
  g.expver, g.nexp = g.expver + 1, g.nexp - 1
  g.done[seat]:push(id)
  st.influence = st.influence + INFL[id]
  st.expeditions = (st.expeditions or 0) + 1
  local got = gain(g, seat, g.exp_coins[id] or EXP_COINS[id])
  if gone then
    g:log("%s fulfils the %s: discards %s, gains %d influence and %s", g.names[seat], NAME[id],
          table.concat(gone, ", "), INFL[id], plural(got, "coin"))
  end
end

-- Asks the active player: `base` options plus the fulfils they can do.
-- Fulfils are carried out here; returns the text of the non-fulfil
-- option chosen.
local function ask(g, seat, name, base)
  while true do
    local opts = with_fulfils(g, seat, base)
    local k = g:choose(seat, name, opts)
    if k <= #base then return base[k] end
    fulfil(g, seat, opts[k])
  end
end

---------------------------------------------------------------------------
-- Discover (C4, C5)
---------------------------------------------------------------------------

-- C5: everyone with tax_threshold or more coins discards half, rounded
-- down; the card is discarded; then the tax card's winners gain 1 coin.
local function tax(g, seat, card)
  local limit = R.data.tax_threshold
  for _, s in ipairs(g:turn_order(seat)) do
    local c = coins(g, s)
    if c >= limit then
      pay(g, s, c // 2)
      if g.logging then g:log("%s loses %s to the tax", g.names[s], plural(c // 2, "coin")) end
    end
  end
  g.discard:push(card)
  for _, s in ipairs(R.rules.tax_winners(g, card, seat)) do
    local got = gain(g, s, 1)
    if g.logging then g:log("%s gains %s (%s)", g.names[s], plural(got, "coin"), NAME[card]) end
  end
end

local function bust(g, seat, card)
  local harbour, discard = g.harbour, g.discard
  harbour:move_to(discard, harbour:count())
  discard:push(card)
  g.hnames = 0
  if g.logging then g:log("%s reveals a second %s: bust, the harbour is discarded", g.names[seat], SHIP_NAMES[SHIPNAME[card]]) end
end

-- Reveals one card; returns false on a bust.
local function reveal(g, seat)
  local card = draw(g)
  local kind = KIND[card]
  if g.logging then g:log("%s reveals %s", g.names[seat], NAME[card]) end
  if kind == PERSON then
    g.harbour:push(card)
  elseif kind == EXPEDITION then
    g.expeditions:push(card)
    g.expver, g.nexp = g.expver + 1, g.nexp + 1
  elseif kind == TAX then
    tax(g, seat, card)
  else
    local bit = BIT[SHIPNAME[card]]
    if SWORDS[card] > 0 and g.st[seat].strength >= SWORDS[card] then      -- C4: may repel
      g.revealed:push(card)                      -- while the player decides
      local choice = ask(g, seat, "repel", REPEL_OR_NOT)
      g.revealed:pop()
      if choice == "repel" then
        g.discard:push(card)
        if g.logging then g:log("%s repels the %s", g.names[seat], NAME[card]) end
        return true
      end
    end
    if g.hnames & bit ~= 0 then bust(g, seat, card); return false end      -- C4
    g.harbour:push(card)
    g.hnames = g.hnames | bit
  end
  return true
end

-- The discover phase; returns false on a bust.
local function discover(g, seat)
  g.phase = "discover"
  if g.harbour:count() == 0 and g.options.must_reveal then
    if not can_draw(g) then return true end
    if not reveal(g, seat) then return false end
  end
  while true do
    local base = REVEAL_STOP
    if not can_draw(g) then
      base = STOP_ONLY
      if fulfil_texts(g, seat) == NONE then return true end   -- nothing can be revealed: stop
    end
    if ask(g, seat, "discover", base) == "stop" then
      if g.logging then g:log("%s stops", g.names[seat]) end
      return true
    end
    if not reveal(g, seat) then return false end
  end
end

---------------------------------------------------------------------------
-- Loot and hire (C6, C7)
---------------------------------------------------------------------------

-- C7: when a player's chance to take comes.
local function chance_bonus(g, seat)
  local st = g.st[seat]
  if st.admiral == 0 and st.jester == 0 then return end
  local n = g.harbour:count()
  if st.admiral > 0 and n >= R.data.admiral_min_harbour then
    local got = gain(g, seat, st.admiral)
    if g.logging then g:log("%s gains %s (Admiral)", g.names[seat], plural(got, "coin")) end
  end
  if st.jester > 0 and n == 0 then
    local got = gain(g, seat, st.jester)
    if g.logging then g:log("%s gains %s (Jester)", g.names[seat], plural(got, "coin")) end
  end
end

local function hire_cost(g, seat, card)
  local c = COST[card] - g.st[seat].discount
  return c > 0 and c or 0
end

-- The take texts of `seat` (harbour order, identical cards once), with
-- `budget` coins to spend on a hire; then "take nothing". g.take_pos[k] is
-- the harbour position of option k.
local function take_options(g, seat, budget)
  local harbour, out, n, TAKE_POS = g.harbour, {}, 0, g.take_pos
  local limit = budget + g.st[seat].discount       -- C6: cost - discount <= budget
  for i = 1, harbour:count() do
    local id = harbour:get(i)
    if KIND[id] == SHIP then                       -- ship names are unique in the harbour
      n = n + 1; out[n] = TAKE_TEXT[id]; TAKE_POS[n] = i
    elseif COST[id] <= limit then
      local text, dup = TAKE_TEXT[id], false
      for k = 1, n do if out[k] == text then dup = true; break end end
      if not dup then n = n + 1; out[n] = text; TAKE_POS[n] = i end
    end
  end
  out[n + 1] = TAKE_NOTHING
  return out
end

local function card_by_take(g, text)
  local harbour = g.harbour
  for i = 1, harbour:count() do
    local id = harbour:get(i)
    if TAKE_TEXT[id] == text then return id, i end
  end
end

-- Takes one card (C6): a non-active player pays the active one 1 coin first.
local function take(g, seat, active, pos)
  local id = g.harbour:get(pos)
  if seat ~= active then
    g.purse[active]:push(g.purse[seat]:pop())
  end
  g.harbour:remove(pos)
  local st = g.st[seat]
  if KIND[id] == SHIP then
    g.hnames = g.hnames & ~BIT[SHIPNAME[id]]
    g.discard:push(id)
    local got = gain(g, seat, COINS[id] + st.trader[SHIPNAME[id]])
    if g.logging then
      g:log("%s loots the %s: %s%s", g.names[seat], NAME[id], plural(got, "coin"), seat ~= active and (", pays 1 to " .. g.names[active]) or "")
    end
  else
    local cost = hire_cost(g, seat, id)
    pay(g, seat, cost)
    g.display[seat]:push(id)
    count_person(st, id, 1)
    if g.logging then
      g:log("%s hires the %s for %d%s", g.names[seat], NAME[id], cost, seat ~= active and (", pays 1 to " .. g.names[active]) or "")
    end
  end
end

local NO = { NO_FULFIL }

local function active_takes(g, seat)
  local left = R.data.takes_by_names[POPCOUNT[g.hnames]] + g.st[seat].takes
  local declined = false
  while left > 0 and g.harbour:count() > 0 do
    local opts = take_options(g, seat, coins(g, seat))
    local nb, f = #opts, fulfil_texts(g, seat)          -- C8: fulfils after the takes
    if nb == 1 and f == NONE then break end             -- nothing to take or fulfil: no decision
    for k = 1, #f do opts[nb + k] = f[k] end
    local k = g:choose(seat, "take", opts)
    if k > nb then
      fulfil(g, seat, opts[k])
    elseif k == nb then
      declined = true
      break
    else
      take(g, seat, seat, g.take_pos[k])
      left = left - 1
    end
  end
  if not declined and g.options.fulfil_after_takes then            -- C8: after the last take
    while fulfil_texts(g, seat) ~= NONE do
      if ask(g, seat, "fulfil", NO) == NO_FULFIL then break end
    end
  end
end

local function other_takes(g, seat, active)
  for _ = 1, 1 + g.st[seat].takes do
    local c = coins(g, seat)
    if c == 0 or g.harbour:count() == 0 then return end        -- C6: no coin, no take
    local opts = take_options(g, seat, c - 1)
    if #opts == 1 then return end                              -- nothing affordable: no decision
    local k = g:choose(seat, "take_other", opts)
    if k == #opts then return end                              -- take nothing
    take(g, seat, active, g.take_pos[k])
  end
end

local function loot_and_hire(g, seat)
  g.phase = "loot"
  for i, s in ipairs(g:turn_order(seat)) do
    chance_bonus(g, s)
    if i == 1 then active_takes(g, seat) else other_takes(g, s, seat) end
  end
  local harbour = g.harbour
  harbour:move_to(g.discard, harbour:count())
  g.hnames = 0
end

local function after_bust(g, seat)                 -- C7: Jesters, in turn order
  for _, s in ipairs(g:turn_order(seat)) do chance_bonus(g, s) end
end

---------------------------------------------------------------------------
-- The game
---------------------------------------------------------------------------

function R.play(g)
  local seat = g.current
  while true do
    g.current = seat
    g:begin_turn(seat)
    -- Nothing can happen in a turn without a card to reveal or an
    -- expedition to fulfil; a whole round of such turns never changes
    -- again: the game ends (a decision of this rule set, not the rulebook's).
    if g.phase == "discover" and not can_draw(g) and g.harbour:count() == 0
        and fulfil_texts(g, seat) == NONE then
      g.idle = g.idle + 1
      if g.idle >= g.players then
        g.phase = "over"
        if g.logging then g:log("no card is left to reveal or gain: the game ends") end
        return
      end
    else
      g.idle = 0
    end
    if g.phase == "loot" then
      loot_and_hire(g, seat)
    elseif discover(g, seat) then
      loot_and_hire(g, seat)
    else
      after_bust(g, seat)
    end
    g.phase = "discover"
    if not g.ending and R.rules.game_end(g) then                  -- C9
      g.ending = true
      if g.logging then g:log("the end is triggered: the round is finished") end
    end
    seat = g:next_seat(seat)
    if g.ending and seat == g.first then
      g.phase = "over"
      if g.logging then g:log("the game ends") end
      return
    end
  end
end

function R.scores(g)                               -- influence
  local out = {}
  for s = 1, g.players do out[s] = g.st[s].influence end
  return out
end

-- C9: the most influence among the players who can win; then most coins;
-- a further tie is shared.
function R.winners(g)
  local best, out = nil, {}
  for s = 1, g.players do
    if R.rules.can_win(g, s) then
      local key = g.st[s].influence * 100000 + coins(g, s)
      if best == nil or key > best then best = key; out = { s }
      elseif key == best then out[#out + 1] = s end
    end
  end
  return out
end

function R.card_text(g, card)
  return NAME[card] or tostring(card)
end

---------------------------------------------------------------------------
-- Invariants: every card accounted for
---------------------------------------------------------------------------

function R.invariants(g)
  local n = g.players
  local seen, count = {}, 0
  local function each(pile, where)
    for i = 1, pile:count() do
      local c = pile:get(i)
      if math.type(c) ~= "integer" or c < 1 or c > NCARDS or not in_game(c, n) then
        return ("%s holds a bad card %s"):format(where, tostring(c))
      end
      if seen[c] then return ("card %d is both in %s and in %s"):format(c, seen[c], where) end
      seen[c] = where
      count = count + 1
    end
  end
  local err = each(g.deck, "the deck") or each(g.discard, "the discard pile") or each(g.harbour, "the harbour")
    or each(g.expeditions, "the expedition display") or each(g.box, "the box")
    or each(g.revealed, "the ship just revealed")
  if err then return err end
  for s = 1, n do
    err = each(g.display[s], "display " .. s) or each(g.done[s], "expeditions of " .. s) or each(g.purse[s], "coins of " .. s)
    if err then return err end
    for i = 1, g.display[s]:count() do
      if KIND[g.display[s]:get(i)] ~= PERSON then return ("display %d holds a non-person"):format(s) end
    end
    for i = 1, g.done[s]:count() do
      if KIND[g.done[s]:get(i)] ~= EXPEDITION then return ("expeditions of %d hold a non-expedition"):format(s) end
    end
    local st, real = g.st[s], stats_of(g, s)
    for _, k in ipairs { "strength", "influence", "discount", "takes", "admiral", "jester" } do
      if st[k] ~= real[k] then return ("seat %d: cached %s %d, the display says %d"):format(s, k, st[k], real[k]) end
    end
    for i = 1, ANY do if st.sym[i] ~= real.sym[i] then return ("seat %d: cached symbols disagree"):format(s) end end
    for i = 1, NSHIPS do if st.trader[i] ~= real.trader[i] then return ("seat %d: cached traders disagree"):format(s) end end
  end
  local total = 0
  for id = 1, NCARDS do if in_game(id, n) then total = total + 1 end end
  if count ~= total then return ("%d cards accounted for, not %d"):format(count, total) end
  local mask = 0
  for i = 1, g.harbour:count() do
    local id = g.harbour:get(i)
    if KIND[id] == SHIP then
      if mask & BIT[SHIPNAME[id]] ~= 0 then return "two ships of one name in the harbour" end
      mask = mask | BIT[SHIPNAME[id]]
    elseif KIND[id] ~= PERSON then
      return "the harbour holds a " .. NAME[id]
    end
  end
  if mask ~= g.hnames then return "g.hnames does not match the harbour" end
  if g.nexp ~= g.expeditions:count() then return "g.nexp does not match the expedition display" end
  for i = 1, g.expeditions:count() do
    if KIND[g.expeditions:get(i)] ~= EXPEDITION then return "the expedition display holds a non-expedition" end
  end
  return nil
end

---------------------------------------------------------------------------
-- Views
---------------------------------------------------------------------------

local function names_of(pile)
  local t = {}
  for i = 1, pile:count() do t[i] = NAME[pile:get(i)] end
  return t
end

function R.view(g, seat)
  local v = { phase = g.phase, current = g.current, first = g.first, ending = g.ending,
              deck = g.deck:count(), discard = g.discard:count(),
              harbour = names_of(g.harbour), expeditions = names_of(g.expeditions), players = {} }
  for s = 1, g.players do
    local st = g.st[s]
    v.players[s] = { name = g.names[s], coins = coins(g, s), influence = st.influence, strength = st.strength,
                     display = names_of(g.display[s]), expeditions = names_of(g.done[s]) }
  end
  return v
end

function R.board(g, seat)
  local out = {}
  local function line(fmt, ...) out[#out + 1] = string.format(fmt, ...) end
  local title = g.phase == "over" and "game over"
    or (g.phase == "loot" and "loot and hire" or "discover") .. ", " .. g.names[g.current] .. "'s turn"
  line("%s - %s%s - deck %d, discard %d", R.title, title, g.ending and " (last round)" or "",
       g.deck:count(), g.discard:count())
  local h = names_of(g.harbour)
  line("Harbour (%d ship names): %s", POPCOUNT[g.hnames], #h > 0 and table.concat(h, " | ") or "empty")
  local e = names_of(g.expeditions)
  line("Expeditions: %s", #e > 0 and table.concat(e, " | ") or "none")
  for s = 1, g.players do
    local st = g.st[s]
    local d, x = names_of(g.display[s]), names_of(g.done[s])
    line("%s%s: %d coins, %d influence, %d swords; persons: %s%s", s == g.current and g.phase ~= "over" and "> " or "  ",
         g.names[s], coins(g, s), st.influence, st.strength, #d > 0 and table.concat(d, ", ") or "none",
         #x > 0 and ("; done: " .. table.concat(x, ", ")) or "")
  end
  return table.concat(out, "\n")
end

---------------------------------------------------------------------------
-- Why a text is illegal (g:why)
---------------------------------------------------------------------------

local function why_fulfil(g, seat, text)
  local id
  for i = 1, g.expeditions:count() do
    local e = g.expeditions:get(i)
    if FULFIL_TEXT[e] == text then id = e end
  end
  if not id then return "there is no such expedition in the expedition display" end
  if seat ~= g.current then return "only the active player fulfils expeditions, in their own turn" end
  return "your persons do not show the symbols it needs (a Jack of all Trades stands for one)"
end

local function why_take(g, seat, text)
  local verb = text:match("^(%a+)")
  if verb ~= "loot" and verb ~= "hire" then return nil end
  local id = card_by_take(g, text)
  if not id then return "no such card in the harbour" end
  local other = seat ~= g.current
  if other and coins(g, seat) == 0 then return "you have no coin to pay the active player" end
  if KIND[id] == PERSON then
    return ("the %s costs %d%s and you have %d coins"):format(NAME[id], hire_cost(g, seat, id),
      other and " plus 1 for the active player" or "", coins(g, seat))
  end
  return nil
end

local function explain(stage)
  return function(g, seat, text)
    if text:sub(1, 6) == "fulfil" then return why_fulfil(g, seat, text) end
    if stage == "take" then
      local w = why_take(g, seat, text)
      if w then return w end
      return "loot and hire: 'loot <ship> <coins>', 'hire <person> <cost>/<influence>' or 'take nothing'"
    end
    if stage == "discover" then
      if text == "reveal" then return "the draw deck and the discard pile are both empty" end
      if text:match("^loot") or text:match("^hire") then return "you are still discovering: reveal or stop first" end
      return "discover: 'reveal' or 'stop'"
    end
    if stage == "repel" then
      if text:match("^reveal") or text == "stop" then return "first decide about the ship just revealed: 'repel' or 'do not repel'" end
      return "'repel' or 'do not repel'"
    end
    return "'fulfil expedition ...' or 'do not fulfil'"
  end
end

R.explain = { discover = explain("discover"), repel = explain("repel"), take = explain("take"),
              take_other = explain("take"), fulfil = explain("fulfil") }

return R
