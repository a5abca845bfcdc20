-- lab_estimate_guard_spec.lua: the lab's measure of each seat's worth a
-- turn (R.estimate, docs/balance.md) runs as every other judging call
-- does (sandbox.inspect): an estimate that changes the game is refused,
-- since the lab's game would no longer be the one its seed and moves
-- replay. An honest estimate gives the same results as before.
local support = require "tests.lua.support"
local tmp, cleanup_tmp = support.scratch()
teardown(cleanup_tmp)

local function rules(estimate)
  local path = tmp("est_" .. tostring(#estimate) .. ".lua")
  support.write(path, [[
local R = { name = "est", title = "Est", summary = "test", players = { min = 2, max = 4, default = 2 } }
local PICK = kontor.options { "a", "b" }
function R.setup(g) g.taken = kontor.counter { n = g.players, min = 0 } end
function R.play(g)
  for t = 1, 20 do
    local seat = t % g.players + 1
    g:begin_turn(seat)
    if g:choose(seat, "pick", PICK) == 2 then g.taken:add(seat, 1) end
  end
end
function R.scores(g) return g.taken:values() end
function R.estimate(g, seat)
]] .. estimate .. "\nend\nreturn R\n")
  return path
end

describe("the lab's estimate each turn", function()
  it("may read the game", function()
    local out = support.kontor_rc("sim --rules " .. rules("return g.taken:get(seat)") .. " --games 4 --seed 1 --jobs 1")
    assert.truthy(support.has(out, "games        4 (seed 1)"), out)
    assert.truthy(support.has(out, "rc=0\n"), out)
  end)

  it("is refused where it changes the game, with its line", function()
    local path = rules("g.taken:add(seat, 1)\n  return 0")
    local out = support.kontor_rc("sim --rules " .. path .. " --games 4 --seed 1 --jobs 1")
    assert.truthy(support.has(out, "R.estimate cannot change the game: it called counter:add"), out)
    assert.truthy(support.has(out, "est_"), out)
    assert.truthy(support.has(out, "rc=1\n"), out)
  end)
end)
