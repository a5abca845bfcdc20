-- A rule script alone: variants/NAME.lua run under the smallest stand-in
-- for the engine (no sandbox, no limits, no recording, no option texts;
-- a decision is a draw of 1..n). What it costs is what the script itself
-- costs; kontor's cost minus it is the engine's (docs/performance.md).
--
--   lua5.4 tests/bench/plain.lua sea_merchants_script 4 GAMES SEED
--   build/kontor run tests/bench/same_games.lua kontor|plain PLAYERS GAMES [RULES]
--
-- M.player(name [, api]) returns play(random, players [, rng]) -> turns,
-- steps, scores, the plain loops' interface: random(n) draws each decision
-- (1..n); rng, the game's RNG (`g.rng`: shuffles and chance), is an object
-- with below(n) (0..n-1), by default one that draws from random. `api`
-- gives kontor.pile, kontor.counter and family_draw (g:choose_from's
-- draw): the engine's own C ones when run
-- inside kontor (tests/bench/same_games.lua: with the engine's random
-- streams the stand-in then plays exactly the engine's games), else the
-- Lua tables below (under plain lua5.4: the games are the same in
-- distribution only, and a Lua pile costs more than the engine's C one).
-- A step is a decision taken, as `kontor sim` counts them.

local here = (debug and debug.getinfo and debug.getinfo(1, "S").source:match("^@(.*/)")) or "tests/bench/"

local Pile = {}
Pile.__index = Pile
function Pile:push(c, k)
  for _ = 1, k or 1 do local n = self.n + 1; self.n = n; self[n] = c end
end
function Pile:pop()
  local n = self.n
  if n == 0 then return nil end
  local c = self[n]
  self[n], self.n = nil, n - 1
  return c
end
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
function Pile:counts(n)
  local t = {}
  for c = 1, n do t[c] = 0 end
  for i = 1, self.n do local c = self[i]; if t[c] then t[c] = t[c] + 1 end end
  return t
end
function Pile:move_to(other, k) for _ = 1, k or 1 do other:push(self:pop()) end end
function Pile:shuffle(rng)
  for i = self.n, 2, -1 do local j = rng:below(i) + 1; self[i], self[j] = self[j], self[i] end
end
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
  if v < self._min or v > self._max then error(("counter %d: %d is out of its bounds"):format(i, v)) end
  self[i] = v
  return v
end
function Counter:values() return { table.unpack(self, 1, self.n) } end
function Counter:sum() local t = 0; for i = 1, self.n do t = t + self[i] end; return t end
function Counter:count() return self.n end
function Counter:min() return self._min end
function Counter:max() return self._max end

-- A family's options are the product of its lists' lengths; option k takes
-- entry k // stride % #list + 1 of each list, stride the options of the
-- lists after it (the last list varies fastest).
local function lua_family_draw(family, random)
  local lists, m, n = {}, 0, 1
  for i = 1, #family do
    local e = family[i]
    if type(e) == "table" then m = m + 1; lists[m] = e; n = n * #e end
  end
  local k = random(n) - 1
  local picked = {}
  for j = m, 1, -1 do
    local list = lists[j]
    picked[j] = list[k % #list + 1]
    k = k // #list
  end
  return table.unpack(picked, 1, m)
end

local LUA_API = {
  family_draw = lua_family_draw,
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

-- The stand-in's g: the engine's rule-facing methods, each as small as it
-- can be.
local G = {}
G.__index = G
local FINISH = {}
function G:choose(_, _, options) self.steps = self.steps + 1; return self.random(#options) end
-- g:choose_from: a draw among the options of a family (docs/api.md), by
-- the api's family_draw: inside kontor the engine's C one, as for the
-- piles (counting the options and reading the entries chosen is the
-- engine's work, not the script's).
function G:choose_from(_, _, family)
  self.steps = self.steps + 1
  return self._family_draw(family, self.random)
end
function G:choose_all(seats, _, by_seat)
  local chosen = {}
  for _, s in ipairs(seats) do
    self.steps = self.steps + 1
    chosen[s] = self.random(#by_seat[s])
  end
  return chosen
end
function G:choose_orders(seats, _, enter)          -- entered seat after seat, as the engine's bot does
  local orders, drafts = {}, {}
  self._drafts = drafts
  for _, s in ipairs(seats) do
    drafts[s] = {}
    orders[s] = enter(self, s, drafts[s])
  end
  self._drafts = nil
  return orders
end
function G:draft(s) return self._drafts and self._drafts[s] end
function G:chance(_, options, weights)              -- the engine's draw (lua/kontor/game.lua)
  if not weights then return self.rng:below(#options) + 1 end
  local total = 0
  for i = 1, #options do total = total + weights[i] end
  local r, k = self.rng:below(total), 1
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

local M = {}

function M.player(name, api)
  api = api or LUA_API
  local same = function(t) return t end                 -- constant lists: the stand-in checks nothing
  local env = setmetatable({ kontor = { pile = api.pile, counter = api.counter, options = same, family = same } },
                           { __index = _G })
  local R = assert(loadfile(here .. "../../variants/" .. name .. ".lua", "t", env))()
  return function(random, players, rng)
    rng = rng or { below = function(_, n) return random(n) - 1 end }
    local g = setmetatable({ players = players, names = {}, options = {}, turn = 0, steps = 0,
                             logging = false, random = random, rng = rng, _orders = {},
                             _family_draw = api.family_draw or lua_family_draw }, G)
    for k, o in pairs(R.options or {}) do g.options[k] = o.default end
    for s = 1, players do g.names[s] = "Player " .. s end
    R.setup(g)
    local ok, err = pcall(R.play, g)
    if not ok and err ~= FINISH then error(err, 0) end
    return g.turn, g.steps, R.scores(g)
  end
end

M.sea_merchants_script = M.player("sea_merchants")
M.caribbean_script = M.player("caribbean")
M.old_world_script = M.player("old_world")
return M
