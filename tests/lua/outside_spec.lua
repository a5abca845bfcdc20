-- A game changes only by its moves (principle 1): the REPL runs each Lua
-- line through g:outside (lua/kontor/game/outside.lua), which refuses a
-- line that changed the game some other way and rebuilds the game from
-- its moves (docs/repl.md, "The Lua prompt"; docs/api.md).
local support = require "tests.lua.support"

local function repl(input, args)
  return (support.run(support.binary() .. " " .. (args or "--players 2 --seed 3"), input))
end

local REFUSED = "that changed the game outside a move (%s), so it was put back"

describe("the REPL's Lua lines", function()
  it("a counter changed at the prompt is refused and put back; reading says nothing", function()
    local out = repl("= g.coins:get(1)\ng.coins:add(1, 50)\n= g.coins:get(1)\n")
    assert.are.equal("0\n" .. REFUSED:format("coins[1]: 0 to 50") .. ": a game changes only by its moves, "
      .. "which undo, save and replay give back (to start from another position, give the game a scenario: "
      .. "docs/designing-variants.md)\n0\n", out)
  end)

  it("a rule table changed in place and the game's random numbers are refused too", function()
    local out = repl("g.ships[1][1] = 3\n= g.ships[1][1]\ng.rng:int(1, 6)\n= g.rng:int(1, 6) and 1\n")
    assert.truthy(support.has(out, REFUSED:format("ships[1][1]: 0 to 3")), out)
    assert.truthy(support.has(out, "\n0\n" .. REFUSED:format("numbers drawn from the game's random generator")), out)
    -- (the line that printed drew again, and was refused again)
    assert.are.equal(3, select(2, out:gsub("that changed the game outside a move", "")), out)
  end)

  it("moves the same line made are kept, the other change is not", function()
    local out = repl('g:apply("load grain on ship 1"); g.coins:add(2, 5)\nmoves\n= g.coins:get(2)\n')
    assert.truthy(support.has(out, REFUSED:format("coins[2]: 0 to 5") .. ", with the moves made:"), out)
    assert.truthy(support.has(out, "\n1  Player 1: load grain on ship 1\n0\n"), out)
  end)

  it("moves from Lua, a Lua error and a variable of the user's own go on as before", function()
    local out = repl('g:apply("load grain on ship 1")\nerror("boom")\nx = 5\n= x\nmoves\n')
    assert.are.equal("true\nstdin:1: boom\n5\n1  Player 1: load grain on ship 1\n", out)
    assert.falsy(support.has(out, "outside a move"), out)
  end)
end)

describe("g:outside", function()
  it("returns what f returns, and refuses a change with the game as its moves made it", function()
    local g = kontor.new_game { rules = "sea_merchants", players = 2, seed = 3 }
    assert.are.same({ 0, "x" }, { g:outside(function() return g.coins:get(1), "x" end) })
    local before = kontor.json.encode(g:state())
    local ok, err = pcall(g.outside, g, function() g.coins:add(1, 7); g.hands[2]:push(1) end)
    assert.is_false(ok)
    assert.truthy(support.has(err, "(coins[1]: 0 to 7)"), err)
    assert.are.equal(before, kontor.json.encode(g:state()))
    -- the game goes on from there, and undo still gives the start
    assert(g:apply("load grain on ship 1"))
    g:undo()
    assert.are.equal(before, kontor.json.encode(g:state()))
  end)

  it("a line after which the state cannot be read is refused too, and the game rebuilt", function()
    local g = kontor.new_game { rules = "sea_merchants", players = 2, seed = 3 }
    local ok, err = pcall(g.outside, g, function()
      g.coins:add(1, 5)
      rawset(g, "state", function() error("broken", 0) end)   -- (as a state no longer readable)
    end)
    rawset(g, "state", nil)
    assert.is_false(ok)
    assert.truthy(support.has(err, "(its state could no longer be read: broken), so it was put back"), err)
    assert.are.equal(0, g.coins:get(1))
  end)

  it("passes an error of f on, when f changed nothing", function()
    local g = kontor.new_game { rules = "sea_merchants", players = 2, seed = 3 }
    local ok, err = pcall(g.outside, g, function() error("mine", 0) end)
    assert.is_false(ok)
    assert.are.equal("mine", err)
  end)
end)
