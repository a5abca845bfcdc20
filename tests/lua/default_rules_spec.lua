-- default_rules_spec.lua: a game given variants and no rule set is of the
-- rule set its first variant is for (`kontor --variant port_royal` is a
-- Caribbean game), in every front end; with no variant, Sea Merchants.
local support = require "tests.lua.support"

describe("a game without a rule set", function()
  it("is Sea Merchants with no variants", function()
    assert.are.equal("sea_merchants", kontor.default_rules(nil))
    assert.are.equal("sea_merchants", kontor.default_rules({}))
    assert.are.equal("sea_merchants", kontor.new_game{ players = 2, seed = 1 }.R.name)
  end)

  it("is of the base its first variant names", function()
    assert.are.equal("caribbean", kontor.default_rules({ "port_royal" }))
    assert.are.equal("caribbean", kontor.default_rules({ "port_royal:end_influence=9" }))
    assert.are.equal("caribbean", kontor.default_rules({ { "port_royal", options = { end_influence = 9 } } }))
    assert.are.equal("sea_merchants", kontor.default_rules({ "house" }))
    local g = kontor.new_game{ variants = { "port_royal" }, players = 2, seed = 1 }
    assert.are.equal("caribbean", g.R.name)
    assert.are.equal("Port Royal", g.R.title)
    assert.are.equal("discover", g:decision().name)
  end)

  it("names an unknown variant, not a rule set it guessed", function()
    assert.are.equal("sea_merchants", kontor.default_rules({ "nope" }))
    local ok, err = pcall(kontor.new_game, { variants = { "nope" }, players = 2 })
    assert.is_false(ok)
    assert.are.equal("usage", err.kind)
    assert.truthy(support.has(err.message, "unknown rule set or variant 'nope'"))
  end)

  it("refuses a second variant for another base, naming both", function()
    local ok, err = pcall(kontor.new_game, { variants = { "port_royal", "house" }, players = 2 })
    assert.is_false(ok)
    assert.are.equal(require("kontor.rules").find("house") .. ":8: variant house is for sea_merchants, not caribbean",
      err.message)
  end)

  it("is what kontor sim and the REPL play with --variant port_royal alone", function()
    local out = support.kontor_rc("sim --variant port_royal --players 2 --games 2 --seed 1")
    assert.truthy(support.has(out, "rules        caribbean + port_royal\n"), out)
    assert.truthy(support.has(out, "rc=0\n"), out)
    out = support.kontor_rc("--variant port_royal --players 2 --seed 1", "board\n")
    assert.truthy(support.has(out, "Port Royal - discover, Player 1's turn"), out)
    assert.truthy(support.has(out, "rc=0\n"), out)
  end)

  it("is what kontor serve's new makes with variants and no rules", function()
    local out = support.kontor_rc("serve",
      '{"id":1,"op":"new","variants":["port_royal"],"players":2,"seed":1}\n')
    assert.truthy(support.has(out, '"name":"discover"'), out)
    assert.truthy(support.has(out, '"ok":true'), out)
  end)
end)
