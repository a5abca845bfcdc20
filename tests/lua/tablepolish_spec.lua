-- tablepolish_spec.lua: what a player or explorer at the terminal meets
-- (kontor play, the REPL): undo's message in the log's words, TAB in any
-- letter case, the exit status of a bad --variant option, and sim's one
-- wording of a refused game number. (The line of a bot thinking is in
-- play_input_spec and tests/repl/test_tty.py: it needs a terminal.)
local support = require "tests.lua.support"
local ui = require "ui"

local run, has = support.kontor_rc, support.has

-- Sea Merchants, 2 players, seed 3: to Player 2's play on one slot.
local TO_PLAY = "do 1\ndo 1\ndo 1\ndo 1\ndo 2\ndo 2\ndo 2\ndo 1\ndo 1\n"

describe("undo's message", function()
  it("the REPL: a play on one slot reads 'slot 4', as the log says it", function()
    -- before: "Undid 1 move: Player 2: play grain on slots 4", the log "plays grain on slot 4"
    local out = run("--players 2 --seed 3", TO_PLAY .. "do 4\nundo\n")
    assert.truthy(has(out, "\nPlayer 2 plays grain on slot 4: grain shows 1; Player 2 earns 2, Player 1 earns 2\n"
      .. "Player 1 to choose (phase 1).\nUndid 1 move: Player 2: play grain on slot 4\nPlayer 2 to choose (phase 2).\n"),
      out)
  end)

  it("play: the same, in the undo and in what the other person is asked", function()
    local out = run("play --players 2 --seed 3", TO_PLAY:gsub("do ", "") .. "4\nundo\nyes\n")
    assert.truthy(has(out, "\nOf your moves it takes back: pass; play grain on slot 4.\n"), out)
    assert.truthy(has(out, "\nUndid 3 moves: Player 1: draw; Player 2: pass; Player 2: play grain on slot 4\n"), out)
  end)

  it("a play on several slots stays plural, as in the log", function()
    local dir = support.tmpdir()
    local g = kontor.new_game { players = 2, seed = 1, scenario = {
      market = { "grain", "wood", "fish", "spices", "cloth", "porcelain" },
      hands = { { "fish", "fish", "grain" }, { "wood" } }, ships = { { "fish", "grain" }, { "wood", "cloth" } },
      phase = "phase2" } }
    assert(g:save(dir .. "/g.json"))
    local out = run("--load " .. dir .. "/g.json", "do play fish on slots 1,4\nundo\ndo play fish on slots 3\nundo\n")
    os.execute("rm -rf " .. support.sh_quote(dir))
    assert.truthy(has(out, "Player 1 plays fish on slots 1,4: fish shows 3; Player 1 earns 3\n"), out)
    assert.truthy(has(out, "\nUndid 1 move: Player 1: play fish on slots 1,4\n"), out)
    assert.truthy(has(out, "\nPlayer 1 plays fish on slot 3: fish shows 1; Player 1 earns 1\n"), out)
    assert.truthy(has(out, "\nUndid 1 move: Player 1: play fish on slot 3\n"), out)
  end)

  it("changes a word's number only where the log says it so (not Caribbean's 'Trades 1')", function()
    local lines = { "Player 2 plays grain on slot 4: grain shows 1" }
    assert.are.equal("play grain on slot 4", ui.log_number("play grain on slots 4", lines))
    assert.are.equal("play grain on slots 1,4", ui.log_number("play grain on slots 1,4", { "plays grain on slots 1,4" }))
    assert.are.equal("take Trades 1", ui.log_number("take Trades 1", { "Ann takes Trades 1" }))
    -- "slot 4" inside "slot 40" or "slot 4,5" is not the form
    assert.are.equal("play on slots 4", ui.log_number("play on slots 4", { "on slot 40", "on slot 4,5" }))
    assert.are.equal("play on slots 4", ui.log_number("play on slots 4", nil))
  end)
end)

describe("TAB on an action", function()
  it("completes in any letter case, to the option's own spelling", function()
    -- before: "LOAD gr" and "load GR" matched no option (completion compared as spelt)
    local opts = { "load grain on ship 1", "load grain on ship 2", "load wood on ship 1", "pass" }
    local out, add = ui.adder()
    ui.complete_options(add, opts, "LOAD gr", "gr")
    ui.complete_options(add, opts, "load GR", "GR")
    ui.complete_options(add, opts, "Load Grain On Ship ", "")
    assert.are.same({ "grain", "1", "2" }, out)
    out, add = ui.adder()
    ui.complete_option_words(add, opts, "LO")
    ui.complete_option_words(add, opts, "Pa")
    ui.complete_option_words(add, opts, "x")
    assert.are.same({ "load", "pass" }, out)
  end)

  it("the REPL's completer offers the rule set's spelling for a line in another case", function()
    local repl = require "repl"
    local g = kontor.new_game { players = 2, seed = 3 }
    local sess = repl.session(kontor, g)
    assert.are.same({ "grain" }, sess:complete("GR", "LOAD GR"))
    assert.are.same({ "load" }, sess:complete("Lo", "Lo"))
    assert.are.same({ "ship" }, sess:complete("S", "do load grain ON S"))
  end)
end)

describe("a hand_limit size below what the variants deal", function()
  local dir
  before_each(function()
    dir = support.tmpdir()
    support.write(dir .. "/deal_five.lua", [[
return { variant = true, name = "deal_five", base = "sea_merchants", summary = "5 cards dealt",
         apply = function(R) R.data.hand_at_start = 5 end }
]])
  end)
  after_each(function() os.execute("rm -rf " .. support.sh_quote(dir)) end)

  it("is bad command-line input: exit 2, the message as it was", function()
    -- before: exit 1, as for a rule script that fails
    local MSG = "variant hand_limit: option size of hand_limit: 4 is below the 5 cards each player is dealt (S3)"
    for _, cmd in ipairs { "", "play ", "sim --games 1 " } do
      local out, code = support.run(support.binary() .. " " .. cmd .. "--variant " .. dir
        .. "/deal_five.lua --variant hand_limit:size=4 --players 2")
      assert.are.equal("kontor: " .. (cmd:match("^sim") and "sim: " or "") .. MSG .. "\nTry 'kontor --help'.\n", out)
      assert.are.equal(2, code)
    end
    local ok, e = pcall(kontor.new_game, { players = 2, variants = { dir .. "/deal_five.lua", "hand_limit:size=4" } })
    assert.is_false(ok)
    assert.are.equal("usage", e.kind)
    assert.are.equal(MSG, e.message)
  end)

  it("a refusal the script caught, then another error: that error is the script's (kind rules)", function()
    support.write(dir .. "/caught.lua", [[
return { variant = true, name = "caught", base = "sea_merchants", summary = "fails",
         apply = function(R) pcall(kontor.bad_option, "never mind"); error("broken on purpose", 0) end }
]])
    local ok, e = pcall(kontor.new_game, { players = 2, variants = { dir .. "/caught.lua" } })
    assert.is_false(ok)
    assert.are.equal("rules", e.kind)
    assert.truthy(support.has(e.message, "variant caught: broken on purpose"), e.message)
  end)
end)

describe("a game number out of the run", function()
  it("is refused in one wording by kontor sim --game and kontor.sim{ only = }", function()
    -- before: "sim: --game 5: there are 3 games (--games)" and "--game must be a whole number, not 'x'"
    local sim = kontor.sim
    for _, c in ipairs { { "5", 5, "not 5" }, { "0", 0, "not 0" }, { "x", "x", "not 'x'" }, { "1.5", 1.5, "not 1.5" } } do
      local out, code = support.run(support.binary() .. " sim --games 3 --game " .. c[1])
      assert.are.equal("kontor: sim: --game must be a whole number from 1 to 3, " .. c[3] .. "\nTry 'kontor --help'.\n",
        out)
      assert.are.equal(2, code)
      local ok, e = pcall(sim, { games = 3, only = c[2] })
      assert.is_false(ok)
      assert.are.equal("kontor.sim: only must be a whole number from 1 to 3, " .. c[3], tostring(e))
    end
    local out, code = support.run(support.binary() .. " sim --games 3 --game 3.0 --seed 1")
    assert.truthy(has(out, "\ngame         3 of the run with seed 1\n"), out)
    assert.are.equal(0, code)
  end)
end)
