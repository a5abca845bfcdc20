-- constlist_tally_spec.lua - the balance lab's count of moves (the
-- simulation's bot, lua/engine/playout.c's tally) over constant option
-- lists (kontor.options) whose options are lists: the tally reads the
-- constant's plain list, and counts what it counts for the same plain list.
-- Run: build/kontor run tests/busted.lua tests/lua/constlist_tally_spec.lua
local support = require "tests.lua.support"
local balance = require "kontor.balance"
local write = support.write
local tmp, cleanup_tmp = support.scratch()

-- One decision a turn from a list of list options, made by MAKE.
local GAME = [==[
local MAKE = %s
local R = { name = "tallied", players = { min = 2, max = 2 } }
local MOVES = MAKE{ { "sail", "ship", 1 }, { "sail", "ship", 2 }, "no sail" }
function R.setup(g) g.turns = 0 end
function R.play(g)
  for turn = 1, 40 do
    g.turns = turn
    g:choose(turn %% 2 + 1, "sail", MOVES)
  end
end
function R.scores(g) return { g.turns, 0 } end
return R
]==]

local function moves_of(kind)
  local file = write(tmp("tallied_" .. kind .. ".lua"),
    GAME:format(kind == "const" and "kontor.options" or "function(t) return t end"))
  local L = balance.load { rules = file, players = 2, moves = true }
  local out, total = {}, 0
  for i = 1, 30 do
    for k, n in pairs(balance.play_game(L, 1, i)) do
      if type(k) == "string" and k:match("^moves%.") then
        out[k] = (out[k] or 0) + n
        if k:match(" #%d+$") then total = total + n end
      end
    end
  end
  return out, total
end

describe("the moves the lab counts over a constant list of list options", function()
  teardown(cleanup_tmp)

  it("are those it counts over the same plain list, every step once", function()
    local const, total = moves_of("const")
    local plain, plain_total = moves_of("plain")
    assert.are.equal(30 * 40, total)
    assert.are.equal(30 * 40, plain_total)
    assert.are.same(plain, const)
    -- every seat's 600 steps, split by kind as the bot drew them (seed 1)
    assert.are.equal(600, const["moves.sail: sail #1"] + const["moves.sail: no sail #1"])
    assert.are.equal(600, const["moves.sail: sail #2"] + const["moves.sail: no sail #2"])
    assert.are.equal(792, const["moves.sail: sail"])
    assert.are.equal(408, const["moves.sail: no sail"])
  end)
end)
