-- Merchants of the Old World: one spec per ruling (O1..O34 of RULINGS.md),
-- the worked examples of RULINGS.md (O12, O19, O29, O33), random games for
-- every player count with the invariants checked at every step, replay,
-- save/load and undo through the secret steps, and what views hide (O34).
-- Run: build/kontor run tests/busted.lua tests/rules/old_world_spec.lua

local support = require "tests.lua.support"
local invariants = support.invariants

local ow = require "tests.rules.old_world_support"
local game, has, ok = ow.game, ow.has, ow.ok

local function is_order(g)
  local d = g:decision()
  return d.kind == "orders" and d.name == "build order"
end

-- Plays out the build orders. plan[s] is a queue of step texts for seat s:
-- at each step the seat is asked, the head of its queue is taken when it is
-- an option; otherwise the step defaults to "acquire none" or "done" (the
-- first option at a destination). With `stop` = {seat, prefix}: stops when
-- that seat is asked a step whose first option starts with prefix.
local function orders(g, plan, stop)
  plan = plan or {}
  while is_order(g) do
    local s
    for _, t in ipairs(g:who()) do
      if not (stop and stop[1] == t and g:options(t)[1]:sub(1, #stop[2]) == stop[2]) then s = t; break end
    end
    if not s then return end
    local opts, q = g:options(s), plan[s] or {}
    local text
    if q[1] and has(opts, q[1]) then text = table.remove(q, 1)
    elseif has(opts, "acquire none") then text = "acquire none"
    elseif has(opts, "done") then text = "done"
    else text = opts[1] end
    ok(g, s .. ": " .. text)
  end
  for s, q in pairs(stop and {} or plan) do
    assert(#q == 0, ("seat %d: steps never asked: %s"):format(s, table.concat(q, ", ")))
  end
end

-- Every seat in a simultaneous decision chooses: texts[s], else its first option.
local function all(g, texts)
  local d = g:decision()
  assert(d.kind == "simultaneous", "no simultaneous decision: " .. tostring(d.kind))
  for _, s in ipairs(g:who()) do ok(g, s .. ": " .. (texts[s] or g:options(s)[1])) end
end

local function log_has(g, pattern)
  for _, l in ipairs(g:log()) do if l:find(pattern) then return l end end
  return nil
end

local function store(g, s) return g.card[s].store end

describe("Merchants of the Old World", function()

  describe("worked examples of RULINGS.md", function()
    it("O12: bids 2/0/2/1, token at seat 3: the pick order is 3, 1, 4, 2", function()
      local g = game { gold = { 5, 5, 5, 5 }, first = 3, line = { seaman = 2, land = 2 } }
      all(g, { "bid 2", "bid 0", "bid 2", "bid 1" })
      assert.same({ 3, 1, 4, 2 }, g.pick_order)
      assert.equal(3, g:who())
      ok(g, "pick seaman"); assert.equal(1, g:who())
      ok(g, "pick land worker"); assert.equal(4, g:who())
      ok(g, "pick land worker")             -- Bob's pick is forced: one seaman left
      assert.truthy(log_has(g, "^Bob picks seaman$"))
      assert.same({ 3, 5, 4, 4 }, g.gold:values())    -- Cid had 5 + 1 (token), paid 2
      assert.same({ 1, 1, 1, 1 }, { g.card[1].pool.land, g.card[2].pool.seaman, g.card[3].pool.seaman, g.card[4].pool.land })
    end)

    it("O19: seats 1 and 3 send red FG to Genoa, seat 1 with two ships: 1 VP each", function()
      local g = game { tiles = { { sheep_herding = 1, ships = 2 } }, workers = { { sheep_herding = 1, ships = 2 } },
                       storage = { { ["fg:red"] = 2 }, nil, { ["fg:red"] = 1 } }, line = {} }
      orders(g, { { "load fg:red", "done", "sail genoa", "load fg:red", "sail genoa" },
                  nil, { "load fg:red", "sail genoa" } })
      assert.same({ 2, 0, 1, 0 }, g.vp:values())
      assert.equal(3, g.vp_given)
      assert.equal(0, store(g, 1)["fg:red"])
    end)

    it("O29: 2 staffed sheep, Shearing Shed and Machine Shears, 7 wool/cloth: capacity 5, 3 made", function()
      local g = game { tiles = { { sheep_herding = 2, shearing_shed = 1, machine_shears = 1, ships = 1 } },
                       workers = { { sheep_herding = 2, shearing_shed = 1, machine_shears = 1, ships = 1 } },
                       storage = { { wool = 4, cloth = 3 } }, line = {} }
      orders(g)
      assert.equal(7, store(g, 1).wool)
      assert.equal(3, store(g, 1).cloth)
      assert.equal(1, store(g, 2).wool)    -- the setup's one staffed sheep tile
    end)

    it("O33: 2 FG from 2 blue and 1 red: after red, the second is forced blue", function()
      local g = game { tiles = { { dye_house = 1, ships = 1 } }, workers = { { dye_house = 1, ships = 1 } },
                       storage = { { cloth = 2, ["dye:blue"] = 2, ["dye:red"] = 1 } }, line = {} }
      orders(g)
      local d = g:decision()
      assert.equal("colour", d.name)
      assert.same({ 1 }, g:who())
      assert.same({ "colour blue", "colour red" }, g:options(1))
      ok(g, "1: colour red")
      local st = store(g, 1)
      assert.same({ 1, 1, 1, 0, 0 }, { st["fg:red"], st["fg:blue"], st["dye:blue"], st["dye:red"], st.cloth })
    end)

    it("O33: after blue, blue and red are both left: asked again", function()
      local g = game { tiles = { { dye_house = 1, ships = 1 } }, workers = { { dye_house = 1, ships = 1 } },
                       storage = { { cloth = 2, ["dye:blue"] = 2, ["dye:red"] = 1 } }, line = {} }
      orders(g)
      ok(g, "1: colour blue")
      assert.same({ "colour blue", "colour red" }, g:options(1))
      ok(g, "1: colour blue")
      assert.same({ 2, 0, 1 }, { store(g, 1)["fg:blue"], store(g, 1)["dye:blue"], store(g, 1)["dye:red"] })
    end)
  end)

  describe("players, map, seats", function()
    it("O1: 2 to 8 players", function()
      for n = 2, 8 do assert.equal(n, #kontor.new_game { rules = "old_world", players = n }:view(1).players) end
      assert.has_error(function() kontor.new_game { rules = "old_world", players = 1 } end)
      assert.has_error(function() kontor.new_game { rules = "old_world", players = 9 } end)
    end)

    it("O2: the ring is the ports in play; 2 players add two target ports", function()
      local v = game({}, 2):view(1)
      assert.same({ { port = "venice", seat = 1 }, { port = "genoa", seat = false }, { port = "marseille", seat = 2 },
                    { port = "tunis", seat = false } }, v.ports)
      local ports = {}
      for i, p in ipairs(game({}, 5):view(1).ports) do ports[i] = p.port .. p.seat end
      assert.same({ "venice1", "genoa2", "marseille3", "barcelona4", "tunis5" }, ports)
    end)

    it("O3, T1: cost d - 1 by the shorter way (8 players), only affordable ports offered", function()
      local g = game({ gold = { 2 }, first = 2, storage = { { wool = 1 } }, line = {} }, 8)
      orders(g, { { "load wool" } }, { 1, "sail" })
      -- Venice, 2 gold: Tunis (d = 4) costs 3 and is not offered; ring order from Genoa
      assert.same({ "sail genoa", "sail marseille", "sail barcelona", "sail alexandria",
                    "sail constantinople", "sail athens" }, g:options(1))
      ok(g, "1: sail alexandria")          -- d = 3: 2 gold
      orders(g)
      assert.equal(0 + 1, g.gold:get(1))   -- 2 - 2, then the wool sells for 1
    end)

    it("O3: a staffed Deep Harbor takes 1 off each ship's cost", function()
      local g = game({ gold = { 2 }, first = 2, tiles = { { sheep_herding = 1, deep_harbor = 1, ships = 1 } },
                       workers = { { sheep_herding = 1, deep_harbor = 1, ships = 1 } },
                       storage = { { wool = 1 } }, line = {} }, 8)
      orders(g, { { "load wool" } }, { 1, "sail" })
      assert.truthy(has(g:options(1), "sail tunis"))
      ok(g, "1: sail tunis")
      orders(g)
      assert.equal(1, g.gold:get(1))       -- d = 4: 3 - 1 = 2 gold; the wool sells for 1
    end)

    it("O3: with 2 players a target port may be chosen, the own port never", function()
      local g = game({ storage = { { wool = 1 } }, line = {} }, 2)
      orders(g, { { "load wool" } }, { 1, "sail" })
      assert.same({ "sail genoa", "sail marseille", "sail tunis" }, g:options(1))
    end)
  end)

  describe("components and limits", function()
    it("O4, O14a, O32: acquisitions in table order, affordable and in supply; ships cost 1 per slot", function()
      local g = game({ gold = { 4 }, first = 2, tiles = { { sheep_herding = 5, ships = 1 } }, workers = { { ships = 1 } }, line = {} })
      assert.same({ "acquire none", "acquire land:woad_plantation", "acquire land:madder_plantation",
                    "acquire land:weld_plantation", "acquire land:walnut_plantation", "acquire land:iron_plantation",
                    "acquire building:shearing_shed", "acquire building:fulling_mill",
                    "acquire building:back_strap_loom", "acquire building:warp_weighted_loom",
                    "acquire building:walnut_extract_mill", "acquire building:dye_house",
                    "acquire building:large_dye_house", "acquire building:mordant_bath",
                    "acquire building:deep_harbor", "acquire building:tavern", "acquire ship" }, g:options(1))
      ok(g, "1: acquire ship")
      orders(g)
      assert.equal(0, g.gold:get(1))       -- the 4-slot ship 2 of a 4-player game
      assert.equal(4, g.card[1].ships[2].size)
    end)

    it("O4: with 2 or 3 players a player has 2 ships; the third is never offered", function()
      local g = game({ gold = { 20 }, tiles = { { ships = 2 } }, workers = { { ships = 2 } }, line = {} }, 3)
      assert.falsy(has(g:options(1), "acquire ship"))
    end)

    it("O5: dye production stops at the tokens; the Ironworks needs the Iron Plantation staffed (O27)", function()
      local g = game { tiles = { { iron_plantation = 1, ironworks = 1, walnut_plantation = 1, walnut_extract_mill = 1, ships = 1 } },
                       workers = { { iron_plantation = 1, ironworks = 2, walnut_extract_mill = 2, ships = 1 } },
                       storage = { { ["fg:black"] = 1 } }, line = {} }
      orders(g)
      -- black: capacity 1 + 2 = 3, but 2 tokens and 1 is an FG: 1 made.
      -- brown: the Walnut Plantation is not staffed: the mill makes nothing.
      assert.same({ 1, 1, 0 }, { store(g, 1)["dye:black"], store(g, 1)["fg:black"], store(g, 1)["dye:brown"] })
    end)

    it("O27: a staffed Walnut Plantation and a 2-worker Extract Mill make 3 brown", function()
      local g = game { tiles = { { walnut_plantation = 1, walnut_extract_mill = 1, ships = 1 } },
                       workers = { { walnut_plantation = 1, walnut_extract_mill = 2, ships = 1 } }, line = {} }
      orders(g)
      assert.equal(3, store(g, 1)["dye:brown"])
    end)

    it("O6, O9: 3 gold each (option start_gold), a staffed sheep tile and ship 1; the token holder gains 1", function()
      local g = kontor.new_game { rules = "old_world", players = 7, seed = 3 }
      local v = g:view(1)
      for s, p in ipairs(v.players) do
        assert.equal(s == v.first and 4 or 3, p.gold)
        assert.same({ sheep_herding = 1 }, p.tiles)
        assert.same({ sheep_herding = 1 }, p.staffed)
        assert.equal(4, p.ships[1].size)            -- 7 players: ship 1 has 4 slots (T3)
        assert.is_true(p.ships[1].seaman)
      end
      local g6 = kontor.new_game { rules = "old_world", players = 2, options = { start_gold = 6 } }
      assert.equal(13, g6.gold:get(1) + g6.gold:get(2))
    end)

    it("O7, T8: 29N workers in the bag; 4 players draw N with no open slot", function()
      local g = kontor.new_game { rules = "old_world", players = 4, seed = 5 }
      local v = g:view(1)
      assert.equal(4, v.line.seaman + v.line.land + v.line.facility)
      assert.equal(29 * 4 - 4, v.bag.seaman + v.bag.land + v.bag.facility)
    end)

    it("O8: the Warp Weighted Loom has 3 slots; workers only on their kind", function()
      local g = game { tiles = { { sheep_herding = 1, warp_weighted_loom = 1, ships = 1 } },
                       workers = { { ships = 1, pool = { facility = 4, land = 1 } } }, line = {} }
      orders(g, { { "assign warp_weighted_loom", "assign warp_weighted_loom", "assign warp_weighted_loom" } })
      assert.equal(3, g.card[1].crew.warp_weighted_loom)
      assert.is_nil(g.card[1].crew.sheep_herding)
      assert.same({ seaman = 0, land = 0, facility = 1 }, g.card[1].pool)   -- O23: 2 of 3 removed, land first
      assert.same({ seaman = 0, land = 1, facility = 0 }, g.removed)
    end)
  end)

  describe("turn start, bids and picks", function()
    it("O11: the token moves clockwise from turn 2; its holder gains 1 gold each turn", function()
      local g = game({ first = 4, line = {} }, 4)
      assert.same({ 3, 3, 3, 4 }, g.gold:values())
      orders(g)
      assert.equal(1, g.first)             -- turn 2: seat 4 -> seat 1
      assert.equal(2, g.turn)
      assert.equal(4, g.gold:get(1))
    end)

    it("O11: draw floor(open / 2) + N; a short bag is drawn whole and ends the game (O30)", function()
      local g = game { tiles = { { sheep_herding = 1, warp_weighted_loom = 1, dye_house = 1, ships = 1 } },
                       workers = { { sheep_herding = 1, ships = 1 } } }
      local v = g:view(1)
      assert.equal(4 // 2 + 4, v.line.seaman + v.line.land + v.line.facility)
      local short = game { bag = { seaman = 0, land = 3, facility = 0 } }
      assert.same({ 0, 3, 0 }, { short:view(1).line.seaman, short:view(1).line.land, short:view(1).line.facility })
      assert.equal("bag", short.ending)
    end)

    it("O11, T9: the pirate joins the line on turns k, 2k, ... (4 players: 3, 6)", function()
      assert.is_false(game({ turn = 2 }):view(1).line.pirate)
      assert.is_true(game({ turn = 3 }):view(1).line.pirate)
      assert.is_true(game({ turn = 4 }, 2):view(1).line.pirate)
      assert.is_true(game({ turn = 2 }, 6):view(1).line.pirate)
      assert.same({ 6, 9, 12 }, game({ turn = 3 }):view(1).pirate_turns)
    end)

    it("O12, O32: bids from 0 to the gold; a player with 0 gold bids 0 unasked; bids are paid", function()
      local g = game { gold = { 2, 0, 0, 0 }, first = 1, line = { land = 1 } }
      assert.same({ 1 }, g:who())                       -- 2 + 1 (the token)
      assert.same({ "bid 0", "bid 1", "bid 2", "bid 3" }, g:options(1))
      ok(g, "1: bid 2")
      assert.same({ 1, 0, 0, 0 }, g.gold:values())
      assert.equal(1, g.card[1].pool.land)  -- the one item: Ann's, unasked (one kind)
    end)

    it("O12: an empty line skips bids and picks", function()
      local g = game { line = {} }
      assert.is_true(is_order(g))
    end)

    it("O13: picks go round the order until the line is empty; the pirate is one item", function()
      local g = game({ gold = { 1, 0 }, first = 2, line = { seaman = 1, facility = 2, pirate = true } }, 2)
      -- Bob holds the token (1 gold); Ann bids 1, Bob 0: Ann, Bob, Ann, Bob
      all(g, { "bid 1", "bid 0" })
      assert.same({ "pick seaman", "pick facility worker", "pick pirate" }, g:options(1))
      ok(g, "pick pirate"); ok(g, "pick seaman")  -- then only facility workers: forced
      assert.equal(1, g.pirate_holder)
      assert.same({ 0, 0, 1 }, { g.card[1].pool.seaman, g.card[1].pool.land, g.card[1].pool.facility })
      assert.same({ 1, 0, 1 }, { g.card[2].pool.seaman, g.card[2].pool.land, g.card[2].pool.facility })
      assert.is_true(is_order(g))
    end)
  end)

  describe("build orders", function()
    it("O14, O16: a tile acquired and staffed this turn works at once", function()
      local g = game { gold = { 1 }, first = 2, tiles = { { ships = 1 } }, workers = { { ships = 1, pool = { facility = 1 } } },
                       storage = { { cloth = 1, ["dye:red"] = 1 } }, line = {} }
      orders(g, { { "acquire building:dye_house", "assign dye_house" } })
      assert.equal(1, store(g, 1)["fg:red"])
      assert.equal(0, g.gold:get(1))
    end)

    it("O14b: release first, then assign; the tile fixes the worker's kind", function()
      local g = game { tiles = { { sheep_herding = 2, ships = 2 } }, workers = { { sheep_herding = 1, ships = 1 } }, line = {} }
      orders(g, { { "release ship 1" } }, { 1, "assign" })
      -- the released seaman fits a ship only, not the empty sheep tile
      assert.same({ "assign ship 1", "assign ship 2", "done" }, g:options(1))
      orders(g, { { "assign ship 2" } })
      assert.same({ 0, 1 }, { g.card[1].ships[1].crew, g.card[1].ships[2].crew })
      assert.equal(1, g.card[1].crew.sheep_herding)
    end)

    it("O14c, O32: goods in the canonical order; a ship ends full or on done", function()
      local g = game { tiles = { { ships = 1 } }, workers = { { ships = 1 } }, first = 2,
                       storage = { { ["fg:black"] = 1, wool = 2, ["dye:red"] = 1 } }, line = {} }
      orders(g, nil, { 1, "load" })
      assert.same({ "load wool", "load dye:red", "load fg:black", "done" }, g:options(1))
      orders(g, { { "load fg:black", "load wool", "load wool", "sail genoa" } })
      -- the 3-slot ship is full after 3: sails; mixed cargo, alone at Genoa: 5 VP, 2 gold
      assert.equal(5, g.vp:get(1))
      assert.equal(3 + 2, g.gold:get(1))
      assert.equal(1, store(g, 1)["dye:red"])
    end)

    it("O15: a step is checked against the seat's own order: gold spent is gone", function()
      local g = game({ gold = { 1 }, first = 2, tiles = { { ships = 1 } }, workers = { { ships = 1 } },
                       storage = { { wool = 1 } }, line = {} }, 5)
      orders(g, { { "acquire land:sheep_herding", "load wool" } }, { 1, "sail" })
      -- 0 gold left: only the ports at cost 0 (Genoa, Tunis), not Marseille or Barcelona
      assert.same({ "sail genoa", "sail tunis" }, g:options(1))
    end)
  end)

  describe("the pirate", function()
    local function pirate_game(options)
      local g = game({ gold = { 0, 1, 0, 0 }, first = 4, line = { pirate = true },
                       storage = { { ["fg:yellow"] = 3 }, nil, { wool = 1 } },
                       tiles = { { guild_hall = 1, trade_house = 1, ships = 1 } },
                       workers = { { guild_hall = 1, trade_house = 1, ships = 1 } } }, 4, options)
      all(g, { [2] = "bid 1", [4] = "bid 0" })   -- Bob's bid wins the pirate (the only item)
      assert.equal(2, g.pirate_holder)
      orders(g, { { "load fg:yellow", "load fg:yellow", "load fg:yellow", "sail genoa" },
                  nil, { "load wool", "sail genoa" } })
      return g
    end

    it("O17: the holder names a loaded ship of another player, or none", function()
      local g = pirate_game()
      assert.equal(2, g:who())
      assert.same({ "rob seat 1 ship 1", "rob seat 3 ship 1", "none" }, g:options(2))
      local p = pirate_game { pirate_may_pass = false }
      assert.same({ "rob seat 1 ship 1", "rob seat 3 ship 1" }, p:options(2))
    end)

    it("O21: the robbed ship's VP go to the pirate, its gold to the bank", function()
      local g = pirate_game()
      ok(g, "rob seat 1 ship 1")
      -- 3 yellow FG alone at Genoa: 9 VP + Guild Hall 3 + Trade House 1
      assert.equal(13, g.pirate_vp)
      assert.equal(0, g.vp:get(1))
      assert.equal(13, g.vp_given)
      local q = pirate_game { pirate_takes = "goods" }
      ok(q, "rob seat 1 ship 1")
      assert.same({ 9, 4 }, { q.pirate_vp, q.vp:get(1) })
    end)

    it("O21: an unrobbed ship's yield goes to its owner", function()
      local g = pirate_game()
      ok(g, "none")
      assert.equal(13, g.vp:get(1))
      assert.equal(0 + 1, g.gold:get(3))   -- wool: 1 gold
    end)
  end)

  describe("trade", function()
    it("O19, O22: two players' wool at Genoa is worth 0; Genoa's Pier gains 1 VP per ship", function()
      local g = game { first = 4, storage = { { wool = 1 }, nil, { wool = 2 } },
                       tiles = { nil, { sheep_herding = 1, pier = 1, ships = 1 } },
                       workers = { nil, { sheep_herding = 1, pier = 1, ships = 1 } }, line = {} }
      orders(g, { { "load wool", "sail genoa" }, nil, { "load wool", "load wool", "sail genoa" } })
      assert.same({ 3 + 1, 3, 3, 4 }, g.gold:values())  -- Ann: the token, at turn 2's start
      assert.same({ 0, 2, 0, 0 }, g.vp:values())
    end)

    it("O20: raw goods pay their table value (cloth 2, brown 2); option raw_gold = flat pays 1", function()
      for _, case in ipairs { { "table", 3 + 2 * 2 + 2 + 1 }, { "flat", 3 + 3 + 1 } } do
        local g = game({ first = 4, storage = { { cloth = 2, ["dye:brown"] = 1 } }, line = {} }, 4, { raw_gold = case[1] })
        orders(g, { { "load cloth", "load cloth", "load dye:brown", "sail genoa" } })
        assert.equal(case[2], g.gold:get(1))      -- the last 1: the token, at turn 2's start
      end
    end)

    it("O22: cargo goes back to the supply; no cargo stays on a ship", function()
      local g = game { first = 4, storage = { { wool = 1 } }, line = {} }
      orders(g, { { "load wool", "sail genoa" } })
      assert.same({}, g.card[1].ships[1].cargo)
      assert.equal(1, store(g, 1).wool)    -- this turn's production only
    end)
  end)

  describe("limit check and VP bank", function()
    it("O23: 1 worker kept, 3 with a staffed Tavern; seamen go first", function()
      local g = game { first = 4, line = {},
                       tiles = { nil, { sheep_herding = 1, tavern = 1, ships = 1 } },
                       workers = { { sheep_herding = 1, ships = 1, pool = { seaman = 2, land = 1, facility = 1 } },
                                   { sheep_herding = 1, tavern = 1, ships = 1, pool = { seaman = 2, land = 1, facility = 1 } } } }
      orders(g)
      assert.same({ seaman = 0, land = 0, facility = 1 }, g.card[1].pool)
      assert.same({ seaman = 1, land = 1, facility = 1 }, g.card[2].pool)
      assert.same({ seaman = 3, land = 1, facility = 0 }, g.removed)
    end)

    it("O23 option removed_workers = bag: removed workers go back into the bag", function()
      local g = game({ first = 4, line = {}, workers = { { sheep_herding = 1, ships = 1, pool = { seaman = 2 } } } },
                     4, { removed_workers = "bag" })
      local before = g.bag.seaman
      orders(g)
      assert.same({ seaman = 0, land = 0, facility = 0 }, g.removed)
      assert.equal(1, g.card[1].pool.seaman)
      assert.equal(before + 1, g.bag.seaman + g.line.seaman)
    end)

    it("O24, O30 (3): a gain is never cut short; the emptied bank ends the game after the turn", function()
      local g = game { first = 4, vp = { 118 }, storage = { { ["fg:black"] = 1 } }, line = {} }
      assert.equal(2, g:view(1).vp_bank_left)
      orders(g, { { "load fg:black", "sail genoa" } })
      assert.equal(123, g.vp:get(1))
      assert.equal(0, g:view(1).vp_bank_left)
      assert.is_true(g:over())
      assert.same({ 1 }, g:result().winners)
    end)

    it("option vp_bank_per_player = 0: no VP bank, no end by it", function()
      local g = game({ first = 4, vp = { 500 }, storage = { { ["fg:black"] = 1 } }, line = {} }, 4, { vp_bank_per_player = 0 })
      orders(g, { { "load fg:black", "sail genoa" } })
      assert.is_false(g:over())
      assert.is_nil(g:view(1).vp_bank_left)
    end)
  end)

  describe("production", function()
    it("O26: Dye House 2 + Large Dye House 2 x 2 + Mordant Bath 3 = 9; option fg_colours = auto", function()
      local g = game({ tiles = { { dye_house = 1, large_dye_house = 1, mordant_bath = 1, ships = 1 } },
                       workers = { { dye_house = 1, large_dye_house = 2, mordant_bath = 1, ships = 1 } },
                       storage = { { cloth = 10, ["dye:blue"] = 6, ["dye:red"] = 4 } }, line = {} }, 4, { fg_colours = "auto" })
      orders(g)
      local st = store(g, 1)
      assert.same({ 4, 5, 1, 1 }, { st["fg:red"], st["fg:blue"], st["dye:blue"], st.cloth })
    end)

    it("O25: FG, dyes, cloth, wool: this turn's wool is not cloth until next turn", function()
      local g = game { tiles = { { sheep_herding = 1, woad_plantation = 1, back_strap_loom = 1, dye_house = 1, ships = 1 } },
                       workers = { { sheep_herding = 1, woad_plantation = 1, back_strap_loom = 1, dye_house = 1, ships = 1 } },
                       line = {} }
      orders(g)                                         -- turn 1: 1 wool, 1 blue
      assert.same({ 1, 0, 1, 0 }, { store(g, 1).wool, store(g, 1).cloth, store(g, 1)["dye:blue"], store(g, 1)["fg:blue"] })
    end)

    it("O28: no loom, no cloth; Back Strap 1 + Power Loom 4 = 5, limited by the wool", function()
      local g = game { tiles = { { back_strap_loom = 1, power_loom = 1, ships = 1 }, { ships = 1 } },
                       workers = { { back_strap_loom = 1, power_loom = 1, ships = 1 }, { ships = 1 } },
                       storage = { { wool = 7 }, { wool = 3 } }, line = {} }
      orders(g)
      assert.same({ 2, 5 }, { store(g, 1).wool, store(g, 1).cloth })
      assert.same({ 3, 0 }, { store(g, 2).wool, store(g, 2).cloth })
    end)

    it("option production_optional: each player says how many", function()
      local g = game({ tiles = { { sheep_herding = 2, ships = 1 } }, workers = { { sheep_herding = 2, ships = 1 } }, line = {} },
                     2, { production_optional = true })
      orders(g)
      assert.equal("make_wool", g:decision().name)
      assert.same({ "make 0 wool", "make 1 wool", "make 2 wool" }, g:options(1))
      all(g, { "make 1 wool", "make 0 wool" })
      assert.same({ 1, 0 }, { store(g, 1).wool, store(g, 2).wool })
    end)
  end)

  describe("end and winner", function()
    it("O30 (2): the pirate at 10N VP ends the game after the turn", function()
      local g = game({ pirate_vp = 19, gold = { 0, 1 }, first = 1, line = { pirate = true },
                       storage = { { ["fg:blue"] = 1 } } }, 2)
      all(g, { "bid 0", "bid 1" })
      orders(g, { { "load fg:blue", "sail genoa" } })
      ok(g, "rob seat 1 ship 1")
      assert.equal(20, g.pirate_vp)
      assert.is_true(g:over())
    end)

    it("O30 (1): a short bag at turn start: this turn is the last", function()
      local g = game { bag = { seaman = 0, land = 0, facility = 0 } }
      assert.is_true(is_order(g))
      orders(g)
      assert.is_true(g:over())
    end)

    it("O31: most VP; then most gold; then the goods' nominal value; then shared", function()
      local function result(sc)
        sc.first, sc.bag = 3, { seaman = 0, land = 0, facility = 0 }
        local g = game(sc)
        orders(g)
        return g:result().winners
      end
      assert.same({ 2 }, result { vp = { 5, 6 } })
      assert.same({ 2 }, result { vp = { 5, 5 }, gold = { 2, 3 } })
      assert.same({ 2 }, result { vp = { 5, 5 }, gold = { 3, 3 }, storage = { { ["fg:blue"] = 1 }, { cloth = 1 } } })
      assert.same({ 1, 2 }, result { vp = { 5, 5 }, gold = { 3, 3 }, storage = { { ["dye:brown"] = 1 }, { cloth = 1 } } })
    end)
  end)

  describe("the bots' score (docs/bots.md)", function()
    -- R.score in VP: a tenth a gold and a gold of raw goods; finished goods
    -- their VP on a ship, three quarters in storage; half a VP a crewed
    -- ship; two turns of the works (wool its gold, cloth and dyes a fifth,
    -- finished goods three quarters of their VP).
    local function score(sc, seat)
      sc.first, sc.line = 3, {}                 -- seats 1 and 2 keep their 3 gold
      local g = game(sc)
      return g.R.score(g.ctx, seat or 1)
    end
    local function near(x, y) assert.is_near(x, y, 1e-9) end
    local SHIP = { sheep_herding = 1, ships = 1 }

    it("values gold, goods, and a ship with its seaman", function()
      -- 3 gold, a crewed ship, a wool a turn for two turns: 0.3 + 0.5 + 0.2
      near(1.0, score { tiles = { SHIP }, workers = { SHIP } })
      near(0.5, score { tiles = { SHIP }, workers = { { sheep_herding = 1 } } })
      near(1.0 + 2.25, score { tiles = { SHIP }, workers = { SHIP }, storage = { { ["fg:yellow"] = 1 } } })
    end)

    it("counts a staffed loom, and no wool the storage has no room for (O5)", function()
      local full = { wool = 10 }
      local base = score { tiles = { SHIP }, workers = { SHIP }, storage = { full } }
      near(0.3 + 1.0 + 0.5, base)
      local loom = { sheep_herding = 1, back_strap_loom = 1, ships = 1 }
      -- the loom makes a cloth (a fifth) and frees room for a wool (a tenth)
      near(base + 2 * (0.2 + 0.1), score { tiles = { loom }, workers = { loom }, storage = { full } })
      near(base, score { tiles = { { sheep_herding = 2, ships = 1 } },
                         workers = { { sheep_herding = 2, ships = 1 } }, storage = { full } })
    end)

    it("values a chain that makes finished goods above its raw output", function()
      local chain = { sheep_herding = 1, back_strap_loom = 1, woad_plantation = 1, dye_house = 1, ships = 1 }
      local no_house = { sheep_herding = 1, back_strap_loom = 1, woad_plantation = 1, ships = 1 }
      local sc = { tiles = { chain, no_house }, workers = { chain, no_house }, storage = { { wool = 2 }, { wool = 2 } } }
      -- a blue FG a turn, three quarters of its 1 VP, for two turns
      near(score(sc, 2) + 2 * 0.75, score(sc, 1))
    end)
  end)

  describe("decisions and information", function()
    it("O32: steps with one option are taken unasked and logged at the reveal", function()
      local g = game { gold = { 0, 0, 0, 0 }, first = 2, line = {} }
      -- no gold: "acquire none" unasked; the release is a real choice
      assert.same({ "release sheep_herding", "release ship 1", "done" }, g:options(1))
      orders(g)
      -- then nothing to assign, nothing to load: "done" twice, unasked
      assert.truthy(log_has(g, "^Ann: acquire none, done, done, done$"))
    end)

    it("O34: until the reveal, another seat's order is secret in views, actions, boards and saves", function()
      local g = game({ gold = { 3, 3 }, first = 2, line = {} }, 2)
      ok(g, "1: acquire land:woad_plantation")
      local mine, theirs = g:view(1), g:view(2)
      assert.same({ "acquire land:woad_plantation" }, mine.players[1].order.steps)
      assert.equal(1, mine.players[1].order.card.tiles.woad_plantation)   -- O32: the draft
      assert.equal(2, mine.players[1].order.gold)
      assert.is_nil(theirs.players[1].order)
      assert.same({ sheep_herding = 1 }, theirs.players[1].tiles)
      assert.equal(3, theirs.players[1].gold)
      for _, a in ipairs(g:actions(2)) do assert.falsy(a:find("woad", 1, true)) end
      assert.falsy(g:show(2):find("woad", 1, true))
      assert.truthy(g:show(1):find("woad 0/1", 1, true))
      local tmp, cleanup = support.scratch()
      assert(g:save(tmp("bob.json"), 2))
      assert.falsy(support.read(tmp("bob.json")):find("woad", 1, true))
      cleanup()
      orders(g)
      assert.truthy(log_has(g, "^Ann: acquire land:woad_plantation"))
    end)

    it("O32: a seat undoes a step of its own open order; the others' stay", function()
      local g = game({ gold = { 3, 3 }, first = 2, line = {} }, 2)
      ok(g, "1: acquire land:woad_plantation")
      ok(g, "2: acquire land:sheep_herding")
      g:undo(1, 1)
      assert.is_nil(g:view(1).players[1].order.card.tiles.woad_plantation)
      assert.same({ "acquire land:sheep_herding" }, g:view(2).players[2].order.steps)
      ok(g, "1: acquire building:dye_house")
      orders(g)
      assert.equal(1, g.card[1].own.dye_house)
      assert.equal(2, g.card[2].own.sheep_herding)
    end)

    it("the same orders in another interleaving give a byte-identical save", function()
      local function play(interleave)
        local g = game({ gold = { 3, 3 }, first = 2, line = {}, storage = { { wool = 1 }, { wool = 1 } } }, 2)
        local a = { "1: acquire land:woad_plantation", "1: done", "1: load wool", "1: sail genoa" }
        local b = { "2: acquire building:dye_house", "2: done", "2: load wool", "2: sail tunis" }
        if interleave then
          for i = 1, 4 do ok(g, b[i]); ok(g, a[i]) end
        else
          for i = 1, 4 do ok(g, a[i]) end
          for i = 1, 4 do ok(g, b[i]) end
        end
        assert.is_false(is_order(g))
        return g
      end
      local tmp, cleanup = support.scratch()
      assert(play(false):save(tmp("a.json")))
      assert(play(true):save(tmp("b.json")))
      assert.equal(support.read(tmp("a.json")), support.read(tmp("b.json")))
      cleanup()
    end)

    it("the board fits an 80x40 terminal with 8 players, one of them with a full card", function()
      local g = game({ tiles = { { sheep_herding = 5, woad_plantation = 3, madder_plantation = 2, weld_plantation = 2,
                                   walnut_plantation = 2, iron_plantation = 1, shearing_shed = 1, fulling_mill = 1,
                                   machine_shears = 1, back_strap_loom = 1, warp_weighted_loom = 1, power_loom = 1,
                                   dye_house = 1, ships = 3 } },
                       storage = { { wool = 2, cloth = 2, ["dye:blue"] = 1, ["dye:black"] = 1, ["fg:blue"] = 1,
                                     ["fg:red"] = 1, ["fg:black"] = 1 } } }, 8)
      local lines = 0
      for l in g:show(1):gmatch("[^\n]+") do
        lines = lines + 1
        assert(#l < 80, l)
      end
      assert.is_true(lines <= 40)
      assert.truthy(g:show(1):find("bk 1 BL 1 RE 1 BK 1", 1, true))
    end)

    it("O34: bids are secret until all have bid", function()
      local g = game { gold = { 3, 3, 3, 3 }, line = { land = 1 } }
      ok(g, "1: bid 3")
      assert.truthy(has(g:actions(2), "1: (secret)"))
      assert.is_nil(g:view(2).bids)
    end)
  end)

  describe("random games", function()
    local check = function(g) invariants(g) end
    for n = 2, 8 do
      it(n .. " players: invariants at every step", function()
        local s = kontor.sim { rules = "old_world", players = n, games = 4, seed = n, check = check }
        assert.equal(4, s.games)
        assert.is_true(s.mean_turns >= 5 and s.mean_turns <= 30)
      end)
    end
    it("every option set away from its default: invariants at every step", function()
      local sets = { { removed_workers = "bag" }, { secret_build = "two_rounds" }, { fg_colours = "auto" },
                     { production_optional = true }, { buildings_24 = true }, { ship_is_acquisition = false },
                     { pirate_may_pass = false, pirate_takes = "goods" },
                     { raw_gold = "flat", start_gold = 6, vp_bank_per_player = 0 } }
      for i, o in ipairs(sets) do
        local s = kontor.sim { rules = "old_world", players = 2 + i % 7, games = 2, seed = i, options = o, check = check }
        assert.equal(2, s.games)
      end
    end)

    it("replay, save/load and undo through the secret steps give the same game", function()
      local g = kontor.new_game { rules = "old_world", players = 5, seed = 11 }
      local steps = 0
      while not g:over() and steps < 400 do
        local who = g:who()
        local seat = type(who) == "table" and who[1] or who
        local opts = g:options(seat)
        ok(g, (seat ~= "chance" and (seat .. ": ") or "") .. opts[(steps * 7) % #opts + 1])
        steps = steps + 1
      end
      local tmp, cleanup = support.scratch()
      local path = tmp("ow.json")
      assert(g:save(path))
      local h = assert(kontor.load_game(path))
      assert.same(g:state(), h:state())
      assert.same(g:actions(), h:actions())
      local view = g:view(1)
      g:undo(37)
      g:redo(37)
      assert.same(view, g:view(1))
      local again = kontor.new_game { rules = "old_world", players = 5, seed = 11 }
      for _, a in ipairs(g:actions()) do assert(again:apply(a)) end
      assert.same(g:state(), again:state())
      cleanup()
    end)
  end)
end)
