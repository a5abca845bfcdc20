-- Merchants of the Old World for make bench: the rule script itself
-- (variants/old_world.lua) under the smallest stand-in for the engine that
-- plays it in plain Lua: no sandbox, no limits, no recording. The same
-- rule code runs in both, so kontor's time minus this time is what the
-- engine costs (decisions, recording, the sandbox), a step and a game.
--
-- The random policy is the engine's bot's: uniform over the options of
-- every decision; secret orders entered seat after seat; chance by weight.
-- A step is a decision taken (as kontor sim counts them).

local here = (debug and debug.getinfo and debug.getinfo(1, "S").source:match("^@(.*/)")) or "tests/bench/"

local Counter = {}
Counter.__index = Counter
function Counter:get(i) return self[i] end
function Counter:set(i, v) self[i] = v end
function Counter:add(i, d)
  local v = self[i] + d
  if v < self.min then error(("counter %d: %d is below the minimum %d"):format(i, v, self.min)) end
  self[i] = v
  return v
end
function Counter:values() return { table.unpack(self, 1, self.n) } end

local function counter(t)
  local c = setmetatable({ n = t.n, min = t.min or -math.huge }, Counter)
  for i = 1, t.n do c[i] = t.init or 0 end
  return c
end

local function load_rules()
  local env = setmetatable({ kontor = { counter = counter } }, { __index = _G })
  return assert(loadfile(here .. "../../variants/old_world.lua", "t", env))()
end

local R = load_rules()

local G = {}
G.__index = G
function G:choose(_, _, opts) self.steps = self.steps + 1; return self.random(#opts) end
function G:choose_all(seats, _, by_seat)
  local chosen = {}
  for _, s in ipairs(seats) do
    self.steps = self.steps + 1
    chosen[s] = self.random(#by_seat[s])
  end
  return chosen
end
function G:choose_orders(seats, _, enter)
  local orders = {}
  for _, s in ipairs(seats) do orders[s] = enter(self, s, {}) end   -- each entry its draft
  return orders
end
function G:chance(_, opts, weights)
  if not weights then return self.random(#opts) end
  local total = 0
  for i = 1, #opts do total = total + weights[i] end
  local r, k = self.random(total) - 1, 1
  while r >= weights[k] do r = r - weights[k]; k = k + 1 end
  return k
end
function G:begin_turn(seat) self.turn = self.turn + 1; self.active = seat end
function G:next_seat(seat) return seat % self.players + 1 end
function G:turn_order(first)
  local t = self.orders[first]
  if not t then
    t = {}
    for i = 1, self.players do t[i] = (first + i - 2) % self.players + 1 end
    self.orders[first] = t
  end
  return t
end
function G:log() end

local M = {}

-- One game: returns turns, steps, scores (the plain loops' interface).
function M.old_world(random, players)
  local g = setmetatable({ players = players, names = {}, options = {}, turn = 0, steps = 0,
                           logging = false, random = random, orders = {} }, G)
  for k, o in pairs(R.options) do g.options[k] = o.default end
  for s = 1, players do g.names[s] = "Player " .. s end
  R.setup(g)
  R.play(g)
  return g.turn, g.steps, R.scores(g)
end

return M
