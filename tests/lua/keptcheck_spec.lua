-- keptcheck_spec.lua - a plain option list a script keeps and offers again
-- is checked in full at every decision (branch engine3): the simulation's
-- bot (lua/engine/playout.c) and the driver alike catch a list changed
-- between two decisions, with g:choose's own message at the script's line.
-- Run: build/kontor run tests/busted.lua tests/lua/keptcheck_spec.lua
local support = require "tests.lua.support"
local gamemod = require "kontor.game"
local write = support.write
local tmp, cleanup_tmp = support.scratch()

-- A rule set offering the list it keeps (MENU, made at set-up) three
-- times; before the third decision CHANGE runs (it may spoil MENU). Line 8 is the third g:choose.
local GAME = [==[
local R = { name = "kept", players = { min = 2, max = 2 } }
function R.setup(g) g.got, g.menu = 0, { "load fish", "load wood", "done" } end
function R.play(g)
  local MENU = g.menu
  for _ = 1, 2 do g.got = g.got + g:choose(1, "load", MENU) end
  local seat = 2
  %s
  g.got = g.got + g:choose(seat, "load", MENU)
end
function R.scores(g) return { g.got, 0 } end
return R
]==]

-- The error of a game of the rule set with `change`, played by the
-- simulation's bot (inside the game, as kontor sim plays) and by the
-- driver (kontor.new_game, answered from outside): both must fail alike.
local function errors(change)
  local file = write(tmp("kept.lua"), GAME:format(change))
  local R = kontor.load_rules(file)
  local params = { rules = R.name, players = 2, seed = 1, options = {} }
  local ok, sim = pcall(function()
    return gamemod.playout(R, params, kontor.core.rng(7), nil, false, true)
  end)
  assert.is_false(ok, "the simulation took the changed list")
  local g = kontor.new_game { rules = file, players = 2, seed = 1 }
  local ok2, drv = pcall(function()
    g:apply(1)
    g:apply(1)
  end)
  assert.is_false(ok2, "the driver took the changed list")
  return tostring(type(sim) == "table" and sim.message or sim), tostring(type(drv) == "table" and drv.message or drv)
end

describe("a kept plain option list", function()
  teardown(cleanup_tmp)

  it("plays as offered when nothing changes it", function()
    local file = write(tmp("kept_ok.lua"), GAME:format("-- nothing"))
    local R = kontor.load_rules(file)
    local game = gamemod.playout(R, { rules = R.name, players = 2, seed = 1, options = {} },
      kontor.core.rng(7), nil, false, true)
    assert.are.equal(3, game:step_count())
    local total = game:result().scores[1]
    assert.is_true(total >= 3 and total <= 9, tostring(total))
  end)

  it("is checked again at each decision: a change between two is caught", function()
    local cases = {
      { "MENU[2] = 7", "kept.lua:8: g:choose: option 2 of decision 'load' of seat 2 is not a string "
          .. "or a list of words and whole numbers" },
      { "MENU[3] = { 'load', 1.5 }", "kept.lua:8: g:choose: option 3 of decision 'load' of seat 2 "
          .. "has an entry that is not a string or a whole number" },
      { "MENU[1] = setmetatable({ 'a' }, {})", "kept.lua:8: g:choose: option 1 of decision 'load' of seat 2 "
          .. "is a table with a metatable (options are plain lists)" },
      { "MENU[2] = {}", "kept.lua:8: g:choose: option 2 of decision 'load' of seat 2 is an empty list" },
      { "setmetatable(MENU, {})", "kept.lua:8: g:choose: the options of decision 'load' of seat 2 are "
          .. "a table with a metatable (options are plain lists)" },
      { "for i = #MENU, 1, -1 do MENU[i] = nil end",
        "kept.lua:8: g:choose: decision 'load' of seat 2 has no options" },
      { "for i = 4, 12 do MENU[i] = 'x' .. i end MENU[11] = false",
        "kept.lua:8: g:choose: option 11 of decision 'load' of seat 2 is not a string "
          .. "or a list of words and whole numbers" },
      { "seat = 3", "kept.lua:8: g:choose: decision 'load' is for seat 3, not a seat 1..2" },
      { "seat = 1.5", "kept.lua:8: g:choose: decision 'load' is for seat 1.5, not a seat 1..2" },
      { "seat = '1'", "kept.lua:8: g:choose: decision 'load' is for a string, not a seat 1..2" },
    }
    for _, c in ipairs(cases) do
      local sim, drv = errors(c[1])
      assert.truthy(sim:find(c[2], 1, true), c[1] .. ": " .. sim)
      assert.truthy(drv:find(c[2], 1, true), c[1] .. ": " .. drv)
    end
  end)

  it("takes a float seat with a whole value as that seat", function()
    local file = write(tmp("kept_float.lua"), GAME:format("seat = 2.0"))
    local R = kontor.load_rules(file)
    local game = gamemod.playout(R, { rules = R.name, players = 2, seed = 1, options = {} },
      kontor.core.rng(7), nil, false, true)
    assert.are.equal(3, game:step_count())
  end)
end)
