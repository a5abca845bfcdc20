-- Merchants of the Old World: the base rule set, 2 to 8 players.
--
-- Sources: /work/shared/rules/merchants_of_the_old_world.txt (the rulebook)
-- and the rulings O1..O34 and tables T1..T11 of RULINGS.md, cited in
-- comments where they apply. docs/rules/old_world.md states the rules as
-- implemented here.
--
-- State (all on g):
--   g.gold, g.vp  counters, one per seat (min 0)
--   g.card[s]     seat s's player card: own[tile], crew[tile] (workers on the
--                 tiles of that kind), pool[kind], store[good], ships[k] =
--                 { size, crew = 0|1, cargo = {goods}, port = ring index|false }
--   g.bag         workers in the bag by kind; g.line the line by kind, and
--                 g.line.pirate; g.removed workers out of the game by kind
--   g.first       the first player token's holder; g.pirate_holder
--   g.pirate_vp, g.vp_given (against the VP bank, O24)
--   g:draft(s)    while the build orders are open: seat s's entry's draft,
--                 .order its working copy (see enter_order), O14-O16
--   g.phase       "bid" | "pick" | "build" | "pirate" | "trade" | "produce" | "over"
--   g.ending      false, or why this turn is the last (O30)

local R = {
  name = "old_world",
  title = "Merchants of the Old World",
  summary = "bid for workers, build in secret, ship cloth round the Mediterranean (2-8 players)",
  players = { min = 2, max = 8, default = 4 },                         -- O1
  options = {
    vp_bank_per_player = { default = 30, type = "integer", min = 0, max = 1000,
      doc = "VP in the VP bank per player; 0 turns end condition 3 off (O24)" },
    removed_workers = { default = "box", type = "string", values = { "box", "bag" },
      doc = "where the limit check's removed workers go: out of the game, or back into the bag (O23)" },
    pirate_may_pass = { default = true, type = "boolean",
      doc = "the pirate's holder may rob no ship (O17)" },
    pirate_takes = { default = "yield", type = "string", values = { "yield", "goods" },
      doc = "the robbed ship's whole yield, or only its goods' VP and gold (bonuses stay with the owner) (O21)" },
    secret_build = { default = "whole", type = "string", values = { "whole", "two_rounds" },
      doc = "the whole build order is secret, or acquisitions and workers are revealed before cargo and destinations (O34)" },
    fg_colours = { default = "choice", type = "string", values = { "choice", "auto" },
      doc = "the player chooses the colours of finished goods, or the most valuable dyes go first (O33)" },
    raw_gold = { default = "table", type = "string", values = { "table", "flat" },
      doc = "raw goods pay their trade-table value, or 1 gold each (O20)" },
    start_gold = { default = 3, type = "integer", min = 0, max = 100,
      doc = "gold each player starts with (O6)" },
    production_optional = { default = false, type = "boolean",
      doc = "a player may make fewer units than capacity (O25)" },
    buildings_24 = { default = false, type = "boolean",
      doc = "add the 8 invented buildings of table T7 (O4)" },
    ship_is_acquisition = { default = true, type = "boolean",
      doc = "a ship takes the turn's one acquisition; off: a ship may be bought besides it (O14a)" },
  },
}

---------------------------------------------------------------------------
-- The components, as data (tables T1-T9). A variant may change R.data, then
-- call R.prepare() to rebuild what is derived from it.
---------------------------------------------------------------------------

R.data = {
  ports = { "venice", "genoa", "marseille", "barcelona", "tunis",
            "alexandria", "constantinople", "athens" },                -- O2
  two_player_ring = { { "venice", 1 }, { "genoa" }, { "marseille", 2 }, { "tunis" } },  -- O2, T1
  kinds = { "seaman", "land", "facility" },                           -- O7, canonical order
  kind_words = { seaman = "seaman", land = "land worker", facility = "facility worker" },
  bag_per_player = { seaman = 3, land = 11, facility = 15 },           -- O7, T8
  start_workers = { seaman = 1, land = 1 },                             -- O9
  start_gold = 3,                                                       -- O6 (the option start_gold overrides it)
  first_player_gold = 1,                                                -- O11
  pool_keeps = 1,                                                       -- O23
  colours = { "blue", "red", "yellow", "brown", "black" },              -- canonical order
  dye_value = { blue = 1, red = 1, yellow = 1, brown = 2, black = 2 },  -- T2 (gold)
  fg_value = { blue = 1, red = 2, yellow = 3, brown = 4, black = 5 },   -- T2 (VP)
  wool_value = 1, cloth_value = 2,                                      -- T2
  wool_tokens = 10,                                                     -- O5, T6
  dye_tokens = { blue = 6, red = 4, yellow = 4, brown = 4, black = 2 }, -- O5, T6
  lands = {                                                             -- T4
    { id = "sheep_herding", name = "Sheep Herding", cost = 1, count = 5, wool = 1 },
    { id = "woad_plantation", name = "Woad Plantation", cost = 1, count = 3, dye = "blue" },
    { id = "madder_plantation", name = "Madder Plantation", cost = 1, count = 2, dye = "red" },
    { id = "weld_plantation", name = "Weld Plantation", cost = 2, count = 2, dye = "yellow" },
    { id = "walnut_plantation", name = "Walnut Plantation", cost = 2, count = 2, dye = "brown" },
    { id = "iron_plantation", name = "Iron Plantation", cost = 2, count = 1, dye = "black" },
  },
  -- T5: effects while staffed. A field ending in _per_worker counts staffed
  -- slots; any other needs the slot staffed (O8).
  buildings = {
    { id = "shearing_shed", name = "Shearing Shed", cost = 1, slots = 1, wool_if_sheep = 1 },
    { id = "fulling_mill", name = "Fulling Mill", cost = 2, slots = 1, wool_if_sheep = 1 },
    { id = "machine_shears", name = "Machine Shears", cost = 7, slots = 1, wool_per_sheep = 1 },
    { id = "back_strap_loom", name = "Back Strap Loom", cost = 1, slots = 1, cloth = 1 },
    { id = "warp_weighted_loom", name = "Warp Weighted Loom", cost = 3, slots = 3, cloth_per_worker = 1 },
    { id = "power_loom", name = "Power Loom", cost = 8, slots = 1, cloth = 4 },
    { id = "walnut_extract_mill", name = "Walnut Extract Mill", cost = 4, slots = 2,
      dye_per_worker = 1, dye = "brown", needs = "walnut_plantation" },
    { id = "ironworks", name = "Ironworks", cost = 5, slots = 2,
      dye_per_worker = 1, dye = "black", needs = "iron_plantation" },
    { id = "dye_house", name = "Dye House", cost = 1, slots = 1, fg_per_worker = 2 },
    { id = "large_dye_house", name = "Large Dye House", cost = 4, slots = 2, fg_per_worker = 2 },
    { id = "mordant_bath", name = "Mordant Bath", cost = 4, slots = 1, fg_per_dye_house_worker = 1 },
    { id = "deep_harbor", name = "Deep Harbor", cost = 3, slots = 1, harbor = 1 },
    { id = "pier", name = "Pier", cost = 7, slots = 1, pier_vp = 1 },
    { id = "tavern", name = "Tavern", cost = 3, slots = 1, keeps = 3 },
    { id = "trade_house", name = "Trade House", cost = 8, slots = 1, ship_vp = 1 },
    { id = "guild_hall", name = "Guild Hall", cost = 7, slots = 1, guild_vp = 1 },
  },
  dye_houses = { "dye_house", "large_dye_house" },                     -- O26 (the Mordant Bath counts these)
  buildings_24 = {                                                      -- T7 (option buildings_24)
    { id = "lodge", name = "Lodge", cost = 5, slots = 1, keeps = 5 },
    { id = "woad_vat", name = "Woad Vat", cost = 2, slots = 2,
      dye_per_worker = 1, dye = "blue", needs = "woad_plantation" },
    { id = "madder_mill", name = "Madder Mill", cost = 3, slots = 2,
      dye_per_worker = 1, dye = "red", needs = "madder_plantation" },
    { id = "weld_press", name = "Weld Press", cost = 3, slots = 2,
      dye_per_worker = 1, dye = "yellow", needs = "weld_plantation" },
    { id = "wool_store", name = "Wool Store", cost = 4, slots = 1, wool_limit = 5 },
    { id = "dye_cellar", name = "Dye Cellar", cost = 4, slots = 1, dye_limit = 2 },
    { id = "customs_house", name = "Customs House", cost = 5, slots = 1, raw_bonus = 1 },
    { id = "lighthouse", name = "Lighthouse", cost = 5, slots = 1, port_gold = 1 },
  },
  ships = {                                                             -- T3: cargo hold by N
    [2] = { 3, 4 }, [3] = { 3, 5 }, [4] = { 3, 4, 4 }, [5] = { 3, 4, 5 },
    [6] = { 3, 5, 5 }, [7] = { 4, 4, 5 }, [8] = { 4, 5, 5 },
  },
  ship_cost_per_slot = 1,                                               -- O14a: 3/4/5 gold
  ship_names = { [3] = "Small Merchant Ship", [4] = "Medium Merchant Ship", [5] = "Large Merchant Ship" },
  pirate_every = { [2] = 4, [3] = 3, [4] = 3, [5] = 3, [6] = 2, [7] = 2, [8] = 2 },  -- O11, T9
  pirate_target_per_player = 10,                                        -- O30, T9
  turn_cap = 60,          -- a last turn in any case (removed_workers = bag may never empty the bag)
}

R.rules = {}   -- the rules a variant may replace; each defined below with its rule

-- Derived from R.data by R.prepare.
local KINDS, KIND_WORDS, COLOURS, GOODS, GOOD_INDEX, RAW_VALUE, FG_VALUE, FG_OF, DYE_OF
local LAND, TILE, TILES_BASE, TILES_24, BASE_ID, HAVING
-- The building effects (T5, T7); those ending in _per_worker count staffed slots.
local EFFECTS = { "wool_if_sheep", "wool_per_sheep", "cloth", "cloth_per_worker", "dye_per_worker",
  "fg_per_worker", "fg_per_dye_house_worker", "harbor", "pier_vp", "keeps", "ship_vp", "guild_vp",
  "wool_limit", "dye_limit", "raw_bonus", "port_gold" }
local PER_WORKER = { wool_per_sheep = true, cloth_per_worker = true, dye_per_worker = true,
  fg_per_worker = true, fg_per_dye_house_worker = true }
local PICK, RELEASE_SHIP, ASSIGN_SHIP, LOAD, SAIL, ACQUIRE_TEXT, BID, COLOUR_TEXT
local ACQUIRE_NONE, ACQUIRE_SHIP = "acquire none", "acquire ship"
local DONE = "done"

function R.prepare()
  local d = R.data
  KINDS, KIND_WORDS, COLOURS = d.kinds, d.kind_words, d.colours
  GOODS, GOOD_INDEX, RAW_VALUE, FG_VALUE, FG_OF, DYE_OF = { "wool", "cloth" }, {}, {}, {}, {}, {}
  RAW_VALUE.wool, RAW_VALUE.cloth = d.wool_value, d.cloth_value
  for _, c in ipairs(COLOURS) do
    local dye = "dye:" .. c
    GOODS[#GOODS + 1] = dye
    RAW_VALUE[dye] = d.dye_value[c]
    DYE_OF[c] = dye
  end
  for _, c in ipairs(COLOURS) do
    local fg = "fg:" .. c
    GOODS[#GOODS + 1] = fg
    FG_VALUE[fg] = d.fg_value[c]
    FG_OF[c] = fg
  end
  for i, good in ipairs(GOODS) do GOOD_INDEX[good] = i end          -- O18: 12 goods
  LAND, TILE, TILES_BASE, TILES_24 = {}, {}, {}, {}
  ACQUIRE_TEXT, RELEASE_SHIP, ASSIGN_SHIP = {}, {}, {}
  for _, t in ipairs(d.lands) do
    t.kind, t.slots, t.land = "land", 1, true
    TILE[t.id] = t
    TILES_BASE[#TILES_BASE + 1] = t
    ACQUIRE_TEXT[t.id] = "acquire land:" .. t.id
    if t.dye then LAND[t.dye] = t.id end
  end
  TILES_24, BASE_ID = { table.unpack(TILES_BASE) }, {}
  for _, t in ipairs(d.buildings) do
    t.kind = "facility"
    TILE[t.id] = t
    TILES_BASE[#TILES_BASE + 1] = t
    TILES_24[#TILES_24 + 1] = t
    ACQUIRE_TEXT[t.id] = "acquire building:" .. t.id
  end
  for _, t in ipairs(TILES_BASE) do BASE_ID[t.id] = true end
  for _, t in ipairs(d.buildings_24) do
    t.kind = "facility"
    TILE[t.id] = t
    TILES_24[#TILES_24 + 1] = t
    ACQUIRE_TEXT[t.id] = "acquire building:" .. t.id
  end
  HAVING = { [false] = {}, [true] = {} }     -- HAVING[buildings_24][effect]: the tiles with it
  for _, field in ipairs(EFFECTS) do
    HAVING[false][field], HAVING[true][field] = {}, {}
    for _, t in ipairs(TILES_BASE) do if t[field] then table.insert(HAVING[false][field], t) end end
    for _, t in ipairs(TILES_24) do if t[field] then table.insert(HAVING[true][field], t) end end
  end
  for i, t in ipairs(TILES_24) do t.index, t.release, t.assign = i, "release " .. t.id, "assign " .. t.id end
  for k = 1, 8 do RELEASE_SHIP[k], ASSIGN_SHIP[k] = "release ship " .. k, "assign ship " .. k end
  PICK = { seaman = "pick seaman", land = "pick land worker", facility = "pick facility worker",
           pirate = "pick pirate" }
  LOAD, SAIL, COLOUR_TEXT, BID = {}, {}, {}, {}
  for _, good in ipairs(GOODS) do LOAD[good] = "load " .. good end
  for _, port in ipairs(d.ports) do SAIL[port] = "sail " .. port end
  for _, c in ipairs(COLOURS) do COLOUR_TEXT[c] = "colour " .. c end
  for n = 0, 200 do BID[n] = "bid " .. n end
end
R.prepare()

---------------------------------------------------------------------------
-- Small helpers
---------------------------------------------------------------------------

local function tiles_of(g)
  return g.options.buildings_24 and TILES_24 or TILES_BASE
end

local function bid_text(n)
  return BID[n] or ("bid " .. n)
end

local function count_of(t)               -- workers by kind
  return t.seaman + t.land + t.facility
end

-- The workers on a building that work: all of its staffed slots.
local function staffed(card, id)
  return card.crew[id] or 0
end

-- The sum of a building effect over a card's staffed buildings (O8): a
-- field ending in _per_worker counts staffed slots, any other counts once.
local function effect(g, card, field)
  local n, crew = 0, card.crew
  local per = PER_WORKER[field]
  for _, t in ipairs(HAVING[g.options.buildings_24][field]) do
    local w = crew[t.id]
    if w and w > 0 then n = n + (per and t[field] * w or t[field]) end
  end
  return n
end

local function best_effect(g, card, field)
  local n, crew = 0, card.crew
  for _, t in ipairs(HAVING[g.options.buildings_24][field]) do
    if (crew[t.id] or 0) > 0 and t[field] > n then n = t[field] end
  end
  return n
end

-- card.tiles: the kinds of tile the card owns, in canonical order (T4, T5).
local function new_card()
  local card = { own = {}, crew = {}, tiles = {}, pool = {}, store = {}, ships = {} }
  for _, k in ipairs(KINDS) do card.pool[k] = 0 end
  for _, good in ipairs(GOODS) do card.store[good] = 0 end
  return card
end

local function add_tile(card, id)
  local own = card.own
  if own[id] then own[id] = own[id] + 1; return end
  own[id] = 1
  local t, list = TILE[id], card.tiles
  local i = #list + 1
  while i > 1 and list[i - 1].index > t.index do list[i] = list[i - 1]; i = i - 1 end
  list[i] = t
end

local function copy_card(c)
  local n = new_card()
  local own, crew, nown, ncrew = c.own, c.crew, n.own, n.crew
  for i, t in ipairs(c.tiles) do
    local id = t.id
    n.tiles[i], nown[id], ncrew[id] = t, own[id], crew[id]
  end
  for _, k in ipairs(KINDS) do n.pool[k] = c.pool[k] end
  for _, good in ipairs(GOODS) do n.store[good] = c.store[good] end
  for i, ship in ipairs(c.ships) do
    n.ships[i] = { size = ship.size, crew = ship.crew, cargo = { table.unpack(ship.cargo) }, port = ship.port }
  end
  return n
end

-- Token limits (O5): wool + cloth, and each colour's dye + FG, counting
-- storage and ships.
local function held(card, good)
  local n = card.store[good]
  for _, ship in ipairs(card.ships) do
    for _, c in ipairs(ship.cargo) do if c == good then n = n + 1 end end
  end
  return n
end

local function wool_limit(g, card)
  return R.data.wool_tokens + effect(g, card, "wool_limit")
end

local function dye_limit(g, card, c)
  return R.data.dye_tokens[c] + effect(g, card, "dye_limit")
end

local function empty_slots(card)
  local n = 0
  local own, crew = card.own, card.crew
  for _, t in ipairs(card.tiles) do n = n + own[t.id] * t.slots - (crew[t.id] or 0) end
  for _, ship in ipairs(card.ships) do n = n + 1 - ship.crew end
  return n
end

local function workers_on_card(card, kind)
  local n = card.pool[kind]
  if kind == "seaman" then
    for _, ship in ipairs(card.ships) do n = n + ship.crew end
  else
    local crew = card.crew
    for _, t in ipairs(card.tiles) do
      if t.kind == kind then n = n + (crew[t.id] or 0) end
    end
  end
  return n
end

---------------------------------------------------------------------------
-- Ports and shipping (O2, O3, T1)
---------------------------------------------------------------------------

-- The ring of ports in play: { {port = name, seat = s or false}, ... } and
-- home[s] = the ring index of seat s's port.
local function make_ring(g)
  local ring, home = {}, {}
  if g.players == 2 then
    for i, e in ipairs(R.data.two_player_ring) do
      ring[i] = { port = e[1], seat = e[2] or false }
      if e[2] then home[e[2]] = i end
    end
  else
    for s = 1, g.players do
      ring[s] = { port = R.data.ports[s], seat = s }
      home[s] = s
    end
  end
  g.ring, g.home = ring, home
end

-- O3: d - 1 for a ring distance d, -1 with a staffed Deep Harbor, never below 0.
function R.rules.shipping_cost(g, seat, card, to)
  local n = #g.ring
  local d = math.abs(g.home[seat] - to)
  if n - d < d then d = n - d end
  local cost = d - 1 - effect(g, card, "harbor")
  return cost > 0 and cost or 0
end

local function port_name(g, i)
  return g.ring[i].port
end

---------------------------------------------------------------------------
-- Setup (O9) and scenario set-up
---------------------------------------------------------------------------

local function bad(fmt, ...)
  error("scenario: " .. string.format(fmt, ...), 0)
end

local function total_workers(g, kind)          -- O7: 29N in the bag + 2N at the start
  return (R.data.bag_per_player[kind] + (R.data.start_workers[kind] or 0)) * g.players
end

local function ship_sizes(g)
  return R.data.ships[g.players]
end

local function give_ship(card, size)
  card.ships[#card.ships + 1] = { size = size, crew = 0, cargo = {}, port = false }
end

local function standard_card(g)             -- O9: a sheep tile and ship 1, both staffed
  local card = new_card()
  add_tile(card, "sheep_herding")
  card.crew.sheep_herding = 1
  give_ship(card, ship_sizes(g)[1])
  card.ships[1].crew = 1
  return card
end

local SCENARIO_FIELDS = { gold = true, vp = true, tiles = true, workers = true, storage = true,
  bag = true, line = true, turn = true, first = true, pirate_vp = true, vp_given = true }

local function seat_list(g, sc, field)
  local t = sc[field]
  if t == nil then return {} end
  if type(t) ~= "table" then bad("%s must be a list, one entry per seat", field) end
  for s in pairs(t) do
    if math.type(s) ~= "integer" or s < 1 or s > g.players then bad("%s: %s is not a seat", field, tostring(s)) end
  end
  return t
end

local function number(v, what, min)
  if math.type(v) ~= "integer" or v < (min or 0) then bad("%s must be a whole number >= %d, not %s", what, min or 0, tostring(v)) end
  return v
end

local function scenario_card(g, s, tiles, workers, storage)
  if not tiles then                                   -- the setup's card (O9)
    tiles, workers = { sheep_herding = 1, ships = 1 }, workers or { sheep_herding = 1, ships = 1 }
  end
  local card = new_card()
  for id, n in pairs(tiles) do
    if id == "ships" then
      number(n, "tiles.ships", 0)
      if n > #ship_sizes(g) then bad("seat %d: %d ships; a %d-player game has %d", s, n, g.players, #ship_sizes(g)) end
      for k = 1, n do give_ship(card, ship_sizes(g)[k]) end
    else
      local t = TILE[id]
      if not t or (not g.options.buildings_24 and not BASE_ID[id]) then bad("unknown tile '%s'", tostring(id)) end
      number(n, id, 0)
      if n > (t.count or 1) then bad("seat %d: %d %s; the supply has %d", s, n, id, t.count or 1) end
      for _ = 1, n do add_tile(card, id) end
    end
  end
  for id, n in pairs(workers or {}) do
    if id == "ships" then
      number(n, "workers.ships", 0)
      if n > #card.ships then bad("seat %d: %d seamen on %d ships", s, n, #card.ships) end
      for k = 1, n do card.ships[k].crew = 1 end
    elseif id == "pool" then
      for kind, m in pairs(n) do
        if not card.pool[kind] then bad("unknown worker kind '%s'", tostring(kind)) end
        card.pool[kind] = number(m, "pool." .. kind, 0)
      end
    else
      local t = TILE[id]
      if not t then bad("unknown tile '%s'", tostring(id)) end
      number(n, id, 0)
      if n > (card.own[id] or 0) * t.slots then bad("seat %d: %d workers on %s, which has %d slots", s, n, id, (card.own[id] or 0) * t.slots) end
      card.crew[id] = n > 0 and n or nil
    end
  end
  for good, n in pairs(storage or {}) do
    if not GOOD_INDEX[good] then bad("unknown good '%s'", tostring(good)) end
    card.store[good] = number(n, good, 0)
  end
  if held(card, "wool") + held(card, "cloth") > wool_limit(g, card) then bad("seat %d holds more wool and cloth than its tokens", s) end
  for _, c in ipairs(COLOURS) do
    if held(card, DYE_OF[c]) + held(card, FG_OF[c]) > dye_limit(g, card, c) then bad("seat %d holds more %s than its tokens", s, c) end
  end
  return card
end

local function set_up_scenario(g, sc)
  for field in pairs(sc) do
    if not SCENARIO_FIELDS[field] then bad("unknown field '%s'", tostring(field)) end
  end
  local gold, vp = seat_list(g, sc, "gold"), seat_list(g, sc, "vp")
  local tiles, workers, storage = seat_list(g, sc, "tiles"), seat_list(g, sc, "workers"), seat_list(g, sc, "storage")
  for s = 1, g.players do
    if gold[s] then g.gold:set(s, number(gold[s], "gold", 0)) end
    if vp[s] then g.vp:set(s, number(vp[s], "vp", 0)) end
    g.card[s] = scenario_card(g, s, tiles[s], workers[s], storage[s])
  end
  g.pirate_vp = number(sc.pirate_vp or 0, "pirate_vp", 0)
  local given = g.pirate_vp
  for s = 1, g.players do given = given + g.vp:get(s) end
  g.vp_given = sc.vp_given ~= nil and number(sc.vp_given, "vp_given", 0) or given
  g.turn = number(sc.turn or 1, "turn", 1) - 1     -- begin_turn counts it
  if sc.first ~= nil then
    local f = number(sc.first, "first", 1)
    if f > g.players then bad("first: %d is not a seat", f) end
    g.first = f
  end
  g.keep_token = true                               -- the stated holder keeps it in the first turn
  if sc.line ~= nil then
    if type(sc.line) ~= "table" then bad("line must be a table of counts by kind") end
    for kind, n in pairs(sc.line) do
      if kind == "pirate" then g.line.pirate = sc.line.pirate and true or false
      elseif g.line[kind] then g.line[kind] = number(n, "line." .. kind, 0)
      else bad("unknown worker kind '%s' in line", tostring(kind)) end
    end
    g.stated_line = true
  end
  for _, kind in ipairs(KINDS) do
    local placed = g.line[kind]
    for s = 1, g.players do placed = placed + workers_on_card(g.card[s], kind) end
    local total = total_workers(g, kind)
    if sc.bag and sc.bag[kind] ~= nil then
      g.bag[kind] = number(sc.bag[kind], "bag." .. kind, 0)
    else
      g.bag[kind] = math.max(0, total - placed)
    end
    g.removed[kind] = total - placed - g.bag[kind]
    if g.removed[kind] < 0 then bad("%d %s workers in play; the game has %d", placed + g.bag[kind], kind, total) end
  end
end

function R.setup(g, scenario)
  local n = g.players
  if n < R.players.min or n > R.players.max then
    error(("Merchants of the Old World is for %d to %d players"):format(R.players.min, R.players.max), 0)
  end
  make_ring(g)
  g.gold = kontor.counter { n = n, min = 0, init = g.options.start_gold }     -- O6
  g.vp = kontor.counter { n = n, min = 0 }
  g.card = {}
  g.bag, g.line, g.removed = {}, { pirate = false }, {}
  for _, kind in ipairs(KINDS) do
    g.bag[kind] = R.data.bag_per_player[kind] * n                 -- O7, T8
    g.line[kind], g.removed[kind] = 0, 0
  end
  g.pirate_vp, g.vp_given, g.pirate_holder = 0, 0, false
  g.vp_bank = g.options.vp_bank_per_player * n                  -- O24
  g.pirate_target = R.data.pirate_target_per_player * n         -- O30
  g.pirate_every = R.data.pirate_every[n]
  g.phase, g.ending, g.bids, g.pick_order = "bid", false, false, false
  g.first = false
  if scenario then
    g.first = 1
    set_up_scenario(g, scenario)
  else
    for s = 1, n do g.card[s] = standard_card(g) end            -- O9
  end
end

---------------------------------------------------------------------------
-- VP and the VP bank (O24)
---------------------------------------------------------------------------

local function give_vp(g, seat, n)      -- seat false: the pirate
  if n <= 0 then return end
  if seat then g.vp:add(seat, n) else g.pirate_vp = g.pirate_vp + n end
  g.vp_given = g.vp_given + n           -- a gain is never cut short
end

local function vp_bank_left(g)
  if g.vp_bank == 0 then return nil end
  local left = g.vp_bank - g.vp_given
  return left > 0 and left or 0
end

---------------------------------------------------------------------------
-- Turn start (O11)
---------------------------------------------------------------------------

local function is_pirate_turn(g, turn)
  return turn % g.pirate_every == 0                       -- O11, T9: turns k, 2k, ...
end

function R.rules.move_token(g)
  if g.keep_token then g.keep_token = false
  elseif g.turn > 1 then g.first = g:next_seat(g.first) end
  g.gold:add(g.first, R.data.first_player_gold)
end

-- The kinds in the bag and their words, by which kinds are there (built
-- once; never changed).
local IN_BAG = {}
local function kinds_in_bag(g)
  local key, bag = 0, g.bag
  for i, kind in ipairs(KINDS) do
    if bag[kind] > 0 then key = key | (1 << (i - 1)) end
  end
  local e = IN_BAG[key]
  if not e then
    e = { kinds = {}, words = {} }
    for i, kind in ipairs(KINDS) do
      if key & (1 << (i - 1)) ~= 0 then e.kinds[#e.kinds + 1] = kind; e.words[#e.words + 1] = KIND_WORDS[kind] end
    end
    IN_BAG[key] = e
  end
  return e.kinds, e.words
end

local function draw_worker(g)
  local kinds, words = kinds_in_bag(g)
  local k = 1
  if #kinds > 1 then
    local weights = {}
    for i, kind in ipairs(kinds) do weights[i] = g.bag[kind] end
    k = g:chance("draw", words, weights)
  end
  local kind = kinds[k]
  g.bag[kind] = g.bag[kind] - 1
  g.line[kind] = g.line[kind] + 1
end

-- O11: floor(open slots / 2) + N; O30 (1): fewer in the bag ends the game.
local function draw_count(g)
  local open = 0
  for s = 1, g.players do open = open + empty_slots(g.card[s]) end
  local need = open // 2 + g.players
  local inbag = count_of(g.bag)
  if inbag < need then
    need = inbag
    g.ending = g.ending or "bag"
  end
  return need
end

function R.rules.draw(g)
  local need = draw_count(g)
  for _ = 1, need do draw_worker(g) end
  if g.logging then g:log("turn %d: %d drawn into the line", g.turn, need) end
end

local function turn_start(g)
  g:begin_turn(g.first)                 -- g.turn: this turn's number (O10)
  R.rules.move_token(g)
  g.active = g.first
  if g.stated_line then                 -- a scenario's line replaces the draw
    g.stated_line = false
    draw_count(g)
  else
    R.rules.draw(g)
    if is_pirate_turn(g, g.turn) then g.line.pirate = true end
  end
  if g.turn >= R.data.turn_cap then g.ending = g.ending or "turn cap" end
end

---------------------------------------------------------------------------
-- Bids and picks (O12, O13)
---------------------------------------------------------------------------

local function line_items(g)
  local n = g.line.pirate and 1 or 0
  for _, kind in ipairs(KINDS) do n = n + g.line[kind] end
  return n
end

local function bid(g)
  local seats, by_seat = {}, {}
  local bids = {}
  for s = 1, g.players do
    local gold = g.gold:get(s)
    bids[s] = 0
    if gold > 0 then                                   -- O32: with 0 gold, "bid 0" is not asked
      local o = {}
      for n = 0, gold do o[n + 1] = bid_text(n) end
      seats[#seats + 1], by_seat[s] = s, o
    end
  end
  if #seats > 0 then
    local chosen = g:choose_all(seats, "bid", by_seat)
    for _, s in ipairs(seats) do bids[s] = chosen[s] - 1 end
  end
  for s = 1, g.players do g.gold:add(s, -bids[s]) end   -- "this amount is lost"
  g.bids = bids
  if g.logging then
    local parts = {}
    for s = 1, g.players do parts[s] = g.names[s] .. " " .. bids[s] end
    g:log("bids: %s", table.concat(parts, ", "))
  end
  return bids
end

-- O12: higher bid first; equal bids in seat order from the token's holder.
function R.rules.pick_order(g, bids)
  local order, pos = {}, {}
  for i, s in ipairs(g:turn_order(g.first)) do order[i], pos[s] = s, i end
  table.sort(order, function(a, b)
    if bids[a] ~= bids[b] then return bids[a] > bids[b] end
    return pos[a] < pos[b]
  end)
  return order
end

local function pick(g, seat)
  local opts, what = {}, {}
  for _, kind in ipairs(KINDS) do
    if g.line[kind] > 0 then opts[#opts + 1] = PICK[kind]; what[#what + 1] = kind end
  end
  if g.line.pirate then opts[#opts + 1] = PICK.pirate; what[#what + 1] = "pirate" end
  local kind = what[#opts == 1 and 1 or g:choose(seat, "pick", opts)]   -- O32: one kind: not asked
  if kind == "pirate" then
    g.line.pirate = false
    g.pirate_holder = seat
  else
    g.line[kind] = g.line[kind] - 1
    g.card[seat].pool[kind] = g.card[seat].pool[kind] + 1                -- O13: to the pool
  end
  if g.logging then g:log("%s picks %s", g.names[seat], kind == "pirate" and "the pirate" or KIND_WORDS[kind]) end
end

local function bids_and_picks(g)
  if line_items(g) == 0 then return end                 -- O12: empty line, no bids
  g.phase = "bid"
  local order = R.rules.pick_order(g, bid(g))
  g.pick_order = order
  g.phase = "pick"
  while line_items(g) > 0 do                            -- O13: round the order again
    for _, s in ipairs(order) do
      if line_items(g) == 0 then break end
      g.active = s
      pick(g, s)
    end
  end
end

---------------------------------------------------------------------------
-- The build order (O14-O16, O32): per seat, a run of small steps on a
-- private copy of the seat's card. next_step gives the seat's next decision
-- (name, option texts, meanings); take_step applies one meaning.
---------------------------------------------------------------------------

local function new_order(g, s)
  return { card = copy_card(g.card[s]), gold = g.gold:get(s), paid = 0, stage = "acquire",
           ship = 0, acquired = false, extra_ship = false, steps = {}, finished = false }
end

local function affordable_acquisitions(g, s, o)
  local card = o.card
  local opts, what = { ACQUIRE_NONE }, { false }
  for _, t in ipairs(tiles_of(g)) do
    local owned = card.own[t.id] or 0
    if owned < (t.count or 1) and t.cost <= o.gold then
      opts[#opts + 1] = ACQUIRE_TEXT[t.id]; what[#what + 1] = t.id
    end
  end
  local k = #card.ships + 1
  local size = ship_sizes(g)[k]
  if size and size * R.data.ship_cost_per_slot <= o.gold and not o.extra_ship then
    opts[#opts + 1] = ACQUIRE_SHIP; what[#what + 1] = "ship"
  end
  return opts, what
end

local function acquire(g, o, id)
  local card = o.card
  if id == "ship" then
    local size = ship_sizes(g)[#card.ships + 1]
    give_ship(card, size)
    o.gold = o.gold - size * R.data.ship_cost_per_slot
    o.acquired = "ship"
  elseif id then
    add_tile(card, id)
    o.gold = o.gold - TILE[id].cost
    o.acquired = id
  end
end

local function release_options(o)
  local card = o.card
  local opts, what = {}, {}
  for _, t in ipairs(card.tiles) do
    if (card.crew[t.id] or 0) > 0 then opts[#opts + 1] = t.release; what[#what + 1] = t.id end
  end
  for k, ship in ipairs(card.ships) do
    if ship.crew > 0 then opts[#opts + 1] = RELEASE_SHIP[k]; what[#what + 1] = k end
  end
  opts[#opts + 1] = DONE; what[#what + 1] = false
  return opts, what
end

local function assign_options(o)
  local card = o.card
  local opts, what = {}, {}
  for _, t in ipairs(card.tiles) do
    local owned = card.own[t.id]
    if card.pool[t.kind] > 0 and (card.crew[t.id] or 0) < owned * t.slots then
      opts[#opts + 1] = t.assign; what[#what + 1] = t.id
    end
  end
  if card.pool.seaman > 0 then
    for k, ship in ipairs(card.ships) do
      if ship.crew == 0 then opts[#opts + 1] = ASSIGN_SHIP[k]; what[#what + 1] = k end
    end
  end
  opts[#opts + 1] = DONE; what[#what + 1] = false
  return opts, what
end

local function release(o, x)
  local card = o.card
  if type(x) == "number" then
    card.ships[x].crew = 0
    card.pool.seaman = card.pool.seaman + 1
  else
    card.crew[x] = card.crew[x] - 1
    if card.crew[x] == 0 then card.crew[x] = nil end
    local kind = TILE[x].kind
    card.pool[kind] = card.pool[kind] + 1
  end
end

local function assign(o, x)
  local card = o.card
  if type(x) == "number" then
    card.ships[x].crew = 1
    card.pool.seaman = card.pool.seaman - 1
  else
    card.crew[x] = (card.crew[x] or 0) + 1
    local kind = TILE[x].kind
    card.pool[kind] = card.pool[kind] - 1
  end
end

local function load_options(o)
  local card = o.card
  local opts, what = {}, {}
  for _, good in ipairs(GOODS) do
    if card.store[good] > 0 then opts[#opts + 1] = LOAD[good]; what[#what + 1] = good end
  end
  opts[#opts + 1] = DONE; what[#what + 1] = false
  return opts, what
end

local function sail_options(g, s, o)
  local opts, what = {}, {}
  local n, home = #g.ring, g.home[s]
  for i = 1, n - 1 do                                    -- O32: from the clockwise neighbour
    local to = (home + i - 1) % n + 1
    if R.rules.shipping_cost(g, s, o.card, to) <= o.gold then
      opts[#opts + 1] = SAIL[port_name(g, to)]; what[#what + 1] = to
    end
  end
  return opts, what
end

-- The next ship (from o.ship + 1) with a seaman, or nil.
local function next_crewed_ship(o, from)
  for k = from, #o.card.ships do
    if o.card.ships[k].crew > 0 then return k end
  end
end

-- Returns the name, options and meanings of seat s's next step, or nil when
-- its order (up to `upto`, a stage name where it pauses) is finished.
local function next_step(g, s, o, upto)
  while true do
    local stage = o.stage
    if stage == upto or stage == "finished" then return nil end
    if stage == "acquire" then
      return "acquire", affordable_acquisitions(g, s, o)
    elseif stage == "release" then
      return "release", release_options(o)
    elseif stage == "assign" then
      return "assign", assign_options(o)
    elseif stage == "load" then
      local ship = o.card.ships[o.ship]
      if not ship then o.stage = "finished"
      elseif #ship.cargo >= ship.size then o.stage = "sail"
      else return "load", load_options(o) end
    elseif stage == "sail" then
      if #o.card.ships[o.ship].cargo == 0 then o.stage = "next_ship"
      else return "sail", sail_options(g, s, o) end
    elseif stage == "next_ship" then
      local k = next_crewed_ship(o, o.ship + 1)
      if k then o.ship, o.stage = k, "load" else o.stage = "finished" end
    end
  end
end

local function take_step(g, s, o, x)
  local stage = o.stage
  if stage == "acquire" then
    acquire(g, o, x)
    if x == "ship" and not g.options.ship_is_acquisition then
      o.extra_ship = true            -- option off: the turn's building or land may still come
    else
      o.stage = "release"
    end
  elseif stage == "release" then
    if x then release(o, x) else o.stage = "assign" end
  elseif stage == "assign" then
    if x then assign(o, x) else o.stage, o.ship = "next_ship", 0 end
  elseif stage == "load" then
    local ship = o.card.ships[o.ship]
    if x then
      o.card.store[x] = o.card.store[x] - 1
      ship.cargo[#ship.cargo + 1] = x
    else
      o.stage = "sail"
    end
  elseif stage == "sail" then
    local ship = o.card.ships[o.ship]
    ship.port = x
    o.gold = o.gold - R.rules.shipping_cost(g, s, o.card, x)
    o.stage = "next_ship"
  end
end

-- One seat's order (O14, O32), entered with g:choose_orders: step by step,
-- each checked against the seat's own copy of its card (O15). A step with
-- one option is taken without asking and logged at the reveal (O32). The
-- entry changes nothing of the game; it keeps its working copy in its
-- draft, which R.view and R.board show to that seat alone (O32: "a player
-- sees their own card as the order so far leaves it"). `o` is where it
-- starts; `upto` a stage where it stops.
local function enter_order(g, seat, o, upto, draft)
  draft.order = o
  while true do
    local name, opts, what = next_step(g, seat, o, upto)
    if not name then break end
    local k = #opts == 1 and 1 or g:choose(seat, name, opts)
    o.steps[#o.steps + 1] = opts[k]
    take_step(g, seat, o, what[k])
  end
  if o.stage ~= "finished" and o.stage ~= upto then error("an order ended at stage " .. o.stage) end
  o.stage = "finished"
  draft.finished = true                                -- public: who has finished (O32)
  local card = o.card
  return { card = { own = card.own, crew = card.crew, pool = card.pool, store = card.store, ships = card.ships },
           gold = o.gold, steps = o.steps }          -- the tiles' list is rebuilt at the reveal
end

-- The tiles of a revealed card: the rule set's own, in the rule set's order.
local function relist(card)
  local list = {}
  for _, t in ipairs(TILES_24) do
    if card.own[t.id] then list[#list + 1] = t end
  end
  card.tiles = list
end

-- Every seat enters its order at once and in secret (O14, O34).
function R.rules.enter_orders(g, start, upto)
  return g:choose_orders(g:turn_order(1), "build order", function(g2, seat, draft)
    return enter_order(g2, seat, start(g2, seat), upto, draft)
  end)
end

-- O16: all orders become public at once; costs are paid to the bank.
function R.rules.reveal(g, orders)
  for s = 1, g.players do
    local o = orders[s]
    relist(o.card)
    g.card[s] = o.card
    g.gold:set(s, o.gold)
    if g.logging and #o.steps > 0 then g:log("%s: %s", g.names[s], table.concat(o.steps, ", ")) end
  end
end

local function from_the_start(g, s)
  return new_order(g, s)
end

local function from_the_ships(g, s)                    -- option secret_build = two_rounds
  local o = new_order(g, s)
  o.stage, o.ship = "next_ship", 0
  return o
end

local function build_phase(g)
  g.phase = "build"
  if g.options.secret_build == "two_rounds" then          -- O34 option: two rounds
    R.rules.reveal(g, R.rules.enter_orders(g, from_the_start, "next_ship"))
    R.rules.reveal(g, R.rules.enter_orders(g, from_the_ships))
  else
    R.rules.reveal(g, R.rules.enter_orders(g, from_the_start))
  end
end

---------------------------------------------------------------------------
-- The pirate (O17)
---------------------------------------------------------------------------

local function pirate(g)
  local holder = g.pirate_holder
  g.robbed = false
  if not holder then return end
  g.phase = "pirate"
  local opts, what = {}, {}
  for s = 1, g.players do
    if s ~= holder then
      for k, ship in ipairs(g.card[s].ships) do
        if #ship.cargo > 0 then
          opts[#opts + 1] = { "rob seat", s, "ship", k }
          what[#what + 1] = { s, k }
        end
      end
    end
  end
  if #opts == 0 or g.options.pirate_may_pass then opts[#opts + 1] = "none"; what[#what + 1] = false end
  local k = #opts == 1 and 1 or g:choose(holder, "rob", opts)
  g.robbed = what[k]
  if g.logging then
    if g.robbed then
      g:log("the pirate (%s) robs %s's ship %d", g.names[holder], g.names[g.robbed[1]], g.robbed[2])
    else
      g:log("the pirate (%s) robs no ship", g.names[holder])
    end
  end
end

---------------------------------------------------------------------------
-- Trade (O18-O22)
---------------------------------------------------------------------------

-- O19: for each port and good, the number of different players sending it.
local function sellers(g)
  local k, seen = {}, {}                 -- k[port][good]; seen[port][good]: the last seat counted
  for s = 1, g.players do
    for _, ship in ipairs(g.card[s].ships) do
      local port = ship.port
      if port then
        local count, last = k[port], seen[port]
        if not count then count, last = {}, {}; k[port], seen[port] = count, last end
        for _, good in ipairs(ship.cargo) do
          if last[good] ~= s then            -- a player counts once (O19)
            last[good] = s
            count[good] = (count[good] or 0) + 1
          end
        end
      end
    end
  end
  return k
end

-- O19: each unit's worth at a port sold to by k players.
function R.rules.price(value, k)
  local v = value - (k - 1)
  return v > 0 and v or 0
end

-- O20, O21: a ship's yield: goods VP, goods gold, and the bonuses.
function R.rules.ship_yield(g, s, ship, k)
  local card = g.card[s]
  local vp, gold, bonus_vp, bonus_gold = 0, 0, 0, 0
  local flat = g.options.raw_gold == "flat"
  local single = true
  for _, good in ipairs(ship.cargo) do
    if good ~= ship.cargo[1] then single = false end
    local fg = FG_VALUE[good]
    if fg then
      vp = vp + R.rules.price(fg, k[good])
    else
      gold = gold + R.rules.price(flat and 1 or RAW_VALUE[good], k[good])
      bonus_gold = bonus_gold + effect(g, card, "raw_bonus")           -- T7 Customs House
    end
  end
  if single and FG_VALUE[ship.cargo[1]] then bonus_vp = bonus_vp + effect(g, card, "guild_vp") * #ship.cargo end
  bonus_vp = bonus_vp + effect(g, card, "ship_vp")                     -- Trade House
  return vp, gold, bonus_vp, bonus_gold
end

function R.rules.trade(g)
  g.phase = "trade"
  local k = sellers(g)
  local robbed = g.robbed
  for s = 1, g.players do
    local card = g.card[s]
    for i, ship in ipairs(card.ships) do
      if ship.port then
        local vp, gold, bonus_vp, bonus_gold = R.rules.ship_yield(g, s, ship, k[ship.port])
        local owner_vp, owner_gold = vp + bonus_vp, gold + bonus_gold
        if robbed and robbed[1] == s and robbed[2] == i then             -- O21
          local pirate_vp = vp + bonus_vp
          owner_gold = 0                          -- all gold on the ship goes to the bank
          if g.options.pirate_takes == "goods" then pirate_vp, owner_vp = vp, bonus_vp
          else owner_vp = 0 end
          give_vp(g, false, pirate_vp)
          if g.logging then g:log("the pirate takes %d VP from %s's ship %d", pirate_vp, g.names[s], i) end
        end
        give_vp(g, s, owner_vp)
        g.gold:add(s, owner_gold)
        if g.logging then
          g:log("%s's ship %d sells %s at %s: %d VP, %d gold", g.names[s], i,
                table.concat(ship.cargo, ","), port_name(g, ship.port), owner_vp, owner_gold)
        end
        local owner = g.ring[ship.port].seat                            -- O22: the Pier
        if owner then
          give_vp(g, owner, effect(g, g.card[owner], "pier_vp"))
          g.gold:add(owner, effect(g, g.card[owner], "port_gold"))      -- T7 Lighthouse
        end
      end
    end
  end
  for s = 1, g.players do                                              -- O22: cargo back to supply
    for _, ship in ipairs(g.card[s].ships) do ship.cargo, ship.port = {}, false end
  end
  g.pirate_holder, g.robbed = false, false                             -- O17: back beside the bank
  if g.pirate_vp >= g.pirate_target then g.ending = g.ending or "pirate" end   -- O30 (2)
  if vp_bank_left(g) == 0 then g.ending = g.ending or "VP bank" end           -- O30 (3)
end

---------------------------------------------------------------------------
-- Limit check (O23)
---------------------------------------------------------------------------

function R.rules.limit_check(g)
  for s = 1, g.players do
    local card = g.card[s]
    local keep = math.max(R.data.pool_keeps, best_effect(g, card, "keeps"))
    local extra = count_of(card.pool) - keep
    for _, kind in ipairs(KINDS) do                       -- seamen, then land, then facility
      if extra <= 0 then break end
      local n = math.min(extra, card.pool[kind])
      if n > 0 then
        card.pool[kind] = card.pool[kind] - n
        if g.options.removed_workers == "bag" then g.bag[kind] = g.bag[kind] + n
        else g.removed[kind] = g.removed[kind] + n end
        extra = extra - n
        if g.logging then g:log("%s removes %d %s", g.names[s], n, KIND_WORDS[kind]) end
      end
    end
  end
end

---------------------------------------------------------------------------
-- Production (O25-O29), in the rulebook's order: FG, dyes, cloth, wool
---------------------------------------------------------------------------

-- O25, option production_optional: how many of `max` each seat makes.
local function how_many(g, name, max_by_seat, good)
  local made = {}
  for s = 1, g.players do made[s] = max_by_seat[s] end
  if not g.options.production_optional then return made end
  local seats, by_seat = {}, {}
  for s = 1, g.players do
    local m = max_by_seat[s]
    if m > 0 then
      local o = {}
      for n = 0, m do o[n + 1] = { "make", n, good } end
      seats[#seats + 1], by_seat[s] = s, o
    end
  end
  if #seats > 0 then
    local chosen = g:choose_all(seats, name, by_seat)
    for _, s in ipairs(seats) do made[s] = chosen[s] - 1 end
  end
  return made
end

-- O26: capacity of the dye houses, with the Mordant Bath.
function R.rules.fg_capacity(g, card)
  local cap = effect(g, card, "fg_per_worker")
  local bath = effect(g, card, "fg_per_dye_house_worker")
  if bath > 0 then
    for _, id in ipairs(R.data.dye_houses) do cap = cap + bath * staffed(card, id) end
  end
  return cap
end

local function dyes_in_store(card)
  local n, colours = 0, 0
  for _, c in ipairs(COLOURS) do
    local d = card.store[DYE_OF[c]]
    n = n + d
    if d > 0 then colours = colours + 1 end
  end
  return n, colours
end

local function flip_to_fg(card, c)
  card.store[DYE_OF[c]] = card.store[DYE_OF[c]] - 1
  card.store[FG_OF[c]] = card.store[FG_OF[c]] + 1
  card.store.cloth = card.store.cloth - 1              -- its token goes back to the supply
end

-- O33: the colours, one unit at a time, only while there is a real choice;
-- option fg_colours = auto: the most valuable first.
local function fg_colours(g, left)
  local function forced(s)
    local card = g.card[s]
    local dyes, colours = dyes_in_store(card)
    return left[s] >= dyes or colours <= 1
  end
  for s = 1, g.players do
    local card = g.card[s]
    while left[s] > 0 and (forced(s) or g.options.fg_colours == "auto") do
      for i = #COLOURS, 1, -1 do
        local c = COLOURS[i]
        if card.store[DYE_OF[c]] > 0 then flip_to_fg(card, c); break end
      end
      left[s] = left[s] - 1
    end
  end
  while true do
    local seats, by_seat, meaning = {}, {}, {}
    for s = 1, g.players do
      if left[s] > 0 then
        local o, w = {}, {}
        for _, c in ipairs(COLOURS) do
          if g.card[s].store[DYE_OF[c]] > 0 then o[#o + 1] = COLOUR_TEXT[c]; w[#w + 1] = c end
        end
        seats[#seats + 1], by_seat[s], meaning[s] = s, o, w
      end
    end
    if #seats == 0 then return end
    local chosen = g:choose_all(seats, "colour", by_seat)
    for _, s in ipairs(seats) do
      flip_to_fg(g.card[s], meaning[s][chosen[s]])
      left[s] = left[s] - 1
      local card = g.card[s]
      while left[s] > 0 and forced(s) do           -- the rest may be forced now
        for i = #COLOURS, 1, -1 do
          local c = COLOURS[i]
          if card.store[DYE_OF[c]] > 0 then flip_to_fg(card, c); break end
        end
        left[s] = left[s] - 1
      end
    end
  end
end

function R.rules.finished_goods(g)                            -- O26
  local max = {}
  for s = 1, g.players do
    local card = g.card[s]
    max[s] = math.min(R.rules.fg_capacity(g, card), card.store.cloth, (dyes_in_store(card)))
  end
  fg_colours(g, how_many(g, "make_fg", max, "finished goods"))
end

-- O27: a colour's capacity: its staffed plantations, plus the extract
-- buildings that need one of them staffed.
function R.rules.dye_capacity(g, card, c)
  local land = LAND[c]
  local cap = staffed(card, land)
  if cap > 0 then
    for _, t in ipairs(HAVING[g.options.buildings_24].dye_per_worker) do
      if t.dye == c and t.needs == land then cap = cap + t.dye_per_worker * staffed(card, t.id) end
    end
  end
  return cap
end

function R.rules.dyes(g)                                     -- O27
  for _, c in ipairs(COLOURS) do
    local max = {}
    for s = 1, g.players do
      local card = g.card[s]
      local cap = R.rules.dye_capacity(g, card, c)
      if cap > 0 then
        local room = dye_limit(g, card, c) - card.store[DYE_OF[c]] - card.store[FG_OF[c]]
        max[s] = math.max(0, math.min(cap, room))
      else
        max[s] = 0
      end
    end
    local made = how_many(g, "make_dye", max, DYE_OF[c])
    for s = 1, g.players do
      local card = g.card[s]
      card.store[DYE_OF[c]] = card.store[DYE_OF[c]] + made[s]
    end
  end
end

function R.rules.cloth_capacity(g, card)                      -- O28: the looms
  return effect(g, card, "cloth") + effect(g, card, "cloth_per_worker")
end

function R.rules.cloth(g)                                    -- O28
  local max = {}
  for s = 1, g.players do
    local card = g.card[s]
    max[s] = math.min(R.rules.cloth_capacity(g, card), card.store.wool)
  end
  local made = how_many(g, "make_cloth", max, "cloth")
  for s = 1, g.players do
    local card = g.card[s]
    card.store.wool = card.store.wool - made[s]               -- each unit flips a wool token
    card.store.cloth = card.store.cloth + made[s]
  end
end

function R.rules.wool_capacity(g, card)                       -- O29
  local sheep = staffed(card, "sheep_herding")
  if sheep == 0 then return 0 end
  return sheep + effect(g, card, "wool_if_sheep") + effect(g, card, "wool_per_sheep") * sheep
end

function R.rules.wool(g)                                     -- O29
  local max = {}
  for s = 1, g.players do
    local card = g.card[s]
    local room = wool_limit(g, card) - card.store.wool - card.store.cloth
    max[s] = math.max(0, math.min(R.rules.wool_capacity(g, card), room))
  end
  local made = how_many(g, "make_wool", max, "wool")
  for s = 1, g.players do g.card[s].store.wool = g.card[s].store.wool + made[s] end
end

local function production(g)
  g.phase = "produce"
  R.rules.finished_goods(g)
  R.rules.dyes(g)
  R.rules.cloth(g)
  R.rules.wool(g)
end

---------------------------------------------------------------------------
-- The game (O10)
---------------------------------------------------------------------------

function R.play(g)
  if not g.first then
    g.first = g:chance("first player", g.names)              -- O9
    g.keep_token = true
  end
  while true do
    turn_start(g)
    bids_and_picks(g)
    build_phase(g)
    pirate(g)
    R.rules.trade(g)
    R.rules.limit_check(g)
    production(g)
    g.line.pirate = false
    if g.ending then                                          -- O30
      g.phase = "over"
      if g.logging then g:log("the game ends after turn %d (%s)", g.turn, g.ending) end
      return
    end
  end
end

---------------------------------------------------------------------------
-- Scores and winners (O31)
---------------------------------------------------------------------------

function R.scores(g)
  return g.vp:values()
end

-- O31: the nominal value of the goods in storage.
function R.rules.goods_value(g, s)
  local card, n = g.card[s], 0
  for _, good in ipairs(GOODS) do n = n + card.store[good] * (FG_VALUE[good] or RAW_VALUE[good]) end
  return n
end

function R.winners(g)
  local best, winners
  for s = 1, g.players do
    local key = { g.vp:get(s), g.gold:get(s), R.rules.goods_value(g, s) }
    local cmp = 0
    if best then
      for i = 1, 3 do
        if key[i] ~= best[i] then cmp = key[i] > best[i] and 1 or -1; break end
      end
    end
    if not best or cmp > 0 then best, winners = key, { s }
    elseif cmp == 0 then winners[#winners + 1] = s end
  end
  return winners
end

---------------------------------------------------------------------------
-- For the bots (docs/bots.md)
---------------------------------------------------------------------------

-- R.play picks up from the state when a turn begins (g.first is set, and
-- turn_start begins the next turn): a copy of the game for search restarts
-- it from a saved state. Nothing is hidden in a pile: the bag is counts and
-- its draws are chance, which a copy draws again.
R.resumes_at_turn = true

-- Only VP win, and most of a game's VP come late, from a chain built over
-- several turns: mcts scores a rollout that stops before the end by the
-- seat's lead in R.score (about 3 VP is a clear lead), not by who leads.
R.bot_options = { mcts = { margin = 3 } }

-- What a position is worth to a seat, as the bots see it, in VP. Only VP
-- win (O31); gold and raw goods only break ties and pay the way, so they
-- count a tenth of a VP a gold. What leads to VP counts too, or a bot would
-- hoard gold and never build the chain that makes them:
-- - a finished good its VP on a ship (O20), three quarters of it in storage;
-- - a ship with its seaman half a VP: without one no good reaches a port;
-- - the works: what the card's staffed tiles make in a turn (O26-O29), each
--   stage limited by its input and by the room in storage (O5; what the
--   next stage uses makes room), counted for WORKS_TURNS turns: finished
--   goods at three quarters of their VP, cloth and dyes a fifth of a VP,
--   wool at its gold. So a tile bought and staffed pays for itself, and the
--   missing link of a chain is worth buying.
local GOLD, STORED_FG, CREWED_SHIP, INPUT = 1 / 10, 3 / 4, 1 / 2, 1 / 5
local WORKS_TURNS = 2

local function goods_worth(card)
  local n = 0
  for _, good in ipairs(GOODS) do
    local fg = FG_VALUE[good]
    n = n + card.store[good] * (fg and STORED_FG * fg or GOLD * RAW_VALUE[good])
  end
  for _, ship in ipairs(card.ships) do
    if ship.crew > 0 then n = n + CREWED_SHIP end
    for _, good in ipairs(ship.cargo) do n = n + (FG_VALUE[good] or GOLD * RAW_VALUE[good]) end
  end
  return n
end

local function works_worth(g, card)
  local store, fg_cap = card.store, R.rules.fg_capacity(g, card)
  local wool_cap = R.rules.wool_capacity(g, card)
  local cloth = math.min(R.rules.cloth_capacity(g, card), wool_cap + store.wool)
  local wool_room = wool_limit(g, card) - store.wool - store.cloth + cloth
  local wool = math.max(0, math.min(wool_cap, wool_room))
  local dyes, fg_vp = 0, 0
  for _, c in ipairs(COLOURS) do
    local room = dye_limit(g, card, c) - store[DYE_OF[c]] - store[FG_OF[c]] + fg_cap
    local n = math.max(0, math.min(R.rules.dye_capacity(g, card, c), room))
    dyes, fg_vp = dyes + n, fg_vp + n * FG_VALUE[FG_OF[c]]
  end
  local fg = math.min(fg_cap, cloth, dyes)
  local n = wool * GOLD * RAW_VALUE.wool + (cloth + dyes) * INPUT
  if fg > 0 then n = n + fg * STORED_FG * fg_vp / dyes end
  return WORKS_TURNS * n
end

-- While its build order is open, a seat's card and gold as the order
-- leaves them (O34: a seat sees its own order).
function R.score(g, seat)
  local card, gold = g.card[seat], g.gold:get(seat)
  local d = g:draft(seat)
  if d and d.order then card, gold = d.order.card, d.order.gold end
  return g.vp:get(seat) + GOLD * gold + goods_worth(card) + works_worth(g, card)
end

-- Position evaluation (docs/bots.md)
--
-- R.estimate(g, seat): the VP the seat may expect at the end (O31), from
-- what it may see: R.score's parts (VP; a tenth of a VP a gold; goods on
-- ships and in storage; ships with their seaman), and the works counted
-- for the turns the game may still run, at most WORKS_TURNS: none on the
-- last turn (R.data.turn_cap). Tile costs and the chain's capacities come
-- from R.data and R.rules, so a variant's tiles count.
function R.estimate(g, seat)
  local card, gold = g.card[seat], g.gold:get(seat)
  local d = g:draft(seat)
  if d and d.order then card, gold = d.order.card, d.order.gold end
  local turns = math.max(0, math.min(WORKS_TURNS, R.data.turn_cap - g.turn))
  if g.ending then turns = 0 end
  return g.vp:get(seat) + GOLD * gold + goods_worth(card) + works_worth(g, card) * turns / WORKS_TURNS
end

---------------------------------------------------------------------------
-- Invariants: every worker accounted for, tokens within supplies, gold never
-- negative, VP given never more than the bank allows.
---------------------------------------------------------------------------

function R.invariants(g)
  for _, kind in ipairs(KINDS) do
    local n = g.bag[kind] + g.line[kind] + g.removed[kind]
    for s = 1, g.players do
      local card = g.card[s]                 -- an open order changes nothing (O15)
      n = n + workers_on_card(card, kind)
    end
    if n ~= total_workers(g, kind) then
      return ("%s workers: %d accounted for, expected %d"):format(kind, n, total_workers(g, kind))
    end
    if g.bag[kind] < 0 or g.line[kind] < 0 then return kind .. ": a negative count" end
  end
  local given = g.pirate_vp
  for s = 1, g.players do
    local card = g.card[s]
    given = given + g.vp:get(s)
    if g.gold:get(s) < 0 then return "negative gold" end
    local d = g:draft(s)
    if d and d.order and d.order.gold < 0 then return "seat " .. s .. ": an order spends more gold than it has" end
    if held(card, "wool") + held(card, "cloth") > wool_limit(g, card) then return "seat " .. s .. ": wool + cloth above the tokens" end
    for _, c in ipairs(COLOURS) do
      if held(card, DYE_OF[c]) + held(card, FG_OF[c]) > dye_limit(g, card, c) then
        return "seat " .. s .. ": " .. c .. " above the tokens"
      end
    end
    for id, n in pairs(card.own) do
      local t = TILE[id]
      if n > (t.count or 1) then return "seat " .. s .. ": more " .. id .. " than the supply" end
      if (card.crew[id] or 0) > n * t.slots then return "seat " .. s .. ": " .. id .. " overstaffed" end
    end
    for id in pairs(card.crew) do
      if not card.own[id] then return "seat " .. s .. ": workers on " .. id .. ", which it does not own" end
    end
    for _, good in ipairs(GOODS) do
      if card.store[good] < 0 then return "seat " .. s .. ": negative " .. good end
    end
    if #card.ships > #ship_sizes(g) then return "seat " .. s .. ": too many ships" end
  end
  if given ~= g.vp_given then return ("VP: %d held, %d given"):format(given, g.vp_given) end
  -- O24: a gain is never cut short, so the last turn's trade may give more
  -- than the bank holds; once the bank is empty, this turn is the last.
  if g.vp_bank > 0 and g.vp_given >= g.vp_bank and not g.ending then
    return ("the VP bank is empty (%d given of %d) but the game goes on"):format(g.vp_given, g.vp_bank)
  end
end

---------------------------------------------------------------------------
-- Views (O34) and the board
---------------------------------------------------------------------------

local function card_view(g, card)
  local v = { tiles = {}, staffed = {}, pool = {}, storage = {}, ships = {} }
  for id, n in pairs(card.own) do v.tiles[id] = n end
  for id, n in pairs(card.crew) do v.staffed[id] = n end
  for k, n in pairs(card.pool) do v.pool[k] = n end
  for good, n in pairs(card.store) do if n > 0 then v.storage[good] = n end end
  for k, ship in ipairs(card.ships) do
    v.ships[k] = { size = ship.size, seaman = ship.crew > 0, cargo = { table.unpack(ship.cargo) },
                   port = ship.port and port_name(g, ship.port) or false }
  end
  return v
end

local function pirate_turns(g, n)
  local t, turn = {}, g.turn
  while #t < n do
    turn = turn + 1
    if is_pirate_turn(g, turn) then t[#t + 1] = turn end
  end
  return t
end

function R.view(g, seat)
  local v = {
    turn = g.turn, phase = g.phase, first = g.first, pirate_holder = g.pirate_holder,
    pirate_vp = g.pirate_vp, pirate_target = g.pirate_target,
    vp_bank = g.vp_bank, vp_bank_left = vp_bank_left(g), vp_given = g.vp_given,
    bag = {}, line = { pirate = g.line.pirate }, removed = {},
    pirate_turns = pirate_turns(g, 3), ending = g.ending,
    ports = {}, players = {}, bids = g.bids or nil,
  }
  for _, kind in ipairs(KINDS) do
    v.bag[kind], v.line[kind], v.removed[kind] = g.bag[kind], g.line[kind], g.removed[kind]
  end
  for i, e in ipairs(g.ring) do v.ports[i] = { port = e.port, seat = e.seat } end
  for s = 1, g.players do
    local p = card_view(g, g.card[s])
    p.name, p.gold, p.vp, p.port = g.names[s], g.gold:get(s), g.vp:get(s), port_name(g, g.home[s])
    local d = g:draft(s)
    if d then
      p.order_finished = d.finished or false
      local o = seat == s and d.order           -- O34: a seat sees its own order only
      if o then
        p.order = { card = card_view(g, o.card), gold = o.gold, steps = { table.unpack(o.steps) } }
      end
    end
    v.players[s] = p
  end
  return v
end

local SHORT = { wool = "wool", cloth = "cloth" }
local COLOUR_SHORT = { blue = "bl", red = "re", yellow = "ye", brown = "br", black = "bk" }
for _, c in ipairs(R.data.colours) do
  local short = COLOUR_SHORT[c] or c
  SHORT["dye:" .. c], SHORT["fg:" .. c] = short, short:upper()
end

local SHORT_TILE = {
  sheep_herding = "sheep", woad_plantation = "woad", madder_plantation = "madder",
  weld_plantation = "weld", walnut_plantation = "walnut", iron_plantation = "iron",
  shearing_shed = "shed", fulling_mill = "fulling", machine_shears = "shears",
  back_strap_loom = "strap", warp_weighted_loom = "warp", power_loom = "power",
  walnut_extract_mill = "wmill", ironworks = "ironwk", dye_house = "dyeh",
  large_dye_house = "ldyeh", mordant_bath = "mordant", deep_harbor = "harbor", pier = "pier",
  tavern = "tavern", trade_house = "trade", guild_hall = "guild", lodge = "lodge",
  woad_vat = "vat", madder_mill = "mmill", weld_press = "press", wool_store = "wstore",
  dye_cellar = "cellar", customs_house = "customs", lighthouse = "light",
}

local function abbrev(id)
  return SHORT_TILE[id] or id
end

-- Adds `text` to `out`, broken at spaces into lines of at most 79 characters.
local function wrapped(out, text)
  while #text > 79 do
    local cut = text:sub(1, 79):match("^.*() ")
    if not cut or cut <= 6 then break end
    out[#out + 1] = text:sub(1, cut - 1)
    text = "      " .. text:sub(cut + 1)
  end
  out[#out + 1] = text
end

local function card_lines(g, s, card, gold, out, mark)
  local ring_port = port_name(g, g.home[s])
  local pool = card.pool
  out[#out + 1] = string.format("%s%-10s %-10s %3d gold %3d VP  pool s%d l%d f%d%s%s", mark,
    g.names[s]:sub(1, 10), ring_port:sub(1, 10), gold, g.vp:get(s), pool.seaman, pool.land, pool.facility,
    g.first == s and "  [token]" or "", g.pirate_holder == s and "  [pirate]" or "")
  local tiles = {}
  for _, t in ipairs(TILES_24) do
    local n = card.own[t.id]
    if n then tiles[#tiles + 1] = string.format("%s %d/%d", abbrev(t.id), card.crew[t.id] or 0, n * t.slots) end
  end
  wrapped(out, "    " .. (#tiles > 0 and table.concat(tiles, " ") or "no tiles"))
  local store = {}
  for _, good in ipairs(GOODS) do
    if card.store[good] > 0 then store[#store + 1] = SHORT[good] .. " " .. card.store[good] end
  end
  local ships = {}
  for k, ship in ipairs(card.ships) do
    local txt = string.format("%d:%d%s", k, ship.size, ship.crew > 0 and "*" or "-")
    if #ship.cargo > 0 then
      local c = {}
      for i, good in ipairs(ship.cargo) do c[i] = SHORT[good] end
      txt = txt .. "[" .. table.concat(c, ",") .. (ship.port and ("->" .. port_name(g, ship.port)) or "") .. "]"
    end
    ships[#ships + 1] = txt
  end
  wrapped(out, "    store " .. (#store > 0 and table.concat(store, " ") or "empty") .. " | ships " .. table.concat(ships, " "))
end

function R.board(g, seat)
  local out = {}
  local left = vp_bank_left(g)
  out[1] = string.format("Old World turn %d, %s%s | VP bank %s | pirate %d/%d VP, turns %s",
    g.turn, g.phase, g.ending and (" (last: " .. g.ending .. ")") or "",
    left and (left .. "/" .. g.vp_bank) or "off", g.pirate_vp, g.pirate_target,
    ((is_pirate_turn(g, g.turn) and g.phase ~= "over") and "now, " or "") .. table.concat(pirate_turns(g, 3), ","))
  out[2] = string.format("Line: seamen %d, land %d, facility %d%s | Bag: %d, %d, %d | removed %d",
    g.line.seaman, g.line.land, g.line.facility, g.line.pirate and ", pirate" or "",
    g.bag.seaman, g.bag.land, g.bag.facility, count_of(g.removed))
  local ports = {}
  for _, e in ipairs(g.ring) do ports[#ports + 1] = e.port .. (e.seat and "" or "(T)") end
  out[3] = "Ring: " .. table.concat(ports, " ")
  for s = 1, g.players do
    local d = g:draft(s)
    local card, gold = g.card[s], g.gold:get(s)
    local mark = "  "
    if d then
      local o = (seat == nil or seat == s) and d.order                  -- O34
      if o then card, gold = o.card, o.gold end
      mark = d.finished and "v " or "  "
    end
    card_lines(g, s, card, gold, out, mark)
  end
  out[#out + 1] = "Tiles: crew/slots. Ships: n:size, * manned. Store: dyes lower case, FG upper."
  return table.concat(out, "\n")
end

return R
