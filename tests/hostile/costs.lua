-- costs.lua - what the library functions of the allow list cost in C, for
-- the work charges of lua/engine/guards.c (docs/security.md, "Work charges").
--   kontor run tests/hostile/costs.lua
-- Part 1: worst cases of the guarded functions, run armed (a script's
-- call) with the work limit out of the way: CPU seconds, the units charged
-- and the nanoseconds a unit stood for. Part 2: one C call on a string
-- near the memory cap (the memory limit is raised to 8 GiB to build them):
-- CPU seconds. Needs about 1 GiB of memory.
local sb = kontor.core.sandbox
sb.limits { work = 1 << 62, time = 100, memory = 1 << 33 }
local env = require("kontor.sandbox").env(require("kontor.rules").api)

print("1. guarded worst cases, armed")
-- What `src` is charged: the least work limit it runs under.
local function charged(src)
  local f = assert(sb.load(src, "=costs", env))
  local lo, hi = 0, 1 << 40
  while lo < hi do
    local mid = (lo + hi) // 2
    sb.limits { work = math.max(mid, 1000) }
    if sb.call(f) then hi = mid else lo = mid + 1 end
  end
  sb.limits { work = 1 << 62 }
  return lo
end
local function cpu(src)
  local f = assert(sb.load(src, "=costs", env))
  local t = os.clock()
  assert(sb.call(f))
  return os.clock() - t
end
-- The call `call` after `setup`: its own time and units.
local function armed(label, setup, call)
  local units = charged(setup .. "\n" .. call) - charged(setup)
  local dt = cpu(setup .. "\n" .. call) - cpu(setup)
  print(string.format("  %-44s %6.3f s %12d units %6.1f ns/unit", label, dt, units, dt * 1e9 / units))
end
armed("plain find, 1 KB literal in 2 MB", "local s, p = ('a'):rep(2e6), ('a'):rep(999) .. 'b'",
  "s:find(p, 1, true)")
armed("find, 1 KB literal with a dot in 20 KB", "local s, p = ('a'):rep(20000), ('a'):rep(999) .. 'b.'",
  "s:find(p)")
armed("find '.-.-b' in 300 bytes", "local s = ('a'):rep(300)", "s:find('.-.-b')")
armed("find a 10 KB class in 5 KB", "local s, p = ('a'):rep(5000), '[' .. ('b'):rep(10000) .. ']'", "s:find(p)")
armed("gsub '(x*)' with 2,000 '%1' in 2 KB", "local s, r = ('a'):rep(2000), ('%1'):rep(2000)",
  "s:gsub('(x*)', r)")
armed("gsub '%s+' in 1 MB", "local s = ('a '):rep(5e5)", "s:gsub('%s+', '')")
armed("format %f of 1e308, 20,000 times", "local t = {} for i = 1, 20000 do t[i] = 1e308 end local F = ('%f'):rep(20000)",
  "string.format(F, table.unpack(t))")
armed("format %.99e of 1e308, 20,000 times", "local t = {} for i = 1, 20000 do t[i] = 1e308 end local F = ('%.99e'):rep(20000)",
  "string.format(F, table.unpack(t))")
armed("format %99d, 20,000 times", "local t = {} for i = 1, 20000 do t[i] = 1 end local F = ('%99d'):rep(20000)",
  "string.format(F, table.unpack(t))")
armed("sort 16384 strings of 3 KB", [[
  local base, t = ('x'):rep(3000), {}
  for i = 1, 16384 do t[i] = base .. string.format('%08d', i * 7919 % 16384) end]], "table.sort(t)")

print("2. one C call at 200 MiB (memory limit raised)")
local function once(label, f)
  collectgarbage()
  local t = os.clock()
  local ok, err = pcall(f)
  print(string.format("  %-44s %6.3f s%s", label, os.clock() - t, ok and "" or "  " .. tostring(err):sub(1, 50)))
end
local MiB = 1 << 20
local s = ("1"):rep(200 * MiB)
once("tonumber(s), 200 MiB of digits", function() return tonumber(s) end)
once("tonumber(s, 36), 200 MiB", function() return tonumber(s, 36) end)
local u = ("\u{e9}"):rep(100 * MiB)
once("utf8.len, 200 MiB of 2-byte characters", function() return utf8.len(u) end)
u = nil
once("utf8.offset, 200 MiB", function() return utf8.offset(s, 100 * MiB) end)
local c = "a" .. ("\x80"):rep(200 * MiB)
once("one utf8.codes step over 200 MiB of 0x80", function() for _ in utf8.codes(c) do end end)
c = nil
once("plain find of 1 byte in 200 MiB", function() return s:find("a", 1, true) end)
once("unpack 'z' over 200 MiB without a zero", function() return string.unpack("z", s) end)
once("sub, 200 MiB", function() return #s:sub(2) end)
local h = s:sub(1, 100 * MiB)
once("upper, 100 MiB", function() return #h:upper() end)
once("reverse, 100 MiB", function() return #h:reverse() end)
once("pack 's4', 100 MiB", function() return #string.pack("s4", h) end)
h = h:sub(1, 50 * MiB)
once("format %q, 50 MiB", function() return #string.format("%q", h) end)
h = nil
once("rep to 200 MiB", function() return #string.rep("ab", 100 * MiB) end)
local fmt = ("b"):rep(100 * MiB)
once("packsize, a 100 MiB format", function() return string.packsize(fmt) end)
fmt = nil
local pieces = {}
for i = 1, 200 do pieces[i] = s:sub(1, MiB) end
once("table.concat of 200 pieces of 1 MiB", function() return #table.concat(pieces) end)
pieces = nil
local s2 = s:sub(1, 100 * MiB) .. ""
local s3 = s:sub(1, 100 * MiB - 1) .. "2"
once("VM: s2 .. s3, 100 MiB each", function() return #(s2 .. s3) end)
once("VM: s2 < s3, 100 MiB each (equal but the last byte)", function() return s2 < s3 end)
once("VM: t[s] = 1, a 200 MiB string (hashed once)", function() local keyed = {} keyed[s] = 1 return keyed end)
s2, s3 = nil, nil
once("byte(s, 1, 999000) (the stack's limit)", function() return select("#", s:byte(1, 999000)) end)
s = nil
collectgarbage()
local t = {}
for i = 1, 1 << 23 do t[i] = i end
once("rawset that grows a 2^23-element array", function() rawset(t, (1 << 23) + 1, 1) end)
t = {}
for i = 1, 1 << 22 do t[i + 0.5] = i end
once("rawset that grows a 2^22-key hash", function() rawset(t, 0.25, 1) end)
t = nil
once("load of 1 MB of table constructors", function()
  assert(load(("x = {1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17}\n"):rep(20000)))
end)
