-- metatable_memory_spec.lua: a rule script that makes a new metatable at
-- every call (`setmetatable({}, { __index = t })`, as Old World's estimate
-- does on a bot's copies) keeps nothing once the table is gone. The
-- sandbox's setmetatable kept each metatable and its copy in strong maps,
-- and with them what __index reached: some 0.7 MB a game of Old World
-- with one greedy seat, until a long lab run hit the memory cap
-- (`old_world: R.estimate: not enough memory`).
local kontor = require "kontor"
local support = require "tests.lua.support"

local SCRIPT = [[
local R = { name = "sketches", title = "Sketches", summary = "a metatable made at every step",
            players = { min = 1, max = 2, default = 1 } }
function R.setup(g)
  g.points = kontor.counter { n = g.players, min = 0 }
end
local function sketch(g)
  local big = {}
  for i = 1, 200 do big[i] = { i } end
  local s = setmetatable({}, { __index = big })   -- a new metatable each time
  return s[200][1]
end
function R.play(g)
  for _ = 1, 40 do
    g:begin_turn(1)
    g:choose(1, "turn", { "sketch", "rest" })
    g.points:add(1, sketch(g) > 0 and 1 or 0)
  end
end
function R.scores(g) return g.points:values() end
return R
]]

describe("a metatable made at every call", function()
  local dir = support.tmpdir()
  local file = support.write(dir .. "/sketches.lua", SCRIPT)
  teardown(function() os.execute("rm -rf " .. support.sh_quote(dir)) end)

  it("is let go with its table: games of one loaded rule set do not grow the heap", function()
    local R = assert(kontor.load_rules(file))
    local function round()
      for seed = 1, 30 do
        local g = kontor.new_game { rules = R, seed = seed, quiet = true }
        while not g:over() do g:apply("sketch") end
      end
      collectgarbage(); collectgarbage()
      return collectgarbage("count")
    end
    round()
    local second = round()
    local third = round()
    -- before: each round kept 30 x 40 metatables, their copies and the
    -- 200-entry tables they reached: the heap grew by 21,928 KB a round
    assert.is_true(third - second < 64, ("the heap grew by %.0f KB in a round"):format(third - second))
  end)
end)
