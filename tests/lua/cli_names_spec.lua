-- cli_names_spec.lua - player names at the command line and in the API:
-- a count --names set that the rule set does not take says where it came
-- from; a name that is a whole number is refused (every front end reads a
-- number as a seat: "view 2", "2: pass").

local support = require "tests.lua.support"
local BIN = support.binary()

local function run(args)
  local out, code = support.run(BIN .. " " .. args .. " 2>&1", "")
  return out, code
end

describe("--names", function()
  it("that sets a player count out of range says so", function()
    local out = run("play --names Ann")
    assert.equal("kontor: sea_merchants is for 2 to 4 players, not 1 (--names gives 1 name; --players sets the "
      .. "count, and the others are named Player N)\nTry 'kontor --help'.\n", out)
  end)

  it("with --players names the first seats and the rest are Player N", function()
    local out = run("play --names Ann --players 2 --seed 1")
    assert.truthy(out:find("--- Ann's turn (seat 1) ---", 1, true), out)
  end)

  it("refuses a name that is a number, as the API does", function()
    local out = run("--names 2,1")
    assert.equal("kontor: the name of player 1, '2', is a number, which reads as a seat: give a name\n"
      .. "Try 'kontor --help'.\n", out)
    local ok, e = pcall(kontor.new_game, { players = 2, names = { "Ann", " 7 " } })
    assert.is_false(ok)
    assert.equal("usage", e.kind)
    assert.truthy(tostring(e.message):find("the name of player 2, ' 7 ', is a number, which reads as a seat", 1, true))
    -- a name with a number in it is a name
    assert.truthy(kontor.new_game { players = 2, names = { "Ann 2", "R2D2" } })
  end)
end)

describe("a player count out of range", function()
  it("is an error value with the range as data", function()
    local ok, e = pcall(kontor.new_game, { players = 9 })
    assert.is_false(ok)
    assert.equal("usage", e.kind)
    assert.same({ 9, 2, 4 }, { e.players, e.min, e.max })
  end)
end)
