-- repl_only_spec.lua: repl/repl.lua is only the designer's prompt, which
-- holds the game and sees every seat. It has no play mode: `kontor play`
-- is repl/play.lua, given seat views (issue 24, "impossible by
-- construction"). Asking the REPL for another mode is an error that
-- touches nothing.
local kontor = require "kontor"
local repl = require "repl"

local REFUSED = "repl: no mode 'play': the REPL is the designer's prompt and sees every seat; "
  .. "kontor play is repl/play.lua, given seat views"

describe("the REPL has no play mode", function()
  local saved_g, saved_help
  before_each(function() saved_g, saved_help = rawget(_G, "g"), rawget(_G, "help") end)
  after_each(function() rawset(_G, "g", saved_g); rawset(_G, "help", saved_help) end)

  it("repl.run with mode play is refused before it sets g, help or reads a line", function()
    local g = kontor.new_game { rules = "sea_merchants", players = 2, seed = 1 }
    rawset(_G, "g", "before")
    rawset(_G, "help", nil)
    local ok, e = pcall(repl.run, kontor, g, { mode = "play" })
    assert.is_false(ok)
    assert.equals(REFUSED, e)
    assert.equals("before", rawget(_G, "g"))
    assert.is_nil(rawget(_G, "help"))
    assert.equals(0, #g:move_list())
  end)

  it("repl.session refuses any mode but repl, naming it", function()
    local g = kontor.new_game { rules = "sea_merchants", players = 2, seed = 1 }
    local ok, e = pcall(repl.session, kontor, g, { mode = "serve" })
    assert.is_false(ok)
    assert.equals((REFUSED:gsub("'play'", "'serve'")), e)
  end)

  it("mode repl (or none) is the REPL: the game itself in g, every seat's board", function()
    local g = kontor.new_game { rules = "sea_merchants", players = 3, seed = 7 }
    local sess = repl.session(kontor, g, { mode = "repl" })
    assert.equals(g, rawget(_G, "g"))
    assert.is_nil(sess:viewer())                     -- everything, no seat's view
    assert.equals(g:decision().seats[1], sess:acting_seat(g))
    -- one person against bots: shown as that person, `as all` lifts it
    local sess2 = repl.session(kontor, g, { bots = { [2] = "random", [3] = "random" } })
    assert.equals(1, sess2:viewer())
    assert.is_nil(sess2.mode)
  end)
end)
