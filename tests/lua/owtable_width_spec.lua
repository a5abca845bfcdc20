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
end)
