-- Merchants of the Old World: the base rule set, 2 to 8 players.
--
-- Sources: the rulebook merchants_of_the_old_world.txt and the rulings
-- O1..O34 and tables T1..T11, cited in comments where they apply;
-- docs/rules/old_world.md states them and the rules as implemented
-- here.
--
-- State (all on g):
--   g.gold, g.vp  counters, one per seat (min 0)
--   g.card[s]     seat s's player card: own[tile], crew[tile] (workers on the
--                 tiles of that kind), pool[kind], store[good], ships[k] =
--                 { size, crew = 0|1, cargo = {goods}, port = ring index|false };
--                 and, kept as they change (see new_card): tiles (its kinds of
--                 tile), sold_out, manned, room (bit sets), open (free slots)
--   g.bag         workers in the bag by kind; g.line the line by kind, and
--                 g.line.pirate; g.removed workers out of the game by kind
--   g.first       the first player token's holder; g.pirate_holder
--   g.pirate_vp, g.vp_given (against the VP bank, O24)
--   g:draft(s)    while the build orders are open: seat s's entry's draft;
--                 order_of(g, s) its order, whose card is the card as the
--                 order leaves it, the seat's desk (see new_order), O14-O16
--   g._desks (new_order), g._most (most_by_seat), card._fx (effects): kept
--                 for speed, "_" fields: not state
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
    extract_mill_needs = { default = "staffed", type = "string", values = { "staffed", "owned", "build" },
      doc = "an extract building (Walnut Extract Mill, Ironworks) works with a staffed plantation of its colour, "
        .. "an owned one, or always once built, which needs one owned (O27)" },
    map = { default = "ring", type = "string", values = { "ring", "fixed" },
      doc = "shipping costs count the ports in play as a ring, or all 8 ports, empty ones passed too (O2, O3)" },
    new_tiles_work_this_turn = { default = true, type = "boolean",
      doc = "a tile or ship acquired works this turn; off: it is placed at the turn's end and works from the next (O16)" },
    forced_placement = { default = false, type = "boolean",
      doc = "a worker in the pool must go onto a free slot of its kind while there is one (O14b)" },
    first_pirate_turn = { default = 0, type = "integer", min = 0, max = 30,
      doc = "the pirate's first turn, then every k turns of the piracy table; 0: turn k (O11)" },
    first_player_gold = { default = 1, type = "integer", min = 0, max = 100,
      doc = "gold the first player token's holder gains each turn (O11)" },
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
  kind_plurals = { seaman = "seamen", land = "land workers", facility = "facility workers" },
  bag_per_player = { seaman = 3, land = 11, facility = 15 },           -- O7, T8
  start_workers = { seaman = 1, land = 1 },                             -- O9
  start_gold = 3,                                                       -- O6 (the option start_gold overrides it)
  first_player_gold = 1,                                                -- O11 (the option first_player_gold overrides it)
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
local KINDS, KIND_WORDS, COLOURS, GOODS, GOOD_INDEX, GOOD_BIT, RAW_VALUE, FG_VALUE, FG_OF, DYE_OF
local LAND, LAND_BIT, LOOMS, TILE, TILE_ID, TILES_BASE, TILES_24, BASE_ID, HAVING, EXTRACT
local DYE_MAKERS                     -- DYE_MAKERS[colour]: the bits of its plantation and extract tiles
-- The building effects (T5, T7); those ending in _per_worker count staffed slots.
local EFFECTS = { "wool_if_sheep", "wool_per_sheep", "cloth", "cloth_per_worker", "dye_per_worker",
  "fg_per_worker", "fg_per_dye_house_worker", "harbor", "pier_vp", "keeps", "ship_vp", "guild_vp",
  "wool_limit", "dye_limit", "raw_bonus", "port_gold" }
local PER_WORKER = { wool_per_sheep = true, cloth_per_worker = true, dye_per_worker = true,
  fg_per_worker = true, fg_per_dye_house_worker = true }
local PICK, RELEASE_SHIP, ASSIGN_SHIP, LOAD, SAIL, ACQUIRE_TEXT, BID, COLOUR_TEXT, MAX_COST, MIN_COST
local COSTING_UPTO                   -- COSTING_UPTO[gold]: the bits of the tiles costing at most that
local WITH_EFFECTS                   -- the bits of the tiles with a field of EFFECTS
local FX                             -- FX[key]: summed effects by their key (effects_of), or false
local EMPTY_POOL, EMPTY_STORE        -- functions: a new card's pool and storage (see zeros)
local STORED, COPY_STORE             -- functions: the goods in a storage, a storage copied (see by_good)
-- Option lists made once and shared (never changed once made): the bids
-- by gold, the picks by what is in the line (constants, kontor.options:
-- checked once), and MENUS[step][key] the build order's (acquire,
-- release, assign, load, sail) by what they offer (plain lists: random
-- play meets a few new ones a game, and a constant costs more to make
-- than the checks of its few decisions save).
-- SHIP_BIT[k], KIND_BITS[kind]: ship k, and what a kind of worker staffs,
-- in a card's bit sets (see new_card).
local BIDS, PICKS, MENUS, SHIP_BIT, KIND_BITS, SEAMAN_BITS, LAND_BITS, FACILITY_BITS
local ACQUIRE_NONE, ACQUIRE_SHIP = "acquire none", "acquire ship"
local NO_OFFER, NO_TILE = { ACQUIRE_NONE }, { false }          -- nothing to acquire
local DONE = "done"

-- A function making a table of `keys`, each 0, with one table
-- constructor: the table is made at its size at once (filled a key at a
-- time, it grows four or five times, which costs twice as much).
local function zeros(keys)
  local fields = {}
  for i, key in ipairs(keys) do fields[i] = ("[%q] = 0"):format(key) end
  return load("return { " .. table.concat(fields, ", ") .. " }")
end

-- Functions reading a storage good by good, each good named in their
-- code (made by R.prepare from GOODS, as zeros): STORED(store), the goods
-- it holds as a bit set (GOOD_BIT); COPY_STORE(into, from).
local function by_good(goods)
  local held, fields = {}, {}
  for i, good in ipairs(goods) do
    held[i] = ("(s[%q] > 0 and %d or 0)"):format(good, 1 << (i - 1))
    fields[i] = ("[%q]"):format(good)
  end
  local stored = load("local s = ...; return " .. table.concat(held, " | "))
  local copy = load("local into, from = ...; into" .. table.concat(fields, ", into") .. " = from"
    .. table.concat(fields, ", from"))
  return stored, copy
end

-- R.prepare and what only it uses (a block: the main chunk is at Lua's
-- 200 locals)
do
  -- A tile's numbers (T4, T5, T7) are whole numbers: a variant that sets one
  -- to another value (guild_vp = "two") is told here, with the tile and the
  -- field, not by a sum that fails in the one game that staffs the tile.
  local function check_tiles(d)
    -- O9: the workers each seat starts with, by kind (seaman, land, facility)
    for kind, n in pairs(d.start_workers) do
      if not d.kind_words[kind] then
        error(("R.data.start_workers: unknown worker kind '%s' (kinds: %s)"):format(kind, table.concat(d.kinds, ", ")), 0)
      end
      if math.type(n) ~= "integer" or n < 0 then
        error(("R.data.start_workers.%s must be a whole number >= 0, not %s"):format(kind,
          type(n) == "string" and ("'" .. n .. "'") or tostring(n)), 0)
      end
    end
    for _, list in ipairs { "lands", "buildings", "buildings_24" } do
      for i, t in ipairs(d[list]) do
        for _, field in ipairs { "cost", "slots", "count", table.unpack(EFFECTS) } do
          local v = t[field]
          if v ~= nil and (math.type(v) ~= "integer" or v < 0) then
            error(("R.data.%s[%d] (%s): %s must be a whole number >= 0, not %s"):format(list, i, tostring(t.id), field,
              type(v) == "string" and ("'" .. v .. "'") or tostring(v)), 0)
          end
        end
      end
    end
  end

  -- T3-T5: the tiles are lists of tables, each with its id: a variant that
  -- drops a list (R.data.lands = nil) or puts a number in one is told so,
  -- not by an index of nil in the rule set's own lines.
  local function check_lists(d)
    for _, list in ipairs { "lands", "buildings", "buildings_24" } do
      local tiles = d[list]
      if type(tiles) ~= "table" then
        error(("R.data.%s must be a list of tiles (tables with an id), not %s"):format(list, tostring(tiles)), 0)
      end
      for i, t in ipairs(tiles) do
        if type(t) ~= "table" or type(t.id) ~= "string" then
          error(("R.data.%s[%d] must be a tile (a table with an id), not %s"):format(list, i,
            type(t) == "table" and "a table without one" or tostring(t)), 0)
        end
      end
    end
  end

  -- O6, O11: R.data's start_gold and first_player_gold are the defaults of
  -- the options of those names, which the game reads: a variant that
  -- changes the data changes the game (one that sets the option's default,
  -- the data left as it was, keeps that; an option given wins either way).
  local DATA_AT_PREPARE = {}

  function R.prepare()
    local d = R.data
    check_lists(d)
    for _, k in ipairs { "start_gold", "first_player_gold" } do
      if DATA_AT_PREPARE[k] ~= nil and d[k] ~= DATA_AT_PREPARE[k] then R.options[k].default = d[k] end
      DATA_AT_PREPARE[k] = d[k]
    end
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
    GOOD_BIT = {}
    for i, good in ipairs(GOODS) do GOOD_INDEX[good], GOOD_BIT[good] = i, 1 << (i - 1) end   -- O18: 12 goods
    EMPTY_POOL, EMPTY_STORE = zeros(KINDS), zeros(GOODS)
    STORED, COPY_STORE = by_good(GOODS)
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
    EXTRACT = { {}, {} }     -- EXTRACT[buildings_24 and 2 or 1][colour]: the tiles adding dye of it (O27)
    for i, having in ipairs { HAVING[false], HAVING[true] } do
      for _, c in ipairs(COLOURS) do EXTRACT[i][c] = {} end
      for _, t in ipairs(having.dye_per_worker) do
        local list = EXTRACT[i][t.dye]
        if list then list[#list + 1] = t end
      end
    end
    -- t.index: a tile's place in the canonical order, as a card lists its
    -- tiles; t.bit marks it in a card's sold_out (see add_tile).
    if #TILES_24 > 50 then error(("R.data: %d kinds of tile, at most 50 (a card marks them in a bit set)"):format(#TILES_24), 0) end
    MAX_COST, MIN_COST = 0, math.huge
    LAND_BIT, LOOMS, TILE_ID, WITH_EFFECTS = {}, 0, {}, 0   -- LAND_BIT[colour]: its plantation's bit
    check_tiles(d)
    for i, t in ipairs(TILES_24) do
      t.index, t.bit, t.release, t.assign = i, 1 << (i - 1), "release " .. t.id, "assign " .. t.id
      TILE_ID[i] = t.id                                   -- a tile's id by its index
      if t.land and t.dye then LAND_BIT[t.dye] = t.bit end
      if t.cloth or t.cloth_per_worker then LOOMS = LOOMS | t.bit end     -- O28: the looms
      t.effects = {}                                   -- its fields of EFFECTS (see effects_of)
      for _, field in ipairs(EFFECTS) do if t[field] then t.effects[#t.effects + 1] = field end end
      if t.effects[1] then WITH_EFFECTS = WITH_EFFECTS | t.bit end
      if t.cost > MAX_COST then MAX_COST = t.cost end
      if t.cost < MIN_COST then MIN_COST = t.cost end
    end
    DYE_MAKERS = {}
    for c, bit in pairs(LAND_BIT) do DYE_MAKERS[c] = bit end
    for _, t in ipairs(TILES_24) do
      if t.dye_per_worker and DYE_MAKERS[t.dye] then DYE_MAKERS[t.dye] = DYE_MAKERS[t.dye] | t.bit end
    end
    -- t.fx_place: a tile with effects, its digit in the key of a card's
    -- effects (its workers times this; the base: the most workers a tile
    -- may hold, plus 1); the effects are not kept by key (FX false) when
    -- the key would not fit in an integer.
    local base, place = 2, 1
    for _, t in ipairs(TILES_24) do
      if t.effects[1] then base = math.max(base, (t.count or 1) * t.slots + 1) end
    end
    FX = { size = 0 }
    for _, t in ipairs(TILES_24) do
      if t.effects[1] then
        t.fx_place = place
        if place > math.maxinteger // base then FX = false else place = place * base end
      end
    end
    if MAX_COST > 1000 then error(("R.data: a tile costs %d gold, at most 1000"):format(MAX_COST), 0) end
    COSTING_UPTO = {}
    for gold = 0, MAX_COST do
      COSTING_UPTO[gold] = 0
      for _, t in ipairs(TILES_24) do
        if t.cost <= gold then COSTING_UPTO[gold] = COSTING_UPTO[gold] | t.bit end
      end
    end
    for k = 1, 8 do RELEASE_SHIP[k], ASSIGN_SHIP[k] = "release ship " .. k, "assign ship " .. k end
    PICK = { seaman = "pick seaman", land = "pick land worker", facility = "pick facility worker",
             pirate = "pick pirate" }
    LOAD, SAIL, COLOUR_TEXT, BID = {}, {}, {}, {}
    for _, good in ipairs(GOODS) do LOAD[good] = "load " .. good end
    for _, port in ipairs(d.ports) do SAIL[port] = "sail " .. port end
    for _, c in ipairs(COLOURS) do COLOUR_TEXT[c] = "colour " .. c end
    for n = 0, 200 do BID[n] = "bid " .. n end
    BIDS, PICKS = {}, {}
    MENUS, SHIP_BIT = { acquire = { size = 0 }, release = { size = 0 }, assign = { size = 0 }, load = { size = 0 },
                      sail = { size = 0 }, assign_forced = { size = 0 } }, {}
    KIND_BITS = { seaman = 0, land = 0, facility = 0 }   -- the tiles (ships) each kind of worker staffs
    for k = 1, 8 do                                     -- after the tiles' bits
      SHIP_BIT[k] = 1 << (#TILES_24 + k)
      KIND_BITS.seaman = KIND_BITS.seaman | SHIP_BIT[k]
    end
    for _, t in ipairs(TILES_24) do KIND_BITS[t.kind] = KIND_BITS[t.kind] | t.bit end
    SEAMAN_BITS, LAND_BITS, FACILITY_BITS = KIND_BITS.seaman, KIND_BITS.land, KIND_BITS.facility
  end
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

-- The building effects of a card's staffed tiles (O8), by field: a field
-- ending in _per_worker counts staffed slots, any other counts once; they
-- add up, but for the pool kept at the limit check (keeps: a Tavern's or
-- a Lodge's, the larger, O23). Absent: none.
local function sum_effects(card, working)
  local fx, crew, tiles = {}, card.crew, card.tiles
  for i = 1, #tiles do
    local t = TILES_24[tiles[i]]
    if working & t.bit ~= 0 then
      local w, fields = crew[t.id], t.effects
      for j = 1, #fields do
        local field = fields[j]
        local n = PER_WORKER[field] and t[field] * w or t[field]
        if field == "keeps" then fx[field] = math.max(fx[field] or 0, n)
        else fx[field] = (fx[field] or 0) + n end
      end
    end
  end
  return fx
end

-- A card's effects, summed once for each set of staffed tiles with an
-- effect and their workers (the key: a digit each, t.fx_place), kept in
-- FX up to a bound on the memory kept; shared, never changed.
local NO_EFFECTS = {}
local function effects_of(card)
  local working = card.manned & WITH_EFFECTS            -- the staffed tiles with an effect
  if working == 0 then return NO_EFFECTS end
  if not FX then return sum_effects(card, working) end
  local crew, tiles, key = card.crew, card.tiles, 0
  for i = 1, #tiles do
    local t = TILES_24[tiles[i]]
    if working & t.bit ~= 0 then key = key + crew[t.id] * t.fx_place end
  end
  local fx = FX[key]
  if not fx then
    if FX.size >= 4096 then FX = { size = 0 } end
    fx = sum_effects(card, working)
    FX[key], FX.size = fx, FX.size + 1
  end
  return fx
end

-- A card's effects, kept in card._fx until its workers change (a "_"
-- field: not state; false when they must be summed again).
local function effects(card)
  local fx = card._fx
  if not fx then fx = effects_of(card); card._fx = fx end
  return fx
end

-- A building effect of a card's staffed buildings (O8).
local function effect(card, field)
  local fx = card._fx
  if not fx then fx = effects_of(card); card._fx = fx end
  return fx[field] or 0
end

-- card.tiles: the card's kinds of tile, as their places in the canonical
-- order (T4, T5), ascending. Bit sets (a bit each: t.bit, ship k
-- SHIP_BIT[k]), kept up to date as tiles, ships and workers come and go:
-- card.sold_out, the tiles it holds as many of as a player may, which it
-- can no longer acquire; card.manned, the tiles and ships with a worker;
-- card.room, those with a slot free. card.open: the free slots (O11).
local function new_card()
  return { own = {}, crew = {}, tiles = {}, sold_out = 0, manned = 0, room = 0, open = 0, pool = EMPTY_POOL(),
           store = EMPTY_STORE(), ships = {}, _fx = false }
end

local function add_tile(card, id)
  local t, own = TILE[id], card.own
  local n = (own[id] or 0) + 1
  own[id] = n
  if n >= (t.count or 1) then card.sold_out = card.sold_out | t.bit end     -- T4, T5
  card.room, card.open = card.room | t.bit, card.open + t.slots             -- its slots are free
  if n > 1 then return end
  local list, index = card.tiles, t.index
  local i = #list + 1
  while i > 1 and list[i - 1] > index do list[i] = list[i - 1]; i = i - 1 end
  list[i] = index
end

-- A build order's working copy of a card (O15): `d` made equal to `c`,
-- in d's own tables but for the storage, which only loading changes: d
-- shares c's until the order loads a ship (own_store). d is an older card
-- of the same seat (see new_order), and a card never loses a tile or a
-- ship (no rule takes one), so d has no tile or ship that c lacks.
local function copy_card(d, c)
  local tiles, own, crew = c.tiles, c.own, c.crew
  local d_tiles, d_own, d_crew = d.tiles, d.own, d.crew
  local n = #tiles
  if #d_tiles < n then table.move(tiles, 1, n, 1, d_tiles) end     -- else the same kinds
  for i = 1, n do
    local id = TILE_ID[tiles[i]]
    d_own[id], d_crew[id] = own[id], crew[id]
  end
  local pool, d_pool = c.pool, d.pool                                  -- O7's kinds
  d_pool.seaman, d_pool.land, d_pool.facility = pool.seaman, pool.land, pool.facility
  d.store = c.store
  local ships, d_ships = c.ships, d.ships
  for k = 1, #ships do
    local ship, mine = ships[k], d_ships[k]
    if not mine then mine = { size = ship.size, cargo = {} }; d_ships[k] = mine end
    mine.crew, mine.port = ship.crew, ship.port
    local cargo, into = ship.cargo, mine.cargo
    if cargo[1] or into[1] then                                        -- (trade empties the cargo)
      for j = #into, #cargo + 1, -1 do into[j] = nil end
      for j = 1, #cargo do into[j] = cargo[j] end
    end
  end
  d.sold_out, d.manned, d.room, d.open, d._fx = c.sold_out, c.manned, c.room, c.open, c._fx
  return d
end

-- The free slots of a card's tiles and ships (O11), counted.
local function empty_slots(card)
  local n = 0
  local own, crew, tiles, ships = card.own, card.crew, card.tiles, card.ships
  for i = 1, #tiles do
    local t = TILES_24[tiles[i]]
    local id = t.id
    n = n + own[id] * t.slots - (crew[id] or 0)
  end
  for i = 1, #ships do n = n + 1 - ships[i].crew end
  return n
end

-- card.manned and card.room as the card's workers make them.
local function worker_bits(card)
  local own, crew, tiles, ships = card.own, card.crew, card.tiles, card.ships
  local manned, room = 0, 0
  for i = 1, #tiles do
    local t = TILES_24[tiles[i]]
    local w = crew[t.id] or 0
    if w > 0 then manned = manned | t.bit end
    if w < own[t.id] * t.slots then room = room | t.bit end
  end
  for k = 1, #ships do
    if ships[k].crew > 0 then manned = manned | SHIP_BIT[k] else room = room | SHIP_BIT[k] end
  end
  return manned, room
end

-- For a card set up with its workers in place (setup, scenarios); the
-- steps keep the bit sets after.
local function note_workers(card)
  card.manned, card.room = worker_bits(card)
  card._fx = false
  card.open = empty_slots(card)
  return card
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
  return R.data.wool_tokens + ((card._fx or effects(card)).wool_limit or 0)     -- effect(card, "wool_limit")
end

local function dye_limit(g, card, c)
  return R.data.dye_tokens[c] + ((card._fx or effects(card)).dye_limit or 0)    -- effect(card, "dye_limit")
end

-- O5, T7: the good a card holds more of than it may, or nil. A storage
-- building counts staffed or not: goods it held stay when its worker
-- leaves, and only production stops at the staffed limit (wool_limit,
-- dye_limit; docs/rules/old_world.md, "Decided here").
local function tokens_over(card)
  local wool_room, dye_room, tiles = 0, 0, card.tiles
  for i = 1, #tiles do
    local t = TILES_24[tiles[i]]
    wool_room, dye_room = wool_room + (t.wool_limit or 0), dye_room + (t.dye_limit or 0)
  end
  if held(card, "wool") + held(card, "cloth") > R.data.wool_tokens + wool_room then return "wool and cloth" end
  for _, c in ipairs(COLOURS) do
    if held(card, DYE_OF[c]) + held(card, FG_OF[c]) > R.data.dye_tokens[c] + dye_room then return c end
  end
  return nil
end


local function workers_on_card(card, kind)
  local n = card.pool[kind]
  if kind == "seaman" then
    for _, ship in ipairs(card.ships) do n = n + ship.crew end
  else
    local crew, tiles = card.crew, card.tiles
    for i = 1, #tiles do
      local t = TILES_24[tiles[i]]
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
-- Option map = fixed (open choice 10): each ring port's place among all
-- 8 ports (R.data.ports), and n = 8, for the shipping cost (O3).
local function fixed_positions(ring)
  local fixed = { n = #R.data.ports }
  for i, e in ipairs(ring) do
    for j, port in ipairs(R.data.ports) do if port == e.port then fixed[i] = j end end
  end
  return fixed
end

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
  if g.options.map == "fixed" then ring.fixed = fixed_positions(ring) end
  g.ring, g.home = ring, home
end

-- O3: d - 1 for a ring distance d, -1 with a staffed Deep Harbor, never
-- below 0; option map = fixed: d counted round all 8 ports.
function R.rules.shipping_cost(g, seat, card, to)
  local ring, from = g.ring, g.home[seat]
  local n, fixed = #ring, ring.fixed
  if fixed then n, from, to = fixed.n, fixed[from], fixed[to] end
  local d = from - to
  if d < 0 then d = -d end
  if n - d < d then d = n - d end
  local cost = d - 1 - ((card._fx or effects(card)).harbor or 0)          -- effect(card, "harbor")
  return cost > 0 and cost or 0
end

local function port_name(g, i)
  return g.ring[i].port
end

---------------------------------------------------------------------------
-- Setup (O9) and scenario set-up
---------------------------------------------------------------------------

-- A scenario's mistake, its values shown as the scenario gave them (a
-- table is "a table", not its address).
local function bad(fmt, ...)
  error("scenario: " .. kontor.format(fmt, ...), 0)
end

local function total_workers(g, kind)          -- O7: 29N in the bag + 2N at the start
  return (R.data.bag_per_player[kind] + (R.data.start_workers[kind] or 0)) * g.players
end

local function ship_sizes(g)
  return R.data.ships[g.players]
end

local function give_ship(card, size)
  card.ships[#card.ships + 1] = { size = size, crew = 0, cargo = {}, port = false }
  card.room, card.open = card.room | SHIP_BIT[#card.ships], card.open + 1  -- no seaman yet
end

-- O9: where R.data.start_workers puts each seat's workers: land workers
-- on the Sheep Herding tile and a seaman on ship 1, as many as they have
-- slots; the rest of each kind (and every facility worker: no facility is
-- dealt) in the pool. { sheep = n, ship = n, pool = { kind = n } }.
local function start_places()
  local start, pool = R.data.start_workers, {}
  local land, seamen = start.land or 0, start.seaman or 0
  local sheep, ship = math.min(land, TILE.sheep_herding.slots), math.min(seamen, 1)
  for _, kind in ipairs(KINDS) do pool[kind] = start[kind] or 0 end
  pool.land, pool.seaman = land - sheep, seamen - ship
  return { sheep = sheep, ship = ship, pool = pool }
end

local function standard_card(g)             -- O9: a sheep tile and ship 1, staffed as the data says
  local card, at = new_card(), start_places()
  add_tile(card, "sheep_herding")
  if at.sheep > 0 then card.crew.sheep_herding = at.sheep end
  give_ship(card, ship_sizes(g)[1])
  card.ships[1].crew = at.ship
  for _, kind in ipairs(KINDS) do card.pool[kind] = at.pool[kind] end
  return note_workers(card)
end

local SCENARIO_FIELDS = { gold = true, vp = true, tiles = true, workers = true, storage = true,
  bag = true, line = true, turn = true, first = true, pirate_vp = true, vp_given = true,
  -- table: any decision point, and the shape g:state() gives (docs/rules/old_world.md)
  phase = true, pick_order = true, active = true, bids = true, pirate_holder = true, card = true,
  engine = true, removed = true, ending = true, keep_token = true, stated_line = true, robbed = true,
  ring = true, home = true, vp_bank = true, pirate_target = true, pirate_every = true, arriving = true }
-- The decision points a scenario may start at (table: R.play resumes there).
local RESUME = { turn = true, bid = true, pick = true, build = true, pirate = true, produce = true }

local function seat_list(g, sc, field)
  local t = sc[field]
  if t == nil then return {} end
  if type(t) ~= "table" then bad("%s must be a list, one entry per seat", field) end
  for s in pairs(t) do
    if math.type(s) ~= "integer" or s < 1 or s > g.players then bad("%s: %s is not a seat", field, s) end
  end
  return t
end

local function number(v, what, min)
  if math.type(v) ~= "integer" or v < (min or 0) then bad("%s must be a whole number >= %d, not %s", what, min or 0, v) end
  return v
end

local function scenario_card(g, s, tiles, workers, storage)
  if not tiles then                                   -- the setup's card (O9)
    local at = start_places()
    tiles, workers = { sheep_herding = 1, ships = 1 }, workers or { sheep_herding = at.sheep, ships = at.ship,
      pool = at.pool }
  end
  local card = new_card()
  for id, n in pairs(tiles) do
    if id == "ships" then
      number(n, "tiles.ships", 0)
      if n > #ship_sizes(g) then bad("seat %d: %d ships; a %d-player game has %d", s, n, g.players, #ship_sizes(g)) end
      for k = 1, n do give_ship(card, ship_sizes(g)[k]) end
    else
      local t = TILE[id]
      if not t or (not g.options.buildings_24 and not BASE_ID[id]) then bad("unknown tile '%s'", id) end
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
        if not card.pool[kind] then bad("unknown worker kind '%s'", kind) end
        card.pool[kind] = number(m, "pool." .. kind, 0)
      end
    else
      local t = TILE[id]
      if not t then bad("unknown tile '%s'", id) end
      number(n, id, 0)
      if n > (card.own[id] or 0) * t.slots then bad("seat %d: %d workers on %s, which has %d slots", s, n, id, (card.own[id] or 0) * t.slots) end
      card.crew[id] = n > 0 and n or nil
    end
  end
  for good, n in pairs(storage or {}) do
    if not GOOD_INDEX[good] then bad("unknown good '%s'", good) end
    card.store[good] = number(n, good, 0)
  end
  return note_workers(card)
end

local function check_tokens(s, card)                  -- O5, T7
  local over = tokens_over(card)
  if over then bad("seat %d holds more %s than its tokens", s, over) end
  return card
end

-- O14c, O14d, O22: a ship carries cargo only while it sails, with its
-- seaman, from the reveal to the trade (a scenario's phase pirate).
local function check_sailing(s, k, ship, phase)
  if ship.cargo[1] and (ship.crew == 0 or not ship.port) then
    bad("seat %d: ship %d is loaded but has no %s (O14)", s, k, ship.crew == 0 and "seaman" or "port")
  end
  if ship.port and not ship.cargo[1] then bad("seat %d: ship %d sails empty; an unloaded ship stays home (O14)", s, k) end
  if ship.cargo[1] and phase ~= "pirate" then
    bad("seat %d: ship %d is loaded at phase %s; ships sail from the reveal to the trade: phase pirate (O16, O22)",
      s, k, phase)
  end
end

-- A player card in the shape g:state() gives ({own, crew, pool, store,
-- ships = { {size, crew, cargo, port} }}), checked as the simple fields are.
local function state_card(g, s, c, phase)
  if type(c) ~= "table" then bad("card[%d] must be a player card as g:state() gives it", s) end
  local tiles, workers, storage = {}, { pool = c.pool or {} }, c.store or {}
  for id, n in pairs(c.own or {}) do tiles[id] = n end
  for id, n in pairs(c.crew or {}) do workers[id] = n end
  local ships = c.ships or {}
  tiles.ships, workers.ships = #ships, nil
  local card = scenario_card(g, s, tiles, workers, storage)
  for k, ship in ipairs(ships) do
    local mine = card.ships[k]
    if ship.size ~= nil and ship.size ~= mine.size then
      bad("seat %d: ship %d holds %d in a %d-player game, not %s", s, k, mine.size, g.players, ship.size)
    end
    mine.crew = (ship.crew == 1 or ship.crew == true) and 1 or 0
    for _, good in ipairs(ship.cargo or {}) do
      if not GOOD_INDEX[good] then bad("seat %d: ship %d: unknown good '%s'", s, k, good) end
      mine.cargo[#mine.cargo + 1] = good
    end
    if #mine.cargo > mine.size then bad("seat %d: ship %d holds %d, not %d goods", s, k, mine.size, #mine.cargo) end
    if ship.port and ship.port ~= false then
      local to = ship.port
      if type(to) == "string" then
        for i, e in ipairs(g.ring) do if e.port == to then to = i end end
      end
      if math.type(to) ~= "integer" or not g.ring[to] or to == g.home[s] then
        bad("seat %d: ship %d sails to %s, not a port of the ring other than its own", s, k, ship.port)
      end
      mine.port = to
    end
    check_sailing(s, k, mine, phase)
  end
  return check_tokens(s, note_workers(card))
end

-- The tiles and ships acquired this turn that come at its end (option
-- new_tiles_work_this_turn off): { [seat] = { "pier", "ship", ... } }.
local function set_arriving(g, arriving)
  local list = seat_list(g, { arriving = arriving }, "arriving")
  g.arriving = {}
  for s, ids in pairs(list) do
    if type(ids) ~= "table" then bad("arriving[%d] must be a list of tile ids and \"ship\"", s) end
    for _, id in ipairs(ids) do
      if id ~= "ship" and not TILE[id] then bad("arriving[%d]: unknown tile '%s'", s, id) end
    end
    g.arriving[s] = { table.unpack(ids) }
  end
end

-- O30: why a turn is the last (g.ending).
local ENDINGS = { bag = true, pirate = true, ["VP bank"] = true, ["turn cap"] = true }

-- O30 (2), (3): the trade that takes the pirate to its target, or empties
-- the VP bank, makes its turn the last: a position past it is in that
-- turn, with its ending stated.
local function check_ended(g)
  if g.ending then return end
  if g.pirate_vp >= g.pirate_target then
    bad("the pirate has %d VP, its target is %d: the game ends after that turn (O30 (2)); "
        .. "state ending = \"pirate\" for the position in its last turn", g.pirate_vp, g.pirate_target)
  end
  if g.vp_bank > 0 and g.vp_given >= g.vp_bank then
    bad("%d VP given of a VP bank of %d: the game ends after that turn (O30 (3)); "
        .. "state ending = \"VP bank\" for the position in its last turn", g.vp_given, g.vp_bank)
  end
end

local function set_up_scenario(g, sc)
  for field in pairs(sc) do
    if not SCENARIO_FIELDS[field] then bad("unknown field '%s'", field) end
  end
  local gold, vp = seat_list(g, sc, "gold"), seat_list(g, sc, "vp")
  local tiles, workers, storage = seat_list(g, sc, "tiles"), seat_list(g, sc, "workers"), seat_list(g, sc, "storage")
  local cards = seat_list(g, sc, "card")
  for s = 1, g.players do
    if gold[s] then g.gold:set(s, number(gold[s], "gold", 0)) end
    if vp[s] then g.vp:set(s, number(vp[s], "vp", 0)) end
    if cards[s] then
      if tiles[s] or workers[s] or storage[s] then bad("seat %d: give card, or tiles, workers and storage, not both", s) end
      g.card[s] = state_card(g, s, cards[s], sc.phase or "turn")
    else
      g.card[s] = check_tokens(s, scenario_card(g, s, tiles[s], workers[s], storage[s]))
    end
  end
  g.pirate_vp = number(sc.pirate_vp or 0, "pirate_vp", 0)
  local given = g.pirate_vp
  for s = 1, g.players do given = given + g.vp:get(s) end
  g.vp_given = sc.vp_given ~= nil and number(sc.vp_given, "vp_given", 0) or given
  if g.vp_given ~= given then                       -- O24: every VP given is held
    bad("vp_given %d is not the %d VP the players and the pirate hold (O24: every VP given is held)", g.vp_given, given)
  end
  local engine = type(sc.engine) == "table" and sc.engine or {}
  g.turn = number(sc.turn or engine.turn or 1, "turn", 1) - 1     -- begin_turn counts it
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
      else bad("unknown worker kind '%s' in line", kind) end
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
  -- The decision point (table): a turn's start (the default), or inside
  -- the turn with the gold, line, pick order and pirate as they stand.
  local phase = sc.phase or "turn"
  if not RESUME[phase] then
    bad("phase must be turn, bid, pick, build, pirate or produce, not %s", phase)
  end
  if sc.ending ~= nil and sc.ending ~= false then
    if not ENDINGS[sc.ending] then bad("ending must be bag, pirate, VP bank or turn cap (O30), not %s", sc.ending) end
    g.ending = sc.ending
  end
  check_ended(g)
  if sc.pirate_holder ~= nil and sc.pirate_holder ~= false then
    local h = number(sc.pirate_holder, "pirate_holder", 1)
    if h > g.players then bad("pirate_holder: %d is not a seat", h) end
    if phase ~= "pick" and phase ~= "build" and phase ~= "pirate" then
      bad("pirate_holder is the pirate picked this turn: phase pick, build or pirate, not %s", phase)
    end
    if g.line.pirate then bad("the pirate is in the line and with seat %d", h) end
    g.pirate_holder = h
  end
  if sc.active ~= nil and sc.active ~= false then          -- a seat, whatever the phase
    local a = number(sc.active, "active", 1)
    if a > g.players then bad("active: %d is not a seat", a) end
  end
  if phase ~= "turn" then
    g.resume_at, g.keep_token, g.stated_line = phase, false, nil
    g.phase = phase
  end
  if phase == "pick" then
    local order = sc.pick_order
    if type(order) ~= "table" or #order ~= g.players then
      bad("phase pick needs pick_order, every seat once, the first to pick first")
    end
    local seen = {}
    for i, s in ipairs(order) do
      if math.type(s) ~= "integer" or s < 1 or s > g.players or seen[s] then
        bad("pick_order: entry %d (%s) is not a seat, or is given twice", i, s)
      end
      seen[s] = true
    end
    g.pick_order = { table.unpack(order) }
    local active = sc.active or engine.active
    g.resume_picker = active ~= nil and number(active, "active", 1) or order[1]
    if not seen[g.resume_picker] then bad("active: %s is not a seat", active) end
    local left = g.line.pirate and 1 or 0
    for _, kind in ipairs(KINDS) do left = left + g.line[kind] end
    if left == 0 then bad("phase pick needs a line with something to pick") end
  elseif sc.pick_order ~= nil and sc.pick_order ~= false then
    g.pick_order = { table.unpack(sc.pick_order) }
  end
  if type(sc.bids) == "table" then g.bids = { table.unpack(sc.bids) } end
  if sc.robbed ~= nil then g.robbed = sc.robbed end
  if sc.arriving then set_arriving(g, sc.arriving) end
  if type(engine.rng) == "string" then g.rng:set_state(engine.rng) end   -- a state's copy goes on alike
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
  g.first = false               -- g.arriving: only while tiles wait for the turn's end (place_arrivals)
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

-- O11, T9: turns k, 2k, ...; option first_pirate_turn f: turns f, f + k, ...
local function is_pirate_turn(g, turn)
  local first = g.options.first_pirate_turn
  if first == 0 then return turn % g.pirate_every == 0 end
  return turn >= first and (turn - first) % g.pirate_every == 0
end

function R.rules.move_token(g)
  if g.keep_token then g.keep_token = false
  elseif g.turn > 1 then g.first = g:next_seat(g.first) end
  g.gold:add(g.first, g.options.first_player_gold)          -- O11
end

-- The kinds in the bag, their words (built once for each set of kinds;
-- never changed) and their counts in the bag (the weights of the draw).
local IN_BAG = {}
local function kinds_in_bag(g)
  local bag = g.bag                                         -- O7's kinds, a bit each
  local key = (bag.seaman > 0 and 1 or 0) | (bag.land > 0 and 2 or 0) | (bag.facility > 0 and 4 or 0)
  local e = IN_BAG[key]
  if not e then
    e = { kinds = {}, words = {}, weights = {} }
    for i, kind in ipairs(KINDS) do
      if key & (1 << (i - 1)) ~= 0 then e.kinds[#e.kinds + 1] = kind; e.words[#e.words + 1] = KIND_WORDS[kind] end
    end
    if #e.words > 1 then e.words = kontor.options(e.words) end   -- a constant: checked once
    IN_BAG[key] = e
  end
  local kinds, weights = e.kinds, e.weights
  for i = 1, #kinds do weights[i] = bag[kinds[i]] end
  return kinds, e.words, weights
end


-- O11: floor(open slots / 2) + N; O30 (1): fewer in the bag ends the game.
local function draw_count(g)
  local open = 0
  for s = 1, g.players do open = open + g.card[s].open end
  local need = open // 2 + g.players
  local inbag = count_of(g.bag)
  if inbag < need then
    need = inbag
    g.ending = g.ending or "bag"
  end
  return need
end

-- O11: each worker drawn from the bag into the line at random, each kind
-- as likely as there are of it in the bag.
function R.rules.draw(g)
  local need = draw_count(g)
  local bag, line = g.bag, g.line
  local kinds, words, weights = kinds_in_bag(g)
  local one = #kinds == 1
  for _ = 1, need do
    local i = one and 1 or g:chance("draw", words, weights)
    local kind, left = kinds[i], weights[i] - 1
    bag[kind], line[kind], weights[i] = left, line[kind] + 1, left
    if left == 0 then                                  -- a kind runs out
      kinds, words, weights = kinds_in_bag(g)
      one = #kinds == 1
    end
  end
  if g.logging then g:log("turn %d: %d drawn into the line", g.turn, need) end
end

local function turn_start(g)
  local desks = g._desks                -- scratch (new_order): not in the state a copy of
  g._desks = nil                        -- the game for search saves at a turn's start
  g:begin_turn(g.first)                 -- g.turn: this turn's number (O10)
  g._desks = desks
  g.bids, g.pick_order = false, false   -- O12, O34: none shown till this turn's are in
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
  local line = g.line
  return line.seaman + line.land + line.facility + (line.pirate and 1 or 0)    -- count_of(line)
end

-- O12: every seat with gold bids at once, in secret. The seats asked and
-- their options go in two lists kept for the game (g._bidders, a "_"
-- field: not state; g:choose_all reads them and keeps its own copies);
-- the bids are made at their size, 0 for each seat.
local NO_BIDS = { 0, 0, 0, 0, 0, 0, 0, 0 }                    -- O1: 8 seats at most
local function bid(g)
  local kept = g._bidders
  if not kept then kept = { {}, {} }; g._bidders = kept end
  local seats, by_seat, asked = kept[1], kept[2], 0
  local bids = { table.unpack(NO_BIDS, 1, g.players) }
  for s = 1, g.players do
    local gold = g.gold:get(s)
    if gold > 0 then                                   -- O32: with 0 gold, "bid 0" is not asked
      local o = BIDS[gold]                             -- "bid 0" .. "bid <gold>", made once
      if not o then
        o = {}
        for n = 0, gold do o[n + 1] = bid_text(n) end
        o = kontor.options(o)                          -- a constant: checked once
        BIDS[gold] = o
      end
      asked = asked + 1
      seats[asked], by_seat[s] = s, o
    end
  end
  for i = #seats, asked + 1, -1 do seats[i] = nil end
  if asked > 0 then
    local chosen = g:choose_all(seats, "bid", by_seat)
    for i = 1, asked do
      local s = seats[i]
      local n = chosen[s] - 1
      bids[s] = n
      if n > 0 then g.gold:add(s, -n) end              -- "this amount is lost"
    end
  end
  g.bids = bids
  if g.logging then
    local parts = {}
    for s = 1, g.players do parts[s] = g.names[s] .. " " .. bids[s] end
    g:log("bids: %s", table.concat(parts, ", "))
  end
  return bids
end

-- O12: higher bid first; equal bids in seat order from the token's holder.
-- Each seat in turn order goes in after those who bid at least as much.
function R.rules.pick_order(g, bids)
  local from = g:turn_order(g.first)
  local order = { table.unpack(from) }                 -- made at its size; sorted in place
  for i = 1, #from do
    local s, j = from[i], i - 1
    while j > 0 and bids[order[j]] < bids[s] do order[j + 1] = order[j]; j = j - 1 end
    order[j + 1] = s
  end
  return order
end

-- What the line holds: O7's kinds and the pirate, a bit each (IN_LINE).
local IN_LINE = { seaman = 1, land = 2, facility = 4, pirate = 8 }
local function in_line(g)
  local line = g.line
  return (line.seaman > 0 and 1 or 0) | (line.land > 0 and 2 or 0) | (line.facility > 0 and 4 or 0)
    | (line.pirate and 8 or 0)
end

-- The kinds in the line to pick from, and the pirate last (made once for
-- each set of kinds there, `key` as in_line gives it).
local function pick_options(g, key)
  local line = g.line
  local menu = PICKS[key]
  if not menu then
    local opts, what = {}, {}
    for _, kind in ipairs(KINDS) do
      if line[kind] > 0 then opts[#opts + 1] = PICK[kind]; what[#what + 1] = kind end
    end
    if line.pirate then opts[#opts + 1] = PICK.pirate; what[#what + 1] = "pirate" end
    menu = { #opts > 1 and kontor.options(opts) or opts, what }   -- a constant: checked once
    PICKS[key] = menu
  end
  return menu[1], menu[2]
end

-- O13: the pirate to the seat that picks it (a worker goes to the pool:
-- picks does that in place).
local function pick_pirate(g, seat, line)
  line.pirate = false
  g.pirate_holder = seat
end

-- O13: round the order until the line is empty; `from` is the seat to
-- pick first (a scenario's stated position: table). The options change
-- only when a kind runs out.
local function picks(g, order, from)
  g.phase = "pick"
  local started, left, line, cards, logging = from == nil, line_items(g), g.line, g.card, g.logging
  local key = in_line(g)
  local opts, what = pick_options(g, key)
  local one = #what == 1
  while left > 0 do                                     -- O13: round the order again
    for i = 1, #order do
      local s = order[i]
      started = started or s == from
      if left == 0 then break end
      if started then
        g.active = s
        local kind = what[one and 1 or g:choose(s, "pick", opts)]   -- O32: one kind: not asked
        local runs_out = kind == "pirate"               -- one item out of the line
        if runs_out then
          pick_pirate(g, s, line)
        else
          local pool, n = cards[s].pool, line[kind] - 1
          line[kind], pool[kind] = n, pool[kind] + 1    -- O13: the worker to the seat's pool
          runs_out = n == 0
        end
        if logging then g:log("%s picks %s", g.names[s], kind == "pirate" and "the pirate" or KIND_WORDS[kind]) end
        left = left - 1
        if runs_out then
          key = key & ~IN_LINE[kind]
          opts, what = pick_options(g, key)
          one = #what == 1
        end
      end
    end
  end
end

local function bids_and_picks(g)
  if line_items(g) == 0 then return end                 -- O12: empty line, no bids
  g.phase = "bid"
  local order = R.rules.pick_order(g, bid(g))
  g.pick_order = order
  if g.logging then                                     -- O12: who picks when
    local names = {}
    for i, s in ipairs(order) do names[i] = g.names[s] end
    g:log("pick order: %s (higher bids first; ties from the token's holder, %s)", table.concat(names, ", "),
      g.names[g.first])
  end
  picks(g, order)
end

---------------------------------------------------------------------------
-- The build order (O14-O16, O32): per seat, a run of small steps on a
-- private copy of the seat's card, stage by stage in the rulebook's order:
-- the acquisition, the releases, the assignments, then each ship's cargo
-- and port.
---------------------------------------------------------------------------

-- An order works on its seat's desk: a second card the seat keeps for the
-- game (g._desks[s], a "_" field: not state), made equal to its card; the
-- reveal swaps the two, and the old card is the next order's desk. The
-- seat's order table is kept too (desks.orders[s]): an order lives until
-- its reveal. The tables are made at their size: by seat (8 seats at most,
-- O1), an order with all its fields and room for 16 steps.
local BY_SEAT = { false, false, false, false, false, false, false, false }
local STEPS = { DONE, DONE, DONE, DONE, DONE, DONE, DONE, DONE, DONE, DONE, DONE, DONE, DONE, DONE, DONE, DONE }
local function new_order(g, s)
  local desks = g._desks
  if not desks then
    desks = { table.unpack(BY_SEAT, 1, g.players) }
    desks.orders, desks.stores = { table.unpack(BY_SEAT, 1, g.players) }, { table.unpack(BY_SEAT, 1, g.players) }
    g._desks = desks
  end
  local desk, o = desks[s], desks.orders[s]
  if not desk then desk = new_card(); desks[s] = desk end
  if not o then
    o = { steps = { table.unpack(STEPS) }, n = 0, card = false, gold = 0, paid_from = 0, stage = false,
          extra_ship = false, draft = false, arriving = false, ship = 0 }
    desks.orders[s] = o
  end
  local card = g.card[s]
  if desk.store ~= card.store then desks.stores[s] = desk.store end   -- see own_store
  o.n = 0                                    -- o.steps[1..n]: this order's steps
  local gold = g.gold:get(s)
  o.card, o.gold, o.paid_from, o.stage, o.extra_ship = copy_card(desk, card), gold, gold, "acquire", false
  o.arriving = false                          -- option new_tiles_work_this_turn off: what it acquired
  o.ship = 0                                  -- the ship being loaded, then sailed (its options say which)
  return o
end

-- One step of an order: the seat's choice k among its options (a step
-- with one option is taken without asking, O32), its text kept for the
-- reveal's log (o.steps[1..o.n]), and what it names. The steps are the
-- hottest code of a game, so each stage takes its steps in place, with no
-- call: the acquisition and the sailing from the lists they make, the
-- release, assign and load steps from a kept menu (`made`: its options,
-- ending in "done", so two at least and always asked, and what each names,
-- made[2][k]); where such a stage has nothing left to choose, its one
-- option "done" is kept unasked (O32).

-- Keeps an option list made for `key`, up to a bound on the memory kept
-- (random play meets many sets of tiles): then that kind starts afresh.
-- The list is written in OPTS[1..n] and what each names in WHAT[1..n]
-- (shared scratch), and kept in two tables made at their size.
local OPTS, WHAT = {}, {}
local function remember(kind, key, n)
  local made = MENUS[kind]
  if made.size >= 4096 then made = { size = 0 }; MENUS[kind] = made end
  local menu = { { table.unpack(OPTS, 1, n) }, { table.unpack(WHAT, 1, n) } }
  made[key], made.size = menu, made.size + 1
  return menu
end

-- O14: the tiles in play that the seat may still acquire (T4, T5: not
-- sold_out to it) and can pay for, in canonical order, then the next ship
-- (T3, O14a) if it can pay for that. The same sold-out tiles and gold (all
-- sums above the dearest tile alike) give the same list: made once.
local function offers(g, sold_out, gold, ship)
  if gold < MIN_COST and not ship then return NO_OFFER, NO_TILE end   -- nothing affordable
  if gold > MAX_COST then gold = MAX_COST end
  sold_out = sold_out & COSTING_UPTO[gold]             -- what it cannot pay for is not offered anyway
  local key = ((sold_out * (MAX_COST + 1) + gold) * 2 + (ship and 1 or 0)) * 2 + (g.options.buildings_24 and 1 or 0)
  local made = MENUS.acquire[key]
  if made then return made[1], made[2] end
  local n, tiles = 1, tiles_of(g)
  OPTS[1], WHAT[1] = ACQUIRE_NONE, false
  for i = 1, #tiles do
    local t = tiles[i]
    if sold_out & t.bit == 0 and t.cost <= gold then
      n = n + 1; OPTS[n], WHAT[n] = ACQUIRE_TEXT[t.id], t.id
    end
  end
  if ship then n = n + 1; OPTS[n], WHAT[n] = ACQUIRE_SHIP, "ship" end
  made = remember("acquire", key, n)
  return made[1], made[2]
end

-- O27, option extract_mill_needs = build: the extract buildings a card
-- may not acquire yet, having no plantation of their colour (a bit each).
local function extract_unbuildable(g, card)
  if g.options.extract_mill_needs ~= "build" then return 0 end
  local bits, extract = 0, EXTRACT[g.options.buildings_24 and 2 or 1]
  for _, c in ipairs(COLOURS) do
    for _, t in ipairs(extract[c]) do
      if not card.own[t.needs] then bits = bits | t.bit end
    end
  end
  return bits
end

local function affordable_acquisitions(g, o)
  local card, gold = o.card, o.gold
  local size = R.data.ships[g.players][#card.ships + 1]                     -- ship_sizes(g)
  local ship = size and size * R.data.ship_cost_per_slot <= gold and not o.extra_ship
  local sold_out = card.sold_out
  if g.options.extract_mill_needs == "build" then sold_out = sold_out | extract_unbuildable(g, card) end
  return offers(g, sold_out, gold, ship)
end

local function acquire(g, o, id)
  local card = o.card
  if id and not g.options.new_tiles_work_this_turn then        -- O16 option: placed at the turn's end
    o.arriving = o.arriving or {}
    o.arriving[#o.arriving + 1] = id
    o.gold = o.gold - (id == "ship" and ship_sizes(g)[#card.ships + 1] * R.data.ship_cost_per_slot or TILE[id].cost)
    return
  end
  if id == "ship" then
    local size = ship_sizes(g)[#card.ships + 1]
    give_ship(card, size)
    o.gold = o.gold - size * R.data.ship_cost_per_slot
  elseif id then
    add_tile(card, id)
    o.gold = o.gold - TILE[id].cost
  end
end

-- O14: one acquisition, or none; with the option ship_is_acquisition off,
-- a ship leaves the turn's building or land still to come.
local function acquisition(g, seat, o)
  while true do
    local opts, what = affordable_acquisitions(g, o)
    local k, n = #opts == 1 and 1 or g:choose(seat, "acquire", opts), o.n + 1   -- a step
    o.steps[n], o.n = opts[k], n
    local x = what[k]
    if not x then break end
    acquire(g, o, x)
    if x ~= "ship" or g.options.ship_is_acquisition then break end
    o.extra_ship = true
  end
  o.stage = "release"
end

-- The release and assign options by the tiles and ships they name (a bit
-- each, as in card.manned), the list made once for each set (MENUS[verb]).
-- ("assign_forced": the assignments without "done", option forced_placement.)
local function menu(verb, key, card)
  local word = verb == "release" and "release" or "assign"
  local n, ship_text = 0, word == "release" and RELEASE_SHIP or ASSIGN_SHIP
  local tiles = card.tiles
  for i = 1, #tiles do
    local t = TILES_24[tiles[i]]
    if key & t.bit ~= 0 then n = n + 1; OPTS[n], WHAT[n] = t[word], t.id end
  end
  for k = 1, #card.ships do
    if key & SHIP_BIT[k] ~= 0 then n = n + 1; OPTS[n], WHAT[n] = ship_text[k], k end
  end
  if verb ~= "assign_forced" then n = n + 1; OPTS[n], WHAT[n] = DONE, false end
  return remember(verb, key, n)
end

-- A worker off tile x back to the pool, or ship x's seaman.
local function release(card, x)
  local t = TILE[x]
  if t then
    if t.effects[1] then card._fx = false end      -- the effects change
    local crew = card.crew
    local w = crew[x] - 1
    if w == 0 then crew[x] = nil; card.manned = card.manned & ~t.bit else crew[x] = w end
    local pool, kind = card.pool, t.kind
    pool[kind] = pool[kind] + 1
    card.room, card.open = card.room | t.bit, card.open + 1
  else
    card.ships[x].crew = 0
    local pool = card.pool
    pool.seaman = pool.seaman + 1
    card.manned, card.room = card.manned & ~SHIP_BIT[x], card.room | SHIP_BIT[x]
    card.open = card.open + 1
  end
end

-- O14: workers off any staffed tile or ship, tiles first, one at a time.
local function releases(g, seat, o)
  local card = o.card
  while true do
    if card.manned == 0 then local n = o.n + 1; o.steps[n], o.n = DONE, n; break end   -- unasked
    local key = card.manned
    local made = MENUS.release[key] or menu("release", key, card)    -- a step from a kept menu
    local opts = made[1]
    local k, n = g:choose(seat, "release", opts), o.n + 1
    o.steps[n], o.n = opts[k], n
    local x = made[2][k]
    if not x then break end
    release(card, x)
  end
  o.stage = "assign"
end

-- A worker from the pool onto tile x, or a seaman onto ship x; the kind
-- of worker.
local function assign(card, x)
  local t = TILE[x]
  if t then
    if t.effects[1] then card._fx = false end      -- the effects change
    local crew = card.crew
    local w = (crew[x] or 0) + 1
    crew[x] = w
    local pool, kind = card.pool, t.kind
    pool[kind] = pool[kind] - 1
    card.manned, card.open = card.manned | t.bit, card.open - 1
    if w == card.own[x] * t.slots then card.room = card.room & ~t.bit end
    return kind
  end
  card.ships[x].crew = 1
  local pool = card.pool
  pool.seaman = pool.seaman - 1
  card.manned, card.room = card.manned | SHIP_BIT[x], card.room & ~SHIP_BIT[x]
  card.open = card.open - 1
  return "seaman"
end

-- O14: workers from the pool onto tiles of their kind with a slot free, or
-- seamen onto ships without one, one at a time. Option forced_placement
-- (open choice 16): no "done" while a pool worker has a free slot of its
-- kind, and a step with one option is taken unasked (O32).
local function assignments(g, seat, o)
  local card, pool = o.card, o.card.pool
  local staffs = (pool.seaman > 0 and SEAMAN_BITS or 0) | (pool.land > 0 and LAND_BITS or 0)
    | (pool.facility > 0 and FACILITY_BITS or 0)          -- what the pool's workers staff (O7's kinds)
  local forced = g.options.forced_placement
  while true do
    local key = card.room & staffs
    if key == 0 then local n = o.n + 1; o.steps[n], o.n = DONE, n; break end          -- unasked
    local made = forced and (MENUS.assign_forced[key] or menu("assign_forced", key, card))
      or MENUS.assign[key] or menu("assign", key, card)    -- a step from a kept menu
    local opts = made[1]
    local k, n = (forced and #opts == 1) and 1 or g:choose(seat, "assign", opts), o.n + 1
    o.steps[n], o.n = opts[k], n
    local x = made[2][k]
    if not x then break end
    local kind = assign(card, x)
    if pool[kind] == 0 then staffs = staffs & ~KIND_BITS[kind] end      -- the last of its kind
  end
  o.stage = "ships"
end

-- O14: a good from storage onto the ship, or done; the list made once for
-- each set of goods in storage (a bit each).
local function goods_in_store(card)
  return STORED(card.store)
end

local function load_options(key)
  local n = 0
  for i = 1, #GOODS do
    local good = GOODS[i]
    if key & GOOD_BIT[good] ~= 0 then n = n + 1; OPTS[n], WHAT[n] = LOAD[good], good end
  end
  n = n + 1; OPTS[n], WHAT[n] = DONE, false
  return remember("load", key, n)
end

-- The order's card gets storage of its own before it loads a good (its
-- desk shares the seat's card's until then, copy_card): the seat's second
-- storage table, kept for the game in g._desks.stores (new_order).
local function own_store(g, seat, card)
  local store = g.card[seat].store
  if card.store ~= store then return end
  local mine = g._desks.stores[seat]
  COPY_STORE(mine, store)
  card.store = mine
end

-- O14: goods from storage onto `ship`, one at a time, until it is full or
-- the seat is done; `key` the goods in storage (a bit each, GOOD_BIT),
-- returned as the loading leaves them.
local function loading(g, seat, o, ship, key)
  local card = o.card
  local cargo, size = ship.cargo, ship.size
  while #cargo < size do
    if key == 0 then local n = o.n + 1; o.steps[n], o.n = DONE, n; return key end     -- unasked
    local made = MENUS.load[key] or load_options(key)       -- a step from a kept menu
    local opts = made[1]
    local k, n = g:choose(seat, "load", opts), o.n + 1
    o.steps[n], o.n = opts[k], n
    local good = made[2][k]
    if not good then return key end
    own_store(g, seat, card)
    local store = card.store
    store[good] = store[good] - 1
    cargo[#cargo + 1] = good
    if store[good] == 0 then key = key & ~GOOD_BIT[good] end
  end
  return key
end

-- O3, O14: the ports a loaded ship may sail to, from the clockwise
-- neighbour round the ring (O32), those whose shipping cost the seat can pay.
-- The list is made once for each home port, ring and set of ports within
-- reach (a bit each, from the clockwise neighbour).
local function sail_options(g, s, o)
  local n, home, reach = #g.ring, g.home[s], 0
  for i = 1, n - 1 do
    local to = (home + i - 1) % n + 1
    if R.rules.shipping_cost(g, s, o.card, to) <= o.gold then reach = reach | (1 << (i - 1)) end
  end
  local key = (reach * 16 + home) * 16 + g.players       -- 8 ports at most (O2)
  local made = MENUS.sail[key]
  if not made then
    local m = 0
    for i = 1, n - 1 do
      local to = (home + i - 1) % n + 1
      if reach & (1 << (i - 1)) ~= 0 then m = m + 1; OPTS[m], WHAT[m] = SAIL[port_name(g, to)], to end
    end
    made = remember("sail", key, m)
  end
  return made[1], made[2]
end

local function sailing(g, seat, o, ship)
  local opts, what = sail_options(g, seat, o)
  local k, n = #opts == 1 and 1 or g:choose(seat, "sail", opts), o.n + 1      -- a step
  o.steps[n], o.n = opts[k], n
  local to = what[k]
  ship.port = to
  o.gold = o.gold - R.rules.shipping_cost(g, seat, o.card, to)
end

-- O14: each ship with a seaman in turn: its cargo, then, if it has any,
-- its port.
local function shipments(g, seat, o)
  local key                                          -- the goods in storage, at the first ship
  local ships = o.card.ships
  for k = 1, #ships do
    local ship = ships[k]
    if ship.crew > 0 then
      o.ship = k
      key = loading(g, seat, o, ship, key or goods_in_store(o.card))
      if ship.cargo[1] then sailing(g, seat, o, ship) end
    end
  end
  o.stage = "finished"
end

-- One seat's order (O14, O32), entered with g:choose_orders: stage by
-- stage, each step checked against the seat's own copy of its card (O15).
-- The entry changes nothing of the game; it keeps its working copy in its
-- draft, which R.view and R.board show to that seat alone (O32: "a player
-- sees their own card as the order so far leaves it"), and whether it has
-- finished: its stage (public, O32; see finished). `o` is where it starts;
-- `upto` a stage where it stops.
local function enter_order(g, seat, o, upto, draft)
  o.draft = draft                                      -- see order_of
  local stage = o.stage                                -- each stage sets the next
  if stage == "acquire" then acquisition(g, seat, o); stage = "release" end
  if stage == "release" and upto ~= "release" then releases(g, seat, o); stage = "assign" end
  if stage == "assign" and upto ~= "assign" then assignments(g, seat, o); stage = "ships" end
  if stage == "ships" and upto ~= "ships" then shipments(g, seat, o) end
  o.stage = "finished"                                 -- public: who has finished (O32)
  return o                                  -- plain data: the reveal reads its card, gold and steps
end

-- The order a seat is entering while the orders are open, or nil: the
-- seat's kept order (new_order) while it belongs to the seat's draft.
local function order_of(g, seat)
  local d = g:draft(seat)
  local desks = d and g._desks
  local o = desks and desks.orders[seat]
  if o and o.draft == d then return o end
  return nil
end

-- O32: whether a seat has finished its order.
local function finished(g, seat)
  local o = order_of(g, seat)
  return o ~= nil and o.stage == "finished"
end

-- Every seat enters its order at once and in secret (O14, O34). The
-- entry of each start and stop is made once (ENTRIES[start][upto]).
local ENTRIES = {}
function R.rules.enter_orders(g, start, upto)
  local made = ENTRIES[start]
  if not made then made = {}; ENTRIES[start] = made end
  local enter = made[upto or "all"]
  if not enter then
    enter = function(g2, seat, draft) return enter_order(g2, seat, start(g2, seat), upto, draft) end
    made[upto or "all"] = enter
  end
  return g:choose_orders(g:turn_order(1), "build order", enter)
end

-- O16: all orders become public at once; costs are paid to the bank.
function R.rules.reveal(g, orders)
  local desks = g._desks
  for s = 1, g.players do
    local o, card = orders[s], g.card[s]
    if o.card ~= card then                            -- the old card: the next order's desk
      g.card[s] = o.card
      if desks then desks[s] = card end
    end
    if o.gold ~= o.paid_from then g.gold:set(s, o.gold) end          -- else it paid nothing
    if o.arriving then                                 -- option new_tiles_work_this_turn off
      g.arriving = g.arriving or {}
      g.arriving[s] = { table.unpack(o.arriving) }
    end
    if g.logging and o.n > 0 then g:log("%s: %s", g.names[s], table.concat(o.steps, ", ", 1, o.n)) end
  end
end

local from_the_start = new_order                       -- (g, s): a new order, at its acquisition

local function from_the_ships(g, s)                    -- option secret_build = two_rounds
  local o = new_order(g, s)
  o.stage = "ships"
  return o
end

local function build_phase(g)
  g.phase = "build"
  if g.options.secret_build == "two_rounds" then          -- O34 option: two rounds
    R.rules.reveal(g, R.rules.enter_orders(g, from_the_start, "ships"))
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

-- O19: for each port and good, the number of different players sending it
-- (k[port][good], read for the goods ships send there). The tables are
-- kept for the game (g._sellers, a "_" field: not state), each trade
-- numbered: last[port][good] is the trade's mark plus the last seat counted,
-- and a count from an earlier trade starts again at 1.
local function sellers(g)
  local kept = g._sellers
  if not kept then kept = { trades = 0, count = {}, last = {} }; g._sellers = kept end
  local trades = kept.trades + 1
  kept.trades = trades
  local mark, k, seen = trades * 16, kept.count, kept.last     -- 8 seats at most (O1)
  for s = 1, g.players do
    local ships, seat = g.card[s].ships, mark + s
    for i = 1, #ships do
      local port, cargo = ships[i].port, ships[i].cargo
      if port then
        local count, last = k[port], seen[port]
        if not count then count, last = {}, {}; k[port], seen[port] = count, last end
        for j = 1, #cargo do
          local good = cargo[j]
          local before = last[good] or 0
          if before ~= seat then               -- a player counts once (O19)
            last[good] = seat
            count[good] = before > mark and count[good] + 1 or 1
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
  local fx = card._fx or effects(card)
  local raw_bonus = fx.raw_bonus or 0                               -- T7 Customs House
  local cargo = ship.cargo
  for i = 1, #cargo do
    local good = cargo[i]
    if good ~= cargo[1] then single = false end
    local fg = FG_VALUE[good]
    if fg then
      vp = vp + R.rules.price(fg, k[good])
    else
      gold = gold + R.rules.price(flat and 1 or RAW_VALUE[good], k[good])
      bonus_gold = bonus_gold + raw_bonus
    end
  end
  if single and FG_VALUE[ship.cargo[1]] then bonus_vp = bonus_vp + (fx.guild_vp or 0) * #ship.cargo end
  bonus_vp = bonus_vp + (fx.ship_vp or 0)                           -- Trade House
  return vp, gold, bonus_vp, bonus_gold
end

-- Why a ship yields what it does, for the log (O19-O21): each good's
-- price at the port (less 1 for each other player selling it there) and
-- the bonuses ("2 fg:red at 1 VP (2 players sell it there, O19); Trade
-- House +1 VP").
-- The texts the log and the prompt give players (one local for them all:
-- the main chunk is near Lua's 200 locals).
local WORDS = {}

function WORDS.yield(g, s, ship, k)
  local cargo, parts, seen = ship.cargo, {}, {}
  local flat = g.options.raw_gold == "flat"
  for i = 1, #cargo do
    local good = cargo[i]
    if not seen[good] then
      seen[good] = true
      local n = 0
      for j = 1, #cargo do if cargo[j] == good then n = n + 1 end end
      local fg = FG_VALUE[good]
      local price = R.rules.price(fg or (flat and 1 or RAW_VALUE[good]), k[good])
      parts[#parts + 1] = string.format("%s%s at %d %s%s%s", n > 1 and n .. " " or "", good, price, fg and "VP" or "gold",
        n > 1 and " each" or "",
        k[good] > 1 and string.format(" (%d players sell it there, O19)", k[good]) or "")
    end
  end
  local _, _, bonus_vp, bonus_gold = R.rules.ship_yield(g, s, ship, k)
  local fx = g.card[s]._fx or effects(g.card[s])
  if (fx.ship_vp or 0) > 0 then parts[#parts + 1] = string.format("Trade House +%d VP", fx.ship_vp) end
  if bonus_vp > (fx.ship_vp or 0) then parts[#parts + 1] = string.format("Guild Hall +%d VP", bonus_vp - (fx.ship_vp or 0)) end
  if bonus_gold > 0 then parts[#parts + 1] = string.format("Customs House +%d gold", bonus_gold) end
  return table.concat(parts, "; ")
end

function R.rules.trade(g)
  g.phase = "trade"
  local k = false                                    -- sellers(g), once a ship sells
  local robbed = g.robbed
  for s = 1, g.players do
    local ships = g.card[s].ships
    for i = 1, #ships do
      local ship = ships[i]
      if ship.port then
        k = k or sellers(g)
        local vp, gold, bonus_vp, bonus_gold = R.rules.ship_yield(g, s, ship, k[ship.port])
        local owner_vp, owner_gold = vp + bonus_vp, gold + bonus_gold
        local robbery = ""
        if robbed and robbed[1] == s and robbed[2] == i then             -- O21
          local pirate_vp = vp + bonus_vp
          owner_gold = 0                          -- all gold on the ship goes to the bank
          if g.options.pirate_takes == "goods" then pirate_vp, owner_vp = vp, bonus_vp
          else owner_vp = 0 end
          give_vp(g, false, pirate_vp)
          if g.logging then
            g:log("the pirate takes %d VP from %s's ship %d", pirate_vp, g.names[s], i)
            robbery = string.format("; robbed: %d VP to the pirate, %d gold to the bank (O21)", pirate_vp,
              gold + bonus_gold)
          end
        end
        give_vp(g, s, owner_vp)
        if owner_gold > 0 then g.gold:add(s, owner_gold) end
        if g.logging then
          g:log("%s's ship %d sells %s at %s: %d VP, %d gold - %s%s", g.names[s], i,
                table.concat(ship.cargo, ", "), port_name(g, ship.port), owner_vp, owner_gold,
                WORDS.yield(g, s, ship, k[ship.port]), robbery)
        end
        local owner = g.ring[ship.port].seat                            -- O22: the Pier
        if owner then
          local card = g.card[owner]
          local fx = card._fx or effects(card)
          give_vp(g, owner, fx.pier_vp or 0)
          local port_gold = fx.port_gold or 0                               -- T7 Lighthouse
          if port_gold > 0 then g.gold:add(owner, port_gold) end
          if g.logging and ((fx.pier_vp or 0) > 0 or port_gold > 0) then
            g:log("%s's port: %s", g.names[owner], (fx.pier_vp or 0) > 0 and port_gold > 0
              and string.format("Pier +%d VP, Lighthouse +%d gold", fx.pier_vp, port_gold)
              or (fx.pier_vp or 0) > 0 and string.format("Pier +%d VP (O22)", fx.pier_vp)
              or string.format("Lighthouse +%d gold (T7)", port_gold))
          end
        end
        ship.port = false
      end
      local cargo = ship.cargo                                         -- O22: back to supply
      if cargo[1] then for j = #cargo, 1, -1 do cargo[j] = nil end end
    end
  end
  g.pirate_holder, g.robbed = false, false                             -- O17: back beside the bank
  if g.pirate_vp >= g.pirate_target then g.ending = g.ending or "pirate" end   -- O30 (2)
  if vp_bank_left(g) == 0 then g.ending = g.ending or "VP bank" end           -- O30 (3)
end

---------------------------------------------------------------------------
-- Limit check (O23)
---------------------------------------------------------------------------

function R.rules.limit_check(g)
  local keeps, cards = R.data.pool_keeps, g.card
  local out = g.options.removed_workers == "bag" and g.bag or g.removed     -- O23
  for s = 1, g.players do
    local card = cards[s]
    local pool = card.pool
    local extra = pool.seaman + pool.land + pool.facility - keeps      -- count_of(pool)
    if extra > 0 then
      local more = effect(card, "keeps")                  -- a Tavern keeps more
      if more > keeps then extra = extra - (more - keeps) end
    end
    local i = 1
    while extra > 0 do                                    -- seamen, then land, then facility
      local kind = KINDS[i]
      if not kind then break end
      local n = pool[kind]
      if n > 0 then
        if n > extra then n = extra end
        pool[kind] = pool[kind] - n
        out[kind] = out[kind] + n
        extra = extra - n
        if g.logging then
          g:log("%s removes %d %s", g.names[s], n, n > 1 and R.data.kind_plurals[kind] or KIND_WORDS[kind])
        end
      end
      i = i + 1
    end
  end
end

---------------------------------------------------------------------------
-- Production (O25-O29, T10), in the rulebook's order: FG, dyes, cloth, wool
---------------------------------------------------------------------------

-- The most each seat may make of a good, a list kept for the game
-- (g._most, a "_" field: not state), made at the first production (each
-- step reads `g._most or most_by_seat(g)`); each step fills it afresh.
local function most_by_seat(g)
  local max = {}
  g._most = max
  return max
end

-- O25, option production_optional: how many of `max` each seat makes.
local function how_many(g, name, max_by_seat, good)
  if not g.options.production_optional then return max_by_seat end   -- all of it
  local made = {}
  for s = 1, g.players do made[s] = max_by_seat[s] end
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
  local fx = card._fx or effects(card)
  local cap, bath = fx.fg_per_worker or 0, fx.fg_per_dye_house_worker or 0
  if bath > 0 then
    for _, id in ipairs(R.data.dye_houses) do cap = cap + bath * staffed(card, id) end
  end
  return cap
end

local function dyes_in_store(card)
  local n, colours, store = 0, 0, card.store
  for i = 1, #COLOURS do
    local d = store[DYE_OF[COLOURS[i]]]
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

-- A cloth dyed with the most valuable dye in storage.
local function flip_best(card)
  local store = card.store
  for i = #COLOURS, 1, -1 do
    local c = COLOURS[i]
    if store[DYE_OF[c]] > 0 then flip_to_fg(card, c); return end
  end
end

-- O33: no real choice: the seat dyes all its dyes, or has one colour.
local function colours_forced(card, left)
  local dyes, colours = dyes_in_store(card)
  return left >= dyes or colours <= 1
end

-- O33: the colours, one unit at a time, only while there is a real choice;
-- option fg_colours = auto: the most valuable first.
local function fg_colours(g, left)
  local auto, choice = g.options.fg_colours == "auto", false
  for s = 1, g.players do
    local card = g.card[s]
    while left[s] > 0 and (colours_forced(card, left[s]) or auto) do
      flip_best(card)
      left[s] = left[s] - 1
    end
    choice = choice or left[s] > 0
  end
  while choice do
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
      local card = g.card[s]
      flip_to_fg(card, meaning[s][chosen[s]])
      left[s] = left[s] - 1
      while left[s] > 0 and colours_forced(card, left[s]) do    -- the rest may be forced now
        flip_best(card)
        left[s] = left[s] - 1
      end
    end
  end
end

function R.rules.finished_goods(g)                            -- O26
  local max = g._most or most_by_seat(g)
  for s = 1, g.players do
    local card = g.card[s]
    local cloth = card.store.cloth                                    -- each unit: a cloth and a dye
    local n = cloth > 0 and dyes_in_store(card) or 0
    if n > 0 then
      local cap = R.rules.fg_capacity(g, card)
      if cloth < n then n = cloth end
      if cap < n then n = cap end
    end
    max[s] = n
  end
  fg_colours(g, how_many(g, "make_fg", max, "finished goods"))
end

-- O27: whether a card's extract buildings for plantation `land` work:
-- with one staffed (the ruling), with one owned, or always (option
-- extract_mill_needs = build: the plantation is needed to build them).
local function extract_works(g, card, land)
  local needs = g.options.extract_mill_needs
  if needs == "staffed" then return (card.crew[land] or 0) > 0 end
  if needs == "owned" then return (card.own[land] or 0) > 0 end
  return true
end

-- O27: a colour's capacity: its staffed plantations, plus the extract
-- buildings when they work (extract_works).
function R.rules.dye_capacity(g, card, c)
  local land = LAND[c]
  local cap = card.crew[land] or 0                           -- staffed(card, land)
  if cap > 0 or (g.options.extract_mill_needs ~= "staffed" and extract_works(g, card, land)) then
    local extract = EXTRACT[g.options.buildings_24 and 2 or 1][c]
    for i = 1, #extract do
      local t = extract[i]
      if t.needs == land then cap = cap + t.dye_per_worker * staffed(card, t.id) end
    end
  end
  return cap
end

-- O27: a colour is made only with a staffed plantation of it (a bit of
-- card.manned), or, with option extract_mill_needs not "staffed", a
-- staffed extract building of it; its capacity is asked for those cards.
function R.rules.dyes(g)
  local max, capacity, cards, players = g._most or most_by_seat(g), R.rules.dye_capacity, g.card, g.players
  local makers = g.options.extract_mill_needs ~= "staffed" and DYE_MAKERS or LAND_BIT   -- O27
  local manned = 0                                           -- the tiles staffed on any card
  for s = 1, players do manned = manned | cards[s].manned end
  for i = 1, #COLOURS do
    local c = COLOURS[i]
    local bit = makers[c] or 0
    if manned & bit ~= 0 then                                -- else nobody makes this colour
      local dye, fg, any = DYE_OF[c], FG_OF[c], false
      for s = 1, players do
        local card = cards[s]
        local n = card.manned & bit ~= 0 and capacity(g, card, c) or 0
        if n > 0 then
          local store = card.store
          local room = dye_limit(g, card, c) - store[dye] - store[fg]
          if room < n then n = room end
          if n > 0 then any = true else n = 0 end
        else
          n = 0
        end
        max[s] = n
      end
      if any then                                            -- nothing to make: nothing asked
        local made = how_many(g, "make_dye", max, dye)
        for s = 1, players do
          local n = made[s]
          if n > 0 then
            local store = cards[s].store
            store[dye] = store[dye] + n
          end
        end
      end
    end
  end
end

function R.rules.cloth_capacity(g, card)                      -- O28: the looms
  local fx = card._fx or effects(card)
  return (fx.cloth or 0) + (fx.cloth_per_worker or 0)
end

-- O28: cloth only on a card with a loom staffed (a bit of card.manned).
function R.rules.cloth(g)
  local max, any, cards = g._most or most_by_seat(g), false, g.card
  for s = 1, g.players do
    local card = cards[s]
    local n = card.manned & LOOMS ~= 0 and card.store.wool or 0        -- each unit: a wool
    if n > 0 then
      local cap = R.rules.cloth_capacity(g, card)
      if cap < n then n = cap end
      any = any or n > 0
    end
    max[s] = n
  end
  if not any then return end
  local made = how_many(g, "make_cloth", max, "cloth")
  for s = 1, g.players do
    local store = cards[s].store
    store.wool = store.wool - made[s]                          -- each unit flips a wool token
    store.cloth = store.cloth + made[s]
  end
end

function R.rules.wool_capacity(g, card)                       -- O29
  local sheep = card.crew.sheep_herding or 0                  -- staffed(card, "sheep_herding")
  if sheep == 0 then return 0 end
  local fx = card._fx or effects(card)
  return sheep + (fx.wool_if_sheep or 0) + (fx.wool_per_sheep or 0) * sheep
end

function R.rules.wool(g)                                     -- O29
  local max, capacity, cards, players = g._most or most_by_seat(g), R.rules.wool_capacity, g.card, g.players
  for s = 1, players do
    local card = cards[s]
    local n = capacity(g, card)
    if n > 0 then                                            -- O5: within the tokens
      local store = card.store
      local room = wool_limit(g, card) - store.wool - store.cloth
      if room < n then n = room > 0 and room or 0 end
    end
    max[s] = n
  end
  local made = how_many(g, "make_wool", max, "wool")
  for s = 1, players do
    local n = made[s]
    if n > 0 then
      local store = cards[s].store
      store.wool = store.wool + n
    end
  end
end

-- Option new_tiles_work_this_turn off (open choice 15): the tiles and
-- ships acquired this turn are placed at its end, after production, and
-- work from the next turn.
local function place_arrivals(g)
  local arriving = g.arriving
  if not arriving then return end
  for s = 1, g.players do
    local card = g.card[s]
    for _, id in ipairs(arriving[s] or {}) do
      if id == "ship" then give_ship(card, ship_sizes(g)[#card.ships + 1]) else add_tile(card, id) end
    end
  end
  g.arriving = nil
end

-- What each player made at production and what it used, stage by stage
-- (a dye made this turn may replace one dyed into FG), as log lines: "Ann
-- makes 1 fg:red, 1 dye:red (uses 1 cloth, 1 dye:red)".
function WORDS.tally_stage(g, was, made, used)
  for s = 1, g.players do
    local store = g.card[s].store
    for _, good in ipairs(GOODS) do
      local d = store[good] - was[s][good]
      if d > 0 then made[s][#made[s] + 1] = d .. " " .. good end
      if d < 0 then used[s][#used[s] + 1] = -d .. " " .. good end
    end
  end
end

local function production(g)
  g.phase = "produce"
  local stages = { R.rules.finished_goods, R.rules.dyes, R.rules.cloth, R.rules.wool }
  if not g.logging then
    for i = 1, #stages do stages[i](g) end
    return
  end
  local made, used = {}, {}
  for s = 1, g.players do made[s], used[s] = {}, {} end
  for i = 1, #stages do
    local was = {}
    for s = 1, g.players do was[s] = {}; COPY_STORE(was[s], g.card[s].store) end
    stages[i](g)
    WORDS.tally_stage(g, was, made, used)
  end
  for s = 1, g.players do
    if #made[s] > 0 then
      g:log("%s makes %s%s", g.names[s], table.concat(made[s], ", "),
        #used[s] > 0 and " (uses " .. table.concat(used[s], ", ") .. ")" or "")
    end
  end
end

---------------------------------------------------------------------------
-- The game (O10)
---------------------------------------------------------------------------

function R.play(g)
  if not g.first then
    g.first = g:chance("first player", g.names)              -- O9
    g.keep_token = true
  end
  local from = g.resume_at or "turn"      -- table: a scenario's decision point
  g.resume_at = nil
  while true do
    if from == "turn" then turn_start(g) else g:begin_turn(g.first) end
    if from == "turn" or from == "bid" then bids_and_picks(g)
    elseif from == "pick" then
      local picker = g.resume_picker
      g.resume_picker = nil
      picks(g, g.pick_order, picker)
    end
    if from ~= "pirate" and from ~= "produce" then build_phase(g) end
    if from ~= "produce" then
      pirate(g)
      R.rules.trade(g)
      R.rules.limit_check(g)
    end
    production(g)
    place_arrivals(g)
    from = "turn"
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
-- Option descriptions (docs/rules/old_world.md), and why a move is refused
---------------------------------------------------------------------------

R.move_words = { "bid", "pick", "acquire", "release", "assign", "load", "sail", "done", "rob", "none",
                 "colour", "make" }

-- What a tile does while staffed (O8), from its own fields (T4, T5, T7).
local function tile_name(id) return TILE[id] and TILE[id].name or id end
local TILE_EFFECT = {
  wool = function(n) return ("%d wool a turn (O29)"):format(n) end,
  wool_if_sheep = function(n) return ("+%d wool a turn with a staffed Sheep Herding (O29)"):format(n) end,
  wool_per_sheep = function(n) return ("+%d wool per staffed Sheep Herding (O29)"):format(n) end,
  cloth = function(n) return ("weaves %d wool into cloth a turn (O28)"):format(n) end,
  cloth_per_worker = function(n) return ("weaves %d wool into cloth per worker (O28)"):format(n) end,
  fg_per_worker = function(n) return ("dyes %d cloth into finished goods per worker (O26)"):format(n) end,
  fg_per_dye_house_worker = function(n) return ("+%d finished good per dye house worker (O26)"):format(n) end,
  harbor = function(n) return ("shipping costs %d gold less (O3)"):format(n) end,
  pier_vp = function(n) return ("+%d VP for each ship that sells at your port (O22)"):format(n) end,
  keeps = function(n) return ("your pool keeps %d workers at the limit check (O23)"):format(n) end,
  ship_vp = function(n) return ("+%d VP for each ship of yours that sells"):format(n) end,
  guild_vp = function(n) return ("+%d VP per finished good on a ship of one good only"):format(n) end,
  wool_limit = function(n) return ("room for %d wool and cloth more (O5)"):format(n) end,
  dye_limit = function(n) return ("room for %d more of each colour (O5)"):format(n) end,
  raw_bonus = function(n) return ("+%d gold per raw good sold (T7)"):format(n) end,
  port_gold = function(n) return ("+%d gold for each ship that sells at your port (T7)"):format(n) end,
}

function R.tile_effect(id)
  local t = TILE[id]
  if not t then return nil end
  local out = {}
  if t.land and t.dye then out[#out + 1] = ("1 %s dye a turn (O27)"):format(t.dye) end
  if t.dye_per_worker then
    out[#out + 1] = ("+%d %s dye per worker with a staffed %s (O27)"):format(t.dye_per_worker, t.dye, tile_name(t.needs))
  end
  for _, field in ipairs { "wool", "wool_if_sheep", "wool_per_sheep", "cloth", "cloth_per_worker", "fg_per_worker",
      "fg_per_dye_house_worker", "harbor", "pier_vp", "keeps", "ship_vp", "guild_vp", "wool_limit", "dye_limit",
      "raw_bonus", "port_gold" } do
    if t[field] then out[#out + 1] = TILE_EFFECT[field](t[field]) end
  end
  return table.concat(out, ", ")
end

-- One line of a 120-column terminal for every option of the acquisition
-- (24 of them: wrapped, they filled more than a 40-row screen): the cost,
-- its slots (a building's take facility workers; a tile works while
-- staffed, O8) and what it makes. The gold left is said once, by "acquire
-- none".
local function tile_description(id)
  local t = TILE[id]
  local does = t.dye_per_worker
    and ("+%d %s dye per worker if %s works (O27)"):format(t.dye_per_worker, t.dye, tile_name(t.needs))
    or R.tile_effect(id)
  return ("%d gold, %s: %s"):format(t.cost,
    t.land and "a land worker" or ("%d slot%s"):format(t.slots, t.slots == 1 and "" or "s"), does)
end

local function good_worth(good)
  if FG_VALUE[good] then return ("%d VP"):format(FG_VALUE[good]) end
  return ("%d gold"):format(RAW_VALUE[good])
end

-- "done" at each step of the build order (O14): what it ends.
local DONE_WORDS = {
  release = "release no more workers (O14b)", assign = "assign no more workers (O14b)",
  load = "load no more goods (O14c)",
}

-- "ship 2 (holds 4, 1 loaded)": the ship a load or sail step is for (a
-- player with two ships could not tell which one the goods went onto).
function WORDS.ship(o)
  local ship = o and o.card and o.card.ships[o.ship]
  if not ship then return nil end
  return ("ship %d (holds %d, %d loaded)"):format(o.ship, ship.size, #ship.cargo)
end

function R.describe_option(g, seat, decision, text)
  if text == DONE then
    local words = DONE_WORDS[decision] or "end this part of your build order (O14)"
    local on = decision == "load" and WORDS.ship(order_of(g, seat))
    return on and (on .. ": " .. words) or words
  end
  local made = text:match("^make (%d+) ")   -- option production_optional: this step's most (how_many)
  if made and g._most and g._most[seat] then
    return ("%s of the %d you can make now: your capacity, inputs and tokens (O25)"):format(made, g._most[seat])
  end
  local n = text:match("^bid (%d+)$")
  if n then
    return ("pay %s gold, lost; higher bids pick first (O12); you have %d"):format(n, g.gold:get(seat))
  end
  local kind = text:match("^pick (%a+)")
  if kind == "land" or kind == "facility" or kind == "seaman" then
    -- where it could work on the seat's card now, beside those in the pool
    -- (a worker with no slot is the first to leave at the limit check, O23)
    local card, free = g.card[seat], 0
    if kind == "seaman" then
      for _, ship in ipairs(card.ships) do free = free + 1 - ship.crew end
    else
      for _, i in ipairs(card.tiles) do
        local t = TILES_24[i]
        if t.kind == kind then free = free + card.own[t.id] * t.slots - (card.crew[t.id] or 0) end
      end
    end
    local slot = kind == "seaman" and "ship" or kind == "land" and "land slot" or "building slot"
    return ("to your pool, for a %s (O13); free now: %d %s%s, in your pool: %d"):format(
      kind == "seaman" and "ship" or kind == "land" and "land tile" or "building", free, slot,
      free == 1 and "" or "s", card.pool[kind])
  end
  if text == "pick pirate" then return "you rob one ship this turn, after the build (O17)" end
  local o = order_of(g, seat)
  local id = text:match("^acquire %a+:([%w_]+)$")
  if id and TILE[id] then return tile_description(id) end
  if text == ACQUIRE_SHIP and o then
    local size = ship_sizes(g)[#o.card.ships + 1]
    return ("%d gold: ship %d, holds %d (T3, O14a)"):format(size * R.data.ship_cost_per_slot, #o.card.ships + 1, size)
  end
  if text == ACQUIRE_NONE then return o and ("keep your %d gold"):format(o.gold) or nil end
  id = text:match("^assign ([%a_]+)$")
  if id and TILE[id] then return ("staffs the %s: %s"):format(tile_name(id), R.tile_effect(id)) end
  id = text:match("^release ([%a_]+)$")
  if id and TILE[id] then return ("its worker back to your pool: the %s stops"):format(tile_name(id)) end
  local k = tonumber(text:match("^assign ship (%d+)$") or "")
  if k and o then return ("a seaman crews ship %d (holds %d): it may sail"):format(k, o.card.ships[k].size) end
  k = tonumber(text:match("^release ship (%d+)$") or "")
  if k then return "its seaman back to your pool: the ship stays home" end
  local good = text:match("^load (%S+)$")
  if good and GOOD_INDEX[good] then
    local on = WORDS.ship(o)
    return ("%s%s at a port, 1 less per other seller there (O19)"):format(
      on and ("onto " .. on .. ": ") or "", good_worth(good))
  end
  local port = text:match("^sail (%a+)$")
  if port and o then
    for i, e in ipairs(g.ring) do
      if e.port == port then
        local on = WORDS.ship(o)
        return ("%scosts %d gold (O3); %s"):format(on and (on .. " sails there: ") or "",
          R.rules.shipping_cost(g, seat, o.card, i), e.seat and (g.names[e.seat] .. "'s port") or "a trading post")
      end
    end
  end
  local rs, rk = text:match("^rob seat (%d+) ship (%d+)$")
  if rs then
    local ship = g.card[tonumber(rs)].ships[tonumber(rk)]
    if not (ship and ship.port) then return nil end
    -- what it sells for there (O19-O21), the players selling each good at
    -- that port counted here (the trade's own count is a cache it keeps)
    local sold, count, goods = {}, {}, {}
    for _, it in ipairs(ship.cargo) do
      if not count[it] then
        goods[#goods + 1] = it
        local players = 0
        for p = 1, g.players do
          local sells = false
          for _, other in ipairs(g.card[p].ships) do
            if other.port == ship.port then
              for _, c in ipairs(other.cargo) do if c == it then sells = true end end
            end
          end
          if sells then players = players + 1 end
        end
        sold[it] = players
      end
      count[it] = (count[it] or 0) + 1
    end
    for i, it in ipairs(goods) do goods[i] = (count[it] > 1 and count[it] .. " " or "") .. it end
    local vp, gold, bonus_vp, bonus_gold = R.rules.ship_yield(g, tonumber(rs), ship, sold)
    if g.options.pirate_takes ~= "goods" then vp = vp + bonus_vp end    -- "goods": the bonuses stay
    return ("%s's %s to %s: the pirate takes %d VP, the bank %d gold (O21)"):format(g.names[tonumber(rs)],
      table.concat(goods, ", "), port_name(g, ship.port), vp, gold + bonus_gold)
  end
  if text == "none" then return "rob no ship" end
  local c = text:match("^colour (%a+)$")
  if c and FG_OF[c] then
    return ("a %s finished good, %s (T2), from 1 %s dye and 1 cloth (O26)"):format(c, good_worth(FG_OF[c]), c)
  end
  return nil
end

-- The end screen's reason (O31): most VP; then most gold; then the
-- goods' value; then shared.
function R.why_won(g)
  local winners = R.winners(g)
  local w = winners[1]
  local names = {}
  for i, s in ipairs(winners) do names[i] = g.names[s] end
  local vp, gold, goods = g.vp:get(w), g.gold:get(w), R.rules.goods_value(g, w)
  local tied = 0                  -- how many of the keys a rival ties on, the most of any rival
  for s = 1, g.players do
    if s ~= w and g.vp:get(s) == vp then
      local depth = g.gold:get(s) ~= gold and 1 or R.rules.goods_value(g, s) ~= goods and 2 or 3
      if depth > tied then tied = depth end
    end
  end
  local by = ({ [0] = "the most VP", "the most VP, tied; then the most gold (O31)",
    "the most VP and gold, tied; then the goods' value (O31)",
    "the most VP, gold and goods' value, tied (O31)" })[tied]
  local why = ("%s %s with %d VP, %d gold, goods worth %d: %s"):format(table.concat(names, " and "),
    #winners > 1 and "share the win" or "wins", vp, gold, goods, by)
  if g.pirate_vp > 0 then why = why .. ("; the pirate took %d VP"):format(g.pirate_vp) end
  return why .. (g.ending and ("; the game ended: " .. g.ending .. " (O30)") or "")
end

-- Why a text is refused now (g:why): the phase, the gold, the rules.
local STAGE_WORDS = {
  bid = "the bids (O12): 'bid <gold>'", pick = "the picks (O13): 'pick <worker>'",
  acquire = "your build order's acquisition (O14): 'acquire ...'",
  release = "your build order's releases (O14): 'release ...' or 'done'",
  assign = "your build order's assignments (O14): 'assign ...' or 'done'",
  load = "loading a ship (O14): 'load <good>' or 'done'", sail = "a ship's destination (O14): 'sail <port>'",
  rob = "the pirate's robbery (O17)", colour = "the colours of finished goods (O33)",
  make_fg = "how many finished goods to make (O26, option production_optional): 'make <n> finished goods'",
  make_dye = "how many of a dye to make (O27, option production_optional): 'make <n> dye:<colour>'",
  make_cloth = "how much cloth to make (O28, option production_optional): 'make <n> cloth'",
  make_wool = "how much wool to make (O29, option production_optional): 'make <n> wool'",
}
local PHASE_OF = { bid = "bid", pick = "pick", acquire = "build", release = "build", assign = "build",
  load = "build", sail = "build", done = "build", rob = "pirate", none = "pirate", colour = "produce", make = "produce" }

local function why_acquire(g, seat, name, text)
  local kind, id = text:match("^acquire (%a+):([%w_]+)$")
  if not kind and text ~= ACQUIRE_SHIP then return nil end
  if name ~= "acquire" then
    return "one acquisition a turn, first in your build order (O14): " .. (name == "release" and
      "now the releases" or "it is done")
  end
  local o = order_of(g, seat)
  local gold = o and o.gold or g.gold:get(seat)
  if text == ACQUIRE_SHIP then
    if o and o.extra_ship then return "one ship a turn besides the building or land (option ship_is_acquisition)" end
    local next_ship = (o and #o.card.ships or #g.card[seat].ships) + 1
    local size = ship_sizes(g)[next_ship]
    if not size then return ("you have every ship a player may have (%d, T3)"):format(#ship_sizes(g)) end
    return ("ship %d costs %d gold and you have %d"):format(next_ship, size * R.data.ship_cost_per_slot, gold)
  end
  local t = TILE[id]
  if not t or (t.land and kind ~= "land") or (not t.land and kind ~= "building") then
    return ("there is no %s '%s'"):format(kind, id)
  end
  local in_play = false
  for _, x in ipairs(tiles_of(g)) do if x == t then in_play = true end end
  if not in_play then return ("the %s is not in play (option buildings_24, O4)"):format(t.name) end
  local owned = (o and o.card.own[id]) or 0
  if owned >= (t.count or 1) then return ("you own %d %s, the most a player may (T4, T5)"):format(owned, t.name) end
  if o and extract_unbuildable(g, o.card) & t.bit ~= 0 then
    return ("the %s needs a %s first (option extract_mill_needs = build, O27)"):format(t.name, TILE[t.needs].name)
  end
  if t.cost > gold then return ("the %s costs %d gold and you have %d"):format(t.name, t.cost, gold) end
  return nil
end

-- O14b: why "release x" or "assign x" (a tile's id, or "ship k") is refused.
local function why_worker(g, seat, verb, x)
  local card = order_of(g, seat)
  card = card and card.card or g.card[seat]
  local k = tonumber(x:match("^ship (%d+)$") or "")
  if k then
    local ship = card.ships[k]
    if not ship then return ("you have no ship %d"):format(k) end
    if verb == "release" then return ship.crew == 0 and ("ship %d has no seaman"):format(k) or nil end
    if ship.crew > 0 then return ("ship %d has its seaman"):format(k) end
    return card.pool.seaman == 0 and "you have no seaman in your pool" or nil
  end
  local t = TILE[x]
  if not t then return ("there is no tile '%s'"):format(x) end
  local own, crew = card.own[x] or 0, card.crew[x] or 0
  if own == 0 then return ("you own no %s"):format(t.name) end
  if verb == "release" then return crew == 0 and ("nobody works on the %s"):format(t.name) or nil end
  if crew >= own * t.slots then return ("the %s has no free slot"):format(t.name) end
  if card.pool[t.kind] == 0 then return ("you have no %s in your pool"):format(KIND_WORDS[t.kind]) end
  return nil
end

-- O14c: why "load good" is refused.
local function why_load(g, seat, good)
  if not GOOD_INDEX[good] then return ("there is no good '%s' (O18)"):format(good) end
  local o = order_of(g, seat)
  local store = o and o.card.store or g.card[seat].store
  return store[good] == 0 and ("you have no %s in storage to load"):format(good) or nil
end

-- O3, O14d: why "sail port" is refused.
local function why_sail(g, seat, port)
  local to
  for i, e in ipairs(g.ring) do if e.port == port then to = i end end
  if not to then return ("there is no port '%s' in this game (O2)"):format(port) end
  if to == g.home[seat] then return ("a ship never sails to its own port, %s (O3)"):format(port) end
  local o = order_of(g, seat)
  if not o then return nil end
  return ("sailing to %s costs %d gold and you have %d (O3)"):format(port,
    R.rules.shipping_cost(g, seat, o.card, to), o.gold)
end

-- O17: why "rob seat s ship k" or "none" is refused.
local function why_rob(g, seat, text)
  if text == "none" then return "the pirate must rob a loaded ship (option pirate_may_pass)" end
  local s, k = text:match("^rob seat (%d+) ship (%d+)$")
  s, k = tonumber(s), tonumber(k)
  if not s or not g.card[s] then return "name a seat and its ship: 'rob seat <seat> ship <ship>'" end
  if s == seat then return "the pirate robs another player's ship (O17)" end
  local ship = g.card[s].ships[k]
  if not ship then return ("%s has no ship %d"):format(g.names[s], k) end
  return #ship.cargo == 0 and ("%s's ship %d carries no cargo"):format(g.names[s], k) or nil
end

-- O33: why "colour c" is refused.
local function why_colour(g, seat, c)
  if not FG_OF[c] then return ("there is no colour '%s'"):format(c) end
  return g.card[seat].store[DYE_OF[c]] == 0 and ("you have no %s dye"):format(c) or nil
end

-- The reason for the step the seat is asked now (name), if the text is
-- of that step.
local function why_step(g, seat, name, verb, text)
  local rest = text:match("^%a+ (.+)$") or ""
  if name == "assign" and text == DONE and g.options.forced_placement then
    return "a worker in your pool must go onto a free slot of its kind (option forced_placement, O14b)"
  end
  if verb ~= name and not (name == "rob" and verb == "none") then return nil end
  if verb == "release" or verb == "assign" then return why_worker(g, seat, verb, rest) end
  if verb == "load" then return why_load(g, seat, rest) end
  if verb == "sail" then return why_sail(g, seat, rest) end
  if name == "rob" then return why_rob(g, seat, text) end
  if verb == "colour" then return why_colour(g, seat, rest) end
  return nil
end

-- O25, option production_optional: why "make n good" is refused: more
-- than this step's most (g._most, how_many), for its own good.
local MAKES = { make_fg = "finished goods", make_cloth = "cloth", make_wool = "wool" }
local function why_make(g, seat, name, text)
  local n, good = text:match("^make (%d+) (.+)$")
  local most = g._most and g._most[seat]
  if not most or not n or tonumber(n) <= most then return nil end
  if good ~= MAKES[name] and not (name == "make_dye" and good:match("^dye:")) then return nil end
  return ("you can make at most %d now: your capacity, inputs and tokens (O25-O29)"):format(most)
end

local function why(name, g, seat, text)
  local verb = text:match("^(%a+)") or ""
  local want = PHASE_OF[verb]
  if want and want ~= g.phase then
    return ("it is the %s phase, not the %s phase: now %s"):format(g.phase, want, STAGE_WORDS[name] or name)
  end
  local reason = why_acquire(g, seat, name, text) or why_step(g, seat, name, verb, text)
  if reason then return reason end
  local n = tonumber(text:match("^bid (%d+)$") or "")
  if n and n > g.gold:get(seat) then return ("you have %d gold"):format(g.gold:get(seat)) end
  if verb == "pick" then return "only the kinds still in the line can be picked" end
  if name:match("^make_") then reason = why_make(g, seat, name, text) end
  if reason then return reason end
  return "now: " .. (STAGE_WORDS[name] or name)
end

-- The prompt's words for the decisions a bare name does not explain
-- ("Ann, your move (colour)" said nothing of what was coloured).
R.decision_words = { rob = "the pirate robs a ship (O17)", colour = "the colour of a finished good you make (O33)" }

R.explain = {}
for _, name in ipairs { "bid", "pick", "acquire", "release", "assign", "load", "sail", "rob", "colour",
    "make_fg", "make_dye", "make_cloth", "make_wool" } do
  R.explain[name] = function(g, seat, text) return why(name, g, seat, text) end
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
-- several turns, which random steps wreck: mcts judges the position where
-- its tree ends by R.estimate (the chain's VP to come), with no random
-- steps after it; by each seat's lead over the best other less its lead at
-- the decision, through a logistic of 1 VP (so a seat far behind or far
-- ahead still tells a better move from a worse); and a move of several
-- steps (a build order, loading a ship) half by its best line. Measured
-- with tests/bots/strength.lua against 3 greedy seats, 4 players, 100
-- iterations: 46.5% [41.9, 51.1] of 400 games (deals 1-100; R.score, 30
-- steps, margin=3: none of 24, deals 1-6); screens, deals 101-115: 51.7%
-- of 60 games, best=0 41.7%, best=1 16.7%; deals 1-3 without center:
-- none of 12. 2 players, deals 101-110: 85.0% of 20 games (best=0:
-- 45.0%). docs/bots.md, "Old World's mcts". 600 iterations a decision,
-- not 1000: a build order is some six decisions of the bot's, and at 1000
-- a person waited up to 1.8 s of CPU (2.4 s at the table) for the bots'
-- round; 600 won 71.9% [56.5, 87.3] of 32 games against 1000 (2 players,
-- deals 1-16), so it is no weaker.
R.bot_options = { mcts = { estimate = 1, rollout = 0, margin = 1, center = 1, best = 0.5, iterations = 600 } }

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

-- A good's worth in storage and on a ship, by the weights above (made
-- again when R.prepare has made the goods again).
local STORED_WORTH, SHIPPED_WORTH, WORTH_OF = {}, {}, nil
local function worths()
  if WORTH_OF == GOODS then return end
  for _, good in ipairs(GOODS) do
    local fg = FG_VALUE[good]
    STORED_WORTH[good] = fg and STORED_FG * fg or GOLD * RAW_VALUE[good]
    SHIPPED_WORTH[good] = FG_VALUE[good] or GOLD * RAW_VALUE[good]
  end
  WORTH_OF = GOODS
end

local function goods_worth(card)
  worths()
  local n, store, ships = 0, card.store, card.ships
  for i = 1, #GOODS do
    local good = GOODS[i]
    n = n + store[good] * STORED_WORTH[good]
  end
  for k = 1, #ships do
    local ship = ships[k]
    if ship.crew > 0 then n = n + CREWED_SHIP end
    local cargo = ship.cargo
    for j = 1, #cargo do n = n + SHIPPED_WORTH[cargo[j]] end
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
  for i = 1, #COLOURS do                     -- O27: only with the colour's plantation staffed
    local c = COLOURS[i]
    if card.manned & (LAND_BIT[c] or 0) ~= 0 then
      local room = dye_limit(g, card, c) - store[DYE_OF[c]] - store[FG_OF[c]] + fg_cap
      local n = R.rules.dye_capacity(g, card, c)
      if room < n then n = room end
      if n > 0 then dyes, fg_vp = dyes + n, fg_vp + n * FG_VALUE[FG_OF[c]] end
    end
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
  local o = order_of(g, seat)
  if o then card, gold = o.card, o.gold end
  return g.vp:get(seat) + GOLD * gold + goods_worth(card) + works_worth(g, card)
end

-- Position evaluation (docs/bots.md)
--
-- R.estimate(g, seat): the VP the seat may expect at the end (O31), from
-- what it may see, as a player reckons it: R.score's VP, gold (a tenth of
-- a VP a gold) and goods (goods_worth), and the chain's worth: the VP its
-- finished goods will make by the end. The chain: sheep make wool (O29),
-- a loom weaves it into cloth (O28), a plantation makes dyes (O27), a dye
-- house dyes cloth into finished goods (O26), a ship with its seaman takes
-- them to a port for VP (O20). The goods it ships a turn are its weakest
-- link's; a link missing still has to be bought (one acquisition a turn,
-- O14a, at its cost in R.data), a tile without its worker staffed (O8);
-- each such turn is a turn the chain ships nothing. Nothing on the last
-- turn: what is made then never sails. While workers are in the line
-- (O12, O13), those the seat will pick count as in its pool: a bid that
-- brings a pick sooner is worth what that worker adds (CHAIN.picks).

-- A chain's VP to come count at `share`: pirates, other sellers at the
-- port (O19) and the worker draw may cost some. A link beyond the weakest
-- counts `beyond` of a unit: the start of a larger chain. Workers in the
-- pool count at `pool` of what they add on the free slots (assigning them
-- is worth more). Turns a link still costs: to buy it (half a turn more
-- without a worker for it in the pool), or to staff a tile whose worker
-- must still be picked; gold the seat lacks comes at about a gold a turn
-- (raw goods sold, O20; the token, O11).
-- (The estimate's constants and functions are one table: the script's
-- locals are near Lua's limit of 200.)
local CHAIN = { share = 1 / 2, beyond = 1 / 4, pool = 3 / 4,
  buy_turns = 1, pick_turns = 1, gold_a_turn = 1 }

-- The turns after this one (O30): none once the game is ending, else
-- until the bag runs out at this turn's draw (O11), or the turn cap.
function CHAIN.turns_left(g)
  if g.ending then return 0 end
  local open = 0
  for s = 1, g.players do open = open + g.card[s].open end
  local draw = open // 2 + g.players
  local bag = g.bag.seaman + g.bag.land + g.bag.facility
  return math.max(0, math.min(R.data.turn_cap - g.turn, bag // draw))
end

-- The cheapest tile of R.data's list with `field` (a missing link).
local function cheapest(list, field)
  local best
  for _, t in ipairs(list) do
    if t[field] and (not best or t.cost < best.cost) then best = t end
  end
  return best
end

-- What the estimate reads from R.data, made again when R.prepare has
-- made the goods again: the tile a player buys for a missing link (the
-- cheapest; for the dye link the plantation with the most VP of its
-- finished good for each gold it costs, T2, T4), and the colours by the
-- VP of their finished goods, best first (O33).
function CHAIN.prepare()
  if CHAIN.made_for == GOODS then return end
  local d = R.data
  CHAIN.sheep, CHAIN.house = cheapest(d.lands, "wool"), cheapest(d.buildings, "fg_per_worker")
  CHAIN.loom = cheapest(d.buildings, "cloth") or cheapest(d.buildings, "cloth_per_worker")
  local best, worth = nil, -1
  for _, t in ipairs(d.lands) do
    local v = t.dye and d.fg_value[t.dye] / math.max(1, t.cost)
    if v and v > worth then best, worth = t, v end
  end
  CHAIN.plantation = best
  CHAIN.by_value = { table.unpack(COLOURS) }
  table.sort(CHAIN.by_value, function(x, y) return d.fg_value[x] > d.fg_value[y] end)
  CHAIN.link_bits, CHAIN.links = 0, {}       -- the tiles of a link, and its link by index (see link_of)
  for _, t in ipairs(TILES_24) do
    CHAIN.links[t.index] = CHAIN.link_of(t) or false
    if CHAIN.link_of(t) then CHAIN.link_bits = CHAIN.link_bits | t.bit end
  end
  CHAIN.made, CHAIN.rates, CHAIN.made_for = {}, {}, GOODS
end

-- A link that makes nothing now: what it will make once it works, the
-- turns until then and the gold it costs. `idle`: the card has a tile of
-- the link without its worker; `kind`: the worker it needs (O8).
function CHAIN.missing_link(card, idle, kind, tile, rate)
  if idle then return rate, CHAIN.pick_turns, 0 end
  return rate, CHAIN.buy_turns + (card.pool[kind] > 0 and 0 or CHAIN.pick_turns / 2), tile.cost
end

-- Wool (O29): staffed sheep, with the sheds and shears.
function CHAIN.wool_link(g, card)
  local n = R.rules.wool_capacity(g, card)
  if n > 0 then return n, 0, 0 end
  local sheep = CHAIN.sheep
  return CHAIN.missing_link(card, (card.own[sheep.id] or 0) > 0, "land", sheep, 1)
end

-- Cloth (O28): the staffed looms.
function CHAIN.cloth_link(g, card)
  local n = card.manned & LOOMS ~= 0 and R.rules.cloth_capacity(g, card) or 0
  if n > 0 then return n, 0, 0 end
  local loom = CHAIN.loom
  return CHAIN.missing_link(card, card.room & LOOMS ~= 0, "facility", loom, loom.cloth or loom.cloth_per_worker)
end

-- Finished goods (O26): the staffed dye houses.
function CHAIN.fg_link(g, card)
  local n = R.rules.fg_capacity(g, card)
  if n > 0 then return n, 0, 0 end
  local house = CHAIN.house
  return CHAIN.missing_link(card, (card.own[house.id] or 0) > 0, "facility", house, house.fg_per_worker)
end

-- Dyes (O27): the dyes made a turn, by colour in CHAIN.made. With no
-- plantation staffed, the one a player buys, or an idle one whose colour
-- is worth as much.
function CHAIN.dye_link(g, card)
  local n, made = 0, CHAIN.made
  for i = 1, #COLOURS do
    local c = COLOURS[i]
    local k = card.manned & (LAND_BIT[c] or 0) ~= 0 and R.rules.dye_capacity(g, card, c) or 0
    made[c], n = k, n + k
  end
  if n > 0 then return n, 0, 0 end
  local land = CHAIN.plantation
  for i = 1, #COLOURS do
    local c = COLOURS[i]
    if card.own[LAND[c]] and R.data.fg_value[c] >= R.data.fg_value[land.dye] then land = TILE[LAND[c]] end
  end
  local rate, turns, cost = CHAIN.missing_link(card, land ~= CHAIN.plantation or (card.own[land.id] or 0) > 0,
    "land", land, 1)
  made[land.dye] = rate
  return rate, turns, cost
end

-- The VP of `upto` finished goods a turn from the dyes made, the best
-- colours first (O33); a share of a unit beyond them at the last one's.
function CHAIN.fg_vp(upto)
  local vp, left, last, made, value = 0, upto, 0, CHAIN.made, R.data.fg_value
  for _, c in ipairs(CHAIN.by_value) do
    local k = made[c]
    if k > 0 then
      if k > left then k = left end
      vp, left, last = vp + k * value[c], left - k, value[c]
    end
  end
  return vp + left * last
end

-- Shipping (O20): the holds of the manned ships.
function CHAIN.ship_link(card)
  local n = 0
  for k = 1, #card.ships do
    local ship = card.ships[k]
    if ship.crew > 0 then n = n + ship.size end
  end
  if n > 0 then return n, 0 end
  return card.ships[1] and card.ships[1].size or 0, CHAIN.pick_turns
end

-- Turns before the first finished good sails: none with cloth and dyes in
-- storage (dyed this turn, shipped the next), one more for wool to weave
-- or dyes to make, two with no wool either (O25: a step's goods are not
-- an earlier step's input in the same turn).
function CHAIN.pipeline(card)
  local store, dyes = card.store, 0
  for i = 1, #COLOURS do dyes = dyes + store[DYE_OF[COLOURS[i]]] end
  local cloth = store.cloth > 0 and 0 or store.wool > 0 and 1 or 2
  return math.max(cloth, dyes > 0 and 0 or 1)
end

-- The link a tile serves (T4, T5, T7): sheep and shears wool, looms
-- cloth, plantations and extract buildings dyes, dye houses and the
-- Mordant Bath finished goods; nil for the others.
function CHAIN.link_of(t)
  if t.wool or t.wool_if_sheep or t.wool_per_sheep then return "wool" end
  if t.cloth or t.cloth_per_worker then return "cloth" end
  if t.dye then return "dye" end
  if t.fg_per_worker or t.fg_per_dye_house_worker then return "fg" end
  return nil
end

-- The card with its pool's land and facility workers on its free slots
-- (O14b), each on a tile of the weakest link (`rates`) it can staff; nil
-- when none has a slot. A sketch for the estimate, not a card of the game:
-- its crew reads the card's below the workers placed.
function CHAIN.with_pool(card, rates)
  local pool, free = card.pool, card.room & CHAIN.link_bits
  local ships = CHAIN.manned_by_pool(card)
  if ships == card.ships and (free == 0 or (pool.land == 0 or free & LAND_BITS == 0)
      and (pool.facility == 0 or free & FACILITY_BITS == 0)) then
    return nil
  end
  local crew, left = setmetatable({}, { __index = card.crew }), { land = pool.land, facility = pool.facility }
  local manned, tiles = card.manned, card.tiles
  while true do
    local best, weakest
    for i = 1, #tiles do
      local t = TILES_24[tiles[i]]
      local link = CHAIN.link_of(t)
      if link and left[t.kind] > 0 and (crew[t.id] or 0) < card.own[t.id] * t.slots
          and (not best or rates[link] < weakest) then
        best, weakest = t, rates[link]
      end
    end
    if not best then break end
    crew[best.id], left[best.kind], manned = (crew[best.id] or 0) + 1, left[best.kind] - 1, manned | best.bit
  end
  return { own = card.own, crew = crew, tiles = tiles, manned = manned, room = 0, store = card.store,
           ships = ships, pool = { seaman = 0, land = left.land, facility = left.facility }, _fx = false }
end

-- A ship sails only with its seaman (O8); a seaman in the pool is assigned
-- to a ship without one in the build order (O14b). The card's ships with
-- the pool's seamen on those without a seaman, in ship order (a sketch's
-- list), or the card's own list when there is none to man.
function CHAIN.manned_by_pool(card)
  local ships, n = card.ships, card.pool.seaman
  if n == 0 then return ships end
  local out
  for k = 1, #ships do
    local ship = ships[k]
    if ship.crew == 0 and n > 0 then
      out = out or { table.unpack(ships) }
      out[k], n = { size = ship.size, crew = 1, cargo = ship.cargo }, n - 1
    end
  end
  return out or ships
end

-- What the chain will ship by the end (see chain_worth), and each link's
-- rate now (0 while it waits).
function CHAIN.worth(g, card, gold, turns)
  local w, wt, wc = CHAIN.wool_link(g, card)
  local c, ct, cc = CHAIN.cloth_link(g, card)
  local d, dt, dc = CHAIN.dye_link(g, card)
  local f, ft, fc = CHAIN.fg_link(g, card)
  local s, st = CHAIN.ship_link(card)
  local rates = CHAIN.rates
  rates.wool, rates.cloth = wt > 0 and 0 or w, ct > 0 and 0 or c
  rates.dye, rates.fg = dt > 0 and 0 or d, ft > 0 and 0 or f
  local cost = wc + cc + dc + fc
  local wait = math.max(wt + ct + dt + ft, st) + math.max(0, cost - gold) / CHAIN.gold_a_turn
  local weakest = math.min(w, c, d, f, s)
  local rate = weakest
  if wait == 0 then                          -- a working chain grows link by link
    local b = CHAIN.beyond
    rate = rate + b * (math.min(1, w - weakest) + math.min(1, c - weakest) + math.min(1, d - weakest)
      + math.min(1, f - weakest))
  end
  local shipping = turns - CHAIN.pipeline(card) - wait
  if shipping <= 0 then return -GOLD * cost, rates end
  return CHAIN.share * CHAIN.fg_vp(rate) * shipping - GOLD * cost, rates
end

-- The chain's worth: the finished goods it ships a turn (its weakest
-- link; once every link works, a share for each link beyond it) times
-- their VP, for the turns left once its missing links work, less the gold
-- they cost; with a share of what the workers in the pool would add.
-- Nothing on the last turn.
function CHAIN.chain_worth(g, card, gold)
  local turns = CHAIN.turns_left(g)
  if turns == 0 then return 0 end
  CHAIN.prepare()
  local v, rates = CHAIN.worth(g, card, gold, turns)
  local pooled = CHAIN.with_pool(card, rates)
  if not pooled then return math.max(0, v) end
  local v2 = CHAIN.worth(g, pooled, gold, turns)
  return math.max(0, v + CHAIN.pool * math.max(0, v2 - v))
end

-- With option new_tiles_work_this_turn off (O16) the tiles acquired this
-- turn come at its end: the card as it will be then, those tiles on it
-- without their workers (a sketch, as with_pool's).
function CHAIN.with_arriving(card, arriving)
  if not arriving or not arriving[1] then return card end
  local own, tiles, room = setmetatable({}, { __index = card.own }), { table.unpack(card.tiles) }, card.room
  for _, id in ipairs(arriving) do
    local t = TILE[id]
    if t then
      if not own[id] then tiles[#tiles + 1] = t.index end
      own[id], room = (own[id] or 0) + 1, room | t.bit
    end
  end
  table.sort(tiles)
  return { own = own, crew = card.crew, tiles = tiles, manned = card.manned, room = room, store = card.store,
           ships = card.ships, pool = card.pool, _fx = card._fx }
end

-- The workers still in the line (O12, O13), as the seats will pick them,
-- round the pick order until the line is empty, each seat taking a worker
-- for a free slot of its chain, of the kind it lacks more of
-- (CHAIN.wants), else the kind the line holds most of. Once the bids are
-- in, the order is known: from the seat picking now. While they are open,
-- no seat knows its place: the seat at `place` (1 = first), the others
-- from the token's holder, as equal bids leave them. The land and
-- facility workers `seat` gets (a table the next call reuses). What a bid
-- wins is this: the people it wants before others take them ("you will
-- need to bid high to get the people you want working for you").
CHAIN.want, CHAIN.got, CHAIN.left, CHAIN.order = {}, { seaman = 0, land = 0, facility = 0 }, {}, {}
function CHAIN.picks(g, seat, place)
  local line, want, got, left = g.line, CHAIN.want, CHAIN.got, CHAIN.left
  local order, at = g.pick_order, 1
  if g.phase == "pick" and order then
    for i = 1, #order do if order[i] == g.active then at = i end end
  else
    local from, placed = g:turn_order(g.first), CHAIN.order
    local n = 0
    for i = 1, #from do
      if n + 1 == place then n = n + 1; placed[n] = seat end
      if from[i] ~= seat then n = n + 1; placed[n] = from[i] end
    end
    if n < #from then placed[#from] = seat end
    order = placed
  end
  for i = 1, #order do
    local s = order[i]
    local w = want[s] or {}
    want[s] = w
    CHAIN.wants(g.card[s], w)
  end
  left.seaman, left.land, left.facility = line.seaman, line.land, line.facility
  got.seaman, got.land, got.facility = 0, 0, 0
  local n, i = #order, at
  for _ = 1, line.seaman + line.land + line.facility do
    local s = order[i]
    local w = want[s]
    local kind
    if w.land > 0 and left.land > 0 and (w.land >= w.facility or left.facility == 0) then kind = "land"
    elseif w.facility > 0 and left.facility > 0 then kind = "facility"
    end
    if w.seaman > 0 and left.seaman > 0 and (not kind or w.seaman > w[kind]) then kind = "seaman" end
    if not kind then                         -- none it lacks: the kind the line holds most of
      kind = "seaman"
      if left.land > left[kind] then kind = "land" end
      if left.facility > left[kind] then kind = "facility" end
    end
    left[kind], w[kind] = left[kind] - 1, w[kind] - 1
    if s == seat then got[kind] = got[kind] + 1 end
    i = i % n + 1
  end
  return got
end

-- What a card lacks by kind: the free slots of its chain's tiles (those
-- CHAIN.with_pool staffs), and a worker for the kind of each link it has
-- no tile of yet (the one it buys, CHAIN.missing_link), less the workers
-- of that kind in its pool.
local HAS = { wool = false, cloth = false, dye = false, fg = false }
function CHAIN.wants(card, w)
  local pool = card.pool
  local land, facility = -pool.land, -pool.facility
  local free, links = card.room & CHAIN.link_bits, CHAIN.links
  local own, crew, tiles = card.own, card.crew, card.tiles
  HAS.wool, HAS.cloth, HAS.dye, HAS.fg = false, false, false, false
  for i = 1, #tiles do
    local t = TILES_24[tiles[i]]
    local link = links[t.index]
    if link then
      HAS[link] = true
      if t.bit & free ~= 0 then
        local n = own[t.id] * t.slots - (crew[t.id] or 0)
        if t.kind == "land" then land = land + n else facility = facility + n end
      end
    end
  end
  if not (HAS.wool and HAS.dye) then land = land + 1 end             -- sheep, a plantation
  if not (HAS.cloth and HAS.fg) then facility = facility + 1 end     -- a loom, a dye house
  w.seaman, w.land, w.facility = CHAIN.unmanned(card) - pool.seaman, land, facility
end

-- The ships a card holds without their seaman (O8: such a ship does not
-- sail).
function CHAIN.unmanned(card)
  local n, ships = 0, card.ships
  for k = 1, #ships do
    if ships[k].crew == 0 then n = n + 1 end
  end
  return n
end

-- The card with the workers it will pick in its pool (a sketch, as
-- with_pool's).
function CHAIN.with_picks(card, got)
  local pool = card.pool
  return { own = card.own, crew = card.crew, tiles = card.tiles, manned = card.manned, room = card.room,
           store = card.store, ships = card.ships, _fx = card._fx,
           pool = { seaman = pool.seaman + got.seaman, land = pool.land + got.land,
                    facility = pool.facility + got.facility } }
end

-- The pirate (O17, O21): on a turn it is in play, its holder names one
-- loaded ship of another player, whose VP go to the pirate and whose gold
-- goes to the bank. What a seat may lose to it: the worth of its ship
-- the pirate would take (CHAIN.at_risk), one chance in N - 1 once another
-- seat holds it (the holder names one of the others' ships), one in N
-- while it is still in the line (N - 1 chances in N that another seat
-- takes it); nothing when the seat holds it ("the pirate must be used at
-- the turn he appears", so it guards the holder's ships that turn only).
function CHAIN.robbery(g, seat, card)
  local holder = g.pirate_holder
  if holder == seat or not (holder or g.line.pirate) or g.players < 2 then return 0 end
  local chance = holder and 1 / (g.players - 1) or 1 / g.players
  return chance * CHAIN.at_risk(card, g.phase == "bid" or g.phase == "pick")
end

-- The ship the pirate would take: the manned ship whose cargo is worth the
-- most (goods_worth's weights: a finished good its VP, a raw good a tenth
-- of its gold); before the build orders (`to_load`) the goods the seat will
-- load (O14c): its largest manned hold filled from storage and cargo, the
-- goods of most worth first.
function CHAIN.at_risk(card, to_load)
  worths()
  local ships, best, hold = card.ships, 0, 0
  for k = 1, #ships do
    local ship = ships[k]
    if ship.crew > 0 then
      local n, cargo = 0, ship.cargo
      for j = 1, #cargo do n = n + SHIPPED_WORTH[cargo[j]] end
      if n > best then best = n end
      if ship.size > hold then hold = ship.size end
    end
  end
  if not to_load or hold == 0 then return best end
  local load, store = 0, card.store
  for _, good in ipairs(CHAIN.by_worth()) do
    local n = store[good]
    for k = 1, #ships do
      local cargo = ships[k].cargo
      for j = 1, #cargo do if cargo[j] == good then n = n + 1 end end
    end
    if n > hold then n = hold end
    load, hold = load + n * SHIPPED_WORTH[good], hold - n
    if hold == 0 then break end
  end
  return math.max(best, load)
end

-- The goods by their worth on a ship, most first (made again when
-- R.prepare has made the goods again).
function CHAIN.by_worth()
  worths()
  if CHAIN.worth_for ~= GOODS then
    local list = { table.unpack(GOODS) }
    table.sort(list, function(x, y)
      if SHIPPED_WORTH[x] ~= SHIPPED_WORTH[y] then return SHIPPED_WORTH[x] > SHIPPED_WORTH[y] end
      return x < y
    end)
    CHAIN.goods_by_worth, CHAIN.worth_for = list, GOODS
  end
  return CHAIN.goods_by_worth
end

function R.estimate(g, seat)
  local card, gold = g.card[seat], g.gold:get(seat)
  local arriving = g.arriving and g.arriving[seat]
  local o = order_of(g, seat)
  if o then card, gold, arriving = o.card, o.gold, o.arriving end
  card = CHAIN.with_arriving(card, arriving)
  local chain
  local line, phase = g.line, g.phase
  if line.seaman + line.land + line.facility == 0 or (phase ~= "bid" and phase ~= "pick") then
    chain = CHAIN.chain_worth(g, card, gold)
  else                                       -- the line's workers to come (CHAIN.picks)
    CHAIN.prepare()
    local places = phase == "pick" and g.pick_order and 1 or g.players
    local sum, seen = 0, {}
    for place = 1, places do
      local got = CHAIN.picks(g, seat, place)
      local key = (got.seaman * 64 + got.land) * 64 + got.facility
      local v = seen[key]
      if not v then
        v = CHAIN.chain_worth(g, key == 0 and card or CHAIN.with_picks(card, got), gold)
        seen[key] = v
      end
      sum = sum + v
    end
    chain = sum / places
  end
  return g.vp:get(seat) + GOLD * gold + goods_worth(card) + chain - CHAIN.robbery(g, seat, card)
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
    local o = order_of(g, s)
    if o and o.gold < 0 then return "seat " .. s .. ": an order spends more gold than it has" end
    local over = tokens_over(card)
    if over then return "seat " .. s .. ": " .. over .. " above the tokens" end
    for id, n in pairs(card.own) do
      local t = TILE[id]
      if n > (t.count or 1) then return "seat " .. s .. ": more " .. id .. " than the supply" end
      if (card.crew[id] or 0) > n * t.slots then return "seat " .. s .. ": " .. id .. " overstaffed" end
    end
    for id in pairs(card.crew) do
      if not card.own[id] then return "seat " .. s .. ": workers on " .. id .. ", which it does not own" end
    end
    local manned, room = worker_bits(card)
    if manned ~= card.manned or room ~= card.room then
      return ("seat %d: the card's manned and room bits are %x, %x; its workers make %x, %x"):format(s,
        card.manned, card.room, manned, room)
    end
    if card.open ~= empty_slots(card) then
      return ("seat %d: the card counts %d free slots; its tiles and ships have %d"):format(s, card.open, empty_slots(card))
    end
    if card._fx then
      local fresh = effects_of(card)
      for _, field in ipairs(EFFECTS) do
        if (card._fx[field] or 0) ~= (fresh[field] or 0) then
          return ("seat %d: the card keeps %s %d; its staffed tiles make %d"):format(s, field,
            card._fx[field] or 0, fresh[field] or 0)
        end
      end
    end
    local sold_out = 0
    for _, t in ipairs(TILES_24) do
      if (card.own[t.id] or 0) >= (t.count or 1) then sold_out = sold_out | t.bit end
    end
    if sold_out ~= card.sold_out then
      return ("seat %d: the card's sold-out bits are %x; its tiles make %x"):format(s, card.sold_out, sold_out)
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
    ports = {}, players = {}, bids = g.bids or nil, pick_order = g.pick_order or nil,
  }
  for _, kind in ipairs(KINDS) do
    v.bag[kind], v.line[kind], v.removed[kind] = g.bag[kind], g.line[kind], g.removed[kind]
  end
  for i, e in ipairs(g.ring) do v.ports[i] = { port = e.port, seat = e.seat } end
  for s = 1, g.players do
    local p = card_view(g, g.card[s])
    p.name, p.gold, p.vp, p.port = g.names[s], g.gold:get(s), g.vp:get(s), port_name(g, g.home[s])
    p.arriving = g.arriving and g.arriving[s] and { table.unpack(g.arriving[s]) } or nil     -- O16 option
    local d = g:draft(s)
    if d then
      p.order_finished = finished(g, s)
      local o = seat == s and order_of(g, s)    -- O34: a seat sees its own order only
      if o then
        p.order = { card = card_view(g, o.card), gold = o.gold, steps = { table.unpack(o.steps, 1, o.n) },
                    arriving = o.arriving and { table.unpack(o.arriving) } or nil }
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

-- Board key: the abbreviations a board used, each explained once under it.
local USED
local function used(kind, short) if USED then USED[kind][short] = true end end

-- The columns of a card's first line (one local: the file is near Lua's
-- 200). len: a text's length in characters ("Zoë" is 3), in bytes where
-- it is not UTF-8; column(t, w): t padded to w characters, or cut to w - 1
-- and "~" (never inside a character); widths(g): the name and port
-- columns, as wide as the longest name and home port of the game (at
-- least 10), so the gold columns line up under constantinople and "Zoë",
-- the name at most what leaves the line, [token] and [pirate] both on it,
-- 79 columns (53 besides the two); width: those of the board being drawn.
local CARD = {}
function CARD.len(t) return utf8.len(t) or #t end
function CARD.column(t, w)
  local n = CARD.len(t)
  if n > w then
    local cut = utf8.len(t) and utf8.offset(t, w) or w
    t, n = t:sub(1, cut - 1) .. "~", w
  end
  return t .. string.rep(" ", w - n)
end
function CARD.widths(g)
  local port, name = 10, 10
  for s = 1, g.players do
    port = math.max(port, CARD.len(port_name(g, g.home[s])))
    name = math.max(name, CARD.len(g.names[s]))
  end
  return { name = math.min(name, 79 - 53 - port), port = port }
end

local function card_lines(g, s, card, gold, out, mark, arriving)
  local ring_port = port_name(g, g.home[s])
  local pool = card.pool
  local w = CARD.width or CARD.widths(g)
  out[#out + 1] = string.format("%s%s %s %3d gold %3d VP  pool s%d l%d f%d%s%s", mark,
    CARD.column(g.names[s], w.name), CARD.column(ring_port, w.port), gold, g.vp:get(s), pool.seaman, pool.land, pool.facility,
    g.first == s and "  [token]" or "", g.pirate_holder == s and "  [pirate]" or "")
  local tiles = {}
  for _, t in ipairs(TILES_24) do
    local n = card.own[t.id]
    if n then
      tiles[#tiles + 1] = string.format("%s %d/%d", abbrev(t.id), card.crew[t.id] or 0, n * t.slots)
      used("tiles", t.id)
    end
  end
  wrapped(out, "    " .. (#tiles > 0 and table.concat(tiles, " ") or "no tiles"))
  local store = {}
  for _, good in ipairs(GOODS) do
    if card.store[good] > 0 then store[#store + 1] = SHORT[good] .. " " .. card.store[good]; used("goods", good) end
  end
  local ships = {}
  for k, ship in ipairs(card.ships) do
    local txt = string.format("%d:%d%s", k, ship.size, ship.crew > 0 and "*" or "-")
    if #ship.cargo > 0 then
      local c = {}
      for i, good in ipairs(ship.cargo) do c[i] = SHORT[good]; used("goods", good) end
      txt = txt .. "[" .. table.concat(c, ",") .. (ship.port and ("->" .. port_name(g, ship.port)) or "") .. "]"
    end
    ships[#ships + 1] = txt
  end
  wrapped(out, "    store " .. (#store > 0 and table.concat(store, " ") or "empty") .. " | ships " .. table.concat(ships, " "))
  if arriving and arriving[1] then                   -- option new_tiles_work_this_turn off
    local names = {}
    for i, id in ipairs(arriving) do names[i] = id == "ship" and "a ship" or abbrev(id); used("tiles", id) end
    out[#out + 1] = "    at the turn's end: " .. table.concat(names, ", ")
  end
end

function R.board_abbrev(id) return abbrev(id) end   -- docs/rules/old_world.md's tables

-- The key of every abbreviation the board shows (the tiles and goods it
-- used, by their names in T2, T4, T5, T7).
local function board_key(g, out, drafts)
  wrapped(out, "Key: pool s/l/f = seamen, land and facility workers in the pool; [token] = first player; "
    .. "[pirate] = holds the pirate" .. (drafts and "; v = order entered" or "")
    .. (g.players == 2 and "; (T) = a trading post, no owner" or "")
    .. "; Bag: seamen, land, facility workers; pirate VP/target (O30), turns = when it joins the line next.")
  local tiles = {}
  for _, t in ipairs(TILES_24) do
    if USED.tiles[t.id] then tiles[#tiles + 1] = abbrev(t.id) .. " = " .. t.name end
  end
  if #tiles > 0 then wrapped(out, "Tiles (staffed/slots): " .. table.concat(tiles, ", ") .. ".") end
  wrapped(out, "Ships: 2:4* = ship 2, holds 4, * manned (- not); [cargo->port] = its cargo and where it sails.")
  local goods = {}
  for _, good in ipairs(GOODS) do
    if USED.goods[good] and SHORT[good] ~= good then
      goods[#goods + 1] = SHORT[good] .. " = " .. (FG_VALUE[good] and ("finished " .. good:sub(4)) or (good:sub(5) .. " dye"))
    end
  end
  if #goods > 0 then wrapped(out, "Goods: " .. table.concat(goods, ", ") .. ".") end
end

-- how.key == false: without the key (a front end showed it this turn).
function R.board(g, seat, how)
  local out = {}
  USED = { tiles = {}, goods = {} }
  CARD.width = CARD.widths(g)
  local drafts = false
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
    local arriving = g.arriving and g.arriving[s]
    local mark = "  "
    if d then
      local o = (seat == nil or seat == s) and order_of(g, s)           -- O34
      if o then card, gold, arriving = o.card, o.gold, o.arriving end
      mark = finished(g, s) and "v " or "  "
      drafts = true
    end
    card_lines(g, s, card, gold, out, mark, arriving)
  end
  if not (how and how.key == false) then board_key(g, out, drafts) end
  -- O32: the seat entering its order sees its card as the order leaves it;
  -- again at the foot, next to its options, which push the players' cards
  -- off a 40-row terminal (24 acquisitions below 3 players' cards and the
  -- key: 45 rows)
  local o = seat and g:draft(seat) and not finished(g, seat) and order_of(g, seat)
  if o then
    out[#out + 1] = "Your card as your order leaves it:"
    card_lines(g, seat, o.card, o.gold, out, "  ", o.arriving)
  end
  USED, CARD.width = nil, nil
  return table.concat(out, "\n")
end

return R
