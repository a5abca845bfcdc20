-- Merchants of the Caribbean (Alexander Pfister): the base rule set.
--
-- Sources: the rulebook merchants_of_the_caribbean.txt, caribbean_cards.md
-- (the default deck) and the rulings C1..C10, cited in comments where they
-- apply; docs/rules/caribbean.md states them and the rules as implemented
-- here.
--
-- State (all on g):
--   g.deck        pile, hidden: top = the next card revealed or gained
--   g._in_deck    its count, kept by reveal, gain and shuffle_in_discard (the
--                 only ways the deck changes once the game is set up)
--   g.discard     pile, hidden: coins paid lie face down there (C2)
--   g.harbour     pile, public: the cards revealed this turn
--   g._harbour    the same cards as a plain list of ids, bottom first, and
--   g._in_harbour their count (both kept with the pile by to_harbour,
--                 from_harbour and harbour_discarded)
--   g.expeditions pile, public: the expedition display
--   g._expeditions the same ids as a plain list, bottom first (kept with the
--                 pile by expedition_revealed and fulfil)
--   g.revealed    pile, public: the ship just revealed, while its repel is decided
--   g.box         pile: cards out of play (a scenario with a stated deck)
--   g.display[s]  pile, public: the persons seat s hired
--   g.done[s]     pile, public: the expeditions seat s fulfilled
--   g.purse[s]    pile, hidden: seat s's coins (cards nobody may look at, C2)
--   g.st[s]       what seat s's persons and expeditions add up to: strength,
--                 influence and the persons' skills (see `tally`)
--   g.phase       "discover" | "loot" | "over";  g.current, g.first, g.ending
--   g.revealing, g.loot_at, g.takes_left, g.fulfilling: where the turn is
--                 (docs/rules/caribbean.md, "Scenario set-up"); false when
--                 not in use, never nil, so that the table keeps their slots

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
  pay_active = 1,                -- C6: what each other player pays the active player for a card taken
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

-- CARDS[id]: what card id is, made from R.data by R.prepare (cards of one
-- name share one table); `take` and `fulfil` are the options that take it:
--   { kind = "ship", name = "Flute 2/2", ship = "Flute", swords = 2 (false: skull),
--     coins = 2, take = "loot Flute 2" }
--   { kind = "person", name = "Sailor 3/1", cost = 3, influence = 1, take = "hire Sailor 3/1",
--     and the skill's swords, symbol, discount, takes, admiral, jester, trader (a ship name) and
--     trader_coins (what a loot of that ship gains more) }
--   { kind = "expedition", name = "expedition 2 anchors", needs = { anchor = 2 },
--     shown = { "anchor" }, symbols = 2, influence = 4, coins = 2, min_players = 0,
--     fulfil = "fulfil expedition 2 anchors" }
--   { kind = "tax", name = "tax most swords", mark = "most swords" }
-- An option is its text: a string, which g:choose takes without reading
-- its words one by one. A ship or a person also has `alone`: the options
-- of a take that offers only it (take_options), a constant kept in
-- ALONE[take] (the text decides the list, whichever copy of the rule set
-- R.prepare makes it for).
-- IDS[name]: the ids of the cards of that name.
local CARDS, IDS
local FEWEST_SYMBOLS         -- the fewest symbols an expedition needs
local IN_GAME                -- IN_GAME[players]: the ids in such a game (cards_in_game)
local ALONE = {}

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

-- C1: R.data.start_coins is the default of the option start_coins, which
-- the game reads: a variant that changes the data changes the game (one
-- that sets the option's default, the data left as it was, keeps that;
-- an option given wins either way).
local START_COINS_AT_PREPARE

function R.prepare(RS)
  R = RS or R                      -- rebind the script to the (copied) rule set
  local d = R.data
  if START_COINS_AT_PREPARE ~= nil and d.start_coins ~= START_COINS_AT_PREPARE then
    R.options.start_coins.default = d.start_coins
  end
  START_COINS_AT_PREPARE = d.start_coins
  -- the numbers of the rules, each a whole number >= 0: a variant's "2" or
  -- -1 is told here, not by a comparison that fails in the first game
  for _, k in ipairs { "start_coins", "tax_threshold", "admiral_min_harbour", "pay_active", "end_influence" } do
    local v = d[k]
    if math.type(v) ~= "integer" or v < 0 then
      error(("R.data.%s must be a whole number >= 0, not %s"):format(k,
        type(v) == "string" and ("'" .. v .. "'") or tostring(v)), 0)
    end
  end
  CARDS, IDS, FEWEST_SYMBOLS, IN_GAME = {}, {}, math.huge, {}
  local function add(card, count)
    IDS[card.name] = IDS[card.name] or {}
    for _ = 1, count do
      CARDS[#CARDS + 1] = card
      table.insert(IDS[card.name], #CARDS)
    end
  end
  local ship_names = {}
  for _, s in ipairs(d.ships) do
    ship_names[s.name] = true
    for _, c in ipairs(s.cards) do
      add({ kind = "ship", ship = s.name, swords = c[1], coins = c[2],
            name = s.name .. " " .. (c[1] or "skull") .. "/" .. c[2],
            take = "loot " .. s.name .. " " .. c[2], whys = {} }, c[3])   -- whys: why_not_repelled
    end
  end
  -- C6: the takes for every number of ship names the harbour can show
  if #d.ships > #d.takes_by_names then
    error(("R.data.takes_by_names gives the takes for 0 to %d ship names, but the deck has %d ship names (C6)")
      :format(#d.takes_by_names, #d.ships), 0)
  end
  local known = { any = true }
  for _, sym in ipairs(d.symbols) do known[sym] = true end
  for _, p in ipairs(d.persons) do
    local skill, cost, influence, count = p[1], p[2], p[3], p[4]
    local does = d.skills[skill] or error("R.data.persons: unknown skill " .. tostring(skill))
    if does.symbol and not known[does.symbol] then error("unknown symbol " .. does.symbol) end
    if does.trader and not ship_names[p.ship] then error("R.data.persons: a Trader needs a ship name") end
    local name = (p.ship and (skill .. " " .. p.ship) or skill) .. " " .. cost .. "/" .. influence
    add({ kind = "person", cost = cost, influence = influence, name = name, take = "hire " .. name,
          swords = does.swords or 0, symbol = does.symbol, discount = does.discount or 0,
          takes = does.takes or 0, admiral = does.admiral or 0, jester = does.jester or 0,
          trader = does.trader and p.ship,
          -- what a loot of that ship gains more (C6): the skill's number (true: 1)
          trader_coins = math.type(does.trader) == "integer" and does.trader or (does.trader and 1 or 0) }, count)
  end
  for _, e in ipairs(d.expeditions) do
    local symbols, shown = 0, {}
    for _, sym in ipairs(d.symbols) do
      if e.needs[sym] then symbols = symbols + e.needs[sym]; shown[#shown + 1] = sym end
    end
    FEWEST_SYMBOLS = math.min(FEWEST_SYMBOLS, symbols)
    local name = "expedition " .. needs_text(e.needs)
    add({ kind = "expedition", name = name, needs = e.needs, shown = shown, symbols = symbols,
          influence = e.influence, coins = e.coins, min_players = e.min_players or 0,
          fulfil = "fulfil " .. name }, e.count or 1)
  end
  for _, t in ipairs(d.taxes) do
    add({ kind = "tax", name = "tax " .. t.mark, mark = t.mark }, t.count)
  end
  for id = 1, #CARDS do
    local take = CARDS[id].take
    if take then
      ALONE[take] = ALONE[take] or kontor.options{ take, "take nothing" }
      CARDS[id].alone = ALONE[take]
    end
  end
end
R.prepare()

-- The pile methods the rules call at every turn, looked up once: a method
-- call (pile:push(card)) looks its method up through the pile's metatable
-- each time, and #pile calls its count through the metatable's __len.
-- push(pile, card), pop(pile), remove(pile, i), move_to(pile, other, n), count(pile).
local PUBLIC, HIDDEN = { vis = "public" }, { vis = "hidden" }     -- kontor.pile's arguments
local push, pop, remove, move_to, count
do
  local any = kontor.pile(PUBLIC)
  push, pop, remove, move_to, count = any.push, any.pop, any.remove, any.move_to, any.count
end

local function in_game(id, players)                                    -- C3
  return CARDS[id].kind ~= "expedition" or CARDS[id].min_players <= players
end

-- The ids of the cards in a game of `players` players (C3), in id order;
-- kept in IN_GAME from the first game of that size (R.prepare forgets them).
local function cards_in_game(players)
  local ids = IN_GAME[players]
  if not ids then
    ids = {}
    for id = 1, #CARDS do
      if in_game(id, players) then ids[#ids + 1] = id end
    end
    IN_GAME[players] = ids
  end
  return ids
end

-- The options that are the same in every game.
local REVEAL_OR_STOP, STOP = kontor.options{ "reveal", "stop" }, kontor.options{ "stop" }
local REPEL_OR_NOT, DO_NOT_FULFIL = kontor.options{ "repel", "do not repel" }, kontor.options{ "do not fulfil" }
local NOTHING_TO_TAKE = kontor.options{ "take nothing" }

local function contains(list, x)
  for i = 1, #list do if list[i] == x then return true end end
  return false
end

---------------------------------------------------------------------------
-- Coins are cards (C2)
---------------------------------------------------------------------------

-- When a card is needed and the deck is empty, the discard pile is
-- shuffled into a new deck. False if it is empty too.
local function shuffle_in_discard(g)
  local n = count(g.discard)
  if n == 0 then return false end
  move_to(g.discard, g.deck, n)
  g._in_deck = n
  g.deck:shuffle(g.rng)
  if g.logging then g:log("the discard pile is shuffled into a new draw deck") end
  return true
end

local function can_draw(g)
  return g._in_deck > 0 or count(g.discard) > 0
end

local function coins(g, seat) return count(g.purse[seat]) end

-- Gain n coins: n cards face down from the deck (fewer if there are none).
local function gain(g, seat, n)
  local got = 0
  while got < n do
    local k = g._in_deck
    if k == 0 then
      if not shuffle_in_discard(g) then break end
      k = g._in_deck
    end
    if k > n - got then k = n - got end
    move_to(g.deck, g.purse[seat], k)
    g._in_deck = g._in_deck - k
    got = got + k
  end
  return got
end

-- Pay n coins to the discard pile (a hire, a tax).
local function pay(g, seat, n)
  if n > 0 then move_to(g.purse[seat], g.discard, n) end
end

---------------------------------------------------------------------------
-- The harbour: the pile g.harbour, and g._harbour, its ids as a plain list
-- that the rules read without a call into C a card ("_": not part of the
-- state). Once the game is set up, these three are the only ways the
-- harbour changes.
---------------------------------------------------------------------------

local function to_harbour(g, card)
  push(g.harbour, card)
  local n = g._in_harbour + 1
  g._harbour[n] = card
  g._in_harbour = n
end

-- Takes the card at place pos (1 = the first revealed) out of the harbour.
local function from_harbour(g, pos)
  local h, n = g._harbour, g._in_harbour
  for i = pos, n - 1 do h[i] = h[i + 1] end
  h[n] = nil
  g._in_harbour = n - 1
  return remove(g.harbour, pos)
end

-- The whole harbour goes to the discard pile (a bust, the end of a turn).
local function harbour_discarded(g)
  local h, n = g._harbour, g._in_harbour
  move_to(g.harbour, g.discard, n)
  for i = n, 1, -1 do h[i] = nil end
  g._in_harbour = 0
end

---------------------------------------------------------------------------
-- What a player's persons and expeditions add up to (g.st[seat])
---------------------------------------------------------------------------

local function new_tally()
  local ships, symbols = R.data.ships, R.data.symbols
  local trader, shown = {}, { any = 0 }
  for i = 1, #ships do trader[ships[i].name] = 0 end
  for i = 1, #symbols do shown[symbols[i]] = 0 end
  return { strength = 0, influence = 0, discount = 0, takes = 0, admiral = 0, jester = 0,
           trader = trader, symbols = shown, symbol_persons = 0, _none = false }
end

-- A person joins (d = 1) or leaves (d = -1) a display.
local function tally(st, person, d)
  st.strength = st.strength + d * person.swords
  st.influence = st.influence + d * person.influence
  st.discount = st.discount + d * person.discount
  st.takes = st.takes + d * person.takes
  st.admiral = st.admiral + d * person.admiral
  st.jester = st.jester + d * person.jester
  if person.trader then st.trader[person.trader] = st.trader[person.trader] + d * person.trader_coins end
  if person.symbol then
    st.symbols[person.symbol] = st.symbols[person.symbol] + d
    st.symbol_persons = st.symbol_persons + d
    st._none = false                     -- what it can fulfil may change (fulfillable)
  end
end

local function tally_of(g, seat)                 -- from the piles (invariants, scenario)
  local st = new_tally()
  for _, id in ipairs(g.display[seat]:cards()) do tally(st, CARDS[id], 1) end
  for _, id in ipairs(g.done[seat]:cards()) do st.influence = st.influence + CARDS[id].influence end
  return st
end

function R.influence(g, seat) return g.st[seat].influence end
function R.ship_of(card) return CARDS[card].ship end   -- a card's ship name (nil: not a ship)
function R.strength(g, seat) return g.st[seat].strength end
function R.coins(g, seat) return coins(g, seat) end

---------------------------------------------------------------------------
-- The rules a variant may replace (C9, C10)
---------------------------------------------------------------------------

-- C9: the end is triggered once a player has end_influence and (if
-- required) a fulfilled expedition.
function R.rules.game_end(g)
  local d, st = R.data, g.st
  local needed = d.end_influence
  for s = 1, g.players do
    if st[s].influence >= needed and (not d.expedition_to_end or count(g.done[s]) > 0) then
      return true
    end
  end
  return false
end

function R.rules.can_win(g, seat)               -- C9
  return not R.data.expedition_to_win or count(g.done[seat]) > 0
end

-- C5 / C10: who gains the tax card's coin: a list of seats, in turn order
-- from `active`.
function R.rules.tax_winners(g, card, active)
  local rule = R.data.tax_rule[CARDS[card].mark] or "swords"
  local best, out, order = nil, {}, g:turn_order(active)
  for i = 1, #order do
    local s = order[i]
    local v = rule == "influence" and -g.st[s].influence or g.st[s].strength
    if best == nil or v > best then best = v; out = { s }
    elseif v == best then out[#out + 1] = s end
  end
  return out
end

---------------------------------------------------------------------------
-- Game preparation (C1, C2, C3)
---------------------------------------------------------------------------

-- A list with a place for each seat (at most 5, C1), filled without growing.
local function per_seat() return { nil, nil, nil, nil, nil } end

local function new_components(g)
  g.deck = kontor.pile(HIDDEN)
  g._in_deck = 0
  g.discard = kontor.pile(HIDDEN)   -- C2: paid coins lie face down there (views show its count)
  g.harbour = kontor.pile(PUBLIC)
  g._harbour, g._in_harbour = {}, 0
  g.expeditions = kontor.pile(PUBLIC)
  g._expeditions = {}
  g.box = kontor.pile(PUBLIC)
  g.revealed = kontor.pile(PUBLIC)
  g.display, g.done, g.purse, g.st = per_seat(), per_seat(), per_seat(), per_seat()
  for s = 1, g.players do
    g.display[s] = kontor.pile(PUBLIC)
    g.done[s] = kontor.pile(PUBLIC)
    g.purse[s] = kontor.pile(HIDDEN)    -- C2: nobody may look, not even the owner
    g.st[s] = new_tally()
  end
  g.idle = 0                                      -- turns in a row where nothing could happen
  g.ending = false
  g.revealing, g.loot_at, g.takes_left, g.fulfilling = false, false, false, false   -- where the turn is
  g.expedition_coins = {}                         -- a scenario's coins per expedition name
end

---------------------------------------------------------------------------
-- Scenario set-up: a stated position instead of the shuffle
---------------------------------------------------------------------------

local SCENARIO_FIELDS = { deck = true, discard = true, harbour = true, expeditions = true,
  displays = true, done = true, coins = true, active = true, first_player = true, phase = true,
  expedition_coins = true,
  -- table: any moment of a turn, and the other fields of g:state() (a copy of a state is a scenario)
  revealed = true, loot_at = true, takes_left = true, revealing = true, fulfilling = true, engine = true, box = true, current = true,
  display = true, purse = true, first = true, ending = true, idle = true, st = true }

-- A scenario's mistake, its values shown as the scenario gave them (a
-- table is "a table", not its address).
local function bad(fmt, ...)
  error("scenario: " .. kontor.format(fmt, ...), 0)
end

local function seat_of(g, s, what)
  if math.type(s) ~= "integer" or s < 1 or s > g.players then bad(what, g.players) end
  return s
end

-- C1, C2: the cards placed nowhere are shuffled (the game's RNG); coins
-- stated as numbers are taken from their top, seat by seat, as the deal
-- takes them from the deck. The rest is the deck, or, when the scenario
-- states the deck, out of play (the box). So a scenario of coins alone
-- deals what the game's own setup deals from the same seed.
local function deal_coins(g, rest, coin_counts, deck_stated)
  local from, left, wanted = g.deck, #rest, 0
  for s = 1, g.players do wanted = wanted + (coin_counts[s] or 0) end
  if deck_stated then
    if wanted > 0 then g.rng:shuffle(rest) end    -- (no coins to deal: the RNG is not used)
    from = g.box
    from:push_all(rest)
  else
    from:push_all(rest)                           -- the deck is empty: as R.setup
    from:shuffle(g.rng)
  end
  for s = 1, g.players do
    local c = coin_counts[s] or 0
    if c > left then bad("not enough cards left for the coins of seat %d", s) end
    move_to(from, g.purse[s], c)
    left = left - c
  end
end

-- A seat as the key of a per-seat field (displays, done, coins). A JSON
-- object's keys are texts ("1"), which Lua keeps as texts: a front end
-- gives a list instead (kontor serve, docs/protocol.md).
local function seat_key(field, s, n)
  if math.type(s) == "integer" and s >= 1 and s <= n then return s end
  if type(s) == "string" and s:match("^%d+$") then
    bad("%s: the key '%s' is a text, not a seat number: give a list with an entry for each seat "
      .. "(in JSON: [[...], [...]])", field, s)
  end
  bad("%s: %s is not a seat", field, s)
end

local function set_up_scenario(g, sc)
  local n = g.players
  for field in pairs(sc) do
    if not SCENARIO_FIELDS[field] then bad("unknown field '%s'", field) end
  end
  local used = {}
  -- The lowest unused id of a card named `name`, of a kind in `kinds`.
  local function card(name, where, kinds)
    local ids = IDS[name]
    if not ids then bad("%s: unknown card '%s'", where, name) end
    if kinds and not kinds[CARDS[ids[1]].kind] then bad("%s: '%s' cannot be there", where, name) end
    local avail = 0
    for _, id in ipairs(ids) do
      if not used[id] and in_game(id, n) then used[id] = true; return id end
      if in_game(id, n) then avail = avail + 1 end
    end
    bad("%s: more '%s' cards are placed than the %d there %s", where, name, avail, avail == 1 and "is" or "are")
  end
  for i, name in ipairs(sc.harbour or {}) do
    local where = "harbour card " .. i
    local id = card(name, where, { ship = true, person = true })
    for _, other in ipairs(g.harbour:cards()) do
      if CARDS[id].kind == "ship" and CARDS[other].ship == CARDS[id].ship then
        bad("%s: a second %s in the harbour", where, CARDS[id].ship)
      end
    end
    g.harbour:push(id)
  end
  g._harbour = g.harbour:cards()
  g._in_harbour = #g._harbour
  for i, name in ipairs(sc.revealed or {}) do          -- table: the ship whose repel is decided
    if i > 1 then bad("revealed: one ship at most") end
    g.revealed:push(card(name, "revealed", { ship = true }))
    g.revealing = true                                   -- so the turn's first card is out
  end
  for i, name in ipairs(sc.expeditions or {}) do
    g.expeditions:push(card(name, "expedition " .. i, { expedition = true }))
  end
  g._expeditions = g.expeditions:cards()
  if sc.display and sc.displays then bad("give displays or display (g:state()'s name), not both") end
  if sc.purse and sc.coins then bad("give coins or purse (g:state()'s name), not both") end
  sc.displays, sc.coins = sc.displays or sc.display, sc.coins or sc.purse
  for field, kinds in pairs { displays = { person = true }, done = { expedition = true } } do
    local piles = field == "displays" and g.display or g.done
    for s, list in pairs(sc[field] or {}) do
      seat_key(field, s, n)
      for i, name in ipairs(list) do
        piles[s]:push(card(name, ("%s of seat %d, card %d"):format(field, s, i), kinds))
      end
    end
  end
  local coin_counts = {}
  for s, c in pairs(sc.coins or {}) do
    seat_key("coins", s, n)
    if type(c) == "table" then
      for i, name in ipairs(c) do g.purse[s]:push(card(name, ("coins of seat %d, card %d"):format(s, i))) end
    elseif math.type(c) == "integer" and c >= 0 then
      coin_counts[s] = c
    else
      bad("coins of seat %d: a number >= 0 or a list of card names", s)
    end
  end
  for i, name in ipairs(sc.discard or {}) do g.discard:push(card(name, "discard card " .. i)) end
  if sc.deck then
    if sc.engine then                                 -- a copy of g:state(): bottom first
      for i = 1, #sc.deck do g.deck:push(card(sc.deck[i], "deck card " .. i)) end
    else
      for i = #sc.deck, 1, -1 do g.deck:push(card(sc.deck[i], "deck card " .. i)) end    -- deck[1] on top
    end
  end
  for i, name in ipairs(sc.box or {}) do g.box:push(card(name, "box card " .. i)) end
  local rest = {}                                 -- the cards placed nowhere
  for id = 1, #CARDS do
    if not used[id] and in_game(id, n) then rest[#rest + 1] = id end
  end
  deal_coins(g, rest, coin_counts, sc.deck)
  g._in_deck = #g.deck
  for name, c in pairs(sc.expedition_coins or {}) do
    if not IDS[name] or CARDS[IDS[name][1]].kind ~= "expedition" then
      bad("expedition_coins: '%s' is not an expedition", name)
    end
    if math.type(c) ~= "integer" or c < 0 then bad("expedition_coins: a number >= 0") end
    g.expedition_coins[name] = c
  end
  for s = 1, n do g.st[s] = tally_of(g, s) end
  local first = sc.first_player or sc.first
  if first ~= nil then g.first = seat_of(g, first, "first_player must be a seat from 1 to %d") end
  g.current = seat_of(g, sc.active or sc.current or g.first, "active must be a seat from 1 to %d")
  g.phase = sc.phase or "discover"
  if g.phase ~= "discover" and g.phase ~= "loot" then bad("phase must be discover or loot, not %s", g.phase) end
  -- table: the moment inside the turn
  if #g.revealed > 0 then
    local ship = CARDS[g.revealed:top()]
    if g.phase ~= "discover" then bad("revealed: a ship is revealed in the discover phase") end
    if not ship.swords or g.st[g.current].strength < ship.swords then
      bad("revealed: the active player cannot repel the %s (strength %d): it would not be asked", ship.name,
        g.st[g.current].strength)
    end
  end
  if sc.loot_at then
    if g.phase ~= "loot" or math.type(sc.loot_at) ~= "integer" or sc.loot_at < 1 or sc.loot_at > n then
      bad("loot_at: the place in the turn order (1 = the active player) of the seat taking, in the loot phase")
    end
    g.loot_at = sc.loot_at
  end
  if sc.takes_left then
    if not g.loot_at or math.type(sc.takes_left) ~= "integer" or sc.takes_left < 0 then
      bad("takes_left: the takes left to the seat at loot_at (0: the active player's fulfil after them)")
    end
    g.takes_left = sc.takes_left
  end
  if sc.revealing then
    if g.phase ~= "discover" then bad("revealing: the discover phase's first card is out; not in the loot phase") end
    g.revealing = true
  end
  if sc.fulfilling then
    if g.loot_at ~= 1 or g.takes_left ~= 0 then bad("fulfilling: after the active player's takes (loot_at 1, takes_left 0)") end
    g.fulfilling = true
  end
  if sc.ending ~= nil then g.ending = sc.ending end
  if math.type(sc.idle) == "integer" then g.idle = sc.idle end
  if sc.engine and type(sc.engine.rng) == "string" then g.rng:set_state(sc.engine.rng) end   -- goes on alike
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
  g.deck:push_all(cards_in_game(n))                              -- C3
  g.deck:shuffle(g.rng)
  g._in_deck = #g.deck
  for s = 1, n do gain(g, s, g.options.start_coins) end           -- C1
  g.current = g.first
  g.phase = "discover"
end

---------------------------------------------------------------------------
-- Expeditions (C8)
---------------------------------------------------------------------------

-- The persons of `seat` show the symbols the expedition needs: one person
-- per symbol, a Jack of all Trades for any one that is missing.
local function can_fulfil(st, expedition)
  if st.symbol_persons < expedition.symbols then return false end
  local have, shown, missing = st.symbols, expedition.shown, 0
  for i = 1, #shown do
    local short = expedition.needs[shown[i]] - have[shown[i]]
    if short > 0 then missing = missing + short end
  end
  return missing <= have.any
end

-- The expeditions `seat` can fulfil now, in display order, identical ones
-- once. Only Settlers, Captains, Priests and Jacks of all
-- Trades fulfil expeditions. A seat that can fulfil none stays so until
-- its symbols change or an expedition is revealed: the tally keeps that
-- (st._none, "_": not part of the state; see tally and expedition_revealed).
local NONE = {}
local function fulfillable(g, seat)
  local st, out, display = g.st[seat], NONE, g._expeditions
  if st._none then return NONE end
  if st.symbol_persons < FEWEST_SYMBOLS then st._none = true; return NONE end
  for i = 1, #display do
    local e = CARDS[display[i]]
    if can_fulfil(st, e) and not contains(out, e) then
      if out == NONE then out = {} end
      out[#out + 1] = e
    end
  end
  if out == NONE then st._none = true end
  return out
end

-- A new expedition on display: every seat may now fulfil it.
local function expedition_revealed(g, card)
  push(g.expeditions, card)
  local shown = g._expeditions
  shown[#shown + 1] = card
  for s = 1, g.players do g.st[s]._none = false end
end

-- Discard persons whose symbols match (specific ones first, from the top
-- of the display; Jacks of all Trades for the rest), take the expedition
-- and its coins.
local function fulfil(g, seat, e)
  local st, display = g.st[seat], g.display[seat]
  local shown, pos = g._expeditions, nil
  for i = #shown, 1, -1 do
    if CARDS[shown[i]] == e then pos = i end
  end
  table.remove(shown, pos)
  local id = remove(g.expeditions, pos)
  local short, jokers = {}, 0
  for _, sym in ipairs(R.data.symbols) do
    short[sym] = e.needs[sym] or 0
    jokers = jokers + math.max(0, short[sym] - st.symbols[sym])
  end
  local gone = {}
  for k = #display, 1, -1 do
    local person = CARDS[display:get(k)]
    local sym = person.symbol
    local use = (short[sym] or 0) > 0 or (sym == "any" and jokers > 0)
    if use then
      if sym == "any" then jokers = jokers - 1 else short[sym] = short[sym] - 1 end
      push(g.discard, remove(display, k))
      tally(st, person, -1)
      gone[#gone + 1] = person.name
    end
  end
  push(g.done[seat], id)
  st.influence = st.influence + e.influence
  local got = gain(g, seat, g.expedition_coins[e.name] or e.coins)
  if g.logging then
    g:log("%s fulfils the %s: discards %s, gains %d influence and %s", g.names[seat], e.name,
          table.concat(gone, ", "), e.influence, plural(got, "coin"))
  end
end

-- A decision of the active player: `options`, then a fulfil for each
-- expedition they can fulfil (C8). Returns the number of the option chosen
-- among `options`, or nil when they fulfilled an expedition.
local function decide(g, seat, name, options)
  if g.st[seat]._none then return g:choose(seat, name, options) end    -- fulfils none (fulfillable)
  local can = fulfillable(g, seat)
  if #can == 0 then return g:choose(seat, name, options) end
  local n = #options
  local all = { nil, nil, nil, nil, nil, nil, nil, nil }   -- room for 8: filled without growing
  for i = 1, n do all[i] = options[i] end
  for i = 1, #can do all[n + i] = can[i].fulfil end
  local k = g:choose(seat, name, all)
  if k <= #options then return k end
  fulfil(g, seat, can[k - #options])
end

-- The same, asked again after each fulfil until an option is chosen.
local function ask(g, seat, name, options)
  if g.st[seat]._none then return options[g:choose(seat, name, options)] end   -- fulfils none
  local k
  repeat k = decide(g, seat, name, options) until k
  return options[k]
end

---------------------------------------------------------------------------
-- Discover (C4, C5)
---------------------------------------------------------------------------

-- C5: everyone with tax_threshold or more coins discards half, rounded
-- down; the card is discarded; then the tax card's winners gain 1 coin.
local function tax_increase(g, seat, card)
  local order = g:turn_order(seat)
  for i = 1, #order do
    local s = order[i]
    local c = coins(g, s)
    if c >= R.data.tax_threshold then
      pay(g, s, c // 2)
      if g.logging then g:log("%s loses %s to the tax", g.names[s], plural(c // 2, "coin")) end
    end
  end
  push(g.revealed, card); pop(g.revealed)           -- face up for all to see, then on the hidden pile
  push(g.discard, card)
  local winners = R.rules.tax_winners(g, card, seat)
  for i = 1, #winners do
    local s = winners[i]
    local got = gain(g, s, 1)
    if g.logging then g:log("%s gains %s (%s)", g.names[s], plural(got, "coin"), CARDS[card].name) end
  end
end

local function ship_in_harbour(g, ship)
  local h = g._harbour
  for i = 1, g._in_harbour do
    if CARDS[h[i]].ship == ship then return true end
  end
  return false
end

-- C4: whether the ship just revealed, not repelled, busts the turn: a
-- second ship of its name in the harbour. A variant may replace it.
function R.rules.busts(g, seat, card)     -- luacheck: no unused args
  return ship_in_harbour(g, CARDS[card].ship)
end

local BUSTS = R.rules.busts          -- the rulebook's, which the option texts describe

-- C4: the turn busts: the harbour is discarded.
local function bust(g, seat, card)
  local second = g.logging and ship_in_harbour(g, CARDS[card].ship)
  harbour_discarded(g)
  push(g.revealed, card); pop(g.revealed)           -- face up for all to see, then on the hidden pile
  push(g.discard, card)
  if g.logging then
    if second then g:log("%s reveals a second %s: bust, the harbour is discarded", g.names[seat], CARDS[card].ship)
    else g:log("%s reveals the %s: bust, the harbour is discarded", g.names[seat], CARDS[card].name) end
  end
end

-- C4: why a player of `strength` cannot repel `ship` (a skull, or fewer
-- swords than the ship's). Each text is made once per card and strength,
-- then kept on the card.
local function why_not_repelled(ship, strength)
  local why = ship.whys[strength]
  if not why then
    why = not ship.swords and ("the " .. ship.name .. " has a skull: it cannot be repelled")
      or ("strength " .. strength .. " is below the " .. ship.name .. "'s " .. plural(ship.swords, "sword"))
    ship.whys[strength] = why
  end
  return why
end

-- C4: whether the active player repels the ship: asked while they can
-- (their strength at least the ship's, no skull), and asked again after a
-- fulfil (C8), whose persons may have carried swords (C3: the deck is data).
local function repels(g, seat, card)
  local ship = CARDS[card]
  while true do
    local strength = g.st[seat].strength
    if not ship.swords or strength < ship.swords then
      g:skip(seat, "repel", ship.whys[strength] or why_not_repelled(ship, strength))   -- kept, or made
      return false
    end
    push(g.revealed, card)                         -- while the player decides
    local k = decide(g, seat, "repel", REPEL_OR_NOT)
    pop(g.revealed)
    if k then return REPEL_OR_NOT[k] == "repel" end
  end
end

-- C4: a revealed ship is repelled, or it stays, or it busts the turn.
-- Returns false on a bust.
local function ship_revealed(g, seat, card)
  local ship = CARDS[card]
  if repels(g, seat, card) then
    push(g.discard, card)
    if g.logging then g:log("%s repels the %s", g.names[seat], ship.name) end
    return true
  end
  if R.rules.busts(g, seat, card) then bust(g, seat, card); return false end
  to_harbour(g, card)
  return true
end

-- C4: reveal one card; returns false on a bust.
local function reveal(g, seat)
  if g._in_deck == 0 and not shuffle_in_discard(g) then return true end   -- nothing to reveal (C2)
  local card = pop(g.deck)
  g._in_deck = g._in_deck - 1
  local kind = CARDS[card].kind
  if g.logging then g:log("%s reveals %s", g.names[seat], CARDS[card].name) end
  if kind == "person" then
    to_harbour(g, card)
  elseif kind == "ship" then
    return ship_revealed(g, seat, card)
  elseif kind == "expedition" then
    expedition_revealed(g, card)
  else
    tax_increase(g, seat, card)
  end
  return true
end

-- Reveal as long as the player wants; returns false on a bust.
local function discover(g, seat)
  g.phase = "discover"
  local pending = g.revealing and pop(g.revealed)  -- table: a scenario at a repel
  if pending then
    g.revealing = true
    if not ship_revealed(g, seat, pending) then return false end
  elseif g._in_harbour == 0 and g.options.must_reveal and not g.revealing then
    if g._in_deck == 0 and not can_draw(g) then return true end   -- nothing to reveal
    g.revealing = true                             -- the first card is out (a state's copy knows)
    if not reveal(g, seat) then return false end
  else
    g.revealing = true
  end
  while true do                                    -- the options again after a fulfil (C8):
    local options = REVEAL_OR_STOP                 -- its coins may take the last cards (C2)
    if g._in_deck == 0 and count(g.discard) == 0 then       -- nothing to draw (can_draw)
      options = STOP
      if #fulfillable(g, seat) == 0 then return true end   -- nothing can be revealed: stop
    end
    local k = decide(g, seat, "discover", options)
    if options[k] == "stop" then
      if g.logging then g:log("%s stops", g.names[seat]) end
      return true
    end
    if k and not reveal(g, seat) then return false end
  end
end

---------------------------------------------------------------------------
-- Loot and hire (C6, C7)
---------------------------------------------------------------------------

-- C7: when a player's chance to take comes: Admirals pay with 5 or more
-- cards in the harbour, Jesters with none.
local function admirals_and_jesters(g, seat)
  local st = g.st[seat]
  if st.admiral == 0 and st.jester == 0 then return end
  local n = g._in_harbour
  if st.admiral > 0 and n >= R.data.admiral_min_harbour then
    local got = gain(g, seat, st.admiral)
    if g.logging then g:log("%s gains %s (Admiral)", g.names[seat], plural(got, "coin")) end
  end
  if st.jester > 0 and n == 0 then
    local got = gain(g, seat, st.jester)
    if g.logging then g:log("%s gains %s (Jester)", g.names[seat], plural(got, "coin")) end
  end
end

-- C6: a hire costs the person's cost, 1 less per Mademoiselle, never below 0.
local function hire_cost(g, seat, person)
  local cost = person.cost - g.st[seat].discount
  return cost > 0 and cost or 0
end

-- The cards take_options offers, while it works (it never waits for a
-- decision, so no other game can use it meanwhile).
local OFFERED = {}

-- What `seat` may take with `budget` coins to spend on a hire: every ship,
-- every person they can pay (harbour order, identical cards once), then
-- "take nothing". Also returns the number of cards offered (the options
-- before "take nothing") and the number of ships in the harbour (one per
-- name, C4). Three takes in four offer no card or one, whose lists are
-- made once (NOTHING_TO_TAKE, card.alone); a longer list is made with room
-- for 4 options (its nils), so that filling it seldom grows it.
local function take_options(g, seat, budget)
  local n, ships, harbour = 0, 0, g._harbour
  budget = budget + g.st[seat].discount           -- a person costing this much or less (hire_cost)
  for i = 1, g._in_harbour do
    local card = CARDS[harbour[i]]
    if card.ship then                           -- a ship, one of a name (C4): never twice
      ships = ships + 1
      n = n + 1
      OFFERED[n] = card
    elseif card.cost <= budget then
      local take, j = card.take, 1               -- identical persons once
      while j <= n and OFFERED[j].take ~= take do j = j + 1 end
      if j > n then
        n = n + 1
        OFFERED[n] = card
      end
    end
  end
  if n == 0 then return NOTHING_TO_TAKE, 0, ships end
  if n == 1 then return OFFERED[1].alone, 1, ships end
  local options = { nil, nil, nil, nil }
  for i = 1, n do options[i] = OFFERED[i].take end
  options[n + 1] = "take nothing"
  return options, n, ships
end

-- The end of a take's log line: what a player other than the active one paid.
local function paid(g, seat, active)
  local fee = R.data.pay_active
  return seat ~= active and fee > 0 and (", pays " .. fee .. " to " .. g.names[active]) or ""
end

-- C6: take the first card in the harbour that `option` takes: loot a ship
-- or hire a person. A player other than the active one pays them first
-- (1 coin, R.data.pay_active).
-- Returns the card taken.
local function take(g, seat, active, option)
  if seat ~= active and R.data.pay_active > 0 then move_to(g.purse[seat], g.purse[active], R.data.pay_active) end
  local pos, h = 1, g._harbour
  while CARDS[h[pos]].take ~= option do pos = pos + 1 end
  local id = from_harbour(g, pos)
  local card, st = CARDS[id], g.st[seat]
  if card.kind == "ship" then
    push(g.discard, id)
    local got = gain(g, seat, card.coins + st.trader[card.ship])        -- Traders: their coins each
    if g.logging then
      g:log("%s loots the %s: %s%s", g.names[seat], card.name, plural(got, "coin"), paid(g, seat, active))
    end
  else
    local cost = hire_cost(g, seat, card)
    pay(g, seat, cost)
    push(g.display[seat], id)
    tally(st, card, 1)
    if g.logging then g:log("%s hires the %s for %d%s", g.names[seat], card.name, cost, paid(g, seat, active)) end
  end
  return card
end

-- C6: the takes left after taking `card`: one fewer, and a Governor just
-- hired adds its take at once ("a card's effect applies at once").
local function takes_after(left, card)
  return left - 1 + (card.takes or 0)
end

-- C6: 1 card (0-3 ship names in the harbour), 2 (4) or 3 (5), +1 per Governor.
local function allowance(g, seat, ship_names)
  return R.data.takes_by_names[ship_names] + g.st[seat].takes
end

-- The active player takes cards while the allowance lasts (counted from
-- the harbour before the first take) and the harbour has cards.
local function active_takes(g, seat)
  if g._in_harbour == 0 then
    g:skip(seat, "take", "the harbour is empty")
  else
    local options, cards, ships = take_options(g, seat, count(g.purse[seat]))
    local left = g.takes_left or allowance(g, seat, ships)          -- a scenario's (table)
    g.takes_left = left
    local took = false                                               -- for the log's words
    while left > 0 do
      if cards == 0 and #fulfillable(g, seat) == 0 then              -- nothing to decide
        g:skip(seat, "take", "nothing in the harbour is affordable")
        break
      end
      local k = decide(g, seat, "take", options)
      if k == cards + 1 then                                         -- take nothing
        if g.logging then g:log("%s takes %s", g.names[seat], took and "no more" or "nothing") end
        return
      end
      if k then
        took = true
        left = takes_after(left, take(g, seat, seat, options[k]))
        g.takes_left = left
        if left == 0 or g._in_harbour == 0 then break end
      end
      options, cards = take_options(g, seat, count(g.purse[seat]))       -- coins and harbour changed
    end
  end
  g.takes_left = 0
  if g.fulfilling or g.options.fulfil_after_takes and not g.st[seat]._none and #fulfillable(g, seat) > 0 then  -- C8: after the last take
    g.fulfilling = true                            -- asked again after each fulfil (a state's copy knows)
    ask(g, seat, "fulfil", DO_NOT_FULFIL)
    g.fulfilling = false
  end
end

-- C6: why a player with `c` coins cannot pay the active player `fee`.
local function why_no_fee(c, fee)
  if c == 0 then return "no coin to pay the active player" end
  return ("%s, and the active player is paid %d"):format(plural(c, "coin"), fee)
end

-- C6: each other player may take 1 card (+1 per Governor), paying the
-- active player 1 coin each (R.data.pay_active): no coin, no take.
local function other_takes(g, seat, active)
  local left = g.takes_left or (1 + g.st[seat].takes)              -- a scenario's (table)
  g.takes_left = left
  local took = false                                                 -- for the log's words
  while left > 0 do
    if g._in_harbour == 0 then return g:skip(seat, "take_other", "the harbour is empty") end
    local c, fee = count(g.purse[seat]), R.data.pay_active
    if c < fee then return g:skip(seat, "take_other", why_no_fee(c, fee)) end
    local options, cards = take_options(g, seat, c - fee)
    if cards == 0 then                                               -- nothing affordable
      return g:skip(seat, "take_other", fee == 1 and "nothing in the harbour is affordable after paying 1 coin"
        or ("nothing in the harbour is affordable after paying %s"):format(plural(fee, "coin")))
    end
    local k = g:choose(seat, "take_other", options)
    if k > cards then                                                -- take nothing
      if g.logging then g:log("%s takes %s", g.names[seat], took and "no more" or "nothing") end
      return
    end
    took = true
    left = takes_after(left, take(g, seat, active, options[k]))
    g.takes_left = left
  end
end

local function loot_and_hire(g, seat)
  g.phase = "loot"
  local from, n = g.loot_at, g.players            -- table: a scenario at a seat's takes
  for i = from or 1, n do
    local s = (seat + i - 2) % n + 1              -- the i-th in turn order (1: the active player)
    if i ~= from then
      local st = g.st[s]
      if st.admiral > 0 or st.jester > 0 then admirals_and_jesters(g, s) end   -- C7
      g.takes_left = false
    end
    g.loot_at = i
    if i == 1 then active_takes(g, seat) else other_takes(g, s, seat) end
  end
  g.loot_at, g.takes_left = false, false
  harbour_discarded(g)
end

---------------------------------------------------------------------------
-- The game
---------------------------------------------------------------------------

-- No card to reveal or gain, no expedition to fulfil: nothing can happen
-- in this turn. A whole round of such turns never changes again: the game
-- ends (a decision of this rule set, not the rulebook's).
local function nothing_can_happen(g, seat)
  if g.phase ~= "discover" or g._in_deck > 0 or can_draw(g) or g._in_harbour > 0   -- a card to reveal or gain
     or #fulfillable(g, seat) > 0 then
    g.idle = 0
    return false
  end
  g.idle = g.idle + 1
  return g.idle >= g.players
end

function R.play(g)
  local seat, rules = g.current, R.rules
  while true do
    g.current = seat
    g:begin_turn(seat)
    if nothing_can_happen(g, seat) then
      g.phase = "over"
      if g.logging then g:log("no card is left to reveal or gain: the game ends") end
      return
    end
    local looting = g.phase == "loot" or discover(g, seat)
    g.revealing = false
    if looting then
      loot_and_hire(g, seat)
    else                                           -- C7: after a bust, the Jesters
      local order = g:turn_order(seat)
      for i = 1, #order do admirals_and_jesters(g, order[i]) end
    end
    g.phase = "discover"
    if not g.ending and rules.game_end(g) then                    -- C9
      g.ending = true
      if g.logging then g:log("the end is triggered: the round is finished") end
    end
    seat = seat % g.players + 1                    -- the next seat
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
  return CARDS[card] and CARDS[card].name or tostring(card)
end

---------------------------------------------------------------------------
-- Invariants: every card accounted for
---------------------------------------------------------------------------

function R.invariants(g)
  local n = g.players
  local seen, counted = {}, 0
  local function each(pile, where, kinds)
    for _, c in ipairs(pile:cards()) do
      if math.type(c) ~= "integer" or not CARDS[c] or not in_game(c, n) then
        return ("%s holds a bad card %s"):format(where, tostring(c))
      end
      if seen[c] then return ("card %d is both in %s and in %s"):format(c, seen[c], where) end
      if kinds and not kinds[CARDS[c].kind] then return ("%s holds a %s"):format(where, CARDS[c].name) end
      seen[c] = where
      counted = counted + 1
    end
  end
  local err = each(g.deck, "the deck") or each(g.discard, "the discard pile")
    or each(g.harbour, "the harbour", { ship = true, person = true })
    or each(g.expeditions, "the expedition display", { expedition = true })
    or each(g.box, "the box") or each(g.revealed, "the ship just revealed")
  if err then return err end
  local shown = g.expeditions:cards()
  if #shown ~= #g._expeditions then return "g._expeditions is not the expedition display" end
  for i = 1, #shown do
    if shown[i] ~= g._expeditions[i] then return "g._expeditions is not the expedition display" end
  end
  if g._in_deck ~= #g.deck then return ("g._in_deck is %d, the deck holds %d"):format(g._in_deck, #g.deck) end
  for s = 1, n do
    err = each(g.display[s], "display " .. s, { person = true })
      or each(g.done[s], "expeditions of " .. s, { expedition = true }) or each(g.purse[s], "coins of " .. s)
    if err then return err end
    local st, real = g.st[s], tally_of(g, s)
    for _, k in ipairs { "strength", "influence", "discount", "takes", "admiral", "jester", "symbol_persons" } do
      if st[k] ~= real[k] then return ("seat %d: %s %d, the display says %d"):format(s, k, st[k], real[k]) end
    end
    for sym, v in pairs(real.symbols) do
      if st.symbols[sym] ~= v then return ("seat %d: %s symbols disagree"):format(s, sym) end
    end
    for ship, v in pairs(real.trader) do
      if st.trader[ship] ~= v then return ("seat %d: %s Traders disagree"):format(s, ship) end
    end
  end
  local total = 0
  for id = 1, #CARDS do if in_game(id, n) then total = total + 1 end end
  if counted ~= total then return ("%d cards accounted for, not %d"):format(counted, total) end
  local ships, cards = {}, g.harbour:cards()
  if g._in_harbour ~= #cards then return ("g._in_harbour is %d, the harbour holds %d"):format(g._in_harbour, #cards) end
  if #cards ~= #g._harbour then return "g._harbour is not the harbour" end
  for i, id in ipairs(cards) do
    if g._harbour[i] ~= id then return "g._harbour is not the harbour" end
    local ship = CARDS[id].ship
    if ship and ships[ship] then return "two ships of one name in the harbour" end
    if ship then ships[ship] = true end
  end
  return nil
end

---------------------------------------------------------------------------
-- Views
---------------------------------------------------------------------------

local function names_of(pile)
  local t = {}
  for i, id in ipairs(pile:cards()) do t[i] = CARDS[id].name end
  return t
end

function R.view(g, seat)
  local v = { phase = g.phase, current = g.current, first = g.first, ending = g.ending,
              deck = #g.deck, discard = #g.discard,
              harbour = names_of(g.harbour), expeditions = names_of(g.expeditions),
              revealed = names_of(g.revealed),          -- C4: face up while its repel is decided
              players = {} }
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
  -- the seat to act, marked `*`: the active player, or the other player
  -- whose take it is (C6), whom the title names too
  local acting = g.current
  if g.phase == "loot" and g.loot_at and g.loot_at > 1 then acting = (g.current + g.loot_at - 2) % g.players + 1 end
  local title = g.phase == "over" and "game over"
    or (g.phase == "loot" and "loot and hire" or "discover") .. ", " .. g.names[g.current] .. "'s turn"
       .. (acting ~= g.current and (", " .. g.names[acting] .. " to take") or "")
  line("%s - %s%s - deck %d, discard %d", R.title, title, g.ending and g.phase ~= "over" and " (last round)" or "",
       #g.deck, #g.discard)
  -- "Harbour: empty", "Harbour: Priest 4/1 (no ship)", "... (1 ship)", "... (2 ships)":
  -- the ships it shows, each of its own name (C4), are what the takes count (C6)
  local h, ships = names_of(g.harbour), 0
  for _, id in ipairs(g.harbour:cards()) do if CARDS[id].kind == "ship" then ships = ships + 1 end end
  if #h == 0 then line("Harbour: empty")
  else line("Harbour: %s (%s)", table.concat(h, " | "), ships == 0 and "no ship" or plural(ships, "ship")) end
  if #g.revealed > 0 then                          -- C4: the ship just revealed, face up
    line("Revealed: %s (%s decides: repel or not)", CARDS[g.revealed:top()].name, g.names[g.current])
  end
  local e = names_of(g.expeditions)
  line("Expeditions: %s", #e > 0 and table.concat(e, " | ") or "none")
  for s = 1, g.players do
    local st = g.st[s]
    local d, x = names_of(g.display[s]), names_of(g.done[s])
    line("%s%s: %s, %d influence, %s; persons: %s%s", s == acting and g.phase ~= "over" and "* " or "  ",
         g.names[s], plural(coins(g, s), "coin"), st.influence, plural(st.strength, "sword"),
         #d > 0 and table.concat(d, ", ") or "none",
         #x > 0 and ("; done: " .. table.concat(x, ", ")) or "")
  end
  return table.concat(out, "\n")
end

---------------------------------------------------------------------------
-- Why a text is illegal (g:why)
---------------------------------------------------------------------------

local function why_fulfil(g, seat, text)
  if not contains(names_of(g.expeditions), text:sub(#"fulfil " + 1)) then
    return "there is no such expedition in the expedition display"
  end
  if seat ~= g.current then return "only the active player fulfils expeditions, in their own turn" end
  return "your persons do not show the symbols it needs (a Jack of all Trades stands for one)"
end

local function why_take(g, seat, text)
  local verb = text:match("^(%a+)")
  if verb ~= "loot" and verb ~= "hire" then return nil end
  local card
  for _, id in ipairs(g.harbour:cards()) do
    if CARDS[id].take == text then card = CARDS[id] end
  end
  if not card then
    for _, id in ipairs(g.harbour:cards()) do               -- 'hire sailor 3/1': a move in other letters
      if CARDS[id].take:lower() == text:lower() then card = CARDS[id] end   -- is that card's (docs/api.md)
    end
  end
  if not card then
    -- the card as the board and the log name it ('loot Frigate 6/3'): say
    -- which move takes it, not that it is not there
    -- (read with patterns of one item: "^%a+%s+(.-)%s*$" made the
    -- sandbox's bound on matching steps refuse a typo with 60 spaces in
    -- it, an error of this file's shown to the player, not a reason)
    local sp = text:find("%s")
    local at = sp and sp > 1 and not text:sub(1, sp - 1):find("%A") and text:find("%S", sp)
    local named = at and text:sub(at)
    for _, id in ipairs(g.harbour:cards()) do
      local c = CARDS[id]
      if named and named:sub(1, #c.name):lower() == c.name:lower() and not named:find("%S", #c.name + 1) then
        if c.kind == "ship" then
          return ("the %s in the harbour is looted with '%s' (a ship by its name and the coins it gives)")
            :format(c.name, c.take)
        end
        card = c   -- 'loot Sailor 3/1': a person is hired (and what it costs, below)
      end
    end
    if not card then return "no such card in the harbour" end
    if verb ~= "hire" then return ("the %s is a person: it is hired, with '%s'"):format(card.name, card.take) end
  end
  local other = seat ~= g.current
  local fee = other and R.data.pay_active or 0
  if coins(g, seat) < fee then
    return coins(g, seat) == 0 and "you have no coin to pay the active player"
      or ("you have %s and the active player is paid %d"):format(plural(coins(g, seat), "coin"), fee)
  end
  if card.kind == "person" then
    return ("the %s costs %d%s and you have %s"):format(card.name, hire_cost(g, seat, card),
      fee > 0 and (" plus %d for the active player"):format(fee) or "", plural(coins(g, seat), "coin"))
  end
  return nil
end

local function explain(stage)
  return function(g, seat, text)
    if text:sub(1, 6) == "fulfil" then return why_fulfil(g, seat, text) end
    if stage == "take" then
      return why_take(g, seat, text)
        or "loot and hire: 'loot <ship> <coins>', 'hire <person> <cost>/<influence>' or 'take nothing'"
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

---------------------------------------------------------------------------
-- Option descriptions (docs/rules/caribbean.md)
---------------------------------------------------------------------------

R.move_words = { "reveal", "stop", "repel", "do", "loot", "hire", "take", "fulfil" }

-- What a person's skill does (C6, C7, C8), from the card's own numbers.
local function skill_text(p)
  local out = {}
  if p.swords > 0 then out[#out + 1] = ("+%d strength"):format(p.swords) end
  if p.symbol == "any" then out[#out + 1] = "stands for any expedition symbol"
  elseif p.symbol then out[#out + 1] = ("shows a %s for expeditions"):format(p.symbol) end
  if p.discount > 0 then out[#out + 1] = ("hires cost you %d less"):format(p.discount) end
  if p.takes > 0 then out[#out + 1] = ("+%s each turn"):format(plural(p.takes, "take")) end
  if p.admiral > 0 then
    out[#out + 1] = ("+%s when your take comes with %d or more cards in the harbour"):format(
      plural(p.admiral, "coin"), R.data.admiral_min_harbour)
  end
  if p.jester > 0 then out[#out + 1] = ("+%s when your take comes with the harbour empty"):format(plural(p.jester, "coin")) end
  if p.trader then out[#out + 1] = ("+%s for each %s you loot"):format(plural(p.trader_coins, "coin"), p.trader) end
  return table.concat(out, ", ")
end

local function card_named(g, pile, text)
  for _, id in ipairs(pile:cards()) do
    local c = CARDS[id]
    if c.take == text or c.fulfil == text then
      return c
    end
  end
end

-- The ship names in the harbour: a second of one busts (C4).
local function harbour_ships(g)
  local names, seen = {}, {}
  for _, id in ipairs(g.harbour:cards()) do
    local s = CARDS[id].ship
    if s and not seen[s] then seen[s] = true; names[#names + 1] = s end
  end
  return names
end

-- The end screen's reason (C9): the most influence among the players who
-- can win; a player with more influence but no expedition is named.
function R.why_won(g)
  local winners = R.winners(g)
  if #winners == 0 then return "nobody can win: no player fulfilled an expedition (C9)" end
  local w = winners[1]
  local st = g.st[w]
  local names = {}
  for i, s in ipairs(winners) do names[i] = g.names[s] end
  local why = ("%s %s with %d influence%s"):format(table.concat(names, " and "), #winners > 1 and "share the win" or "wins",
    st.influence, R.data.expedition_to_win and " and a fulfilled expedition (C9)" or " (C10: no expedition needed)")
  local notes = {}
  for s = 1, g.players do
    if not R.rules.can_win(g, s) and g.st[s].influence >= st.influence then
      notes[#notes + 1] = ("%s has %d influence but no expedition: cannot win (C9)"):format(g.names[s], g.st[s].influence)
    elseif R.rules.can_win(g, s) and g.st[s].influence == st.influence and not contains(winners, s) then
      notes[#notes + 1] = ("%s has as much influence but fewer coins (%d to %d)"):format(g.names[s], coins(g, s), coins(g, w))
    end
  end
  if #winners > 1 then notes[#notes + 1] = ("equal in coins too (%d)"):format(coins(g, w)) end
  return why .. (#notes > 0 and ("; " .. table.concat(notes, "; ")) or "")
end

function R.describe_option(g, seat, decision, text)
  local other = seat ~= g.current
  if text == "reveal" then
    local ships = harbour_ships(g)
    local names = #ships > 1 and (table.concat(ships, ", ", 1, #ships - 1) .. " or " .. ships[#ships]) or ships[1]
    local deck = #g.deck > 0 and (plural(#g.deck, "card") .. " in the deck")   -- C2: shuffled in when needed
      or ("the deck is empty: the discard pile (" .. plural(#g.discard, "card") .. ") is shuffled into it first")
    if R.rules.busts ~= BUSTS then return ("%s; %s"):format(deck, "what busts is the variant's rule (C4)") end
    return ("%s; %s"):format(deck, names and ("a second " .. names .. " busts (C4)") or "no ship can bust yet")
  end
  if text == "stop" then
    local n = #harbour_ships(g)
    return ("loot and hire: %s (%s in the harbour, C6)"):format(
      plural(allowance(g, seat, n), "take"), plural(n, "ship name"))
  end
  if text == "repel" then
    local c = CARDS[g.revealed:top()]
    return c and ("the %s goes to the discard pile (strength %d)"):format(c.name, g.st[seat].strength)
  end
  if text == "do not repel" then
    local c = CARDS[g.revealed:top()]
    if not c then return nil end
    return R.rules.busts(g, seat, g.revealed:top()) and ("the %s busts the harbour (C4)"):format(c.ship)
      or ("the %s stays in the harbour"):format(c.name)
  end
  if text == "take nothing" then return "end your takes" end
  if text == "do not fulfil" then return "keep your persons" end
  local card = card_named(g, g.harbour, text) or card_named(g, g.expeditions, text)
  if not card then return nil end
  local owed = other and R.data.pay_active or 0
  local fee = owed > 0 and ("; you pay %s to the active player first"):format(plural(owed, "coin")) or ""
  if card.kind == "ship" then
    return ("+%s%s"):format(plural(card.coins + g.st[seat].trader[card.ship], "coin"), fee)
  elseif card.kind == "person" then
    local skill = skill_text(card)
    return ("costs %d%s; +%d influence%s"):format(hire_cost(g, seat, card),
      owed > 0 and (" (+%d to the active player)"):format(owed) or "", card.influence,
      skill ~= "" and ("; " .. skill) or "")
  elseif card.kind == "expedition" then
    return ("+%d influence, +%s; discards the persons it needs (C8)"):format(card.influence,
      plural(g.expedition_coins[card.name] or card.coins, "coin"))
  end
end

---------------------------------------------------------------------------
-- For the bots (docs/bots.md)
---------------------------------------------------------------------------

-- R.play picks up from g.phase and g.current when a turn begins.
R.resumes_at_turn = true

-- What a position is worth to `seat`, as the greedy bot sees it: influence,
-- plus a fifth per coin (coins hire persons), a twentieth per sword, less
-- 3 while it lacks the expedition it needs to win (C9).
function R.score(g, seat)
  local v = R.influence(g, seat) + R.coins(g, seat) / 5 + R.strength(g, seat) / 20
  if not R.rules.can_win(g, seat) then v = v - 3 end
  return v
end

-- Position evaluation (docs/bots.md)
--
-- R.estimate(g, seat): the influence the seat may expect at the end (C9),
-- from what it may see:
--   * its influence;
--   * its coins, at what they hire: the influence of a person per coin of
--     its cost, over the persons of the deck (R.data.persons, so a
--     variant's prices count); coins of 12 and more at half, as a tax card
--     would leave them (C5, R.data.tax_threshold);
--   * its swords a twentieth each (a repelled ship pays nothing, but a
--     seat that cannot repel must take what is revealed);
--   * while it has no expedition and needs one to win (C9): less the
--     influence of the smallest expedition, times the share of the
--     symbols still missing for the expedition on display it is closest
--     to (any expedition of the deck when none is displayed);
--   * while it discovers, the harbour: the cards it may take (C6: 1, 2 or
--     3 by the ship names there, +1 a Governor), the best of them: a ship
--     its coins (+1 a Trader of that ship) at the influence a coin, a
--     person it can pay its influence less its cost at the influence a
--     coin. So a reveal that brings a good card is worth taking the risk.
local function influence_per_coin()
  local inf, cost = 0, 0
  for _, p in ipairs(R.data.persons) do
    if p[3] > 0 then inf, cost = inf + p[3] * p[4], cost + p[2] * p[4] end
  end
  return cost > 0 and inf / cost or 0
end

local function smallest_expedition()
  local least
  for _, e in ipairs(R.data.expeditions) do
    if least == nil or e.influence < least then least = e.influence end
  end
  return least or 0
end

-- The share of the symbols of expedition e that the seat's persons show
-- (Jacks of all Trades for any).
-- (Plain loops and comparisons, no ipairs or math.min: the bots and the
-- lab ask for the estimate of every seat every turn.)
local function progress(st, e)
  local have, shown, needs, matched = st.symbols, e.shown, e.needs, 0
  for i = 1, #shown do
    local sym = shown[i]
    local need, n = needs[sym], have[sym]
    if n > need then n = need end
    matched = matched + n
  end
  local jokers, missing = have.any, e.symbols - matched   -- (e.symbols: all it needs)
  if jokers > missing then jokers = missing end
  return (matched + jokers) / e.symbols
end

-- What the estimate reads from the deck, worked out once per deck: the
-- influence a coin, the smallest expedition, the expeditions' cards. The
-- deck (CARDS) is made again whenever R.data changes (R.prepare), and so
-- are these.
local derived_for, PER_COIN, LEAST, EXPEDITIONS
local function derived()
  if derived_for ~= CARDS then
    PER_COIN, LEAST, EXPEDITIONS = influence_per_coin(), smallest_expedition(), {}
    for i = 1, #CARDS do
      if CARDS[i].kind == "expedition" then EXPEDITIONS[#EXPEDITIONS + 1] = CARDS[i] end
    end
    derived_for = CARDS
  end
end

-- (The display and the harbour are read from their plain lists,
-- g._expeditions and g._harbour, as the rules read them: no call into C a
-- card.)
local function closest(g, seat)
  local st, best, shown = g.st[seat], 0, g._expeditions
  local n = #shown
  if n == 0 then
    for i = 1, #EXPEDITIONS do
      local p = progress(st, EXPEDITIONS[i])
      if p > best then best = p end
    end
    return best
  end
  for i = 1, n do
    local e = CARDS[shown[i]]
    if e.kind == "expedition" then
      local p = progress(st, e)
      if p > best then best = p end
    end
  end
  return best
end

local function more(a, b) return a > b end

-- (while `seat` discovers: R.estimate asks only then)
local function harbour_worth(g, seat, per_coin)
  local worth, m, ships, purse, st = {}, 0, 0, R.coins(g, seat), g.st[seat]
  local harbour = g._harbour
  for i = 1, g._in_harbour do
    local card = CARDS[harbour[i]]
    if card.kind == "ship" then
      ships = ships + 1
      m = m + 1
      worth[m] = (card.coins + st.trader[card.ship]) * per_coin
    elseif card.kind == "person" then
      local cost = hire_cost(g, seat, card)
      if cost <= purse then m = m + 1; worth[m] = card.influence - cost * per_coin end
    end
  end
  if m > 1 then table.sort(worth, more) end      -- the best first
  local n, takes = 0, allowance(g, seat, ships)
  if takes > m then takes = m end
  for i = 1, takes do
    if worth[i] > 0 then n = n + worth[i] end
  end
  return n
end

function R.estimate(g, seat)
  if derived_for ~= CARDS then derived() end
  local purse, cap, per_coin = R.coins(g, seat), R.data.tax_threshold, PER_COIN
  if purse >= cap then purse = cap + (purse - cap) / 2 end
  local v = R.influence(g, seat) + purse * per_coin + R.strength(g, seat) / 20
  if not R.rules.can_win(g, seat) then v = v - LEAST * (1 - closest(g, seat)) end
  if g.phase == "discover" and g.current == seat then v = v + harbour_worth(g, seat, per_coin) end
  return v
end

-- mcts: rollouts of 5 steps judged by R.estimate (docs/bots.md "Strength");
-- greedy gives its lines beyond one per option to the best option so far,
-- and half as many: as strong as 12 in turn; it judges a line by its own
-- estimate alone, not its lead over the other seat: 56% of 800 games
-- against the lead's greedy (docs/bots.md, "greedy").
R.bot_options = { mcts = { estimate = 1, rollout = 5 }, greedy = { budget = 6, focus = 1, lead = 0 } }

return R
