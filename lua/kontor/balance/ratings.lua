-- kontor.balance.ratings: the skill ladder's ratings, so the lab can say
-- which skill level a verdict came from (kontor.balance.ladder.describe,
-- docs/bots.md "Skill ladder"). Each entry is one `kontor ladder` run,
-- copied from its --json output (rules, variants, players, and each bot's
-- rating and interval, the first bot, random, at 0); the command and the
-- commit it ran at are beside it, and the same table is in docs/bots.md.
-- A bot's defaults may change with a rule set's R.bot_options: a rating
-- holds for the defaults of its commit.
return {
  -- a76800f (docs/bots.md): build/kontor run tests/bots/ladder.lua sea_merchants 8
  --   random greedy mcts:iterations=100 mcts:iterations=300
  { rules = "sea_merchants", variants = {}, players = 2, deals = 8, commit = "a76800f",
    ratings = {
      ["mcts:iterations=300"] = { 2201, 2128, 2330 },
      ["greedy"] = { 2133, 2097, 2183 },
      ["mcts:iterations=100"] = { 1909, 1886, 1926 },
      ["random"] = { 0 },
    } },
}
