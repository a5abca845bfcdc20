-- newcomer_spec.lua: the newcomer's list of issue 26 (point 7): reload
-- names the files it re-read, --list with other flags says why, the board's
-- marker of the seat to act is not the prompt's ">", the hand-over speaks
-- of a hand only where there are hands, and a drawn card is shown to its
-- drawer before the hand-over (at a real terminal: tmux).
local support = require "tests.lua.support"
local tmux = dofile("tests/repl/tmux.lua")

local BIN = support.binary()

local run = support.kontor_rc   -- the output, then "rc=" and the exit status

local has = support.has

describe("the newcomer's list", function()
  it("reload names the rule set's file and each variant's", function()
    local out = run("--variant hand_limit --players 2 --seed 3", "load fish on ship 1\nreload\n")
    assert.truthy(has(out, "Reloaded sea_merchants (variants/sea_merchants.lua) with the variant hand_limit "
      .. "(variants/hand_limit.lua); replayed 1 move.\n"), out)
    out = run("--variant house --players 2", "reload\n")
    assert.truthy(has(out, "Reloaded sea_merchants (variants/sea_merchants.lua) with the variant house "
      .. "(variants/house.lua, with snake_draft, hand_limit, house_specials, delivered_payout); replayed 0 moves.\n"), out)
  end)

  it("kontor --variant x --list says why it does not list", function()
    assert.are.equal("kontor: --list takes nothing else ('--variant' given): kontor --list alone lists every rule set "
      .. "and variant, with what each is for\nTry 'kontor --help'.\nrc=2\n", run("--variant x --list"))
    assert.truthy(has(run("--list"), "hand_limit"))
  end)

  it("the seat to act is marked * on the board, not with the prompt's >", function()
    local out = run("--players 2 --seed 3 --names Ann,Bob", "board\n")
    assert.truthy(has(out, "\n* Ann: 0 coins; ships empty, empty; no special cards; hand 3 cards: wood, spices, cloth\n"
      .. "  Bob: 0 coins;"), out)
    out = run("--rules caribbean --players 2 --seed 3 --names Ann,Bob", "board\n")
    assert.truthy(out:match("\n%* Ann: %d+ coins, 0 influence"), out)
    assert.falsy(out:match("\n> Ann"), out)
  end)

  it("kontor play shows the mover the cards they drew before the hand-over", function()
    local out = run("play --players 2 --seed 3 --names Ann,Bob", "1\n1\n1\n1\n2\ndraw\n1\n")
    assert.truthy(has(out, "Ann draws 2 cards\nAnn, you drew cloth, fish; your hand: wood, cloth, spices, cloth, fish.\n"
      .. "--- Bob's turn (seat 2) ---\n"), out)
  end)
end)

local pty = tmux.available() and describe or pending

pty("the hand-over at a terminal (tmux)", function()
  local session = support.terminals(before_each, after_each)
  local function start(args)
    return session(BIN .. " " .. args, { NO_COLOR = "1" }, 120, 30)
  end

  it("Sea Merchants: the drawn cards, then 'hide your hand'", function()
    local t = start("play --players 2 --seed 3 --names Ann,Bob")
    local function pass_to(name)
      assert.truthy(t:wait_for("Pass the keyboard to " .. name, 5, true))
      t:send("Enter")
      assert.truthy(t:wait_for("\n" .. name .. ">$", 5))
    end
    pass_to("Ann")
    t:send("1", "Enter")
    assert.truthy(t:wait_for("Ann: press Enter to hide your hand and pass the keyboard to Bob.", 5, true))
    t:send("Enter"); pass_to("Bob")
    t:send("1", "Enter"); assert.truthy(t:wait_for("press Enter to hide your hand", 5, true))
    t:send("Enter"); pass_to("Ann")
    t:send("1", "Enter"); assert.truthy(t:wait_for("press Enter to hide your hand", 5, true))
    t:send("Enter"); pass_to("Bob")
    t:send("1", "Enter"); assert.truthy(t:wait_for("press Enter to hide your hand", 5, true))
    t:send("Enter"); pass_to("Ann")
    t:send("2", "Enter")            -- pass in phase I
    assert.truthy(t:wait_for("your move (phase 2)", 5, true))
    t:send("draw", "Enter")
    local s = t:wait_for("Ann: press Enter to hide your hand and pass the keyboard to Bob.", 5, true)
    assert.truthy(s and has(s, "Ann, you drew cloth, fish; your hand: wood, cloth, spices, cloth, fish.\n"), s)
  end)

  it("the REPL at a terminal: descriptions dimmed after the options, a refused move's reason in red", function()
    local t = session(BIN .. " --players 2 --seed 3", nil, 140, 30)
    assert.truthy(t:wait_for("\n>$", 5))
    t:send('g = kontor.new_game{ players = 2, scenario = { market = {"grain","wood","porcelain","fish","spices","cloth"}, '
      .. 'ships = {{"grain","wood"},{"cloth","spices"}}, coins = {9, 0}, phase = "phase1", active = 1 } }', "Enter")
    t:send("options", "Enter")
    local s = t:wait_for("no phase I action", 5, true, true)
    assert.truthy(s and s:find("pass\27%[2m  %(no phase I action%)\n"), s)
    t:send("buy dock", "Enter")
    s = t:wait_for("a dock costs 12", 5, true, true)
    assert.truthy(s and s:find("\27%[31m'buy dock' is not a legal action: a dock costs 12 and you have 9 coins"), s)
    t:send("buy", "Enter")
    -- (not "office 8": the options' description above shows it already)
    s = t:wait_for("you may draw 1 card (S10)", 5, true, true)
    assert.truthy(s and s:find("buy office\27%[2m  %(8 coins: at the end of your phase II you may draw 1 card %(S10%)%)"), s)
  end)

  it("Caribbean has no hands: 'press Enter to pass the keyboard'", function()
    local t = start("play --rules caribbean --players 2 --seed 3 --names Ann,Bob")
    assert.truthy(t:wait_for("Pass the keyboard to Ann", 5, true))
    t:send("Enter")
    assert.truthy(t:wait_for("\nAnn>$", 5))
    t:send("stop", "Enter")
    assert.truthy(t:wait_for("your move (take)", 5, true))
    t:send("loot Skiff 2", "Enter")   -- Ann's take; Bob may take one too (he decides next)
    assert.truthy(t:wait_for("press Enter to", 5, true))
    local s = t:screen()
    assert.truthy(has(s, "Ann: press Enter to pass the keyboard to Bob."), s)
    assert.falsy(has(s, "hide your hand"), s)
  end)
end)
