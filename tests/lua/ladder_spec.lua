-- The skill ladder (`kontor ladder`, kontor.balance.ladder, docs/bots.md
-- "Skill ladder"): the seats of a pair's two games a deal, the
-- Bradley-Terry fit on known wins, the ratings of a tiny round robin from
-- a fixed seed, the lab's line naming its bots with their ratings, and
-- the messages for bad arguments.

local support = require "tests.lua.support"
local ladder = require "kontor.balance.ladder"
local json = kontor.core.json

local runner = support.lab()
local kontor_cmd = runner.run
teardown(runner.cleanup)

describe("a ladder's games", function()
  it("put each bot on each seat once a deal", function()
    assert.are.same({ "a", "b" }, ladder.seats(2, "a", "b", 1))
    assert.are.same({ "b", "a" }, ladder.seats(2, "a", "b", 2))
    assert.are.same({ "a", "b", "a" }, ladder.seats(3, "a", "b", 1))
    assert.are.same({ "b", "a", "b", "a" }, ladder.seats(4, "a", "b", 2))
    assert.are.same({ { 1, 2 }, { 1, 3 }, { 2, 3 } }, ladder.pairs(3))
  end)

  it("name a bot the same whatever the order of its options", function()
    assert.are.equal("mcts:c=0.7,iterations=100", ladder.canonical("mcts:iterations=100,c=0.7"))
    assert.are.equal("greedy", ladder.canonical(" greedy "))
  end)
end)

describe("the Bradley-Terry fit", function()
  it("gives 3 to 1 odds 191 points", function()
    -- 1,000 deals, the first bot winning 3 of every 4 games against the
    -- second: r1 / r2 = 3, 400 log10 3 = 190.8 (the prior's tenth of a win
    -- moves it by less than a point)
    local results = {}
    local sample = {}
    for d = 1, 1000 do results[d] = { 1.5 }; sample[d] = d end
    local elo = ladder.fit(2, results, sample)
    assert.are.equal(0, elo[1])
    assert.is_true(math.abs(elo[2] + 190.8) < 1, tostring(elo[2]))
  end)

  it("keeps a bot that never loses finite", function()
    -- the second bot wins all 4 games: 1,290 points on the tenth of a win
    -- each has against a virtual equal
    local elo = ladder.fit(2, { { 0 }, { 0 } }, { 1, 2 })
    assert.are.equal(1290, math.floor(elo[2] + 0.5))
  end)
end)

describe("kontor ladder", function()
  local BOTS = "random random:prefer=phase1:buy random:avoid=phase1:buy"

  it("rates a tiny round robin the same from the same seed", function()
    local out, e, code = kontor_cmd("ladder --rules sea_merchants --deals 3 --seed 5 " .. BOTS .. " --json")
    assert.are.equal(0, code, e)
    local s = json.decode(out)
    assert.are.equal("ladder", s.kind)
    assert.are.same({ 2, 3, 18, 5, "random" }, { s.players, s.deals, s.games, s.seed, s.anchor })
    local got = {}
    for _, r in ipairs(s.ratings) do got[#got + 1] = { r.bot, r.rating, r.ci ~= json.null and r.ci or "anchor" } end
    assert.are.same({
      { "random:avoid=phase1:buy", 195, { 0, 717 } },
      { "random", 0, "anchor" },
      { "random:prefer=phase1:buy", -195, { -717, 0 } },
    }, got)
    assert.are.same({ "random", "random:prefer=phase1:buy", 6 }, { s.pairs[1].a, s.pairs[1].b, s.pairs[1].games })
    assert.is_true(math.abs(s.pairs[1].a_wins - 5 / 6) < 1e-9)
  end)

  it("prints the table for people", function()
    local out, e, code = kontor_cmd("ladder --rules sea_merchants --deals 3 --seed 5 " .. BOTS)
    assert.are.equal(0, code, e)
    assert.are.equal(table.concat({
      "sea_merchants, 2 players: 3 deals (seed 5), 6 games a pair, 18 games (0 s of CPU)",
      "ratings (Elo scale, random at 0; 95% interval over deals):",
      "  random:avoid=phase1:buy     195  [0, 717]",
      "  random                        0  (the anchor)",
      "  random:prefer=phase1:buy   -195  [-717, 0]",
      "pair by pair (the first bot's share of the wins):",
      "  random vs random:prefer=phase1:buy: 83.3% of 6 games",
      "  random vs random:avoid=phase1:buy: 16.7% of 6 games",
      "  random:prefer=phase1:buy vs random:avoid=phase1:buy: 16.7% of 6 games",
    }, "\n") .. "\n", out)
  end)

  it("says what is wrong with its arguments", function()
    local cases = {
      { "ladder --rules sea_merchants greedy", "kontor: ladder: give two bots or more to rate, e.g. kontor "
        .. "ladder --rules caribbean random greedy mcts:iterations=100" },
      { "ladder greedy greedy", "kontor: ladder: the bot 'greedy' is given twice" },
      { "ladder mcts:iterations=5,c=1 mcts:c=1,iterations=5", "kontor: ladder: the bot 'mcts:c=1,iterations=5' is given twice" },
      { "ladder --deals x random greedy", "kontor: ladder: --deals must be a whole number, not 'x'" },
      { "ladder --deals 0 random greedy", "kontor: ladder: --deals must be at least 1" },
      { "ladder --games 5 random greedy",
        "kontor: ladder: unknown option '--games' (the ladder counts --deals: each pair of bots plays each deal twice)" },
      { "ladder --players two random greedy", "kontor: ladder: --players must be a whole number, not 'two'" },
    }
    runner.usage_errors(cases)
    local _, e, code = kontor_cmd("ladder random wizard")
    assert.are.equal(2, code)
    assert.is_truthy(e:find("^kontor: ladder: unknown bot 'wizard'"), e)
    _, e, code = kontor_cmd("ladder --rules nowhere random greedy")
    assert.are.equal(2, code)   -- an unknown rule set is a usage error, as in sim
    assert.is_truthy(e:find("^kontor: ladder: .*nowhere"), e)
  end)
end)

describe("the lab's bots line", function()
  local TABLE = {
    { rules = "sea_merchants", variants = {}, players = 2, deals = 8, commit = "abc1234",
      ratings = { random = { 0 }, greedy = { 2133, 2097, 2183 }, ["mcts:iterations=100"] = { 1909, 1886, 1926 } } },
    { rules = "sea_merchants", variants = {}, players = 4, deals = 4, commit = "abc1234",
      ratings = { random = { 0 }, greedy = { 900, 800, 1000 } } },
  }

  it("finds a bot's rating in its rule set, the same player count first", function()
    assert.are.same({ rating = 1909, ci = { 1886, 1926 }, players = 2, deals = 8, commit = "abc1234" },
      ladder.rating("sea_merchants", {}, 2, "mcts:iterations=100", TABLE))
    assert.are.equal(900, ladder.rating("sea_merchants", {}, 4, "greedy", TABLE).rating)
    assert.are.equal(2133, ladder.rating("sea_merchants", {}, 3, "greedy", TABLE).rating)
    assert.is_nil(ladder.rating("sea_merchants", { "house" }, 2, "greedy", TABLE))
    assert.is_nil(ladder.rating("caribbean", {}, 2, "greedy", TABLE))
    assert.is_nil(ladder.rating("sea_merchants", {}, 2, "mcts:iterations=30", TABLE))
  end)

  it("reads a run's bots from its setup label", function()
    assert.are.same({ "random", "greedy:avoid=phase1:buy contract", "random", "mcts:iterations=30" },
      ladder.specs_of { players = 4,
        label = "--rules sea_merchants --players 4 --bot 2=greedy:avoid=phase1:buy contract --bot 4=mcts:iterations=30" })
  end)

  it("names each bot, its seats and its rating", function()
    local d = ladder.describe("sea_merchants", {}, 4, { "greedy", "random", "greedy", "mcts:iterations=7" }, {})
    assert.are.equal("bots: greedy on seats 1, 3 (not on the ladder); random on seat 2 (ladder: 0, the floor); "
      .. "mcts:iterations=7 on seat 4 (not on the ladder)", ladder.line(d))
    d[1].ladder = ladder.rating("sea_merchants", {}, 2, "greedy", TABLE)
    assert.are.equal("bots A: greedy on seats 1, 3 (ladder: 2133 [2097, 2183] over random, 2 players); "
      .. "random on seat 2 (ladder: 0, the floor); mcts:iterations=7 on seat 4 (not on the ladder)",
      ladder.line(d, "bots A"))
  end)

  it("ends compare's output, one line a setup when their bots differ", function()
    local out, e, code = kontor_cmd("compare --rules sea_merchants --players 2 --games 4 --jobs 1 "
      .. "--a '--bot 1=random:avoid=phase1:buy' --b ''")
    assert.are.equal(0, code, e)
    local lines = support.lines(out)
    assert.are.same({
      "bots A: random:avoid=phase1:buy on seat 1 (not on the ladder); random on seat 2 (ladder: 0, the floor)",
      "bots B: random on seats 1-2 (ladder: 0, the floor)",
    }, { lines[#lines - 2], lines[#lines - 1] })
    out, e, code = kontor_cmd("compare --rules sea_merchants --players 2 --games 4 --jobs 1 --json "
      .. "--a '--bot 1=random:avoid=phase1:buy' --b ''")
    assert.are.equal(0, code, e)
    local s = json.decode(out)
    assert.are.same({ { bot = "random:avoid=phase1:buy", seats = { 1 } },
                      { bot = "random", seats = { 2 }, ladder = { rating = 0, anchor = true } } }, s.bots[1])
    assert.are.equal("bots A: random:avoid=phase1:buy on seat 1 (not on the ladder); random on seat 2 "
      .. "(ladder: 0, the floor)\nbots B: random on seats 1-2 (ladder: 0, the floor)", s.bots_text)
  end)
end)
