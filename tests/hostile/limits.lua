-- limits.lua - a hostile rule set for tests/lua/limits_spec.lua (issue 24,
-- item 6): each option of its one decision calls one library function
-- whose work in C is far beyond a step's, after the step has changed the
-- state, so that a test can check the failed step changed nothing. "safe"
-- is a normal step. Run one: kontor run tests/hostile/run.lua
-- tests/hostile/limits.lua NAME (see run.lua).
local R = { name = "limits", players = { min = 1, max = 1 } }

local MiB = 1 << 20

-- n MiB of `unit` repeated, built by table.concat (charged per piece, so
-- that building the subject does not spend the step's work itself).
local function big(unit, n)
  local piece = unit:rep(MiB // #unit)
  local t = {}
  for i = 1, n do t[i] = piece end
  return table.concat(t)
end

local A = {}
A["safe"] = function() end
-- The issue's case: a literal pattern of 2 MiB in a subject of 4 MiB ran
-- for minutes (memchr, then memcmp of 2 MiB at each of 2 Mi places).
A["plain find 2 MiB in 4 MiB"] = function()
  return string.find(string.rep("a", 4 * 2 ^ 20), string.rep("a", 2 * 2 ^ 20 - 1) .. "b", 1, true)
end
A["find without specials 2 MiB in 4 MiB"] = function()
  return ("a"):rep(4 * MiB):find(("a"):rep(2 * MiB - 1) .. "b")
end
-- The matcher on a long pattern without quantifiers: each start reads the
-- pattern up to the failing byte.
A["match with a dot 2 MiB in 4 MiB"] = function()
  return ("a"):rep(4 * MiB):match(("a"):rep(2 * MiB - 1) .. "b.")
end
A["gmatch 1 MiB literal in 2 MiB"] = function()
  for _ in ("a"):rep(2 * MiB):gmatch(("a"):rep(MiB - 1) .. "b") do end
end
A["class of 512 KiB"] = function()
  return ("a"):rep(MiB):find("[" .. ("b"):rep(512 * 1024) .. "]")
end
A["back references"] = function()
  return ("a"):rep(64 * 1024):find("(a*)%1%1%1%1b")
end
-- %f of 1e308 prints 309 digits: 7.2 us each, 0.72 s for 100,000.
A["format %f of 1e308 100,000 times"] = function()
  local t = {}
  for i = 1, 100000 do t[i] = 1e308 end
  return #string.format(("%f"):rep(100000), table.unpack(t))
end
A["gsub replacement of 512 Ki %1"] = function()
  return ("a"):rep(MiB):gsub("(x*)", ("%1"):rep(512 * 1024))
end
-- One pass over a string, in C. A string near the memory cap takes about
-- 0.1 s; these run with a work limit of 1,000,000 units (W=1000000), so
-- that 32 MiB are enough to show the charge.
A["tonumber of 32 MiB"] = function() return tonumber(big("1", 32)) end
A["utf8.len of 32 MiB"] = function() return utf8.len(big("\u{e9}", 32)) end
A["utf8.codes of 32 MiB"] = function() for _ in utf8.codes(big("a", 32)) do end end
A["packsize of a 4 MiB format"] = function() return string.packsize(big("b", 4)) end
A["upper of 32 MiB"] = function() return #big("a", 32):upper() end
A["format %q of 16 MiB"] = function() return #string.format("%q", big("a", 16)) end
A["sub of 32 MiB"] = function() return #big("a", 32):sub(2) end
A["rep to 32 MiB"] = function() return #string.rep("ab", 16 * MiB) end
A["sort 8192 strings of 2.5 KB"] = function()
  local base, t = ("x"):rep(2500), {}
  for i = 1, 8192 do t[i] = base .. (i * 7919 % 8192) end
  table.sort(t)
end

local NAMES = {}
for k in pairs(A) do NAMES[#NAMES + 1] = k end
table.sort(NAMES)
R.attacks = NAMES

function R.setup(g)
  g.n = 0
  g.c = kontor.counter { n = 1, min = 0 }
end

function R.play(g)
  while true do
    local k = g:choose(1, "attack", NAMES)
    g.n = g.n + 1
    g.c:add(1, 1)
    g.roll = math.random(6)
    g:log("step %d: %s", g.n, NAMES[k])
    A[NAMES[k]](g)
  end
end

function R.scores(g) return { g.n } end

function R.view(g) return { n = g.n } end

return R
