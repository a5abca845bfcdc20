-- owtable_width_spec.lua: Old World's acquisition fits a 120x40 terminal
-- (a QA finding at `kontor play --rules old_world`): with 11 gold its 24
-- options wrapped to 41 rows ("acquire building:walnut_extract_mill  (4
-- gold, 2 slots for facility workers: +1 brown dye per worker with a staffed
-- Walnut Plantation (O27), while staffed; you have 11 gold)"), pushing the
-- board and the prompt's own line off the screen. Each is one line now.
local kontor = require "kontor"
local describe_option = require("kontor.describe").option
local seat = require "kontor.seat"

describe("Old World's acquisition at a 120-column terminal", function()
  for _, opts in ipairs { {}, { buildings_24 = true } } do
    it("every option is one line as play prints it" .. (opts.buildings_24 and " (buildings_24)" or ""), function()
      local g = kontor.new_game { rules = "old_world", players = 8, seed = 1, options = opts,
        scenario = { phase = "build", line = {}, gold = { 40 } } }
      local list = g:options(1)
      assert.are.equal(opts.buildings_24 and 32 or 24, #list)
      for _, o in ipairs(list) do
        local line = ("  %2d  %s  (%s)"):format(#list, o, describe_option(g, 1, o))
        assert(#line <= 120, #line .. ": " .. line)
      end
      assert.are.equal("4 gold, 2 slots: +1 brown dye per worker if Walnut Plantation works (O27)",
        describe_option(g, 1, "acquire building:walnut_extract_mill"))
      assert.are.equal("keep your 40 gold", describe_option(g, 1, "acquire none"))
    end)
  end

  it("a load or sail step says which ship it is for, in one line", function()
    -- two manned ships: "load wool  (worth 1 gold at a port, ...)" did not
    -- say whether the wool went onto ship 1 or ship 2
    local g = kontor.new_game { rules = "old_world", players = 5, seed = 1,
      scenario = { phase = "build", line = {}, gold = { 9 },
        tiles = { { sheep_herding = 1, ships = 2 } }, workers = { { sheep_herding = 1, ships = 2 } },
        storage = { { wool = 2, cloth = 1, ["dye:yellow"] = 2, ["fg:black"] = 1 } } } }
    for _, a in ipairs { "1: acquire none", "1: done", "1: load wool", "1: done" } do assert(g:apply(a)) end
    assert.are.equal("ship 1 (holds 3, 1 loaded) sails there: costs 0 gold (O3); Player 2's port",
      describe_option(g, 1, "sail genoa"))
    assert(g:apply("1: sail genoa"))
    assert.are.equal("onto ship 2 (holds 4, 0 loaded): 1 gold at a port, 1 less per other seller there (O19)",
      describe_option(g, 1, "load dye:yellow"))
    assert.are.equal("ship 2 (holds 4, 0 loaded): load no more goods (O14c)", describe_option(g, 1, "done"))
    for _, o in ipairs(g:options(1)) do
      local line = ("  %2d  %s  (%s)"):format(13, o, describe_option(g, 1, o))
      assert(#line <= 120, #line .. ": " .. line)
    end
  end)

  it("the seat entering its order sees its own card again at the board's foot, next to its options (O32)", function()
    -- 3 players and 24 acquisitions: 45 rows, the seat's card scrolled off
    local g = kontor.new_game { rules = "old_world", players = 3, seed = 1, names = { "Ann", "Bob", "Cy" },
      scenario = { phase = "build", line = {}, gold = { 12, 12, 12 } } }
    assert(g:apply("1: acquire building:dye_house"))
    local mine = seat.view(g, 1).board()
    local foot = mine:match("\nYour card as your order leaves it:\n(.*)$")
    assert.truthy(foot, mine)
    assert.truthy(foot:find("^  Ann        venice      11 gold   0 VP  pool s0 l0 f0  %[token%]\n    sheep 1/1 dyeh 0/1\n"), foot)
    -- another seat sees its own card there, and nothing of Ann's draft (O34)
    local theirs = seat.view(g, 2).board()
    assert.truthy(theirs:find("\nYour card as your order leaves it:\n  Bob        genoa       12 gold", 1, true), theirs)
    assert.falsy(theirs:find("dyeh", 1, true), theirs)
    -- a finished order: no foot
    assert(g:apply("1: done"))
    for _ = 1, 5 do if g:decision(1) and g:decision(1).name == "build order" and g:options(1)[1] then
      assert(g:apply("1: " .. g:options(1)[#g:options(1)])) end end
    assert.falsy(seat.view(g, 1).board():find("Your card", 1, true))
  end)

  it("names a seat's home port whole on its card: constantinople, not constantin", function()
    local g = kontor.new_game { rules = "old_world", players = 8, seed = 1 }
    assert.truthy(g:show():find("\n  Player 7   constantinople   3 gold   0 VP  pool s0 l0 f0\n", 1, true), g:show())
  end)
end)
