-- owtable_log_spec.lua: what the log tells Old World's players (a QA pass
-- at `kontor play --rules old_world`). After the bids the players saw
-- "bids: Ann 2, Bob 1, Cy 2" and had to work out the pick order; after
-- production nothing said what anyone made; a ship's line said "Bob's ship 1
-- sells wool at venice: 0 VP, 0 gold" without why (another player sold
-- wool there, O19), a robbed ship the same, its gold gone unsaid; the
-- robbery's options named the seat's number only and not what the robbery
-- takes ("rob seat 3 ship 1  (cargo wool to venice: its VP go to the pirate
-- (O21))").
local kontor = require "kontor"
local describe_option = require("kontor.describe").option

local function lines(g, pattern)
  local out = {}
  for _, l in ipairs(g:log()) do if l:find(pattern) then out[#out + 1] = l end end
  return out
end

local function play(g, actions)
  for _, a in ipairs(actions) do assert(g:apply(a)) end
end

describe("Old World's log says why", function()
  it("the pick order follows the bids, ties from the token's holder (O12)", function()
    local g = kontor.new_game { rules = "old_world", players = 3, seed = 7, names = { "Ann", "Bob", "Cy" } }
    play(g, { "1: bid 2", "2: bid 1", "3: bid 2" })
    assert.are.same({ "bids: Ann 2, Bob 1, Cy 2" }, lines(g, "^bids"))
    assert.are.same({ "pick order: Cy, Ann, Bob (higher bids first; ties from the token's holder, Cy)" },
      lines(g, "^pick order"))
  end)

  it("each ship's prices at its port, the robbery's VP and gold, and what each player made", function()
    local g = kontor.new_game { rules = "old_world", players = 3, seed = 1, names = { "Ann", "Bob", "Cy" },
      scenario = { phase = "build", line = {}, pirate_holder = 2,
        tiles = { { sheep_herding = 1, back_strap_loom = 1, ships = 1 } },
        workers = { { sheep_herding = 1, back_strap_loom = 1, ships = 1 } },
        storage = { { wool = 3 }, {}, { wool = 1, ["dye:blue"] = 1 } } } }
    play(g, { "1: acquire none", "1: done", "1: load wool", "1: load wool", "1: done", "1: sail genoa",
      "2: acquire none", "2: done",
      "3: acquire none", "3: done", "3: load wool", "3: load dye:blue", "3: sail genoa" })
    assert.are.same({ "rob seat 1 ship 1", "rob seat 3 ship 1", "none" }, g:options(2))
    assert.are.equal("Cy's wool, dye:blue to genoa: the pirate takes 0 VP, the bank 1 gold (O21)",
      describe_option(g, 2, "rob seat 3 ship 1"))
    play(g, { "2: rob seat 3 ship 1" })
    assert.are.same({
      "Ann's ship 1 sells wool, wool at genoa: 0 VP, 0 gold - 2 wool at 0 gold each (2 players sell it there, O19)",
      "Cy's ship 1 sells wool, dye:blue at genoa: 0 VP, 0 gold - wool at 0 gold (2 players sell it there, O19); "
        .. "dye:blue at 1 gold; robbed: 0 VP to the pirate, 1 gold to the bank (O21)",
    }, lines(g, " sells "))
    assert.are.same({ "Ann makes 1 cloth, 1 wool (uses 1 wool)", "Bob makes 1 wool", "Cy makes 1 wool" },
      lines(g, " makes "))
  end)

  it("a robbery option says what the pirate takes at that port's prices, bonuses too (O17, O21)", function()
    local g = kontor.new_game { rules = "old_world", players = 3, seed = 1, names = { "Ann", "Bob", "Cy" },
      scenario = { phase = "build", line = {}, pirate_holder = 2,
        tiles = { { sheep_herding = 1, trade_house = 1, ships = 1 } },
        workers = { { sheep_herding = 1, trade_house = 1, ships = 1 } },
        storage = { { wool = 3, ["fg:red"] = 2 }, {}, { wool = 1, ["dye:blue"] = 1 } } } }
    play(g, { "1: acquire none", "1: done", "1: load fg:red", "1: load fg:red", "1: load wool", "1: sail genoa",
      "2: acquire none", "2: done",
      "3: acquire none", "3: done", "3: load wool", "3: load dye:blue", "3: sail genoa" })
    -- 2 red FG at 2 VP and the Trade House's 1; the wool sold by two players: 0 gold
    assert.are.equal("Ann's 2 fg:red, wool to genoa: the pirate takes 5 VP, the bank 0 gold (O21)",
      describe_option(g, 2, "rob seat 1 ship 1"))
    play(g, { "2: rob seat 1 ship 1" })
    assert.are.same({ "the pirate takes 5 VP from Ann's ship 1" }, lines(g, "^the pirate takes"))
  end)
end)
