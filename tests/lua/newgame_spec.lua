-- newgame_spec.lua: a new game written from the docs alone
-- (tests/rulesets/pairs.lua, Pairs: a deck, hands each seat sees only its
-- own of, a face-up discard, one option), played as a designer plays it;
-- and what that designer met: a misspelt function of the rule set
-- (R.veiw, R.estimat) was left out without a word, and a rule set for
-- exactly 2 players said "is for 2 to 2 players"; two greedy seats
-- passed the discard back and forth for ever (the game now has a turn
-- limit, and docs/balance.md and docs/bots.md say what it cost).
local support = require "tests.lua.support"
local seat = require "kontor.seat"

local PAIRS = "tests/rulesets/pairs.lua"

local function play_first(seed, options)
  local g = kontor.new_game { rules = PAIRS, seed = seed, options = options, quiet = true }
  while not g:over() do assert(g:apply(1)) end
  return g
end

describe("Pairs, a new game from the docs", function()
  local tmp, cleanup = support.scratch()
  teardown(cleanup)

  it("plays seeded games to their scores (always the first option: draw, then meld or the lowest discard)", function()
    for _, c in ipairs { { 1, "20 8" }, { 2, "32 38" }, { 3, "7 7" } } do
      local g = play_first(c[1])
      assert.equal(c[2], table.concat(g:result().scores, " "), "seed " .. c[1])
      assert.equal(30, #g:actions())   -- 15 cards drawn, each turn a draw and a keep
    end
  end)

  it("the option hand_penalty changes a score by the cards left in hand", function()
    local on, off = play_first(1), play_first(1, { hand_penalty = false })
    assert.equal("20 8", table.concat(on:result().scores, " "))
    assert.equal("26 14", table.concat(off:result().scores, " "))
    assert.equal("6", table.concat(on:view(1).hand, ","))   -- one 6 left in each hand
    assert.equal("6", table.concat(on:view(2).hand, ","))
  end)

  it("each seat sees its own hand and not the other's", function()
    local g = kontor.new_game { rules = PAIRS, seed = 1 }
    assert.equal("5,3,4,3", table.concat(g.hands[1]:cards(), ","))
    assert.equal("4,1,1,2", table.concat(g.hands[2]:cards(), ","))
    local shown = table.concat({ "{", "  active = 1,", "  deck = 15,", "  discard = 5,", "  hand = { 4, 1, 1, 2 },",
      "  hand_sizes = { 4, 4 },", "  points = { 0, 0 },", "  seat = 2,", "  to_move = 1,", "  turn = 1", "}" }, "\n")
    assert.equal(shown, seat.view(g, 2).board())
    assert.falsy(seat.view(g, 2).board():find("5, 3, 4, 3", 1, true))
    assert.is_nil(seat.view(g, 2).options())
    -- seat 1 draws: the card is in its hand, and seat 2 reads only that it drew
    assert(g:apply("draw"))
    assert.equal("5,3,4,3,6", table.concat(g:view(1).hand, ","))
    assert.equal("4,1,1,2", table.concat(g:view(2).hand, ","))
    assert.same({ "Player 1 draws a card" }, seat.view(g, 2).log())
    -- a bot's imagined copy deals seat 1's hand again, from the cards seat 2 cannot see
    local copy = seat.view(g, 2).sample(kontor.rng(7))
    assert.equal("4,1,1,2", table.concat(copy.hands[2]:cards(), ","))
    assert.equal(5, copy.hands[1]:count())
  end)

  it("why, undo and the bots: the rule set's reasons, and greedy on R.estimate", function()
    local g = kontor.new_game { rules = PAIRS, seed = 1, quiet = true }
    assert.equal("'take 2' is not a legal action: the discard shows 5; expected one of: draw, take 5", g:why("take 2"))
    assert(g:apply("take 5"))
    assert.equal("'meld 2' is not a legal action: you hold 0 card(s) of 2; a meld needs two; expected one of: "
      .. "meld 3, meld 5, discard 3, discard 4, discard 5", g:why("meld 2"))
    assert(g:apply("meld 3"))
    assert.equal(6, g.points:get(1))
    g:undo()
    assert.equal(0, g.points:get(1))
    local out, code = support.run(support.plain_binary() .. " play --rules " .. PAIRS
      .. " --bot 1=greedy --bot 2=random --seed 3")
    assert.equal(0, code, out)
    assert.truthy(support.has(out, "Game over. Final scores:\n  Player 1    23  winner\n  Player 2     4\n"), out)
  end)

  it("two greedy seats, who like the discard's known card, end at the 60-turn limit", function()
    -- (before the limit, games 5 and 7 stop short of an empty deck: such a
    -- game of worth's went on to the lab's 100000 steps, docs/balance.md)
    local bots = require "kontor.bots"
    local ends = {}
    for _, s in ipairs { 5, 6, 7 } do
      local g = kontor.new_game { rules = PAIRS, seed = s, quiet = true }
      local b = { bots.new("greedy", 1, s), bots.new("greedy", 2, s) }
      while not g:over() do
        local who = g:who()
        assert(g:apply(b[who]:choose(seat.view(g, who)), who))
      end
      ends[#ends + 1] = string.format("%d: turn %d, deck %d, %s", s, g.turn, g.deck:count(),
        table.concat(g:result().scores, " "))
    end
    assert.same({ "5: turn 60, deck 1, 24 24", "6: turn 21, deck 0, 27 5", "7: turn 60, deck 4, 30 20" }, ends)
  end)

  it("greedy plays by R.estimate: a pair in hand counted as its meld, greedy never melds (docs/bots.md)", function()
    local src = support.read(PAIRS)
    local est = "v = v + (c[r] // 2) * r * (g.options.hand_penalty and 1 or 1.5)"
    assert.truthy(support.has(src, est))
    local f = support.write(tmp("first_estimate.lua"), (src:gsub(est:gsub("%p", "%%%0"), "v = v + (c[r] // 2) * 2 * r", 1)))
    for _, c in ipairs { { PAIRS, "28.7%" }, { f, "95.0%" } } do
      local out, code = support.run(support.plain_binary() .. " ladder --rules " .. c[1] .. " --deals 20 random greedy")
      assert.equal(0, code, out)
      assert.truthy(support.has(out, "  random vs greedy: " .. c[2] .. " of 40 games\n"), out)
    end
  end)

  it("a misspelt function of a rule set is refused at its line, not left out", function()
    local src = support.read(PAIRS)
    for _, c in ipairs {
      { "function R.view(g, seat)", "function R.veiw(g, seat)", "veiw", "view" },
      { "function R.estimate(g, seat)", "function R.estimat(g, seat)", "estimat", "estimate" },
      { "players = { min", "player = { min", "player", "players" },
    } do
      local f = support.write(tmp(c[3] .. ".lua"), (src:gsub(c[1]:gsub("%p", "%%%0"), c[2], 1)))
      local line = 0
      for n, l in ipairs(support.lines(support.read(f))) do
        if line == 0 and l:find(c[2], 1, true) then line = n end
      end
      local ok, e = pcall(kontor.new_game, { rules = f, seed = 1 })
      assert.is_false(ok)
      assert.equal(string.format("%s:%d: R.%s is not a field the engine reads, so the game would be played "
        .. "without it: did you mean R.%s? (docs/api.md, \"Functions a rule set may define\")", f, line, c[3], c[4]),
        e.message)
    end
  end)

  it("a designer's own field near an engine name but of another kind is left alone", function()
    -- R.names (a list) is not a misspelt R.name (a text), nor R.views (a table) R.view (a function)
    local src = support.read(PAIRS):gsub("\nreturn R%s*$", "\nR.names = { \"ace\", \"two\" }\nR.views = {}\n"
      .. "function R.scorer(g) return 0 end\nreturn R\n")
    local f = support.write(tmp("own_fields.lua"), src)
    local ok, e = pcall(kontor.new_game, { rules = f, seed = 1 })
    -- a function one letter from R.score is still taken for its misspelling
    assert.is_false(ok)
    assert.truthy(e.message:find("R.scorer is not a field the engine reads", 1, true), e.message)
    support.write(f, (src:gsub("function R.scorer%(g%) return 0 end\n", "")))
    local g = kontor.new_game { rules = f, seed = 1 }
    assert.are.same({ "ace", "two" }, g.R.names)
  end)

  it("a rule set for exactly 2 players says so", function()
    local ok, e = pcall(kontor.new_game, { rules = PAIRS, players = 3 })
    assert.is_false(ok)
    assert.equal("pairs is for 2 players, not 3", e.message)
    local out, code = support.run(support.plain_binary() .. " sim --rules " .. PAIRS .. " --players 3")
    assert.equal(2, code)
    assert.equal("kontor: sim: pairs is for 2 players, not 3\nTry 'kontor --help'.\n", out)
  end)
end)
