-- A tiny rule set for the REPL's tests (tests/lua/repl_spec.lua): option
-- costs through R.describe_option, a decision name with _ and digits, and
-- one-word options. Each player, in turn, buys an apple (2 coins) or a pear
-- (3 coins), or passes; two passes in a row end the game. Score: coins
-- left plus 3 per fruit.
local R = {
  name = "shop",
  title = "Shop",
  summary = "test rule set: buy fruit or pass",
  players = { min = 2, max = 3, default = 2 },
  options = { coins = { default = 5, type = "integer", min = 0 } },
}

local PRICE = { ["buy apple"] = 2, ["buy pear"] = 3 }

function R.setup(g)
  g.coins, g.fruit = {}, {}
  for s = 1, g.players do g.coins[s], g.fruit[s] = g.options.coins, 0 end
end

function R.play(g)
  local seat, passes = 1, 0
  while passes < 2 do
    g:begin_turn(seat)
    local opts = {}
    for _, o in ipairs { "buy apple", "buy pear" } do
      if g.coins[seat] >= PRICE[o] then opts[#opts + 1] = o end
    end
    opts[#opts + 1] = "pass"
    local o = opts[g:choose(seat, "take_other2", opts)]
    if o == "pass" then
      passes = passes + 1
      g:log("%s passes", g.names[seat])
    else
      passes = 0
      g.coins[seat] = g.coins[seat] - PRICE[o]
      g.fruit[seat] = g.fruit[seat] + 1
      g:log("%s buys %s for %d coin%s", g.names[seat], o:sub(5), PRICE[o], PRICE[o] == 1 and "" or "s")
    end
    seat = g:next_seat(seat)
  end
end

function R.describe_option(g, seat, decision, text)
  local p = PRICE[text]
  if p then return ("costs %d coins"):format(p) end
end

function R.scores(g)
  local t = {}
  for s = 1, g.players do t[s] = g.coins[s] + 3 * g.fruit[s] end
  return t
end

return R
