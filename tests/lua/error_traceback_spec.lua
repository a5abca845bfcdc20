-- error_traceback_spec.lua: an error value's `message` is what a person
-- reads, never a traceback; a rule script's frames are in `traceback`, and
-- the value prints as both (smrules: kontor.new_game's callers read
-- "setting up caribbean failed: ..." followed by 14 lines of frames).
local errors = require "kontor.errors"
local sandbox = require "kontor.sandbox"

describe("an error value", function()
  it("of a rule script's setup has its message alone, the frames apart", function()
    local ok, e = pcall(kontor.new_game, { rules = "caribbean", players = 2, options = { first_player = 3 } })
    assert.is_false(ok)
    assert.are.equal("rules", e.kind)
    assert.are.equal("setting up caribbean failed: option first_player: 3 is not a seat of a 2-player game",
      e.message)
    assert.truthy(e.traceback:find("caribbean%.lua:%d+: in function"), e.traceback)
    assert.are.equal(e.message .. "\nstack traceback:\n" .. e.traceback, tostring(e))
  end)

  it("of a limit keeps its kind, its message alone", function()
    local _, e = sandbox.run("while true do end", "@spin.lua", {})
    assert.are.equal("limit", errors.kind(e))
    assert.are.equal("time", e.limit)
    assert.truthy(e.message:find("^time limit reached %(.- s of CPU per step%)$"), e.message)
    assert.truthy(e.traceback:find("spin.lua:1: in main chunk", 1, true), e.traceback)
  end)

  it("made from a text without frames has none", function()
    local e = errors.new("usage", "players out of range")
    assert.are.equal("players out of range", e.message)
    assert.is_nil(e.traceback)
    assert.are.equal("players out of range", tostring(e))
  end)
end)
