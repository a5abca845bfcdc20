-- tests/module/seat_args_spec.lua: a front end's mistakes with a seat
-- view under stock lua5.4 get the API's "bad argument" errors, not an
-- engine file's "attempt to index a nil value"; error values carry the
-- kinds docs/api.md ("Errors") lists. Run from module_spec.lua.
local kontor = require "kontor"
local seat = require "kontor.seat"

local function raised(f, ...)
  local ok, err = pcall(f, ...)
  assert.is_false(ok, "no error")
  return tostring(err)
end

describe("a seat view under lua5.4", function()
  local g = kontor.new_game { rules = "old_world", players = 3, seed = 1 }
  local v = seat.view(g, 1)

  it("refuses a sample without an rng by name", function()
    -- was: lua/kontor/fork.lua:1394: attempt to index a nil value (local 'rng')
    local msg = raised(v.sample, nil)
    assert.are.equal("bad argument #1 to 'sample' (an rng expected, got nil)", msg:gsub("^[^:]*:%d+: ", ""))
    assert.is_truthy(msg:match("^[^:]*seat_args_spec%.lua:%d+: "), msg)   -- where the caller called it
    assert.are.equal(0, v.sample(kontor.core.rng(1)):step_count() - g:step_count())
  end)

  it("refuses a refusal of a text that is not a text", function()
    -- was: lua/kontor/seat.lua:289: attempt to index a nil value (local 'text')
    assert.are.equal("bad argument #1 to 'refusal' (a text expected, got nil)",
      (raised(v.refusal, nil):gsub("^[^:]*:%d+: ", "")))
    assert.are.equal("'bid 9' is not a legal action: you have 3 gold; expected one of: bid 0-3",
      v.refusal("bid 9"))
  end)

  it("refuses redo of a count below 1, as undo does", function()
    -- was: v.redo(-1) returned 0
    assert.are.equal("bad argument #1 to 'redo' (a count above 0 expected, got -1)",
      (raised(v.redo, -1):gsub("^[^:]*:%d+: ", "")))
    assert.are.equal("bad argument #1 to 'undo' (a count above 0 expected, got 0)",
      (raised(v.undo, 0):gsub("^[^:]*:%d+: ", "")))
    assert.are.equal(0, v.redo(1))
  end)
end)

describe("error values of the module have the kinds of docs/api.md", function()
  local function kind_of(f, ...)
    local ok, a, b = pcall(f, ...)
    if not ok then return kontor.errors.kind(a), tostring(a) end
    return kontor.errors.kind(b), tostring(b)
  end

  it("usage, file and rules", function()
    assert.are.same({ "usage", "sea_merchants is for 2 to 4 players, not 9" },
      { kind_of(kontor.new_game, { players = 9 }) })
    assert.are.equal("usage", (kind_of(kontor.new_game, { rules = "nosuch" })))
    assert.are.same({ "file", "/nonexistent/a.json: No such file or directory" },
      { kind_of(kontor.load_game, "/nonexistent/a.json") })
    assert.are.equal("file", (kind_of(kontor.load_document, {})))
    local kind, msg = kind_of(kontor.new_game, { players = 2, scenario = { coins = "x" } })
    assert.are.equal("rules", kind)
    assert.are.equal("setting up sea_merchants failed: scenario: market must list 6 product names, one per slot",
      msg:match("^[^\n]*"))
  end)
end)

describe("kontor.set_home under lua5.4", function()
  it("refuses a home that is not a folder name, and keeps the one it had", function()
    -- was: set_home(nil) and set_home(5) were taken, and every game then
    -- failed with "unknown rule set or variant 'sea_merchants' (available: none)"
    local home = kontor.home
    for _, bad in ipairs { "nil", "5" } do
      local ok, err = pcall(kontor.set_home, load("return " .. bad)())
      assert.is_false(ok)
      assert.are.equal(string.format("bad argument #1 to 'set_home' (a folder name expected, got %s)",
        bad == "nil" and "nil" or "number"), (tostring(err):gsub("^[^:]*:%d+: ", "")))
    end
    assert.are.equal(home, kontor.home)
    assert.are.equal("sea_merchants", kontor.new_game { players = 2, seed = 1 }.R.name)
  end)
end)

describe("kontor.new_game and load_game under lua5.4", function()
  it("refuse a list given as a text: it started the game without it", function()
    -- was: new_game{ variants = "house" } made a game of plain Sea Merchants,
    -- and names = "x" was read as no names
    local ok, err = pcall(kontor.new_game, { variants = "house", players = 2 })
    assert.is_false(ok)
    assert.are.equal("usage", kontor.errors.kind(err))
    assert.are.equal('variants must be a list ({ "house" }), not a string', (tostring(err):gsub("^[^:]*:%d+: ", "")))
    ok, err = pcall(kontor.new_game, { names = "x", players = 2 })
    assert.is_false(ok)
    assert.are.equal('names must be a list ({ "Anna", "Bert" }), not a string', (tostring(err):gsub("^[^:]*:%d+: ", "")))
    ok, err = pcall(kontor.load_rules, "sea_merchants", "house")
    assert.is_false(ok)
    assert.are.equal("usage", kontor.errors.kind(err))
    local g = kontor.new_game { variants = { "house" }, players = 2, seed = 1 }
    assert.are.equal("with house", require("kontor.seat").variants_text(g))
  end)

  it("load_game refuses what is not a file name by name", function()
    -- was: lua/kontor/files.lua:74: bad argument #1 to 'read' (string expected, got nil)
    local ok, err = pcall(kontor.load_game, nil)
    assert.is_false(ok)
    assert.are.equal("bad argument #1 to 'load_game' (a file name expected, got nil)",
      (tostring(err):gsub("^[^:]*:%d+: ", "")))
    local g, e = kontor.load_game("/nonexistent/a.json")
    assert.is_nil(g)
    assert.are.equal("file", kontor.errors.kind(e))
  end)
end)

describe("a game's undo and redo under lua5.4", function()
  it("refuse a count that is not a whole number by name", function()
    -- was: lua/kontor/game/history.lua:55: attempt to compare number with string
    local g = kontor.new_game { players = 2, seed = 1 }
    assert(g:apply(1))
    for _, name in ipairs { "undo", "redo", "undo_moves", "redo_moves" } do
      local ok, err = pcall(g[name], g, "x")
      assert.is_false(ok, name)
      assert.are.equal(string.format("bad argument #1 to '%s' (a whole number expected, got x)", name),
        (tostring(err):gsub("^[^:]*:%d+: ", "")))
    end
    assert.are.equal(1, #g:moves())
    assert.are.equal(1, g:undo())
    assert.are.equal(1, g:redo())
  end)

  it("refuse a negative count, which took back nothing and said nothing", function()
    local g = kontor.new_game { players = 2, seed = 1 }
    assert(g:apply(1))
    for _, name in ipairs { "undo", "redo", "undo_moves", "redo_moves" } do
      local ok, err = pcall(g[name], g, -1)
      assert.is_false(ok, name)
      assert.are.equal(string.format("bad argument #1 to '%s' (a number of moves, 0 or more, expected, got -1)", name),
        (tostring(err):gsub("^[^:]*:%d+: ", "")))
    end
    assert.are.equal(1, #g:moves())
    assert.are.equal(0, g:undo(0))
    assert.are.equal(1, #g:moves())
  end)
end)
