-- polish_memory_spec.lua: a rule script that runs out of its memory cap
-- gets the limit's message with its size, and the script's file:line
-- (lua/engine/sandbox.c keeps the frames the allocator saw: Lua's own memory
-- error reaches no message handler); the game is exactly as before.
local kontor = require "kontor"
local support = require "tests.lua.support"
local ktext = require "kontor.text"
local csb = kontor.core.sandbox


-- A variant of Sea Merchants that fills memory in R.setup (a sandbox.call)
-- or in a constraint of phase I (the game's coroutine, sandbox.resume).
local SETUP = [[return { variant = true, base = "sea_merchants", apply = function(R)
  local old = R.setup
  R.setup = function(g, ...)
    local t = {}
    for i = 1, 1e9 do t[i] = i end
    return old(g, ...)
  end
end }
]]
local MOVE = [[return { variant = true, base = "sea_merchants", apply = function(R)
  R.constraints[#R.constraints + 1] = function(g, seat, name, text)
    if name == "phase1" then
      local s = "x"
      while true do s = s .. s end
    end
  end
end }
]]

describe("a rule script out of memory", function()
  local dir = support.tmpdir()
  local setup_file = support.write(dir .. "/fill_setup.lua", SETUP)
  local move_file = support.write(dir .. "/fill_move.lua", MOVE)
  local saved
  before_each(function()
    saved = csb.limits()
    csb.limits { memory = 64 << 20, time = 5 }
  end)
  after_each(function()
    csb.limits { time = saved.time, memory = saved.memory, work = saved.work }
    collectgarbage()
  end)
  teardown(function() os.execute("rm -rf " .. support.sh_quote(dir)) end)

  it("in R.setup: the limit, its size and the line (it was 'not enough memory')", function()
    local ok, e = pcall(kontor.new_game, { rules = "sea_merchants", variants = { setup_file }, players = 2, seed = 1 })
    assert.is_false(ok)
    assert.are.equal("limit", kontor.errors.kind(e))
    assert.are.equal("memory", e.limit)
    assert.are.equal("setting up sea_merchants failed: memory limit reached (64 MiB), in " .. setup_file .. ":5",
      ktext.error_place(e))
    assert.truthy(e.traceback:find(setup_file .. ":5: in function <" .. setup_file .. ":3>", 1, true), e.traceback)
  end)

  it("in a move: the limit, its size and the line; the game is as it was", function()
    local g = kontor.new_game { rules = "sea_merchants", variants = { move_file }, players = 2, seed = 1 }
    for _ = 1, 3 do assert(g:apply(g:options()[1])) end
    local before, moves, opts = g:show(), g:moves(), g:options()
    local ok, e = pcall(g.apply, g, g:options()[1])
    assert.is_false(ok)
    assert.are.equal("memory", e.limit)
    assert.are.equal("memory limit reached (64 MiB), in " .. move_file .. ":5", ktext.error_place(e))
    assert.are.same({ before, moves, opts }, { g:show(), g:moves(), g:options() })
    assert.are.equal(3, #g:moves())
    g:undo(1)                                -- the game goes on
    assert.are.equal(2, #g:moves())
  end)
end)

describe("at the REPL", function()
  it("the message is one line with the rule file's line, and the game goes on", function()
    local dir = support.tmpdir()
    local f = support.write(dir .. "/fill_move.lua", MOVE)
    local out = support.kontor_rc("--players 2 --seed 1 --variant " .. f, "1\n1\n1\n1\n=#g:moves()\ntrace\n")
    assert.truthy(support.has(out, "\nmemory limit reached (256 MiB), in " .. f .. ":5\n3\n"
      .. "memory limit reached (256 MiB), in " .. f .. ":5\nstack traceback:\n\t" .. f .. ":5: in function <"
      .. f .. ":2>\n"), out)
    os.execute("rm -rf " .. support.sh_quote(dir))
  end)
end)
