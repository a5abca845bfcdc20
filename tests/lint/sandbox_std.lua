-- tests/lint/sandbox_std.lua: the globals .luacheckrc allows rule scripts
-- (stds.kontor_sandbox) are exactly the names a rule script's environment
-- has (lua/kontor/sandbox.lua), library fields included. Prints TAP.
--   kontor run tests/lint/sandbox_std.lua
local sandbox = require "kontor.sandbox"
local rules = require "kontor.rules"

local function names_of(t)
  local out = {}
  for k in pairs(t) do out[#out + 1] = k end
  table.sort(out)
  return out
end

-- What .luacheckrc declares: { name = true } and { lib = { field = true } }.
local rc = { stds = {}, files = setmetatable({}, { __index = function(t, k)
  local v = {}; rawset(t, k, v); return v end }) }
rc.ipairs, rc.pairs, rc.setmetatable, rc.rawset = ipairs, pairs, setmetatable, rawset
assert(loadfile(".luacheckrc", "t", rc))()
local declared = {}
local std = rc.stds.kontor_sandbox
for k, v in pairs(std.read_globals) do
  if type(k) == "number" then declared[v] = true
  else declared[k] = {}; for f in pairs(v.fields) do declared[k][f] = true end end
end
for _, g in ipairs(std.globals or {}) do declared[g] = true end

-- What a rule script has.
local env = sandbox.env(rules.api)
local problems = {}
for _, k in ipairs(names_of(env)) do
  local d = declared[k]
  if d == nil then
    problems[#problems + 1] = "rule scripts see '" .. k .. "', .luacheckrc does not declare it"
  elseif type(env[k]) == "table" and k ~= "_G" then
    if type(d) ~= "table" then
      problems[#problems + 1] = "'" .. k .. "' is a table in the sandbox: declare its fields"
    else
      for _, f in ipairs(names_of(env[k])) do
        if not d[f] then problems[#problems + 1] = string.format("'%s.%s' is missing from .luacheckrc", k, f) end
      end
      for _, f in ipairs(names_of(d)) do
        if env[k][f] == nil then problems[#problems + 1] = string.format("'%s.%s' is in .luacheckrc, not in the sandbox", k, f) end
      end
    end
  end
end
for _, k in ipairs(names_of(declared)) do
  if env[k] == nil then problems[#problems + 1] = "'" .. k .. "' is in .luacheckrc, not in the sandbox" end
end
if #problems == 0 then
  print("ok 1 - .luacheckrc's rule-script globals are the sandbox's allow list")
else
  print("not ok 1 - .luacheckrc's rule-script globals differ from lua/kontor/sandbox.lua")
  for _, p in ipairs(problems) do print("# " .. p) end
end
