-- owtable_screen_spec.lua: what `kontor play --rules old_world` (and the
-- REPL) shows a player at a 40-row terminal: the bids in a few lines, not
-- one a gold (at 23 gold: 24 lines, pushing the board off the screen); the
-- board's 7-line key once a turn, not again at every step of a build order.
local support = require "tests.lua.support"

local has = support.has
local run = support.kontor_rc   -- the output, then "rc=" and the exit status

-- A 2-player game where Ann has 23 gold and Bob 24 (he holds the token).
local RICH = "--rules old_world --players 2 --names Ann,Bob --seed 7 --option start_gold=23"

describe("Old World's bids at the terminal", function()
  it("play: a range line, the numbers it takes, and the texts parse as before", function()
    local out = run("play " .. RICH, "bid 17\n19\nmoves\n")
    assert.truthy(has(out, "\nAnn, your move (bid):\n"
      .. "1-24  bid 0-23  (bid N: pay N gold, lost; higher bids pick first (O12); you have 23)\n"
      .. "      type bid 0 to bid 23, or the option's number: 1 to 24\n--- Bob's turn"), out)
    assert.falsy(has(out, "  bid 5  ("), out)
    -- the option's number and the canonical text still do what they did
    assert.truthy(has(out, "\n1  Ann: bid 17\n2  Bob: bid 18\n"), out)
  end)

  it("the REPL's options: the same line", function()
    local out = run(RICH, "options\n")
    assert.truthy(has(out, "1-24  bid 0-23  (bid N: pay N gold, lost; higher bids pick first (O12); you have 23)\n"
      .. "      type bid 0 to bid 23, or the option's number: 1 to 24\n"), out)
  end)

  it("at 3 gold too; a run whose descriptions differ otherwise, or shorter, stays one a line", function()
    local out = run("play --rules old_world --players 2 --names Ann,Bob --seed 7", "bid 1\nbid 0\nmoves\n")
    assert.truthy(has(out, "\n1-4  bid 0-3  (bid N: pay N gold, lost; higher bids pick first (O12); you have 3)\n"), out)
    local lines = {}
    local sess = { say = function(_, ...)
      local t = {}
      for i, p in ipairs { ... } do t[i] = require("kontor.text").piece(p) end
      lines[#lines + 1] = table.concat(t)
    end, c = function(_, _, text) return text end }
    local costs = { ["sail 1"] = "1 gold", ["sail 2"] = "2 gold", ["sail 3"] = "3 gold, a storm", ["sail 4"] = "4 gold" }
    require("ui").print_options(sess, { "sail 1", "sail 2", "sail 3", "sail 4", "wait 1", "wait 2", "wait 3" }, nil,
      function(o) return costs[o] end)
    assert.are.same({ "  1  sail 1  (1 gold)", "  2  sail 2  (2 gold)", "  3  sail 3  (3 gold, a storm)",
      "  4  sail 4  (4 gold)", "  5  wait 1", "  6  wait 2", "  7  wait 3" }, lines)
  end)

  it("a refused bid names the bids as the list does, one range, in play and the REPL alike", function()
    local want = "'bid 99' is not a legal action: you have 23 gold; expected one of: bid 0-23\n"
    assert.truthy(has(run("play " .. RICH, "bid 99\n"), "\n" .. want), "play")
    assert.truthy(has(run(RICH, "1: bid 99\n"), want), "repl")
  end)

  it("the engine's list of texts: runs of four or more alike as ranges, the rest one by one, 12 at most", function()
    local list = require("kontor.text").option_list
    assert.are.equal("sail 1-4, wait 1, wait 2, wait 3, pass",
      list { "sail 1", "sail 2", "sail 3", "sail 4", "wait 1", "wait 2", "wait 3", "pass" })
    -- not counting up by one, or not at the end: one by one
    assert.are.equal("go 1, go 3, go 5, go 7, 1 go, 2 go, 3 go, 4 go",
      list { "go 1", "go 3", "go 5", "go 7", "1 go", "2 go", "3 go", "4 go" })
    local many = {}
    for i = 1, 20 do many[#many + 1] = "take " .. string.char(96 + i) end
    for i = 0, 9 do many[#many + 1] = "bid " .. i end
    assert.are.equal("take a, take b, take c, take d, take e, take f, take g, take h, take i, take j, take k, "
      .. "take l, ... (30 in all)", list(many, 12))
    assert.are.equal("take a, take b, bid 0-9", list({ "take a", "take b", table.unpack(many, 21) }, 3))
  end)
end)

-- The times `text` occurs in `s`.
local function count(s, text)
  local n, at = 0, 1
  while true do
    local i = s:find(text, at, true)
    if not i then return n end
    n, at = n + 1, i + #text
  end
end

describe("Old World's board key at the terminal", function()
  -- Ann's turn 1 in play, to her order's third step: her bid, her pick,
  -- then acquire, release and assign, each with the board again
  local TO_ASSIGN = "bid 1\nbid 0\npick land worker\nacquire land:woad_plantation\ndone\n"

  it("play: the key shows with a seat's first board of a turn, not at each step of its order", function()
    -- against a bot, Ann's turn 1 (her bid, her pick, her order's three
    -- steps, each with the board), to her bid of turn 2
    local out = run("play --rules old_world --players 2 --names Ann,Bob --seed 7 --bot 2=random",
      "bid 1\npick land worker\nacquire land:woad_plantation\ndone\nassign woad_plantation\n")
    local turn1, turn2 = out:match("^(.*)\n(Old World turn 2, bid.*)$")
    assert.truthy(turn1, out)
    assert.are.equal(1, count(turn1, "Key: pool s/l/f"), turn1)
    assert.are.equal(1, count(turn2, "Key: pool s/l/f"), turn2)
    local order = turn1:match("\n(Old World turn 1, build.*)$")
    assert.are.equal(3, count(order, "Your card as your order leaves it:"), order)
    assert.are.equal(0, count(order, "Tiles (staffed/slots)"), order)
    -- hot-seat: each seat's first board of the turn has it, Ann's order none
    out = run("play --rules old_world --players 2 --names Ann,Bob --seed 7", TO_ASSIGN)
    assert.are.equal(2, count(out, "Key: pool s/l/f"), out)
    assert.are.equal(0, count(out:match("\n(Old World turn 1, build.*)$"), "Key: pool s/l/f"), out)
  end)

  it("play: board, when asked, shows it mid-order; the next turn shows it again", function()
    local out = run("play --rules old_world --players 2 --names Ann,Bob --seed 7", TO_ASSIGN .. "board\n")
    local asked = out:match("\nAnn, your secret order %(build order%): acquire land:woad_plantation, done so far; "
      .. "next: assign%..-\n(Old World turn 1, build.*)$")
    assert.truthy(asked, out)
    assert.truthy(has(asked, "\nKey: pool s/l/f = seamen, land and facility workers in the pool; [token] =\n"), asked)
    assert.truthy(has(asked, "\nTiles (staffed/slots): sheep = Sheep Herding, woad = Woad Plantation.\n"), asked)
  end)

  it("the engine: g:show(seat, { key = false }) leaves the key out, and only the key", function()
    local kontor = require "kontor"
    local g = kontor.new_game { rules = "old_world", players = 3, seed = 1, names = { "Ann", "Bob", "Cy" },
      scenario = { phase = "build", line = {}, gold = { 12, 12, 12 } } }
    assert(g:apply("1: acquire building:dye_house"))
    local full, short = g:show(1), g:show(1, { key = false })
    local key = full:match("\n(Key: .-)\nYour card as your order leaves it:")
    assert.truthy(key, full)
    assert.are.equal(full:gsub("\nKey: .-\nYour card", "\nYour card"), short)
    assert.are.equal(g:show(), g:show(nil, {}))
    assert.has_error(function() g:show(1, "no key") end,
      "bad argument #2 to 'show' (a table such as { key = false } expected, got string)")
    -- a rule set without a key of its own shows the same board either way
    local sm = kontor.new_game { players = 2, seed = 3 }
    assert.are.equal(sm:show(1), sm:show(1, { key = false }))
  end)
end)

local tmux = dofile("tests/repl/tmux.lua")
local pty = tmux.available() and describe or pending

pty("Ctrl-C while a bot enters its build order (tmux)", function()
  local session, home = support.terminals(before_each, after_each)

  it("leaves the person's own board and prompt, with no 'press Enter' beside it", function()
    -- Ann and Bob (a slow mcts bot) at the build orders of turn 1
    local kontor = require "kontor"
    local g = kontor.new_game { rules = "old_world", players = 2, seed = 7, names = { "Ann", "Bob" } }
    for _, a in ipairs { "1: bid 1", "2: bid 0", "1: pick land worker" } do assert(g:apply(a)) end
    assert.are.equal("orders", g:decision().kind)
    local file = home() .. "/orders.json"
    assert(g:save(file))
    local t = session(support.binary() .. " play --load " .. file .. " --bot 2=mcts:iterations=2000000",
      { NO_COLOR = "1" }, 120, 40)
    assert.truthy(t:wait_for("Kontor ", 10, true), t:screen())
    os.execute("sleep 0.5")
    t:send("C-c")
    local s = t:wait_for("\nAnn>$", 10)
    assert.truthy(s, t:screen())
    assert.truthy(has(s, "\nBob (bot) has not finished its order (Ctrl-C): it goes on after your next line.\n"
      .. "Old World turn 1, build"), s)
    assert.truthy(has(s, "\nAnn, your secret order (build order): nothing so far; next: acquire.\n"), s)
    assert.falsy(has(s, "press Enter"), s)
    assert.falsy(has(s, "interrupted"), s)
    t:send("C-d")
    s = t:wait_for("%[exit 0%]", 10)
    assert.truthy(s and has(s:gsub("\n", ""), "The game is not over: saved 3 moves to "), s or t:screen())
  end)

  it("names two bots stopped in their orders in one line, in the plural", function()
    -- Ann with Bob and Cy (slow mcts bots) at the build orders of turn 1:
    -- the line once read "Bob, Cy (bot) has not finished its order"
    local kontor = require "kontor"
    local g = kontor.new_game { rules = "old_world", players = 3, seed = 7, names = { "Ann", "Bob", "Cy" } }
    for _, a in ipairs { "1: bid 1", "2: bid 0", "3: bid 0" } do assert(g:apply(a)) end
    while g:decision().kind ~= "orders" do
      local seat = g:who()
      assert(g:apply(seat .. ": " .. g:options(seat)[1]))
    end
    local file = home() .. "/orders3.json"
    assert(g:save(file))
    local t = session(support.binary() .. " play --load " .. file
      .. " --bot 2=mcts:iterations=2000000 --bot 3=mcts:iterations=2000000", { NO_COLOR = "1" }, 120, 40)
    assert.truthy(t:wait_for("Kontor ", 10, true), t:screen())
    os.execute("sleep 0.5")
    t:send("C-c")
    local s = t:wait_for("\nAnn>$", 10)
    assert.truthy(s, t:screen())
    assert.truthy(has(s, "\nBob and Cy (bots) have not finished their orders (Ctrl-C): they go on after your "
      .. "next line.\nOld World turn 1, build"), s)
    t:send("C-d")
    assert.truthy(t:wait_for("%[exit 0%]", 10), t:screen())
  end)
end)
