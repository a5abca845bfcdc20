-- A game designer's pass over Merchants of the Old World and Merchants of
-- the Caribbean (docs/designing-variants.md, docs/repl.md, docs/balance.md
-- on the rule sets other than Sea Merchants): a variant edited and
-- reloaded in the middle of a secret build order, what the REPL shows a
-- seat of it, and what the lab's numbers mean for these rule sets.

local support = require "tests.lua.support"
local moves = require "kontor.balance.moves"

local tmp, cleanup = support.scratch()
teardown(cleanup)
local q = support.sh_quote

-- Old World with the Power Loom at `cost` gold (a building's cost changed
-- through R.data, docs/rules/old_world.md "Components").
local function loom_variant(path, cost)
  return support.old_world_cost_variant(path, "cheap_loom", "power_loom", "Power Loom", "loom", cost)
end

-- Two seats, seed 1: both bid 0, the picks are forced, and the build order
-- opens; seat 2 enters its first two steps, then seat 1 buys the Power Loom
-- (3 gold: all it has).
local ORDER = { "1: bid 0", "2: bid 0", "2: acquire building:tavern", "2: done", "1: acquire building:power_loom" }

describe("a reload in the middle of a secret build order", function()
  it("that no longer fits one seat's step keeps the other seats' steps in place", function()
    local v = loom_variant(tmp("loom_a.lua"), 3)
    local g = kontor.new_game{ rules = "old_world", variants = { v }, players = 2, seed = 1 }
    for _, m in ipairs(ORDER) do assert(g:apply(m)) end
    assert.are.same({ "acquire building:tavern", "done" }, g:pending(2))
    loom_variant(v, 5)                        -- now seat 1 cannot pay for it
    local ok, msg = g:reload()
    assert.is_nil(ok)
    assert.is_truthy(support.has(msg, "stopped before move 3 '1: acquire building:power_loom': "
      .. "'acquire building:power_loom' is not a legal action: the Power Loom costs 5 gold and you have 3"), msg)
    -- seat 2's order is as it entered it; only seat 1's step is held
    assert.are.same({ "acquire building:tavern", "done" }, g:pending(2))
    assert.are.same({}, g:pending(1))
    assert.are.same({ { 1, "acquire building:power_loom" } }, g:held_moves())
    assert.are.same({ "1: bid 0", "2: bid 0" }, g:actions(1))
    -- the rule put back: the whole game again
    loom_variant(v, 3)
    local ok2, n = g:reload()
    assert.are.same({ true, 5 }, { ok2, n })
    assert.are.same({ "acquire building:power_loom" }, g:pending(1))
    assert.are.same({ "acquire building:tavern", "done" }, g:pending(2))
  end)

  it("in a simultaneous bid keeps the other seats' bids", function()
    local v = tmp("poor.lua")
    local function poor(gold)
      support.write(v, ('return { variant = true, name = "poor", base = "old_world",\n'
        .. '  apply = function(R) R.options.start_gold.default = %d end }\n'):format(gold))
    end
    poor(3)
    local g = kontor.new_game{ rules = "old_world", variants = { v }, players = 3, seed = 1 }
    assert(g:apply("3: bid 0")); assert(g:apply("1: bid 2"))
    poor(1)
    local ok, msg = g:reload()
    assert.is_nil(ok)
    assert.are.equal("reloaded; stopped before move 1 '1: bid 2': 'bid 2' is not a legal action: you have 1 gold; "
      .. "expected one of: bid 0, bid 1 (1 move from there on kept: put the rule back and reload, or redo)", msg)
    assert.are.same({ "3: bid 0" }, g:actions())
    assert.are.same({ { 1, "bid 2" } }, g:held_moves())
    assert.are.same({ 1, 2 }, g:who())
  end)

  it("in the REPL, shown as another seat, does not name the secret step", function()
    local v = loom_variant(tmp("loom_b.lua"), 3)
    local input = table.concat(ORDER, "\n") .. "\nas 2\n"
      .. "os.execute(" .. ("%q"):format("sed -i 's/default = 3,/default = 5,/' " .. q(v)) .. ")\n"
      .. "reload\nmoves\n"
    local all = support.run(support.plain_binary() .. " --variant " .. q(v) .. " --players 2 --seed 1", input)
    local out = all:match("Showing what Player 2 %(seat 2%) sees.*$")
    assert.is_falsy(support.has(out, "power_loom"), out)
    assert.is_truthy(support.has(out, "reloaded; stopped before a secret step of Player 1 that no longer fits "
      .. "the rules (1 move from there on kept: put the rule back and reload, or redo)"), out)
    -- seat 2 still sees its own order
    assert.is_truthy(support.has(out, "3  Player 2: acquire building:tavern\n4  Player 2: done\n"), out)
  end)
end)

describe("the kinds of moves of Old World", function()
  it("name a bid by its word: 'bid 3' is of kind 'bid', not '#'", function()
    assert.are.equal("bid", moves.kind_of("bid 3"))
    assert.are.equal("play fish", moves.kind_of("play fish on slots 1,4"))
    assert.are.equal("#", moves.kind_of("2"))
  end)
end)

describe("the first-player advantage of Old World", function()
  it("is that of the seat drawn to take the first turn (O9), game by game, not of seat 1", function()
    local out_file = tmp("games.jsonl")
    local out = support.run(support.plain_binary() .. " sim --rules old_world --players 2 --games 100 --json --jobs 1"
      .. " --games-out " .. q(out_file))
    local m = kontor.core.json.decode(out).measures
    assert.are.equal("first-player advantage (who took the first turn)", m.first_player.label)
    local sum, n = 0, 0
    for line in support.read(out_file):gmatch("[^\n]+") do
      local rec = kontor.core.json.decode(line)
      local first = kontor.new_game{ rules = "old_world", players = 2, seed = rec.seed }:view(1).first
      for _, w in ipairs(rec.winners) do
        if w == first then sum = sum + 1 / #rec.winners end
      end
      n = n + 1
    end
    assert.are.equal(100, n)
    assert.is_true(math.abs(m.first_player.mean - (sum / n - 0.5)) < 1e-6, m.first_player.mean .. " " .. sum / n)
    -- seat 1's win rate less a half is another number here
    assert.is_true(math.abs(m.first_player.mean - (m["win_rate.1"].mean - 0.5)) > 0.01)
    -- where the first player is fixed, the label names the seat
    local sm = kontor.core.json.decode(support.run(support.plain_binary()
      .. " sim --rules caribbean --option first_player=2 --games 20 --json --jobs 1")).measures
    assert.are.equal("first-player advantage (seat 2)", sm.first_player.label)
  end)
end)

describe("kontor sim on Caribbean", function()
  it("says how many games ended without a winner (C9), so that the wins add up", function()
    -- 4 players, seed 1, 200 games: game 78 ends with nobody holding an
    -- expedition (scores 6, 8, 8, 4), so nobody wins it
    local cmd = support.plain_binary() .. " sim --rules caribbean --option first_player=1 --games 200 --seed 1"
    local plain = kontor.core.json.decode(support.run(cmd .. " --json"))
    local lab = kontor.core.json.decode(support.run(cmd .. " --json --jobs 1"))
    local sum = 0
    for _, w in ipairs(plain.wins) do sum = sum + w end
    assert.are.equal(lab.no_winner, plain.no_winner)
    assert.is_true(plain.no_winner > 0)
    assert.are.same({ 0, 200 }, { plain.shared_wins, sum + plain.no_winner })
    local text = support.run(cmd)
    assert.is_truthy(text:find(("games shared, %d without a winner)\n"):format(plain.no_winner), 1, true), text)
    -- where every game has a winner the summary stays as it was
    local sm = kontor.core.json.decode(support.run(support.plain_binary() .. " sim --games 20 --json"))
    assert.is_nil(sm.no_winner)
  end)
end)

describe("undo in the REPL shown as a seat, in the middle of Old World's bids", function()
  it("says whose bid it took back, not what it was", function()
    local out = support.run(support.plain_binary() .. " --rules old_world --players 3 --seed 1",
      "1: bid 2\n2: bid 1\nas 3\nundo\nredo\nas all\nundo\n")
    assert.are.equal(table.concat({
      "Player 2, Player 3 to choose (bid).",
      "Player 3 to choose (bid).",
      "Showing what Player 3 (seat 3) sees; `as all` shows everything.",
      "Undid 1 move: Player 2: (secret)",
      "Player 2, Player 3 to choose (bid).",
      "Redid 1 move.",
      "Player 3 to choose (bid).",
      "Showing everything.",
      "Undid 1 move: Player 2: bid 1",       -- everything shown: the designer sees it
      "Player 2, Player 3 to choose (bid).",
    }, "\n") .. "\n", out)
  end)
end)

describe("prev and next in the REPL shown as a seat, in the middle of Old World's bids", function()
  it("show another seat's open bid as (secret)", function()
    local out = support.run(support.plain_binary() .. " --rules old_world --players 3 --seed 1",
      "1: bid 2\n2: bid 1\nas 3\nprev\nnext\n")
    assert.are.equal(table.concat({
      "Player 2, Player 3 to choose (bid).",
      "Player 3 to choose (bid).",
      "Showing what Player 3 (seat 3) sees; `as all` shows everything.",
      "Back: Player 2: (secret) (move 1 of 2)",
      "2  Player 2: (secret)",
      "(move 2 of 2)",
    }, "\n") .. "\n", out)
  end)
end)

describe("a reload whose variant no longer loads", function()
  it("says the game is as it was, and it is, secret entries and all", function()
    local v = loom_variant(tmp("loom_c.lua"), 3)
    local g = kontor.new_game{ rules = "old_world", variants = { v }, players = 2, seed = 1 }
    for _, m in ipairs(ORDER) do assert(g:apply(m)) end
    local src = support.read(v)
    support.write(v, (src:gsub("R%.prepare%(%)", "R.prepare(")))       -- a typo: ( not closed
    local ok, msg = g:reload()
    assert.is_nil(ok)
    assert.are.equal("reload failed, the game is as it was: " .. v .. ":9: unexpected symbol near 'end'", tostring(msg))
    assert.are.same({ "acquire building:power_loom" }, g:pending(1))
    assert.are.same({ "acquire building:tavern", "done" }, g:pending(2))
    support.write(v, src)
  end)
end)
