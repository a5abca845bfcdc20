-- A variant's R.describe_option that fails (the designer pass found it
-- swallowed: the options showed no description and said nothing). It
-- never stops the game; its description says where it failed, as a failing
-- R.explain does in why.
local support = require "tests.lua.support"

local BIN = support.binary()
local dir = support.tmpdir()
teardown(function() os.execute("rm -rf " .. support.sh_quote(dir)) end)

local BAD = [[
return {
  variant = "bad_describe", base = "sea_merchants", summary = "test: a describe_option that fails",
  apply = function(R)
    function R.describe_option(g, seat, decision, text)
      local x = nil
      return x.y
    end
  end,
}
]]

describe("a variant's R.describe_option that fails", function()
  it("is said in each option's description, and the game goes on", function()
    local v = support.write(dir .. "/bad_describe.lua", BAD)
    local out = support.run(BIN .. " --players 2 --seed 3 --variant " .. support.sh_quote(v), "options\n1\nmoves\n")
    assert.truthy(support.has(out, "   1  load grain on ship 1  (R.describe_option failed: " .. v
      .. ":6: attempt to index a nil value (local 'x'))\n"), out)
    assert.truthy(support.has(out, "Player 1 loads grain on ship 1\nPlayer 2 to choose (load).\n1  Player 1: load grain on ship 1"), out)
  end)

  it("is said the same in the game's library call", function()
    local v = support.write(dir .. "/bad_describe2.lua", BAD)
    local g = kontor.new_game { players = 2, seed = 3, variants = { v } }
    local describe = require "kontor.describe"
    assert.are.equal("R.describe_option failed: " .. v .. ":6: attempt to index a nil value (local 'x')",
      describe.option(g, 1, g:options(1)[1]))
  end)
end)
