-- docsqa_api_spec.lua - docs/api.md as a newcomer types it: a step's
-- functions (g:choose, g:stat) called on the game from the prompt say
-- what to do instead, and a stat the rule set does not declare stops the
-- lab's runs with the doc's message (plain sim, which reports no stats,
-- does not look).
-- Run: build/kontor run tests/busted.lua tests/lua/docsqa_api_spec.lua
local support = require "tests.lua.support"
local BIN = support.plain_binary()
local q = support.sh_quote

local RULES = [[
local R = { name = "undeclared", players = { min = 2, max = 2, default = 2 } }
function R.setup(g) end
function R.play(g)
  g:stat("x")
  g:choose(1, "t", { "a" })
end
function R.scores(g) return { 0, 0 } end
return R
]]

describe("docs/api.md", function()
  local dir, cleanup = support.scratch()
  teardown(cleanup)

  it("g:choose and g:stat typed at the prompt say they are for a step", function()
    local out = support.run(BIN .. " --seed 1", 'g:choose(1, "a", { "b" })\ng:stat("x")\ng:choose_from(1, "a", { "b" })\n'
      .. 'g.players\n')
    assert.are.equal("g:choose asks a decision inside a step of the rule script (R.play's g); from outside the game, "
      .. "make a move with g:apply(...)\n"
      .. "g:stat counts inside a step of the rule script (R.play's g), not from outside the game\n"
      .. "g:choose_from asks a decision inside a step of the rule script (R.play's g); from outside the game, "
      .. "make a move with g:apply(...)\n4\n", out)
  end)

  it("an undeclared stat stops the lab's run, not plain sim", function()
    local file = support.write(dir("undeclared") .. ".lua", RULES)
    local out, code = support.run(BIN .. " sim --rules " .. q(file) .. " --games 2 --coverage")
    assert.are.equal(1, code, out)
    assert.are.equal("kontor: sim: game 1: g:stat counts 'x', which undeclared does not declare in R.stats\n", out)
    out, code = support.run(BIN .. " sim --rules " .. q(file) .. " --games 2")
    assert.are.equal(0, code, out)
    assert.truthy(support.has(out, "games        2 (seed 1)\n"), out)
    local doc = support.read("docs/api.md"):gsub("%s+", " ")
    assert.truthy(support.has(doc, "`kontor: sim: game 1: g:stat counts 'x', which RULES does not declare in R.stats`"))
    assert.truthy(support.has(doc, "`g:stat counts inside a step of the rule script (R.play's g), not from outside the game`"))
  end)
end)

describe("docs/api.md's game object", function()
  it("names every public method of a game (g:NAME)", function()
    local doc = support.read("docs/api.md")
    -- the engine's own, for its rooms and the lab: not for scripts
    local internal = { atomically = true, move_list = true, play_random = true, replay = true }
    local out = support.run(BIN .. " run /dev/stdin", [[
      local Game = getmetatable(kontor.new_game{ seed = 1 })
      local names = {}
      for k, v in pairs(Game) do
        if type(v) == "function" and not k:match("^__") then names[#names + 1] = k end
      end
      table.sort(names)
      print(table.concat(names, "\n"))
    ]])
    local missing = {}
    for name in out:gmatch("[^\n]+") do
      if not internal[name] and not doc:find("g:" .. name .. "(", 1, true) then missing[#missing + 1] = name end
    end
    assert.truthy(support.has(out, "\nwho\n"), out)
    assert.are.same({}, missing)
  end)
end)

describe("g:step, the bots' fast path", function()
  it("refuses a seat that does not decide, or an option it does not have; records nothing", function()
    local out = support.run(BIN .. " run /dev/stdin", [[
      local g = kontor.new_game{ rules = "sea_merchants", players = 3, seed = 7 }
      print(select(2, pcall(g.step, g, 2, 1)))
      print(select(2, pcall(g.step, g, 1, 99)))
      print(select(2, pcall(g.step, g, 1, "1")))
      print(#g:actions(), g:who())
      g:step(1, 7)
      print(g:actions()[1], g:who())
    ]])
    assert.are.equal("g:step: seat 2 does not decide now\n"
      .. "g:step: seat 1 has no option 99 (it has 12)\n"
      .. "g:step: an option's number is a whole number, not string 1\n"
      .. "0\t1\n"
      .. "1: load fish on ship 1\t2\n", out)
  end)
end)

describe("the kontor table", function()
  it("each of its fields is named in docs/api.md or docs/module.md", function()
    local doc = support.read("docs/api.md") .. support.read("docs/module.md")
    -- the program's own helpers (the command line, serve), not for scripts
    local internal = { find_rules = true, default_rules = true, parse_seed = true, check_fields = true, Game = true }
    local out = support.run(BIN .. " run /dev/stdin", [[
      local names = {}
      for k in pairs(kontor) do names[#names + 1] = k end
      table.sort(names)
      print(table.concat(names, "\n"))
    ]])
    local missing = {}
    for name in out:gmatch("[^\n]+") do
      if not internal[name] and not doc:find("kontor." .. name, 1, true) then missing[#missing + 1] = name end
    end
    assert.truthy(support.has(out, "\nnew_game\n"), out)
    assert.are.same({}, missing)
  end)
end)

describe("docs/api.md's tables of fields", function()
  it("name every field kontor.new_game and kontor.sim take", function()
    local doc = support.read("docs/api.md")
    for _, call in ipairs { "new_game", "sim" } do
      local out = support.run(BIN .. " run /dev/stdin",
        "print(select(2, pcall(kontor." .. call .. ", { zzz = 1 })))")
      local fields = out:match("%(fields: ([^)]*)%)")
      assert.truthy(fields, out)
      for f in fields:gmatch("[%w_]+") do
        assert.truthy(doc:find("\n| `" .. f .. "` |", 1, true), call .. ": " .. f)
      end
    end
  end)
end)
