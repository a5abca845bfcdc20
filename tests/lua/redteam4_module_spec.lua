-- redteam4_module_spec.lua: kontor.new_game and kontor.sim fuzzed with
-- wrong types (red team 4, on "kontor.sim: games, seed, only, check and
-- options are checked" and "an unknown field is an error of kind usage").
-- Runs in `kontor run` and in stock lua5.4 alike:
--   LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH='build/lua/?.so;;' \
--     lua5.4 tests/busted.lua -o TAP tests/lua/redteam4_module_spec.lua
local kontor = require "kontor"
local errors = require "kontor.errors"

-- The error f(t) raises: its kind and message.
local function refused(f, t)
  local ok, e = pcall(f, t)
  assert.is_false(ok, "no error")
  assert.is_true(errors.is(e), "a plain error: " .. tostring(e))
  return e.kind .. ": " .. e.message
end

local ODD = { 0, -1, 1.5, 0 / 0, math.huge, "3", "x", {}, function() end, io.stdout }

describe("red team 4: kontor.new_game and kontor.sim", function()
  it("refuse a table for rules that is no rule set, by name (was init.lua:84: attempt to index a nil value)", function()
    local want = "usage: rules must be a rule set's name, its file, or what kontor.load_rules gave, "
      .. "not a table without players and play"
    assert.are.equal(want, refused(kontor.new_game, { rules = {} }))
    assert.are.equal(want, refused(kontor.new_game, { rules = { "sea_merchants" } }))
    assert.are.equal(want, refused(kontor.sim, { rules = {}, games = 1 }))
    assert.are.equal(want, refused(kontor.check_params, {}))
  end)

  it("a rule set from kontor.load_rules still plays", function()
    local R = kontor.load_rules("sea_merchants")
    local g = kontor.new_game { rules = R, players = 2, seed = 1 }
    assert.are.equal(2, g.players)
    assert.are.equal(2, kontor.sim { rules = R, players = 2, games = 2 }.games)
  end)

  it("take manual_chance and quiet as true or false only ('false' turned manual chance on)", function()
    for _, v in ipairs(ODD) do
      assert.are.equal("usage: manual_chance must be true or false, not a " .. type(v),
        refused(kontor.new_game, { manual_chance = v, seed = 1 }))
      assert.are.equal("usage: quiet must be true or false, not a " .. type(v),
        refused(kontor.new_game, { quiet = v, seed = 1 }))
    end
    assert.is_false(kontor.new_game { manual_chance = false, quiet = false, seed = 1 }.params.manual_chance)
    assert.is_true(kontor.new_game { manual_chance = true, seed = 1 }.params.manual_chance)
  end)

  it("every other field of wrong type is one usage error naming it", function()
    local fields = {
      new_game = { "variants", "players", "names", "seed", "options", "scenario" },
      sim = { "variants", "players", "games", "seed", "options", "check", "only" },
    }
    for fname, list in pairs(fields) do
      for _, f in ipairs(list) do
        for _, v in ipairs(ODD) do
          if type(v) == "function" and f == "check" then goto next end
          if type(v) == "table" and f ~= "players" and f ~= "games" and f ~= "seed" and f ~= "only" then
            goto next   -- an empty table: no variants, names or options; a scenario the rule set checks
          end
          local t = { players = 2, games = fname == "sim" and 1 or nil, seed = 1 }
          t[f] = v
          local ok, e = pcall(kontor[fname], t)
          -- (0 and -1 are seeds; a seat count of 0 is out of range)
          if not ok then
            assert.is_true(errors.is(e) and e.kind == "usage",
              string.format("%s.%s = %s: %s", fname, f, tostring(v), tostring(e)))
            assert.is_nil(tostring(e.message):find("%.lua:%d"), e.message)
          else
            assert.is_true(f == "seed" and math.type(v) == "integer", string.format("%s.%s = %s", fname, f, tostring(v)))
          end
          ::next::
        end
      end
    end
  end)
end)
