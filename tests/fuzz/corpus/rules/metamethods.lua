-- Seed: rule tables and results that carry metamethods (issue 10).
local function loop() for _ = 1, 100 do end return 1 end
local mm = { __index = loop, __newindex = loop, __len = loop, __pairs = function(t) return next, t end,
  __tostring = function() return "x" end, __lt = loop, __le = loop, __eq = loop, __call = loop,
  __concat = loop, __close = loop, __unm = loop }
-- The rule table is plain (a metatable on it, R.players, R.options,
-- R.constraints or R.explain is refused at load: the fuzzer adds them).
local R = { name = "mm", players = { min = 1, max = 2 } }
R.options = { o = { default = 1 } }
R.constraints = { function(g, seat, name, text) return setmetatable({}, mm) == nil and "no" or nil end }
R.explain = { [1] = function() return setmetatable({}, mm) end }
function R.setup(g)
  g.x = setmetatable({}, mm)
  g.ok = pcall(setmetatable, g, mm)
  g.mt = getmetatable(g)
  g.names = setmetatable({}, mm)
end
function R.play(g)
  g.co = coroutine.running()
  local t <close> = setmetatable({}, mm)  -- luacheck: ignore 211 (its __close is the point)
  while true do
    local k = g:choose(1, setmetatable({}, mm), { "a", "b" })
    g.rng:shuffle({ 1, 2, 3 })
    if k == 2 then error(setmetatable({}, mm)) end
  end
end
function R.scores(g) return setmetatable({ setmetatable({}, mm) }, mm) end
function R.winners(g) return setmetatable({}, mm) end
function R.view(g, seat)
  pcall(coroutine.resume, g.co)
  return setmetatable({ v = setmetatable({}, mm) }, mm)
end
return R
