-- redteam3: the frames the allocator keeps for a memory error
-- (note_frames, lua/engine/sandbox.c) when a rule script runs out of memory
-- from a coroutine of its own (wrap and resume), deep recursion (the
-- stack grown), interned strings; and that the next error never shows
-- the frames of an earlier one (docs/security.md, "Red team 3").
local kontor = require "kontor"
local support = require "tests.lua.support"
local ktext = require "kontor.text"
local csb = kontor.core.sandbox

-- A Sea Merchants variant whose phase I constraint runs BODY (line 4 on).
local function variant(body)
  return [[return { variant = true, base = "sea_merchants", apply = function(R)
  R.constraints[#R.constraints + 1] = function(g, seat, name, text)
    if name ~= "phase1" then return end
]] .. body .. [[
  end
end }
]]
end

local CASES = {
  { "a coroutine of its own", [[
    local co = coroutine.wrap(function() local t = {} for i = 1, 1e9 do t[i] = { i } end end)
    co()
]], 4 },
  { "coroutine.resume", [[
    local co = coroutine.create(function() local t = {} for i = 1, 1e9 do t[i] = {} end end)
    local ok, e = coroutine.resume(co)
    return ok, e
]], 4 },
  { "deep recursion, each frame a table", [[
    local function f(n) local t = { n, n, n, n, n, n, n, n } return f(n + 1) + #t end
    return f(1)
]], 4 },
  { "interned strings", [[
    local t = {}
    for i = 1, 1e9 do t[i] = tostring(i) .. "k" end
]], 5 },
}

describe("redteam3: a rule script out of memory #slow", function()
  local dir = support.tmpdir()
  local saved
  before_each(function()
    saved = csb.limits()
    csb.limits { memory = 64 << 20, time = 60 }   -- (ASan is slow)
  end)
  after_each(function()
    csb.limits { time = saved.time, memory = saved.memory, work = saved.work }
    collectgarbage()
  end)
  teardown(function() os.execute("rm -rf " .. support.sh_quote(dir)) end)

  for i, case in ipairs(CASES) do
    it("from " .. case[1] .. ": the limit and the line, the game as it was", function()
      local file = support.write(dir .. "/oom" .. i .. ".lua", variant(case[2]))
      local g = kontor.new_game { rules = "sea_merchants", variants = { file }, players = 2, seed = 1 }
      for _ = 1, 3 do assert(g:apply(g:options()[1])) end
      local before = g:show()
      local ok, e = pcall(g.apply, g, g:options()[1])
      assert.is_false(ok)
      assert.are.equal("memory", e.limit, tostring(e))
      local place = ktext.error_place(e)
      assert.truthy(place:find("^memory limit reached %(64 MiB%)"), place)
      assert.truthy(place:find(file .. ":" .. case[3], 1, true), tostring(e))
      assert.are.same(before, g:show())
      assert.are.equal(3, #g:moves())
    end)
  end

  it("a second game's error names its own line, never the first one's", function()
    local f1 = support.write(dir .. "/first.lua", variant([[
    local t = {} for i = 1, 1e9 do t[i] = {} end
]]))
    local f2 = support.write(dir .. "/second.lua", variant([[

    error("plain")
]]))
    local g1 = kontor.new_game { rules = "sea_merchants", variants = { f1 }, players = 2, seed = 1 }
    for _ = 1, 3 do assert(g1:apply(g1:options()[1])) end
    local ok, e = pcall(g1.apply, g1, g1:options()[1])
    assert.is_false(ok)
    assert.truthy(tostring(e):find(f1 .. ":4", 1, true), tostring(e))
    local g2 = kontor.new_game { rules = "sea_merchants", variants = { f2 }, players = 2, seed = 1 }
    for _ = 1, 3 do assert(g2:apply(g2:options()[1])) end
    local ok2, e2 = pcall(g2.apply, g2, g2:options()[1])
    assert.is_false(ok2)
    assert.falsy(tostring(e2):find("memory", 1, true), tostring(e2))
    assert.falsy(tostring(e2):find(f1, 1, true), tostring(e2))
    assert.truthy(tostring(e2):find(f2 .. ":5: plain", 1, true), tostring(e2))
  end)
end)
