-- tamper.lua - a rule set that tampers with everything it can reach, at
-- load time and during a step, for tests/lua/hostile_spec.lua. What it saw
-- before tampering goes into its state, so a second copy of it can show
-- that the first one's tampering did not reach it.
local saw = {
  rep = type(string.rep), format = type(string.format), insert = type(table.insert),
  floor = type(math.floor), pairs = type(pairs), pile = type(kontor.pile),
  mt = type(getmetatable("")), G = type(_G), method = ("ab"):rep(2),
}

local function tamper()
  local out = {}
  -- The shared string metatable is hidden (sandbox.lua sets __metatable).
  out.string_mt = select(2, pcall(function() getmetatable("").__index = {} end))
  out.setmt_string = select(2, pcall(setmetatable, "", {}))
  -- Everything else a script can name is its own copy.
  string.rep = function() return "hacked" end
  string.format = error
  string.find = nil
  table.insert = nil
  math.floor = function() return 42 end
  kontor.pile = nil
  coroutine.wrap = nil
  setmetatable(_G, { __index = function(_, k) error("tampered global " .. tostring(k)) end,
                     __newindex = function() error("tampered") end })
  rawset(_G, "tostring", function() return "hacked" end)
  out.method_after = ("ab"):rep(2)   -- string methods are the real ones
  return out
end

local loaded = tamper()
_G = {}

local R = { name = "tamper", players = { min = 1, max = 2 } }
local real_pairs = pairs

function R.setup(g)
  g.saw = saw
  g.loaded = loaded
  g.n = 0
end

function R.play(g)
  while true do
    local k = g:choose(1, "act", { "safe", "tamper" })
    g.n = g.n + 1
    if k == 2 then g.step = tamper() end
  end
end

function R.scores(g) return { g.n, 0 } end

return R
