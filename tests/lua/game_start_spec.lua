-- game_start_spec.lua - what every game does when it starts: the player
-- names checked (again only when they changed), the game's own fields.

local RACE = "tests/rulesets/race.lua"
local Game = require("kontor.game").Game

describe("a game's start", function()
  it("checks a list of names again once it changed, though the games before shared it", function()
    local names = { "Ann", "Bob" }
    for seed = 1, 3 do
      local g = kontor.new_game { rules = RACE, players = 2, seed = seed, names = names }
      assert.same({ "Ann", "Bob" }, g.ctx.names)
    end
    names[2] = "\255\254"
    local ok, err = pcall(kontor.new_game, { rules = RACE, players = 2, seed = 4, names = names })
    assert.is_false(ok)
    assert.equal("the name of player 2 is not valid UTF-8 text", tostring(err))
    names[2] = "Bob"
    local g = kontor.new_game { rules = RACE, players = 2, seed = 5, names = names }
    assert.same({ "Ann", "Bob" }, g.ctx.names)
    ok, err = pcall(kontor.new_game, { rules = RACE, players = 2, seed = 6, names = { "Ann", "\254" } })
    assert.is_false(ok)
    assert.equal("the name of player 2 is not valid UTF-8 text", tostring(err))
  end)

  it("gives g copies of the names, the options and the scenario (kontor.core.copy)", function()
    local copy = kontor.core.copy
    local key = {}
    local inner = setmetatable({ 1, 2, x = { y = "z" } }, { __index = function() return "meta" end })
    local t = { "a", "b", [5] = "e", name = "n", [key] = inner, [true] = false, [2.5] = 1 }
    local c = copy(t)
    assert.is_not.equal(t, c)
    assert.same({ "a", "b" }, { c[1], c[2] })
    assert.equal("e", c[5]); assert.equal("n", c.name); assert.is_false(c[true]); assert.equal(1, c[2.5])
    local ci = c[key]                                   -- keys as they are, values copied
    assert.is_not.equal(inner, ci)
    assert.is_nil(getmetatable(ci))
    assert.is_nil(ci[3])
    assert.same({ y = "z" }, ci.x)
    assert.is_not.equal(inner.x, ci.x)
    assert.equal(5, copy(5)); assert.equal("s", copy("s")); assert.is_nil(copy(nil))
    local deep = {}
    local at = deep
    for _ = 1, 250 do at.next = {}; at = at.next end
    local ok, err = pcall(copy, deep)
    assert.is_false(ok)
    assert.truthy(tostring(err):find("copy: tables nested more than 200 deep", 1, true), tostring(err))
    local opts = { target = 30 }
    local g = kontor.new_game { rules = RACE, players = 2, seed = 1, options = opts }
    assert.is_not.equal(opts, g.ctx.options)
    g.ctx.options.target = 1
    assert.equal(30, opts.target)
  end)

  it("gives a game its engine fields raw, so that reading them runs no Game.__index", function()
    local index, calls = Game.__index, {}
    Game.__index = function(t, k) calls[#calls + 1] = k; return index(t, k) end
    local ok, err = pcall(function()
      local g = kontor.new_game { rules = RACE, players = 2, seed = 1 }
      g:play_random(kontor.rng(1))
      assert.is_true(rawget(g, "kind") == "over")
    end)
    Game.__index = index
    assert(ok, err)
    for _, k in ipairs(calls) do assert.is_function(Game[k], k) end   -- methods only
  end)
end)
