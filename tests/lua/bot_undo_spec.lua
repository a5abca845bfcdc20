-- bot_undo_spec.lua: a bot's answer when a person asks to take back a move
-- (kontor.bots.agrees). A QA pass found that against bots an undo of a
-- Caribbean reveal went through, because bots agreed to everything: Ann
-- revealed, saw the card, took it back and knew the next card of the
-- deck. A bot now answers as a fair opponent: yes to a move that showed
-- no hidden card, no to one that did; `kontor play --free-undo` and
-- serve's "free_undo" let bots agree to every undo, for practice.
local bots = require "kontor.bots"
local seatmod = require "kontor.seat"
local support = require "tests.lua.support"

local has = support.has

describe("kontor.bots.agrees", function()
  it("says yes to moves that showed no hidden card, no to those that did, yes to all when free", function()
    assert.is_true(bots.agrees({ moves = { { 1, "stop" } }, others = {} }))
    assert.is_false(bots.agrees({ moves = { { 1, "reveal" } }, others = { 2 }, unseen = true }))
    assert.is_true(bots.agrees({ moves = { { 1, "reveal" } }, others = { 2 }, unseen = true }, true))
    -- no plan (it could not be worked out): no, unless free
    assert.is_false(bots.agrees(nil))
    assert.is_true(bots.agrees(nil, true))
  end)
end)

describe("kontor play against a bot: undo of a reveal", function()
  local PLAY = "play --rules caribbean --players 2 --seed 5 --names Ann,Bob --bot 2=random"

  it("is refused by the bot, and the reveal stays", function()
    local out = support.kontor_rc(PLAY, "reveal\nundo\nmoves\n")
    assert.truthy(has(out, "\nNot undone: Bob is a bot, and a bot does not take back a move that showed a hidden "
      .. "card: taken back, you would know where it lies (kontor play --free-undo: bots agree to every undo, for "
      .. "practice).\n1  Ann: reveal\n"), out)
  end)

  it("goes through with --free-undo", function()
    local out = support.kontor_rc(PLAY .. " --free-undo", "reveal\nundo\nmoves\n")
    assert.truthy(has(out, "\nUndid 1 move: Ann: reveal\n"), out)
    assert.truthy(has(out, "\nNo moves yet.\n"), out)
  end)

  it("a move that showed nothing goes back as before", function()
    local out = support.kontor_rc(PLAY, "stop\nundo\nmoves\n")
    assert.truthy(has(out, "\nUndid 1 move: Ann: stop\n"), out)
    assert.truthy(has(out, "\nNo moves yet.\n"), out)
  end)

  it("--free-undo is play's: the REPL refuses it", function()
    local out = support.kontor_rc("--free-undo", "")
    assert.truthy(has(out, "\nrc=2\n"), out)
    assert.truthy(has(out, "kontor: --free-undo is for kontor play: the REPL's undo takes back any move already"), out)
  end)
end)

describe("kontor serve against a bot: a seat's undo of a reveal", function()
  local function lines(extra)
    return support.serve_lines {
      '{"id":1,"op":"new","rules":"caribbean","players":2,"seed":5,"bots":{"2":"random"}' .. extra .. '}',
      '{"id":2,"op":"apply","game":"g1","seat":1,"action":"reveal"}',
      '{"id":3,"op":"undo","game":"g1","seat":1}',
      '{"id":4,"op":"moves","game":"g1"}',
    }
  end

  it("is refused, saying the bot will not agree, with no \"agree\" to send; the reveal stays", function()
    local out = lines("")
    assert.are.equal('{"error":{"code":"illegal_action","message":"seat 2 is a bot, and a bot does not take back '
      .. 'a move that showed a hidden card: seat 1 would know where it lies (a game made with \\"free_undo\\": '
      .. 'true has bots agree to every undo)"},"id":3,"ok":false}', out[3])
    assert.truthy(has(out[4], '"text":"reveal"'), out[4])
  end)

  it("goes through in a game made with \"free_undo\": true", function()
    local out = lines(',"free_undo":true')
    assert.truthy(has(out[3], '"undone":[{"seat":1,"text":"reveal"}]'), out[3])
    assert.truthy(has(out[4], '"moves":[]'), out[4])
  end)
end)

describe("a bot's answer to taking back a round of secret choices it was in", function()
  -- Both seats choose in secret (g:choose_all), then seat 1 decides. Seat 1's
  -- undo takes back the whole revealed round (O34's way): seat 2's choice
  -- goes too, and seat 1 has seen it. A bot agreed, and seat 1 chose again
  -- knowing the bot's choice. Now a bot says no, as to a reveal.
  local dir = support.tmpdir()
  local file = dir .. "/sealed.lua"
  support.write(file, [[
local R = { name = "sealed", title = "Sealed", summary = "s", players = { min = 2, max = 2, default = 2 } }
function R.setup(g) g.score = { 0, 0 } end
function R.play(g)
  local picks = g:choose_all({ 1, 2 }, "bid", { { "bid 1", "bid 2" }, { "bid 1", "bid 2" } })
  g:log("bids: %d and %d", picks[1], picks[2])
  g:choose(1, "then", { "take", "leave" })
  g:choose(1, "last", { "a", "b" })
end
function R.scores(g) return g.score end
return R
]])

  it("says no: the round's other choices were revealed to the mover", function()
    local g = kontor.new_game { rules = file, seed = 1 }
    assert(g:apply("1: bid 1"))
    assert(g:apply("2: bid 2"))
    local plan = seatmod.view(g, 1).undo_plan(1)
    assert.are.same({ 2 }, plan.others)
    assert.is_nil(plan.unseen)
    assert.is_true(plan.revealed[2])
    assert.is_false(bots.agrees(plan, false, 2))
    assert.is_true(bots.agrees(plan, true, 2))
    -- a move after which nothing secret of the bot's goes back: yes
    assert(g:apply("1: take"))
    assert.is_nil(seatmod.view(g, 1).undo_plan(1).revealed)
  end)

  it("in kontor play against a bot, and with --free-undo", function()
    local play = "play --rules " .. support.sh_quote(file) .. " --seed 1 --names Ann,Bob --bot 2=random"
    local out = support.kontor_rc(play, "bid 1\nundo\nmoves\n")
    assert.truthy(has(out, "\nNot undone: Bob is a bot, and a bot does not take back a round of secret choices it "
      .. "was in: you have seen its choice (kontor play --free-undo: bots agree to every undo, for practice).\n"), out)
    out = support.kontor_rc(play .. " --free-undo", "bid 1\nundo\nmoves\n")
    assert.truthy(has(out, "\nUndid 2 moves: "), out)
  end)

  it("in kontor serve: refused at once, with no \"agree\"", function()
    local out = support.serve_lines {
      '{"id":1,"op":"new","rules":' .. kontor.json.encode(file) .. ',"players":2,"seed":1,"bots":{"2":"random"}}',
      '{"id":2,"op":"apply","game":"g1","seat":1,"action":"bid 1"}',
      '{"id":3,"op":"undo","game":"g1","seat":1}',
    }
    assert.are.equal('{"error":{"code":"illegal_action","message":"seat 2 is a bot, and a bot does not take back a '
      .. 'round of secret choices it was in: seat 1 has seen its choice (a game made with \\"free_undo\\": true '
      .. 'has bots agree to every undo)"},"id":3,"ok":false}', out[3])
  end)
end)
