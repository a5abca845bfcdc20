-- scenario_values_spec.lua - a scenario's mistakes name the value given:
-- a table is "a table", never its address (which changes every run), and
-- Old World's `active` must be a seat in every phase.

local function setup_error(rules, players, scenario)
  local ok, e = pcall(kontor.new_game, { rules = rules, players = players, seed = 1, scenario = scenario })
  assert.is_false(ok)
  return (tostring(e.message or e):match("^[^\n]*"))      -- the message's first line
end

local MARKET = { "grain", "wood", "porcelain", "fish", "spices", "cloth" }

describe("a scenario's mistakes", function()
  it("show a table as 'a table', in every rule set", function()
    assert.equal("setting up caribbean failed: scenario: phase must be discover or loot, not a table",
      setup_error("caribbean", 2, { phase = {} }))
    assert.equal("setting up old_world failed: scenario: phase must be turn, bid, pick, build, pirate or produce, "
      .. "not a table", setup_error("old_world", 2, { phase = { "bid" } }))
    assert.equal("setting up sea_merchants failed: scenario: phase must be load, phase1, dock, phase2 or office, "
      .. "not a table", setup_error("sea_merchants", 2, { market = MARKET, phase = {} }))
  end)

  it("show a text or a number as given", function()
    assert.equal("setting up sea_merchants failed: scenario: phase must be load, phase1, dock, phase2 or office, "
      .. "not phase3", setup_error("sea_merchants", 2, { market = MARKET, phase = "phase3" }))
    assert.equal("setting up caribbean failed: scenario: coins: 7 is not a seat",
      setup_error("caribbean", 2, { coins = { [7] = 3 } }))
  end)

  it("refuse an Old World active seat that is no seat, whatever the phase", function()
    assert.equal("setting up old_world failed: scenario: active: 99 is not a seat",
      setup_error("old_world", 2, { active = 99 }))
    assert.equal("setting up old_world failed: scenario: active must be a whole number >= 1, not a table",
      setup_error("old_world", 2, { active = {} }))
    -- a seat is fine
    assert.truthy(kontor.new_game { rules = "old_world", players = 2, seed = 1, scenario = { active = 2 } })
  end)
end)

describe("kontor.format, for a rule script's messages", function()
  it("shows a table by its type and runs none of its metamethods", function()
    local path = os.tmpname() .. ".lua"
    local f = assert(io.open(path, "w"))
    f:write([[
local R = { name = "fmt", players = { min = 1, max = 1 } }
function R.setup(g)
  local t = setmetatable({}, { __tostring = function() error("ran __tostring") end, __name = "Secret" })
  error(kontor.format("got %s, %s, %d and %s", t, print, 7, "text"), 0)
end
function R.play(g) end
function R.scores(g) return { 0 } end
return R
]])
    f:close()
    local ok, e = pcall(kontor.new_game, { rules = path, players = 1, seed = 1 })
    os.remove(path)
    assert.is_false(ok)
    assert.truthy(tostring(e.message or e):find("got a table, a function, 7 and text", 1, true), tostring(e))
  end)
end)
