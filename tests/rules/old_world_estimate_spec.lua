-- Old World's position evaluation, R.estimate (variants/old_world.lua;
-- docs/bots.md, "R.estimate"): the VP a seat may expect by the end, with
-- the chain's VP to come (sheep, loom, plantation, dye house, a manned
-- ship), from what the seat may see. Positions are scenarios
-- (docs/rules/old_world.md, "Scenario set-up").
local bots = require "kontor.bots"
local seatmod = require "kontor.seat"
local support = require "tests.lua.support"

local tmp, cleanup = support.scratch()
teardown(cleanup)

-- A game at the build orders of `turn` (1 unless told), 4 players.
local function at_orders(sc)
  sc.phase = "build"
  return kontor.new_game { rules = "old_world", players = 4, seed = 1, scenario = sc }
end

local function estimate(g, seat) return bots.estimates(g)[seat or 1] end

-- The estimate of seat 1 after it has entered `steps` of its order.
local function after(make, steps)
  local g = make()
  for _, text in ipairs(steps) do assert(g:apply("1: " .. text)) end
  return estimate(g)
end

-- A whole chain on seat 1's card, every tile staffed.
local CHAIN = { sheep_herding = 1, back_strap_loom = 1, iron_plantation = 1, dye_house = 1, ships = 1 }
local function chain(extra)
  local t = {}
  for k, v in pairs(CHAIN) do t[k] = v end
  for k, v in pairs(extra or {}) do t[k] = v end
  return t
end

describe("Old World's estimate", function()
  it("ranks a first link of the chain above keeping the gold when turns are left", function()
    local function start() return at_orders { gold = { 3 } } end
    local keep = after(start, { "acquire none" })
    assert.are.equal(estimate(start()), keep)
    -- O14a: one acquisition a turn; each link bought is a turn sooner
    assert.is_true(after(start, { "acquire land:iron_plantation" }) > keep)
    assert.is_true(after(start, { "acquire building:back_strap_loom" }) > keep)
    assert.is_true(after(start, { "acquire building:dye_house" }) > keep)
    -- a tile of no chain link, or a blue plantation when iron makes
    -- black (T2: 1 VP against 5), is gold gone, and the links bought a
    -- turn later for want of it (about a gold a turn)
    assert.is_near(keep - 0.1 - 2.5, after(start, { "acquire land:woad_plantation" }), 1e-9)
    assert.is_near(keep - 0.3 - 3 * 2.5, after(start, { "acquire building:tavern" }), 1e-9)
    -- and greedy, one ply on the estimate, starts the chain
    local g = start()
    local b = assert(bots.new("greedy", 1, 1))
    local pick = g:options(1)[b:choose(seatmod.view(g, 1))]
    assert.is_true(pick == "acquire land:iron_plantation" or pick == "acquire building:back_strap_loom"
      or pick == "acquire building:dye_house", pick)
  end)

  it("counts a tile that comes at the turn's end (option new_tiles_work_this_turn off, O16)", function()
    local function start()
      return kontor.new_game { rules = "old_world", players = 4, seed = 1,
        options = { new_tiles_work_this_turn = false }, scenario = { phase = "build", gold = { 3 } } }
    end
    local keep = estimate(start())
    local g = start()
    assert(g:apply("1: acquire land:iron_plantation"))
    assert.is_nil(g:state().card[1].own.iron_plantation)        -- not on the card yet
    assert.is_true(estimate(g) > keep, estimate(g) .. " vs " .. keep)
  end)

  it("keeps the gold when too few turns are left for the chain to ship", function()
    -- 8 workers in the bag, 4 drawn a turn (O11): 2 turns after this one
    local function start() return at_orders { gold = { 3 }, bag = { seaman = 0, land = 2, facility = 6 } } end
    local keep = estimate(start())
    assert.is_near(keep - 0.2, after(start, { "acquire land:iron_plantation" }), 1e-9)
    assert.is_near(keep - 0.1, after(start, { "acquire building:dye_house" }), 1e-9)
  end)

  it("ranks a complete staffed chain above a partial one", function()
    local whole = estimate(at_orders { tiles = { chain() }, workers = { chain() }, gold = { 3 } })
    local no_dye_house = chain { dye_house = 0 }
    -- the partial chain keeps the Dye House's gold (T5: 1)
    local partial = estimate(at_orders { tiles = { no_dye_house }, workers = { no_dye_house }, gold = { 4 } })
    assert.is_true(whole > partial + 10, whole .. " vs " .. partial)
    -- the Dye House owned but not staffed (O8): its worker in the pool
    -- counts, less than on its slot; with none to pick it counts less
    local idle = chain { dye_house = 0 }
    local pooled = estimate(at_orders { tiles = { chain() }, gold = { 3 },
      workers = { { sheep_herding = 1, back_strap_loom = 1, iron_plantation = 1, ships = 1, pool = { facility = 1 } } } })
    local unstaffed = estimate(at_orders { tiles = { chain() }, workers = { idle }, gold = { 3 } })
    assert.is_true(whole > pooled and pooled > unstaffed and unstaffed > partial,
      table.concat({ whole, pooled, unstaffed, partial }, " "))
  end)

  it("ranks assigning a pool worker to its new tile above leaving it in the pool", function()
    local function start()
      return at_orders { tiles = { chain() }, gold = { 3 },
        workers = { { sheep_herding = 1, back_strap_loom = 1, iron_plantation = 1, ships = 1, pool = { facility = 1 } } } }
    end
    local left = after(start, { "acquire none", "done", "done" })   -- release nothing, assign nothing
    assert.is_true(after(start, { "acquire none", "done", "assign dye_house" }) > left)
  end)

  it("counts the goods in process: cloth and dyes in storage ship a turn sooner", function()
    local bare = estimate(at_orders { tiles = { chain() }, workers = { chain() } })
    local stocked = estimate(at_orders { tiles = { chain() }, workers = { chain() },
      storage = { { cloth = 1, ["dye:black"] = 1 } } })
    -- O25: with cloth and dyes in storage the first finished good is made
    -- this turn, with no wool woven yet two turns later: 2 more turns of
    -- 1 1/4 finished goods (the Dye House dyes 2: a quarter for the link
    -- beyond the weakest) of 5 VP at half their worth, and the goods' own
    -- tenths (T2: 2 gold, 2)
    assert.is_near(bare + 2 * 1.25 * 5 / 2 + 0.2 + 0.2, stocked, 1e-9)
  end)

  it("counts nothing of the chain's future on the last turn", function()
    -- turn 60 is the last (R.data.turn_cap): what is made then never sails
    local whole = estimate(at_orders { turn = 60, tiles = { chain() }, workers = { chain() }, gold = { 3 } })
    local none = estimate(at_orders { turn = 60, gold = { 3 } })
    -- 3 gold, a crewed ship: R.score's parts without the works
    assert.are.equal(0.3 + 0.5, whole)
    assert.are.equal(0.3 + 0.5, none)
    -- the same when the bag ran short at the draw (O30 (1))
    assert.are.equal(0.3 + 0.5, estimate(at_orders { ending = "bag", tiles = { chain() }, workers = { chain() },
      gold = { 3 } }))
  end)

  it("reads only what the seat may see: another seat's open order changes nothing", function()
    local function start() return at_orders { gold = { 3, 3, 3, 3 } } end
    local a, b = start(), start()
    assert(b:apply("2: acquire land:iron_plantation"))       -- O34: seat 2's order is secret
    local ea, eb = bots.estimates(a), bots.estimates(b)
    for _, s in ipairs { 1, 3, 4 } do assert.are.equal(ea[s], eb[s]) end
    assert.is_true(eb[2] > ea[2])                           -- seat 2 sees its own draft
  end)

  -- Every seat has the whole chain staffed but its Back Strap Loom (O28:
  -- no cloth without it); the line holds one facility worker and three
  -- land workers (O11), the token is seat 2's.
  local function at_bids(sc)
    sc.phase = sc.phase or "bid"
    sc.first = sc.first or 2
    sc.line = sc.line or { facility = 1, land = 3 }
    local idle = chain { back_strap_loom = 0 }
    sc.tiles = { chain(), chain(), chain(), chain() }
    sc.workers = sc.workers or { idle, idle, idle, idle }
    sc.gold = sc.gold or { 4, 4, 4, 4 }
    return kontor.new_game { rules = "old_world", players = 4, seed = 1, scenario = sc }
  end

  it("counts the line's workers as the pick order gives them: what a bid wins (O12, O13)", function()
    -- once the bids are in: the first to pick takes the facility worker
    -- its loom lacks; picking last, seat 1 gets a land worker it has no
    -- slot for
    local first = estimate(at_bids { phase = "pick", pick_order = { 1, 2, 3, 4 }, bids = { 1, 0, 0, 0 } })
    local last = estimate(at_bids { phase = "pick", pick_order = { 2, 3, 4, 1 }, bids = { 0, 0, 0, 0 } })
    assert.is_true(first > last + 5, first .. " vs " .. last)
    -- the worker picked counts as it does in the pool (with_pool)
    local idle = chain { back_strap_loom = 0 }
    local pooled = estimate(at_bids { phase = "build", line = {},
      workers = { chain { back_strap_loom = 0, pool = { facility = 1 } }, idle, idle, idle } })
    assert.is_near(pooled, first, 1e-9)
    -- while the bids are open no seat knows its place: the mean of the four
    local open = estimate(at_bids {})
    assert.is_near((first + 3 * last) / 4, open, 1e-9)
    -- greedy bids a gold for it (the others' secret bids counted as their
    -- first option, bid 0), and nothing when it holds the token and picks
    -- first with bid 0, or when its loom is staffed and the line holds no
    -- worker it lacks
    local function bids(g, seat)
      local b = assert(bots.new("greedy", seat, 1))
      return g:options(seat)[b:choose(seatmod.view(g, seat))]
    end
    assert.are.equal("bid 1", bids(at_bids {}, 1))
    assert.are.equal("bid 0", bids(at_bids { first = 1 }, 1))
    assert.are.equal("bid 0", bids(at_bids { workers = { chain(), idle, idle, idle } }, 1))
  end)

  it("counts a seaman in the pool for a ship without one as three quarters of manning it (O8, O14b)", function()
    local unmanned = chain { ships = 0 }
    local manned = estimate(at_orders { tiles = { chain() }, workers = { chain() } })
    local none = estimate(at_orders { tiles = { chain() }, workers = { unmanned } })
    local pooled = estimate(at_orders { tiles = { chain() }, workers = { chain { ships = 0, pool = { seaman = 1 } } } })
    -- the chain ships nothing without a manned ship (O8: a ship sails only
    -- with its seaman); the seaman assigned in the build order (O14b) mans
    -- it: three quarters of the chain's gain, as any pool worker (the half
    -- VP of a crewed ship, R.score's, comes once it is on board)
    assert.is_near(0.75 * (manned - none - 0.5), pooled - none, 1e-9)
    assert.is_true(pooled > none + 10, pooled .. " vs " .. none)
    -- a seaman with no ship to man adds nothing (the limit check removes
    -- seamen first, O23)
    assert.are.equal(manned, estimate(at_orders { tiles = { chain() },
      workers = { chain { pool = { seaman = 1 } } } }))
  end)

  it("counts a seaman in the line for its unmanned ship as the pick order gives it (O13)", function()
    local unmanned, whole = chain { ships = 0 }, chain()
    local function at(order, line, workers)
      return estimate(kontor.new_game { rules = "old_world", players = 4, seed = 1, scenario = {
        phase = "pick", pick_order = order, bids = { 0, 0, 0, 0 }, first = 2, line = line,
        tiles = { whole, whole, whole, whole }, workers = workers } })
    end
    -- every seat's ship lacks its seaman; the line holds one seaman and
    -- three land workers: the first to pick takes the seaman, not a land
    -- worker of the kind the line holds most of
    local all = { unmanned, unmanned, unmanned, unmanned }
    local first = at({ 1, 2, 3, 4 }, { seaman = 1, land = 3 }, all)
    local last = at({ 2, 3, 4, 1 }, { seaman = 1, land = 3 }, all)
    assert.is_true(first > last + 5, first .. " vs " .. last)
    -- the seaman picked counts as it does in the pool; with only seamen in
    -- the line too
    local pooled = estimate(at_orders { tiles = { whole }, workers = { chain { ships = 0, pool = { seaman = 1 } } } })
    local only = estimate(kontor.new_game { rules = "old_world", players = 4, seed = 1, scenario = {
      phase = "pick", pick_order = { 1, 2, 3, 4 }, bids = { 0, 0, 0, 0 }, first = 2, line = { seaman = 1 },
      tiles = { whole }, workers = { unmanned } } })
    assert.is_near(pooled, only, 1e-9)
  end)

  it("counts what the pirate may take from the seat's ship, nothing when it holds the pirate (O17, O21)", function()
    -- seat 1 loads its 2 black finished goods (T2: 5 VP each) and sails
    local function loaded(players, holder)
      local g = kontor.new_game { rules = "old_world", players = players, seed = 1, scenario = {
        phase = "build", pirate_holder = holder, tiles = { chain() }, workers = { chain() },
        storage = { { ["fg:black"] = 2 } } } }
      for _, text in ipairs { "acquire none", "done", "load fg:black", "load fg:black", "sail genoa" } do
        assert(g:apply("1: " .. text))
      end
      return estimate(g)
    end
    -- another seat's pirate names one of the N - 1 others' ships: 1 in 3
    -- with 4 players, the only other's with 2
    assert.is_near(loaded(4, 1) - 10 / 3, loaded(4, 2), 1e-9)
    assert.is_near(loaded(2, 1) - 10, loaded(2, 2), 1e-9)
    -- while the pirate is in the line, one chance in N that another seat
    -- picks it and robs this seat: the goods it will load (O14c), its hold
    -- of 3 filled from storage
    local function at_pick(line)
      return estimate(kontor.new_game { rules = "old_world", players = 4, seed = 1, scenario = {
        phase = "pick", pick_order = { 1, 2, 3, 4 }, bids = { 0, 0, 0, 0 }, first = 1, line = line,
        tiles = { chain() }, workers = { chain() }, storage = { { ["fg:black"] = 2, cloth = 2 } } } })
    end
    assert.is_near(at_pick { land = 3 } - (10 + 0.2) / 4, at_pick { land = 3, pirate = true }, 1e-9)
  end)

  it("has greedy pick the pirate to guard its goods, and hold them back from another's pirate (2 players)", function()
    local function start(sc)
      sc.tiles, sc.workers, sc.storage = { chain(), chain() }, { chain(), chain() }, { { ["fg:black"] = 2 } }
      return kontor.new_game { rules = "old_world", players = 2, seed = 1, scenario = sc }
    end
    local g = start { phase = "pick", pick_order = { 1, 2 }, bids = { 0, 0 }, first = 1,
      line = { land = 1, pirate = true } }
    local b = assert(bots.new("greedy", 1, 1))
    assert.are.equal("pick pirate", g:options(1)[b:choose(seatmod.view(g, 1))])
    -- seat 2 holds the pirate: the one ship it may rob is seat 1's
    g = start { phase = "build", pirate_holder = 2 }
    b = assert(bots.new("greedy", 1, 1))
    local texts = {}
    while g:options(1) and #g:options(1) > 0 do
      local text = g:options(1)[b:choose(seatmod.view(g, 1))]
      texts[#texts + 1] = text
      assert(g:apply("1: " .. text))
    end
    assert.is_nil(table.concat(texts, ", "):find("load", 1, true), table.concat(texts, ", "))
  end)

  it("takes the links' costs from R.data: a dearer Iron Plantation is worth less", function()
    local path = tmp("dear_iron.lua")
    support.write(path, [[
return {
  variant = true, name = "dear_iron", base = "old_world",
  apply = function(R)
    for _, t in ipairs(R.data.lands) do
      if t.id == "iron_plantation" then t.cost = 4 end
    end
    R.prepare()
  end,
}
]])
    local sc = { phase = "build", gold = { 3 } }
    local base = estimate(kontor.new_game { rules = "old_world", players = 4, seed = 1, scenario = sc })
    local dear = kontor.new_game { rules = "old_world", players = 4, seed = 1, variants = { path }, scenario = sc }
    -- at 4 gold black (5 VP) is no longer the best buy for the gold: red
    -- (Madder, 1 gold, 2 VP) is, and the chain's VP to come fall
    assert.is_true(estimate(dear) < base - 10, estimate(dear) .. " vs " .. base)
    local b = assert(bots.new("greedy", 1, 1))
    assert.are_not.equal("acquire land:iron_plantation", dear:options(1)[b:choose(seatmod.view(dear, 1))])
  end)
end)
