-- Errors as data, the limits (issue 25): a rule script's call that reaches
-- a sandbox limit comes back as an error value of kind "limit" whose
-- `limit` says which ("time", "work", "memory"), made where the limit is
-- reached (lua/engine/sandbox.c: the watchdog, the work counter, the
-- allocator), never worked out from the message. Checked through
-- kontor.sim, a game's apply, the REPL and kontor serve, with
-- tests/rulesets/limit_kinds.lua (its second step reaches the limit its
-- option names).

local support = require "tests.lua.support"
local json = kontor.json
local errors = kontor.errors
local csb = kontor.core.sandbox

local BIN = support.plain_binary()
local RULES = "tests/rulesets/limit_kinds.lua"
local MESSAGE = { time = "^time limit reached %(0%.2 s of CPU per step%)",
                  work = "^work limit reached %(10000000 units per step%)",
                  memory = "^memory limit reached %(64 MiB%)" }

describe("a limit's error is data", function()
  local saved
  before_each(function()
    saved = csb.limits()
    csb.limits { time = 0.2, memory = 64 << 20 }
  end)
  after_each(function()
    csb.limits { time = saved.time, memory = saved.memory, work = saved.work }
    collectgarbage()
  end)

  -- (the memory cases with time to spare: under the sanitizers on a busy
  -- machine, filling 64 MiB once took longer than 0.2 s of CPU)
  local function spare(limit) if limit == "memory" then csb.limits { time = 5 } end end

  for _, limit in ipairs { "time", "work", "memory" } do
    it(limit .. ": through kontor.sim, its game and seed", function()
      spare(limit)
      local ok, e = pcall(kontor.sim, { rules = RULES, players = 1, games = 3, seed = 1,
                                        options = { limit = limit } })
      assert.is_false(ok)
      assert.are.equal("limit", errors.kind(e))
      assert.are.equal(limit, e.limit)
      assert.are.equal(2, e.game)     -- the bot of game 1 chose "go" at the second step
      assert.truthy(e.message:find("^game 2 %(seed %d+%): " .. MESSAGE[limit]:sub(2)), e.message)
    end)

    it(limit .. ": through a game's apply, which puts the game back", function()
      spare(limit)
      local g = kontor.new_game { rules = RULES, players = 1, seed = 4, options = { limit = limit } }
      g:apply("go")
      local ok, e = pcall(g.apply, g, "hit")
      assert.is_false(ok)
      assert.are.equal("limit", errors.kind(e))
      assert.are.equal(limit, e.limit)
      assert.truthy(errors.message(e):find(MESSAGE[limit]), errors.message(e))
      assert.are.same({ "1: go" }, g:actions())
      assert.are.equal(1, g.ctx.steps)
    end)
  end

  it("no text makes a limit's error: a script's own error is of kind rules", function()
    assert.are.equal("rules", errors.of_script("tests/x.lua:3: time limit reached (a script's own text)"))
    assert.are.equal("rules", errors.of_script("not enough memory"))
    assert.are.equal("limit", errors.of_script(errors.limit("work", "work limit reached")))
  end)

  it("a memory error a script catches does not make its next error one", function()
    local g = kontor.new_game { rules = "tests/hostile/attack.lua", seed = 5 }
    g:apply("safe")
    local ok, e = pcall(g.apply, g, "error after caught memory error")
    assert.is_false(ok)
    assert.are.equal("string", type(e))
    assert.truthy(e:find("the real error (caught one: true)", 1, true), e)
  end)
end)

describe("a limit's error in the front ends", function()
  it("the REPL shows each limit's message, and its Lua sees the kind", function()
    for _, limit in ipairs { "time", "work", "memory" } do
      local out = support.run(BIN .. " --rules " .. RULES .. " --option limit=" .. limit,
        "kontor.core.sandbox.limits { time = 0.2, memory = 64 << 20 }\n"
        .. "do go\ndo hit\nok, e = pcall(g.apply, g, 'hit')\n=kontor.errors.kind(e), e.limit, #g:actions()\n")
      assert.truthy(out:find("\n" .. MESSAGE[limit]:sub(2)), out)
      assert.truthy(out:find("\nlimit\t" .. limit .. "\t1\n", 1, true), out)
    end
  end)

  it("kontor serve: script_error with the limit", function()
    for _, limit in ipairs { "time", "work", "memory" } do
      local reqs = {
        json.encode { id = 1, op = "new", rules = RULES, options = { limit = limit } },
        json.encode { id = 2, op = "apply", game = "g1", action = "go" },
        json.encode { id = 3, op = "apply", game = "g1", action = "hit" },
        json.encode { id = 4, op = "moves", game = "g1" },
      }
      local out = support.run(BIN .. " serve", table.concat(reqs, "\n") .. "\n")
      local lines = {}
      for l in out:gmatch("[^\n]+") do lines[#lines + 1] = json.decode(l) end
      assert.are.equal(4, #lines, out)
      local r = lines[3]
      assert.is_false(r.ok)
      assert.are.equal("script_error", r.error.code)
      assert.are.equal(limit, r.error.limit)
      assert.truthy(r.error.message:find("^" .. limit .. " limit reached"), r.error.message)
      assert.are.same({ { seat = 1, text = "go" } }, lines[4].result.moves)
    end
  end)

  it("kontor serve: a script's own error has no limit", function()
    local reqs = {
      json.encode { id = 1, op = "new", rules = "tests/hostile/attack.lua" },
      json.encode { id = 2, op = "apply", game = "g1", action = "error nil" },
    }
    local out = support.run(BIN .. " serve", table.concat(reqs, "\n") .. "\n")
    local r = json.decode(out:match("[^\n]+\n?$"))
    assert.are.equal("script_error", r.error.code)
    assert.is_nil(r.error.limit)
    assert.truthy(r.error.message:find("^%(error object is a nil value%)"), r.error.message)
  end)
end)
