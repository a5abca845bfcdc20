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

  -- Before: kontor.sim{ games = "x" } failed inside the engine ("sim.lua:68:
  -- bad 'for' limit"), seed = "x" in core.derive_seed, options = 5 in
  -- rules.lua, check = 5 in the first game (kind rules, naming playout.lua),
  -- and games = 0 returned a summary with mean_turns -nan.
  it("sim's games, seed, only, check and options are checked: kind usage", function()
    local function usage(t)
      local e = caught(kontor.sim, t)
      assert.are.equal("usage", errors.kind(e))
      return e.message
    end
    assert.are.equal("kontor.sim: games must be a whole number from 1 to 2147483648, not 0", usage { games = 0 })
    assert.are.equal("kontor.sim: games must be a whole number from 1 to 2147483648, not 'x'", usage { games = "x" })
    assert.are.equal("kontor.sim: games must be a whole number from 1 to 2147483648, not 1.5", usage { games = 1.5 })
    -- the command line's bound (kontor sim --games, kontor merge's shards):
    -- 10^12 games played until stopped
    assert.are.equal("kontor.sim: games must be a whole number from 1 to 2147483648, not 1000000000000",
      usage { games = 1000000000000, only = 1 })
    assert.are.equal("kontor.sim: games must be a whole number from 1 to 2147483648, not 1000000000000",
      usage { games = 1e12 })
    assert.are.equal("kontor.sim: games must be a whole number from 1 to 2147483648, not 9223372036854775807",
      usage { games = math.maxinteger })
    assert.are.equal(2147483648, kontor.sim { games = 2147483648, only = 2147483648 }.only)
    assert.are.equal("kontor.sim: seed must be a whole number, not 'x'", usage { seed = "x" })
    assert.are.equal("kontor.sim: only must be a whole number from 1 to 5, not 6", usage { games = 5, only = 6 })
    assert.are.equal("kontor.sim: only must be a whole number from 1 to 100, not 0", usage { only = 0 })
    assert.are.equal("kontor.sim: check must be a function(game), not a number", usage { check = 5 })
    assert.are.equal("options must be a table of option = value ({ first_player = 2 }), not a number",
      usage { options = 5 })
    local e = caught(kontor.new_game, { options = "first_player=2" })
    assert.are.equal("usage", errors.kind(e))
    assert.are.equal("options must be a table of option = value ({ first_player = 2 }), not a string", e.message)
    -- what is right still runs, the same games
    local s = kontor.sim { games = 3, seed = 7, only = 2, players = 2 }
    assert.are.equal(1, s.games)
    assert.are.equal(2, s.only)
  end)

  it("g:options() without a seat while several seats decide is empty: each seat is asked", function()
    local g = kontor.new_game { rules = "old_world", players = 2, seed = 5 }
    assert.are.same({ 1, 2 }, g:who())
    assert.are.same({}, g:options())
    assert.are.same({ "bid 0", "bid 1", "bid 2", "bid 3", "bid 4" }, g:options(1))
    assert.are.same({ "bid 0", "bid 1", "bid 2", "bid 3" }, g:options(2))
    assert.are.same({ nil, "several seats choose at once (1, 2): say which, e.g. g:apply(1, 1)" }, { g:apply(1) })
  end)

  it("a seat view's decision in secret orders is its step's name; variants_text is nil without variants", function()
    local seat = require "kontor.seat"
    local g = kontor.new_game { rules = "old_world", players = 2, seed = 5 }
    assert(g:apply("bid 2", 1)); assert(g:apply("bid 1", 2))
    local v = seat.view(g, 1)
    assert.are.same({ "acquire", "build order", "acquire" }, { v.decision, v.now().name, v.now().step })
    assert.is_nil(v.variants_text)
    assert.is_nil(seat.view(kontor.new_game { rules = "tests/rulesets/stall.lua", seed = 1 }, 1).bot_options)
    local h = kontor.new_game { players = 2, seed = 1, variants = { "hand_limit:size=5" }, options = { start_coins = 3 } }
    assert.are.equal("with hand_limit (size=5); options start_coins=3", seat.view(h, 1).variants_text)
  end)

  -- Before: e.why was the whole message with "stack traceback:" and the
  -- engine's frames after it, which docs/api.md calls the script's message.
  it("a sim whose game fails: why is the script's message, one line, the frames apart", function()
    local path = os.tmpname() .. ".lua"
    local f = assert(io.open(path, "w"))
    f:write([[
local R = { name = "boom", title = "Boom", summary = "fails on purpose", players = { min = 2, max = 2 } }
function R.setup(g) end
function R.play(g)
  if g:choose(1, "first", { "boom", "fine" }) == 1 then error("boom on purpose") end
end
function R.scores() return { 1, 0 } end
return R
]])
    f:close()
    local e = caught(kontor.sim, { rules = path, games = 3 })
    os.remove(path)
    assert.are.equal("rules", errors.kind(e))
    assert.are.equal(path .. ":4: boom on purpose", e.why)
    assert.are.equal(string.format("game %d (seed %d): %s", e.game, e.seed, e.why), e.message)
    assert.matches("^%s*%[C%]: in function 'error'", e.traceback)
  end)
end)


-- kontor.sim and the command line bound a run alike: 2^31 games, what
-- kontor merge takes of a shard. Before, `kontor sim --games 1e12` (and
-- compare, sweep, worth) played until stopped, as kontor.sim did.
describe("the command line's runs", function()
  local support = require "tests.lua.support"
  it("refuse more games than 2^31, naming the bound", function()
    for _, c in ipairs {
      { "sim --games 1e12", "sim" }, { "sim --games 2147483649 --no-moves", "sim" },
      { "compare --a '' --b '' --games 3000000000", "compare" },
      { "sweep --over players=2..3 --games 3000000000", "sweep" },
      { "worth --bot random --games 3000000000", "worth" },
    } do
      local out, code = support.run("timeout 20 " .. support.binary() .. " " .. c[1])
      local n = c[1]:match("%-%-games (%S+)")
      assert.are.equal(2, code, out)
      assert.are.equal(string.format("kontor: %s: --games must be a whole number from 1 to 2147483648, not %d",
        c[2], math.tointeger(tonumber(n))), out:match("^[^\n]*"))
    end
  end)

  -- Before: kontor.sim{ games = 3.0 } was refused ("games must be a whole
  -- number from 1 to 2147483648, not 3.0") where `kontor sim --games 3.0`
  -- played 3 games, and 3.5 was refused in two wordings ("--games must be
  -- a whole number, not '3.5'"; "--games must be at least 1" for 0). Both
  -- now take the one check, kontor.sim's count.
  it("take --games as kontor.sim takes games: 3.0 is 3, 3.5 and 0 refused in the same words", function()
    local out, code = support.run(support.binary() .. " sim --games 3.0 --seed 2 --json")
    assert.are.equal(0, code, out)
    local cli = kontor.json.decode(out)
    local api = kontor.sim { games = 3.0, seed = 2.0 }
    assert.are.equal(3, cli.games)
    assert.are.equal(3, api.games)
    assert.are.equal("integer", math.type(api.games))
    assert.are.equal(2, api.seed)
    assert.are.same(cli.mean_score, api.mean_score)
    assert.are.same(cli.wins, api.wins)
    for _, c in ipairs { { "3.5", 3.5 }, { "0", 0 }, { "-2.0", -2.0 }, { "1e12", 1e12 }, { "x", "x" } } do
      out, code = support.run(support.binary() .. " sim --games " .. c[1])
      assert.are.equal(2, code, out)
      local e = caught(kontor.sim, { games = c[2] })
      assert.are.equal("usage", errors.kind(e))
      local tail = e.message:match("^kontor%.sim: games (.*)$")
      assert.truthy(tail, e.message)
      assert.are.equal("kontor: sim: --games " .. tail, out:match("^[^\n]*"))
    end
    assert.are.equal("kontor: sim: --games must be a whole number from 1 to 2147483648, not 3.5",
      support.run(support.binary() .. " sim --games 3.5"):match("^[^\n]*"))
  end)
end)
