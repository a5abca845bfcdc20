-- designer_repl_new_spec.lua: `new variant=FILE` of a variant for another
-- rule set says what to type (a QA finding: in a Sea Merchants game,
-- `new variant=./low_tax.lua` said only "variant low_tax is for caribbean,
-- not sea_merchants", where the command line without --rules starts the
-- variant's own game).
local support = require "tests.lua.support"

describe("the REPL's new with a variant of another rule set", function()
  local tmp, cleanup = support.scratch()
  teardown(cleanup)

  it("names the new line that starts it, and the game stays", function()
    local f = support.write(tmp("low_tax.lua"), 'return { variant = true, name = "low_tax", base = "caribbean",\n'
      .. '  options = { threshold = { default = 16, type = "integer", min = 1 } },\n'
      .. '  apply = function(R, o) R.data.tax_threshold = o.threshold end }\n')
    local out = support.run(support.plain_binary() .. " --players 2 --seed 1",
      "new variant=" .. f .. ":threshold=20 players=3\nmoves\ng.R.name\nnew rules=caribbean variant=" .. f
      .. ":threshold=20 players=3\ng.R.name\n")
    assert.truthy(support.has(out, f .. ":1: variant low_tax is for caribbean, not sea_merchants (new keeps the rule set: "
      .. "new rules=caribbean variant=" .. f .. ":threshold=20 players=3)\nNo moves yet.\nsea_merchants\n"), out)
    assert.truthy(support.has(out, "New game: Merchants of the Caribbean with low_tax (threshold=20), 3 players"), out)
    assert.truthy(support.has(out, "\ncaribbean\n"), out)
  end)

  it("reload into a variant whose file now names another base: the line that sets it, the game as it was", function()
    local src = 'return {\n  variant = true, name = "v8",\n  base = "sea_merchants",\n  apply = function(R) end,\n}\n'
    local f = support.write(tmp("v8.lua"), src)
    local g = kontor.new_game { variants = { f }, players = 2, seed = 1 }
    assert(g:apply("load grain on ship 1"))
    local before = kontor.json.encode(g:state())
    support.write(f, (src:gsub('base = "sea_merchants"', 'base = "old_world"')))
    local ok, err = g:reload()
    assert.is_nil(ok)
    assert.are.equal("reload failed, the game is as it was: " .. f .. ":3: variant v8 is for old_world, "
      .. "not sea_merchants", tostring(err))
    assert.are.equal(before, kontor.json.encode(g:state()))
  end)

  it("given rules= of another rule set: the message alone", function()
    local out = support.run(support.plain_binary() .. " --players 2 --seed 1",
      "new rules=old_world variant=hand_limit\n")
    assert.are.equal(require("kontor.rules").find("hand_limit") .. ":21: variant hand_limit is for sea_merchants, "
      .. "not old_world\n", out)
  end)
end)
