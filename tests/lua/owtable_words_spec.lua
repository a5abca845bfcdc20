-- owtable_words_spec.lua: the words Old World's prompt shows for its
-- colour choice and its robbery (a QA finding at `kontor play --rules
-- old_world`): "Ann, your move (colour):" and "colour red  (a red finished
-- good, 2 VP (T2))" did not say that a dye and a cloth are used, nor what
-- was being coloured.
local kontor = require "kontor"
local seat = require "kontor.seat"
local describe_option = require("kontor.describe").option

describe("Old World's prompt words", function()
  it("the colour choice says what is made and from what (O26, O33)", function()
    local g = kontor.new_game { rules = "old_world", players = 2, seed = 1, scenario = { phase = "produce", line = {},
      tiles = { { sheep_herding = 1, dye_house = 1, ships = 1 } },
      workers = { { sheep_herding = 1, dye_house = 1, ships = 1 } },
      storage = { { cloth = 2, ["dye:blue"] = 1, ["dye:red"] = 1, ["dye:black"] = 1 } } } }
    assert.are.equal("colour", g:decision(1).name)
    assert.are.same({ "colour blue", "colour red", "colour black" }, g:options(1))
    assert.are.equal("a red finished good, 2 VP (T2), from 1 red dye and 1 cloth (O26)",
      describe_option(g, 1, "colour red"))
    local words = seat.view(g, 1).decision_words
    assert.are.equal("the colour of a finished good you make (O33)", words.colour)
    assert.are.equal("the pirate robs a ship (O17)", words.rob)
  end)

  it("a pick says where the worker could work now and how many wait in the pool (O13, O23)", function()
    -- "pick seaman  (a seaman to your pool: he crews a ship (O13))" did not
    -- say that a seaman with no ship to crew leaves at the limit check
    local g = kontor.new_game { rules = "old_world", players = 3, seed = 1, scenario = { phase = "pick",
      pick_order = { 1, 2, 3 }, line = { seaman = 1, land = 1, facility = 1 },
      tiles = { { sheep_herding = 2, warp_weighted_loom = 1, ships = 2 } },
      workers = { { sheep_herding = 1, ships = 1, pool = { land = 1 } } } } }
    assert.are.equal("to your pool, for a ship (O13); free now: 1 ship, in your pool: 0",
      describe_option(g, 1, "pick seaman"))
    assert.are.equal("to your pool, for a land tile (O13); free now: 1 land slot, in your pool: 1",
      describe_option(g, 1, "pick land worker"))
    assert.are.equal("to your pool, for a building (O13); free now: 3 building slots, in your pool: 0",
      describe_option(g, 1, "pick facility worker"))
  end)
end)
