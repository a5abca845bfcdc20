-- skip_untraced_spec.lua - while the simulation's bot plays a game inside,
-- g:skip keeps no trace; g:skipped() makes it by replaying the record, the
-- first time it is asked for (context.enter_sim): the trace is the one the
-- step-by-step driver keeps.

local Ctx = require("kontor.game").Ctx

local support = require "tests.lua.support"
local write = support.write

describe("the trace of skipped decisions of a game the bot played inside", function()
  for _, c in ipairs { { "caribbean", 2 }, { "caribbean", 3 }, { "sea_merchants", 4 } } do
    it("is the driver's: " .. c[1] .. ", " .. c[2] .. " players", function()
      local total = 0
      for seed = 1, 8 do
        local inside = kontor.new_game { rules = c[1], players = c[2], seed = seed }
        inside:play_random(kontor.rng(seed))
        assert.is_true(rawget(inside, "untraced"))
        local driver = kontor.new_game { rules = c[1], players = c[2], seed = seed }
        driver:play_random(kontor.rng(seed), function() end)   -- a check: the driver's steps
        assert.is_false(rawget(driver, "untraced"))
        local trace = driver:skipped()
        assert.same(trace, inside:skipped())
        assert.is_false(rawget(inside, "untraced"))          -- made once
        assert.same(trace, inside:skipped())
        assert.same(driver:actions(), inside:actions())
        assert.same(driver:result(), inside:result())
        assert.equal(Ctx.skip, rawget(inside.ctx, "skip"))
        total = total + #trace
      end
      if c[1] == "caribbean" then assert.is_true(total > 100, total) end
    end)
  end

  it("is whole after undo and redo, and through a save", function()
    local g = kontor.new_game { rules = "caribbean", players = 2, seed = 7 }
    g:play_random(kontor.rng(7))
    local d = kontor.new_game { rules = "caribbean", players = 2, seed = 7 }
    d:play_random(kontor.rng(7), function() end)
    g:undo(3)
    d:undo(3)
    assert.same(d:skipped(), g:skipped())
    g:redo(3)
    d:redo(3)
    assert.same(d:skipped(), g:skipped())
    local path = os.tmpname()
    local g2 = kontor.new_game { rules = "caribbean", players = 2, seed = 7 }
    g2:play_random(kontor.rng(7))
    assert.is_true(g2:save(path))
    local loaded = assert(kontor.load_game(path))
    os.remove(path)
    assert.same(d:skipped(), loaded:skipped())
    assert.same(d:skipped(), g2:skipped())
  end)

  it("keeps the skips before the playout and a script's own g.skip", function()
    local path = write(os.tmpname() .. ".lua", [[
local R = { name = "skips", players = { min = 2, max = 2 } }
local AB = kontor.options { "a", "b" }
function R.setup(g) g.n = 0; g:skip(1, "setup", "before any turn") end
function R.play(g)
  for t = 1, 4 do
    g:begin_turn(t % 2 + 1)
    if g:choose(t % 2 + 1, "pick", AB) == 2 then g:skip(t % 2 + 1, "bonus", "picked b") end
  end
end
function R.scores(g) return { 0, 0 } end
return R
]])
    local inside, driver = support.playouts(path, 2, 3)
    local trace = driver:skipped()
    assert.same({ seat = 1, decision = "setup", why = "before any turn", turn = 0 }, trace[1])
    assert.same(trace, inside:skipped())
    -- a script that put its own g.skip keeps it, and its trace
    local own = write(os.tmpname() .. ".lua", (io.open(path):read("a"):gsub(
      "function R.setup%(g%)", "function R.setup(g) local s = g.skip; g.skip = function(...) return s(...) end;")))
    local o = kontor.new_game { rules = own, players = 2, seed = 3 }
    o:play_random(kontor.rng(3))
    assert.is_false(rawget(o, "untraced"))
    assert.same(trace, o:skipped())
    os.remove(path); os.remove(own)
  end)
end)
