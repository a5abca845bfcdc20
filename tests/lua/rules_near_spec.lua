-- rules_near_spec.lua: a rule set or variant name typed wrong gets the
-- list of names and, when one is close, "did you mean" (a QA finding:
-- `--rules old_wrld` listed the names and left the reader to find it).
local kontor = require "kontor"
local support = require "tests.lua.support"

describe("an unknown rule set or variant name", function()
  it("close to one: the list, then did you mean; the error value names it", function()
    local ok, e = pcall(kontor.new_game, { rules = "old_wrld" })
    assert.is_false(ok)
    assert.are.equal("usage", e.kind)
    assert.truthy(e.message:find("^unknown rule set or variant 'old_wrld' %(available: .*old_world.*%): "
      .. "did you mean 'old_world'%?$"), e.message)
    assert.are.equal("old_world", e.near)
  end)

  it("a variant, from the command line", function()
    local out, e, code = support.run_split(support.plain_binary() .. " --variant hous </dev/null")
    assert.are.equal(2, code, out)
    assert.truthy(support.has(e, "unknown rule set or variant 'hous' (available: "), e)
    assert.truthy(support.has(e, "): did you mean 'house'?\n"), e)
  end)

  it("close to none: the list alone", function()
    local ok, e = pcall(kontor.new_game, { rules = "nosuch" })
    assert.is_false(ok)
    assert.truthy(e.message:find("%(available: [%w_, ]+%)$"), e.message)
    assert.is_nil(e.near)
  end)
end)
