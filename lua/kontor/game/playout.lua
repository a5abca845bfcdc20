-- kontor.game.playout: the simulation's fast path. A random bot (a
-- kontor.Rng) plays a game to its end; inside the game's coroutine
-- (context.enter_sim) it answers each decision with one C call
-- (lua/engine/playout.c), so a step costs no coroutine switch.

local core = require "kontor.core"
local context = require "kontor.game.context"
local driver = require "kontor.game.driver"

local format = string.format
local step, rebuild, run_to_decision = driver.step, driver.rebuild, driver.run_to_decision

local M = {}
local Game = {}     -- the Game methods of this file (game/init.lua)
M.methods = Game

local function NO_CHECK() end

-- A game started with its first decision deferred, played to the end.
local function play_from_start(self, bot, check, max_steps, tally)
  run_to_decision(self)
  return Game.play_random(self, bot, check, max_steps, nil, tally)
end

-- The simulation's fast path: the bot answers inside the game's coroutine,
-- so a decision costs no coroutine switch. Every step is still recorded
-- (replay, save and undo work on the result) and gets a fresh instruction
-- budget. The first decision, already pending, is answered from outside;
-- with `deferred` (M.playout) the game has not run to it yet, and the bot
-- answers it inside too. With a `tally` (kontor.Tally, the balance lab's
-- moves), the bot counts each step's kind in it.
local function play_random_inside(self, bot, max_steps, deferred, tally)
  local ctx = self.ctx
  -- The bot (lua/engine/playout.c) appends each step to the game's record, as the
  -- driver does, and makes no text: the texts are made from the record
  -- when asked for (driver.hist_texts).
  local rbot = core.random_bot(bot, self.rec, max_steps, tally)
  self.texts = false
  local outer_ctx, outer_bot, outer_players = context.enter_sim(ctx, rbot, not tally)
  local ok, err = pcall(deferred and play_from_start or Game.play_random, self, bot, NO_CHECK, max_steps, nil, tally)
  context.leave_sim(ctx, outer_ctx, outer_bot, outer_players)
  if not ok then error(err, 0) end
  return self
end

-- Plays to the end choosing uniformly at random with `bot` (a kontor.Rng):
-- the simulation's inner loop. `check(game)`, if given, runs after setup
-- and after every step. Raises on a rule-script error or after max_steps.
-- A game played from its start without `check` is played by the bot
-- inside (play_random_inside): its steps are kept as seats and option
-- numbers, and the texts are made by replaying
-- when something reads them (kontor sim wants the result alone).
-- (The fourth argument, once whether to make the texts as it plays, is
-- not read.) `tally` (a kontor.Tally, or nil): each step's kind is
-- counted in it (the balance lab's moves, kontor.balance.moves).
function Game:play_random(bot, check, max_steps, _, tally)
  max_steps = max_steps or 100000
  local below = bot.below
  if not tally then tally = nil end
  if not check and self.kind ~= "over" and #self.rec == 0 then
    return play_random_inside(self, bot, max_steps, nil, tally)
  end
  if check then check(self) end
  for _ = 1, max_steps do
    local kind = self.kind
    local seat, k
    if kind == "over" then return self end
    if kind == "all" then
      local seats, chosen = self.seats, self.chosen
      for i = 1, #seats do
        local s = seats[i]
        if not chosen[s] then seat = s; break end
      end
      k = below(bot, #self.by_seat[seat]) + 1
      if tally then tally:add(seat, self.dname, self.by_seat[seat], k) end
    elseif kind == "orders" then
      -- the first seat still entering, as the bot inside enters them
      local seats, entries = self.seats, self.entries
      for i = 1, #seats do
        local s = seats[i]
        if not entries[s].done then seat = s; break end
      end
      k = below(bot, #entries[seat].opts) + 1
      if tally then tally:add(seat, entries[seat].name, entries[seat].opts, k) end
    else
      seat = self.seat
      k = below(bot, #self.opts) + 1
      if tally and kind == "player" then tally:add(seat, self.dname, self.opts, k) end
    end
    local ok, err = step(self, seat, k)
    if not ok then
      rebuild(self, #self.rec - 1)
      error(err, 0)
    end
    if check then check(self) end
  end
  if self.kind == "over" then return self end
  error(format("the game did not end within %d steps", max_steps), 0)
end

-- A new game played to its end as Game:play_random(bot, nil, max_steps)
-- plays it, its first decision included: the same game, its
-- options made as the simulation makes every other decision's. Raises as
-- M.new and Game:play_random do.
-- `game` is new, not started (game/init.lua's M.playout); `tally` as
-- Game:play_random's.
function M.playout(game, bot, max_steps, tally)
  driver.start(game, true)
  return play_random_inside(game, bot, max_steps or 100000, true, tally or nil)
end

return M
