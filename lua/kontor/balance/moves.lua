-- kontor.balance.moves: what players do, counted from the decisions
-- themselves, for every rule set, without a line of the rule set's own
-- (docs/balance.md, "What do players do?").
--
-- A move's kind is its decision's name and the option's first words up to
-- the first argument (kind_of): "buy_card: buy contract", "exchange_ship:
-- exchange". The lab wraps a loaded rule set's R.play (instrument): when a
-- game starts, the wrapper wraps that game's g:choose, g:choose_from,
-- g:choose_all and g:begin_turn. Each wrapper notes the decision's name and
-- options (the table the script passed: no text is made) in a queue per
-- seat and tail-calls the engine's method, so an error in the script's
-- arguments still names the script's line. After the game, the step record
-- (game.hseat, game.hidx: the seat and option number of each step) says
-- which option each queued decision took; only then is the chosen option's
-- kind found, once per distinct option text (a cache).
--
-- Reads of the engine (kept few, for the coordinator): game.ctx (the `g`
-- of the game), game.hseat and game.hidx (the step record), and the ctx
-- fields choose, choose_from, choose_all, begin_turn.

local core = require "kontor.core"
local measures = require "kontor.balance.measures"

local option_text = core.options.text

local M = {}

-- Words that join an option's kind to its argument ("load fish on ship 1"
-- -> "load fish"): dropped from the end of a kind.
M.JOINERS = { on = true, to = true, at = true, ["in"] = true, into = true, onto = true, of = true,
              from = true, ["for"] = true, with = true, ["and"] = true }

local function is_number(w) return w:match("^%d[%d,]*$") ~= nil end

-- The kind of an option text: its words up to the first number, less the
-- word just before that number (the thing it counts: "ship 2", "slots
-- 1,4") and any joining word (M.JOINERS) left at the end; the whole text
-- when it has no number. Never empty: an option that starts with a number
-- is of kind "#".
function M.kind_of(text)
  local words = {}
  local number = false
  for w in text:gmatch("%S+") do
    if is_number(w) then number = true; break end
    words[#words + 1] = w
  end
  if number then
    words[#words] = nil                       -- the counted thing
    while #words > 1 and M.JOINERS[words[#words]] do words[#words] = nil end
  end
  if #words == 0 then return "#" end
  return table.concat(words, " ")
end

local KIND = setmetatable({}, { __index = function(t, text)
  local k = M.kind_of(text)
  t[text] = k
  return k
end })

-- The text of option k of a g:choose_from family (the last list varies
-- fastest, as lua/l_options.c expands it).
local function family_text(family, k)
  local n = #family
  local pick, rest = {}, k - 1
  for i = n, 1, -1 do
    local e = family[i]
    if type(e) == "table" then
      local size = #e
      pick[i] = e[rest % size + 1]
      rest = rest // size
    end
  end
  local parts = {}
  for i = 1, n do
    local e = pick[i]
    if e == nil then e = family[i] end
    parts[i] = e
  end
  return option_text(parts)
end

-- How many options a decision had.
local function count_of(opts, family)
  if not family then return #opts end
  local n = 1
  for i = 1, #opts do
    local e = opts[i]
    if type(e) == "table" then n = n * #e end
  end
  return n
end

---------------------------------------------------------------------------
-- The wrappers
---------------------------------------------------------------------------

local REC = setmetatable({}, { __mode = "k" })      -- g -> its game's record
local WRAPPED = setmetatable({}, { __mode = "k" })

-- The queue of decisions of `seat` (names, option tables, family flags).
local function queue(rec, seat)
  local q = rec.q[seat]
  if not q then q = { n = 0 }; rec.q[seat] = q end
  return q
end

local function push(rec, seat, name, opts, family)
  if math.type(seat) ~= "integer" or type(opts) ~= "table" then return end  -- the engine raises
  local q = queue(rec, seat)
  local n = q.n + 1
  q.n = n
  q[3 * n - 2], q[3 * n - 1], q[3 * n] = name, opts, family
end

local function install(g, evaluate)
  local rec = { q = {}, tension = measures.tracker() }
  REC[g] = rec
  local choose, choose_from, choose_all, begin_turn = g.choose, g.choose_from, g.choose_all, g.begin_turn
  g.choose = function(self, seat, name, options)
    push(rec, seat, name, options, false)
    return choose(self, seat, name, options)
  end
  g.choose_from = function(self, seat, name, family)
    push(rec, seat, name, family, true)
    return choose_from(self, seat, name, family)
  end
  g.choose_all = function(self, seats, name, by_seat)
    if type(seats) == "table" and type(by_seat) == "table" then
      for i = 1, #seats do
        local s = seats[i]
        if by_seat[s] ~= nil then push(rec, s, name, by_seat[s], false) end
      end
    end
    return choose_all(self, seats, name, by_seat)
  end
  g.begin_turn = function(self, seat)
    rec.tension:point(evaluate(self))
    return begin_turn(self, seat)
  end
end

-- Wraps R.play (in place, once) so that every game of R keeps a record.
-- The position's worth each turn: R.estimate(g, seat) where the rule set
-- has it, else R.score(g, seat), else R.scores(g).
function M.instrument(R)
  if WRAPPED[R] then return R end
  WRAPPED[R] = true
  local evaluate
  local per_seat = type(R.estimate) == "function" and R.estimate
    or type(R.score) == "function" and R.score or nil
  if per_seat then
    evaluate = function(g)
      local v = {}
      for s = 1, g.players do v[s] = per_seat(g, s) end
      return v
    end
  else
    evaluate = function(g) return R.scores(g) end
  end
  local play = R.play
  R.play = function(g, ...)
    install(g, evaluate)
    return play(g, ...)
  end
  return R
end

---------------------------------------------------------------------------
-- After a game
---------------------------------------------------------------------------

-- The moves of a finished game: { counts = { ["decision: kind"] = { [seat] = n } },
-- decisions = n, options = total options over its decisions, single = decisions
-- with one option }, and its tension tracker. nil when the game kept no
-- record (a rule set not instrumented).
function M.of_game(game)
  local rec = REC[game.ctx]
  if not rec then return nil end
  local hseat, hidx = game.hseat, game.hidx
  local counts, pos = {}, {}
  local decisions, options, single = 0, 0, 0
  for i = 1, #hidx do
    local seat = hseat[i]
    local q = rec.q[seat]
    local j = (pos[seat] or 0) + 1
    if q and j <= q.n then
      pos[seat] = j
      local name, opts, family = q[3 * j - 2], q[3 * j - 1], q[3 * j]
      local k = hidx[i]
      local text
      if family then text = family_text(opts, k) else
        text = opts[k]
        if type(text) ~= "string" then text = option_text(text) end
      end
      local key = tostring(name) .. ": " .. KIND[text]
      local c = counts[key]
      if not c then c = {}; counts[key] = c end
      c[seat] = (c[seat] or 0) + 1
      local n = count_of(opts, family)
      decisions, options = decisions + 1, options + n
      if n == 1 then single = single + 1 end
    end
  end
  return { counts = counts, decisions = decisions, options = options, single = single }, rec.tension
end

return M
