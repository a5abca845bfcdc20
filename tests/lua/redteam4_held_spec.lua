-- redteam4_held_spec.lua: a hostile pass on the moves a reload holds
-- (lua/kontor/game/history.lua, "Moves a reload held survive an undo").
-- Held moves are anchored to the steps they follow; the anchor compared
-- the steps' texts only, so a game that reached the same texts by other
-- seats (two secret bids entered in the other order, each seat bidding
-- what the other had) revived them: redo and reload then did moves made
-- for another game.
local support = require "tests.lua.support"

-- Two seats bid 1 or 2 at once; the higher bid (ties: seat 1) takes 10
-- points; then seat 1 and seat 2 say "a" or "b". `%s` is what "b" adds:
-- "1" in the good file, "nil + 1" in the broken one.
local RULES = [[
local R = { name = "swap", title = "Swap", summary = "test: bids then a word",
  players = { min = 2, max = 2, default = 2 } }
function R.setup(g) g.points = { 0, 0 } end
function R.play(g)
  local bids = g:choose_all({ 1, 2 }, "bid", { { "bid 1", "bid 2" }, { "bid 1", "bid 2" } })
  local winner = bids[2] > bids[1] and 2 or 1
  g.points[winner] = g.points[winner] + 10
  for s = 1, 2 do
    if g:choose(s, "word", { "a", "b" }) == 2 then g.points[s] = g.points[s] + %s end
  end
end
function R.scores(g) return { g.points[1], g.points[2] } end
return R
]]

describe("red team 4: held moves", function()
  local tmp, cleanup = support.scratch()
  teardown(cleanup)

  -- seat 1 bids 1, seat 2 bids 2: seat 2 wins; seat 1 says "b" (which
  -- the broken file refuses), seat 2 "a".
  local function held_game()
    local f = support.write(tmp("swap.lua"), RULES:format("1"))
    local g = kontor.new_game { rules = f, players = 2, seed = 1 }
    for _, m in ipairs({ "1: bid 1", "2: bid 2", "1: b", "2: a" }) do assert(g:apply(m)) end
    support.write(f, RULES:format("nil + 1"))
    local ok, msg = g:reload()
    assert.is_nil(ok)
    assert.truthy(support.has(msg, "reloaded; stopped before move 3 '1: b'"), msg)
    support.write(f, RULES:format("1"))
    return g
  end

  it("are not revived by the same texts entered by other seats", function()
    local g = held_game()
    assert.are.same({ { 1, "b" }, { 2, "a" } }, g:held_moves())
    assert.are.equal(2, #g:undo_moves(2))
    -- the bids again, each seat bidding what the other had: seat 1 wins now
    assert(g:apply("2: bid 1"))
    assert(g:apply("1: bid 2"))
    assert.are.same({}, g:held_moves())
    -- the fixed file's reload replays this game's two moves, not the
    -- held "1: b" and "2: a" made after seat 2 had won
    local ok, n = g:reload()
    assert.are.same({ true, 2 }, { ok, n })
    -- (the replay enters the revealed bids in seat order)
    assert.are.same({ "1: bid 2", "2: bid 1" }, g:moves())
    assert.are.equal(1, g:who())
    assert.are.equal(0, g:redo_held(2))
    assert.are.same({ "1: bid 2", "2: bid 1" }, g:moves())
  end)

  it("still come back when the same seats enter the same bids again", function()
    local g = held_game()
    assert.are.equal(2, #g:undo_moves(2))
    assert(g:apply("1: bid 1"))
    assert(g:apply("2: bid 2"))
    assert.are.same({ { 1, "b" }, { 2, "a" } }, g:held_moves())
    local ok, n = g:reload()
    assert.are.same({ true, 4 }, { ok, n })
    assert.are.same({ "1: bid 1", "2: bid 2", "1: b", "2: a" }, g:moves())
    assert.are.same({ 1, 10 }, g:result().scores)
  end)
end)
