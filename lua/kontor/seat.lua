-- kontor.seat: what one seat may learn of a game (docs/api.md "Seat views",
-- docs/security.md "Seat views: what a seat may see").
--
-- seat.view(game, s) is the one way a seat learns anything: the board and
-- the view as s sees them, s's own options (never another seat's), the
-- moves, the record and the log with the other seats' unrevealed secret
-- steps left out, why and hint, undo of s's own steps, a save written for
-- s, and sample(rng) (a copy of the game with everything s cannot see
-- dealt again) for bots. Front ends that act for a seat (kontor play,
-- kontor serve with a seat, the bots) get such a view and nothing else.
--
-- The game is in no field of the view: the view is an empty table whose
-- metatable is hidden (__metatable = false) and whose methods are made by
-- __index; the game is found through GAME, a weak-keyed table local to
-- this file. Without the debug library (which no front end gets near the
-- views: tests/lua/fairness_spec.lua walks every method and result) the
-- game cannot be reached from a view.
--
-- seat.referee(game) is the all-seeing view, for the REPL and tests only.

local core = require "kontor.core"
local csb = core.sandbox
local errors = require "kontor.errors"
local texts_of = require("kontor.game.driver").texts_of   -- (the game's own list: only read here)
local is_boundary = require("kontor.game.parse").is_boundary
local seat_name = require("kontor.game.parse").seat_name

local format = string.format

local M = {}

local GAME = setmetatable({}, { __mode = "k" })     -- view -> game
local SEAT = setmetatable({}, { __mode = "k" })     -- view -> seat
local CACHE = setmetatable({}, { __mode = "k" })    -- view -> { name -> bound method }
local BASE = setmetatable({}, { __mode = "k" })     -- view -> { ctx, n, base } (sample)

local function copy_list(t)
  local c = {}
  for i = 1, #t do c[i] = t[i] end
  return c
end

local function deep_copy(v)
  if type(v) ~= "table" then return v end
  local t = {}
  for k, x in pairs(v) do t[k] = deep_copy(x) end
  return t
end

-- Who decides now, as data: a seat, a list of seats, "chance" or nil.
local function who_of(game)
  local w = game:who()
  if type(w) == "table" then return copy_list(w) end
  return w
end

-- The "N:" or "chance:" a text starts with, or nil.
local function named_seat(action)
  if type(action) ~= "string" then return nil end
  local s = action:match("^%s*(%d+)%s*:")
  if s then return tonumber(s) end
  if action:match("^%s*chance%s*:") then return 0 end
  return nil
end

-- A seat named as the rest of the front end names it, with the number a
-- text gives: "Bob (seat 2)"; "chance"; "seat 9" for no seat of the game.
local function seat_label(game, s)
  if s == 0 then return "chance" end
  local name = seat_name(game, s)
  return name == "seat " .. s and name or format("%s (seat %d)", name, s)
end

local function not_yours(game, seat, named)
  return format("%s acts only for itself, not for %s", seat_label(game, seat), seat_label(game, named))
end

---------------------------------------------------------------------------
-- The methods of a seat view: m(v, game, seat, ...)
---------------------------------------------------------------------------

local METHODS = {}
local variants_text

function METHODS.who(_, game) return who_of(game) end

function METHODS.over(_, game) return game:over() end

-- The seat's options now (texts), or nil and who decides.
function METHODS.options(_, game, seat)
  local opts = game:options(seat)
  if #opts == 0 then return nil, who_of(game) end
  return opts
end

-- The decision as this seat faces it: kind, name, who decides, and the
-- seat's own options (nil when it does not decide now); in secret orders
-- the seat's own step (`step`) and its order so far (`pending`), and the
-- seats that have finished theirs; in a simultaneous decision the seats
-- that have chosen.
function METHODS.now(_, game, seat)
  local d = game:decision(seat)
  local out = { kind = d.kind, name = d.name, seats = copy_list(d.seats or {}) }
  if d.kind == "over" then return out end
  local opts = game:options(seat)
  if #opts > 0 then out.options = opts end
  if d.kind == "orders" then
    out.step = d.steps and d.steps[seat] or nil
    out.done = copy_list(d.done or {})
    out.pending = game:pending(seat)
  elseif d.kind == "simultaneous" then
    out.chosen = copy_list(d.chosen or {})
  end
  return out
end

function METHODS.apply(_, game, seat, action)
  local named = named_seat(action)
  if named and named ~= seat then return nil, not_yours(game, seat, named) end
  return game:apply(action, seat, true)   -- (as the seat: a text stops at what it shows, parse.walk)
end

function METHODS.why(_, game, seat, action)
  local named = named_seat(action)
  if named and named ~= seat then return not_yours(game, seat, named) end
  return game:why(action, seat, true)
end

-- What a bot of `spec` (default mcts) would play for the seat now, and
-- why, as lines, and the option's number in v.options() (kontor.bots.hint);
-- or nil and a message.
function METHODS.hint(v, game, _, spec)
  if game:over() then return nil, "the game is over" end
  return require("kontor.bots").hint(v, spec, game.params.seed)
end

function METHODS.board(_, game, seat, how) return game:show(seat, how) end
METHODS.show = METHODS.board

function METHODS.view(_, game, seat) return game:view(seat) end

-- (omit: without the other seats' secret choices not yet revealed, which
-- otherwise read "(secret)": the moves the seat's save holds)
function METHODS.moves(_, game, seat, omit) return game:moves(seat, omit == true) end

-- The steps as "seat: text" (g:actions(seat)), without another seat's
-- step that repeats its last one: such a step is a "stop here", taken
-- only when that seat could have gone on, which would tell what it holds.
local function record_of(game, seat)
  local all, out = game:actions(seat), {}
  local mine = tostring(seat) .. ": "
  for i = 1, #all do
    local a = all[i]
    if not (a == all[i - 1] and a:sub(1, #mine) ~= mine) then out[#out + 1] = a end
  end
  return out
end

function METHODS.record(_, game, seat) return record_of(game, seat) end
METHODS.actions = METHODS.record

function METHODS.log(_, game) return game:log() end

-- The decisions the rules skipped, oldest first (g:skipped(): seat,
-- decision, why, turn): public, as a log line is (a Caribbean take that
-- passed for want of a coin); kontor play tells them since a seat's turn.
-- Each also says how many log lines came before it (log_lines).
function METHODS.skipped(_, game) return require("kontor.game").skipped_in_log(game) end

function METHODS.pending(_, game, seat) return game:pending(seat) end

function METHODS.result(_, game) return game:result() end

-- Once the game is over: why the winners won (R.why_won, escaped) and the
-- seed, which replays the deal (public then, never before). nil before.
function METHODS.why_won(_, game) return require("kontor.describe").why_won(game) end
function METHODS.seed(_, game)
  if not game:over() then return nil end
  return game.params.seed
end
-- Whether the game began from a scenario (a stated position, which the
-- seed alone does not give back), once it is over; nil before.
function METHODS.from_scenario(_, game)
  if not game:over() then return nil end
  return game.params.scenario ~= nil
end

function METHODS.save(_, game, seat, path) return game:save(path, seat) end

-- The number of steps the seat may see (#record()): a mark for since().
function METHODS.mark(_, game, seat) return #record_of(game, seat) end

-- Whether step b of the record continues step a's move (the same seat,
-- its text extends a's, or repeats it as a "stop here").
local function continues(game, a, b)
  local sa, ta = game:step_at(a)
  local sb, tb = game:step_at(b)
  if sa ~= sb or #tb < #ta or tb:sub(1, #ta) ~= ta then return false end
  if #tb == #ta then return game.rec:stop(b) end
  return is_boundary(tb, #ta + 1)
end

-- The first step of the unit of the record that ends at step i: a block
-- of secret steps (a g:choose_all's choices, the orders of
-- g:choose_orders), or else a move.
local function unit_start(game, i)
  local rec = game.rec
  local secret, first = rec:secret(i)
  if secret then
    while not first and i > 1 and rec:secret(i - 1) do
      i = i - 1
      first = select(2, rec:secret(i))
    end
    return i
  end
  while i > 1 and not rec:secret(i - 1) and continues(game, i - 1, i) do i = i - 1 end
  return i
end

-- n of the seat's moves taken back, with all that came after them. A
-- block of secret choices once revealed goes back whole: every seat in
-- it saw the others' choices at the reveal, so one seat choosing again
-- alone would choose with the others' in view (O34 in Old World: bids
-- and orders are secret until all have chosen). Its other seats must
-- agree, as must every seat with a move after it.
local function revealed_plan(game, seat, n)
  local rec = game.rec
  local i, mine, cut = #rec, 0, #rec + 1
  while i >= 1 and mine < n do
    local j = unit_start(game, i)
    for k = j, i do
      if rec:seat(k) == seat then mine = mine + 1; cut = j; break end
    end
    i = j - 1
  end
  local others, seen, out, revealed = {}, {}, {}, nil
  -- the steps from the cut on, as the record is read back (a block in
  -- seat order), merged into moves
  local order = rec:order()
  for j = 1, #rec do
    local k = order and order[j] or j
    if k >= cut then
      local s, text = game:step_at(k)
      if s ~= seat and s ~= 0 and not seen[s] then seen[s] = true; others[#others + 1] = s end
      -- another seat's secret choice, revealed: the seat has seen it
      if s ~= seat and s ~= 0 and rec:secret(k) then revealed = revealed or {}; revealed[s] = true end
      local last = out[#out]
      if last and last[1] == s and last.k == k - 1 and continues(game, k - 1, k) then
        last[2], last.k = text, k
      else
        out[#out + 1] = { s, text, k = k }
      end
    end
  end
  for _, m in ipairs(out) do m.k = nil end
  return { moves = out, others = others, steps = #rec - cut + 1, revealed = revealed }
end

-- Whether the steps from `from` on showed `seat` a card out of a pile it
-- cannot see: a card taken out of such a pile into one the seat sees (a
-- card revealed from the deck, even one that goes on to a hidden pile, as
-- a Caribbean ship that busts the harbour: it is turned face up first; a
-- card drawn into the seat's hand). Taken back, the card lies hidden again
-- where the seat saw it (the next card of the deck): the seat would know
-- it, so the others must agree. A card moved from one hidden pile to
-- another (Caribbean's coin cards, C2) shows nothing. A step that drew
-- from the game's RNG (math.random, g.rng: a die rolled and logged, a
-- shuffle) counts as a chance draw: replayed, the same seed draws the
-- same again, and the seat would know the roll to come. Worked out on a copy
-- of the game replayed from its parameters, the piles watched from `from`
-- on (core.pile_watch); a copy that cannot be replayed counts as having
-- shown one (the others are asked).
local CHANCE = require("kontor.game.context").chance_watch
local function showed_unseen(game, seat, from)   -- false, "card" or "luck"
  local rec = game.rec
  local ok, res, drew = pcall(function()
    local copy = require("kontor.game").new(game.R, game.params, true)
    for i = 1, from - 1 do copy:step(rec:seat(i), rec:option(i)) end
    local rng = copy.rng:state()
    core.pile_watch(true)
    CHANCE.on, CHANCE.drawn = true, false
    for i = from, #rec do copy:step(rec:seat(i), rec:option(i)) end
    CHANCE.on = false
    return core.pile_watch(false), copy.rng:state() ~= rng
  end)
  CHANCE.on = false
  if not ok then core.pile_watch(false); return "card" end
  if seat > 63 and res ~= 0 or (res >> seat) & 1 == 1 then return "card" end
  return (CHANCE.drawn or drew) and "luck" or false
end

-- The words for what an undo's moves showed (plan.shown, from
-- showed_unseen): a card out of a hidden pile, or luck (a g:chance draw,
-- a roll of the game's RNG), which the same seed and moves give again.
-- `what` follows "showed"; `know` follows "would know". Every front end
-- that asks for consent says it in these words.
local SHOWN = {
  card = { what = "a hidden card", know = "where it lies" },
  luck = { what = "what luck gave (a draw, a roll)", know = "what it gives again" },
}
function M.shown_words(plan)
  local w = SHOWN[type(plan) == "table" and plan.shown or "card"] or SHOWN.card
  return w.what, w.know
end

-- What the seat's undo takes back, without taking it: the moves ({seat,
-- text}, oldest first) and the other seats whose moves go too; or nil and
-- why not. n of the seat's own moves (default 1).
local function undo_plan(game, seat, n)
  local kind = game.kind
  if kind == "over" then
    -- the seat has the seed now (v.seed(), its save): back in play, it
    -- would know every card still to come
    return nil, "the game is over, and its seed (in the result and each seat's save) gives every card dealt: "
      .. "a seat cannot take it back into play (the referee can: undo without \"seat\")"
  end
  if kind == "orders" then
    local mine = game:pending(seat)
    if #mine == 0 then
      return nil, "nothing of your order to take back: the moves before the secret orders "
        .. "can be taken back once the orders are revealed"
    end
    local k = math.min(n, #mine)
    local out = {}
    for i = #mine - k + 1, #mine do out[#out + 1] = { seat, mine[i] } end
    return { order = true, moves = out, others = {} }
  end
  if kind == "all" then
    local mine, others = false, false
    for _, s in ipairs(game:decision(seat).chosen or {}) do
      if s == seat then mine = true else others = true end
    end
    if others then
      -- the seat's own secret choice, the last step taken, may go alone
      -- (the others' choices stay: nobody has seen them)
      local s, text = game:step_at(game:step_count())
      if not (mine and n == 1 and s == seat) then
        return nil, "the others have chosen in secret: what they chose cannot be taken back before it is revealed"
      end
      return { step = true, moves = { { seat, text } }, others = {}, steps = 1 }
    end
  end
  local plan = revealed_plan(game, seat, n)
  local shown = plan.steps > 0 and showed_unseen(game, seat, #game.rec - plan.steps + 1)
  if shown then
    -- every other seat: each saw the seat learn those cards
    local others = {}
    for s = 1, game.players do
      if s ~= seat then others[#others + 1] = s end
    end
    plan.others, plan.unseen, plan.shown = others, true, shown
  end
  return plan
end

function METHODS.undo_plan(_, game, seat, n)
  n = n or 1
  if math.type(n) ~= "integer" or n < 1 then
    error(format("bad argument #1 to 'undo_plan' (a count above 0 expected, got %s)", tostring(n)), 3)
  end
  local plan, why = undo_plan(game, seat, n)
  if not plan then return nil, why end
  return { moves = plan.moves, others = plan.others, unseen = plan.unseen, shown = plan.shown,
           revealed = plan.revealed }
end

-- Takes back n of the seat's own moves (default 1), with what the others
-- did after them: each other seat whose move goes too must agree
-- (agree(s) -> true; without agree, none does). While secret orders are
-- open, only steps of the seat's own order. Returns the moves taken back
-- ({seat, text}, oldest first, as the seat saw them), or nil and why not.
function METHODS.undo(_, game, seat, n, agree)
  n = n or 1
  if math.type(n) ~= "integer" or n < 1 then
    error(format("bad argument #1 to 'undo' (a count above 0 expected, got %s)", tostring(n)), 3)
  end
  local plan, why = undo_plan(game, seat, n)
  if not plan then return nil, why end
  if #plan.moves == 0 then return {} end
  if plan.order then
    game:undo(#plan.moves, seat)
    return plan.moves
  end
  if plan.step then
    game:undo(1)
    return plan.moves
  end
  for _, s in ipairs(plan.others) do
    if type(agree) ~= "function" or not agree(s) then
      local theirs = false
      for _, m in ipairs(plan.moves) do if m[1] == s then theirs = true end end
      if not theirs and plan.unseen then
        local what, know = M.shown_words(plan)
        return nil, format("seat %d did not agree: the moves to take back showed %s, and seat %d "
          .. "would know %s once they are taken back", s, what, seat, know)
      end
      return nil, format("seat %d did not agree: a move goes back without the others' consent only when "
        .. "none of theirs goes with it", s)
    end
  end
  game:undo(plan.steps)
  return plan.moves
end

-- Does again up to n of the seat's own moves undo took back (the next
-- ones to redo, while they are the seat's). Returns how many.
function METHODS.redo(_, game, seat, n)
  n = n or 1
  if math.type(n) ~= "integer" or n < 1 then
    error(format("bad argument #1 to 'redo' (a count above 0 expected, got %s)", tostring(n)), 3)
  end
  local done = 0
  while done < n do
    local fut = game:redo_list()
    local f = fut[#fut]
    if not f or f[1] ~= seat then break end
    if game:redo_moves(1) ~= 1 then break end
    done = done + 1
  end
  return done
end

-- A copy of the game as this seat may imagine it (lua/kontor/fork.lua):
-- everything it cannot see dealt again with rng.
local fork_mod                          -- (kontor.fork, loaded at the first sample)
function METHODS.sample(v, game, seat, rng)
  if type(rng) ~= "userdata" then
    error(format("bad argument #1 to 'sample' (an rng expected, got %s)", type(rng)), 3)
  end
  fork_mod = fork_mod or require("kontor.fork")
  local c = BASE[v]
  local ctx, n = game.ctx, #game.rec     -- (g:step_count())
  if not (c and c.ctx == ctx and c.n == n) then
    c = { ctx = ctx, n = n, base = fork_mod.base(game, seat) }
    BASE[v] = c
  end
  return fork_mod.sample(c.base, rng)
end

-- What an option costs and does, when the rule set says
-- (R.describe_option, through kontor.describe; escaped); nil if not.
function METHODS.note(_, game, seat, text)
  if #game:options(seat) == 0 then return nil end
  return require("kontor.describe").option(game, seat, text)
end

-- Why a move of the game is refused now (`buy dock` with no coins), as
-- the rule set explains it to this seat; nil when the text is legal or no
-- move of the game. The words that start a move are R.move_words and the
-- first words of this seat's own options, never another seat's.
function METHODS.refusal(_, game, seat, text)
  if type(text) ~= "string" then
    error(format("bad argument #1 to 'refusal' (a text expected, got %s)", type(text)), 3)
  end
  if game:over() then return nil end
  local word = text:match("^%s*(%S+)")
  if not word then return nil end
  local fold = require("kontor.game.parse").fold    -- in any case, as g:apply takes a move
  word = fold(word)
  local known = false
  local w = rawget(game.R, "move_words")
  if type(w) == "table" then
    for _, x in ipairs(w) do if type(x) == "string" and fold(x) == word then known = true end end
  end
  for _, o in ipairs(game:options(seat) or {}) do
    if fold(o:match("^%S+") or o) == word then known = true end
  end
  if not known then return nil end
  local ok, why = pcall(game.why, game, text, seat, true)
  if not ok then return nil end
  return why
end

-- The cards only this seat sees (its piles of visibility "owner" among
-- the game table's fields, one level deep, as the rule set names cards),
-- or nil when the seat has no hand.
function METHODS.hand(_, game, seat)
  local cards, found = {}, false
  local card_text = rawget(game.R, "card_text")
  -- the text made inside the armed call: a card text's own __tostring
  -- runs under the limits too
  local function text_of(ctx, c)
    if card_text then return tostring(card_text(ctx, c)) end
    return tostring(c)
  end
  local function pile_cards(p)
    local ok, vis = pcall(function() return p:vis() end)
    if not ok or vis ~= "owner" or p:owner() ~= seat then return end
    found = true
    for _, c in ipairs(p:cards()) do
      local tok, name = csb.inspect("R.card_text", game.ctx, text_of, game.ctx, c)
      if not tok and errors.must_rise(name) then error(name, 0) end   -- Ctrl-C, a limit
      cards[#cards + 1] = tok and name or tostring(c)
    end
  end
  for _, v in pairs(game.ctx) do
    if type(v) == "userdata" then pile_cards(v)
    elseif type(v) == "table" and getmetatable(v) == nil then
      for _, x in pairs(v) do if type(x) == "userdata" then pile_cards(x) end end
    end
  end
  return found and cards or nil
end

-- "with hand_limit (size=5); options start_coins=3" (kontor.describe's:
-- the designer's REPL shows the same words, one function for both)
variants_text = require("kontor.describe").variants_text
M.variants_text = variants_text

-- The fields a view has, read fresh at every access.
local FIELDS = {
  seat = function(_, seat) return seat end,
  rules = function(game) return game.R.name end,
  title = function(game) return game.R.title or game.R.name end,
  players = function(game) return game.players end,
  names = function(game) return copy_list(game.names) end,
  -- the name of the seat's decision now, nil when it does not decide
  decision = function(game, seat)
    local t = texts_of(game, seat)
    if not t or #t == 0 then return nil end
    if game.kind == "orders" then return game:decision(seat).steps[seat] end
    return game.dname
  end,
  -- R.decision_words: plain words for decision names, as data
  decision_words = function(game)
    local t, out = rawget(game.R, "decision_words"), {}
    if type(t) ~= "table" then return out end
    for k, w in next, t do if type(k) == "string" and type(w) == "string" then out[k] = w end end
    return out
  end,
  -- "with hand_limit (size=5); options start_coins=3", or nil: the
  -- variants and options the game was made with
  variants_text = function(game) return variants_text(game) end,
  -- the rule set's defaults for its bots (R.bot_options), as data
  bot_options = function(game)
    local o = rawget(game.R, "bot_options")
    return type(o) == "table" and deep_copy(o) or nil
  end,
}

local VIEW_MT = {
  __metatable = false,
  __index = function(v, k)
    local game = GAME[v]
    if game == nil then return nil end
    local f = FIELDS[k]
    if f then return f(game, SEAT[v]) end
    local m = METHODS[k]
    if m == nil then return nil end
    local cache = CACHE[v]
    local bound = cache[k]
    if bound == nil then
      -- callable both as v:name(...) and v.name(...)
      bound = function(a, ...)
        local g, s = GAME[v], SEAT[v]
        if rawequal(a, v) then return m(v, g, s, ...) end
        return m(v, g, s, a, ...)
      end
      cache[k] = bound
    end
    return bound
  end,
  __newindex = function(_, k)
    error(format("a seat view cannot be changed (field '%s')", tostring(k)), 2)
  end,
  __tostring = function(v)
    return format("kontor.SeatView(seat %s)", tostring(SEAT[v]))
  end,
}

local IS_GAME
local function is_game(x)
  IS_GAME = IS_GAME or require("kontor.game").Game
  return type(x) == "table" and getmetatable(x) == IS_GAME
end

-- The view of `game` for `seat` (1..players).
function M.view(game, seat)
  if not is_game(game) then
    error(format("bad argument #1 to 'view' (a game expected, got %s)", type(game)), 2)
  end
  if math.type(seat) ~= "integer" or seat < 1 or seat > game.players then
    error(format("bad argument #2 to 'view' (a seat 1..%d expected, got %s)", game.players, tostring(seat)), 2)
  end
  local v = setmetatable({}, VIEW_MT)
  GAME[v], SEAT[v], CACHE[v] = game, seat, {}
  return v
end

-- Whether x is a seat view (made by seat.view).
function M.is_view(x)
  return type(x) == "table" and GAME[x] ~= nil
end

-- The names of the methods and fields of a seat view (for tests and docs).
function M.members()
  local out = {}
  for k in pairs(METHODS) do out[#out + 1] = k end
  for k in pairs(FIELDS) do out[#out + 1] = k end
  table.sort(out)
  return out
end

---------------------------------------------------------------------------
-- A table: the seats of a hot-seat game (kontor play)
---------------------------------------------------------------------------

-- The seat views of every seat of `game`, `new_bot(kind, seat, salt)`
-- (bots are seeded from the game's seed, which the front end need not
-- know), and the one thing a front end that seats several people at one
-- terminal needs besides: `autosave(path)`
-- writes the whole game when they stop, so that they can go on later
-- (kontor play --load); it returns true and the number of moves, or nil
-- and a message, and shows nothing of the game. `keep(path)` writes a
-- finished game the same way, for the REPL's `replay` (nothing is hidden
-- once a game is over: the seed is shown with the result). The game is
-- an upvalue of these, not a field.
function M.table(game)
  if not is_game(game) then
    error(format("bad argument #1 to 'table' (a game expected, got %s)", type(game)), 2)
  end
  local views = {}
  for s = 1, game.players do views[s] = M.view(game, s) end
  return {
    players = game.players,
    views = views,
    -- a bot of `kind` for seat s, seeded from the game's seed (+ salt) as
    -- every bot is; or nil and a message
    new_bot = function(kind, s, salt)
      local b, err = require("kontor.bots").new(kind, s, game.params.seed + (salt or 0))
      if not b then return nil, err end
      b:tune(game.R)
      return b
    end,
    -- what the engine noticed of the rule script since the last call
    -- (g:warnings(), without the values: the screen is a seat's)
    warnings = function() return game:warnings(1) end,
    autosave = function(path)
      if game:over() or #game:move_list() == 0 then return nil end
      local ok, err = game:save(path)
      if not ok then return nil, err end
      return true, #game:move_list()
    end,
    keep = function(path)
      if not game:over() then return nil end
      local ok, err = game:save(path)
      if not ok then return nil, err end
      return true, #game:move_list()
    end,
  }
end

---------------------------------------------------------------------------
-- The referee: everything, for the REPL and tests
---------------------------------------------------------------------------

local Referee = {}
Referee.__index = Referee

-- The all-seeing view of `game`: what the REPL shows (it is the game's own
-- view, without a seat). Never given to a front end that acts for a seat.
function M.referee(game)
  if not is_game(game) then
    error(format("bad argument #1 to 'referee' (a game expected, got %s)", type(game)), 2)
  end
  return setmetatable({ game = game, players = game.players, rules = game.R.name }, Referee)
end

function Referee:who() return who_of(self.game) end
function Referee:over() return self.game:over() end
function Referee:options(s) return self.game:options(s) end
function Referee:now() return self.game:decision() end
function Referee:apply(action, s) return self.game:apply(action, s) end
function Referee:why(action, s) return self.game:why(action, s) end
function Referee:board() return self.game:show() end
Referee.show = Referee.board
function Referee:view() return self.game:state() end
function Referee:moves() return self.game:moves() end
function Referee:record() return self.game:actions() end
function Referee:log() return self.game:log() end
function Referee:result() return self.game:result() end
function Referee:save(path) return self.game:save(path) end
function Referee:undo(n) return self.game:undo_moves(n) end
-- The seat view of one seat.
function Referee:seat(s) return M.view(self.game, s) end

return M
