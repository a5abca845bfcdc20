-- errors_spec.lua - errors as data (lua/kontor/errors.lua): the errors a
-- front end acts on carry a kind it reads (usage, rules, limit, file,
-- protocol), never a message it parses; the one player-count check.
-- Run: build/kontor run tests/busted.lua tests/lua/errors_spec.lua
local errors = require "kontor.errors"
local gamemod = require "kontor.game"
local support = require "tests.lua.support"
local write = support.write
local tmp, cleanup_tmp = support.scratch()

local RACE = "tests/rulesets/race.lua"

-- A two-player rule set whose R.play runs `body`.
local function rules_with(name, body) return support.rule_set(tmp(name .. ".lua"), name, body) end

describe("an error value", function()
  teardown(cleanup_tmp)

  it("has a kind and a message, prints as its message and reads like it", function()
    local e = errors.new("usage", "sea_merchants is for 2 to 4 players, not 9")
    assert.are.equal("usage", e.kind)
    assert.are.equal("sea_merchants is for 2 to 4 players, not 9", tostring(e))
    assert.are.equal("kontor: sea_merchants is for 2 to 4 players, not 9", "kontor: " .. e)
    assert.are.equal(18, e:find("for 2 to 4", 1, true))
    assert.are.equal("usage", errors.kind(e))
    assert.is_nil(errors.kind("a plain message"))
    local bad, why = pcall(errors.new, "oops", "x")
    assert.is_false(bad)
    assert.truthy(why:find("kontor.errors: no error kind 'oops'", 1, true), why)
  end)

  it("of the players: kind usage, from one check, for new_game, sim and the balance lab", function()
    local R = kontor.load_rules("sea_merchants")
    local want = "sea_merchants is for 2 to 4 players, not 9"
    local ok, e = pcall(kontor.new_game, { rules = R, players = 9 })
    assert.is_false(ok)
    assert.are.equal("usage", e.kind)
    assert.are.equal(want, e.message)
    ok, e = pcall(kontor.sim, { rules = R, players = 9, games = 1 })
    assert.is_false(ok)
    assert.are.equal("usage", e.kind)
    assert.are.equal(want, e.message)
    ok, e = pcall(require("kontor.balance").load, { rules = "sea_merchants", players = 9 })
    assert.is_false(ok)
    assert.are.equal("usage", e.kind)
    assert.are.equal(want, e.message)
    ok, e = pcall(gamemod.players_for, R, 2.5)
    assert.is_false(ok)
    assert.are.equal("players must be a whole number, not '2.5'", e.message)
    assert.are.equal(3, gamemod.players_for(R, 3))
    assert.are.equal(R.players.default, gamemod.players_for(R, nil))
  end)

  it("of new_game names the line that called it, as Lua's own errors do", function()
    local function make()
      local g = kontor.new_game { rules = RACE, seed = 1.5 }   -- (not a tail call: this line is named)
      return g
    end
    local ok, e = pcall(make)
    assert.is_false(ok)
    assert.are.equal("usage", e.kind)
    assert.truthy(e.message:match("errors_spec%.lua:%d+: the seed must be a whole number or \"random\", not '1%.5'$"), e.message)
  end)

  it("of a rule set: usage for a name that does not exist, rules for a broken script", function()
    local ok, e = pcall(kontor.load_rules, "no_such_rules")
    assert.is_false(ok)
    assert.are.equal("usage", e.kind)
    assert.is_true(e.lists_available)                      -- the message lists the rule sets there are
    assert.truthy(e.message:find("unknown rule set or variant 'no_such_rules' (available: ", 1, true), e.message)
    local broken = write(tmp("broken.lua"), "return {\n  name = \n")
    ok, e = pcall(kontor.new_game, { rules = broken })
    assert.is_false(ok)
    assert.are.equal("rules", e.kind)
    assert.truthy(e.script:find("broken.lua:3:", 1, true), e.script)
    local path = write(tmp("bad_setup.lua"), [[
local R = { name = "bad_setup", players = { min = 2, max = 2 } }
function R.setup(g) error("no deck") end
function R.play(g) end
function R.scores() return { 0, 0 } end
return R]])
    ok, e = pcall(kontor.new_game, { rules = path })
    assert.is_false(ok)
    assert.are.equal("rules", e.kind)
    assert.truthy(e.message:find("setting up bad_setup failed: ", 1, true), e.message)
    assert.truthy(e.message:find("bad_setup.lua:2: no deck", 1, true), e.message)
  end)

  it("of kontor sim: the game that failed and its seed, as fields", function()
    local R = kontor.load_rules(rules_with("boom", 'local k = g:choose(1, "x", { "a", "b" })\n'
      .. 'if k == 2 then error("boom on b") end'))
    local ok, e = pcall(kontor.sim, { rules = R, players = 2, games = 40, seed = 3 })
    assert.is_false(ok)
    assert.are.equal("rules", e.kind)
    assert.are.equal("integer", math.type(e.game))
    assert.are.equal("integer", math.type(e.seed))
    assert.truthy(e.why:find("boom.lua:5: boom on b", 1, true), e.why)
    assert.are.equal(("game %d (seed %d): %s"):format(e.game, e.seed, e.why:match("^[^\n]*")), e.message)
    -- the frames apart from the message, and in what it prints as
    assert.truthy(e.traceback:find("boom.lua:5: in function", 1, true), e.traceback)
    assert.truthy(tostring(e):find(e.message .. "\nstack traceback:\n", 1, true), tostring(e))
    -- the game alone fails the same way
    local again
    ok, again = pcall(kontor.sim, { rules = R, players = 2, games = 40, seed = 3, only = e.game })
    assert.is_false(ok)
    assert.are.same({ e.game, e.seed }, { again.game, again.seed })
  end)

  it("of a limit: kind limit", function()
    local R = kontor.load_rules(rules_with("spin", "while true do end"))
    local ok, e = pcall(kontor.sim, { rules = R, players = 2, games = 1 })
    assert.is_false(ok)
    assert.are.equal("limit", e.kind)
    assert.truthy(e.why:find("limit reached", 1, true), e.why)
  end)

  it("of load_game: file for a save that cannot be used, rules for a move that no longer replays", function()
    local missing = tmp("missing.json")
    local g, e = kontor.load_game(missing)
    assert.is_nil(g)
    assert.are.equal("file", e.kind)
    assert.truthy(e.message:find(missing, 1, true), e.message)
    local game = kontor.new_game { rules = RACE, seed = 2 }
    assert(game:apply(1))
    local path = tmp("race.json")
    assert(game:save(path))
    local text = support.read(path)
    local bad, n = text:gsub('"1: score 1"', '"1: no such move"')
    assert.are.equal(1, n)
    write(path, bad)
    g, e = kontor.load_game(path)
    assert.is_nil(g)
    assert.are.equal("rules", e.kind)
    assert.truthy(e.message:find("action 1 '1: no such move' cannot be replayed", 1, true), e.message)
  end)
end)
