-- What players do, counted as the steps are taken (issue 28, item 1): the
-- counts of the simulation's bot (a kontor.Tally, lua/engine/playout.c)
-- are exactly those read from the step record's texts, game by game, seat
-- by seat, for every rule set; the driver's paths (coverage, bots) count
-- the same; and counting changes no game.

local balance = require "kontor.balance"
local moves = require "kontor.balance.moves"
local coverage = require "kontor.balance.coverage"
local driver = require "kontor.game.driver"
local gamemod = require "kontor.game"
local core = kontor.core

-- Every rule set and variant, with a player count it takes.
local SETUPS = {
  { rules = "sea_merchants", players = 4, games = 300 },
  { rules = "sea_merchants", players = 2, variants = { { "house" } }, games = 150 },
  { rules = "sea_merchants", players = 3, variants = { { "hand_limit", options = { size = 4 } } }, games = 200 },
  { rules = "sea_merchants", players = 3, variants = { { "hand_limit", options = { overflow = "discard" } } }, games = 100 },
  { rules = "sea_merchants", players = 4, variants = { { "house_specials" } }, games = 100 },
  { rules = "sea_merchants", players = 3, variants = { { "delivered_payout", options = { count = "delivered" } } }, games = 100 },
  { rules = "sea_merchants", players = 4, variants = { { "snake_draft" } }, games = 100 },
  { rules = "old_world", players = 3, games = 40 },
  { rules = "caribbean", players = 3, games = 200 },
  { rules = "caribbean", players = 4, variants = { { "port_royal" } }, games = 200 },
  { rules = "tests/rulesets/secret_orders.lua", games = 200 },
  { rules = "tests/rulesets/sealed_bid.lua", games = 200 },
  { rules = "tests/rulesets/take_one_each.lua", games = 200 },
  { rules = "tests/balance/dice.lua", games = 300 },
}

local function label(s)
  local parts = { s.rules }
  for _, v in ipairs(s.variants or {}) do parts[#parts + 1] = v[1] end
  return table.concat(parts, "+")
end

-- The moves of game i (seed 1) read back from the step record's texts,
-- the step-by-step driver playing: { ["moves.K #S"] = n, ["moves.K"] = n,
-- ["share.K"] = 1 }, and the decisions, their options and those with one.
local function from_texts(L, i)
  local gseed = balance.game_seed(1, i)
  local params = { rules = L.R.name, players = L.players, names = L.names, seed = gseed, options = L.options }
  local g = gamemod.new(L.R, params, true)
  local v, last = {}, 0
  local decisions, options, single = 0, 0, 0
  local pending = {}           -- seat -> { name, number of options } of the decision it is at
  g:play_random(core.rng(core.derive_seed(gseed, 0)), function(game)
    local n = game:step_count()
    if n > last then
      local s, text = game:step_at(n)
      local p = pending[s]
      local key = p[1] .. ": " .. moves.kind_of(text)
      v["moves." .. key .. " #" .. s] = (v["moves." .. key .. " #" .. s] or 0) + 1
      v["moves." .. key] = (v["moves." .. key] or 0) + 1
      v["share." .. key] = 1
      decisions, options = decisions + 1, options + p[2]
      if p[2] == 1 then single = single + 1 end
      last = n
    end
    pending = {}
    if game.kind ~= "over" then
      for s = 1, game.players do
        local opts = driver.options_of(game, s)
        if opts then pending[s] = { driver.dname_of(game, s), #opts } end
      end
    end
  end)
  return v, decisions, options, single, g:step_count()
end

local function move_keys(v)
  local out = {}
  for k, n in pairs(v) do
    if k:match("^moves%.") or k:match("^share%.") then out[k] = n end
  end
  return out
end

-- (make check's quick loop checks the first half of each setup's games:
-- each game is checked on its own, so fewer games check the same things)
local SHARE = os.getenv("CHECK") == "1" and 2 or 1

describe("the moves the simulation's bot counts", function()
  for _, s in ipairs(SETUPS) do
    it("are those of the step record's texts, game by game and seat by seat: " .. label(s), function()
      local L = balance.load { rules = s.rules, players = s.players, variants = s.variants, moves = true }
      local kinds = {}
      for i = 1, s.games // SHARE do
        local v = balance.play_game(L, 1, i)
        local want, decisions, options, single, steps = from_texts(L, i)
        assert.are.equal(steps, v.steps, label(s) .. " game " .. i)
        assert.are.same(want, move_keys(v), label(s) .. " game " .. i)
        assert.are.equal(math.floor(options / decisions * 1000 + 0.5), v.branching, label(s) .. " game " .. i)
        assert.are.equal(math.floor(single / decisions * 1000 + 0.5), v.forced, label(s) .. " game " .. i)
        for k in pairs(want) do kinds[k] = true end
      end
      assert.truthy(next(kinds))
    end)
  end

  it("count the option taken where R.constraints took options away (hand_limit: a full hand has no draw)", function()
    -- at a limit of 3 cards, an office often offers only "no office draw":
    -- counted as that, and as a decision with one option
    local L = balance.load { rules = "sea_merchants", players = 3, variants = { { "hand_limit", options = { size = 3 } } },
                             moves = true }
    local forced_office = 0
    for i = 1, 200 do
      local v = balance.play_game(L, 1, i)
      local want = from_texts(L, i)
      assert.are.same(want, move_keys(v))
      forced_office = forced_office + (v["moves.office: no office draw"] or 0)
    end
    assert.is_true(forced_office > 0)
  end)

  it("are counted the same on the driver's path (coverage) as inside the coroutine", function()
    for _, s in ipairs { SETUPS[1], SETUPS[8], SETUPS[11] } do
      local L = balance.load { rules = s.rules, players = s.players, variants = s.variants, moves = true }
      local cov = coverage.new(L)
      for i = 1, 5 do
        local fast = balance.play_game(L, 1, i)
        local slow = balance.play_game(L, 1, i, { cov = cov })
        assert.are.same(move_keys(fast), move_keys(slow), label(s) .. " game " .. i)
        assert.are.equal(fast.branching, slow.branching)
        assert.are.equal(fast.forced, slow.forced)
      end
    end
  end)

  it("are counted for the seats bots play, every step once", function()
    local L = balance.load { rules = "sea_merchants", players = 3, moves = true,
                             bots = { [1] = { kind = "greedy", options = {} }, [3] = { kind = "random", options = {} } } }
    for i = 1, 2 do
      local v = balance.play_game(L, 1, i)
      local total = 0
      for k, n in pairs(v) do if k:match("^moves%..* #%d+$") then total = total + n end end
      assert.are.equal(v.steps, total)
      assert.is_true((v["moves.phase2: draw #1"] or 0) + (v["moves.phase2: play #1"] or 0) > 0)
    end
  end)

  it("change no game: the same games and measures without counting", function()
    for _, s in ipairs { SETUPS[1], SETUPS[9] } do
      local with = balance.load { rules = s.rules, players = s.players, moves = true }
      local without = balance.load { rules = s.rules, players = s.players, moves = false }
      for i = 1, 30 do
        local a = balance.play_game(with, 1, i)
        local b = balance.play_game(without, 1, i)
        for k, n in pairs(b) do assert.are.equal(n, a[k], label(s) .. " " .. k) end
        assert.is_nil(b.branching)
      end
    end
  end)
end)

describe("kontor.Tally", function()
  it("counts a decision's options, its plain texts, lists of words and families alike", function()
    local t = moves.new_tally(2)
    t:add(1, "t_buy", { "buy contract", "pass" }, 1)
    t:add(2, "t_buy", { { "buy", "contract" }, { "pass" } }, 1)
    t:add(2, "t_load", { "load", { "fish", "wood" }, "on ship", { 1, 2 } }, 3, true)   -- load wood on ship 1
    t:add(1, "t_load", { "load", { "fish", "wood" }, "on ship", { 1, 2 } }, 4, true)   -- load wood on ship 2
    local decisions, options, single, cells = t:take()
    assert.are.equal(4, decisions)
    assert.are.equal(2 + 2 + 4 + 4, options)
    assert.are.equal(0, single)
    local got = {}
    for i = 1, #cells, 3 do got[#got + 1] = moves.key_by_id[cells[i]] .. " #" .. cells[i + 1] .. " " .. cells[i + 2] end
    table.sort(got)
    assert.are.same({ "t_buy: buy contract #1 1", "t_buy: buy contract #2 1", "t_load: load wood #1 1",
                      "t_load: load wood #2 1" }, got)
    -- take starts again from 0
    local d2, o2, s2, c2 = t:take()
    assert.are.same({ 0, 0, 0, {} }, { d2, o2, s2, c2 })
  end)

  it("refuses an option the decision does not have", function()
    local t = moves.new_tally(2)
    local ok, err = pcall(t.add, t, 1, "x", { "a", "b" }, 3)
    assert.is_false(ok)
    assert.truthy(tostring(err):find("bad argument #5 to '%?' %(not an option of the decision%)"), err)
    ok, err = pcall(t.add, t, 1, "x", { "a", "b" }, 0)
    assert.is_false(ok)
    assert.truthy(tostring(err):find("(not an option of the decision)", 1, true), err)
  end)
end)
