-- kept_drafts_spec.lua - g:choose_orders in the simulation's path keeps a
-- draft table a seat for the game (ctx._kept_drafts): each entry must
-- still get an empty draft, and g:draft must answer only while orders
-- are open, as step by step.
-- Run: build/kontor run tests/busted.lua tests/lua/kept_drafts_spec.lua
local support = require "tests.lua.support"
local tmp, cleanup_tmp = support.scratch()

-- Each entry notes whether its draft came empty, then fills it; the
-- program counts the empty drafts and asks g:draft after the reveal.
local RULES = [[
local R = { name = "drafts", title = "Drafts", summary = "test: drafts of secret orders",
  players = { min = 2, max = 4, default = 3 } }
function R.setup(g) g.empty, g.full, g.after, g.round = 0, 0, 0, 0 end
local function enter(g, seat, draft)
  local empty = next(draft) == nil
  draft.seat, draft.round = seat, g.round
  local k = g:choose(seat, "pick", { "one", "two" })
  draft.k = k
  return { empty = empty, k = k }
end
function R.play(g)
  for round = 1, 4 do
    g.round = round
    local orders = g:choose_orders(g:turn_order(1), "order", enter)
    for s = 1, g.players do
      if orders[s].empty then g.empty = g.empty + 1 else g.full = g.full + 1 end
      if g:draft(s) ~= nil then g.after = g.after + 1 end
    end
    g:begin_turn(1)
  end
end
function R.scores(g) local t = {} for s = 1, g.players do t[s] = 0 end return t end
return R
]]

local path
setup(function()
  path = tmp("drafts.lua")
  local f = assert(io.open(path, "w"))
  f:write(RULES)
  f:close()
end)
teardown(function() cleanup_tmp() end)

describe("kept drafts", function()
  it("every entry gets an empty draft, in the simulation's path and step by step", function()
    for seed = 1, 3 do
      local fast = kontor.new_game { rules = path, players = 3, seed = seed }
      local slow = kontor.new_game { rules = path, players = 3, seed = seed }
      fast:play_random(kontor.core.rng(seed))             -- the bot inside the coroutine
      slow:play_random(kontor.core.rng(seed), function() end)   -- step by step
      for _, g in ipairs { fast, slow } do
        local st = g:state()
        assert.are.equal(12, st.empty)                   -- 4 rounds, 3 seats
        assert.are.equal(0, st.full)
        assert.are.equal(0, st.after)                    -- g:draft: nil after the reveal
      end
      assert.are.equal(kontor.core.json.encode(fast:state()), kontor.core.json.encode(slow:state()))
      assert.is_table(fast.ctx._kept_drafts)              -- the path that keeps them was taken
      assert.is_nil(rawget(slow.ctx, "_kept_drafts"))
    end
  end)

end)
