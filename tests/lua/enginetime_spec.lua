-- enginetime_spec.lua - the simulation's bot (lua/engine/playout.c) takes
-- a few shortcuts of its own (issue 25): a constant family's choices read
-- from its userdata, g:choose_all's lists checked as each seat takes its
-- step, options checked a run at a time. The games and the messages are
-- those of the way without them: play (no bot), and a plain list.
-- Run: build/kontor run tests/busted.lua tests/lua/enginetime_spec.lua
local support = require "tests.lua.support"
local write = support.write
local tmp, cleanup_tmp = support.scratch()

-- Two seats take turns at a family (MAKE: kontor.family or a plain
-- table), then bid in secret; the choices made are the state.
local GAME = [==[
local MAKE = %s
local R = { name = "shortcuts", players = { min = 2, max = 2 } }
local LOAD = MAKE{ "load", { "fish", "wood", "salt" }, "on ship", { 1, 2, 3, 4 }, "at", { "dawn", "dusk" } }
local ONE = MAKE{ "take", { "all" } }
function R.setup(g) g.got = {} end
function R.play(g)
  for turn = 1, 6 do
    local seat = turn %% 2 + 1
    local good, ship, time = g:choose_from(seat, "load", LOAD)
    g.got[#g.got + 1] = good .. ship .. time
    g.got[#g.got + 1] = g:choose_from(seat, "take", ONE)
    local bids = g:choose_all({ 1, 2 }, "bid", { { "bid 1", "bid 2", "bid 3" }, %s })
    g.got[#g.got + 1] = bids[1] .. "/" .. bids[2]
  end
end
function R.scores(g) return { #g.got, 0 } end
return R
]==]

local function rules(make, second)
  return write(tmp("shortcuts_" .. make:gsub("%W", "") .. ".lua"),
    GAME:format(make, second or '{ "pass", "bid 1" }'))
end

-- The games of seeds 1..n played to the end by the simulation's bot:
-- each game's final state.
local function played(file, n)
  local out = {}
  for i = 1, n do
    local g = kontor.new_game { rules = file, seed = i }
    g:play_random(kontor.core.rng(i))
    out[i] = kontor.json.encode(g:state()) .. table.concat(g:actions(), "|")
  end
  return out
end

describe("the simulation's shortcuts", function()
  teardown(cleanup_tmp)

  it("a constant family plays the games a plain one does", function()
    local constant = played(rules("kontor.family"), 20)
    local plain = played(rules("function(t) return t end"), 20)
    assert.are.same(plain, constant)
    assert.truthy(constant[1]:find("load fish on ship", 1, true) or constant[1]:find("load wood on ship", 1, true)
      or constant[1]:find("load salt on ship", 1, true), constant[1])
    -- and kontor sim's summary
    local a = kontor.sim { rules = rules("kontor.family"), players = 2, games = 50, seed = 3 }
    local b = kontor.sim { rules = rules("function(t) return t end"), players = 2, games = 50, seed = 3 }
    a.seconds, a.games_per_second, b.seconds, b.games_per_second = nil, nil, nil, nil
    a.rules, b.rules = nil, nil
    assert.are.same(b, a)
  end)

  it("a bad list of g:choose_all fails in a simulation as in play", function()
    local file = rules("kontor.family", '{ "pass", { "bid", 1.5 } }')
    local g = kontor.new_game { rules = file, seed = 1 }
    g:apply("load fish on ship 1 at dawn")
    local ok, played_err = pcall(g.apply, g, "take all")
    assert.is_false(ok)
    local sok, sim_err = pcall(kontor.sim, { rules = file, players = 2, games = 1, seed = 1 })
    assert.is_false(sok)
    local want = "g:choose_all: option 2 of decision 'bid' of seat 2 has an entry that is not a string or a whole number"
    assert.truthy(tostring(played_err):find(want, 1, true), tostring(played_err))
    assert.truthy(sim_err.why:find(want, 1, true), sim_err.why)
  end)

  it("options checked a run at a time: the first bad one is named, past a run", function()
    local list = {}
    for i = 1, 40 do list[i] = "option " .. i end
    local check = kontor.core.options.check
    assert.are.equal(40, check(list, 1, "many", 2))
    for _, bad in ipairs { 1, 16, 17, 33, 40 } do
      local l = { table.unpack(list) }
      l[bad] = { "two", "bad", 2.5 }
      if bad < 40 then l[40] = setmetatable({}, {}) end      -- a later bad one is not the one named
      local ok, err = pcall(check, l, 1, "many", 2)
      assert.is_false(ok)
      assert.truthy(err:find("option " .. bad .. " of decision 'many' of seat 1 has an entry that is not a "
        .. "string or a whole number", 1, true), err)
    end
  end)
end)
