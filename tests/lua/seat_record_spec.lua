-- seat_record_spec.lua - a save file written for one seat while the game is
-- on holds no deal (lua/kontor/save.lua): the seed replays every hand and
-- every chance to come, and the scenario lists the hands, so neither is in
-- it; it does not load, and says why. The whole game's save, and a seat's
-- once the game is over, keep them and load.

local support = require "tests.lua.support"
local seatmod = require "kontor.seat"
local tmp, cleanup = support.scratch()
teardown(cleanup)

local json = kontor.core.json

local function doc_of(path) return json.decode(support.read(path)) end

describe("a seat's save while the game is on", function()
  it("leaves out the seed, names its seat, and does not load", function()
    local g = kontor.new_game { rules = "sea_merchants", players = 2, seed = 77 }
    g:apply(1); g:apply(1)
    local before = g:actions()
    local path = tmp("seat1.json")
    assert(seatmod.view(g, 1).save(path))
    local doc = doc_of(path)
    assert.is_nil(doc.seed)
    assert.equal(1, doc.seat)
    assert.same({ "1: load grain on ship 1", "2: load grain on ship 1" }, doc.actions)
    local l, err = kontor.load_game(path)
    assert.is_nil(l)
    assert.equal("file", err.kind)
    assert.equal(path .. ": seat 1's record of a game in progress: it leaves out the deal (the seed), which that "
      .. "seat may not see, so it does not replay; a game goes on from a save of the whole game (`save FILE` "
      .. "without `as` in the REPL, or the file `kontor play` writes when you leave)", err.message)
    -- as data, for a front end to say what to load in its own words
    assert.same({ seat = 1, said = path .. ": seat 1's record of a game in progress: it leaves out the deal (the "
      .. "seed), which that seat may not see, so it does not replay" }, err.seat_record)
    local _, derr = kontor.load_document(doc)
    assert.same({ seat = 1, said = "document: seat 1's record of a game in progress: it leaves out the deal (the "
      .. "seed), which that seat may not see, so it does not replay" }, derr.seat_record)
    assert.same(before, g:actions())                  -- the game as it was
  end)

  it("leaves out the scenario, which lists every hand", function()
    local g = kontor.new_game { rules = "sea_merchants", players = 2, seed = 1, scenario = {
      market = { "grain", "wood", "porcelain", "fish", "spices", "cloth" },
      hands = { { "cloth", "cloth", "cloth" }, { "grain", "spices" } } } }
    local path = tmp("scenario1.json")
    assert(g:save(path, 1))
    local text = support.read(path)
    assert.is_nil(doc_of(path).scenario)
    assert.is_nil(text:find("spices", 1, true), text)   -- seat 2's hand
    -- the whole game's save keeps it, and loads
    local whole = tmp("scenario_all.json")
    assert(g:save(whole))
    assert.truthy(support.read(whole):find("spices", 1, true))
    local l = assert(kontor.load_game(whole))
    assert.same(g:view(2), l:view(2))
  end)

  it("is refused with the same words by the REPL's load", function()
    local g = kontor.new_game { rules = "sea_merchants", players = 2, seed = 5 }
    g:apply(1)
    local path = tmp("repl_seat2.json")
    assert(g:save(path, 2))
    local out = support.run(support.binary() .. " --load " .. path, "")
    assert.truthy(out:find("seat 2's record of a game in progress", 1, true), out)
  end)
end)

describe("saves that keep the deal", function()
  it("the whole game's save has the seed and loads to the same game", function()
    local g = kontor.new_game { rules = "sea_merchants", players = 2, seed = 77 }
    g:apply(1); g:apply(1)
    local path = tmp("all.json")
    assert(g:save(path))
    local doc = doc_of(path)
    assert.equal(77, doc.seed)
    assert.is_nil(doc.seat)
    local l = assert(kontor.load_game(path))
    assert.same(g:view(1), l:view(1))
    assert.same(g:view(2), l:view(2))
  end)

  it("a seat's save once the game is over has the seed, which the seat may see then, and loads", function()
    local g = kontor.new_game { rules = "sea_merchants", players = 2, seed = 9 }
    g:play_random(kontor.rng(9), function() end)
    assert.is_true(g:over())
    assert.equal(9, seatmod.view(g, 2).seed())
    local path = tmp("over2.json")
    assert(seatmod.view(g, 2).save(path))
    local doc = doc_of(path)
    assert.equal(9, doc.seed)
    assert.equal(2, doc.seat)
    local l = assert(kontor.load_game(path))
    assert.is_true(l:over())
    assert.same(g:result().scores, l:result().scores)
  end)

  it("a save file whose seat is no seat of its game is refused by name", function()
    local g = kontor.new_game { rules = "sea_merchants", players = 2, seed = 3 }
    local path = tmp("badseat.json")
    assert(g:save(path))
    local doc = doc_of(path)
    doc.seat = 5
    support.write(path, json.encode(doc))
    local l, err = kontor.load_game(path)
    assert.is_nil(l)
    assert.equal("file", err.kind)
    assert.equal(path .. ': "seat" must be a seat 1..2', err.message)
  end)
end)
