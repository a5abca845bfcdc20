-- describe_spec.lua: every rule set says what its options cost and do
-- (R.describe_option through kontor.describe), and a move of the game that
-- is not legal now gets the rule set's reason, in the REPL and in play
-- (issue 26, points 1 and 3).
local support = require "tests.lua.support"
local describe_mod = require "kontor.describe"
local tmp, cleanup_tmp = support.scratch()
teardown(cleanup_tmp)

local BIN = support.binary()

local function run(args, stdin) return (support.run(BIN .. " " .. args, stdin)) end

-- option text -> description, for the seat to move
local function notes(g, seat)
  seat = seat or g:who()
  local out = {}
  for i, o in ipairs(g:options(seat)) do out[o] = describe_mod.options(g, seat)[i] end
  return out
end

describe("option descriptions", function()
  it("every rule set that comes with Kontor declares them, with its move words", function()
    for _, name in ipairs { "sea_merchants", "caribbean", "old_world" } do
      local R = kontor.load_rules(name)
      assert.is_true(describe_mod.declared(R), name)
      assert.are.equal("table", type(R.move_words), name)
      assert.is_not_nil(next(R.explain), name)
    end
  end)

  it("Sea Merchants: buy shows the prices, each card its price and effect (S5-S8)", function()
    local g = support.sea_merchants_game({ coins = { 12, 0 } })
    local n = notes(g)
    assert.are.equal("a special card (ship 10, contract 11, office 8, dock 12); you have 12 coins", n.buy)
    assert.are.equal("no phase I action", n.pass)
    assert.is_true(g:apply("buy"))
    n = notes(g)
    assert.are.equal("12 coins: one extra exchange after your phase I action, every turn (S5)", n["buy dock"])
    assert.are.equal("11 coins: +2 coins every time a delivery pays you (S8)", n["buy contract"])
    assert.are.equal("8 coins: at the end of your phase II you may draw 1 card (S10)", n["buy office"])
  end)

  it("Sea Merchants: a play says what it pays whom (S8)", function()
    -- Anna holds 2 fish; Anna's ships carry grain, wood; Bert's fish, spices
    local g = support.sea_merchants_game({ phase = "phase2", hands = { { "fish", "fish" }, {} },
      ships = { { "grain", "fish" }, { "fish", "fish" } } })
    assert.are.equal("draw 2 cards (S9)", notes(g).draw)
    g:apply("play fish")
    -- the market shows 1 fish (slot 4); on slot 1 it shows 2 after the play
    assert.are.equal("pays 2 per fish cube on a ship: you +2, Bert +4", notes(g)["play fish on slots 1"])
    assert.are.equal("pays 1 per fish cube on a ship: you +1, Bert +2", notes(g)["play fish on slots 4"])
  end)

  it("follows a variant that changes a price, and the house cards' own effects (H2-H7)", function()
    local v = support.write(tmp("cheap_dock.lua"), [[
return { variant = true, name = "cheap_dock", base = "sea_merchants",
  apply = function(R) R.data.price.dock = 5 end }]])
    local g = support.sea_merchants_game({ coins = { 6, 0 } }, nil, nil, { v })
    g:apply("buy")
    assert.are.equal("5 coins: one extra exchange after your phase I action, every turn (S5)", notes(g)["buy dock"])
    local h = support.sea_merchants_game({ coins = { 15, 0 } }, nil, nil, { "house:hand_limit.per_warehouse=3" })
    h:apply("buy")
    local n = notes(h)
    assert.are.equal("15 coins: your hand limit +3 (H5)", n["buy warehouse"])
    assert.are.equal("12 coins: one extra exchange after your phase I action, every turn (H7)", n["buy crane"])
    assert.are.equal("8 coins: +2 coins with every delivery of yours (H4)", n["buy office"])
    assert.is_nil(n["buy dock"])
    -- H4: a play is a delivery, so the mover's office pays with it
    local o = support.sea_merchants_game({ phase = "phase2", hands = { { "grain" }, {} },
      specials = { { office = 1 }, {} } }, nil, nil, { "house" })
    o:apply("play grain")
    assert.are.equal("pays 2 per grain cube on a ship: you +2; your offices +2 (H4)",
      notes(o)["play grain on slots 2"])
    local l = support.sea_merchants_game({ phase = "phase2", hands = { { "fish" }, {} } }, nil, nil,
      { "hand_limit:size=4" })
    assert.are.equal("draw 2 cards (S9); your hand holds 1 of 4", notes(l).draw)
  end)

  it("Caribbean: a hire says its cost, influence and skill; a loot its coins (C6)", function()
    local g = kontor.new_game { rules = "caribbean", players = 3, seed = 3 }
    local seen = {}
    for i = 1, 3000 do
      if g:over() then break end
      local s = g:who(); if type(s) == "table" then s = s[1] end
      for o, d in pairs(notes(g, s)) do seen[o .. " = " .. tostring(d)] = true end
      g:apply((i * 7) % #g:options(s) + 1, s)
    end
    assert.is_true(seen["hire Sailor 3/1 = costs 3; +1 influence; +1 strength"])
    assert.is_true(seen["hire Sailor 3/1 = costs 2; +1 influence; +1 strength"])   -- a Mademoiselle
    assert.is_true(seen["fulfil expedition house + 2 anchors = +6 influence, +3 coins; discards the persons it needs (C8)"])
    assert.is_true(seen["reveal = 109 cards in the deck; a second Skiff busts (C4)"])
    assert.is_true(seen["loot Pinnace 2 = +2 coins; you pay 1 coin to the active player first"])
    assert.is_true(seen["loot Pinnace 2 = +3 coins"])   -- a Trader of the Pinnace
  end)

  it("Old World: lands, buildings, ships, bids and picks say cost and effect (T3-T5)", function()
    local g = kontor.new_game { rules = "old_world", players = 3, seed = 3 }
    assert.are.equal("pay 2 gold, lost; higher bids pick first (O12); you have 3", notes(g, 1)["bid 2"])
    local seen = {}
    for _ = 1, 60 do
      local s = g:who(); if type(s) == "table" then s = s[1] end
      for o, d in pairs(notes(g, s)) do seen[o] = seen[o] or d end
      if seen["acquire building:dye_house"] then break end
      g:apply(1, s)
    end
    assert.equal("1 gold, 1 slot: dyes 2 cloth into finished goods per worker (O26)",
      seen["acquire building:dye_house"])
    assert.equal("1 gold, a land worker: 1 blue dye a turn (O27)", seen["acquire land:woad_plantation"])
    assert.matches("^to your pool, for a ship %(O13%); free now: %d+ ships?, in your pool: %d+$",
      seen["pick seaman"] or "to your pool, for a ship (O13); free now: 0 ships, in your pool: 0")
    assert.are.equal("weaves 4 wool into cloth a turn (O28)", kontor.load_rules("old_world").tile_effect("power_loom"))
  end)
end)

describe("why a move is refused", function()
  it("Old World: acquire building:power_loom without the gold, and outside the build", function()
    local g = kontor.new_game { rules = "old_world", players = 3, seed = 3 }
    assert.matches("it is the bid phase, not the build phase", g:why("1: acquire building:power_loom"))
    for _ = 1, 60 do
      local s = g:who(); if type(s) == "table" then s = s[1] end
      local d = g:decision()
      if d.kind == "orders" and d.steps[s] == "acquire" then
        assert.matches("the Power Loom costs 8 gold and you have %d+", g:why("acquire building:power_loom", s))
        return
      end
      g:apply(1, s)
    end
    error("no acquisition reached")
  end)

  it("the REPL gives the rule set's reason for buy dock and draw in phase I, not 'unknown command'", function()
    local out = run("", "new players=2 seed=7\nload fish on ship 1\n1\n1\n1\noptions\nbuy dock\ndraw\nbxy\nbux dock\n")
    assert.matches("'buy dock' is not a legal action: a dock costs 12 and you have 0 coins; expected one of: exchange, pass",
      out, 1, true)
    assert.matches("'draw' is not a legal action: it is phase I: exchange, buy or pass", out, 1, true)
    assert.matches("unknown command or name 'bxy'", out, 1, true)
    -- a move of the game that is not open now is still suggested
    assert.matches("unknown command or name 'bux': did you mean `buy`?", out, 1, true)
    assert.matches("  1  exchange  (swap the cube on one of your ships for another product from the pool (S6))", out, 1, true)
  end)

  it("kontor play gives it too, and shows the descriptions with the options", function()
    local out = run("play --players 2", "1\n1\n1\n1\nbuy dock\n")
    assert.matches("'buy dock' is not a legal action: a dock costs 12 and you have 0 coins", out, 1, true)
    assert.is_nil(out:find("is not a command or a move here", 1, true))
    assert.matches("  2  pass  (no phase I action)", out, 1, true)
  end)

  it("Old World in the REPL: why and the bare move both give the reason", function()
    local out = run("--rules old_world --players 3", "why acquire building:power_loom\nacquire building:power_loom\n")
    local n = select(2, out:gsub("it is the bid phase, not the build phase", ""))
    assert.are.equal(2, n)
  end)

  it("hint shows the description of the move it recommends", function()
    local out = run("", "new players=3 seed=7\nhint random\n")
    assert.matches("The random bot would play: load grain on ship 1\n  (the market shows 0 grain; 5 grain cubes in the pool)",
      out, 1, true)
  end)
end)

describe("Old World readable at the table and in the docs", function()
  it("docs/rules/old_world.md holds every table as the rule set has it", function()
    local tables = dofile("tests/lua/old_world_tables.lua")(kontor.load_rules("old_world"))
    local doc = support.read("docs/rules/old_world.md")
    assert.truthy(doc:find(tables, 1, true), "the tables in docs/rules/old_world.md differ from:\n" .. tables)
    assert.truthy(tables:find("| Power Loom | `power_loom` | `power` | 8 gold | 1 | weaves 4 wool into cloth a turn (O28) |",
      1, true))
  end)

  it("the board prints a key for every abbreviation it uses", function()
    local g = kontor.new_game { rules = "old_world", players = 2, seed = 3 }
    for _ = 1, 140 do
      local s = g:who(); if type(s) == "table" then s = s[1] end
      g:apply(#g:options(s) > 2 and 2 or 1, s)
    end
    local board = g:show()
    assert.matches("    sheep 4/5 woad 1/1\n", board, 1, true)
    assert.matches("Ring: venice genoa(T) marseille tunis(T)", board, 1, true)
    assert.matches("\nTiles (staffed/slots): sheep = Sheep Herding, woad = Woad Plantation.\n", board, 1, true)
    assert.matches("\nGoods: bl = blue dye.", board, 1, true)
    assert.matches("(T) = a\n      trading post, no owner; Bag: seamen, land, facility workers; pirate\n"
      .. "      VP/target (O30), turns = when it joins the line next.\n", board, 1, true)
    -- every tile abbreviation on the board is in the key
    for short in board:gmatch("\n    ([%a]+) %d+/%d+") do
      assert.matches("\nTiles %(staffed/slots%):[^\n]*" .. short .. " = ", board)
    end
  end)
end)

describe("the end screen says why the winner won", function()
  local function play_out(rules, seed, players)
    local g = kontor.new_game { rules = rules, players = players or 3, seed = seed }
    local b = require("kontor.bots").new("random", 1, seed)
    while not g:over() do
      local s = g:who(); if type(s) == "table" then s = s[1] end
      g:apply(b:choose(require("kontor.seat").view(g, s)), s)
    end
    return g
  end

  it("Caribbean: a player with more influence but no expedition (C9)", function()
    local g = play_out("caribbean", 6)
    assert.are.same({ 8, 12, 10 }, g:result().scores)
    assert.are.equal("Player 3 wins with 10 influence and a fulfilled expedition (C9); "
      .. "Player 2 has 12 influence but no expedition: cannot win (C9)", describe_mod.why_won(g))
  end)

  it("Sea Merchants and Old World", function()
    assert.are.equal("Player 1 has the most coins: 18 (S11); next Player 3 with 2",
      describe_mod.why_won(play_out("sea_merchants", 2)))
    assert.are.equal("Player 3 wins with 0 VP, 0 gold, goods worth 26: the most VP and gold, tied; then the goods' "
      .. "value (O31); the game ended: bag (O30)", describe_mod.why_won(play_out("old_world", 6)))
    assert.is_nil(describe_mod.why_won(kontor.new_game {}))
  end)

  it("the REPL and kontor play print it under the winners", function()
    local out = run("--rules caribbean --players 3 --seed 6", "auto\n")
    assert.matches("Winner: Player 1\nWhy: Player 1 wins with 10 influence and a fulfilled expedition (C9)\n", out, 1, true)
    out = run("play --rules caribbean --players 2 --bot 2=random --seed 6", "auto\n")
    assert.matches("Winner: Player 2\nWhy: Player 2 wins with 11 influence and a fulfilled expedition (C9)\n", out, 1, true)
  end)
end)
