-- play_load_recap_spec.lua: the first greeting of a game loaded to go on
-- with (kontor play --load). It listed the whole game's log under "Since
-- the game began:" (the housetable QA pass: a wall of lines); now the last
-- 12 lines, saying how many there are and where the rest is.
local support = require "tests.lua.support"

local has = support.has

describe("kontor play --load: the first greeting", function()
  it("shows the last 12 log lines of a longer game, and says so", function()
    local dir = support.tmpdir()
    local path = dir .. "/loaded.json"
    local g = kontor.new_game { players = 2, seed = 3, names = { "Ann", "Bob" } }
    local r = kontor.rng(1)
    for _ = 1, 60 do
      local s = support.decider(g)
      g:step(s, r:below(#g:options(s)) + 1)
    end
    assert(g:save(path))
    local log = g:log()
    assert.are.equal(32, #log)
    local out = support.kontor_rc("play --load " .. support.sh_quote(path), "")
    local want = { "The game so far, its last 12 of 32 log lines (log shows them all):" }
    for i = 21, 32 do want[#want + 1] = log[i] end
    assert.truthy(has(out, "\n" .. table.concat(want, "\n") .. "\n"), out)
    assert.falsy(has(out, log[20] .. "\n"), out)
    assert.falsy(has(out, "Since the game began"), out)
  end)
end)
