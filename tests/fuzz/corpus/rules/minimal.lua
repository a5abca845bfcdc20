-- The smallest rule set: one seat, one decision, then the end.
local R = { name = "minimal", players = { min = 1, max = 1 } }
function R.setup(g) g.n = 0 end
function R.play(g) g.n = g:choose(1, "go", { "go", "stop" }) end
function R.scores(g) return { g.n } end
return R
