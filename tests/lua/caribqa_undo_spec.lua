-- caribqa_undo_spec.lua: a seat's undo of a move that showed a hidden card
-- (a QA finding at `kontor play --rules caribbean`). Ann revealed the
-- Governor 8/0, typed undo, was back before the reveal, unasked, and knew
-- the next card of the deck: in a push-your-luck game she could reveal,
-- see a bust coming, take it back and stop. Such a move now goes back only
-- when the others agree (docs/api.md, v.undo); coin cards gained face down
-- (C2) show nothing, and a move that only gains them goes back as before.
local kontor = require "kontor"
local seat = require "kontor.seat"
local support = require "tests.lua.support"
local tmux = dofile("tests/repl/tmux.lua")

local BIN = support.binary()
local has = support.has

local function texts(moves)
  local out = {}
  for i, m in ipairs(moves) do out[i] = m[1] .. ": " .. m[2] end
  return table.concat(out, "; ")
end

local function game(scenario, options)
  return kontor.new_game { rules = "caribbean", players = 3, seed = 5, names = { "Ann", "Bob", "Cid" },
    scenario = scenario, options = options }
end

describe("a seat's undo of a Caribbean move that showed a hidden card", function()
  it("a reveal goes back only with the others' yes, each of them asked", function()
    local g = game()
    g:apply("reveal")
    assert.are.equal("Ann reveals Governor 8/0", g:log()[2])
    local v = seat.view(g, 1)
    local plan = v.undo_plan(1)
    assert.are.equal("1: reveal", texts(plan.moves))
    assert.are.same({ 2, 3 }, plan.others)
    assert.is_true(plan.unseen)
    local r, why = v.undo(1)
    assert.is_nil(r)
    assert.are.equal("seat 2 did not agree: the moves to take back showed a hidden card, and seat 1 would know "
      .. "where it lies once they are taken back", why)
    assert.are.same({ "1: reveal" }, g:actions())
    local asked = {}
    local undone = v.undo(1, function(s) asked[#asked + 1] = s; return true end)
    assert.are.same({ 2, 3 }, asked)
    assert.are.equal("1: reveal", texts(undone))
    assert.are.same({}, g:actions())
  end)

  it("stop shows nothing: it goes back unasked", function()
    local g = game()
    g:apply("stop")
    local plan = seat.view(g, 1).undo_plan(1)
    assert.are.same({}, plan.others)
    assert.is_nil(plan.unseen)
    assert.are.equal("1: stop", texts(seat.view(g, 1).undo(1)))
  end)

  it("a last take whose turn ends with the next player's first card revealed needs the others' yes", function()
    local g = game()
    g:apply("stop")
    g:apply("loot Galleon 1")
    assert.are.equal("Bob reveals Skiff 5/3", g:log()[#g:log()])
    local plan = seat.view(g, 1).undo_plan(1)
    assert.are.same({ 2, 3 }, plan.others)
    assert.is_true(plan.unseen)
  end)

  it("a loot that gains coin cards face down (C2), with Bob's take next, goes back unasked", function()
    local g = game { phase = "loot", harbour = { "Flute 2/2", "Sailor 3/1" }, coins = { 3, 5, 5 } }
    g:apply("loot Flute 2")
    assert.are.equal("Ann loots the Flute 2/2: 2 coins", g:log()[#g:log()])
    assert.are.equal("take_other", g:decision(2).name)
    local plan = seat.view(g, 1).undo_plan(1)
    assert.are.same({}, plan.others)
    assert.is_nil(plan.unseen)
  end)

  it("a ship revealed that busts goes face up to the discard pile, a hidden pile: the others are asked", function()
    -- must_reveal off: Bob's turn does not begin with a card of its own
    local g = game({ harbour = { "Flute 2/2" }, deck = { "Flute 1/1", "Sailor 3/1" }, coins = { 3, 3, 3 } },
      { must_reveal = false })
    g:apply("reveal")
    assert.are.equal("Ann reveals a second Flute: bust, the harbour is discarded", g:log()[#g:log()])
    assert.are.equal("discover", g:decision(2).name)
    local plan = seat.view(g, 1).undo_plan(1)
    assert.are.same({ 2, 3 }, plan.others)
    assert.is_true(plan.unseen)
  end)
end)

describe("kontor play: undo of a reveal at the table", function()
  local PLAY = "play --rules caribbean --players 3 --seed 5 --names Ann,Bob,Cid"

  it("asks Bob, then Cid, why they are asked; a no keeps the reveal and says why", function()
    local out = support.kontor_rc(PLAY, "reveal\nundo\nno\nundo\nyes\nyes\nmoves\n")
    assert.truthy(has(out, "\nAnn's move showed a hidden card: taken back, Ann would know where it lies.\n"
      .. "Bob, do you agree? (yes/no)\nNot undone: Bob did not agree. Your move showed a hidden card: taken back, "
      .. "you would know where it lies.\n"), out)
    assert.truthy(has(out, "\nBob, do you agree? (yes/no)\nAnn's move showed a hidden card: taken back, Ann would "
      .. "know where it lies.\nCid, do you agree? (yes/no)\nUndid 1 move: Ann: reveal\n"), out)
    assert.truthy(has(out, "\nNo moves yet.\n"), out)
  end)

  it("several moves taken back: the question does not name one mover's move", function()
    local out = support.kontor_rc(PLAY, "reveal\nreveal\nundo 2\nno\n")
    assert.truthy(has(out, "\nThe moves it takes back showed a hidden card: taken back, Ann would know where it "
      .. "lies.\nBob, do you agree? (yes/no)\nNot undone: Bob did not agree. The moves showed a hidden card: taken "
      .. "back, you would know where it lies.\n"), out)
  end)

  it("the mover's last screen says so, and the hand-over names the reason", function()
    if not tmux.available() then return pending("tmux is not installed") end
    local t = tmux.start(BIN .. " " .. PLAY, { NO_COLOR = "1", HOME = support.tmpdir() })
    finally(function() t:stop() end)
    assert.truthy(t:wait_for("Pass the keyboard to Ann %(seat 1%) and press Enter."))
    t:send("Enter")
    assert.truthy(t:wait_for("\nAnn>$"))
    t:send("stop", "Enter")
    assert.truthy(t:wait_for("\nAnn>$"))
    t:send("loot Galleon 1", "Enter")
    local s = t:wait_for("Until then it is yours: undo takes your move back, if the others agree: it\n? ?showed a "
      .. "hidden card%.")
    assert.truthy(s)
    assert.truthy(has(s, "Bob reveals Skiff 5/3"), s)
    t:send("undo", "Enter")
    assert.truthy(t:wait_for("Pass the keyboard to Bob %(seat 2%) and press Enter: Ann asks to take back a move that "
      .. "showed a hidden card%."))
  end)
end)

-- The same for a chance outcome (g:chance): Old World draws workers from
-- its bag by chance as a turn begins, and the log shows what came; taken
-- back, the same seed and moves draw them again, so the seat would know.
describe("a seat's undo of a move after which chance drew", function()
  it("counts as showing a hidden card: the others are asked", function()
    local g = kontor.new_game { rules = "old_world", players = 2, seed = 7, names = { "Ann", "Bob" } }
    for _, a in ipairs { "1: bid 0", "2: bid 0", "2: pick land worker", "1: acquire none", "1: release sheep_herding",
        "1: release ship 1", "1: assign sheep_herding", "1: assign ship 1", "2: acquire none",
        "2: release sheep_herding", "2: release ship 1", "2: assign sheep_herding" } do
      assert(g:apply(a))
    end
    local n0 = #g:log()
    assert(g:apply("2: assign ship 1"))                  -- the orders revealed, the turn over, the next begun
    local drawn = {}
    for i = n0 + 1, #g:log() do
      if g:log()[i]:match("^chance draw: ") then drawn[#drawn + 1] = g:log()[i] end
    end
    assert.is_true(#drawn > 0)
    local plan = seat.view(g, 2).undo_plan(1)
    assert.are.same({ 1 }, plan.others)
    assert.is_true(plan.unseen)
    -- no card was shown, and the refusal says what was: luck (it said "a hidden card")
    assert.are.equal("luck", plan.shown)
    assert.are.same({ "what luck gave (a draw, a roll)", "what it gives again" }, { seat.shown_words(plan) })
  end)
end)
