-- owtable_autosave_spec.lua: `kontor play --rules old_world` at a terminal.
-- Leaving with
-- Ctrl-D while the build orders are open (a QA finding). Ann entered her
-- order (3 steps) and passed; Bob pressed Ctrl-D at his first step and saw
-- "The game is not over: saved 6 moves to ...": 3 more than the 3 moves he
-- may see, which told him how far Ann's secret order had got (O34: the
-- others see only who has finished). The count is now what every seat
-- sees.
local support = require "tests.lua.support"
local tmux = dofile("tests/repl/tmux.lua")

local BIN = support.binary()
local has = support.has

local pty = tmux.available() and describe or pending

pty("play at a terminal (tmux): Old World's secret bids and orders", function()
  local session = support.terminals(before_each, after_each)

  -- A 2-player game at a 120x40 terminal, played to Bob's bid (Ann bid 1):
  -- the terminal, and step(text or nil for Enter, the text to wait for).
  local function to_bobs_bid()
    local t = session(BIN .. " play --rules old_world --players 2 --names Ann,Bob --seed 7", { NO_COLOR = "1" },
      120, 40)
    local function step(text, wait)
      if text then t:send(text, "Enter") else t:send("Enter") end
      assert.truthy(t:wait_for(wait, 10, true), t:screen())
    end
    assert.truthy(t:wait_for("Pass the keyboard to Ann", 10, true))
    step(nil, "Ann, your move (bid)")
    step("bid 1", "press Enter to hide your choice")
    step(nil, "Pass the keyboard to Bob")
    step(nil, "Bob, your move (bid)")
    return t, step
  end

  it("the autosave message does not count another player's secret steps", function()
    local t, step = to_bobs_bid()
    step("bid 0", "press Enter to pass the keyboard to Ann")
    step(nil, "Pass the keyboard to Ann")
    step(nil, "Ann, your move (pick)")
    step("pick land worker", "next: acquire")
    step("acquire land:woad_plantation", "next: release")
    step("done", "next: assign")
    step("assign woad_plantation", "press Enter to hide your order")
    step(nil, "Pass the keyboard to Bob")
    step(nil, "Bob, your secret order")
    t:send("C-d")
    local s = t:wait_for("%[exit 0%]", 10)
    assert.truthy(s, t:screen())
    local flat = s:gsub("\n", "")
    assert.truthy(has(flat, "The game is not over: saved 3 moves and the secret orders being entered to "), flat)
    assert.falsy(has(flat, "saved 6 moves"), flat)
  end)

  it("undo after the bids are revealed asks the other bidder, naming the bid that goes too", function()
    -- the last bidder saw "bids: Ann 1, Bob 0"; undo took his bid back
    -- alone, unasked, and he bid again knowing Ann's (O34)
    local t, step = to_bobs_bid()
    step("bid 0", "bids: Ann 1, Bob 0")
    -- the hand-over says what his undo would do now: the round, with Ann's yes
    local shown = t:wait_for("in it agree.", 10, true)   -- (the line wraps at 120 columns)
    assert.truthy(shown and has(shown:gsub("\n", ""), "Until then it is yours: undo takes back the whole revealed "
      .. "round, if the others in it agree."), t:screen())
    step("undo", "Pass the keyboard to Ann (seat 1) and press Enter: Bob asks to take back a move of yours.")
    step(nil, "Of your moves it takes back: bid 1.\nUndo takes back Ann's move too.\nAnn, do you agree? (yes/no)")
    step("yes", "Pass the keyboard to Bob (seat 2) and press Enter: back to you.")
    step(nil, "Bob, your move (bid)")
    assert.truthy(has(t:history(), "Undid 2 moves: Ann: bid 1; Bob: bid 0"), t:history())
  end)
end)
