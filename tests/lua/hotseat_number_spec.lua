-- hotseat_number_spec.lua: an option number typed by a seat with no
-- decision says so in the seat's name (a QA pass of Old World hot-seat
-- play). Ann bid, and at her last screen ("press Enter to hide your
-- choice") typed 2, as if it were still hers to choose: the answer was
-- the engine's "seat 1 has no decision now", where a text typed there
-- names her and whom the game waits for.
local support = require "tests.lua.support"
local tmux = dofile("tests/repl/tmux.lua")

local BIN = support.binary()
local ARGS = "--rules old_world --players 3 --names Ann,Bob,Cy --seed 7"

describe("an option number from a seat with no decision", function()
  it("play: at the mover's last screen, in the mover's name", function()
    if not tmux.available() then return pending("tmux is not installed") end
    local t = tmux.start(BIN .. " play " .. ARGS, { NO_COLOR = "1", HOME = support.tmpdir() }, 100, 30)
    finally(function() t:stop() end)
    assert.truthy(t:wait_for("Pass the keyboard to Ann (seat 1) and press Enter.", 10, true), t:screen())
    t:send("Enter")
    assert.truthy(t:wait_for("\nAnn>$", 10), t:screen())
    t:send("bid 1", "Enter")
    assert.truthy(t:wait_for("press Enter to hide your choice", 10, true), t:screen())
    t:send("2", "Enter")
    local s = t:wait_for("'2': Ann has no decision now. Bob, Cy to choose (bid).\nAnn: press Enter to hide your choice",
      10, true)
    assert.truthy(s, t:screen())
    assert.falsy(s:find("seat 1 has no decision", 1, true), s)
  end)

  it("the REPL, shown as a seat that does not decide", function()
    local out = support.kontor_rc(ARGS, "as 2\n2: bid 1\n2\n")
    assert.truthy(support.has(out, "\n'2': Bob (seat 2) has no decision now. Ann, Cy to choose (bid). (`as 1` or "
      .. "`as all` shows those options.)\n"), out)
  end)
end)
