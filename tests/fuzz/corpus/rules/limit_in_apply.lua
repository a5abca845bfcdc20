-- luacheck: ignore (a fuzzer's mutation of weak.lua: it reaches the memory limit inside g:apply)
-- Seed:"weak tables and a __newindex chain near the memory cap (issue 10).
local R = { name = "weak", players = { min = 1, max = 1 } }
local function fill(obj)
  local hog = {}
  for i = 1, 1 << 20 do hog[i] = ("x"):rep(256) .. i; obj[i] = #hog end
end
function R.setup(g)
  pcall(setmetatable, {}, { __mode = "k" })
  local mt = { __newindex = {} }
  local obj = setmetatable({}, mt)
  mt.__mode = "v"
  rawset(mt, "__gc", function() end)
  pcall(setmetatable, obj, mp)
  g.obj = obj
end
function R.play(g)
  while true do
    local k = g:choose(1, "go", { "fill", "chain", "bits" })
    if k == 1 then pcall(fill, g.obj)
    elseif k == 2 then pcall(load, "return T" .. ("\n.x"):rep(300) .. "()")
    else g.n = 1 ~ (2 or 3) end
  end
end
function R.scores(g) return { 0 } end
return R
