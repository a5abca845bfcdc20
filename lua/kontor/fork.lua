-- kontor.fork: copies of a game at a decision, for search (docs/bots.md).
--
-- A game is its step record, so the plain copy is a replay from the start,
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
local Ctx = gamemod.Ctx
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
      c = new_pile { vis = v:vis(), owner = v:owner(), pool = v:pool() }
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

-- The cards of every pile `seat` may see, as one text (path: cards): with
-- g:view(seat), what two positions must share to look the same to it.
function M.seen_piles(game, seat)
  local out, seen = {}, {}
  local function walk(v, path, depth)
    local tv = type(v)
    if tv == "userdata" then
      if dgetmetatable(v) == PILE_MT and not seen[v] then
        seen[v] = true
        local vis = v:vis()
        if vis == "public" or (vis == "owner" and v:owner() == seat) then
          out[#out + 1] = path .. ": " .. table.concat(v:cards(), " ")
        else
          out[#out + 1] = path .. ": " .. v:count() .. " unseen"
        end
      end
    elseif tv == "table" and not seen[v] and depth < 20 then
      seen[v] = true
      for _, k in ipairs(sorted_keys(v)) do walk(v[k], path .. "." .. tostring(k), depth + 1) end
    end
  end
  walk(rule_fields(game.ctx), "g", 0)
  return table.concat(out, "\n")
end

-- The index of the first step that is a secret choice of an open
-- simultaneous decision or a step of a secret order still open (past the
-- end when there is none).
local function secret_from(game)
  if game.kind == "orders" then return game.ostart + 1 end
  if game.kind ~= "all" then return #game.rec + 1 end
  local n = 0
  for _ in pairs(game.chosen) do n = n + 1 end
  return #game.rec - n + 1
end

-- R.resampled(g), if the rule set declares it: the hidden cards were dealt
-- again, so whatever it keeps alongside them must follow.
local function resampled(R, ctx)
  local f = R.resampled
  if not f then return end
  local ok, err = csb.call(f, ctx)
  if not ok then error(string.format("%s: R.resampled: %s", R.name, tostring(err)), 0) end
end

-- A game started from its origin: the parameters (a fresh start), or for a
-- copy the saved state it was restored from. hook as in game.start_hooked.
local function restart(R, params, origin, hook)
  if origin then
    local snap = origin.snap
    local game = gamemod.restore(R, params, copy_value(snap.fields, {}), snap.turn, snap.active,
      snap.rng, hook, origin.dealt and function(ctx) resampled(R, ctx) end)
    game.origin = origin
    return game
  end
  local game = gamemod.new_copy(R, params)
  gamemod.start_hooked(game, hook)
  return game
end

-- The base of the copies of `game` as `seat` may have them: the state saved
-- when the current turn began and the steps since (or, for a rule set that
-- does not resume at a turn, all the steps). One replay of the game.
-- The engine's replay of each game, kept while the game lives: a bot's
-- next decision replays only the steps taken since its last one.
local REPLAYS = setmetatable({}, { __mode = "k" })

function M.base(game, seat)
  local R = game.R
  local rec = game.rec
  local n = #rec
  local first_secret = secret_from(game)
  local origin = game.origin
  -- all steps from the origin: the origin's own, then the game's
  local all_seat, all_idx = {}, {}
  if origin then
    for i = 1, #origin.steps_seat do all_seat[i], all_idx[i] = origin.steps_seat[i], origin.steps_idx[i] end
  end
  local n0 = #all_seat
  for i = 1, n do
    local s = rec:seat(i)
    if i < first_secret or s == seat then
      all_seat[#all_seat + 1], all_idx[#all_idx + 1] = s, rec:option(i)
    end
  end
  -- the replay so far, if it is a prefix of these steps (undo, a secret
  -- choice left out or another origin start a new one)
  local rp = REPLAYS[game]
  if rp and rp.origin == origin and rp.done <= #all_seat then
    local ds, di = rp.seats, rp.idx
    for i = 1, rp.done do
      if ds[i] ~= all_seat[i] or di[i] ~= all_idx[i] then rp = nil; break end
    end
  else
    rp = nil
  end
  if not rp then
    rp = { origin = origin, done = 0, seats = {}, idx = {} }
    local hook
    if rawget(R, "resumes_at_turn") then
      hook = function(ctx)
        rp.snap = { fields = copy_value(rule_fields(ctx), {}), turn = ctx.turn, active = ctx.active,
                    rng = ctx.rng:state() }
        rp.at = rp.done
      end
    end
    rp.copy = restart(R, game.params, origin, hook)
  end
  local copy, ds, di = rp.copy, rp.seats, rp.idx
  for i = rp.done + 1, #all_seat do
    rp.done = i                        -- the hook sees the step being taken
    ds[i], di[i] = all_seat[i], all_idx[i]
    local ok, err = raw_step(copy, all_seat[i], all_idx[i])
    if not ok then REPLAYS[game] = nil; error(err, 0) end
  end
  REPLAYS[game] = rp
  local base = { R = R, params = game.params, seat = seat }
  local from = 0
  if rp.snap then
    base.snap, from = rp.snap, rp.at
  elseif origin then
    base.snap, base.dealt = origin.snap, origin.dealt
  end
  if base.snap then base.unseen = unseen_piles(base.snap.fields, seat) end
  local ss, si = {}, {}
  for i = from + 1, #all_seat do ss[#ss + 1], si[#si + 1] = all_seat[i], all_idx[i] end
  base.steps_seat, base.steps_idx = ss, si
  base.n0 = n0
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
      snap.active, snap.rng, nil, base.dealt and function(ctx) resampled(base.R, ctx) end)
    game.origin = base
  else
    game = restart(base.R, base.params, nil, nil)
  end
  local ss, si = base.steps_seat, base.steps_idx
  for i = 1, #ss do
    local ok, err = raw_step(game, ss[i], si[i])
    if not ok then error(err, 0) end
  end
  if snap then
    -- the copy's own step record starts at its decision
    game.rec = core.steps(64)
    game.origin = base
  end
  return game, memo
end

-- A twin of the game at the base's decision for the fairness test: the
-- unseen cards of the turn's saved state swapped at random (`swaps` times,
-- with `rng`), the turn's steps replayed. Returns the twin, or nil when the
-- rule set cannot be copied from a saved state or no unseen card differs.
function M.twin(base, rng, swaps)
  if not base.snap then return nil end
  local memo = {}
  local fields = copy_value(base.snap.fields, memo)
  local piles = {}
  for i, p in ipairs(base.unseen) do piles[i] = memo[p] end
  local slots = {}
  for i, p in ipairs(piles) do for j = 1, p:count() do slots[#slots + 1] = { i, j } end end
  if #slots < 2 then return nil end
  local changed = false
  for _ = 1, swaps or 1 do
    local a, b = slots[rng:below(#slots) + 1], slots[rng:below(#slots) + 1]
    local pa, pb = piles[a[1]], piles[b[1]]
    local ca, cb = pa:get(a[2]), pb:get(b[2])
    if ca ~= cb then
      pa:set(a[2], cb); pb:set(b[2], ca)
      changed = true
    end
  end
  if not changed then return nil end
  local snap = base.snap
  local origin = { snap = { fields = fields, turn = snap.turn, active = snap.active, rng = snap.rng },
                   dealt = true, steps_seat = base.steps_seat, steps_idx = base.steps_idx }
  local twin = gamemod.restore(base.R, base.params, copy_value(fields, {}), snap.turn, snap.active,
    snap.rng, nil, function(ctx) resampled(base.R, ctx) end)
  for i = 1, #base.steps_seat do
    if not raw_step(twin, base.steps_seat[i], base.steps_idx[i]) then return nil end
  end
  -- the twin's own step record starts at its decision: its origin holds the rest
  twin.rec = core.steps(64)
  twin.origin = origin
  return twin
end

-- Deals the cards of `piles` again with `rng`, each pile keeping its count.
local function redeal_pool(piles, rng)
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

-- Deals the unseen cards again pool by pool (kontor.pile{ pool = name }):
-- cards never move between piles of different pools, so a bag of workers
-- and a deck of cards stay what they are. Piles without a pool share one.
local function redeal(piles, rng)
  local by, names = {}, {}
  for i = 1, #piles do
    local name = piles[i]:pool() or ""
    if not by[name] then by[name] = {}; names[#names + 1] = name end
    local list = by[name]
    list[#list + 1] = piles[i]
  end
  table.sort(names)
  for i = 1, #names do redeal_pool(by[names[i]], rng) end
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
  resampled(base.R, game.ctx)
  game.ctx.rng:set_state(core.rng(rng:int(1, 0x3fffffffffffffff)):state())
  return game
end

-- Who decides in a copy now, and that seat's options (option values):
-- seat 0 for chance; nil when the game is over. While several seats choose
-- at once (g:choose_all, g:choose_orders), `prefer` if it is one of them,
-- else the first of them.
function M.decider(game, prefer)
  local kind = game.kind
  if kind == "player" or kind == "chance" then return game.seat, game.opts end
  if kind == "all" then
    local seats, chosen, by_seat = game.seats, game.chosen, game.by_seat
    if prefer and by_seat[prefer] and not chosen[prefer] then return prefer, by_seat[prefer] end
    for i = 1, #seats do
      local s = seats[i]
      if not chosen[s] then return s, by_seat[s] end
    end
  elseif kind == "orders" then
    local seats, entries = game.seats, game.entries
    local e = prefer and entries[prefer]
    if e and not e.done then return prefer, e.opts end
    for i = 1, #seats do
      local s = seats[i]
      if not entries[s].done then return s, entries[s].opts end
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
