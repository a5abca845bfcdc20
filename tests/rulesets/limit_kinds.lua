-- A rule set for tests/lua/errlimit_spec.lua: its second step reaches the
-- limit its option `limit` names ("none": the game ends there), so the
-- error's kind can be checked wherever it comes out (kontor.sim, the REPL,
-- kontor serve). The first step is a plain one.
local R = {
  name = "limit_kinds",
  title = "Limit kinds",
  summary = "test rule set: the second step reaches a sandbox limit",
  players = { min = 1, max = 2, default = 1 },
  options = { limit = { default = "none", type = "string", values = { "none", "time", "work", "memory" },
                        doc = "the limit the second step reaches" } },
}
local GO = { "go", "hit" }

function R.setup(g)
  g.steps = 0
end

-- Each: an armed call reaching one limit (lua/engine/sandbox.c).
local HIT = {
  time = function() while true do end end,
  work = function() table.move({}, 1, 1 << 40, 1, {}) end,     -- charged first: 2^40 units
  memory = function()                                            -- no work charged: the cap first
    local s = "x"
    while true do s = s .. s end
  end,
}

function R.play(g)
  g:choose(1, "first", GO)
  g.steps = 1
  local k = g:choose(1, "second", GO)
  if k == 2 and HIT[g.options.limit] then HIT[g.options.limit]() end
  g.steps = 2
end

function R.scores(g)
  return { g.steps, 0 }
end

return R
