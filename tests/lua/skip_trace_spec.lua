-- skip_trace_spec.lua - g:skip leaves a trace that g:skipped() reads
-- (issue 12), kept flat so that a skip makes no table (issue 25, item 4):
-- the records come out whole, in order, with a missing reason or a bad
-- value left out, and a skip without a reason does not shift the next.
-- Run: build/kontor run tests/busted.lua tests/lua/skip_trace_spec.lua
local support = require "tests.lua.support"
local write = support.write
local tmp, cleanup_tmp = support.scratch()

teardown(cleanup_tmp)

local SKIPS = [==[
local R = { name = "skips", players = { min = 2, max = 2 } }
function R.setup(g) g.n = 0 end
function R.play(g)
  g:begin_turn(1)
  g:skip(1, "trade", "nothing to trade")
  g:skip(2, "trade")                      -- no reason
  g:begin_turn(2)
  g:skip("two", "hire", 7)                -- not a seat, not a reason: left out
  g:choose(1, "go", { "on" })
  g:skip(2, "loot", "no ship in reach")
  g:choose(2, "go", { "on" })
end
function R.scores(g) return { 0, 0 } end
return R
]==]

describe("g:skip and g:skipped", function()
  it("gives each skip's record, in order, whole, with what is not plain data left out", function()
    local g = kontor.new_game { rules = write(tmp("skips.lua"), SKIPS), players = 2 }
    assert.are.same({
      { seat = 1, decision = "trade", why = "nothing to trade", turn = 1 },
      { seat = 2, decision = "trade", turn = 1 },
      { decision = "hire", turn = 2 },
    }, g:skipped())
    assert.is_true(g:apply("on"))
    assert.are.same({ seat = 2, decision = "loot", why = "no ship in reach", turn = 2 }, g:skipped()[4])
    assert.are.equal(4, #g:skipped())
  end)

  it("keeps the trace through undo (the game replayed)", function()
    local g = kontor.new_game { rules = write(tmp("skips.lua"), SKIPS), players = 2 }
    assert.is_true(g:apply("on"))
    g:undo()
    assert.are.equal(3, #g:skipped())
    assert.are.equal("hire", g:skipped()[3].decision)
  end)
end)
