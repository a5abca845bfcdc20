-- designer_renamed_option_spec.lua: an option the game was begun with,
-- renamed in the file since, is explained at reload and at new (a QA
-- finding: after `--variant ./sell.lua:pay=3` and renaming pay to price in
-- the file, reload and new both said only "unknown option 'pay' for
-- sell_card (options: price)", and new kept failing: it keeps the
-- variants' options).
local support = require "tests.lua.support"

local function sell(opt)
  return ([[
return { variant = true, name = "sell_card", base = "sea_merchants",
  options = { %s = { default = 1, type = "integer", min = 0 } },
  apply = function(R, opts) R.data.contract_bonus = opts.%s end }
]]):format(opt, opt)
end

describe("an option the game was begun with, gone from the edited file", function()
  local tmp, cleanup = support.scratch()
  teardown(cleanup)

  it("is explained at reload (the game as it was) and at new, which says what to type", function()
    local f = support.write(tmp("tmpv.lua"), sell("pay"))
    local renamed = support.write(tmp("renamed.lua"), sell("price"))
    local out = support.run(support.plain_binary() .. " --variant " .. f .. ":pay=3 --players 2 --seed 3",
      table.concat({ "1", ("os.execute(%q)"):format("cp " .. renamed .. " " .. f), "reload", "moves", "new",
                     "new variant=" .. f, "" }, "\n"))
    assert.truthy(support.has(out, "reload failed, the game is as it was: unknown option 'pay' for sell_card (options: "
      .. "price): the game was begun with it and keeps it (put it back in the file, or begin a new game without it)\n"
      .. "Player 2 to choose (load).\n1  Player 1: load grain on ship 1\n"), out)
    assert.truthy(support.has(out, "unknown option 'pay' for sell_card (options: price) (new keeps the options of the "
      .. "game's variants: new variant=" .. f .. " gives sell_card afresh)\n"), out)
    assert.truthy(support.has(out, "New game: Sea Merchants with sell_card, 2 players"), out)
  end)
end)
