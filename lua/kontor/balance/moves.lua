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
-- (game.rec, kontor.Steps: the seat and option number of each step) says
-- which option each queued decision took; only then is the chosen option's
-- kind found, once per distinct option text (a cache).
--
-- Reads of the engine (kept few, for the coordinator): game.ctx (the `g`
-- of the game), game.rec (the step record), and the ctx
-- fields choose, choose_from, choose_all, begin_turn.

local measures = require "kontor.balance.measures"
local coverage = require "kontor.balance.coverage"


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

-- Kinds without making texts: a trie per decision name over the words of
-- the chosen option up to its first number. A node keeps its words and,
-- once asked, its key ("fin": the option had no number; "num": it had).
local ROOT = {}

local function node_kind(node, number)
  local slot = number and "num" or "fin"
  local k = node[slot]
  if not k then
    k = node.name .. ": " .. M.kind_of(table.concat(node.words, " ") .. (number and " 1" or ""))
    node[slot] = k
  end
  return k
end

local function child(node, w)
  local c = node.next[w]
  if not c then
    local words = { table.unpack(node.words) }
    words[#words + 1] = w
    c = { next = {}, via = {}, stop = {}, words = words, name = node.name }
    node.next[w] = c
  end
  return c
end

-- The words of a text or word entry, split once.
local SPLIT = setmetatable({}, { __index = function(t, s)
  local ws = {}
  for w in s:gmatch("%S+") do ws[#ws + 1] = w end
  t[s] = ws
  return ws
end })

local NUMERIC = setmetatable({}, { __index = function(t, w)
  local v = is_number(w)
  t[w] = v
  return v
end })

-- Steps from node over entry e (a word or words, or a number), the slow
-- way, once per node and entry: returns the node reached (kept in
-- node.via[e]), or nil and the key when a number ends the kind there (kept
-- in node.stop[e]).
local function step(node, e)
  if type(e) ~= "string" then
    local key = node_kind(node, true)
    node.stop[e] = key
    return nil, key
  end
  local at = node
  for _, w in ipairs(SPLIT[e]) do
    if NUMERIC[w] then
      local key = node_kind(at, true)
      node.stop[e] = key
      return nil, key
    end
    at = child(at, w)
  end
  node.via[e] = at
  return at
end

local function root_of(name)
  local r = ROOT[name]
  if not r then
    r = { next = {}, via = {}, stop = {}, words = {}, name = tostring(name), text = {} }
    ROOT[name] = r
  end
  return r
end

local picks = {}   -- scratch: the entry each list of a family gives

-- The key ("decision: kind") of option k of a decision's options or
-- family, and how many options it had. Per entry: a table lookup or two
-- once the trie knows it.
local function key_of(name, opts, family, k)
  local node = root_of(name)
  local count
  local n
  if not family then
    count = #opts
    local o = opts[k]
    if type(o) == "string" then
      local key = node.text[o]
      if not key then
        local at, stop = step(node, o)
        key = stop or node_kind(at, false)
        node.text[o] = key
      end
      return key, count
    end
    opts, n = o, #o
  else
    -- the entry each list gives option k (the last list varies fastest)
    n = #opts
    local rest = k - 1
    count = 1
    for i = n, 1, -1 do
      local e = opts[i]
      if type(e) == "table" then
        local size = #e
        picks[i] = e[rest % size + 1]
        rest = rest // size
        count = count * size
      else
        picks[i] = e
      end
    end
    opts = picks
  end
  for i = 1, n do
    local e = opts[i]
    local nxt = node.via[e]
    if nxt then
      node = nxt
    else
      local key = node.stop[e]
      if key then return key, count end
      nxt, key = step(node, e)
      if key then return key, count end
      node = nxt
    end
  end
  return node_kind(node, false), count
end
M.key_of = key_of

---------------------------------------------------------------------------
-- The wrappers
---------------------------------------------------------------------------

local REC = setmetatable({}, { __mode = "k" })      -- g -> its game's record
local WRAPPED = setmetatable({}, { __mode = "k" })
local ARMED = setmetatable({}, { __mode = "k" })

-- The next game of R to start keeps a record; the games a bot starts to
-- search (kontor.fork's copies, started during the game) do not. The lab
-- arms R just before it starts each game.
function M.arm(R) ARMED[R] = true end

-- Wraps the methods of game `g` (its context): g:begin_turn notes the
-- worth of each seat; with moves, g:choose, g:choose_from and g:choose_all
-- note each decision in its seat's queue, a flat list of (name, options,
-- family) triples, q.n entries long. Each wrapper ends in a tail call, so
-- an error the engine raises at the script's line still names that line.
local function install(g, evaluate, with_moves)
  local point, finish = measures.tracker()
  local rec = { finish = finish }
  REC[g] = rec
  local begin_turn = g.begin_turn
  g.begin_turn = function(self, seat)
    point(evaluate(self))
    return begin_turn(self, seat)
  end
  if not with_moves then return end
  local qs = {}
  for s = 1, g.players do qs[s] = { n = 0 } end
  rec.q = qs
  local choose, choose_from, choose_all = g.choose, g.choose_from, g.choose_all
  g.choose = function(self, seat, name, options)
    local q = qs[seat]
    if q then local n = q.n + 3; q.n = n; q[n - 2], q[n - 1], q[n] = name, options, false end
    return choose(self, seat, name, options)
  end
  g.choose_from = function(self, seat, name, family)
    local q = qs[seat]
    if q then local n = q.n + 3; q.n = n; q[n - 2], q[n - 1], q[n] = name, family, true end
    return choose_from(self, seat, name, family)
  end
  g.choose_all = function(self, seats, name, by_seat)
    if type(seats) == "table" and type(by_seat) == "table" then   -- raw: the engine checks them
      for i = 1, rawlen(seats) do
        local s = rawget(seats, i)
        local q = qs[s]
        local o = q and rawget(by_seat, s)
        if o ~= nil then local n = q.n + 3; q.n = n; q[n - 2], q[n - 1], q[n] = name, o, false end
      end
    end
    return choose_all(self, seats, name, by_seat)
  end
end

-- Wraps R.play (in place, once) so that a game of R keeps a record when
-- R is armed (M.arm) as it starts.
-- The position's worth each turn: R.estimate(g, seat) where the rule set
-- has it, else R.scores(g) (one call a turn: R.score, a bot's heuristic
-- called once a seat, cost a Sea Merchants game 25% more).
-- With `with_moves`, also g:choose, g:choose_from and g:choose_all (the
-- counts of moves, options and forced decisions).
function M.instrument(R, with_moves)
  if WRAPPED[R] then
    if WRAPPED[R] ~= (with_moves and "moves" or "turns") then
      error("kontor.balance.moves: a rule set is instrumented once, with or without moves", 2)
    end
    return R
  end
  WRAPPED[R] = with_moves and "moves" or "turns"
  local evaluate
  local per_seat = type(R.estimate) == "function" and R.estimate or nil
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
    if ARMED[R] then
      ARMED[R] = nil
      install(g, evaluate, with_moves)
    end
    return play(g, ...)
  end
  coverage.WRAPS[R.play] = play      -- coverage reads the script's own play
  return R
end

---------------------------------------------------------------------------
-- After a game
---------------------------------------------------------------------------

-- The moves of a finished game: { counts = { ["decision: kind"] = { [seat] = n } },
-- decisions = n, options = total options over its decisions, single = decisions
-- with one option }, and its tracker's finish(scores, winners)
-- (kontor.balance.measures). nil when the game kept no
-- record (a rule set not instrumented).
function M.of_game(game)
  local rec = REC[game.ctx]
  if not rec then return nil end
  if not rec.q then return nil, rec.finish end
  local steps = game.rec                  -- the step record (kontor.Steps)
  local qs = rec.q
  local counts, pos = {}, {}
  for s = 1, #qs do pos[s] = 0 end
  local decisions, options, single = 0, 0, 0
  for i = 1, #steps do
    local seat = steps:seat(i)
    local q = qs[seat]
    local j = q and pos[seat] + 3
    if q and j <= q.n then
      pos[seat] = j
      local name, opts, family = q[j - 2], q[j - 1], q[j]
      local key, n = key_of(name, opts, family, steps:option(i))
      local c = counts[key]
      if not c then c = {}; counts[key] = c end
      c[seat] = (c[seat] or 0) + 1
      decisions, options = decisions + 1, options + n
      if n == 1 then single = single + 1 end
    end
  end
  return { counts = counts, decisions = decisions, options = options, single = single }, rec.finish
end

return M
