-- option_wrap_spec.lua: an option whose note is wider than the terminal
-- goes on under the option's text, broken at a word (a QA pass of Old
-- World hot-seat play at 100 columns). The terminal broke the line
-- anywhere: "... in your pool: 0" and the closing ")" alone on the next
-- line, at its first column, where the next option's number belongs.
local support = require "tests.lua.support"
local tmux = dofile("tests/repl/tmux.lua")

local BIN = support.binary()

describe("options on a narrow terminal", function()
  it("play at 100 columns: the note's words go on under the option's text", function()
    if not tmux.available() then return pending("tmux is not installed") end
    local t = tmux.start(BIN .. " play --rules old_world --players 3 --names Ann,Bob,Cy --seed 7 --bot 1=random "
      .. "--bot 2=random", { NO_COLOR = "1", HOME = support.tmpdir() }, 100, 30)
    finally(function() t:stop() end)
    assert.truthy(t:wait_for("\nCy>$", 10), t:screen())
    t:send("bid 3", "Enter")
    local s = t:wait_for("Cy, your move %(pick%):.*\nCy>$", 10)
    assert.truthy(s, t:screen())
    assert.truthy(support.has(s, "Cy, your move (pick):\n"
      .. "  1  pick land worker  (to your pool, for a land tile (O13); free now: 0 land slots, in your pool:\n"
      .. "     0)\n"
      .. "  2  pick facility worker  (to your pool, for a building (O13); free now: 0 building slots, in your\n"
      .. "     pool: 0)\n"), s)
  end)

  it("piped: one line an option, whatever its length", function()
    local out = support.kontor_rc("play --rules old_world --players 3 --names Ann,Bob,Cy --seed 7",
      "bid 2\nbid 0\nbid 3\n")
    assert.truthy(support.has(out, "\n  2  pick facility worker  (to your pool, for a building (O13); free now: 0 "
      .. "building slots, in your pool: 0)\n"), out)
  end)
end)
