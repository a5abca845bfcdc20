-- redteam5_spec.lua - the fifth red-team pass (docs/security.md, "Red team
-- 5"), on what the session before it added: kontor --list's titles, the
-- R.data guard and its "did you mean", R.decision_words, the skipped
-- decisions a seat is told (v.skipped()), runs of options as ranges, the
-- case-insensitive walk, and bots that refuse to take back what showed a
-- hidden card. The first describes are holes it found, each failing on the
-- code before its fix; the last pin what was tried and held.
-- Run: build/kontor run tests/busted.lua tests/lua/redteam5_spec.lua
local support = require "tests.lua.support"
local seatmod = require "kontor.seat"
local bots = require "kontor.bots"
local ktext = require "kontor.text"

local has, write, sh_quote = support.has, support.write, support.sh_quote
local tmp, cleanup = support.scratch()
teardown(cleanup)

-- A two-seat rule file: `fields` inside R's table, `body` on the lines
-- after it (R.play, and R.setup in place of the empty one).
local function rules(name, fields, body)
  return write(tmp(name .. ".lua"), "local R = { name = '" .. name .. "', title = 'T', summary = 's', "
    .. "players = { min = 2, max = 2, default = 2 }, " .. (fields or "") .. " }; function R.setup(g) end\n"
    .. (body or "function R.play(g) g:choose(1, 'x', { 'a' }) end\n")
    .. "function R.scores(g) return { 0, 0 } end\nreturn R\n")
end

describe("R.data's guard is each rule set's own, out of a script's reach", function()
  -- One metatable served every R.data: a rule set that changed its
  -- __index changed it for every rule set loaded after it in the program
  -- (a variant's base, the lab's other side, serve's next game), whose
  -- reads of a missing name then got what it chose.
  local victim = rules("victim", "data = { gold = 3 }", [[
function R.setup(g) local ok, e = pcall(function() return R.data.golde end); g.seen = tostring(e) end
function R.play(g) g:choose(1, 'x', { 'a' }) end
function R.board(g) return g.seen end
]])
  local poison = rules("poison", "data = { x = 1 }", [[
function R.setup(g)
  local ok, e = pcall(function() getmetatable(R.data).__index = function() return 42 end end)
  local ok2, e2 = pcall(setmetatable, R.data, nil)
  g.seen = tostring(getmetatable(R.data)) .. "; " .. tostring(e2):gsub("^.-:%d+: ", "")
end
function R.play(g) g:choose(1, 'x', { 'a' }) end
function R.board(g) return g.seen end
]])
  local SAID = victim .. ":2: R.data has no 'golde': did you mean 'gold'?"

  it("a script that changed it changes no other rule set's reads", function()
    assert.are.equal(SAID, kontor.new_game({ rules = victim, seed = 1 }):show(1))
    local p = kontor.new_game { rules = poison, seed = 1 }
    assert.are.equal("false; cannot change a protected metatable", p:show(1))
    -- (before: 42, the poison's answer)
    assert.are.equal(SAID, kontor.new_game({ rules = victim, seed = 1 }):show(1))
  end)

  it("its search is one pass: the same names, the same answer, whatever their order", function()
    -- (before: every name sorted in C, uncharged: 1,000,000 names cost
    -- 0.73 s past the step's 0.5 s; now the time limit's hook stops it)
    local big = rules("bigdata", "data = {}", [[
function R.setup(g)
  for i = 1, 3000 do R.data["name" .. i] = i end
  R.data.gold = 1; R.data.Gold = 2; R.data.gild = 3
  local ok, e = pcall(function() return R.data.golds end)
  local ok2, e2 = pcall(function() return R.data.zzzzzzzzzzzzzzzzzzzz end)
  g.seen = tostring(e):gsub("^.-:%d+: ", "") .. "\n" .. tostring(e2):gsub("^.-:%d+: ", "")
end
function R.play(g) g:choose(1, 'x', { 'a' }) end
function R.board(g) return g.seen end
]])
    assert.are.equal("R.data has no 'golds': did you mean 'gold'?\nR.data has no 'zzzzzzzzzzzzzzzzzzzz': its names "
      .. "are Gold, gild, gold, name1, name10, name100, name1000, name1001, name1002, name1003, name1004, name1005, ...",
      kontor.new_game({ rules = big, seed = 1 }):show(1))
  end)
end)

describe("a skip inside a secret order's entry", function()
  -- g:skip was let through in an order entry: seat 1's v.skipped() (and
  -- kontor play's "No choice for ..." greeting) told what seat 2 had
  -- entered while its order was still secret.
  local file = rules("skipentry", nil, [[
local function enter(g, seat)
  local k = g:choose(seat, "pick", { "pick ship", "pick land" })
  if k == 2 then g:skip(seat, "load", "no ship to load") end
  return k
end
function R.play(g) g:choose_orders({ 1, 2 }, "order", enter); g:choose(1, 'x', { 'a' }) end
]])
  local MESSAGE = file .. ":4: g:skip inside seat 2's order entry: an entry only chooses (g:choose) for its own "
    .. "seat and works on its own copy of the state; do that when the orders are revealed"

  it("is refused, and seat 1 learns nothing of seat 2's order", function()
    for _, pick in ipairs { "pick ship", "pick land" } do
      local g = kontor.new_game { rules = file, seed = 1 }
      local ok, err = pcall(g.apply, g, pick, 2)
      if pick == "pick ship" then assert.is_true(ok) else
        assert.is_false(ok)
        assert.are.equal(MESSAGE, tostring(err):match("^[^\n]*"))
      end
      -- (before: { { seat = 2, decision = "load", why = "no ship to load", ... } } after "pick land")
      assert.are.same({}, seatmod.view(g, 1).skipped())
    end
  end)

  it("the simulation refuses it too", function()
    local ok, err = pcall(kontor.sim, { rules = file, games = 4, seed = 1 })
    assert.is_false(ok)
    assert.truthy(has(tostring(err), "g:skip inside seat"), err)
  end)
end)

describe("a log line inside a secret order's entry", function()
  -- refused at the table, but the simulation's quiet g:log returned
  -- before its check: the script's mistake showed only when people played
  local file = rules("logentry", nil, [[
local function enter(g, seat)
  local k = g:choose(seat, "pick", { "pick ship", "pick land" })
  g:log("seat %d picked %d", seat, k)
  return k
end
function R.play(g) g:choose_orders({ 1, 2 }, "order", enter); g:choose(1, 'x', { 'a' }) end
]])

  it("is refused in the simulation as at the table", function()
    local g = kontor.new_game { rules = file, seed = 1 }
    local ok, err = pcall(g.apply, g, "pick ship", 2)
    assert.is_false(ok)
    assert.truthy(has(tostring(err), "g:log inside seat 2's order entry"), err)
    ok, err = pcall(kontor.sim, { rules = file, games = 4, seed = 1 })
    assert.is_false(ok)
    assert.truthy(has(tostring(err), "g:log inside seat"), err)
  end)
end)

describe("undo against a bot of a step that drew from the RNG", function()
  -- A die rolled with math.random (the game's RNG, as docs/api.md says)
  -- showed no hidden card, so a bot agreed to take it back: the same seed
  -- rolls the same again, and the seat knew the roll to come.
  local dice = rules("dice", nil, [[
function R.setup(g) g.points = kontor.counter { n = g.players, min = 0 } end
function R.play(g)
  for _ = 1, 5 do
    for _, p in ipairs(g:turn_order(1)) do
      g:begin_turn(p)
      if g:choose(p, "turn", { "roll", "wait" }) == 1 then
        local d = math.random(6)
        g:log("%s rolls %d", g.names[p], d)
        g.points:add(p, d)
      end
    end
  end
end
function R.scores(g) return g.points:values() end
]])

  it("counts as a chance draw: a bot says no", function()
    local g = kontor.new_game { rules = dice, seed = 7 }
    local v = seatmod.view(g, 1)
    assert(v.apply("roll"))
    assert.are.same({ "Player 1 rolls 5" }, v.log())
    local plan = v.undo_plan(1)
    assert.is_true(plan.unseen)          -- (before: nil, and the bot agreed)
    assert.is_false(bots.agrees(plan))
    assert.are.equal("luck", plan.shown)   -- (a roll, no card: said so)
    assert.are.same({ nil, "seat 2 did not agree: the moves to take back showed what luck gave (a draw, a roll), "
      .. "and seat 1 would know what it gives again once they are taken back" },
      { v.undo(1, function() return false end) })
    -- a move that drew nothing goes back as before
    local g2 = kontor.new_game { rules = dice, seed = 7 }
    assert(g2:apply("wait"))
    assert.is_nil(seatmod.view(g2, 1).undo_plan(1).unseen)
  end)

  it("in kontor play against a bot", function()
    local out = support.kontor_rc("play --rules " .. sh_quote(dice) .. " --seed 7 --names Ann,Bob --bot 2=random",
      "roll\nundo\nmoves\n")
    -- (before: "Undid 2 moves", and Ann knew her next roll)
    assert.truthy(has(out, "\nNot undone: Bob did not agree. A move goes back without the others' consent only when "
      .. "none of theirs goes with it.\n1  Ann: roll\n2  Bob: wait\n"), out)
  end)
end)

describe("a seat's text that goes on past a step that showed a hidden card", function()
  -- The walk of a refused text (and `why`, which walks and takes back)
  -- took the steps, explained the rest at the decision after them and
  -- took them back: "draw then keep zzz" listed the options after the draw,
  -- the top card of the deck, with the game as it was; and "draw then discard
  -- Ace" was refused while "draw then discard Ten" was taken. A free peek, no
  -- undo asked, no other seat's yes.
  local file = rules("drawkeep", nil, [[
local NAMES = { "Ace", "King", "Queen", "Jack", "Ten", "Nine" }
function R.setup(g)
  g.deck = kontor.pile { vis = "hidden" }
  for c = 1, 6 do g.deck:push(c) end
  g.deck:shuffle(g.rng)
  g.shown = kontor.pile { vis = "public" }
  g.kept = kontor.pile { vis = "public" }
end
function R.play(g)
  for _ = 1, 3 do
    for _, p in ipairs(g:turn_order(1)) do
      g:begin_turn(p)
      if g:choose(p, "turn", { "draw", "pass" }) == 1 then
        local c = g.deck:pop(); g.shown:push(c)
        local k = g:choose(p, "place", { "draw then keep " .. NAMES[c], "draw then discard " .. NAMES[c] })
        g.shown:pop(); if k == 1 then g.kept:push(c) end
      end
    end
  end
end
]])
  local function stops(text)
    return "'" .. text .. "': 'draw' shows what was hidden (a card, a draw), and a move's text stops there: type "
      .. "'draw', then the rest once you have seen it"
  end

  it("stops there, whatever the card, and the game is as it was", function()
    local g = kontor.new_game { rules = file, seed = 3 }
    local v = seatmod.view(g, 1)
    local before = kontor.json.encode(g:state())
    -- (before: "'draw then keep zzz' is not a legal action; expected one of: draw then keep Ten, draw then discard Ten")
    assert.are.same({ nil, stops("draw then keep zzz") }, { v.apply("draw then keep zzz") })
    assert.are.equal(stops("draw then keep zzz"), v.why("draw then keep zzz"))
    for _, card in ipairs { "Ace", "Ten" } do        -- (before: Ace refused, Ten taken)
      assert.are.same({ nil, stops("draw then discard " .. card) }, { v.apply("draw then discard " .. card) })
      assert.are.equal(stops("draw then discard " .. card), v.why("draw then discard " .. card))
    end
    assert.are.equal(before, kontor.json.encode(g:state()))
    -- typed as two texts, the draw is seen and stays
    assert(v.apply("draw"))
    assert.are.same({ "draw then keep Ten", "draw then discard Ten" }, v.options())
    assert(v.apply("draw then keep Ten"))
    assert.are.same({ "1: draw then keep Ten" }, v.moves())
  end)

  it("in kontor play", function()
    local out = support.kontor_rc("play --rules " .. sh_quote(file) .. " --seed 3 --names Ann,Bob", "draw then keep zzz\n")
    assert.truthy(has(out, "\n" .. stops("draw then keep zzz") .. "\n"), out)
    assert.falsy(has(out, "Ten"), out)
  end)

  it("the referee's walk and a save's replay take the whole text as before", function()
    local g = kontor.new_game { rules = file, seed = 3 }
    assert.are.same({ nil, "'draw then keep zzz' is not a legal action; expected one of: draw then keep Ten, draw then discard Ten" },
      { g:apply("draw then keep zzz") })
    assert(g:apply("draw then discard Ten"))
    local path = tmp("drawkeep.json")
    assert(g:save(path))
    assert.are.same({ "1: draw then discard Ten" }, kontor.load_game(path):moves())
  end)
end)

describe("runs of options as ranges name only options there are", function()
  it("a number with leading zeros starts no run", function()
    -- (before: "bid 7-10", and 'bid 7' is no option)
    assert.are.equal("bid 007, bid 8, bid 9, bid 10", ktext.option_list { "bid 007", "bid 8", "bid 9", "bid 10" })
    assert.are.equal("bid 0-3", ktext.option_list { "bid 0", "bid 1", "bid 2", "bid 3" })
  end)

  it("a run stops before the integers wrap", function()
    local max = math.maxinteger
    local texts = { "bid " .. (max - 3), "bid " .. (max - 2), "bid " .. (max - 1), "bid " .. max, "bid " .. math.mininteger }
    -- (before: "bid 9223372036854775804--9223372036854775808")
    assert.are.equal("bid 9223372036854775804-9223372036854775807, bid -9223372036854775808", ktext.option_list(texts))
    -- numbers past 2^63 and 10^20 as they are
    assert.are.equal("bid 99999999999999999999, bid 100000000000000000000, bid 9223372036854775808",
      ktext.option_list { "bid 99999999999999999999", "bid 100000000000000000000", "bid 9223372036854775808" })
  end)

  it("in the engine's refusal", function()
    local file = rules("zeros", nil,
      "function R.play(g) g:choose(1, 'bid', { 'bid 007', 'bid 8', 'bid 9', 'bid 10' }) end\n")
    local g = kontor.new_game { rules = file, seed = 1 }
    assert.are.same({ nil, "'bid 7' is not a legal action; expected one of: bid 007, bid 8, bid 9, bid 10" },
      { g:apply("bid 7") })
  end)
end)

describe("kontor --list cuts a title between characters", function()
  it("never inside one", function()
    local dir = tmp("listdir")
    os.execute("mkdir -p " .. sh_quote(dir))
    write(dir .. "/accents.lua", "return { name = 'accents', title = 'xx' .. string.rep('\\195\\169', 45), "
      .. "summary = 'short', players = { min = 2, max = 2 }, setup = function(g) end, play = function(g) end,\n"
      .. "  scores = function(g) return { 0, 0 } end }\n")
    local out = support.run("KONTOR_PATH=" .. sh_quote(dir) .. " COLUMNS=100 " .. support.binary() .. " --list")
    -- (before: "xxéééééééééééééééé\xC3...", 37 bytes and the escaped half)
    assert.truthy(has(out, " xx" .. string.rep("é", 35) .. "...  short\n"), out)
  end)
end)

---------------------------------------------------------------------------
-- What was tried and held
---------------------------------------------------------------------------

describe("held: text from rule scripts reaches the terminal escaped", function()
  local dir = tmp("hostile")
  os.execute("mkdir -p " .. sh_quote(dir))
  write(dir .. "/evil.lua", [[
local R = { name = "evil", title = "T\27]0;pwn\7", summary = "s\27[2J" .. string.rep("y ", 200),
  players = { min = 2, max = 2, default = 2 }, data = { ["gold\27]52;c;eA==\7"] = 1 },
  decision_words = { take = "ta\27[31mke" } }
function R.setup(g) end
function R.play(g)
  local k = g:choose(1, "take", { "take \27[2J", "pass" })
  if k == 2 then local x = R.data["gold\27]52;c;eA==\7x"] end
  g:choose(2, "take", { "take" })
end
function R.scores(g) return { 0, 0 } end
return R
]])

  it("--list: a title and summary with escapes, whatever $COLUMNS says", function()
    for _, cols in ipairs { "-3", "0", "abc", "1e308", "9223372036854775807", "40" } do
      local out = support.run("KONTOR_PATH=" .. sh_quote(dir) .. " COLUMNS=" .. sh_quote(cols) .. " "
        .. support.binary() .. " --list")
      assert.falsy(out:find("[\27\7]"), out)
      assert.truthy(has(out, " T\\e]0;pwn\\a"), out)
      for line in out:gmatch("[^\n]+") do assert.truthy(#line <= 600, line) end
    end
  end)

  it("play: the decision's words, the option and the R.data error", function()
    local out = support.kontor_rc("play --rules " .. sh_quote(dir .. "/evil.lua") .. " --names Ann,Bob --seed 1", "2\n")
    assert.falsy(out:find("[\27\7]"), out)
    assert.truthy(has(out, "Ann, your move (ta\\e[31mke):\n  1  take \\e[2J\n"), out)
    assert.truthy(has(out, "R.data has no 'gold\\e]52;c;eA==\\ax': did you mean 'gold\\e]52;c;eA==\\a'?"), out)
  end)

  it("the engine's refusal at another seat's turn names the decision in the rule set's words (escaped when shown)",
    function()
    local g = kontor.new_game { rules = dir .. "/evil.lua", names = { "Ann", "Bob" }, seed = 1 }
    assert(g:apply("take"))
    assert.are.same({ nil, "'take': it is not Ann's turn to decide (waiting for Bob: ta\27[31mke)" },
      { seatmod.view(g, 1).apply("take") })
  end)

  it("the REPL: the R.data error names the key escaped", function()
    local out = support.kontor_rc("--rules " .. sh_quote(dir .. "/evil.lua") .. " --seed 1", "pass\n")
    assert.falsy(out:find("[\27\7]"), out)
    assert.truthy(has(out, "R.data has no 'gold\\e]52;c;eA==\\ax': did you mean 'gold\\e]52;c;eA==\\a'?"), out)
  end)
end)

describe("held: seat views of the new paths", function()
  local SO = "tests/rulesets/secret_orders.lua"

  it("a refusal during secret orders says the same whatever the other seat entered", function()
    local said = {}
    for _, theirs in ipairs { {}, { "buy ship" }, { "buy shed", "buy shed" } } do
      local g = kontor.new_game { rules = SO, players = 2, seed = 3 }
      local v1 = seatmod.view(g, 1)
      for _, t in ipairs(theirs) do assert(seatmod.view(g, 2).apply(t)) end
      local r = {}
      for _, text in ipairs { "buy zzz", "BUY ZZZ", "2: buy ship", "keep token", "Buy" } do
        r[#r + 1] = select(2, v1.apply(text)) or "ok"
        r[#r + 1] = v1.why(text) or "legal"
      end
      r[#r + 1] = kontor.json.encode(v1.skipped())
      said[#said + 1] = table.concat(r, "\n")
    end
    assert.are.equal(said[1], said[2])
    assert.are.equal(said[1], said[3])
    assert.truthy(has(said[1], "Player 1 (seat 1) acts only for itself, not for Player 2 (seat 2)"), said[1])
  end)

  it("a move in another case matches only the seat's own options; case twins are named from them alone", function()
    local file = rules("twins", nil, [[
function R.play(g)
  local ks = g:choose_all({ 1, 2 }, "pick", { [1] = { "Take red", "take red", "pass" }, [2] = { "TAKE BLUE", "pass" } })
end
]])
    local g = kontor.new_game { rules = file, seed = 1 }
    local v1 = seatmod.view(g, 1)
    assert.are.same({ nil, "'TAKE RED' could be Take red, take red, which differ only in case: type the one you "
      .. "mean as it is spelt" }, { v1.apply("TAKE RED") })
    local _, e = v1.apply("take blue")
    assert.falsy(has(e, "BLUE"), e)
  end)

  it("v.from_scenario and v.seed say nothing before the end", function()
    local g = kontor.new_game { rules = SO, players = 2, seed = 3 }
    local v = seatmod.view(g, 1)
    assert.is_nil(v.from_scenario())
    assert.is_nil(v.seed())
  end)
end)
