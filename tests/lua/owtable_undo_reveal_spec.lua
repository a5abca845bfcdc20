-- owtable_undo_reveal_spec.lua: undo after a simultaneous secret choice is
-- revealed (a QA finding at `kontor play --rules old_world`). The last
-- bidder saw "bids: Ann 0, Bob 0, Cy 1" and was told "undo takes your move
-- back": with 2 players undo took back that bid alone, unasked, and the
-- player bid again knowing the other's bid; with 3 (bids entered Cy, Ann,
-- Bob) Bob's undo asked Cy, then took back Ann's bid, not Cy's. Bids and
-- orders are secret until all have chosen (docs/rules/old_world.md, O34):
-- once revealed, the block goes back whole, every other seat in it agreeing.
local kontor = require "kontor"
local seat = require "kontor.seat"

local function game(players)
  return kontor.new_game { rules = "old_world", players = players, seed = 7,
    names = players == 3 and { "Ann", "Bob", "Cy" } or nil }
end

local function texts(moves)
  local out = {}
  for i, m in ipairs(moves) do out[i] = m[1] .. ": " .. m[2] end
  return table.concat(out, "; ")
end

describe("undo of a revealed secret choice", function()
  it("2 players: the last bidder's undo takes both bids back and needs the other's yes", function()
    local g = game(2)
    g:apply("1: bid 1"); g:apply("2: bid 0")
    local v = seat.view(g, 2)
    local plan = v.undo_plan(1)
    assert.are.equal("1: bid 1; 2: bid 0", texts(plan.moves))
    assert.are.same({ 1 }, plan.others)
    local r, why = v.undo(1)
    assert.is_nil(r)
    assert.are.equal("seat 1 did not agree: a move goes back without the others' consent only when none of theirs goes with it", why)
    assert.are.same({ "1: bid 1", "2: bid 0" }, g:actions())
    local asked = {}
    local undone = v.undo(1, function(s) asked[#asked + 1] = s; return true end)
    assert.are.same({ 1 }, asked)
    assert.are.equal("1: bid 1; 2: bid 0", texts(undone))
    assert.are.same({}, g:actions())
    assert.are.equal("bid", g:decision(1).name)
  end)

  it("3 players, bids entered out of seat order: it asks those whose bids go, and takes them all", function()
    local g = game(3)
    g:apply("3: bid 1"); g:apply("1: bid 0"); g:apply("2: bid 0")
    local v = seat.view(g, 2)
    local asked = {}
    local undone = v.undo(1, function(s) asked[#asked + 1] = s; return true end)
    table.sort(asked)
    assert.are.same({ 1, 3 }, asked)
    assert.are.equal("1: bid 0; 2: bid 0; 3: bid 1", texts(undone))
    assert.are.same({}, g:actions())
  end)

  it("a move of one's own after the reveal still goes alone", function()
    local g = game(3)
    g:apply("3: bid 1"); g:apply("1: bid 0"); g:apply("2: bid 0")
    local d = g:decision(3)
    assert.are.equal("pick", d.name)
    g:apply("3: pick facility worker")
    local plan = seat.view(g, 3).undo_plan(1)
    assert.are.equal("3: pick facility worker", texts(plan.moves))
    assert.are.same({}, plan.others)
  end)

  it("a finished build order, once all are revealed, goes back with the others' orders", function()
    local g = kontor.new_game { rules = "old_world", players = 2, seed = 7, scenario = { phase = "build" } }
    assert.are.equal("build order", g:decision(1).name)
    g:apply("2: acquire none"); g:apply("2: done")
    g:apply("1: acquire land:sheep_herding"); g:apply("1: done")
    local d = g:decision(1)
    assert.are_not.equal("build order", d and d.name)      -- revealed: the game went on
    local v = seat.view(g, 1)
    local plan = v.undo_plan(1)
    assert.are.same({ 2 }, plan.others)
    assert.truthy(texts(plan.moves):find("^1: acquire land:sheep_herding; 1: done; 2: acquire none; 2: done"),
      texts(plan.moves))
    assert.is_nil((v.undo(1)))
    v.undo(1, function() return true end)
    assert.are.same({}, g:actions())
    assert.are.equal("build order", g:decision(1).name)
    assert.are.equal("build order", g:decision(2).name)
  end)

  it("at play, a refused undo of a revealed round says why: the others' moves go with it", function()
    -- (it said "Only your own moves can be taken back without the others'
    -- consent", while Ann's own bid was what she asked to take back)
    local support = require "tests.lua.support"
    local out = support.run(support.binary() .. " play --rules old_world --players 2 --names Ann,Bob --seed 7",
      "bid 1\nbid 0\nundo\nno\n")
    assert.truthy(support.has(out, "Undo takes back Bob's move too.\nBob, do you agree? (yes/no)\nNot undone: Bob did "
      .. "not agree. A move goes back without the others' consent only when none of theirs goes with it.\n"), out)
  end)
end)
