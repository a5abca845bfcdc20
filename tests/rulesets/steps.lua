-- A rule set of nothing but decisions, for measuring what the engine
-- itself costs (docs/performance.md): `steps` turns, each one
-- g:begin_turn and one g:choose of a constant list of two options. Its
-- players score the number of times they took the second option.
local R = {
  name = "steps",
  title = "Steps",
  summary = "test rule set: N decisions of two options, nothing else",
  players = { min = 1, max = 8, default = 4 },
  options = { steps = { default = 174, type = "integer", min = 1, doc = "decisions a game" } },
}
local PICK = kontor.options { "a", "b" }

function R.setup(g)
  g.taken = kontor.counter { n = g.players, min = 0 }
end

function R.play(g)
  local players = g.players
  for t = 1, g.options.steps do
    local seat = t % players + 1
    g:begin_turn(seat)
    if g:choose(seat, "pick", PICK) == 2 then g.taken:add(seat, 1) end
  end
end

function R.scores(g) return g.taken:values() end

return R
