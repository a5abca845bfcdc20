-- caribqa_board_spec.lua: what the Caribbean board and options say at the
-- table (QA findings at `kontor play --rules caribbean`):
--  * while another player takes from the active player's harbour (C6) the
--    board marked the active player with `*` and named only their turn,
--    under "Bob, your move (take other)": `*` marks the seat to act
--    (docs/repl.md), and the title names the taker;
--  * a finished game's title read "game over (last round)";
--  * reveal with three ship names read "a second Galleon, Skiff, Frigate busts".
local kontor = require "kontor"
local describe_mod = require "kontor.describe"
local support = require "tests.lua.support"

local function game(scenario, seed)
  return kontor.new_game { rules = "caribbean", players = 3, seed = seed or 5, names = { "Ann", "Bob", "Cid" },
    scenario = scenario }
end

local function line(text, i)
  local lines = {}
  for l in (text .. "\n"):gmatch("(.-)\n") do lines[#lines + 1] = l end
  return lines[i]
end

describe("the Caribbean board at the table", function()
  it("another player's take: `*` marks them and the title names them", function()
    local g = game { phase = "loot", loot_at = 2, harbour = { "Galleon 2/1", "Sailor 3/1" }, coins = { 3, 5, 5 } }
    assert.are.equal("take_other", g:decision(2).name)
    local b = g:show(2)
    assert.are.equal("Merchants of the Caribbean - loot and hire, Ann's turn, Bob to take - deck 104, discard 0",
      line(b, 1))
    assert.are.equal("  Ann: 3 coins, 0 influence, 0 swords; persons: none", line(b, 4))
    assert.are.equal("* Bob: 5 coins, 0 influence, 0 swords; persons: none", line(b, 5))
    g:apply("2: loot Galleon 1")
    b = g:show(3)
    assert.are.equal("Merchants of the Caribbean - loot and hire, Ann's turn, Cid to take - deck 103, discard 1",
      line(b, 1))
    assert.are.equal("* Cid: 5 coins, 0 influence, 0 swords; persons: none", line(b, 6))
  end)

  it("the active player's own take: `*` on them, the title as before", function()
    local g = game { phase = "loot", harbour = { "Galleon 2/1" }, coins = { 3, 3, 3 } }
    local b = g:show(1)
    assert.are.equal("Merchants of the Caribbean - loot and hire, Ann's turn - deck 109, discard 0", line(b, 1))
    assert.are.equal("* Ann: 3 coins, 0 influence, 0 swords; persons: none", line(b, 4))
  end)

  it("a finished game's title is 'game over', without '(last round)'", function()
    local g = game(nil, 6)
    g:play_random(kontor.rng(1))
    assert.is_true(g:over())
    assert.are.equal("Merchants of the Caribbean - game over - deck", line(g:show(1), 1):match("^(.- deck)"))
  end)

  it("reveal names the ship names that bust as a list ending with 'or'", function()
    local g = game { harbour = { "Galleon 2/1", "Skiff 5/3", "Frigate 6/3" } }
    assert.are.equal("reveal", g:options(1)[1])
    assert.are.equal("116 cards in the deck; a second Galleon, Skiff or Frigate busts (C4)",
      describe_mod.option(g, 1, "reveal"))
    g = game { harbour = { "Galleon 2/1", "Skiff 5/3" } }
    assert.are.equal("117 cards in the deck; a second Galleon or Skiff busts (C4)", describe_mod.option(g, 1, "reveal"))
  end)
end)

-- A card typed in small letters ('hire sailor 3/1', as a player types
-- it) was refused with "no such card in the harbour", the Sailor 3/1
-- there to see; then the refusal said how the card is written. Now a text
-- in other letters that names one option is that option
-- (tests/lua/option_case_spec.lua), recorded as the card writes it.
describe("a Caribbean take typed in other letters", function()
  it("is the card in the harbour, recorded as the card writes it", function()
    local g = game { phase = "loot", harbour = { "Flute 2/2", "Sailor 3/1" }, coins = { 9, 5, 5 } }
    assert.is_nil(describe_mod.refusal(g, "hire sailor 3/1", 1))
    assert.is_nil(describe_mod.refusal(g, "loot flute 2", 1))
    assert.are.equal("'hire Pirate 5/1' is not a legal action: no such card in the harbour; expected one of: "
      .. "loot Flute 2, hire Sailor 3/1, take nothing", describe_mod.refusal(g, "hire Pirate 5/1", 1))
    assert.is_true(g:apply("1: hire sailor 3/1"))
    assert.are.equal("1: hire Sailor 3/1", g:actions()[#g:actions()])
    -- refused, the reason is the card's, whatever the letters
    g = game { phase = "loot", harbour = { "Flute 2/2", "Sailor 3/1" }, coins = { 1, 5, 5 } }
    for _, t in ipairs { "hire sailor 3/1", "hire Sailor 3/1" } do
      assert.are.equal("'" .. t .. "' is not a legal action: the Sailor 3/1 costs 3 and you have 1 coin; expected "
        .. "one of: loot Flute 2, take nothing", describe_mod.refusal(g, t, 1))
    end
  end)
end)

-- A front end's scenario comes as JSON, whose object keys are texts:
-- {"coins": {"1": 4}} was refused with "coins: 1 is not a seat", which
-- reads as if seat 1 did not exist.
describe("a Caribbean scenario with seats as texts", function()
  it("says the key is a text and how to give the seats", function()
    for _, field in ipairs { "displays", "done", "coins" } do
      local ok, err = pcall(kontor.new_game, { rules = "caribbean", players = 3, seed = 1,
        scenario = { [field] = { ["1"] = field == "coins" and 4 or {} } } })
      assert.is_false(ok)
      assert.are.equal("setting up caribbean failed: scenario: " .. field .. ": the key '1' is a text, not a seat "
        .. "number: give a list with an entry for each seat (in JSON: [[...], [...]])",
        (tostring(err.message or err):match("^[^\n]*")))
    end
    local g = kontor.new_game { rules = "caribbean", players = 3, seed = 1,
      scenario = { coins = { 4, 3, 12 }, done = { {}, {}, { "expedition 2 houses" } } } }
    assert.are.equal(12, g:view(1).players[3].coins)
    assert.are.same({ "expedition 2 houses" }, g:view(1).players[3].expeditions)
  end)
end)

-- With the deck empty, reveal read "0 cards in the deck; ...", as if
-- nothing could be revealed; the discard pile is shuffled in (C2).
describe("reveal with the deck empty", function()
  it("says the discard pile is shuffled in first", function()
    local g = game { harbour = { "Flute 2/2" }, deck = {}, discard = { "Priest 4/1", "Sailor 3/1" } }
    assert.are.equal("the deck is empty: the discard pile (2 cards) is shuffled into it first; a second Flute "
      .. "busts (C4)", describe_mod.option(g, 1, "reveal"))
    g:apply("reveal")
    assert.are.equal("the discard pile is shuffled into a new draw deck", g:log()[#g:log() - 1])
  end)
end)

-- A game that ends with nobody able to win (C9: no player fulfilled an
-- expedition) ended its result with "Winners: " and nothing after it.
describe("the result of a Caribbean game nobody wins", function()
  it("says 'No winner.' in play and in the REPL", function()
    local dir = support.tmpdir()
    finally(function() os.execute("rm -rf " .. support.sh_quote(dir)) end)
    -- no card to reveal or gain, and no expedition: the game ends at once
    local g = kontor.new_game { rules = "caribbean", players = 2, seed = 1, names = { "Ann", "Bob" },
      scenario = { deck = {}, coins = { 3, 2 }, displays = { { "Sailor 3/1" }, {} } } }
    assert.is_true(g:over())
    assert.are.same({}, g:result().winners)
    g:save(dir .. "/nowin.json")
    local tail = "Game over. Final scores:\n  Ann     1\n  Bob     0\nNo winner.\nWhy: nobody can win: no player "
      .. "fulfilled an expedition (C9)\n"
    local out = support.kontor_rc("play --load " .. dir .. "/nowin.json", "")
    assert.truthy(support.has(out, tail), out)
    out = support.kontor_rc("--load " .. dir .. "/nowin.json", "result\n")
    assert.truthy(support.has(out, tail), out)
  end)
end)

-- A Caribbean game begins with its first card revealed (must_reveal). The
-- REPL's `new` said "New game: ..." and "Player 1 to choose (discover).",
-- and the card showed only on the board; at a terminal the banner did the
-- same. The set-up's log lines now follow both.
describe("the REPL at the start of a Caribbean game", function()
  it("new shows the first card revealed", function()
    local out = support.kontor_rc("--rules caribbean --players 3 --seed 5", "new seed=3\n")
    assert.are.equal("New game: Merchants of the Caribbean, 3 players (Player 1, Player 2, Player 3), seed 3.\n"
      .. "Player 1 reveals Skiff 1/1\nPlayer 1 to choose (discover).\nrc=0\n", out)
  end)

  it("at a terminal, the banner is followed by the first card revealed", function()
    local tmux = dofile("tests/repl/tmux.lua")
    if not tmux.available() then return pending("tmux is not installed") end
    local t = tmux.start(support.binary() .. " --rules caribbean --players 3 --seed 5",
      { NO_COLOR = "1", HOME = support.tmpdir() })
    finally(function() t:stop() end)
    local s = t:wait_for("to choose %(discover%)%.")
    assert.truthy(s)
    assert.truthy(support.has(s, "Ctrl-D to leave.\nPlayer 1 reveals Galleon 2/1\nPlayer 1 to choose (discover).")
      or support.has(s, "Ctrl-D to\nleave.\nPlayer 1 reveals Galleon 2/1\nPlayer 1 to choose (discover)."), s)
  end)
end)
