-- tests/bots/ladder.lua: the skill ladder's old command line, kept for the
-- commands written beside older tables in docs/bots.md; `kontor ladder`
-- (kontor.balance.ladder) is the command now:
--   build/kontor run tests/bots/ladder.lua RULES DEALS BOT BOT... [--variant NAME]
-- is
--   build/kontor ladder --rules RULES --deals DEALS --seed 11 [--variant NAME] BOT BOT...
local rules, deals = arg[1], arg[2]
assert(rules and deals and arg[4], "usage: tests/bots/ladder.lua RULES DEALS BOT BOT... [--variant NAME]")
local args = { [0] = "kontor", "ladder", "--rules", rules, "--deals", deals, "--seed", "11" }
for i = 3, #arg do args[#args + 1] = arg[i] end
os.exit(require("lab").ladder(kontor, args))
