-- strict_api_spec.lua: kontor.new_game and kontor.sim refuse a field they
-- do not know, naming it and the fields they take (issue 26, point 5).

local NEW_FIELDS = "rules, variants, players, names, seed, options, scenario, manual_chance, quiet"
local SIM_FIELDS = "rules, variants, players, games, seed, options, check, only"

local function message(f, ...)
  local ok, err = pcall(f, ...)
  assert.is_false(ok)
  return tostring(err)
end

describe("the strict API", function()
  it("new_game{playrs=3} names the key, the accepted ones and the close one", function()
    assert.are.equal("kontor.new_game: unknown field 'playrs' (fields: " .. NEW_FIELDS .. "): did you mean 'players'?",
      message(kontor.new_game, { playrs = 3 }))
  end)

  it("sim{gmes=5} likewise", function()
    assert.are.equal("kontor.sim: unknown field 'gmes' (fields: " .. SIM_FIELDS .. "): did you mean 'games'?",
      message(kontor.sim, { gmes = 5 }))
  end)

  it("bots={[2]='greedy'} is refused with where bots are seated", function()
    assert.are.equal("kontor.new_game: unknown field 'bots' (fields: " .. NEW_FIELDS .. "): a game has no bots: "
      .. "seat one with require(\"kontor.bots\").new(kind, seat, seed) and play its b:choose(require(\"kontor.seat\").view(g, seat)) (docs/api.md, Bots)",
      message(kontor.new_game, { bots = { [2] = "greedy" } }))
  end)

  it("a key that is no name, a far-off name, and a non-table", function()
    assert.are.equal("kontor.new_game: unknown field [1] (fields: " .. NEW_FIELDS .. ")",
      message(kontor.new_game, { "sea_merchants" }))
    assert.are.equal("kontor.new_game: unknown field 'colour' (fields: " .. NEW_FIELDS .. ")",
      message(kontor.new_game, { colour = "red" }))
    assert.are.equal("kontor.new_game takes a table of fields (" .. NEW_FIELDS .. "), not a string",
      message(kontor.new_game, "sea_merchants"))
    assert.are.equal("kontor.new_game: unknown field 'playrs' (fields: " .. NEW_FIELDS .. "): did you mean 'players'?",
      message(kontor.check_params, kontor.load_rules("sea_merchants"), { playrs = 3 }))
  end)

  it("the error points at the caller's line", function()
    local err = message(function() local g = kontor.new_game { seeed = 2 }; return g end)
    assert.matches("^tests/lua/strict_api_spec%.lua:%d+: kontor%.new_game: unknown field 'seeed'", err)
  end)

  it("every known field still works, and a save file still loads", function()
    local g = kontor.new_game { rules = "sea_merchants", variants = {}, players = 2, names = { "A", "B" }, seed = 3,
      options = {}, manual_chance = false, quiet = true }
    assert.are.equal(2, g.players)
    local s = kontor.sim { rules = "sea_merchants", players = 2, games = 2, seed = 1, options = {} }
    assert.are.equal(2, s.games)
    g:apply(1)
    local path = os.tmpname()
    assert.is_true(g:save(path))
    local h = assert(kontor.load_game(path))
    os.remove(path)
    assert.are.same(g:actions(), h:actions())
  end)
end)
