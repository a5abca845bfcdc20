-- option_case_spec.lua: an action is taken in any case when it names one
-- option (kontor.game.parse), in the REPL, play, serve and a bot's
-- restriction alike; what is recorded and shown is the rule set's text.
-- Before, `Load Fish On Ship 2` at the REPL was "unknown command or name
-- 'Load'", `do LOAD fish on ship 2` "'LOAD fish on ship 2' is not a legal
-- action", and `greedy:avoid=Buy Contract` matched no option ("did you
-- mean 'buy contract'?").

local support = require "tests.lua.support"
local bots = require "kontor.bots"

local tmp, cleanup = support.scratch()
teardown(cleanup)

-- A rule set with options that differ only in case ("Sell Fish", "sell
-- fish") beside one in capitals that a second decision extends.
local TWINS = [[
local R = { name = "twins", title = "Twins", summary = "test rule set: options that differ only in case",
  players = { min = 2, max = 2, default = 2 } }
function R.setup(g) g.n = 0 end
function R.play(g)
  while g.n < 4 do
    local seat = g.n % 2 + 1
    g:begin_turn(seat)
    local opts = { "Buy Pear", "Sell Fish", "sell fish", "pass" }
    local o = opts[g:choose(seat, "act", opts)]
    if o == "Buy Pear" then
      local to = { "Buy Pear to Market", "Buy Pear to Home" }
      o = to[g:choose(seat, "where", to)]
    end
    g:log("%s: %s", g.names[seat], o)
    g.n = g.n + 1
  end
end
function R.scores(g) return { 0, 0 } end
return R
]]

describe("an action in another case", function()
  local rules = support.write(tmp("twins.lua"), TWINS)

  it("is the option it names; the record keeps the rule set's text", function()
    local g = kontor.new_game { rules = "sea_merchants", players = 2, seed = 1 }
    assert.is_true(g:apply("Load Fish On Ship 2"))
    assert.is_true(g:apply("LOAD WOOD on Ship 1"))
    assert.are.same({ "1: load fish on ship 2", "2: load wood on ship 1" }, g:actions())
    local t = kontor.new_game { rules = rules, seed = 1 }
    assert.is_true(t:apply("buy pear TO market"))              -- through two decisions
    assert.is_true(t:apply("Sell Fish"))                       -- as spelt: that one
    assert.is_true(t:apply("sell fish"))
    assert.is_true(t:apply("BUY"))                             -- a short form: Buy Pear
    assert.is_true(t:apply("buy pear to home"))
    assert.are.same({ "1: Buy Pear", "1: Buy Pear to Market", "2: Sell Fish", "1: sell fish", "2: Buy Pear",
      "2: Buy Pear to Home" }, t:actions())
    local path = tmp("twins.json")
    local _, serr = t:save(path)
    assert.is_nil(serr)
    assert.truthy(support.read(path):find('"1: Buy Pear to Market"', 1, true))
  end)

  it("with runs of spaces or a tab is the option with one space; the record keeps the rule set's text", function()
    -- was: "'load  fish on ship 2' is not a legal action" (a completion's space and one typed after it)
    local g = kontor.new_game { rules = "sea_merchants", players = 2, seed = 1 }
    assert.is_true(g:apply("load  fish   on ship 2"))
    assert.is_true(g:apply("Load\twood on  ship 1"))
    assert.are.same({ "1: load fish on ship 2", "2: load wood on ship 1" }, g:actions())
    assert.is_nil(g:why("load  grain on ship 1"))
    -- a text that fits nothing with one space is refused as it was typed, the game as it was
    local before = kontor.json.encode(g:state())
    local ok, e = g:apply("load  grain on  ship 9")
    assert.is_nil(ok)
    assert.truthy(e:find("^'load  grain on  ship 9' is not a legal action"), e)
    assert.are.equal(before, kontor.json.encode(g:state()))
  end)

  it("between two options that differ only in case is refused, saying so, the game as it was", function()
    local g = kontor.new_game { rules = rules, seed = 1 }
    local before = kontor.json.encode(g:state())
    local ok, e = g:apply("SELL FISH")
    assert.is_nil(ok)
    assert.are.equal("'SELL FISH' could be Sell Fish, sell fish, which differ only in case: type the one you "
      .. "mean as it is spelt", e)
    ok, e = g:apply("SELL")
    assert.is_nil(ok)
    assert.are.equal("'SELL' is ambiguous: it could be Sell Fish, sell fish (they differ only in case: type the "
      .. "one you mean as it is spelt)", e)
    assert.are.equal(before, kontor.json.encode(g:state()))
    assert.are.same({}, g:actions())
    -- a text that fits nothing lists the options it begins, in any case
    ok, e = g:apply("BUY PEAR to the moon")
    assert.is_nil(ok)
    assert.are.equal("'Buy Pear to the moon' is not a legal action; expected one of: Buy Pear to Market, "
      .. "Buy Pear to Home", e)
  end)

  it("is taken at the REPL, in play and in serve", function()
    local out = support.run(support.binary() .. " --players 2 --seed 1",
      "Load Fish On Ship 2\ndo LOAD wood on SHIP 1\nmoves\n")
    assert.truthy(out:find("\n1  Player 1: load fish on ship 2\n2  Player 2: load wood on ship 1\n", 1, true), out)
    out = support.run(support.binary() .. " play --players 2 --seed 1 --names Ann,Bob", "Load Fish On Ship 2\nmoves\n")
    assert.truthy(out:find("\n1  Ann: load fish on ship 2\n", 1, true), out)
    out = support.run(support.binary() .. " serve", '{"id":1,"op":"new","players":2,"seed":1}\n'
      .. '{"id":2,"op":"apply","game":"g1","action":"Load Fish On Ship 2"}\n{"id":3,"op":"moves","game":"g1"}\n')
    assert.truthy(out:find('{"id":3,"ok":true,"result":{"moves":[{"seat":1,"text":"load fish on ship 2"}]}}', 1, true),
      out)
    -- a move not legal now, in another case: the rule set's reason, not "unknown command"
    out = support.run(support.binary() .. " --players 2 --seed 1", "Buy Dock\n")
    assert.truthy(out:find("'Buy Dock' is not a legal action: now: load a cube on an empty ship", 1, true), out)
    out = support.run(support.binary() .. " play --players 2 --seed 1", "Buy Dock\n")
    assert.truthy(out:find("'Buy Dock' is not a legal action: now: load a cube on an empty ship", 1, true), out)
    -- a one-word option typed alone, in another case: "Pass"
    out = support.run(support.binary() .. " --rules " .. rules .. " --seed 1", "PASS\nmoves\n")
    assert.truthy(out:find("\n1  Player 1: pass\n", 1, true), out)
  end)
end)

describe("a bot's restriction in another case", function()
  it("matches the option (and the decision) it names", function()
    assert.is_true(bots.matches("Buy Contract", "buy_card", "buy contract"))
    assert.is_true(bots.matches("BUY_CARD:Buy contract", "buy_card", "buy contract"))
    assert.is_true(bots.matches("Play Fish", "play_slot", "play fish on slots 1,4"))
    assert.is_false(bots.matches("Play Fis", "play_slot", "play fish on slots 1,4"))
    assert.is_false(bots.matches("dock:Buy Contract", "buy_card", "buy contract"))
    -- the bot avoids it
    local g = kontor.new_game { rules = "sea_merchants", players = 2, seed = 1 }
    local b = bots.new("greedy:avoid=LOAD FISH", 1, 1)
    local opts = g:options(1)
    for _, k in ipairs(b:allowed("load", opts)) do assert.falsy(opts[k]:find("^load fish")) end
    assert.are.equal(10, #b:allowed("load", opts))
  end)

  it("is not warned of as matching nothing; one that takes options differing only in case is", function()
    local out = support.run(support.binary() .. " --players 2 --seed 1", "bot 2=greedy:avoid=Buy Contract\n")
    assert.falsy(out:find("warning", 1, true), out)
    out = support.run(support.binary() .. " --players 2 --seed 1", "bot 2=greedy:avoid=Buy Contrct\n")
    assert.truthy(out:find("matches no option", 1, true), out)
    local rules = support.write(tmp("twins2.lua"), TWINS)
    out = support.run(support.binary() .. " --rules " .. rules .. " --seed 1", "bot 2=greedy:avoid=sell fish\n")
    assert.truthy(out:find("warning: bot 2=greedy: avoid 'sell fish' matches 'Sell Fish' and 'sell fish' of "
      .. "decision act, options that differ only in case, in this setup: a restriction matches an option in "
      .. "either case, so it takes both (the moves typed are taken as spelt there)", 1, true), out)
  end)
end)
