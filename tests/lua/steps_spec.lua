-- steps_spec.lua - kontor.Steps (lua/l_steps.c over core/steps.c): a
-- game's step record, shared by the driver, the simulation's bot, fork.lua
-- and the readers of the record.
-- Run: build/kontor run tests/busted.lua tests/lua/steps_spec.lua
local core = kontor.core

describe("kontor.Steps", function()
  it("keeps seats, option numbers and stop marks, and reads back secret blocks in seat order", function()
    local rec = core.steps()
    assert.are.equal(0, #rec)
    assert.is_nil(rec:order())
    rec:push(1, 3)
    rec:push(2, 1, false, 1, true)     -- a secret block: seat 2 (rank 1) first
    rec:push(1, 2, true, 0)            -- seat 1 (rank 0), a "stop here"
    rec:push(2, 4)
    assert.are.equal(4, #rec)
    assert.are.same({ 1, 3, false }, { rec:seat(1), rec:option(1), rec:stop(1) })
    assert.are.same({ 1, 2, true }, { rec:seat(3), rec:option(3), rec:stop(3) })
    assert.are.same({ 1, 3, 2, 4 }, rec:order())
    rec:truncate(1)
    assert.are.equal(1, #rec)
    assert.is_nil(rec:order())
    assert.are.equal("kontor.Steps(1)", tostring(rec))
  end)

  it("checks its arguments and its type", function()
    local rec = core.steps(4)
    local cases = {
      { rec.push, { rec, 1, 0 }, "(an option number 1.. expected)" },
      { rec.push, { rec, -1, 1 }, "(a seat 0.. expected)" },
      { rec.push, { rec, 1, 1, false, 70000 }, "(a rank 0..65535 expected)" },
      { rec.seat, { rec, 1 }, "(no such step)" },
      { rec.truncate, { rec, 2 }, "(more steps than the record holds)" },
      { rec.seat, { core.pile {}, 1 }, "kontor.Steps expected, got kontor.Pile" },
      { core.steps, { -1 }, "(a capacity 0..16777216 expected)" },
    }
    for _, c in ipairs(cases) do
      local ok, err = pcall(c[1], table.unpack(c[2]))
      assert.is_false(ok)
      assert.truthy(err:find(c[3], 1, true), err)
    end
    assert.are.equal(0, #rec)
  end)

  it("is the one record of a game: the bot appends to it, g:step_at reads it", function()
    local g = kontor.new_game { rules = "sea_merchants", players = 2, seed = 7, quiet = true }
    g:play_random(core.rng(3))
    assert.are.equal(#g.rec, g:step_count())
    local seat, text, k = g:step_at(1)
    assert.are.same({ seat, k }, { g.rec:seat(1), g.rec:option(1) })
    assert.are.equal(seat .. ": " .. text, g:actions()[1])
  end)
end)
