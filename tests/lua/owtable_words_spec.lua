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
end)
