-- Simulations: the fast path (the bot answers inside the game's coroutine,
-- lua/engine/playout.c) must play exactly the games the step-by-step driver plays,
-- under the same limits.

local json = kontor.core.json

local RULES = {
  { "tests/rulesets/race.lua", 3 },
  { "tests/rulesets/sealed_bid.lua", 3 },       -- simultaneous choices
  { "tests/rulesets/take_one_each.lua", 4 },    -- out-of-turn takes
  { "sea_merchants", 2 }, { "sea_merchants", 3 }, { "sea_merchants", 4 },
}

local support = require "tests.lua.support"
local write = support.write

local function fingerprint(g)
  return json.encode { state = g:state(), moves = g:moves(), log = g:log() }
end

describe("the simulation fast path", function()
  for _, c in ipairs(RULES) do
    it("plays the same games as the step-by-step driver: " .. c[1] .. ", " .. c[2] .. " players", function()
      for seed = 1, 25 do
        local fast, slow = support.playouts(c[1], c[2], seed)   -- the fast path, the driver's
        assert.is_true(fast:over())
        assert.are.equal(#slow:actions(), #fast:actions())
        assert.are.equal(fingerprint(slow), fingerprint(fast))
      end
    end)
  end

  it("leaves a game that undo, save and load work on", function()
    local g = kontor.new_game { rules = "sea_merchants", players = 4, seed = 3 }
    g:play_random(kontor.rng(3))
    local n = #g:actions()
    local path = os.tmpname()
    assert.is_true(g:save(path))
    local loaded = assert(kontor.load_game(path))
    os.remove(path)
    assert.are.equal(fingerprint(g), fingerprint(loaded))
    g:undo(5)
    assert.are.equal(n - 5, #g:actions())
    assert.is_false(g:over())
  end)

  it("still gives every step its own time and work budget", function()
    local dir = os.tmpname(); os.remove(dir); os.execute("mkdir -p " .. dir)
    -- 50 steps of 40,000 work units each (table.concat charges one per
    -- element): fine step by step, though the whole game is 2 million.
    local busy = write(dir .. "/busy.lua", [[
local R = { name = "busy", players = { min = 1, max = 1 } }
local t = {}
for i = 1, 40000 do t[i] = "x" end
function R.setup(g) g.sum = 0 end
function R.play(g)
  for _ = 1, 50 do
    g.sum = g.sum + #table.concat(t)
    g:choose(1, "go", { "go" })
  end
end
function R.scores(g) return { g.sum } end
return R
]])
    local limits = kontor.core.sandbox.limits()
    finally(function() kontor.core.sandbox.limits { work = limits.work, time = limits.time } end)
    kontor.core.sandbox.limits { work = 100000, time = 0.2 }
    local g = kontor.new_game { rules = busy, seed = 1 }
    g:play_random(kontor.rng(1))
    assert.is_true(g:over())
    assert.are.same({ 50 * 40000 }, g:result().scores)
    -- and a step that loops for ever is stopped
    local loop = write(dir .. "/loop.lua", [[
local R = { name = "loop", players = { min = 1, max = 1 } }
function R.setup(g) end
function R.play(g)
  for _ = 1, 3 do g:choose(1, "go", { "go" }) end
  while true do end
end
function R.scores(g) return { 0 } end
return R
]])
    local lg = kontor.new_game { rules = loop, seed = 1 }
    local ok, err = pcall(lg.play_random, lg, kontor.rng(1))
    assert.is_false(ok)
    assert.truthy(tostring(err):find("time limit reached", 1, true))
    assert.truthy(tostring(err):find("loop.lua:5", 1, true))
    os.execute("rm -rf " .. dir)
  end)

  it("stops a game that does not end", function()
    local g = kontor.new_game { rules = "tests/rulesets/race.lua", players = 2, seed = 1,
                                options = { target = 1000000 } }
    local ok, err = pcall(g.play_random, g, kontor.rng(1), nil, 500)
    assert.is_false(ok)
    assert.truthy(tostring(err):find("did not end within 500 steps", 1, true))
  end)
end)

describe("kontor.sim", function()
  it("gives the same summary for the same seed, and another for another seed", function()
    local function run(seed)
      local s = kontor.sim { rules = "sea_merchants", players = 3, games = 300, seed = seed }
      s.seconds, s.games_per_second = nil, nil
      return s
    end
    local a, b = run(7), run(7)
    assert.are.same(a, b)
    assert.are.equal(300, a.games)
    local wins = 0
    for _, w in ipairs(a.wins) do wins = wins + w end
    assert.truthy(wins >= 300 and wins <= 300 + 2 * a.shared_wins)  -- a shared game counts for each winner
    assert.are_not.same(a, run(8))
  end)

  it("plays game i with seed derive_seed(S, i), so one game can be replayed alone", function()
    local s = kontor.sim { rules = "tests/rulesets/race.lua", players = 2, games = 5, seed = 42 }
    local turns = 0
    for i = 1, 5 do
      local seed = kontor.core.derive_seed(42, i)
      local g = kontor.new_game { rules = "tests/rulesets/race.lua", players = 2, seed = seed }
      g:play_random(kontor.rng(kontor.core.derive_seed(seed, 0)))
      turns = turns + g:result().turns
    end
    assert.are.equal(s.mean_turns, turns / 5)
  end)

  it("checks the rule set's invariants at every step when asked", function()
    local steps = 0
    kontor.sim { rules = "sea_merchants", players = 4, games = 20, seed = 1, check = function(g)
      steps = steps + 1
      local bad = g:invariants()
      if bad then error(bad) end
    end }
    assert.truthy(steps > 20 * 100)
  end)
end)
