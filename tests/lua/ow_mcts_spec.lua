-- Old World's mcts (variants/old_world.lua, R.bot_options; docs/bots.md,
-- "Strength"): the tree judged where it ends by R.estimate with no random
-- steps after it, by each seat's lead less its lead at the decision
-- (center=1), a move of several steps half by its best line (best=0.5).
-- Positions are scenarios (docs/rules/old_world.md, "Scenario set-up");
-- every decision has a fixed bot seed, so each is one fixed search.
local bots = require "kontor.bots"
local seatmod = require "kontor.seat"

local DEFAULTS = "mcts:best=0.5,c=0.7,center=1,estimate=1,iterations=600,margin=1,rollout=0,step_cost=0.001"

-- Seat 1's build order, 4 players, its card with the chain's tiles
-- `tiles` (all staffed) and storage `storage`, after `steps` of its order.
local function order(tiles, storage, steps)
  local g = kontor.new_game { rules = "old_world", players = 4, seed = 1,
    scenario = { phase = "build", tiles = { tiles }, workers = { tiles }, gold = { 3 }, storage = { storage } } }
  for _, text in ipairs(steps or {}) do assert(g:apply("1: " .. text)) end
  return g
end

-- What bot `spec` with seed `seed` plays for seat 1, and its top options.
local function decide(g, spec, seed)
  local b = assert(bots.new(spec, 1, seed))
  local k = b:choose(seatmod.view(g, 1))
  return g:options(1)[k], b.last
end

local ONE_SHORT = { sheep_herding = 1, back_strap_loom = 1, iron_plantation = 1, ships = 1 }   -- no dye house
local WHOLE = { sheep_herding = 1, back_strap_loom = 1, iron_plantation = 1, dye_house = 1, ships = 1 }
local STOCKED = { ["fg:black"] = 1, wool = 1, ["dye:black"] = 1, cloth = 1 }

describe("Old World's mcts", function()
  it("takes Old World's defaults (R.bot_options) for the options its name leaves out", function()
    local g = kontor.new_game { rules = "old_world", players = 4, seed = 1 }
    local b = assert(bots.new("mcts", 1, 1))
    b:tune(g.R)
    local o = b.options
    assert.are.same({ 1, 0, 1, 1, 0.5, 0.7, 600 },
      { o.estimate, o.rollout, o.margin, o.center, o.best, o.c, o.iterations })
    assert.are.equal(DEFAULTS, b:spec())
    -- the name's own value wins (and shows: off against Old World's 0.5);
    -- the other rule sets keep best off (Sea Merchants sets center)
    local mine = assert(bots.new("mcts:iterations=100,best=0", 1, 1))
    mine:tune(g.R)
    assert.are.equal("mcts:best=0,c=0.7,center=1,estimate=1,iterations=100,margin=1,rollout=0,step_cost=0.001", mine:spec())
    local sm = assert(bots.new("mcts", 1, 1))
    sm:tune(kontor.new_game { rules = "sea_merchants", players = 4, seed = 1 }.R)
    assert.are.same({ 1, 0 }, { sm.options.center, sm.options.best })
  end)

  it("searches 600 iterations a decision at the table: a round of build orders is not a long wait #slow", function()
    -- at 1000 iterations (the kind's default) a person waited up to 1.8 s
    -- of CPU for one mcts bot's build order; the work is counted: the
    -- visits of the options at the root are the iterations of the search
    local g = order(ONE_SHORT, {})
    local pick, top = decide(g, "mcts", 1)
    local visits = 0
    for _, t in ipairs(top) do visits = visits + t.visits end
    assert.are.equal(600, visits)
    assert.are.equal("acquire building:dye_house", pick)
    -- the table's bot on seat 3, 4 players, seed 3: each of its first 6
    -- searched decisions took 600 iterations (6, not a whole game: 4 s of
    -- CPU under the sanitizers for 20)
    local play = kontor.new_game { rules = "old_world", players = 4, seed = 3 }
    local seats = {}
    for s = 1, 4 do seats[s] = assert(bots.new(s == 3 and "mcts" or "random", s, 3)) end
    local searched, total = 0, 0
    while not play:over() and searched < 6 do
      local w = play:who()
      local s = type(w) == "table" and w[1] or w
      if s == "chance" then play:step(0, 1) else
        local k = seats[s]:choose(seatmod.view(play, s))
        if s == 3 and #play:options(3) > 1 then
          searched = searched + 1
          for _, t in ipairs(seats[3].last) do total = total + t.visits end
        end
        play:step(s, k)
      end
    end
    assert.are.equal(6, searched)
    assert.are.equal(6 * 600, total)
  end)

  it("buys the missing link of a chain one link short (the Dye House)", function()
    for seed = 1, 3 do
      local pick, top = decide(order(ONE_SHORT, {}), "mcts:iterations=100", seed)
      assert.are.equal("acquire building:dye_house", pick)
      assert.are.equal("acquire building:dye_house", top[1][1])
      assert.is_true(top[1].visits > 2 * top[2].visits, top[1].visits .. " vs " .. top[2].visits)
    end
  end)

  it("loads the finished good, judged by the lead less the lead at the decision (center=1)", function()
    local g = order(WHOLE, STOCKED, { "acquire none", "done" })
    assert.are.same({ "load wool", "load cloth", "load dye:black", "load fg:black", "done" }, g:options(1))
    for seed = 1, 3 do
      local pick, top = decide(g, "mcts:iterations=100", seed)
      assert.are.equal("load fg:black", pick)
      assert.is_true(top[1].value - top[2].value > 0.1, top[1].value .. " vs " .. top[2].value)
    end
    -- without center seat 1, far ahead of the others (a whole chain), gets
    -- about 1 from every line: the loads are not told apart, and the
    -- first of them is taken
    local pick, top = decide(g, "mcts:iterations=100,center=0", 1)
    assert.are.equal("load wool", pick)
    for i = 2, 4 do assert.is_near(top[1].value, top[i].value, 1e-9) end
    assert.is_true(top[1].value > 0.99, tostring(top[1].value))
  end)
end)
