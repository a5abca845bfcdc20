-- redteam3: what a REPL line could change that g:state() does not show,
-- and kept (g:outside, lua/kontor/game/outside.lua; docs/security.md,
-- "Red team 3"). Each was silent before: the change stayed, and undo,
-- save and replay then gave another game than the one played.
local support = require "tests.lua.support"

local function repl(input, args)
  return (support.run(support.binary() .. " " .. (args or "--players 2 --seed 3"), input))
end

local REFUSED = "that changed the game outside a move (%s), so it was put back"

local function refused(out, what)
  assert.truthy(support.has(out, REFUSED:format(what)), out)
end

describe("redteam3: a REPL line", function()
  it("that sets an engine field of g (how chance is settled) is refused and put back", function()
    local out = repl("g.ctx._manual_chance = true\n= g.ctx._manual_chance\n")
    refused(out, "_manual_chance: false to true")
    assert.truthy(support.has(out, "\nfalse\n"), out)
  end)

  it("that sets a metatable on a state table (__index answers for it) is refused", function()
    local out = repl("setmetatable(g.ships[1], {__index = function() return 7 end})\n= g.ships[1][9]\n")
    refused(out, "ships[1]: its metatable")
    assert.truthy(support.has(out, "\nnil\n"), out)
  end)

  it("that changes a table and hides it from g:state() with __len and __pairs is refused", function()
    local out = repl("g.ships[1][1] = 3; setmetatable(g.ships[1], {__len = function() return 0 end, "
      .. "__pairs = function() return next, {0, 0, 0}, nil end})\n= g.ships[1][1]\n")
    assert.truthy(support.has(out, "outside a move"), out)
    assert.truthy(support.has(out, "\n0\n"), out)
  end)

  it("that replaces one of g's functions or the rule set's is refused, and the rule set put back", function()
    local out = repl("g.ctx.choose = function() end\ng.R.score = function() return 99 end\n= g.R.score(g.ctx, 1)\n")
    refused(out, "choose: a function to a function")
    refused(out, "R.score: a function to a function")
    assert.truthy(support.has(out, "\n1.5\n"), out)     -- (the rule set's score, not 99)
  end)

  it("that changes the rule set with a move in the same line keeps the move, not the change", function()
    local out = repl('g:apply("load grain on ship 1"); g.R.x = 1\n= g.R.x\nmoves\n')
    refused(out, "R.x: nothing to 1")
    assert.truthy(support.has(out, ", with the moves made:"), out)
    assert.truthy(support.has(out, "\nnil\n1  Player 1: load grain on ship 1\n"), out)
  end)

  it("that changes the parameters (the seed a save writes) is refused and put back", function()
    local out = repl("g.params.seed = 99\n= g.params.seed\n")
    refused(out, "params.seed: 3 to 99")
    assert.truthy(support.has(out, "\n3\n"), out)
  end)

  it("that changes the game's own count of players is refused and put back", function()
    local out = repl("g.players = 3\n= g.players\n")
    refused(out, "g.players: 2 to 3")
    assert.truthy(support.has(out, "\n2\n"), out)
  end)

  it("that changes the moves to redo is refused; redo then does the move undone", function()
    local out = repl('1\nundo\ng.future[1][2] = "load wood on ship 2"\nredo\nmoves\n')
    refused(out, "the moves to redo")
    assert.truthy(support.has(out, "Redid 1 move.\n"), out)
    assert.truthy(support.has(out, "\n1  Player 1: load grain on ship 1\n"), out)
    local out2 = repl("1\nundo\ng.future = {}\nredo\n")
    refused(out2, "the moves to redo")
    assert.truthy(support.has(out2, "Redid 1 move.\n"), out2)
  end)

  it("that leaves a value whose __gc changes the game is refused in that line", function()
    local out = repl("x = setmetatable({}, {__gc = function() g.coins:add(1, 40) end})\nx = nil\n= g.coins:get(1)\n")
    refused(out, "coins[1]: 0 to 40")
    assert.truthy(support.has(out, "\n0\n"), out)
  end)

  it("that only reads (options, views, why, a game of its own) is not refused", function()
    local out = repl('x = g:options()\nx = g:show(1)\nx = g:view(2)\nx = g:moves()\nx = g:why("zzz")\n'
      .. 'x = g:state()\nh = kontor.new_game { rules = "sea_merchants", players = 2, seed = 5 }\n= 1\n',
      "--rules old_world --players 2 --seed 3")
    assert.falsy(support.has(out, "outside a move"), out)
    assert.truthy(support.has(out, "1\n"), out)
  end)

  it("in a rule set whose state has a key with a __tostring that raises, goes on (the check calls none)", function()
    local dir = support.tmpdir()
    local f = support.write(dir .. "/marks.lua", [[return { variant = true, base = "sea_merchants", apply = function(R)
  local old = R.setup
  R.setup = function(g, ...)
    local r = old(g, ...)
    g.marks = { [setmetatable({}, { __tostring = function() error("no names here") end })] = 1 }
    return r
  end
end }
]])
    local out = repl("x = 1\n= x\n= g.coins:get(1)\n", "--players 2 --seed 3 --variant " .. f)
    assert.are.equal("1\n0\n", out)
    os.execute("rm -rf " .. support.sh_quote(dir))
  end)
end)
