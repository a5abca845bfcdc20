-- hotseat_tab_spec.lua: TAB at the screens between two people offers
-- nothing of the next person's (a QA pass of hot-seat play). At Ann's
-- last screen ("press Enter to hide your hand and pass the keyboard to
-- Bob") and at "Pass the keyboard to Bob", TAB completed Bob's options,
-- which are made from what Bob holds, for whoever sat at the keyboard.
local support = require "tests.lua.support"
local tmux = dofile("tests/repl/tmux.lua")

local BIN = support.binary()

describe("TAB between two people at one terminal", function()
  it("offers the next person's options only once they have the keyboard", function()
    if not tmux.available() then return pending("tmux is not installed") end
    local t = tmux.start(BIN .. " play --players 2 --names Ann,Bob --seed 3", { NO_COLOR = "1",
      HOME = support.tmpdir() }, 120, 40)
    finally(function() t:stop() end)
    assert.truthy(t:wait_for("Pass the keyboard to Ann (seat 1) and press Enter.", 10, true), t:screen())
    t:send("Enter")
    assert.truthy(t:wait_for("\nAnn>$", 10), t:screen())
    t:send("1", "Enter")
    assert.truthy(t:wait_for("press Enter to hide your hand and pass the keyboard to Bob.", 10, true), t:screen())
    -- what shows below a screen's last line of text once TAB is pressed twice
    local function tab_at(last)
      t:send("load ", "Tab", "Tab")
      os.execute("sleep 0.5")
      local s = t:screen()
      local at = s:find(last, 1, true)
      assert.truthy(at, s)
      local below = s:sub(at + #last)
      t:send("C-u")
      return below
    end
    local below = tab_at("undo takes your move back.")
    assert.are.equal("\nload", below)
    t:send("Enter")
    assert.truthy(t:wait_for("Pass the keyboard to Bob (seat 2) and press Enter.", 10, true), t:screen())
    assert.are.equal("\nload", tab_at("Pass the keyboard to Bob (seat 2) and press Enter."))
    t:send("Enter")
    assert.truthy(t:wait_for("\nBob>$", 10), t:screen())
    -- Bob's own prompt: his options
    t:send("load ", "Tab", "Tab")
    assert.truthy(t:wait_for("cloth +fish +grain +porcelain +spices +wood\nBob> load"), t:screen())
  end)
end)
