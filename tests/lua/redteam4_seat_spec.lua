-- redteam4_seat_spec.lua: a seat's view cannot take a finished game back
-- into play. Once the game is over the seat has the seed (v.seed(), and
-- its save, which serve's save with "seat" now hands out): an undo back
-- into the game left it knowing every card still to come (red team 4).
local seatmod = require "kontor.seat"

local MESSAGE = "the game is over, and its seed (in the result and each seat's save) gives every card dealt: "
  .. "a seat cannot take it back into play (the referee can: undo without \"seat\")"

describe("red team 4: a seat's undo after the end", function()
  local function finished()
    local g = kontor.new_game { rules = "tests/rulesets/take_one_each.lua", players = 2, seed = 123456789 }
    while not g:over() do assert(g:apply(g:options(g:who())[1], g:who())) end
    return g
  end

  it("is refused, and the game stays over", function()
    local g = finished()
    local n = #g:moves()
    local v = seatmod.view(g, 1)
    assert.are.equal(123456789, v.seed())
    assert.are.same({ nil, MESSAGE }, { v.undo_plan(1) })
    assert.are.same({ nil, MESSAGE }, { v.undo(1, function() return true end) })
    assert.are.same({ nil, MESSAGE }, { seatmod.view(g, 2).undo(5, function() return true end) })
    assert.is_true(g:over())
    assert.are.equal(n, #g:moves())
  end)

  it("the referee's undo still takes the last move back", function()
    local g = finished()
    assert.are.equal(1, #g:undo_moves(1))
    assert.is_false(g:over())
  end)
end)
