-- Merchants of the Old World: a rules audit against the rulebook
-- merchants_of_the_old_world.txt and the rulings O1..O34 (RULINGS.md). Each
-- test states a defect the audit found (the engine or its messages
-- disagreed with a ruling), or a point the rulings left open and
-- docs/rules/old_world.md now decides.
-- Run: build/kontor run tests/busted.lua tests/rules/old_world_audit_spec.lua

local support = require "tests.lua.support"
local invariants = support.invariants

local ow = require "tests.rules.old_world_support"
local game, has, ok = ow.game, ow.has, ow.ok

local function seat_to_move(g)
  local who = g:who()
  return type(who) == "table" and who[1] or who
end

-- Every decision till the build orders: each seat's first option.
local function to_orders(g)
  while not g:over() and g:decision().name ~= "build order" do
    local s = seat_to_move(g)
    ok(g, s .. ": " .. g:options(s)[1])
  end
end

-- Finishes the open build orders: plan[s] is a queue of steps for seat s,
-- taken when offered; otherwise "acquire none", or "done", or the first.
local function orders(g, plan)
  plan = plan or {}
  while not g:over() and g:decision().name == "build order" do
    local s = seat_to_move(g)
    local opts, q = g:options(s), plan[s] or {}
    local text
    if q[1] and has(opts, q[1]) then text = table.remove(q, 1)
    elseif has(opts, "acquire none") then text = "acquire none"
    elseif has(opts, "done") then text = "done"
    else text = opts[1] end
    ok(g, s .. ": " .. text)
  end
end

-- The reason g:why gives, without the list of legal options after it.
local function why(g, text, seat)
  local w = g:why(text, seat)
  return w and (w:match("^'[^']*' is not a legal action: (.-); expected one of") or w)
end

describe("Old World rules audit", function()
  describe("O5, T7: storage buildings (option buildings_24)", function()
    local STORE = { sheep_herding = 1, wool_store = 1, ships = 1 }

    it("a Wool Store's worker leaves: the goods above 10 stay, wool stops until there is room", function()
      local g = game({ line = {}, tiles = { STORE }, workers = { STORE }, storage = { { wool = 10 } } }, 4,
                     { buildings_24 = true })
      orders(g)
      assert.equal(11, g.card[1].store.wool)            -- room for 15 while staffed
      to_orders(g)
      orders(g, { { "release wool_store" } })
      assert.is_nil(g.card[1].crew.wool_store)
      assert.equal(11, g.card[1].store.wool)            -- kept; no wool made above 10
      invariants(g)
    end)

    it("a Dye Cellar's worker leaves: the dyes above the tokens stay", function()
      local tiles = { woad_plantation = 1, dye_cellar = 1, ships = 1 }
      local g = game({ line = {}, tiles = { tiles }, workers = { tiles }, storage = { { ["dye:blue"] = 6 } } }, 4,
                     { buildings_24 = true })
      orders(g)
      assert.equal(7, g.card[1].store["dye:blue"])
      to_orders(g)
      orders(g, { { "release dye_cellar" } })
      assert.equal(7, g.card[1].store["dye:blue"])
      invariants(g)
    end)

    it("a scenario may give a card with a Wool Store the goods it may hold", function()
      local g = game({ line = {}, tiles = { STORE }, workers = { STORE }, storage = { { wool = 12 } } }, 4,
                     { buildings_24 = true })
      assert.equal(12, g.card[1].store.wool)
    end)

    it("a scenario's card counts the cargo on its ships against the tokens", function()
      local card = { own = { sheep_herding = 1 }, crew = { sheep_herding = 1 }, pool = {}, store = { wool = 9 },
                     ships = { { crew = 1, cargo = { "wool", "cloth" }, port = "genoa" } } }
      local done, err = pcall(kontor.new_game, { rules = "old_world", players = 4, seed = 1,
                                                 scenario = { phase = "pirate", card = { card } } })
      assert.is_false(done)
      assert.truthy(err:find("scenario: seat 1 holds more wool and cloth than its tokens", 1, true), err)
    end)
  end)

  describe("O14, O16, O22: a scenario's ships", function()
    local function refused(ship, phase)
      local card = { own = { sheep_herding = 1 }, crew = {}, pool = {}, store = {}, ships = { ship } }
      local done, err = pcall(kontor.new_game, { rules = "old_world", players = 4, seed = 1,
                                                 scenario = { phase = phase or "pirate", card = { card } } })
      assert.is_false(done)
      return err:match("scenario: ([^\n]*)")
    end

    it("a loaded ship has its seaman and a port; a ship with a port has cargo", function()
      assert.equal("seat 1: ship 1 is loaded but has no seaman (O14)",
                   refused { crew = 0, cargo = { "wool" }, port = "genoa" })
      assert.equal("seat 1: ship 1 is loaded but has no port (O14)", refused { crew = 1, cargo = { "wool" } })
      assert.equal("seat 1: ship 1 sails empty; an unloaded ship stays home (O14)",
                   refused { crew = 1, cargo = {}, port = "genoa" })
    end)

    it("ships are loaded only at phase pirate, between the reveal and the trade", function()
      assert.equal("seat 1: ship 1 is loaded at phase build; ships sail from the reveal to the trade: "
        .. "phase pirate (O16, O22)", refused({ crew = 1, cargo = { "wool" }, port = "genoa" }, "build"))
    end)
  end)

  describe("O12, O34: the bids a view shows", function()
    it("a new turn's bids are not last turn's: none until all have bid", function()
      local g = game({ gold = { 3, 3, 3 }, first = 1 }, 3)
      ok(g, "1: bid 2"); ok(g, "2: bid 1"); ok(g, "3: bid 0")
      assert.same({ 2, 1, 0 }, g:view(2).bids)
      assert.same({ 1, 2, 3 }, g:view(2).pick_order)
      while g.turn < 2 do
        local s = seat_to_move(g)
        ok(g, s .. ": " .. g:options(s)[1])
      end
      assert.equal("bid", g:decision().name)
      assert.is_nil(g:view(2).bids)
      assert.is_nil(g:view(2).pick_order)
    end)

    it("a turn with an empty line has no bids to show", function()
      local g = game({ gold = { 3, 3, 3 }, first = 1 }, 3)
      ok(g, "1: bid 2"); ok(g, "2: bid 1"); ok(g, "3: bid 0")
      to_orders(g)
      orders(g)
      -- turn 2 as stated: the line empty, no bids (O12)
      local st = g:state()
      st.line = {}
      st.phase = "turn"
      local h = kontor.new_game { rules = "old_world", players = 3, scenario = st }
      assert.equal("build order", h:decision().name)
      assert.is_nil(h:view(1).bids)
    end)
  end)

  describe("O14a: why an acquisition is refused", function()
    it("option ship_is_acquisition off: one ship a turn, and the next ship is the order's next", function()
      local g = game({ line = {}, gold = { 20 } }, 5, { ship_is_acquisition = false })
      ok(g, "1: acquire ship")
      assert.equal(2, #g:view(1).players[1].order.card.ships)
      assert.is_false(has(g:options(1), "acquire ship"))
      assert.equal("one ship a turn besides the building or land (option ship_is_acquisition)",
                   why(g, "acquire ship", 1))
    end)

    it("decided: the ship first, then the building or land; after a building no ship", function()
      local g = game({ line = {}, gold = { 20, 20 } }, 5, { ship_is_acquisition = false })
      ok(g, "1: acquire ship")
      ok(g, "1: acquire building:pier")
      assert.same({ "release sheep_herding", "release ship 1", "done" }, g:options(1))   -- acquired: 2 ships, a Pier
      assert.same({ 2, 1, 10 }, { #g:view(1).players[1].order.card.ships, g:view(1).players[1].order.card.tiles.pier,
                                  g:view(1).players[1].order.gold })
      ok(g, "2: acquire building:pier")
      assert.is_false(has(g:options(2), "acquire ship"))
      assert.equal("one acquisition a turn, first in your build order (O14): now the releases",
                   why(g, "acquire ship", 2))
    end)

    it("the ship offered is the order's next, with its own cost", function()
      local g = game({ line = {}, gold = { 2 } }, 5)
      assert.equal("ship 2 costs 4 gold and you have 3", why(g, "acquire ship", 1))
    end)
  end)

  describe("O21, T7: the robbed ship with pirate_takes = goods", function()
    it("decided: its Customs House gold goes to the bank; its Guild Hall and Trade House VP stay", function()
      local b = { "customs_house", "guild_hall", "trade_house" }
      local own, crew = { sheep_herding = 1 }, {}
      for _, id in ipairs(b) do own[id], crew[id] = 1, 1 end
      local function card(cargo)
        return { own = own, crew = crew, pool = {}, store = {}, ships = { { crew = 1, cargo = cargo, port = "genoa" } } }
      end
      local g = game({ phase = "pirate", pirate_holder = 4, line = {},
                       card = { card { "wool", "cloth" }, nil, card { "fg:red", "fg:red" } } }, 4,
                     { buildings_24 = true, pirate_takes = "goods" })
      ok(g, "4: rob seat 1 ship 1")
      assert.equal(3, g.gold:get(1))                    -- wool 1, cloth 2, Customs 2: all to the bank
      assert.equal(1, g.vp:get(1))                      -- its Trade House VP stays
      assert.equal(0, g.pirate_vp)                      -- no FG on the robbed ship
      assert.equal(2 * 2 + 2 + 1, g.vp:get(3))          -- red FG 2 each, Guild Hall 2, Trade House 1
    end)
  end)

  describe("O14: why a build step is refused", function()
    local function loading()
      local g = game({ line = {}, storage = { { wool = 2 } } })
      ok(g, "1: acquire none"); ok(g, "1: done")          -- nothing to assign: unasked
      assert.same({ "load wool", "done" }, g:options(1))
      return g
    end

    it("a port named while loading: the ship is still loading", function()
      assert.equal("now: loading a ship (O14): 'load <good>' or 'done'", why(loading(), "sail genoa", 1))
    end)

    it("a good not in storage cannot be loaded", function()
      assert.equal("you have no fg:red in storage to load", why(loading(), "load fg:red", 1))
    end)

    it("a port of the ring that the ship may not sail to: why", function()
      local g = loading()
      ok(g, "1: load wool"); ok(g, "1: done")
      assert.equal("a ship never sails to its own port, venice (O3)", why(g, "sail venice", 1))
      assert.equal("there is no port 'atlantis' in this game (O2)", why(g, "sail atlantis", 1))
    end)

    it("release and assign name what stops them", function()
      local tiles = { sheep_herding = 1, ships = 2 }
      local g = game { line = {}, gold = { 5 }, tiles = { tiles },
                       workers = { { sheep_herding = 1, ships = 1, pool = { seaman = 1 } } } }
      ok(g, "1: acquire building:dye_house")
      assert.equal("nobody works on the Dye House", why(g, "release dye_house", 1))
      assert.equal("you own no Pier", why(g, "release pier", 1))
      ok(g, "1: done")
      assert.same({ "assign ship 2", "done" }, g:options(1))
      assert.equal("you have no facility worker in your pool", why(g, "assign dye_house", 1))
      assert.equal("ship 1 has its seaman", why(g, "assign ship 1", 1))
      assert.equal("you have no ship 3", why(g, "assign ship 3", 1))
      assert.equal("the Sheep Herding has no free slot", why(g, "assign sheep_herding", 1))
    end)
  end)

  describe("O17, O33: why a robbery or a colour is refused", function()
    it("the pirate robs a loaded ship of another player", function()
      local card = function(cargo)
        return { own = { sheep_herding = 1 }, crew = {}, pool = {}, store = {},
                 ships = { { crew = 1, cargo = cargo, port = cargo[1] and "genoa" or false } } }
      end
      local g = game { phase = "pirate", pirate_holder = 3, line = {},
                       card = { card { "wool" }, card {}, card { "wool" } } }
      assert.same({ "rob seat 1 ship 1", "none" }, g:options(3))
      assert.equal("the pirate robs another player's ship (O17)", why(g, "rob seat 3 ship 1", 3))
      assert.equal("Bob's ship 1 carries no cargo", why(g, "rob seat 2 ship 1", 3))
      assert.equal("Bob has no ship 2", why(g, "rob seat 2 ship 2", 3))
    end)

    it("a colour with no dye of it in storage", function()
      local tiles = { dye_house = 1, ships = 1 }
      local g = game { tiles = { tiles }, workers = { tiles }, line = {},
                       storage = { { cloth = 2, ["dye:blue"] = 2, ["dye:red"] = 1 } } }
      orders(g)
      assert.equal("colour", g:decision().name)
      assert.equal("you have no black dye", why(g, "colour black", 1))
    end)
  end)

  describe("O25, option production_optional: why a count is refused", function()
    it("more than the step may make, or another step's good", function()
      local tiles = { sheep_herding = 1, back_strap_loom = 1, dye_house = 1, ships = 1 }
      local g = game({ line = {}, tiles = { tiles }, workers = { tiles },
                       storage = { { wool = 2, cloth = 3, ["dye:blue"] = 2 } } }, 3, { production_optional = true })
      orders(g)
      assert.same({ "make 0 finished goods", "make 1 finished goods", "make 2 finished goods" }, g:options(1))
      assert.equal("you can make at most 2 now: your capacity, inputs and tokens (O25-O29)",
                   why(g, "make 3 finished goods", 1))
      assert.equal("now: how many finished goods to make (O26, option production_optional): "
        .. "'make <n> finished goods'", why(g, "make 1 cloth", 1))
    end)
  end)

  describe("O31: why the winner won", function()
    local function over(sc)
      sc.first, sc.bag = 3, { seaman = 0, land = 0, facility = 0 }
      local g = game(sc)
      orders(g)
      assert.is_true(g:over())
      return g.R.why_won(g.ctx)
    end

    it("the rival tied deepest decides the reason, whatever its seat", function()
      -- Bob ties Ann on VP and gold (the goods decide); Cid (the token's
      -- holder, 1 + 1 gold) ties on VP only
      local w = over { vp = { 5, 5, 5 }, gold = { 3, 3, 1 }, storage = { { ["fg:blue"] = 1 } } }
      assert.truthy(w:find("Ann wins with 5 VP, 3 gold, goods worth 2: the most VP and gold, tied; "
        .. "then the goods' value (O31)", 1, true), w)
    end)

    it("a win shared on all three says so", function()
      local w = over { vp = { 5, 5 }, gold = { 3, 3 } }
      assert.truthy(w:find("Ann and Bob share the win with 5 VP, 3 gold, goods worth 1: the most VP, gold "
        .. "and goods' value, tied (O31)", 1, true), w)
    end)
  end)

  describe("RULINGS.md's open choices 17 and 18 as options", function()
    it("first_pirate_turn: the pirate's first turn, then every k (4 players: k = 3)", function()
      local function turns(options)
        local g = kontor.new_game { rules = "old_world", players = 4, seed = 1, options = options }
        return g:view(1).pirate_turns, g.line.pirate
      end
      assert.same({ { 3, 6, 9 }, false }, { turns {} })
      assert.same({ { 4, 7, 10 }, true }, { turns { first_pirate_turn = 1 } })
      assert.same({ { 2, 5, 8 }, false }, { turns { first_pirate_turn = 2 } })
    end)

    it("first_player_gold: what the token's holder gains each turn", function()
      local g = game({ first = 2 }, 4, { first_player_gold = 2 })
      assert.same({ 3, 5, 3, 3 }, g.gold:values())
    end)

    it("random games with both away from their defaults: invariants at every step", function()
      for n = 2, 8, 3 do
        local s = kontor.sim { rules = "old_world", players = n, games = 2, seed = n, check = invariants,
                               options = { first_pirate_turn = 1, first_player_gold = 0, buildings_24 = true } }
        assert.equal(2, s.games)
      end
    end)
  end)

  describe("RULINGS.md's open choice 14 as an option: extract_mill_needs", function()
    local MILL = { walnut_plantation = 1, walnut_extract_mill = 1, ships = 1 }
    local function brown(needs, workers)
      local g = game({ line = {}, tiles = { MILL }, workers = { workers } }, 4, { extract_mill_needs = needs })
      orders(g)
      return g.card[1].store["dye:brown"]
    end

    it("staffed (the ruling): the mill works only with a staffed Walnut Plantation", function()
      assert.equal(0, brown(nil, { walnut_extract_mill = 2, ships = 1 }))
      assert.equal(3, brown(nil, { walnut_plantation = 1, walnut_extract_mill = 2, ships = 1 }))
    end)

    it("owned: with a Walnut Plantation owned, staffed or not", function()
      assert.equal(2, brown("owned", { walnut_extract_mill = 2, ships = 1 }))
      local none = { sheep_herding = 1, walnut_extract_mill = 1, ships = 1 }
      local g = game({ line = {}, tiles = { none }, workers = { none } }, 4, { extract_mill_needs = "owned" })
      orders(g)
      assert.equal(0, g.card[1].store["dye:brown"])
    end)

    it("build: built only with a Walnut Plantation owned, then it works without", function()
      assert.equal(2, brown("build", { walnut_extract_mill = 2, ships = 1 }))
      local g = game({ line = {}, gold = { 9 } }, 4, { extract_mill_needs = "build" })
      assert.is_false(has(g:options(1), "acquire building:walnut_extract_mill"))
      assert.equal("the Walnut Extract Mill needs a Walnut Plantation first (option extract_mill_needs = build, O27)",
                   why(g, "acquire building:walnut_extract_mill", 1))
      local h = game({ line = {}, gold = { 9 } }, 4)           -- the ruling: built without one
      assert.is_true(has(h:options(1), "acquire building:walnut_extract_mill"))
      local tiles = { sheep_herding = 1, walnut_plantation = 1, ships = 1 }
      local k = game({ line = {}, gold = { 9 }, tiles = { tiles } }, 4, { extract_mill_needs = "build" })
      assert.is_true(has(k:options(1), "acquire building:walnut_extract_mill"))
    end)

    it("random games with each value: invariants at every step", function()
      for i, needs in ipairs { "owned", "build" } do
        local s = kontor.sim { rules = "old_world", players = 3 + i, games = 2, seed = i, check = invariants,
                               options = { extract_mill_needs = needs, buildings_24 = true } }
        assert.equal(2, s.games)
      end
    end)
  end)

  describe("RULINGS.md's open choice 16 as an option: forced_placement", function()
    it("no 'done' while a pool worker has a free slot of its kind; one slot left is taken unasked", function()
      local tiles = { sheep_herding = 2, woad_plantation = 1, dye_house = 1, ships = 1 }
      local sc = { line = {}, tiles = { tiles },
                   workers = { { sheep_herding = 1, ships = 1, pool = { land = 1, facility = 1 } } } }
      local g = game(sc, 4, { forced_placement = true })
      ok(g, "1: acquire none"); ok(g, "1: done")
      assert.same({ "assign sheep_herding", "assign woad_plantation", "assign dye_house" }, g:options(1))
      assert.equal("a worker in your pool must go onto a free slot of its kind (option forced_placement, O14b)",
                   why(g, "done", 1))
      ok(g, "1: assign woad_plantation")           -- then the Dye House is the one slot left: unasked
      assert.same({}, g:options(1))
      orders(g)
      local logged
      for _, l in ipairs(g:log()) do if l:find("^Ann: ") then logged = l end end
      assert.equal("Ann: acquire none, done, assign woad_plantation, assign dye_house, done, done", logged)
      assert.same({ 1, 1, 0 }, { g.card[1].crew.dye_house, g.card[1].crew.woad_plantation, g.card[1].pool.facility })
      local h = game(sc, 4)                       -- the ruling: the pool may keep them
      ok(h, "1: acquire none"); ok(h, "1: done")
      assert.same({ "assign sheep_herding", "assign woad_plantation", "assign dye_house", "done" }, h:options(1))
    end)

    it("random games: invariants at every step, and no worker kept with a free slot of its kind", function()
      local function check(g)
        invariants(g)
        if g.phase == "pirate" or g.phase == "produce" then      -- after the reveal, before the limit check
          for s = 1, g.players do
            local c = g.card[s]
            if c.pool.seaman > 0 then
              for _, ship in ipairs(c.ships) do assert(ship.crew == 1, "a seaman kept with a ship unmanned") end
            end
          end
        end
      end
      local s = kontor.sim { rules = "old_world", variants = { "tests/rules/old_world_referee.lua" }, players = 5,
                             games = 4, seed = 3, check = check, options = { forced_placement = true } }
      assert.equal(4, s.games)
    end)
  end)

  describe("RULINGS.md's open choice 15 as an option: new_tiles_work_this_turn", function()
    local OFF = { new_tiles_work_this_turn = false }

    it("off: a tile acquired is paid at the reveal and placed at the turn's end, unstaffed", function()
      local g = game({ line = {}, gold = { 9 }, workers = { { sheep_herding = 1, ships = 1, pool = { land = 1 } } } }, 4, OFF)
      ok(g, "1: acquire land:sheep_herding")
      assert.same({ "release sheep_herding", "release ship 1", "done" }, g:options(1))
      assert.same({ "land:sheep_herding" }, { "land:" .. g:view(1).players[1].order.arriving[1] })
      assert.equal(1, g:view(1).players[1].order.card.tiles.sheep_herding)      -- not yet on the card
      assert.truthy(g:show(1):find("at the turn's end: sheep", 1, true))
      assert.falsy(g:show(2):find("at the turn's end", 1, true))                -- O34: secret till the reveal
      ok(g, "1: done")                            -- no free land slot: the land worker stays in the pool
      orders(g)
      assert.equal(2, g.card[1].own.sheep_herding)
      assert.equal(1, g.card[1].crew.sheep_herding)
      assert.equal(1, g.card[1].store.wool)       -- the new tile made nothing this turn
      assert.equal(10 - 1, g.gold:get(1))         -- 9 + 1 (the token), less 1
      assert.is_nil(g.arriving)
    end)

    it("off: a ship acquired does not sail this turn", function()
      local g = game({ line = {}, gold = { 9 }, storage = { { wool = 3 } },
                       workers = { { sheep_herding = 1, ships = 1, pool = { seaman = 1 } } } }, 4, OFF)
      ok(g, "1: acquire ship")
      ok(g, "1: done")                            -- releases; nothing to assign: the seaman has no ship yet
      assert.same({ "load wool", "done" }, g:options(1))
      orders(g, { { "done" } })
      assert.equal(2, #g.card[1].ships)
      assert.equal(0, g.card[1].ships[2].crew)
      assert.equal(1, g.card[1].pool.seaman)
    end)

    it("off: a copy of the state after the reveal goes on alike", function()
      local g = game({ line = {}, gold = { 9 }, first = 2, pirate_holder = 3, phase = "build",
                       storage = { { wool = 1 } } }, 4, OFF)
      orders(g, { { "acquire building:pier", "done", "load wool", "sail genoa" } })
      assert.equal("rob", g:decision().name)
      assert.same({ "pier" }, g:view(2).players[1].arriving)
      local h = kontor.new_game { rules = "old_world", players = 4, names = { "Ann", "Bob", "Cid", "Dee" },
                                  scenario = g:state(), options = OFF }
      assert.same({ [1] = { "pier" } }, h.arriving)
      ok(g, "3: none"); ok(h, "3: none")
      assert.equal(1, h.card[1].own.pier)
      assert.same(g:state(), h:state())
    end)

    it("random games with it off: invariants at every step", function()
      local s = kontor.sim { rules = "old_world", variants = { "tests/rules/old_world_referee.lua" }, players = 4,
                             games = 4, seed = 5, check = invariants,
                             options = { new_tiles_work_this_turn = false, ship_is_acquisition = false } }
      assert.equal(4, s.games)
    end)
  end)

  describe("RULINGS.md's open choice 10 as an option: map", function()
    -- The ports a loaded ship of seat 1 (Venice) is offered, with their costs.
    local function costs(players, map)
      local g = game({ line = {}, gold = { 9 }, storage = { { wool = 1 } } }, players, { map = map })
      ok(g, "1: acquire none"); ok(g, "1: done"); ok(g, "1: load wool")
      local out = {}
      for _, o in ipairs(g:options(1)) do
        out[o:match("^sail (%a+)$")] = tonumber(g.R.describe_option(g.ctx, 1, "sail", o):match("costs (%d+) gold"))
      end
      return out
    end

    it("ring (the ruling): the ports in play form the ring (T1)", function()
      assert.same({ genoa = 0, marseille = 1, tunis = 0 }, costs(2))
      assert.same({ genoa = 0, marseille = 1, barcelona = 0 }, costs(4))
    end)

    it("fixed: all 8 ports form the ring, the empty ones passed too", function()
      assert.same({ genoa = 0, marseille = 1, tunis = 3 }, costs(2, "fixed"))
      assert.same({ genoa = 0, marseille = 1, barcelona = 2 }, costs(4, "fixed"))
      local eight = costs(8, "fixed")
      assert.same(costs(8), eight)                -- with 8 players the two are the same
      assert.equal(3, eight.tunis)
    end)
  end)

  describe("an independent referee (tests/rules/old_world_referee.lua) agrees with every phase", function()
    local REFEREE = "tests/rules/old_world_referee.lua"

    it("random games at 2, 3, 5 and 8 players, with options away from their defaults", function()
      local runs = {
        { 2, {} }, { 3, { buildings_24 = true, fg_colours = "auto", pirate_takes = "goods", raw_gold = "flat" } },
        { 5, { secret_build = "two_rounds", ship_is_acquisition = false, pirate_may_pass = false,
               new_tiles_work_this_turn = false, forced_placement = true } },
        { 8, { extract_mill_needs = "owned", buildings_24 = true, first_pirate_turn = 1 } },
        { 4, { map = "fixed", extract_mill_needs = "build" } },
      }
      for _, r in ipairs(runs) do
        local s = kontor.sim { rules = "old_world", variants = { REFEREE }, players = r[1], games = 8, seed = r[1],
                               options = r[2] }
        assert.equal(8, s.games)
      end
    end)

    it("games from positions with every chain built and staffed", function()
      local tiles = { sheep_herding = 2, woad_plantation = 1, madder_plantation = 1, weld_plantation = 1,
        walnut_plantation = 1, iron_plantation = 1, shearing_shed = 1, machine_shears = 1, back_strap_loom = 1,
        warp_weighted_loom = 1, power_loom = 1, walnut_extract_mill = 1, ironworks = 1, dye_house = 1,
        large_dye_house = 1, mordant_bath = 1, deep_harbor = 1, pier = 1, tavern = 1, trade_house = 1,
        guild_hall = 1, ships = 2 }
      local workers = { sheep_herding = 2, woad_plantation = 1, madder_plantation = 1, weld_plantation = 1,
        walnut_plantation = 1, iron_plantation = 1, shearing_shed = 1, back_strap_loom = 1, warp_weighted_loom = 1,
        walnut_extract_mill = 1, ironworks = 1, dye_house = 1, large_dye_house = 1, mordant_bath = 1, pier = 1,
        trade_house = 1, guild_hall = 1, ships = 2 }
      local storage = { wool = 3, cloth = 5, ["dye:blue"] = 2, ["dye:brown"] = 2, ["dye:black"] = 1,
        ["fg:red"] = 3, ["fg:yellow"] = 2, ["fg:black"] = 1 }
      local vp = 0
      for seed = 1, 4 do
        local sc = { tiles = {}, workers = {}, storage = {}, gold = {}, turn = 3 }
        for s = 1, 4 do sc.tiles[s], sc.workers[s], sc.storage[s], sc.gold[s] = tiles, workers, storage, 12 end
        local g = kontor.new_game { rules = "old_world", variants = { REFEREE }, players = 4, seed = seed, scenario = sc,
                                    options = { fg_colours = seed % 2 == 0 and "auto" or "choice" } }
        local x = seed
        while not g:over() and g.turn < 8 do
          local s = seat_to_move(g)
          local opts = g:options(s)
          x = (x * 1103515245 + 12345) % 2147483648
          local text = opts[x % #opts + 1]
          if opts[1]:match("^release") and x % 4 ~= 0 then text = "done" end       -- keep the chains staffed
          if opts[1]:match("^load") and x % 5 ~= 0 then text = opts[1] end          -- and the ships loaded
          ok(g, s .. ": " .. text)
        end
        for s = 1, 4 do vp = vp + g.vp:get(s) end
      end
      assert.is_true(vp > 100, "the chains sold finished goods: " .. vp .. " VP")
    end)
  end)

  describe("O23: the limit check's log", function()
    it("says how many workers of a kind leave, in the plural", function()
      local g = game { line = {}, workers = { { sheep_herding = 1, ships = 1, pool = { land = 3 } } } }
      orders(g)
      local found
      for _, l in ipairs(g:log()) do if l:find("^Ann removes") then found = l end end
      assert.equal("Ann removes 2 land workers", found)
    end)

    it("and seamen, not 'seamans'", function()
      local g = game { line = {}, workers = { { sheep_herding = 1, ships = 1, pool = { seaman = 3 } } } }
      orders(g)
      local found
      for _, l in ipairs(g:log()) do if l:find("^Ann removes") then found = l end end
      assert.equal("Ann removes 2 seamen", found)
    end)
  end)
end)
