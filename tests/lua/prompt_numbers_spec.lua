-- prompt_numbers_spec.lua: a number past any integer typed at a prompt
-- reads as the number it is: an option that does not exist, or a count of
-- "all" for undo, redo, auto and log (it read as an action text, or "N must
-- be a whole number above 0").
local support = require "tests.lua.support"
local HUGE = "99999999999999999999"

describe("a huge number", function()
  it("as an action is an option that does not exist, in g:apply and at both prompts", function()
    local g = kontor.new_game{ players = 2, seed = 1 }
    local ok, err = g:apply(HUGE)
    assert.is_nil(ok)
    assert.are.equal("option " .. HUGE .. " does not exist (there are 12)", err)
    assert.are.equal(0, #g:moves())
    local out = support.kontor_rc("--seed 1", HUGE .. "\ndo " .. HUGE .. "\n")
    local want = "option " .. HUGE .. " does not exist (there are 12)\n"
    assert.are.equal(want .. want .. "rc=0\n", out)
    out = support.kontor_rc("play --seed 1", HUGE .. "\n")
    assert.truthy(support.has(out, want), out)
  end)

  it("as a count is all there is", function()
    local out = support.kontor_rc("--seed 1", "1\n2\nundo " .. HUGE .. "\nmoves\nredo " .. HUGE .. "\nmoves\n")
    assert.truthy(support.has(out, "Undid 2 moves"), out)
    assert.truthy(support.has(out, "Redid 2 moves"), out)
    assert.falsy(support.has(out, "must be a whole number"), out)
  end)
end)
