-- A rule script alone, in plain Lua: variants/NAME.lua run under the
-- smallest stand-in for the engine (piles and counters as Lua tables, a
-- decision a uniform draw, no sandbox, no limits, no recording, no texts).
-- What it costs is what the script itself costs; kontor's cost minus it is
-- the engine's (docs/performance.md, "Where the instructions go").
--
--   lua5.4 tests/bench/plain.lua sea_merchants_script 4 GAMES SEED
--   lua5.4 tests/bench/plain.lua caribbean_script 2 GAMES SEED
--
-- The games are the rule set's in distribution, not game for game: the
-- stand-in's shuffle is not the engine's RNG.

local here = (debug and debug.getinfo and debug.getinfo(1, "S").source:match("^@(.*/)")) or "tests/bench/"

local random                                   -- set by each game

local Pile = {}
Pile.__index = Pile
function Pile:push(c) local n = self.n + 1; self.n = n; self[n] = c end
function Pile:pop() local n = self.n; if n == 0 then return nil end; local c = self[n]; self[n] = nil; self.n = n - 1; return c end
function Pile:top() return self[self.n] end
function Pile:count() return self.n end
Pile.__len = Pile.count
function Pile:get(i) return self[i] end
function Pile:set(i, c) self[i] = c end
function Pile:insert(i, c) table.insert(self, i, c); self.n = self.n + 1 end
function Pile:remove(i) local c = table.remove(self, i); self.n = self.n - 1; return c end
function Pile:find(c) for i = 1, self.n do if self[i] == c then return i end end end
function Pile:take(c) local i = self:find(c); if i then self:remove(i); return true end; return false end
function Pile:count_of(c) local k = 0; for i = 1, self.n do if self[i] == c then k = k + 1 end end; return k end
function Pile:move_to(other, k) for _ = 1, k or 1 do other:push(self:pop()) end end
function Pile:shuffle() for i = self.n, 2, -1 do local j = random(i); self[i], self[j] = self[j], self[i] end end
function Pile:cards() return { table.unpack(self, 1, self.n) } end
function Pile:clear() for i = self.n, 1, -1 do self[i] = nil end; self.n = 0 end
function Pile:vis() return self._vis end
function Pile:owner() return self._owner end
function Pile:pool() return self._pool end

local Counter = {}
Counter.__index = Counter
function Counter:get(i) return self[i] end
function Counter:set(i, v) self[i] = v end
function Counter:add(i, d)
  local v = self[i] + d
  if v < self._min or v > self._max then error(("counter %d: %d is out of bounds"):format(i, v)) end
  self[i] = v
  return v
end
function Counter:values() return { table.unpack(self, 1, self.n) } end
function Counter:count() return self.n end
function Counter:min() return self._min end
function Counter:max() return self._max end

local api = {
  pile = function(t)
    t = t or {}
    return setmetatable({ n = 0, _vis = t.vis or "public", _owner = t.owner or 0, _pool = t.pool }, Pile)
  end,
  counter = function(t)
    local c = setmetatable({ n = t.n, _min = t.min or math.mininteger, _max = t.max or math.maxinteger }, Counter)
    for i = 1, t.n do c[i] = t.init or 0 end
    return c
  end,
}

local Rng = {}
Rng.__index = Rng
function Rng.below(_, n) return random(n) - 1 end
function Rng.shuffle(_, list) for i = #list, 2, -1 do local j = random(i); list[i], list[j] = list[j], list[i] end end

local G = {}
G.__index = G
local FINISH = {}
function G:choose(_, _, options) self.steps = self.steps + 1; return random(#options) end
function G:chance(_, options, weights)
  if not weights then return random(#options) end
  local total = 0
  for i = 1, #options do total = total + weights[i] end
  local r, k = random(total) - 1, 1
  while r >= weights[k] do r = r - weights[k]; k = k + 1 end
  return k
end
function G:begin_turn(seat) self.turn = self.turn + 1; self.active = seat end
function G:next_seat(seat) return seat % self.players + 1 end
function G:turn_order(first)
  local t = self._orders[first]
  if not t then
    t = {}
    for i = 1, self.players do t[i] = (first + i - 2) % self.players + 1 end
    self._orders[first] = t
  end
  return t
end
function G.log() end
function G.skip() end
function G.stat() end
function G.finish() error(FINISH, 0) end

local function load_rules(name)
  local env = setmetatable({ kontor = api, math = setmetatable({ random = function(...) return random(...) end },
                                                                { __index = math }) },
                           { __index = _G })
  return assert(loadfile(here .. "../../variants/" .. name .. ".lua", "t", env))()
end

-- play(random, players) -> turns, steps, scores (the plain loops' interface)
local function player(name)
  local R = load_rules(name)
  return function(rand, players)
    random = rand
    local g = setmetatable({ players = players, names = {}, options = {}, turn = 0, steps = 0,
                             logging = false, rng = setmetatable({}, Rng), _orders = {} }, G)
    for k, o in pairs(R.options or {}) do g.options[k] = o.default end
    for s = 1, players do g.names[s] = "Player " .. s end
    R.setup(g)
    local ok, err = pcall(R.play, g)
    if not ok and err ~= FINISH then error(err, 0) end
    return g.turn, g.steps, R.scores(g)
  end
end

return { sea_merchants_script = player("sea_merchants"), caribbean_script = player("caribbean") }
