-- polish_warnings_spec.lua: the warning of a module-level variable that
-- changed (lua/kontor/game/module_state.lua) never shows the same text on
-- both sides of "to": values that print alike show more, a value that is
-- no longer plain is named by its type.
local kontor = require "kontor"
local support = require "tests.lua.support"

local SRC = [[
local R = { name = "alike", title = "Alike", summary = "values that print alike",
  players = { min = 1, max = 1, default = 1 } }
local f = 0.3
local s = "]] .. string.rep("a", 30) .. [[X"
local n = 5
function R.setup(g) g.n = 0 end
function R.play(g)
  while true do
    g:begin_turn(1)
    g:choose(1, "turn", { "go", "stop" })
    f = 0.1 + 0.2
    s = "]] .. string.rep("a", 30) .. [[Y"
    n = {}
    if g.n > 2 then return end
    g.n = g.n + 1
  end
end
function R.scores(g) return { g.n } end
return R
]]

describe("a module-level variable's warning", function()
  local dir = support.tmpdir()
  teardown(function() os.execute("rm -rf " .. support.sh_quote(dir)) end)

  it("tells apart values that print alike, and names a table as a table", function()
    local file = support.write(dir .. "/alike.lua", SRC)
    local g = kontor.new_game { rules = file, seed = 1 }
    assert.truthy(g:apply("go"))
    local w = g:warnings()
    table.sort(w)
    assert.are.equal(3, #w)
    local function changed(line, name, values)
      return string.format("%s/alike.lua:%d: '%s', a module-level variable of R.play, changed as the game was played "
        .. "(%s): undo, a saved game, a reload and the bots replay the steps without it and play another game; "
        .. "keep the game's state on g (docs/api.md)", dir, line, name, values)
    end
    assert.are.same({
      changed(3, "f", "0.29999999999999999 to 0.30000000000000004"),
      changed(4, "s", '..."aaaaaX" to ..."aaaaaY", first different at character 31'),
      changed(5, "n", "5 to a table"),
    }, w)
  end)

  it("stays as it was for values that print apart", function()
    local ms = require "kontor.game.module_state"
    assert.are.equal("0 to 1", ms.change(0, 1))
    assert.are.equal('"short" to "xxxxxxxxxxxxxxxxxxxx..."', ms.change("short", string.rep("x", 30)))
    assert.are.equal("true to 3.5", ms.change(true, 3.5))
  end)
end)
