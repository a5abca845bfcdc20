-- feqa_spec.lua - a seat's undo in a simultaneous decision still open
-- (lua/kontor/seat.lua): a seat that chose after the others may take its
-- own secret choice back (it was the last step; nobody has seen it), never
-- another seat's. Before, any other seat's choice refused the undo: a
-- player who bid last by mistake could not change the bid before the
-- reveal ("the others have chosen in secret: ...").

local seatmod = require "kontor.seat"

local SECRET = "the others have chosen in secret: what they chose cannot be taken back before it is revealed"

describe("a seat's undo while a simultaneous decision is open", function()
  it("takes back its own choice when it was the last step, and only then", function()
    local g = kontor.new_game { rules = "old_world", players = 3, seed = 5 }
    local v1, v2 = seatmod.view(g, 1), seatmod.view(g, 2)
    assert.is_true(v1.apply("bid 1"))
    assert.is_true(v2.apply("bid 2"))
    -- seat 1 chose before seat 2: its undo would take seat 2's bid too
    assert.same({ nil, SECRET }, { v1.undo_plan(1) })
    assert.same({ nil, SECRET }, { v1.undo(1, function() return true end) })
    -- seat 2 chose last: its own bid goes, seat 1's stays
    assert.same({ moves = { { 2, "bid 2" } }, others = {} }, v2.undo_plan(1))
    assert.same({ nil, SECRET }, { v2.undo_plan(2) })
    assert.same({ { 2, "bid 2" } }, v2.undo(1))
    assert.same({ "1: bid 1" }, g:actions())
    assert.same({ 2, 3 }, g:who())
    assert.same({ "bid 0", "bid 1", "bid 2", "bid 3" }, v2.options())
    -- redo does it again; a new bid replaces it
    assert.equal(1, v2.redo(1))
    assert.same({ "1: bid 1", "2: bid 2" }, g:actions())
    assert.same({ { 2, "bid 2" } }, v2.undo(1))
    assert.is_true(v2.apply("bid 0"))
    local n = #g:log()
    assert.is_true(seatmod.view(g, 3).apply("bid 0"))
    assert.equal("bids: Player 1 1, Player 2 0, Player 3 0", g:log()[n + 1])
  end)

  it("a seat that has not chosen takes nothing back while others have", function()
    local g = kontor.new_game { rules = "old_world", players = 3, seed = 5 }
    assert(g:apply("bid 1", 1))
    assert.same({ nil, SECRET }, { seatmod.view(g, 3).undo_plan(1) })
    assert.same({ "1: bid 1" }, g:actions())
  end)
end)

-- Every view carries the engine's seat, turn, active and to_move
-- (lua/kontor/dump.lua); to_move was missing once the game was over (the
-- Lua idiom `w == nil and false or w` gives nil), so a front end reading a
-- view's JSON found no field where docs/api.md now says false.
describe("the engine's fields of every view", function()
  it("are there at every point, to_move false once the game is over", function()
    local g = kontor.new_game { rules = "old_world", players = 3, seed = 5 }
    local v = g:view(2)
    assert.same({ 2, 1, 1, { 1, 2, 3 } }, { v.seat, v.turn, v.active, v.to_move })
    assert(g:apply("bid 1", 1))
    assert.same({ 2, 3 }, g:view(2).to_move)
    local m = kontor.new_game { rules = "old_world", players = 2, seed = 3, manual_chance = true }
    assert.equal("chance", m:view(1).to_move)
    local s = kontor.new_game { rules = "sea_merchants", players = 2, seed = 3 }
    assert.same({ 1, 0, false, 1 }, { s:view(1).seat, s:view(1).turn, s:view(1).active, s:view(1).to_move })
    while not s:over() do assert(s:apply(1, s:who())) end
    local over = s:view(1)
    assert.is_false(over.to_move)
    assert.same({ 74, 2 }, { over.turn, over.active })
    assert.matches('"to_move":false', kontor.core.json.encode(over), 1, true)
  end)
end)
