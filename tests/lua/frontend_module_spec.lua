-- frontend_module_spec.lua: what a front end's author found while using
-- the engine as a Lua module (docs/module.md, docs/api.md): every error a
-- program acts on has its kind.

local kontor = require "kontor"
local errors = kontor.errors

local function caught(f, ...)
  local ok, err = pcall(f, ...)
  assert.is_false(ok)
  return err
end

describe("the module as a front end meets it", function()
  -- Before: an unknown field was a plain string (errors.kind nil), while
  -- docs/api.md's table gives every mistake in what was asked kind usage.
  it("an unknown field of new_game or sim is an error of kind usage", function()
    local e = caught(kontor.new_game, { playrs = 3 })
    assert.are.equal("usage", errors.kind(e))
    assert.are.equal("kontor.new_game: unknown field 'playrs' (fields: rules, variants, players, names, seed, "
      .. "options, scenario, manual_chance, quiet): did you mean 'players'?", e.message)
    e = caught(kontor.sim, { gmes = 5 })
    assert.are.equal("usage", errors.kind(e))
    assert.are.equal("kontor.sim: unknown field 'gmes' (fields: rules, variants, players, games, seed, options, "
      .. "check, only): did you mean 'games'?", e.message)
    e = caught(kontor.new_game, "sea_merchants")
    assert.are.equal("usage", errors.kind(e))
    assert.are.equal("kontor.new_game takes a table of fields (rules, variants, players, names, seed, options, "
      .. "scenario, manual_chance, quiet), not a string", e.message)
    assert.are.equal("usage", errors.kind(caught(kontor.new_game, { bots = { [2] = "greedy" } })))
  end)

  it("a script's line is still where the field was misspelt", function()
    local e = caught(function() local g = kontor.new_game { seeed = 2 }; return g end)
    assert.matches("^tests/lua/frontend_module_spec%.lua:%d+: kontor%.new_game: unknown field 'seeed'", e.message)
  end)
end)
