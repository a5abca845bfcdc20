-- kontor.fork: copies of a game at a decision, for search (docs/bots.md).
--
-- A game is its step list, so the plain copy is a replay from the start,
-- whose cost grows with the game. A rule set whose R.play picks up from its
-- state at g:begin_turn declares R.resumes_at_turn = true; then a copy is
-- the state saved when the current turn began (rule fields, turn, RNG),
-- restored as data, plus the steps taken since: a few steps' work however
-- long the game is. Other rule sets get the replay.
--
-- A sample is a copy seen from one seat: every card that seat cannot see
-- (hidden piles, the owner-only piles of other seats, the deck order) is
-- dealt again at random among those piles, each keeping its count, and the
-- RNG gets a new seed; other seats' secret choices still open are not in
-- it. What the seat sees is unchanged; what it does not see is drawn from
-- the bot's own RNG and the sorted list of unseen cards, so it does not
-- depend on where the unseen cards really are (tests/lua/bots_spec.lua).

local core = require "kontor.core"
local gamemod = require "kontor.game"

local csb = core.sandbox
local dgetmetatable = debug.getmetatable
local PILE_MT = dgetmetatable(core.pile {})
local COUNTER_MT = dgetmetatable(core.counter { n = 1 })
local RNG_MT = dgetmetatable(core.rng(1))
local new_pile, new_counter = core.pile, core.counter
local Ctx, Game = gamemod.Ctx, gamemod.Game
local raw_step = gamemod.raw_step

local M = {}

-- Fields of the context that are the engine's, not the rule set's state.
local ENGINE = { players = true, names = true, options = true, rng = true, turn = true,
                 active = true, logging = true, _log = true, _quiet = true, _orders = true,
                 _text = true, _manual_chance = true, _cons = true, _bot = true }

-- A deep copy of v: tables (metatables kept), piles, counters and RNGs are
-- new; shared references stay shared. memo maps originals to copies.
local function copy_value(v, memo)
  local tv = type(v)
  if tv == "table" then
    local c = memo[v]
    if c then return c end
    c = {}
    memo[v] = c
    for k, x in next, v do
      if type(k) == "table" then k = copy_value(k, memo) end
      local tx = type(x)
      if tx == "table" or tx == "userdata" then x = copy_value(x, memo) end
      c[k] = x
    end
    local mt = dgetmetatable(v)
    if mt then setmetatable(c, mt) end
    return c
  elseif tv == "userdata" then
    local c = memo[v]
    if c then return c end
    local mt = dgetmetatable(v)
    if mt == PILE_MT then
      c = new_pile { vis = v:vis(), owner = v:owner() }
      local cards = v:cards()
      for i = 1, #cards do c:push(cards[i]) end
    elseif mt == COUNTER_MT then
      local n = v:count()
      c = new_counter { n = n, min = v:min(), max = v:max() }
      for i = 1, n do c:set(i, v:get(i)) end
    elseif mt == RNG_MT then
      c = v:clone()
    else
      return v
    end
    memo[v] = c
    return c
  end
  return v
end

-- The rule set's fields of a context (its state), not copied.
local function rule_fields(ctx)
  local t = {}
  for k, v in next, ctx do
    if not ENGINE[k] and Ctx[k] ~= v then t[k] = v end
  end
  return t
end

local function sorted_keys(t)
  local keys = {}
  for k in next, t do
    local tk = type(k)
    if tk == "string" or tk == "number" then keys[#keys + 1] = k end
  end
  table.sort(keys, function(a, b)
    local ta, tb = type(a), type(b)
    if ta ~= tb then return ta == "number" end
    return a < b
  end)
  return keys
end

-- The piles of `fields` that `seat` cannot see, in a fixed order (sorted
-- keys, depth first), each once.
local function unseen_piles(fields, seat)
  local out, seen = {}, {}
  local function walk(v, depth)
    local tv = type(v)
    if tv == "userdata" then
      if dgetmetatable(v) == PILE_MT and not seen[v] then
        seen[v] = true
        local vis = v:vis()
        if vis == "hidden" or (vis == "owner" and v:owner() ~= seat) then out[#out + 1] = v end
      end
    elseif tv == "table" and not seen[v] and depth < 20 then
      seen[v] = true
      for _, k in ipairs(sorted_keys(v)) do walk(v[k], depth + 1) end
    end
  end
  walk(fields, 0)
  return out
end

-- The number of steps at the end of the game's list that are secret
-- choices of an open simultaneous decision, and whether step i is one of
-- another seat's.
local function secret_from(game, seat)
  if game.kind ~= "all" then return #game.hist + 1 end
  local n = 0
  for _ in pairs(game.chosen) do n = n + 1 end
  return #game.hist - n + 1, seat
end

-- The base of the copies of `game` as `seat` may have them: the state saved
-- when the current turn began and the steps since (or, for a rule set that
-- does not resume at a turn, all the steps). One replay of the game.
function M.base(game, seat)
  local R = game.R
  local hseat, hidx, n = game.hseat, game.hidx, #game.hist
  local first_secret = secret_from(game, seat)
  local function keep(i) return i < first_secret or hseat[i] == seat end
  local base = { R = R, params = game.params, seat = seat }
  local copy = setmetatable({ R = R, params = game.params, quiet = true, future = {} }, Game)
  local snap, at
  if rawget(R, "resumes_at_turn") then
    gamemod.start_hooked(copy, function(ctx)
      local memo = {}
      snap = { fields = copy_value(rule_fields(ctx), memo), turn = ctx.turn, active = ctx.active,
               rng = ctx.rng:state() }
      at = #copy.hist
    end)
  else
    gamemod.start_hooked(copy, nil)
  end
  local steps_seat, steps_idx = {}, {}
  for i = 1, n do
    if keep(i) then
      local ok, err = raw_step(copy, hseat[i], hidx[i])
      if not ok then error(err, 0) end
    end
  end
  if snap and at and first_secret > at then
    base.snap = snap
    for i = at + 1, n do
      if keep(i) then steps_seat[#steps_seat + 1], steps_idx[#steps_idx + 1] = hseat[i], hidx[i] end
    end
    base.unseen = unseen_piles(snap.fields, seat)
  else
    for i = 1, n do
      if keep(i) then steps_seat[#steps_seat + 1], steps_idx[#steps_idx + 1] = hseat[i], hidx[i] end
    end
  end
  base.steps_seat, base.steps_idx = steps_seat, steps_idx
  return base
end

-- A copy of the game at the base's decision (the true game: not for bots).
-- Returns the copy and the map from the base's state to the copy's.
function M.copy(base)
  local game, memo
  local snap = base.snap
  if snap then
    memo = {}
    game = gamemod.restore(base.R, base.params, copy_value(snap.fields, memo), snap.turn,
      snap.active, snap.rng)
  else
    game = setmetatable({ R = base.R, params = base.params, quiet = true, future = {}, copy = true },
      Game)
    gamemod.start_hooked(game, nil)
  end
  local ss, si = base.steps_seat, base.steps_idx
  for i = 1, #ss do
    local ok, err = raw_step(game, ss[i], si[i])
    if not ok then error(err, 0) end
  end
  return game, memo
end

-- Deals the cards of `piles` again with `rng`, each pile keeping its count.
local function redeal(piles, rng)
  local pool, counts = {}, {}
  for i = 1, #piles do
    local p = piles[i]
    local cards = p:cards()
    counts[i] = #cards
    for j = 1, #cards do pool[#pool + 1] = cards[j] end
    p:clear()
  end
  table.sort(pool)                     -- where they were tells nothing
  for i = #pool, 2, -1 do
    local j = rng:below(i) + 1
    pool[i], pool[j] = pool[j], pool[i]
  end
  local at = 0
  for i = 1, #piles do
    local p = piles[i]
    for _ = 1, counts[i] do at = at + 1; p:push(pool[at]) end
  end
end

-- A copy of the game as base.seat may imagine it, drawn with `rng`.
function M.sample(base, rng)
  local game, memo = M.copy(base)
  local piles
  if memo then
    piles = {}
    for i, p in ipairs(base.unseen) do piles[i] = memo[p] end
  else
    piles = unseen_piles(rule_fields(game.ctx), base.seat)
  end
  redeal(piles, rng)
  local R = base.R
  local f = rawget(R, "resampled") or R.resampled
  if f then
    local ok, err = csb.call(f, game.ctx)
    if not ok then error(string.format("%s: R.resampled: %s", R.name, tostring(err)), 0) end
  end
  game.ctx.rng:set_state(core.rng(rng:int(1, 0x3fffffffffffffff)):state())
  return game
end

-- Who decides in a copy now, and that seat's options (option values):
-- seat 0 for chance; nil when the game is over.
function M.decider(game)
  local kind = game.kind
  if kind == "player" or kind == "chance" then return game.seat, game.opts end
  if kind == "all" then
    local seats, chosen = game.seats, game.chosen
    for i = 1, #seats do
      local s = seats[i]
      if not chosen[s] then return s, game.by_seat[s] end
    end
  end
  return nil
end

-- Takes option k for `seat` in a copy; raises on a rule-script error.
function M.step(game, seat, k)
  local ok, err = raw_step(game, seat, k)
  if not ok then error(err, 0) end
end

M.copy_value = copy_value
return M
