-- Greedy's lines through a simultaneous decision (g:choose_all; docs/bots.md,
-- "greedy"): a line ends once the round is revealed, so an option that
-- leaves the seat's estimate unchanged (a bid of 0) gets no lookahead into
-- the seat's next decisions that a paid bid, which changes the estimate at
-- once, does not get.
local bots = require "kontor.bots"
local seatmod = require "kontor.seat"
local support = require "tests.lua.support"

local tmp, cleanup = support.scratch()
teardown(cleanup)

-- Two seats bid at once, "bid 0" or "bid 1": a bid of 1 pays a point and
-- wins 2 (1 more in all); then seat 1 alone takes 0 or 5 points, whatever
-- it bid; two turns. The estimate is the points.
local RULES = [[
local R = { name = "bid_then_take", players = { min = 2, max = 2 } }
function R.setup(g) g.p = kontor.counter { n = 2, min = -10, init = 0 } end
function R.play(g)
  for _ = 1, 2 do
    g:begin_turn(1)
    local c = g:choose_all({ 1, 2 }, "bid", { { "bid 0", "bid 1" }, { "bid 0", "bid 1" } })
    for s = 1, 2 do if c[s] == 2 then g.p:add(s, 1) end end
    if g:choose(1, "take", { "take 0", "take 5" }) == 2 then g.p:add(1, 5) end
  end
end
function R.scores(g) return g.p:values() end
function R.estimate(g, seat) return g.p:get(seat) end
return R
]]

describe("greedy at a simultaneous decision", function()
  local path = tmp("bid_then_take.lua")
  support.write(path, RULES)
  local function bid_of(spec)
    local g = kontor.new_game { rules = path, players = 2, seed = 1 }
    local b = assert(bots.new(spec, 1, 1))
    local k = b:choose(seatmod.view(g, 1))
    local values = {}
    for _, e in ipairs(b.last) do values[e[1]] = e.value end
    return g:options(1)[k], values
  end

  it("judges every bid where the round is revealed", function()
    local pick, values = bid_of("greedy")
    assert.are.equal("bid 1", pick)
    assert.are.equal(1, values["bid 1"])
    assert.are.equal(0, values["bid 0"])        -- not the 5 its line would take next
  end)

  it("with rounds=0, as before: bid 0 went on to the take and looked better", function()
    local pick, values = bid_of("greedy:rounds=0")
    assert.are.equal("bid 0", pick)
    assert.are.equal(5, values["bid 0"])
    assert.are.equal(1, values["bid 1"])
  end)
end)
