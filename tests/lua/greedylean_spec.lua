-- Greedy's own work made cheaper keeps its choices, and the seat view still
-- hands out nothing of the game's own (lua/kontor/bots/init.lua,
-- lua/kontor/seat.lua; docs/greedy-cost.md "Greedy's own work").

local bots = require "kontor.bots"
local seat = require "kontor.seat"

local function decider(g)
  local w = g:who()
  if type(w) == "table" then return w[1] end
  return w
end

-- A game of `rules` with greedy on every seat (seeded as the simulation
-- seeds them), played to its end; its moves and result.
local function greedy_game(rules, players, seed, spec)
  local g = kontor.new_game { rules = rules, players = players, seed = seed }
  local seats = {}
  for s = 1, players do seats[s] = assert(bots.new(spec or "greedy", s, seed)) end
  while not g:over() do
    local s = decider(g)
    if s == "chance" then g:step(0, 1) else g:step(s, seats[s]:choose(seat.view(g, s))) end
  end
  return g:moves(), g:result()
end

describe("greedy's choices", function()
  it("are those it made before its bookkeeping was made cheaper (Caribbean, 2 players, seed 1)", function()
    -- tests/bots/decisions.lua caribbean 2 greedy 1 at b4e514b; pinned
    -- again when the discard pile became hidden (C2: paid coins lie face
    -- down), which greedy's copies now deal again; lead=1, judged by the
    -- lead as then (Caribbean's greedy judges by its own estimate since)
    local moves, result = greedy_game("caribbean", 2, 1, "greedy:lead=1")
    assert.are.equal(140, #moves)
    assert.are.same({ "1: stop", "1: loot Pinnace 3", "2: reveal" }, { moves[1], moves[2], moves[3] })
    assert.are.same({ "2: loot Pinnace 1", "1: reveal" }, { moves[18], moves[19] })
    assert.are.same({ "1: hire Governor 8/0", "1: hire Trader Pinnace 3/1" }, { moves[139], moves[140] })
    assert.are.same({ 4, 12 }, result.scores)
    assert.are.same({ 2 }, result.winners)
    assert.are.equal(28, result.turns)
  end)

  -- Sea Merchants 4p, seed 1, played to the first decision after one
  -- whose best line is longer than one step: the game and the bot with
  -- the plan (each step names its decision)
  local function at_plan()
    local g = kontor.new_game { rules = "sea_merchants", players = 4, seed = 1 }
    local seats = {}
    for s = 1, 4 do seats[s] = assert(bots.new("greedy", s, 1)) end
    while not g:over() do
      local s = decider(g)
      if s == "chance" then g:step(0, 1)
      else
        g:step(s, seats[s]:choose(seat.view(g, s)))
        if seats[s].plan then return g, seats[s] end
      end
    end
    error("no plan in a whole game")
  end

  it("follow the plan of a move while the game shows the decision it was made for", function()
    local g, bot = at_plan()
    local step = bot.plan[bot.plan.at]
    assert.are.equal(bot.seat, decider(g))
    local view = seat.view(g, bot.seat)
    assert.are.same(step.t, view.options())
    local k = bot:choose(view)
    assert.are.equal(step.text, view.options()[k])
    assert.are.same({ { step.text, value = bot.last[1].value } }, bot.last)
  end)

  it("search again where the decision differs from the plan's in one option text", function()
    local g, bot = at_plan()
    local step = bot.plan[bot.plan.at]
    local view = seat.view(g, bot.seat)
    local opts = view.options()
    assert.is_true(#opts > 1)
    local t = {}
    for i, x in ipairs(step.t) do t[i] = x end
    t[#t] = t[#t] .. " (not this)"
    step.t = t
    bot:choose(view)
    assert.are.equal(#opts, #bot.last)         -- every option judged: a search
  end)
end)

describe("the seat view", function()
  it("names the decision only for the seat that decides", function()
    local g = kontor.new_game { rules = "sea_merchants", players = 4, seed = 2 }
    while decider(g) == "chance" do g:step(0, 1) end
    local s = decider(g)
    local other = s % 4 + 1
    assert.are.equal(g.dname, seat.view(g, s).decision)
    assert.is_nil(seat.view(g, other).decision)
  end)

  it("hands a seat its own list of options: changing it changes nothing the game shows", function()
    local g = kontor.new_game { rules = "sea_merchants", players = 4, seed = 2 }
    while decider(g) == "chance" do g:step(0, 1) end
    local s = decider(g)
    local view = seat.view(g, s)
    local before = g:options(s)
    local mine = view.options()
    mine[1], mine[#mine + 1] = "not an option", "nor this"
    assert.are.same(before, view.options())
    assert.are.same(before, g:options(s))
    assert.are.equal(g.dname, view.decision)
  end)
end)
