-- kontor.balance.ratings: the skill ladder's ratings, so the lab can say
-- which skill level a verdict came from (kontor.balance.ladder.describe,
-- docs/bots.md "Skill ladder"). Each entry is one `kontor ladder` run,
-- copied from its output (rules, variants, players, and each bot's
-- rating and interval, the first bot, random, at 0); the command and the
-- commit it ran at are beside it, and the same table is in docs/bots.md.
-- A bot's defaults may change with a rule set's R.bot_options: a rating
-- holds for the defaults of its commit. `unbeaten`: the bots random never
-- beat in that run, whose rating over random rests on the fit's prior (a
-- tenth of a win) and is a bound, not a measure.
return {
  -- a816150 (docs/bots.md): kontor ladder --rules sea_merchants --deals 24 --seed 1
  --   random greedy mcts:iterations=100 mcts:iterations=300 (in 6 shards, merged)
  { rules = "sea_merchants", variants = {}, players = 2, deals = 24, commit = "a816150",
    -- random won none of its 144 games: these ratings over it are bounds
    unbeaten = { "greedy", "mcts:iterations=100", "mcts:iterations=300" },
    ratings = {
      ["greedy"] = { 2464, 2400, 2556 },
      ["mcts:iterations=300"] = { 2386, 2332, 2465 },
      ["mcts:iterations=100"] = { 2179, 2150, 2212 },
      ["random"] = { 0 },
    } },
  -- f6a59c8 (docs/bots.md): kontor ladder --rules caribbean --deals 24 --seed 1 --jobs 2
  --   random greedy mcts:iterations=50 mcts:iterations=150 (after C2's hidden discard
  --   pile, e0d7421)
  { rules = "caribbean", variants = {}, players = 2, deals = 24, commit = "f6a59c8",
    -- random won none of its 48 games against this one
    unbeaten = { "mcts:iterations=50" },
    ratings = {
      ["mcts:iterations=150"] = { 737, 602, 2336 },
      ["mcts:iterations=50"] = { 645, 520, 2255 },
      ["greedy"] = { 640, 473, 2279 },
      ["random"] = { 0 },
    } },
  -- 30c0abe (docs/bots.md): kontor ladder --rules old_world --players 2 --deals 24 --seed 1 --jobs 1
  --   random greedy mcts:iterations=30 mcts:iterations=100 --shard K/8 (merged), with Old World's
  --   mcts defaults of 6ab1b11 (estimate=1, rollout=0, margin=1, center=1, best=0.5)
  { rules = "old_world", variants = {}, players = 2, deals = 24, commit = "30c0abe",
    -- random won none of its 144 games: these ratings over it are bounds
    unbeaten = { "greedy", "mcts:iterations=30", "mcts:iterations=100" },
    ratings = {
      ["mcts:iterations=100"] = { 2358, 2293, 2424 },
      ["greedy"] = { 2294, 2254, 2347 },
      ["mcts:iterations=30"] = { 2260, 2226, 2297 },
      ["random"] = { 0 },
    } },
}
