-- Merchants of the Old World: one spec per ruling (O1..O34 of RULINGS.md),
-- the worked examples of RULINGS.md (O12, O19, O29, O33), random games for
-- every player count with the invariants checked at every step, replay,
-- save/load and undo through the secret steps, and what views hide (O34).
-- Run: build/kontor run tests/busted.lua tests/rules/old_world_spec.lua

local support = require "tests.lua.support"
local invariants = support.invariants

local NAMES = { "Ann", "Bob", "Cid", "Dee", "Eve", "Fay", "Gus", "Hal" }

-- A game from a stated position (docs/rules/old_world.md, "Scenario set-up").
local function game(sc, players, options, seed)
  players = players or 4
  local names = {}
  for i = 1, players do names[i] = NAMES[i] end
  local g = kontor.new_game { rules = "old_world", players = players, names = names,
                              seed = seed or 1, scenario = sc, options = options }
  invariants(g)
  return g
end

local function has(list, x)
  for _, y in ipairs(list) do if y == x then return true end end
  return false
end

local function ok(g, text, seat)
  local done, err = g:apply(text, seat)
  assert(done, err)
  invariants(g)
end

local function is_order(g)
  local d = g:decision()
  return d.kind == "simultaneous" and d.name == "order"
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
end)
