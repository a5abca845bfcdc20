-- attack.lua - a hostile rule set for tests/lua/hostile_spec.lua.
-- Each option of its one decision runs one attack during a step, after the
-- step has changed the state (a field, a counter, the log, the RNG), so a
-- test can check that the failed step changed nothing. "safe" is a normal
-- step. The option "scores:NAME" ends the game with R.scores returning a
-- hostile value.
local R = { name = "attack", players = { min = 1, max = 1 } }

local function spin() while true do end end

local A = {}
A["safe"] = function() end
-- A decision made up by yielding the game's thread directly, with an
-- option list whose __index loops: the engine takes decisions only from
-- g:choose, g:choose_all and g:chance (game.lua's private tokens).
A["raw yield"] = function()
  coroutine.yield("player", 1, "attack", setmetatable({}, { __index = function(t, k) while true do end end }))
end
-- The instruction budget (lua/engine/sandbox.c, sb_hook), inside the places a
-- script can hide a loop. Plain loops, pcall and coroutine.wrap loops are
-- in engine_spec.lua.
A["loop in xpcall handler"] = function() xpcall(error, spin) end
A["xpcall handler recursion"] = function()
  local function loop() return xpcall(loop, loop) end
  loop()
  error("done")
end
A["pcall loop in coroutine"] = function()
  local co = coroutine.create(function()
    for _ = 1, math.maxinteger do pcall(spin) end
  end)
  coroutine.resume(co)
end
-- Rule scripts have no to-be-closed values (issue 24, item 8): `<close>`
-- is refused at load (lua/engine/scan.c), __close by setmetatable, and no
-- value the engine hands out has one, so a generic for's closing value is
-- refused at the loop's start.
A["loop in __close"] = function()
  for _ in next, {}, nil, setmetatable({}, { __close = spin }) do end
end
A["loop in coroutine.close"] = function()
  local co = coroutine.create(function()
    for _ in next, { 1 }, nil, setmetatable({}, { __close = spin }) do coroutine.yield() end
  end)
  assert(coroutine.resume(co))
  coroutine.close(co)
end
A["<close> in load"] = function()
  assert(load("local t <close> = nil"))
end
A["pile as a for's closing value"] = function()
  for _ in next, { 1 }, nil, kontor.pile {} do break end  -- luacheck: ignore 512 (the break is the point)
end
A["loop in __index"] = function()
  local t = setmetatable({}, { __index = function() while true do end end })
  return t.x
end
-- __gc (sandbox.lua, safe_setmetatable): finalizers run with hooks off.
A["__gc"] = function()
  setmetatable({}, { __gc = spin })
end
A["__gc false"] = function()
  setmetatable({}, { __gc = false })
end
-- Memory (lua/engine/sandbox.c, sb_alloc).
A["rep 2^31"] = function() return #string.rep("x", 2 ^ 31) end
A["rep 2^31 method"] = function() return #("x"):rep(2 ^ 31) end
A["unbounded table"] = function()
  local t = {}
  for i = 1, math.maxinteger do t[i] = ("x"):rep(1 << 16) .. i end
end
A["doubling concat"] = function()
  local s = "x"
  while true do s = s .. s end
end
A["table of tables"] = function()
  local t = {}
  while true do t = { t, t, t, t, t, t, t, t } end
end
-- Memory outside the Lua allocator: the log, piles and counters live in C
-- (malloc), which the cap does not see.
A["log flood"] = function(g)
  local s = ("x"):rep(1 << 20)
  for _ = 1, 512 do g:log(s) end
end
A["pile flood"] = function()
  local p = kontor.pile {}
  for i = 1, 100000000 do p:push(i) end
end
-- CPU inside C functions (lua/engine/guards.c).
A["find .-.-.-b"] = function() return string.find(string.rep("a", 3000), ".-.-.-b") end
A["method find"] = function() return (("a"):rep(3000)):find(".-.-.-b") end
A["match .*.*.*b"] = function() return string.match(string.rep("a", 3000), ".*.*.*b") end
A["gsub .-.-b"] = function() return string.gsub(string.rep("a", 20000), "(.-)(.-)b", "") end
A["gmatch a*a*a*b"] = function()
  for _ in string.gmatch(string.rep("a", 3000), "a*a*a*b") do end
end
A["%b nested"] = function() return string.find(string.rep("(", 30000), "%b()%b()") end
-- Issue 24: a literal pattern of 2 MiB in 4 MiB ran for minutes in C.
A["plain find 2 MiB in 4 MiB"] = function()
  return string.find(string.rep("a", 4 * 2 ^ 20), string.rep("a", 2 * 2 ^ 20 - 1) .. "b", 1, true)
end
A["rep empty 2^50"] = function() return #string.rep("", 2 ^ 50) end
A["rep empty sep 2^50"] = function() return #string.rep("", 2 ^ 50, "") end
A["concat 2^40 via __index"] = function()
  return #table.concat(setmetatable({}, { __index = rawlen }), "", 1, 2 ^ 40)
end
A["concat __len"] = function()
  local n = 0
  local t = setmetatable({}, { __index = rawlen,
    __len = function() n = n + 1; return n == 1 and 1 or 2 ^ 40 end })
  return #table.concat(t)
end
A["move 2^40"] = function() table.move({}, 1, 2 ^ 40, 1, {}) end
A["insert with __len"] = function()
  table.insert(setmetatable({}, { __len = function() return 2 ^ 40 end }), 1, "x")
end
A["remove with __len"] = function()
  table.remove(setmetatable({}, { __len = function() return 2 ^ 40 end }), 1)
end
A["sort with __len"] = function()
  table.sort(setmetatable({}, { __index = rawlen, __len = function() return 2 ^ 30 end }))
end
A["insert at front"] = function()
  local t = {}
  for i = 1, 1 << 20 do t[i] = i end
  for i = 1, 1 << 20 do table.insert(t, 1, i) end
end
A["format %99999d"] = function() return string.format("%99999d", 1) end
-- Deep structures (Lua's own limits; they must stay clean errors).
A["deep recursion"] = function()
  local function f(n) return 1 + f(n + 1) end
  return f(1)
end
A["nested coroutines"] = function()
  local function f(n) if n > 0 then coroutine.wrap(f)(n - 1) end end
  f(10000)
end
A["nested coroutine.close"] = function()   -- a Lua 5.4.4 bug's trigger
  local coro = false
  for _ = 1, 10000 do
    local previous = coro
    coro = coroutine.create(function()
      for _ in next, { 1 }, nil, setmetatable({}, { __close = function()
        if previous then assert(coroutine.close(previous)) end
      end }) do coroutine.yield() end
    end)
    assert(coroutine.resume(coro))
  end
  assert(coroutine.close(coro))
  error("nested closes done")
end
A["many coroutines"] = function()
  local t = {}
  for i = 1, math.maxinteger do
    t[i] = coroutine.create(function() coroutine.yield() end)
    coroutine.resume(t[i])
  end
end
A["deeply nested load"] = function()
  assert(load("return " .. ("("):rep(100000) .. "1" .. (")"):rep(100000)))
end
A["long chain load"] = function()
  assert(load("local t = {} return t" .. (".x"):rep(400000)))()
end
-- Hostile error values (lua/engine/sandbox.c, push_error: never calls __tostring).
A["error nil"] = function() error(nil) end
A["error table"] = function() error({}) end
A["error __tostring loop"] = function()
  error(setmetatable({}, { __tostring = spin }))
end
A["error __tostring error"] = function()
  error(setmetatable({}, { __tostring = function() error("again") end }))
end
A["error huge string"] = function() error(("x"):rep(1 << 26)) end

-- Issue 10, class 1: Lua 5.4.4 bugs, out of reach.
-- A weak metatable whose __newindex table is referenced by nothing else,
-- with memory filled up to the cap: the emergency collection in the middle
-- of an assignment freed that table while luaV_finishset used it.
A["weak __newindex at the cap"] = function()
  setmetatable({}, { __mode = "v" })
end
A["weak mode added later"] = function()
  local mt = { __newindex = {} }
  local obj = setmetatable({}, mt)
  mt.__mode = "v"                      -- too late: obj has a copy of mt
  rawset(mt, "__gc", function() while true do end end)
  local hog, i = {}, 0
  while true do
    i = i + 1
    hog[i] = ("x"):rep(1 << 16) .. i
    obj[i] = i                         -- through __newindex, growing it
  end
end
-- A failing step whose message would name a 100,000-link chain: refused
-- when loaded (the chain is over many lines, under the line limit).
A["failing chain load"] = function()
  local f, err = load("local T = setmetatable({}, { __index = function(t) return t end })\n"
    .. "return T" .. ("\n.x"):rep(100000) .. ".missing()")
  if not f then error(err, 0) end
  f()
end
A["constants and bitwise load"] = function()
  local body = {}
  for i = 1, 300 do body[i] = string.format("local _ = 'k%d'", i) end
  local f, err = load(table.concat(body, "\n") .. "\nreturn 1 ~ (2 or 3)")
  if not f then error(err, 0) end
  error("computed " .. tostring(f()))
end
-- Class 4: C work charged in proportion.
A["shuffle __len 2^40"] = function(g)
  g.rng:shuffle(setmetatable({}, { __len = function() return 1 << 40 end }))
end
A["count_of on a big pile"] = function()
  local p = kontor.pile {}
  for i = 1, 1000000 do p:push(i % 7) end
  for _ = 1, 1000000 do p:count_of(3) end
end
A["push 2^40 copies"] = function()
  kontor.pile {}:push(1, 2 ^ 40 // 1)
end
A["counts of 2^31 cards"] = function()
  local p = kontor.pile {}
  for _ = 1, 1000000 do p:counts(2 ^ 31 // 1 - 1) end
end
A["sum of a big counter"] = function()
  local c = kontor.counter { n = 0x1000000 }
  for _ = 1, 1000000 do c:sum() end
end
A["tostring of a big counter"] = function()
  local c = kontor.counter { n = 0x800000 }
  for _ = 1, 1000000 do local _ = tostring(c) end
end
-- Class 5: a pending __close in the frame that raises runs under the limits.
A["pending __close loops"] = function()
  for _ in next, { 1 }, nil, setmetatable({}, { __close = spin }) do error("the step failed") end
end
-- Class 3: what a script reaches does not outlive its game.
A["game metatable"] = function(g)
  local mt = getmetatable(g)
  if mt then mt.__newindex = spin; mt.__gc = spin end
  error(string.format("getmetatable(g) is %s", tostring(mt)))
end
A["names and options"] = function(g)
  g.names[1] = "Mallory"
  g.options.evil = true
  error("changed names and options")
end
A["replace _log"] = function(g)
  -- The script's own logging goes nowhere now; the engine's does not care.
  g._log = { add = function() end, lines = spin }
  g.players = setmetatable({}, { __lt = spin, __le = spin, __index = spin })
end
A["text flood"] = function(g)
  local s = ("x"):rep(1 << 10)
  for i = 1, math.maxinteger do g:text(s, i) end
end
-- Class 6: the game's own thread, out of reach.
A["keep the game thread"] = function(g)
  g.thread = coroutine.running()
end
-- Class 9: a caught memory error does not make later errors read as one.
A["error after caught memory error"] = function()
  local ok = pcall(function() return ("x"):rep(1 << 30) .. ("y"):rep(1 << 30) end)
  error("the real error (caught one: " .. tostring(not ok) .. ")")
end

local NAMES = {}
for k in pairs(A) do NAMES[#NAMES + 1] = k end
table.sort(NAMES)
local HOSTILE = { "cyclic", "huge string", "__lt loop", "__index loop", "__tostring loop", "nan" }
for _, h in ipairs(HOSTILE) do NAMES[#NAMES + 1] = "scores:" .. h end
R.attacks = NAMES

local function hostile_scores(g)
  local h = g.hostile
  if h == "cyclic" then local t = {}; t[1] = t; t.self = t; return t end
  if h == "huge string" then return { ("x"):rep(1 << 24) } end
  if h == "__lt loop" then
    local mt = { __lt = spin, __le = spin }
    return { setmetatable({}, mt) }
  end
  if h == "__index loop" then return setmetatable({}, { __index = spin }) end
  if h == "__tostring loop" then return { setmetatable({}, { __tostring = spin }) } end
  if h == "nan" then return { 0 / 0 } end
  return { g.n }
end

function R.setup(g)
  g.n = 0
  g.c = kontor.counter { n = 1, min = 0 }
end

function R.play(g)
  while true do
    local k = g:choose(1, "attack", NAMES)
    local name = NAMES[k]
    g.n = g.n + 1
    g.c:add(1, 1)
    g.roll = math.random(6)
    g:log("step %d: %s", g.n, name)
    local h = name:match("^scores:(.*)$")
    if h then g.hostile = h; return end
    A[name](g)
  end
end

function R.scores(g) return hostile_scores(g) end

-- A view that is a cycle, and one that loops.
function R.view(g, seat)
  if g.hostile == "cyclic" then local t = { seat = seat }; t.me = t; return t end
  if g.thread then   -- class 6: a view that tries to advance the game
    local ok, err = pcall(coroutine.resume, g.thread, 1)
    return { n = g.n, resumed = tostring(ok) .. " " .. tostring(err) }
  end
  return { n = g.n }
end

return R
