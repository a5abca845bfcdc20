-- sim_speed_text_spec.lua: the speed line of kontor sim's summary. A run
-- of 2 games said "speed 0 games/s (0.00 s)" (the housetable QA pass): its
-- time, kept to the millisecond, was 0. A short run is told in
-- milliseconds, one under a millisecond says it was too quick to time.
local sim = require "kontor.sim"

local function speed_line(seconds, per_s)
  local s = kontor.sim { games = 1, seed = 1 }
  s.seconds, s.games_per_second = seconds, per_s
  return sim.format(s):match("\n(speed[^\n]*)")
end

describe("kontor sim's speed line", function()
  it("says a run under a millisecond was too quick to time", function()
    assert.are.equal("speed        under 1 ms in all: too quick to time", speed_line(0, 0))
  end)

  it("gives a short run in milliseconds, a longer one in seconds", function()
    assert.are.equal("speed        2500 games/s (8 ms)", speed_line(0.008, 2500))
    assert.are.equal("speed        9763 games/s (0.20 s)", speed_line(0.2048, 9763.2))
  end)
end)
