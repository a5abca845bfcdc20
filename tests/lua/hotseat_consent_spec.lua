-- hotseat_consent_spec.lua: when an undo needs the yes of two other
-- people, the keyboard goes from the first asked to the second, and back
-- to the mover once (a QA pass of Caribbean hot-seat play, 3 people).
-- Before, after Ann's yes the screen said "Pass the keyboard to Cid
-- (seat 3) and press Enter: back to you.", Cid pressed Enter on an empty
-- screen, and the next was "Pass the keyboard to Bob": the keyboard went
-- round the table through the mover between the two questions.
local support = require "tests.lua.support"
local tmux = dofile("tests/repl/tmux.lua")

local BIN = support.binary()
local has = support.has
local PLAY = "play --rules caribbean --players 3 --seed 3 --names Ann,Bob,Cid"

describe("hot-seat undo asked of two people", function()
  local t
  -- Sends `keys` (nil: Enter alone) and waits for `expect` on the screen.
  local function step(keys, expect)
    if keys then t:send(keys, "Enter") else t:send("Enter") end
    local s = t:wait_for(expect, 10, true)
    assert.truthy(s, "no '" .. expect .. "' after " .. tostring(keys) .. ":\n" .. t:screen())
    return s
  end

  -- Ann's turn: she stops and loots the Skiff; Bob and Cid have nothing to
  -- take, and Bob's turn begins with his first card revealed. At her last
  -- screen Ann asks to take the loot back: it showed that card, so Bob and
  -- Cid are both asked.
  local function start()
    t = tmux.start(BIN .. " " .. PLAY, { NO_COLOR = "1", HOME = support.tmpdir() }, 100, 30)
    assert.truthy(t:wait_for("Pass the keyboard to Ann (seat 1) and press Enter.", 10, true), t:screen())
    step(nil, "Ann>")
    step("stop", "Ann, your move (take)")
    step("loot Skiff 1", "undo takes your move back, if")
    step("undo", "Pass the keyboard to Bob (seat 2) and press Enter: Ann asks to take back a move that showed")
    step(nil, "Bob, do you agree? (yes/no)")
  end

  it("goes from Bob to Cid, then back to Ann once", function()
    if not tmux.available() then return pending("tmux is not installed") end
    start()
    finally(function() t:stop() end)
    -- (each wait names the whole line it expects: "Pass the keyboard to"
    -- alone matched the screen before, still drawn on a loaded machine)
    local s = step("yes", "Pass the keyboard to Cid (seat 3) and press Enter: Ann asks to take back a move that "
      .. "showed")
    assert.falsy(has(s, "back to you"), s)
    step(nil, "Cid, do you agree? (yes/no)")
    step("yes", "Pass the keyboard to Ann (seat 1) and press Enter: back to you.")
    s = step(nil, "Ann>")
    assert.truthy(has(s, "Undid 1 move: Ann: loot Skiff 1"), s)
    assert.truthy(has(s, "Ann, your move (take):"), s)
    -- the screen was cleared for each of them: no question shows to Ann
    assert.falsy(has(t:history(), "do you agree"), t:history())
  end)

  it("a no from the first goes straight back to Ann, and Cid is not asked", function()
    if not tmux.available() then return pending("tmux is not installed") end
    start()
    finally(function() t:stop() end)
    step("no", "Pass the keyboard to Ann (seat 1) and press Enter: back to you.")
    -- (the undo was typed at Ann's last screen: it comes back)
    local s = step(nil, "Not undone: Bob did not agree.")
    assert.truthy(has(s, "Ann: press Enter to pass the keyboard to Bob."), s)
    assert.falsy(has(t:history(), "Cid"), t:history())
  end)
end)
