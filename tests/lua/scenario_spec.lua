-- scenario_spec.lua: a scenario states any decision point a game can reach,
-- and accepts the shape g:state() gives: a copy of a state starts a game
-- that is that position, and (the RNG state copied too) goes on alike
-- (issue 26, point 4).
local json = kontor.json
local bots = require "kontor.bots"

local function copy(t) return json.decode(json.encode(t)) end
local function who1(g) local s = g:who(); if type(s) == "table" then s = s[1] end return s end
local function without_engine(st) local c = copy(st); c.engine = nil; return c end

-- Plays `g` with a random bot; at the first `want` decisions of each kind
-- (kind(g) names it, nil: none) calls check(name, g).
local function walk(g, seed, kind, check, max)
  local b = bots.new("random", 1, seed)
  local seen = {}
  for _ = 1, max or 3000 do
    if g:over() then break end
    local name = kind(g)
    if name and (seen[name] or 0) < 2 then
      seen[name] = (seen[name] or 0) + 1
      check(name, g)
    end
    local s = who1(g)
    if s == "chance" then g:apply(1) else g:apply(b:choose(require("kontor.seat").view(g, s)), s) end
  end
  return seen
end

-- The copy is the position: the same decision, the same state; and the
-- next `n` steps, taken alike in both, log the same lines.
local function same_position(rules, players, g, n)
  local options = g.params.given_options
  local g2 = kontor.new_game { rules = rules, players = players, seed = 12345, options = options,
                               scenario = copy(g:state()) }
  assert.are.same(g:decision(), g2:decision())
  assert.are.same(without_engine(g:state()), without_engine(g2:state()))
  local log1, log2 = #g:log(), #g2:log()
  local moves = g:move_list()   -- g stays as it is: the continuation is played on a replay of it
  local b = bots.new("random", 2, 7)
  local g1 = kontor.new_game { rules = rules, players = players, seed = g.params.seed, options = options }
  assert.is_true((g1:replay(moves)))
  for _ = 1, n do
    if g1:over() then break end
    local s = who1(g1)
    local k = s == "chance" and 1 or b:choose(require("kontor.seat").view(g1, s))
    assert.is_true(g1:apply(k, s ~= "chance" and s or nil))
    assert.is_true(g2:apply(k, s ~= "chance" and s or nil))
  end
  local a, c = g1:log(), g2:log()
  local from1, from2 = {}, {}
  for i = log1 + 1, #a do from1[#from1 + 1] = a[i] end
  for i = log2 + 1, #c do from2[#from2 + 1] = c[i] end
  assert.are.same(from1, from2)
  assert.are.same(without_engine(g1:state()), without_engine(g2:state()))
end

describe("Old World scenarios", function()
  local function kind(g)
    local d = g:decision()
    if d.kind == "orders" then
      return (#d.done == 0 and #g:pending(d.seats[1]) == 0 and #g:pending(d.seats[#d.seats]) == 0) and "build" or nil
    end
    if d.kind == "simultaneous" and #d.chosen > 0 then return nil end
    return d.name
  end

  it("a copy of g:state() at a bid, pick, build and pirate decision is that position, and goes on alike", function()
    local all = {}
    for seed = 1, 3 do
      local g = kontor.new_game { rules = "old_world", players = 3, seed = seed }
      for name in pairs(walk(g, seed, kind, function(_, pos) same_position("old_world", 3, pos, 40) end, 1500)) do
        all[name] = true
      end
    end
    assert.is_true(all.bid and all.pick and all.build and all.rob)
  end)

  local base = { first = 1, line = {},
    tiles = { { sheep_herding = 1, ships = 1 }, { sheep_herding = 1, ships = 1 }, { sheep_herding = 1, ships = 1 } },
    workers = { { sheep_herding = 1, ships = 1 }, { sheep_herding = 1, ships = 1 }, { sheep_herding = 1, ships = 1 } } }
  local function with(t)
    local sc = copy(base)
    for k, v in pairs(t) do sc[k] = v end
    return kontor.new_game { rules = "old_world", players = 3, seed = 1, names = { "Ann", "Bob", "Cem" }, scenario = sc }
  end

  it("the bid with the gold as it stands after the turn start (no token gold added)", function()
    local g = with { phase = "bid", gold = { 5, 0, 2 }, line = { land = 2, pirate = true } }
    assert.are.equal("bid", g:decision().name)
    assert.are.same({ 1, 3 }, g:decision().seats)   -- 0 gold: not asked (O32)
    assert.are.same({ "bid 0", "bid 1", "bid 2" }, g:options(3))
    assert.are.same({ 5, 0, 2 }, g.ctx.gold:values())
  end)

  it("a pick mid-round: the pick order, the next picker, the pirate in the line; the view shows the order", function()
    local g = with { phase = "pick", gold = { 1, 1, 1 }, pick_order = { 3, 1, 2 }, active = 1,
                     line = { seaman = 1, facility = 1, pirate = true } }
    assert.are.same({ kind = "player", name = "pick", seats = { 1 },
      options = { "pick seaman", "pick facility worker", "pick pirate" } }, g:decision())
    assert.are.same({ 3, 1, 2 }, g:view(2).pick_order)
    assert.is_true(g:apply("pick pirate"))
    assert.are.equal(2, g:who())                 -- then seat 2, then round again from seat 3
    g:apply("pick seaman")
    assert.are.equal(1, g.ctx.pirate_holder)
    assert.are.equal("build order", g:decision().name)
    assert.are.same({ "Cem picks facility worker" }, { g:log()[#g:log()] })
  end)

  it("the pirate's robbery: the holder, the loaded ships and where they sail (the state's card shape)", function()
    local card = function(cargo, port)
      return { own = { sheep_herding = 1 }, crew = { sheep_herding = 1 }, pool = {},
               ships = { { size = 3, crew = 1, cargo = cargo, port = port } } }
    end
    local g = with { phase = "pirate", pirate_holder = 2, tiles = {}, workers = {},
      card = { card({ "fg:red", "fg:red" }, "genoa"), card({}, false), card({ "wool" }, "venice") } }
    assert.are.same({ kind = "player", name = "rob", seats = { 2 },
      options = { "rob seat 1 ship 1", "rob seat 3 ship 1", "none" } }, g:decision())
    assert.is_true(g:apply("rob seat 1 ship 1"))
    assert.are.equal(4, g.ctx.pirate_vp)         -- 2 red FG at 2 VP each (O20, O21)
  end)

  it("the colour of finished goods at production (O33)", function()
    local g = with { phase = "produce",
      tiles = { { sheep_herding = 1, dye_house = 1, ships = 1 }, { sheep_herding = 1, ships = 1 }, { sheep_herding = 1, ships = 1 } },
      workers = { { sheep_herding = 1, dye_house = 1, ships = 1 }, { sheep_herding = 1, ships = 1 }, { sheep_herding = 1, ships = 1 } },
      storage = { { cloth = 1, ["dye:blue"] = 1, ["dye:red"] = 1 } } }
    assert.are.same({ kind = "simultaneous", name = "colour", seats = { 1 }, chosen = {},
      options = { [1] = { "colour blue", "colour red" } } }, g:decision())
    g:apply("1: colour red")
    assert.are.equal(1, g.ctx.card[1].store["fg:red"])
  end)

  it("how many to make, with production_optional (O25)", function()
    local g = kontor.new_game { rules = "old_world", players = 3, seed = 1, options = { production_optional = true },
      scenario = { phase = "produce", line = {},
        tiles = { { sheep_herding = 2, ships = 1 } }, workers = { { sheep_herding = 2, ships = 1 } } } }
    assert.are.same({ kind = "simultaneous", name = "make_wool", seats = { 1, 2, 3 }, chosen = {},
      options = { { "make 0 wool", "make 1 wool", "make 2 wool" }, { "make 0 wool", "make 1 wool" },
                  { "make 0 wool", "make 1 wool" } } }, g:decision())
  end)

  it("says why a stated decision point cannot be", function()
    local function err(t) local ok, e = pcall(with, t); assert.is_false(ok); return e end
    assert.matches("scenario: phase pick needs pick_order, every seat once", err { phase = "pick", line = { land = 1 } })
    assert.matches("scenario: pirate_holder is the pirate picked this turn: phase pick, build or pirate, not bid",
      err { phase = "bid", pirate_holder = 1, line = { land = 1 } })
    assert.matches("scenario: phase must be turn, bid, pick, build, pirate or produce, not trade", err { phase = "trade" })
    assert.matches("scenario: seat 1: ship 1 sails to venice, not a port of the ring other than its own",
      err { phase = "pirate", tiles = {}, workers = {}, card = { { ships = { { size = 3, crew = 1, cargo = { "wool" }, port = "venice" } } } } })
  end)
end)

describe("Sea Merchants scenarios", function()
  local function kind(g)
    local name = g:decision().name
    if name == "phase1" or name == "phase2" or name == "load" or name == "office" then return name end
    if name == "dock" and not g.ctx.exchanged[1] and not g.ctx.exchanged[2] and not g.ctx.exchanged[3] then return "dock" end
    if name == "dock" then return "dock after an exchange" end
  end

  it("a copy of g:state() in loading, phase I, the docks, phase II and the office draws is that position", function()
    local all = {}
    for seed = 1, 4 do
      local g = kontor.new_game { players = 3, seed = seed, options = { start_coins = 12 } }
      for name in pairs(walk(g, seed, kind, function(_, pos) same_position("sea_merchants", 3, pos, 30) end, 600)) do
        all[name] = true
      end
    end
    assert.is_true(all.load and all.phase1 and all.dock and all.phase2 and all.office and all["dock after an exchange"])
  end)

  local function game(sc)
    sc.market = sc.market or { "grain", "wood", "porcelain", "fish", "spices", "cloth" }
    sc.deck = sc.deck or { "wood", "grain", "cloth", "spices" }
    return kontor.new_game { players = 2, seed = 1, names = { "Anna", "Bert" }, scenario = sc }
  end

  it("the docks after the phase I action, with the ships exchanged this phase (S5, S6)", function()
    local g = game { ships = { { "grain", "wood" }, { "cloth", "spices" } }, specials = { { dock = 1 }, {} },
                     phase = "dock", exchanged = { 1 }, active = 1 }
    assert.are.same({ kind = "player", name = "dock", seats = { 1 },
      options = { "dock exchange ship 2", "no dock exchange" } }, g:decision())
    g:apply("no dock exchange")
    assert.are.equal("phase2", g:decision().name)
  end)

  it("the office draws after phase II (S10); the deck as g:state() lists it, bottom first", function()
    local g = game { ships = { { "grain", "wood" }, { "cloth", "spices" } }, specials = { {}, { office = 2 } },
                     phase = "office", active = 2 }
    assert.are.same({ "office draw", "no office draw" }, g:options(2))
    g:apply("office draw")
    assert.are.same({ "wood" }, g:view(2).hand)   -- deck[1] is drawn first
    local st = g:state()
    st.coins[1] = 30                 -- edit one number of a copy and start from it
    local h = kontor.new_game { players = 2, seed = 1, names = { "Anna", "Bert" }, scenario = st }
    assert.are.same({ "office draw", "no office draw" }, h:options(2))
    assert.are.same(g.ctx.deck:cards(), h.ctx.deck:cards())
    assert.are.equal(30, h.ctx.coins:get(1))
  end)

  it("says why a stated moment cannot be", function()
    local function err(sc) local ok, e = pcall(game, sc); assert.is_false(ok); return e end
    local ships = { { "grain", "wood" }, { "cloth", "spices" } }
    assert.matches("scenario: cubes: 5 grain in the pool stated, but the ships leave 4",
      err { ships = ships, cubes = { 5, 4, 5, 5, 4, 4 } })
    assert.matches("scenario: exchanged: 3 is not a ship of seat 1", err { ships = ships, phase = "dock", exchanged = { 3 } })
    assert.matches("scenario: phase must be load, phase1, dock, phase2 or office, not trade", err { ships = ships, phase = "trade" })
  end)
end)

describe("Caribbean scenarios", function()
  local function kind(g)
    local name = g:decision().name
    if name == "take" and g.ctx.takes_left and g.ctx.takes_left < 1 then return nil end
    if name == "take" and g.ctx.takes_left and g.ctx.takes_left > 0 and #g.ctx.display[g.ctx.current] > 0 then
      return "take (later)"
    end
    return name
  end

  it("a copy of g:state() at discover, repel, take, take_other and fulfil is that position", function()
    local all = {}
    for seed = 1, 4 do
      local g = kontor.new_game { rules = "caribbean", players = 3, seed = seed }
      for name in pairs(walk(g, seed, kind, function(_, pos) same_position("caribbean", 3, pos, 30) end, 1500)) do
        all[name] = true
      end
    end
    assert.is_true(all.discover and all.repel and all.take and all.take_other and all.fulfil)
  end)

  local function game(sc)
    return kontor.new_game { rules = "caribbean", players = 3, seed = 1, names = { "Alex", "Bea", "Carl" }, scenario = sc }
  end

  it("a repel to decide, stated by hand (C4)", function()
    local g = game { deck = { "Skiff 1/1", "Sailor 3/1" }, harbour = { "Flute 1/1" }, revealed = { "Pinnace 2/2" },
                     displays = { { "Pirate 5/1" } }, coins = { 2, 2, 2 }, active = 1 }
    assert.are.same({ "repel", "do not repel" }, g:options(1))
    g:apply("do not repel")
    assert.are.same({ "Flute 1/1", "Pinnace 2/2" }, g:view(1).harbour)
  end)

  it("another player's take, with the takes left, and the active player's fulfil after the takes (C6, C8)", function()
    local g = game { deck = { "Skiff 1/1" }, harbour = { "Flute 1/1", "Sailor 3/1" }, coins = { 2, 5, 0 },
                     phase = "loot", active = 1, loot_at = 2, takes_left = 1 }
    assert.are.same({ kind = "player", name = "take_other", seats = { 2 },
      options = { "loot Flute 1", "hire Sailor 3/1", "take nothing" } }, g:decision())
    g:apply("hire Sailor 3/1")
    assert.are.equal(2, g.ctx.current)     -- Carl has no coin: the turn ends, Bea's begins
    local f = game { deck = { "Skiff 1/1" }, harbour = { "Flute 1/1" }, expeditions = { "expedition 2 anchors" },
                     displays = { { "Captain 4/1", "Captain 4/1" } }, coins = { 2, 0, 0 },
                     phase = "loot", active = 1, loot_at = 1, takes_left = 0 }
    assert.are.same({ "do not fulfil", "fulfil expedition 2 anchors" }, f:options(1))
  end)

  it("says why a stated moment cannot be", function()
    local function err(sc) local ok, e = pcall(game, sc); assert.is_false(ok); return e end
    assert.matches("scenario: revealed: the active player cannot repel the Galleon 7/3 %(strength 0%)",
      err { revealed = { "Galleon 7/3" } })
    assert.matches("scenario: loot_at: the place in the turn order", err { loot_at = 2 })
  end)
end)
