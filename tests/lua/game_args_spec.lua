-- game_args_spec.lua - the game's per-seat questions refuse a seat the game
-- does not have, as g:view does (a list of "no options" for seat 9 of a
-- 2-player game would read as an answer); a variant that names the game
-- is not named again after the title.

local seatmod = require "kontor.seat"

describe("a seat the game does not have", function()
  local g = kontor.new_game { rules = "sea_merchants", players = 2, seed = 1 }
  for _, m in ipairs { "options", "moves", "actions", "view" } do
    it("is refused by g:" .. m, function()
      local ok, e = pcall(g[m], g, 9)
      assert.is_false(ok)
      assert.equal("bad argument #1 to '" .. m .. "' (a seat 1..2 expected, got 9)", tostring(e))
      ok, e = pcall(g[m], g, "1")
      assert.is_false(ok)
      assert.equal("bad argument #1 to '" .. m .. "' (a seat 1..2 expected, got 1)", tostring(e))
    end)
  end

  it("is not refused where the game has it, or for chance", function()
    assert.same({ "load grain on ship 1" }, { g:options(1)[1] })
    assert.same({}, g:options(2))                        -- not seat 2's turn: no options
    assert.same({}, g:options(0))                        -- chance does not decide now
    assert.same({}, g:moves(2))
    assert.same({}, g:moves(0))                          -- 0: what every seat may see
    assert.same({}, g:actions(0))
    -- Old World's first decision is chance's when it is asked for by hand
    local c = kontor.new_game { rules = "old_world", players = 2, seed = 1, manual_chance = true }
    assert.equal("chance", c:who())
    assert.same(c:options(), c:options("chance"))
    assert.same(c:options(), c:options(0))
    assert.equal(2, #c:options(c:who()))
  end)
end)

describe("the variants a game names after its title", function()
  it("leave out a variant that names the game (Port Royal), unless it has options to show", function()
    local pr = kontor.new_game { rules = "caribbean", variants = { "port_royal" }, players = 2, seed = 1 }
    local v = seatmod.view(pr, 1)
    assert.equal("Port Royal", v.title)
    assert.is_nil(v.variants_text)
    local pr10 = kontor.new_game { rules = "caribbean", variants = { "port_royal:end_influence=10" }, players = 2,
      seed = 1 }
    assert.equal("with port_royal (end_influence=10)", seatmod.view(pr10, 1).variants_text)
    local hl = kontor.new_game { rules = "sea_merchants", variants = { "hand_limit" }, players = 2, seed = 1 }
    assert.equal("with hand_limit", seatmod.view(hl, 1).variants_text)
  end)
end)

describe("a move for chance while a seat decides", function()
  it("says it is not chance's turn, not seat chance's", function()
    local g = kontor.new_game { rules = "sea_merchants", players = 2, seed = 1 }
    local done, msg = g:apply("chance: load grain on ship 1")
    assert.is_nil(done)
    assert.equal("'load grain on ship 1': it is not chance's turn to decide (waiting for Player 1: load)", msg)
  end)
end)

describe("a move that names the start of options at a ':'", function()
  it("lists those options, not every one (Old World's 'acquire building')", function()
    local g = kontor.new_game { rules = "old_world", players = 2, seed = 3 }
    local r = kontor.rng(3)
    local seat
    for _ = 1, 400 do
      local w = g:who(); if type(w) == "table" then w = w[1] end
      if w == "chance" then w = 0 end
      local o = g:options(w)
      if w ~= 0 and o[2] and o[2]:find("^acquire land:") then seat = w; break end
      g:step(w, r:below(#o) + 1)
    end
    assert.truthy(seat)
    local buildings = {}
    for _, t in ipairs(g:options(seat)) do
      if t:find("^acquire building:") then buildings[#buildings + 1] = t end
    end
    assert.truthy(#buildings > 0)
    local before = g:actions()
    local done, msg = g:apply(seat .. ": acquire building")
    assert.is_nil(done)
    assert.equal("expected one of: " .. table.concat(buildings, ", "), msg:match("expected one of: .*$"))
    assert.same(before, g:actions())
  end)
end)
