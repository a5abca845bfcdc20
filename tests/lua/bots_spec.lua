-- Bots (docs/bots.md): named with options, given only their seat's view,
-- fair (the same choice whatever the cards they cannot see), and the game
-- copies search needs (lua/kontor/fork.lua) equal to the game.

local bots = require "kontor.bots"
local fork = require "kontor.fork"
local seat = require "kontor.seat"
local json = kontor.core.json
local support = require "tests.lua.support"

local RULE_SETS = {
  { rules = "sea_merchants", players = 4 },
  { rules = "sea_merchants", players = 3, variants = { "house" } },
  { rules = "caribbean", players = 2 },
  { rules = "caribbean", players = 3, variants = { "port_royal" } },
}

local function label(c)
  return c.rules .. (c.variants and (" + " .. table.concat(c.variants, " + ")) or "") .. ", " .. c.players .. "p"
end

local function decider(g)
  local w = g:who()
  if type(w) == "table" then return w[1] end
  return w
end

-- A bot's choice and its reasons as one text.
local function decision_text(b, g, s)
  local k, top = b:explain(seat.view(g, s))
  local t = { tostring(k) }
  for i, x in ipairs(top) do
    t[#t + 1] = string.format("%s|%s|%.17g", x[1], tostring(x.visits), x.value)
    if i > 8 then break end
  end
  return table.concat(t, ";")
end

-- Positions along random games, each with a twin: the cards the seat
-- cannot see dealt differently, all it can see identical. Calls
-- f(game, twin, seat, seed) for each.
local function twins(c, seeds, every, f)
  local count = 0
  for seed = 1, seeds do
    local g = kontor.new_game { rules = c.rules, players = c.players, seed = seed, variants = c.variants }
    local rng = kontor.rng(seed)
    local i = 0
    while not g:over() and i < 400 do
      i = i + 1
      local s = decider(g)
      if s ~= "chance" and i % every == 0 then
        local base = fork.base(g, s)
        for _ = 1, 10 do
          local twin = fork.twin(base, rng, 2)
          if twin and json.encode(twin:state()) ~= json.encode(g:state())
              and json.encode(twin:view(s)) == json.encode(g:view(s))
              and fork.seen_piles(twin, s) == fork.seen_piles(g, s)
              and json.encode(twin:options(s)) == json.encode(g:options(s)) then
            f(g, twin, s, seed)
            count = count + 1
            break
          end
        end
      end
      g:step(s, rng:below(#g:options(s)) + 1)
    end
  end
  return count
end

describe("bots are fair: the cards a seat cannot see change nothing", function()
  local KINDS = { "random", "greedy:samples=2,budget=24", "mcts:iterations=25,rollout=10" }
  for _, c in ipairs(RULE_SETS) do
    it(label(c), function()
      local checked = twins(c, 2, 13, function(g, twin, s, seed)
        for _, kind in ipairs(KINDS) do
          local a = assert(bots.new(kind, s, seed))
          local b = assert(bots.new(kind, s, seed))
          assert.are.equal(decision_text(a, g, s), decision_text(b, twin, s))
        end
      end)
      assert.is_true(checked >= 8, "only " .. checked .. " positions had a twin")
    end)
  end

  it("would catch a bot that reads the whole game", function()
    local caught = 0
    twins(RULE_SETS[1], 1, 13, function(g, twin)
      if json.encode(g:state()) ~= json.encode(twin:state()) then caught = caught + 1 end
    end)
    assert.is_true(caught > 0)
  end)

  -- Old World hides no card: what a seat cannot see is the other seats'
  -- build orders still open (O34) and the draws still to come (chance from
  -- the bag's counts, by the game's RNG).
  it("does not see other seats' open build orders or the draws to come (old_world)", function()
    -- the first build order of a game whose chance steps are answered by
    -- hand, so two seeds give the same game with different RNG states
    local function at_orders(seed)
      local g = kontor.new_game { rules = "old_world", players = 3, seed = seed, manual_chance = true }
      while g:decision().kind ~= "orders" do
        local w = g:who()
        if w == "chance" then g:step(0, 1) else g:step(type(w) == "table" and w[1] or w, 1) end
      end
      return g
    end
    local OW_KINDS = { "greedy:samples=2,budget=24", "mcts:iterations=25,rollout=10" }
    local seen
    for _, case in ipairs { { seed = 1 }, { seed = 2 }, { seed = 1, steps = 3 }, { seed = 2, steps = 1 } } do
      local g = at_orders(case.seed)
      for _ = 1, case.steps or 0 do                -- seat 1 enters part of its order
        if g:decision().kind ~= "orders" then break end
        local opts = g:options(1)
        if not opts or #opts == 0 then break end
        g:step(1, #opts)
      end
      local texts = {}
      for _, kind in ipairs(OW_KINDS) do
        texts[#texts + 1] = decision_text(assert(bots.new(kind, 2, 9)), g, 2)
      end
      local text = table.concat(texts, "\n")
      if seen then assert.are.equal(seen, text) end
      seen = text
    end
  end)

  it("does not see other seats' secret choices still open (sealed_bid)", function()
    local seen = {}
    for bid = 1, 4 do
      local g = kontor.new_game { rules = "tests/rulesets/sealed_bid.lua", players = 2, seed = 3 }
      while g:decision().kind ~= "simultaneous" do g:step(0, 1) end
      assert.is_true(g:apply("1: bid " .. bid))
      local b = assert(bots.new("mcts:iterations=60", 2, 3))
      seen[#seen + 1] = decision_text(b, g, 2)
    end
    for i = 2, #seen do assert.are.equal(seen[1], seen[i]) end
  end)
end)

describe("a bot is given its seat's view, not the game", function()
  it("the seat view holds no game", function()
    local g = kontor.new_game { rules = "sea_merchants", players = 4, seed = 1 }
    local v = bots.seat_view(g, 1)
    assert.is_nil(next(v))                   -- no field: the methods come from a hidden metatable
    assert.is_false(getmetatable(v))
    assert.are.same(g:options(1), v.options())
    assert.are.same(g:view(1), v.view())
  end)
end)

describe("mcts never stalls", function()
  -- Regression: in Merchants of the Caribbean a bot far ahead revealed and
  -- repelled ships for ever (every option won, and the first won the tie).
  local function steps_to_end(spec)
    local g = kontor.new_game { rules = "tests/rulesets/stall.lua", players = 2, seed = 1 }
    local b = assert(bots.new(spec, 1, 1))
    local steps = 0
    while not g:over() and steps < 20 do
      g:step(1, b:choose(seat.view(g, 1)))
      steps = steps + 1
    end
    return g:over() and steps or nil
  end

  it("ends the game when waiting wins nothing more (step_cost)", function()
    assert.are.equal(1, steps_to_end("mcts:iterations=200"))
  end)

  it("without the cost of a step it would wait for ever", function()
    assert.is_nil(steps_to_end("mcts:iterations=200,step_cost=0"))
  end)
end)

describe("bots by name", function()
  it("takes the options a kind declares", function()
    local b = assert(bots.new("mcts:iterations=500,c=1.5", 2, 1))
    assert.are.equal(500, b.options.iterations)
    assert.are.equal(1.5, b.options.c)
    assert.are.equal("mcts:c=1.5,iterations=500,rollout=30,step_cost=0.001", b:spec())
    assert.are.equal("random", assert(bots.new("random", 1, 1)):spec())
  end)

  it("says what is wrong with a name", function()
    local function err(spec) return select(2, bots.new(spec, 1, 1)) end
    assert.are.equal("unknown bot 'clever' (bots: random, greedy, mcts)", err("clever"))
    assert.are.equal("the mcts bot has no option 'depth' (options: avoid, best, c, center, estimate, iterations, margin, prefer, rollout, step_cost)", err("mcts:depth=3"))
    assert.are.equal("mcts option iterations=lots: expected a whole number", err("mcts:iterations=lots"))
    assert.are.equal("greedy option samples=0: expected 1..64", err("greedy:samples=0"))
    assert.are.equal("'mcts:iterations': expected k=v, got 'iterations'", err("mcts:iterations"))
    -- a game given where the seed goes (was: "bots/init.lua:958: attempt to perform arithmetic on a table value")
    local g = kontor.new_game { players = 2, seed = 1 }
    assert.are.same({ nil, "bots.new: the seed (argument 3) must be a whole number, not a table" },
      { bots.new("greedy", 1, g) })
    assert.are.same({ nil, "bots.new: the seat (argument 2) must be a seat number, not a string" },
      { bots.new("greedy", "1", 1) })
    assert.are.same({ nil, "bots.new: the options (argument 4) must be a table, not a string" },
      { bots.new("greedy", 1, 1, "budget=2") })
  end)

  it("takes a rule set's defaults for the options its name leaves out (R.bot_options)", function()
    local g = kontor.new_game { rules = "old_world", players = 4, seed = 1 }
    local b = assert(bots.new("mcts:iterations=5,rollout=2", 1, 1))
    b:choose(seat.view(g, decider(g)))
    assert.are.equal(1, b.options.margin)                 -- old_world's
    assert.are.equal("mcts:best=0.5,c=0.7,center=1,estimate=1,iterations=5,margin=1,rollout=2,step_cost=0.001", b:spec())
    local mine = assert(bots.new("mcts:iterations=5,rollout=2,margin=0.5", 1, 1))
    mine:choose(seat.view(g, decider(g)))
    assert.are.equal(0.5, mine.options.margin)            -- the name's own value wins
    local sm = kontor.new_game { rules = "sea_merchants", players = 4, seed = 1 }
    local d = assert(bots.new("mcts:iterations=5", 1, 1))
    d:choose(seat.view(sm, decider(sm)))
    assert.are.equal(2, d.options.margin)                 -- sea_merchants'
    local cb = kontor.new_game { rules = "caribbean", players = 2, seed = 1 }
    local e = assert(bots.new("mcts:iterations=5", 1, 1))
    e:choose(seat.view(cb, decider(cb)))
    assert.are.equal(0, e.options.margin)                 -- caribbean sets none
  end)

  it("says which rule set tunes its bots wrongly", function()
    local g = kontor.new_game { rules = "old_world", players = 4, seed = 1 }
    local R = g.R
    local saved = R.bot_options
    R.bot_options = { mcts = { margin = -1 } }
    local ok, err = pcall(function() assert(bots.new("mcts:iterations=5", 1, 1)):choose(seat.view(g, decider(g))) end)
    R.bot_options = saved
    assert.is_false(ok)
    assert.are.equal("old_world: R.bot_options: mcts option margin=-1: expected 0..1000000000.0", err)
  end)

  it("scores a rollout that stops early by the lead when a margin is set", function()
    -- Sea Merchants, 2 players, seat 1's first decision. Without a margin a
    -- rollout is worth 1, 1/2 or 0 to a seat, so a child's total is a
    -- multiple of 1/2; with margin=1 it is a lead through a logistic.
    local function halves(spec)
      local g = kontor.new_game { rules = "sea_merchants", players = 2, seed = 1 }
      local _, top = assert(bots.new(spec, 1, 1)):explain(seat.view(g, 1))
      local all = true
      for _, t in ipairs(top) do
        local twice = 2 * t.value * t.visits
        if math.abs(twice - math.floor(twice + 0.5)) > 1e-9 then all = false end
      end
      return all
    end
    assert.is_true(halves("mcts:iterations=40,rollout=3,step_cost=0,margin=0,center=0"))
    assert.is_false(halves("mcts:iterations=40,rollout=3,step_cost=0,margin=1"))
  end)

  it("a seeded bot plays the same game every time", function()
    local function play()
      local g = kontor.new_game { rules = "caribbean", players = 2, seed = 5 }
      local b1 = assert(bots.new("mcts:iterations=30,rollout=5", 1, 5))
      local b2 = assert(bots.new("greedy:budget=20", 2, 5))
      while not g:over() do
        local s = decider(g)
        g:step(s, (s == 1 and b1 or b2):choose(seat.view(g, s)))
      end
      return json.encode(g:moves())
    end
    assert.are.equal(play(), play())
  end)

  it("hint says what a bot would play and why", function()
    local g = kontor.new_game { rules = "sea_merchants", players = 2, seed = 1 }
    local v = seat.view(g, 1)
    local lines, k = v:hint("mcts:iterations=60")
    assert.matches("^The mcts:iterations=60 bot would play: load ", lines[1])
    assert.matches("visits, wins %d+%%$", lines[2])
    -- the option's number too: the text the first line names
    assert.equal("The mcts:iterations=60 bot would play: "
      .. v.options()[k], lines[1])
    local glines, gk = v:hint("greedy")
    assert.matches("value %-?%d+%.%d%d$", glines[2])
    assert.equal(v.options()[gk], glines[1]:match("would play: (.*)$"))
    -- the bot as asked for, without the spaces around the text
    assert.equal(glines[1], (v:hint("  greedy  "))[1])
  end)

  it("greedy judges a line by its lead over the best other seat, or with lead=0 by its own estimate", function()
    -- race, 3 players: 3, 7 and 5 points; seat 1 may score 1 or 2, or pass
    local g = kontor.new_game { rules = "tests/rulesets/race.lua", players = 3, seed = 1,
                                scenario = { points = { 3, 7, 5 } } }
    local v = seat.view(g, 1)
    assert.are.same({ "The greedy bot would play: score 2", "  score 2                          value -2.00",
      "  score 1                          value -3.00", "  pass                             value -4.00" },
      (v:hint("greedy")))
    assert.are.same({ "The greedy:lead=0 bot would play: score 2", "  score 2                          value 5.00",
      "  score 1                          value 4.00", "  pass                             value 3.00" },
      (v:hint("greedy:lead=0")))
    -- a line that ends the game: the margin, or with lead=0 the seat's own score
    g = kontor.new_game { rules = "tests/rulesets/race.lua", players = 3, seed = 1, scenario = { points = { 19, 7, 5 } } }
    v = seat.view(g, 1)
    assert.are.equal("  score 2                          wins the game, by 14.00", (v:hint("greedy"))[2])
    assert.are.equal("  score 2                          wins the game, scoring 21.00", (v:hint("greedy:lead=0"))[2])
    -- a switch: named in the bot's text only where it is off its default
    assert.are.equal("greedy:budget=12,depth=8,lead=0,samples=1", assert(bots.new("greedy:lead=0", 1, 1)):spec())
    assert.are.equal("greedy:budget=12,depth=8,samples=1", assert(bots.new("greedy", 1, 1)):spec())
  end)

  it("sits at the REPL: bot, bots and hint", function()
    local input = support.write(os.tmpname(), "hint greedy\nbot 2=mcts:iterations=20,rollout=5\nbots\nbot 1=mcts:depth=2\n")
    local p = io.popen(support.binary() .. " repl --players 2 < " .. input .. " 2>&1")
    local out = p:read("a"); p:close()
    os.remove(input)
    assert.matches("^The greedy bot would play: load ", out)
    assert.matches("Player 2 is played by the mcts:iterations=20,rollout=5 bot%.", out)
    assert.matches("2  Player 2: mcts:c=0.7,center=1,estimate=1,iterations=20,margin=2,rollout=5,step_cost=0.001 bot", out)
    assert.matches("the mcts bot has no option 'depth' %(options: avoid, best, c, center, estimate, iterations, margin, prefer, rollout, step_cost%)", out)
  end)

  it("sits at kontor play and rejects unknown options there", function()
    local p = io.popen(support.binary() .. " play --players 2 --bot 2=mcts:c=x < /dev/null 2>&1")
    local out = p:read("a"); p:close()
    assert.matches("%-%-bot 2=mcts:c=x: mcts option c=x: expected a number", out)
  end)

  it("sits at kontor sim and rejects unknown options there", function()
    local bin = support.binary()
    local p = io.popen(bin .. " sim --games 2 --players 2 --bot 1=greedy:budget=10 2>&1")
    local out = p:read("a"); p:close()
    assert.matches("games", out)
    p = io.popen(bin .. " sim --games 2 --bot 1=mcts:depth=2 2>&1")
    out = p:read("a"); p:close()
    assert.matches("the mcts bot has no option 'depth' %(options: avoid, best, c, center, estimate, iterations, margin, prefer, rollout, step_cost%)", out)
  end)
end)

describe("copies for search", function()
  -- Plays g at random (seed 2) for at most `max` steps; at every seventh
  -- decision of a seat, check(base, seat, i) with the seat's fork.base and
  -- the game's own copy compared with it. Returns how many were checked.
  local function each_copy(g, max, check)
    local rng = kontor.rng(2)
    local i, checked = 0, 0
    while not g:over() and i < max do
      i = i + 1
      local s = decider(g)
      if i % 7 == 0 and s ~= "chance" then
        local base = fork.base(g, s)
        check(base, s, i)
        local copy = fork.copy(base)
        assert.are.equal(json.encode(g:state()), json.encode(copy:state()))
        assert.are.same(g:options(s), copy:options(s))
        checked = checked + 1
      end
      g:step(s, rng:below(#g:options(s)) + 1)
    end
    return checked
  end

  for _, c in ipairs(RULE_SETS) do
    it("equal the game at every decision: " .. label(c), function()
      local g = kontor.new_game { rules = c.rules, players = c.players, seed = 2, variants = c.variants }
      each_copy(g, 300, function(base, s, i)
        if g.turn > 0 then assert.is_truthy(base.snap, "copied from the turn's saved state") end
        assert.is_true(#base.steps_seat < 40, "a copy replays only the turn's steps")
        -- a sample keeps what the seat sees
        local sample = fork.sample(base, kontor.rng(i))
        assert.are.equal(json.encode(g:view(s)), json.encode(sample:view(s)))
        assert.are.equal(fork.seen_piles(g, s), fork.seen_piles(sample, s))
      end)
    end)
  end

  it("equal the game at every decision: old_world, 3p", function()
    local g = kontor.new_game { rules = "old_world", players = 3, seed = 2 }
    local checked = each_copy(g, 400, function(base)
      -- turn 1 begins before the first decision, so before a replay can
      -- save it: its copies replay from the start
      if g.turn > 1 then assert.is_truthy(base.snap, "copied from the turn's saved state") end
    end)
    assert.is_true(checked >= 20)
  end)

  it("deal unseen cards again only within their pool (kontor.pile{ pool = name })", function()
    local g = kontor.new_game { rules = "tests/rulesets/two_pools.lua", players = 2, seed = 4 }
    g:step(1, 1)                                  -- seat 1 draws a worker
    g:step(2, 2)                                  -- seat 2 turns a tile
    local base = fork.base(g, 1)
    local moved = false
    for i = 1, 40 do
      local ctx = fork.sample(base, kontor.rng(i)).ctx
      assert.are.equal(7, ctx.bag:count())
      assert.are.equal(5, ctx.tiles:count())
      assert.are.same(g.hands[1]:cards(), ctx.hands[1]:cards())   -- seat 1's own hand
      for _, pile in ipairs { ctx.bag, ctx.hands[2] } do
        for _, c in ipairs(pile:cards()) do assert.is_true(c >= 1 and c <= 8, "a worker, not a tile") end
      end
      for _, c in ipairs(ctx.tiles:cards()) do assert.is_true(c > 100, "a tile, not a worker") end
      assert.are.equal("tiles", ctx.tiles:pool())
      if ctx.tiles:top() ~= g.tiles:top() then moved = true end
    end
    assert.is_true(moved, "the tiles were dealt again")
  end)

  it("keep their steps as option numbers, and say so if asked for texts", function()
    local g = kontor.new_game { rules = "sea_merchants", players = 3, seed = 4 }
    for _ = 1, 12 do g:step(decider(g), 1) end
    local copy = fork.copy(fork.base(g, decider(g)))
    local n = copy:step_count()
    fork.step(copy, decider(copy), 1)
    assert.are.equal(n + 1, copy:step_count())
    assert.is_false(rawget(copy, "texts"))
    assert.are.equal(1, copy.rec:option(n + 1))
    local ok, err = pcall(copy.moves, copy)
    assert.is_false(ok)
    assert.truthy(err:find("a copy of a game for search (kontor.fork) keeps its steps as option numbers, not texts",
      1, true), err)
    assert.are.equal(12, #g.texts)                           -- the game itself keeps its texts
    assert.are.equal("string", type(g:moves()[1]))
  end)

  it("replay the game for a rule set that does not resume at a turn", function()
    local g = kontor.new_game { rules = "tests/rulesets/race.lua", players = 3, seed = 1 }
    for _ = 1, 5 do g:step(decider(g), 1) end
    local base = fork.base(g, decider(g))
    assert.is_nil(base.snap)
    assert.are.equal(json.encode(g:state()), json.encode(fork.copy(base):state()))
  end)
end)
