-- redteam6_spec.lua - the sixth red-team pass (docs/security.md, "Red team
-- 6"), on what the session before it added: kontor.bad_option, the
-- unknown option's hint that loads the variants on the search path, the
-- recorded options kept typed, the REPL's quoted `new` and actions with
-- runs of spaces, and the "is thinking..." line. The first describes are
-- holes it found, each failing on the code before its fix; the last pin
-- what was tried and held.
-- Run: build/kontor run tests/busted.lua tests/lua/redteam6_spec.lua
local support = require "tests.lua.support"

local has, write = support.has, support.write
local tmp, cleanup = support.scratch()
teardown(cleanup)

-- A two-seat rule file: `setup` and `play` are the bodies of R.setup and
-- R.play (g in scope).
local function rules(name, setup, play)
  return write(tmp(name .. ".lua"), "local R = { name = '" .. name .. "', title = 'T', summary = 's', "
    .. "players = { min = 2, max = 2, default = 2 } }\n"
    .. "function R.setup(g) " .. (setup or "") .. " end\n"
    .. "function R.play(g) " .. (play or "") .. " g:choose(1, 'x', { 'a', 'b' }) g:choose(2, 'y', { 'a' }) end\n"
    .. "function R.scores(g) return { 0, 0 } end\nreturn R\n")
end

local function failure(t)
  local ok, e = pcall(kontor.new_game, t)
  assert.is_false(ok)
  return e
end

describe("kontor.bad_option outside a variant's apply", function()
  -- The sandbox kept the message of every kontor.bad_option, wherever it
  -- was called, until the next variant was applied. A game's script that
  -- caught its own refusal of a big text held that memory for every later
  -- game in the program (serve's other games, the lab's), whose scripts
  -- then reached the memory limit sooner; and a refusal called in R.setup
  -- or R.play read as a refused option, with no place.
  it("keeps nothing: a game's refusal of 32 MiB, caught, is gone with its game", function()
    local hold = rules("hold", "pcall(kontor.bad_option, string.rep('x', 32 * 2^20)) g.done = true")
    collectgarbage(); collectgarbage()
    local before = collectgarbage("count")
    do local g = kontor.new_game { rules = hold, seed = 1 }; assert.truthy(g) end
    collectgarbage(); collectgarbage()
    -- (before: 32 MiB more, held by the sandbox until a variant was applied)
    assert.is_true(collectgarbage("count") - before < 4096, tostring(collectgarbage("count") - before))
  end)

  it("is the script's mistake, at its line, in R.setup, R.play, a coroutine and a closure apply left", function()
    local setup = rules("insetup", "kontor.bad_option('option x of insetup: 4 is too many')")
    local e = failure { rules = setup, seed = 1 }
    assert.are.equal("rules", e.kind)
    -- (before: "setting up insetup failed: option x of insetup: 4 is too many", no place)
    assert.truthy(has(e.message, "setting up insetup failed: " .. setup .. ":2: kontor.bad_option is for a "
      .. "variant's apply (refusing an option's value), not here"), e.message)

    local play = rules("inplay", nil, "local co = coroutine.wrap(function() kontor.bad_option('option x: no') end) co()")
    local ok, pe = pcall(kontor.new_game, { rules = play, seed = 1 })
    assert.is_false(ok)
    assert.truthy(has(tostring(pe), play .. ":3: kontor.bad_option is for a variant's apply"), tostring(pe))

    local left = write(tmp("left.lua"), [[
return { variant = true, name = "left", base = "sea_merchants", summary = "s",
  apply = function(R)
    local setup = R.setup
    R.setup = function(g) kontor.bad_option("option size of left: 4 is bad") return setup(g) end
  end }
]])
    local le = failure { players = 2, variants = { left }, seed = 1 }
    assert.are.equal("rules", le.kind)
    assert.truthy(has(le.message, left .. ":4: kontor.bad_option is for a variant's apply"), le.message)
  end)

  it("in apply, it is still the user's bad value (usage), once; a caught one does not count", function()
    local refuse = write(tmp("refuse.lua"), [[
return { variant = true, name = "refuse", base = "sea_merchants", summary = "s",
  options = { n = { default = 1, type = "integer" } },
  apply = function(R, o) if o.n > 2 then kontor.bad_option(("option n of refuse: %d is more than 2"):format(o.n)) end end }
]])
    local e = failure { players = 2, variants = { refuse .. ":n=3" }, seed = 1 }
    assert.are.equal("usage", e.kind)
    assert.are.equal("variant refuse: option n of refuse: 3 is more than 2", e.message)
    -- the same variant with a good value, then a game's failing script: nothing of the refusal is left
    assert.truthy(kontor.new_game { players = 2, variants = { refuse .. ":n=2" }, seed = 1 })
    local broken = rules("broken", "error('option n of refuse: 3 is more than 2', 0)")
    assert.are.equal("rules", failure({ rules = broken, seed = 1 }).kind)
  end)
end)

describe("the unknown option's hint", function()
  -- It wrote the value with tostring: a list or an object given in serve
  -- (or kontor.new_game) put a table's address in the hint,
  -- "hand_limit:size=table: 0x7fd5e9f19c40".
  it("gives a list as a/b and anything else as VALUE, never an address", function()
    local e = failure { players = 2, options = { size = { 1, 2 } } }
    assert.truthy(has(e.message, "add it with --variant hand_limit:size=1/2"), e.message)
    e = failure { players = 2, options = { size = { {} } } }
    assert.truthy(has(e.message, "add it with --variant hand_limit:size=VALUE"), e.message)
    local lines = support.serve_lines {
      '{"id":1,"op":"new","players":2,"options":{"size":[1,2]}}',
      '{"id":2,"op":"new","players":2,"options":{"size":[{"a":1}]}}',
    }
    assert.truthy(has(lines[1], 'add it to \\"variants\\" as \\"hand_limit:size=1/2\\"'), lines[1])
    assert.truthy(has(lines[2], 'add it to \\"variants\\" as \\"hand_limit:size=VALUE\\"'), lines[2])
    assert.is_nil(lines[1]:find("0x", 1, true))
    assert.is_nil(lines[2]:find("0x", 1, true))
  end)
end)

describe("an option's refused value", function()
  -- option_value said a value with tostring too: a list where a number
  -- belongs, in a save file or a serve request's variant options, read
  -- "option size of hand_limit: 'table: 0x7fda0ab6b280' is not a whole number".
  it("is said as the command line writes it, or by its kind, never by an address", function()
    local doc = '{"actions":[],"format":"kontor-save","kontor":"0.1.0","names":["A","B"],"options":{},'
      .. '"players":2,"rules":"sea_merchants","seed":1,"variants":[{"name":"hand_limit","options":{"size":%s}}],'
      .. '"version":1}'
    local list = write(tmp("list.json"), doc:format('[1,2]'))
    local mixed = write(tmp("mixed.json"), doc:format('[1,{"a":2}]'))
    local _, e = kontor.load_game(list)
    assert.are.equal(list .. ": option size of hand_limit: '1/2' is not a whole number", tostring(e))
    _, e = kontor.load_game(mixed)
    assert.are.equal(mixed .. ": option size of hand_limit: a table is not a whole number", tostring(e))
    local lines = support.serve_lines {
      '{"id":1,"op":"new","players":2,"variants":[{"name":"hand_limit","options":{"size":[[1]]}}]}',
      '{"id":2,"op":"new","players":2,"options":{"start_coins":[3]}}',
    }
    assert.are.equal('{"error":{"code":"game_setup","message":"option size of hand_limit: a table is not a whole '
      .. 'number"},"id":1,"ok":false}', lines[1])
    assert.are.equal('{"error":{"code":"game_setup","message":"option start_coins of sea_merchants: \'3\' is not a '
      .. 'whole number"},"id":2,"ok":false}', lines[2])
  end)
end)

describe("runs of spaces inside a text are linear work", function()
  -- Actions and variant specs were trimmed with s:match("^%s*(.-)%s*$"),
  -- which tries its closing %s*$ at every byte of a run of spaces inside
  -- the text: "load", 30,000 spaces and "x" took 5 s of CPU, a variant
  -- spec with 20,000 spaces 4.4 s; a serve request of 1 MiB so made would
  -- have held the server for hours.
  local function cpu(f)
    local t = os.clock()
    local r = table.pack(f())
    return os.clock() - t, table.unpack(r, 1, r.n)
  end
  local gap = string.rep(" ", 30000)

  it("an action, with a seat or chance, refused or taken", function()
    local g = kontor.new_game { players = 2, seed = 1 }
    for _, text in ipairs { "load" .. gap .. "x", "1: load" .. gap .. "x", "chance:" .. gap .. "x" } do
      local t, ok, err = cpu(function() return g:apply(text) end)
      assert.is_nil(ok)
      assert.truthy(t < 0.5, string.format("%.2f s for %q...", t, text:sub(1, 8)))
      assert.truthy(has(err, "is not a legal action") or has(err, "not chance's turn") or has(err, "chance"), err)
    end
    assert.are.equal(0, #g:actions())
    local t, ok = cpu(function() return g:apply(" \t1:  load" .. gap .. "grain \t on ship 1" .. gap) end)
    assert.truthy(t < 0.5, string.format("%.2f s", t))
    assert.is_true(ok)
    assert.are.same({ "1: load grain on ship 1" }, g:actions())
  end)

  it("a variant's options in its text", function()
    local t, ok, e = cpu(function() return pcall(kontor.new_game, { players = 2, variants = { "hand_limit:size=5" .. gap .. "x" } }) end)
    assert.is_false(ok)
    assert.truthy(t < 0.5, string.format("%.2f s", t))
    assert.are.equal("usage", e.kind)
    local g = kontor.new_game { players = 2, seed = 1, variants = { "hand_limit:  size =  7  " } }
    assert.are.equal(7, g.R.applied[1].options.size)
  end)

  it("kontor.text.trim is s:match('^%s*(.-)%s*$')", function()
    local ktext = require "kontor.text"
    for _, s in ipairs { "", " ", "\t\n", "a", " a ", "a b", "  a  b  ", "\ta\t", "x\0 ", " \0", "é é " } do
      assert.are.equal(s:match("^%s*(.-)%s*$"), ktext.trim(s))
    end
  end)
end)

describe("the REPL's new", function()
  local BIN = support.binary()

  -- The quote reader grew each word a byte at a time, copying it whole at
  -- each byte: a quoted name of 1 MB took 71 s.
  it("reads a quoted word of 1 MB in linear time", function()
    local out, code = support.run("timeout 10 " .. BIN .. " --players 2 --seed 3",
      'new names="' .. string.rep("A", 2^20) .. '",B\n')
    assert.are.equal(0, code)   -- (before: 124, timeout's)
    assert.truthy(has(out, "name 1 must be at most 40 printable characters, not 'AAAA"), out:sub(1, 200))
  end)

  -- players= and names= were looked for in the whole line, quotes and all:
  -- a quoted name holding "players=" kept the old game's count.
  it("takes a k= inside a quoted value as part of it", function()
    local out, code = support.run(BIN .. " --players 3 --seed 3", 'new names="Ann players=x,Bob"\n')
    assert.are.equal(0, code)
    -- (before: "3 players (Ann players=x, Bob, Player 3)")
    assert.truthy(has(out, "2 players (Ann players=x, Bob)"), out)
  end)
end)
