-- redteam.lua - a hostile rule set for tests/lua/redteam_spec.lua (the
-- red-team pass of 2026-11-27 on docs/security.md's promises). Each
-- option of its one decision runs one attack during a step, after the step
-- has changed the state, so a test can check that a refused step changed
-- nothing; "safe" is a normal step. Run one in a child process:
-- kontor run tests/hostile/run.lua tests/hostile/redteam.lua NAME.
-- R.view, R.board and R.scores draw from math.random: a view that draws
-- would change the game it shows (or another game).
local R = { name = "redteam", players = { min = 1, max = 2 } }

local KiB, MiB = 1 << 10, 1 << 20

local A = {}
A["safe"] = function() end
-- table.sort without a comparison compares strings with strcoll, one call
-- per stretch between zero bytes: a string of zeros costs a call a byte,
-- where the charge counted 256 bytes a unit. 1,024 strings of 64 KiB of
-- zeros ran 4.7 s of CPU in C under a 0.5 s limit.
A["sort strings of zeros"] = function()
  local t, base = {}, ("\0"):rep(64 * KiB - 1)
  for i = 1, 1024 do t[i] = base .. string.char(i % 251) end
  table.sort(t)
end
-- pairs over string keys of zeros: the walk compares each key with the one
-- before it (strcoll again) to see whether they came in order.
A["pairs over keys of zeros"] = function()
  local t, base = {}, ("\0"):rep(64 * KiB - 1)
  for i = 1, 1024 do t[base .. string.char(i % 251)] = i end
  for _ = 1, 100 do for _ in pairs(t) do end end
end
-- string.pack's "cN" pads the string to N bytes one byte at a time: the
-- charge counted only the string's bytes (0.16 s for 200 MB, uncharged).
A["pack c padding"] = function() return #string.pack("c" .. 50 * MiB, "") end
A["pack c padding in the middle"] = function() return #string.pack("i4c" .. 50 * MiB .. "i4", 1, "", 2) end
-- An address is a new number in every process (ASLR): a script that
-- decides or logs by one is not a function of its seed and moves.
A["%p"] = function(g) g:log("%s", string.format("%p", {})) end
-- The same through tostring and %s: the type's name, no address.
A["addresses"] = function(g)
  g:log("%s %s %s %s %s", tostring({}), string.format("%s|%10s", {}, print),
    tostring(coroutine.running()), tostring(setmetatable({}, { __name = "Card" })), ("%s"):format(g))
end
-- From here on R.view, R.board and R.scores draw from math.random.
A["peek"] = function(g) g.peek = true end
A["finish"] = function(g) g:finish() end
A["%p method"] = function(g) g:log("%s", ("%5p"):format(g)) end

-- The game's thread yields a table whose == loops: the engine compared
-- it with its private decision tokens (==, which calls __eq) after the
-- resume, outside the limits, and hung.
A["yield a table with __eq"] = function()
  coroutine.yield(setmetatable({}, { __eq = function() while true do end end }), 1, "x", { "a" })
end
-- McIlroy's adversary: a comparison that answers as it goes so that every
-- partition of a quicksort comes out lopsided. Lua's table.sort then takes
-- random pivots (from clock() and time()): the order of the elements it
-- calls equal, and so this log line, differed from run to run.
A["sort adversary"] = function(g)
  local n, gas, frozen, candidate, calls = 3000, math.huge, 0, nil, 0
  local val, t = {}, {}
  for i = 1, n do val[i] = gas; t[i] = i end
  table.sort(t, function(x, y)
    calls = calls + 1
    if val[x] == gas and val[y] == gas then
      if x == candidate then val[x] = frozen else val[y] = frozen end
      frozen = frozen + 1
    end
    if val[x] == gas then candidate = x elseif val[y] == gas then candidate = y end
    return val[x] < val[y]
  end)
  g:log("%d comparisons: %s", calls, table.concat(t, ",", 1, 12))
end
-- A memory error caught by pcall: how much fitted depended on what the
-- interpreter held besides (the REPL's values, other games, garbage), so
-- the step did one thing when played and another when replayed.
A["catch memory"] = function(g)
  local n = 0
  pcall(function()
    local t = {}
    for i = 1, math.maxinteger do t[i] = ("x"):rep(MiB) .. i; n = #t end
  end)
  g:log("%d MiB fitted", n)
end
A["catch memory in a coroutine"] = function(g)
  local n = 0
  coroutine.resume(coroutine.create(function()
    local t = {}
    for i = 1, math.maxinteger do t[i] = ("x"):rep(MiB) .. i; n = #t end
  end))
  g:log("%d MiB fitted", n)
end
-- One block larger than the cap fails in every process: that may be caught.
A["catch a block over the cap"] = function(g)
  local ok = pcall(string.rep, "x", 1 << 30)
  g:log("caught: %s", tostring(not ok))
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

function R.view(g) return { n = g.n, peek = g.peek and math.random(1000000) or nil } end
function R.board(g) return g.peek and ("next roll " .. math.random(1000000)) or ("step " .. g.n) end
function R.scores(g) return { g.n + (g.peek and math.random(6) or 0) } end

return R
