-- module_state_spec.lua: a rule script that keeps the game's state in a
-- module-level variable (not on g) plays another game after an undo, a
-- load or a bot's search; the engine says so, once a variable, with the
-- file and line (lua/kontor/game/module_state.lua, docs/api.md).
local kontor = require "kontor"
local core = require "kontor.core"
local bots = require "kontor.bots"
local seatmod = require "kontor.seat"

local FILE = "tests/rulesets/module_counter.lua"

local function fresh()
  -- its own load: the module's variables start at 0 (a game made from a
  -- file runs the file once)
  return kontor.new_game { rules = FILE, players = 2, seed = 1 }
end

describe("a module-level variable a step changes", function()
  it("is said by g:warnings() after the step, once, with file:line, the name and the values", function()
    local g = fresh()
    assert.are.same({}, g:warnings())
    g:apply("score 2")
    local w = g:warnings()
    assert.are.equal(1, #w)
    assert.are.equal("tests/rulesets/module_counter.lua:10: 'scored', a module-level variable of R.play, "
      .. "changed as the game was played (0 to 1): undo, a saved game, a reload and the bots replay the steps without "
      .. "it and play another game; keep the game's state on g (docs/api.md)", w[1])
    assert.are.same({}, g:warnings())          -- said: not again
    g:apply("score 1")
    g:undo(1)
    assert.are.same({}, g:warnings())
  end)

  it("changed by a view is said too (the first step took the first look)", function()
    local g = fresh()
    g:apply("pass")                            -- (the first step takes the first look)
    g:view(1)
    g:apply("pass")
    local w = g:warnings()
    assert.are.equal(1, #w)
    assert.truthy(w[1]:find("'seen_by_view', a module-level variable of R.view, changed as the game was "
      .. "played (0 to 1)", 1, true), w[1])
  end)

  it("changed by a bot's copies is said too", function()
    local g = fresh()
    g:apply("pass")
    local bot = assert(bots.new("greedy", 2, 7))
    local k = bot:choose(seatmod.view(g, 2))
    g:step(2, k)
    local w = g:warnings()
    assert.truthy(w[1] and w[1]:find("'scored', a module-level variable of R.play, changed as the game was played "
      .. "(0 to 3)", 1, true), tostring(w[1]))
  end)

  it("a scratch table refilled, and a value made once from nil, are not said", function()
    local g = fresh()
    g:apply("pass"); g:apply("pass")
    assert.are.same({}, g:warnings())          -- cache: nil to "made once"; SCRATCH: a table
  end)

  it("is not watched in a quiet game (sims and bots' copies): nothing to say", function()
    local R = assert(kontor.load_rules(FILE))
    local g = kontor.new_game { rules = R, players = 2, seed = 1, quiet = true }
    g:apply("score 2")
    assert.are.same({}, g:warnings())
  end)
end)

local support = require "tests.lua.support"
local MSG = "tests/rulesets/module_counter.lua:10: 'scored', a module-level variable of R.play, changed as the "
  .. "game was played"
local TAIL = ": undo, a saved game, a reload and the bots replay the steps without it and play another game; "
  .. "keep the game's state on g (docs/api.md)"

describe("the front ends say it", function()
  it("the REPL: after the line that changed it, once, with the values", function()
    local out = support.run(support.binary() .. " --rules " .. FILE .. " --seed 1", "score 2\nscore 1\nundo\n")
    local n = select(2, out:gsub("warning: ", ""))
    assert.are.equal(1, n, out)
    assert.truthy(support.has(out, "warning: " .. MSG .. " (0 to 1)" .. TAIL .. "\nPlayer 1 to choose (turn)."), out)
  end)

  it("play: without the values (a variable may hold what the seat may not see)", function()
    local out = support.run(support.binary() .. " play --rules " .. FILE .. " --seed 1 --bot 2=random",
      "score 2\n")
    assert.truthy(support.has(out, "warning: " .. MSG .. TAIL), out)
    assert.falsy(support.has(out, "(0 to 1)"), out)
  end)

  it("serve: in the result's warnings of the request that took the step", function()
    local out = support.run(support.binary() .. " serve",
      '{"id":1,"op":"new","rules":"' .. FILE .. '","seed":1}\n'
      .. '{"id":2,"op":"apply","game":"g1","action":"score 2"}\n'
      .. '{"id":3,"op":"apply","game":"g1","action":"score 2"}\n')
    local lines = support.lines(out)
    assert.is_nil(kontor.json.decode(lines[1]).result.warnings)
    assert.are.same({ MSG .. " (0 to 1)" .. TAIL }, kontor.json.decode(lines[2]).result.warnings)
    assert.is_nil(kontor.json.decode(lines[3]).result.warnings)
  end)
end)

describe("kontor sim", function()
  it("says a variable the run's games changed, on stderr, and in the summary; the run goes on", function()
    local out, e, code = support.run_split(support.plain_binary()
      .. " sim --rules " .. FILE .. " --games 5 --seed 1 --json")
    assert.are.equal(0, code)
    assert.are.equal("kontor: sim: warning: tests/rulesets/module_counter.lua:10: 'scored', a module-level "
      .. "variable of R.play, changed between game 1 and game 5 of the run (15 to 77): undo, a saved game, "
      .. "a reload and the bots replay the steps without it and play another game; keep the game's state "
      .. "on g (docs/api.md)\n", e)
    local s = kontor.json.decode(out)
    assert.are.equal(5, s.games)
    assert.are.equal(1, #s.warnings)
  end)

  it("the lab (compare --jobs 2): said once, by the run, before its games", function()
    local _, e, code = support.run_split(support.plain_binary()
      .. " compare --rules " .. FILE .. " --a '' --b '' --games 10 --seed 1 --jobs 2 --json")
    assert.are.equal(0, code)
    local lines = support.lines(e)
    assert.are.equal(2, #lines, e)          -- the warning, then ""
    assert.truthy(lines[1]:find("^kontor: compare: warning: tests/rulesets/module_counter.lua:10: 'scored', "
      .. "a module%-level variable of R.play, changed from one game of the setup to the next %(%d+ to %d+%)"), e)
  end)

  it("says nothing of a shipped rule set, and its summary has no warnings field", function()
    local out, e, code = support.run_split(support.plain_binary() .. " sim --games 3 --seed 1 --json")
    assert.are.equal(0, code)
    assert.are.equal("", e)
    assert.is_nil(kontor.json.decode(out).warnings)
  end)
end)

describe("a hostile rule set", function()
  local dir = support.tmpdir()
  teardown(function() os.execute("rm -rf " .. support.sh_quote(dir)) end)
  -- tables nested deeper than the C stack, and a variable that becomes a
  -- 10 MB string: the first look and the message stay bounded
  local SRC = [[
local R = { name = "deep", title = "Deep", summary = "nested data", players = { min = 1, max = 1, default = 1 } }
local t = {}
for _ = 1, 300000 do t = { t } end
R.data = { nest = t }
local last = "short"
function R.setup(g) g.n = 0 end
function R.play(g)
  while true do
    g:begin_turn(1)
    g:choose(1, "turn", { "grow", "stop" })
    last = string.rep("x", 10000000)
    if g.n > 2 then return end
    g.n = g.n + 1
  end
end
function R.scores(g) return { g.n } end
return R
]]
  it("nested 300,000 deep and a 10 MB string: one message, its value cut short", function()
    local file = support.write(dir .. "/deep.lua", SRC)
    local g = kontor.new_game { rules = file, seed = 1 }
    assert.truthy(g:apply("grow"))
    local w = g:warnings()
    assert.are.equal(1, #w)
    assert.truthy(w[1]:find(dir .. "/deep.lua:5: 'last', a module-level variable of R.play, changed as the game "
      .. 'was played ("short" to "xxxxxxxxxxxxxxxxxxxx..."): ', 1, true), w[1])
    assert.is_true(#w[1] < 400)
  end)
end)

describe("the shipped rule sets", function()
  for _, spec in ipairs { { "sea_merchants" }, { "sea_merchants", "house" }, { "caribbean" },
                          { "caribbean", "port_royal" }, { "old_world" } } do
    it(table.concat(spec, " + ") .. ": a game with a bot's searches keeps no state outside g", function()
      local g = kontor.new_game { rules = spec[1], variants = spec[2] and { spec[2] } or nil, seed = 3 }
      local rng, bot = core.rng(3), assert(bots.new("greedy", 1, 3))
      local n = 0
      while not g:over() and n < 150 do
        local who = g:who()
        local seat = type(who) == "table" and who[1] or (who ~= "chance" and who or nil)
        local opts = g:options(seat or 0)
        local k = (seat == 1 and n % 7 == 0) and bot:choose(seatmod.view(g, 1)) or rng:below(#opts) + 1
        g:apply(opts[k], seat)
        g:view(1)
        n = n + 1
      end
      assert.is_true(n >= 60)
      assert.are.same({}, g:warnings())
    end)
  end
end)
