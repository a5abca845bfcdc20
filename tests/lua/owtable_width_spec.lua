-- owtable_width_spec.lua: Old World's acquisition fits a 120x40 terminal
-- (a QA finding at `kontor play --rules old_world`): with 11 gold its 24
-- options wrapped to 41 rows ("acquire building:walnut_extract_mill  (4
-- gold, 2 slots for facility workers: +1 brown dye per worker with a staffed
-- Walnut Plantation (O27), while staffed; you have 11 gold)"), pushing the
-- board and the prompt's own line off the screen. Each is one line now.
local kontor = require "kontor"
local describe_option = require("kontor.describe").option

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
end)
