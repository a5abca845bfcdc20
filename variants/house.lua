-- The house rules ("Merchants", docs/rules/house.md, rulings H1..H10): the
-- base game with all four house variants. Options reach a member as
-- member.option, e.g. --variant house:hand_limit.size=5
return {
  variant = true,
  name = "house",
  title = "House rules",
  base = "sea_merchants",
  summary = "the house rules: snake_draft + hand_limit + house_specials + delivered_payout",
  includes = { "snake_draft", "hand_limit", "house_specials", "delivered_payout" },
}
