-- A tiny rule set for the engine's tests: first to `target` points wins.
local R = {
  name = "race",
  title = "Race",
  summary = "test rule set: first to N points; one decision per turn",
  players = { min = 1, max = 6, default = 2 },
  options = { target = { default = 20, type = "integer", min = 1, doc = "points to win" } },
}
local TURN = { "score 1", "score 2", "pass" }

function R.setup(g, scenario)
  g.points = kontor.counter { n = g.players, min = 0 }
  if scenario and scenario.points then
    for s, v in ipairs(scenario.points) do g.points:set(s, v) end
  end
end

function R.play(g)
  while true do
    for _, p in ipairs(g:turn_order(1)) do
      g:begin_turn(p)
      local k = g:choose(p, "turn", TURN)
      if k < 3 then
        g:log("%s scores %d", g.names[p], k)
        if g.points:add(p, k) >= g.options.target then return end
      end
    end
  end
end

function R.scores(g) return g.points:values() end

return R
