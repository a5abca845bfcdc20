-- hint_first_spec.lua: the option a hint names is the one it lists first.
-- Before, on a tie greedy drew one of the best options while its list was
-- sorted by value alone: at the first decision of Sea Merchants (3
-- players, seed 1) `hint greedy` said "would play: load fish on ship 2"
-- and listed "load fish on ship 1" first, both at 1.50.

local support = require "tests.lua.support"
local bots = require "kontor.bots"
local seatmod = require "kontor.seat"

describe("a bot's hint", function()
  it("lists the option it names first, on a tie too", function()
    local g = kontor.new_game { rules = "sea_merchants", players = 3, seed = 1 }
    local lines, k = bots.hint(seatmod.view(g, 1), "greedy", 1)
    assert.are.equal("The greedy bot would play: load fish on ship 2", lines[1])
    assert.are.equal("  load fish on ship 2              value 1.50", lines[2])
    assert.are.equal("  load fish on ship 1              value 1.50", lines[3])
    assert.are.equal("load fish on ship 2", g:options(1)[k])
    -- the REPL's hint says the same
    local out = support.run(support.binary() .. " --players 3 --seed 1", "hint greedy\n")
    assert.truthy(out:find("The greedy bot would play: load fish on ship 2\n  %(the market[^\n]*\n"
      .. "  load fish on ship 2 +value 1%.50\n  load fish on ship 1 +value 1%.50\n"), out)
  end)

  it("says a line that ends the game wins or loses it, not the winner's bonus as a value", function()
    -- Sea Merchants, 3 players, seed 6, greedy on every seat, at step 190:
    -- the hint once read "pass    value 1004.00" (the bonus of 1000 a
    -- winner gets in the bot's reckoning, plus its lead)
    local g = kontor.new_game { rules = "sea_merchants", players = 3, seed = 6 }
    local seats = {}
    for s = 1, 3 do seats[s] = assert(bots.new("greedy", s, 6)) end
    while g:step_count() < 190 do
      local s = g:who()
      if s == "chance" then g:step(0, 1) else g:step(s, seats[s]:choose(seatmod.view(g, s))) end
    end
    assert.are.equal(1, g:who())
    local lines = bots.hint(seatmod.view(g, 1), "greedy", 6)
    assert.are.same({ "The greedy bot would play: pass",
                      "  pass                             wins the game, by 4.00",
                      "  exchange                         value 1.25",
                      "  buy                              value -5.62" }, lines)
  end)

  it("never says an mcts option wins less than 0% of its games", function()
    -- Sea Merchants, 3 players, seed 6, greedy on every seat, at step 151:
    -- the hint once read "exchange ship 1    3 visits, wins -1%" (no win
    -- found, less the cost of the steps)
    local g = kontor.new_game { rules = "sea_merchants", players = 3, seed = 6 }
    local seats = {}
    for s = 1, 3 do seats[s] = assert(bots.new("greedy", s, 6)) end
    while g:step_count() < 151 do
      local s = g:who()
      if s == "chance" then g:step(0, 1) else g:step(s, seats[s]:choose(seatmod.view(g, s))) end
    end
    -- scored by who leads (margin=0), as Sea Merchants' mcts was then
    local lines = bots.hint(seatmod.view(g, 1), "mcts:iterations=100,margin=0,center=0", 6)
    assert.are.same({ "The mcts:iterations=100,margin=0,center=0 bot would play: exchange ship 2",
                      "  exchange ship 2                      97 visits, wins 80%",
                      "  exchange ship 1                       3 visits, wins 0%" }, lines)
  end)

  it("names what it lists first over the first steps of random games of each rule set", function()
    for _, rs in ipairs { "sea_merchants", "caribbean", "old_world" } do
      for seed = 1, 3 do
        local g = kontor.new_game { rules = rs, players = 3, seed = seed }
        local rng = kontor.core.rng(seed)
        for _ = 1, 25 do
          if g:over() then break end
          local who = g:who()
          if type(who) == "table" then who = who[1] end
          if who and who > 0 then
            local lines = bots.hint(seatmod.view(g, who), "greedy", 1)
            if lines[2] then
              local named = lines[1]:match("would play: (.*)$")
              assert.are.equal(named, lines[2]:match("^  (.-)%s+value"), table.concat(lines, "\n"))
            end
          end
          local opts = g:options(who)
          g:apply(rng:below(#opts) + 1, who)
        end
      end
    end
  end)

  it("leaves what the bot plays as it was", function()
    local g = kontor.new_game { rules = "sea_merchants", players = 3, seed = 1 }
    local b = bots.new("greedy", 1, 1 + seatmod.view(g, 1).mark())
    assert.are.equal(select(2, bots.hint(seatmod.view(g, 1), "greedy", 1)), b:choose(seatmod.view(g, 1)))
  end)
end)
