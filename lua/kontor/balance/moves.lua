-- kontor.balance.moves: what players do, counted from the decisions
-- themselves, for every rule set, without a line of the rule set's own
-- (docs/balance.md, "What do players do?").
--
-- A move's kind is its decision's name and the option's first words up to
-- the first argument (kind_of): "buy_card: buy contract", "exchange_ship:
-- exchange". Each step is counted as it is taken, in a kontor.Tally (C:
-- lua/engine/playout.c): the simulation's bot counts its own steps
-- (core.random_bot's fourth argument), and where the driver takes the
-- steps (bots, coverage) the lab counts each before it is taken (M.note,
-- Game:play_random's tally). The kind of an option is a lookup in a trie
-- of the decisions' option words that this file keeps, which the C reads:
-- no text is made, and the words of an option are looked at once per run.
-- A tally counts the options the seat had (after R.constraints), so the
-- kind counted is always that of the option taken.
--
-- The lab also wraps a loaded rule set's R.play (instrument): when a game
-- it plays starts, g:begin_turn notes the worth of each seat every turn
-- (kontor.balance.measures).
--
-- Reads of the engine (kept few, for the coordinator): game.ctx (the `g`
-- of the game), the ctx field begin_turn, and driver.options_of/dname_of.

local core = require "kontor.core"
local measures = require "kontor.balance.measures"
local coverage = require "kontor.balance.coverage"
local driver = require "kontor.game.driver"

local options_of, dname_of = driver.options_of, driver.dname_of


local M = {}

-- Words that join an option's kind to its argument ("load fish on ship 1"
-- -> "load fish"): dropped from the end of a kind.
M.JOINERS = { on = true, to = true, at = true, ["in"] = true, into = true, onto = true, of = true,
              from = true, ["for"] = true, with = true, ["and"] = true }

local function is_number(w) return w:match("^%d[%d,]*$") ~= nil end

-- The kind of an option text: its words up to the first number, less the
-- word just before that number (the thing it counts: "ship 2", "slots
-- 1,4") and any joining word (M.JOINERS) left at the end; the whole text
-- when it has no number. A lone word before the number is the move itself
-- ("bid 3" is of kind "bid", Old World's O12). Never empty: an option that
-- starts with a number is of kind "#".
function M.kind_of(text)
  local words = {}
  local number = false
  for w in text:gmatch("%S+") do
    if is_number(w) then number = true; break end
    words[#words + 1] = w
  end
  if number and #words > 1 then
    words[#words] = nil                       -- the counted thing ("bid 3": the verb, kept)
    while #words > 1 and M.JOINERS[words[#words]] do words[#words] = nil end
  end
  if #words == 0 then return "#" end
  return table.concat(words, " ")
end

-- The kinds of moves: ids for the C tally. KEYS["decision: kind"] = id,
-- LIST[id] = the key. Ids are those of this process only (they never leave it).
local KEYS, LIST = {}, {}
local function id_of(key)
  local id = KEYS[key]
  if not id then
    id = #LIST + 1
    LIST[id] = key
    KEYS[key] = id
  end
  return id
end
M.key_by_id = LIST

-- Kinds without making texts: a trie per decision name over the words of
-- an option, in plain tables the C reads (lua/engine/playout.c). A node:
-- node[entry] = the node after that entry (a word, or words, of an
-- option or of a family's list) or, when the entry holds a number, the id
-- of the kind that ends there; node[1] = the id when a number comes next,
-- node[2] = the id when the option ends at the node; node[4] its words.
-- A decision's root also has [3] = { [option text] = id } and [5] = its name.
local ROOTS = {}

local function node_kind(node, root, number)
  local slot = number and 1 or 2
  local id = node[slot]
  if not id then
    id = id_of(root[5] .. ": " .. M.kind_of(table.concat(node[4], " ") .. (number and " 1" or "")))
    node[slot] = id
  end
  return id
end

local function child(node, w)
  local c = node[w]
  if type(c) ~= "table" then
    local words = { table.unpack(node[4]) }
    words[#words + 1] = w
    c = { [4] = words }
    node[w] = c
  end
  return c
end

-- Steps from node over entry e (a word or words, or a whole number), the
-- slow way, once per node and entry: returns the node reached (kept in
-- node[e]), or nil and the kind's id when a number ends the kind there
-- (kept in node[e], or node[1] for a number entry).
local function step(node, root, e)
  if type(e) ~= "string" then return nil, node_kind(node, root, true) end
  local at = node
  for w in e:gmatch("%S+") do
    if is_number(w) then
      local id = node_kind(at, root, true)
      node[e] = id
      return nil, id
    end
    at = child(at, w)
  end
  node[e] = at
  return at
end

local function root_of(name)
  local r = ROOTS[name]
  if not r then
    r = { [3] = {}, [4] = {}, [5] = tostring(name) }
    ROOTS[name] = r
  end
  return r
end

-- The kind id of option k of a decision's options (a list) or family, and
-- how many options it had: the trie's lookups, and its slow steps where it
-- does not know the words yet (what the C does, lua/engine/playout.c).
local function id_of_option(name, opts, family, k)
  local root = root_of(name)
  local node = root
  local count, n
  local entries
  if not family then
    count = #opts
    local o = opts[k]
    if type(o) == "string" then
      local texts = root[3]
      local id = texts[o]
      if not id then
        local at, stop = step(root, root, o)
        id = stop or node_kind(at, root, false)
        texts[o] = id
      end
      return id, count
    end
    entries, n = o, #o
  else
    -- the entry each list gives option k (the last list varies fastest)
    n = #opts
    entries = {}
    local rest = k - 1
    count = 1
    for i = n, 1, -1 do
      local e = opts[i]
      if type(e) == "table" then
        local size = #e
        entries[i] = e[rest % size + 1]
        rest = rest // size
        count = count * size
      else
        entries[i] = e
      end
    end
  end
  for i = 1, n do
    local e = entries[i]
    local nxt = type(e) == "string" and node[e] or (type(e) ~= "string" and node[1]) or nil
    if type(nxt) == "table" then
      node = nxt
    elseif nxt then
      return nxt, count
    else
      local id
      nxt, id = step(node, root, e)
      if id then return id, count end
      node = nxt
    end
  end
  return node_kind(node, root, false), count
end

-- The key ("decision: kind") of option k of a decision's options or
-- family, and how many options it had.
function M.key_of(name, opts, family, k)
  local id, count = id_of_option(name, opts, family, k)
  return LIST[id], count
end

-- What the C calls when its trie does not know an option yet.
local function miss(name, opts, family, k)
  return (id_of_option(name, opts, family, k))
end

---------------------------------------------------------------------------
-- Tallies and the game's record
---------------------------------------------------------------------------

local REC = setmetatable({}, { __mode = "k" })      -- g -> its game's record
local WRAPPED = setmetatable({}, { __mode = "k" })
local ARMED = setmetatable({}, { __mode = "k" })
local TALLY = setmetatable({}, { __mode = "k" })    -- R -> its tally (counting moves)

-- A new tally of the moves of a game of `players` seats (kontor.Tally).
function M.new_tally(players)
  return core.tally(players, ROOTS, miss)
end

-- The tally the next game of R counts its moves in, or nil when R's
-- games count none (instrumented without moves).
function M.tally_of(R)
  return TALLY[R]
end

-- The next game of R to start keeps a record; the games a bot starts to
-- search (kontor.fork's copies, started during the game) do not. The lab
-- arms R just before it starts each game; its tally starts from 0.
function M.arm(R)
  ARMED[R] = true
  local t = TALLY[R]
  if t then t:reset() end
end

-- Counts the step `seat` is about to take, option k, in a game the
-- driver plays (a bot's): from the game's pending decision.
function M.note(tally, game, seat, k)
  tally:add(seat, dname_of(game, seat), (options_of(game, seat)), k)
end

-- Wraps g:begin_turn of game `g` (its context) to note the worth of each
-- seat. The wrapper ends in a tail call, so an error the engine raises at
-- the script's line still names that line.
local function install(g, evaluate, tally)
  local point, finish = measures.tracker()
  REC[g] = { finish = finish, tally = tally }
  local begin_turn = g.begin_turn
  local rec = REC[g]
  g.begin_turn = function(self, seat)
    if not rec.first then rec.first = seat end   -- who took the first turn
    point(evaluate(self))
    return begin_turn(self, seat)
  end
end

-- The seat that took game's first turn (g:begin_turn), or nil: the first
-- player where a rule set draws it (Old World's token, O9).
function M.first_turn(game)
  local rec = REC[game.ctx]
  return rec and rec.first
end

-- Wraps R.play (in place, once) so that a game of R keeps a record when
-- R is armed (M.arm) as it starts.
-- The position's worth each turn: R.estimate(g, seat) where the rule set
-- has it, else R.scores(g) (one call a turn: R.score, a bot's heuristic
-- called once a seat, cost a Sea Merchants game 25% more).
-- With `with_moves`, R's games count their moves too (M.tally_of(R), for
-- `players` seats).
function M.instrument(R, with_moves, players)
  if WRAPPED[R] then
    if WRAPPED[R] ~= (with_moves and "moves" or "turns") then
      error("kontor.balance.moves: a rule set is instrumented once, with or without moves", 2)
    end
    return R
  end
  WRAPPED[R] = with_moves and "moves" or "turns"
  if with_moves then TALLY[R] = M.new_tally(players or R.players.max) end
  local evaluate
  local per_seat = type(R.estimate) == "function" and R.estimate or nil
  -- (through sandbox.inspect, g false: the lab's games are quiet, so the
  -- piles, counters, RNGs and logs are watched, g's tables not walked; an
  -- estimate that changed the game would make the lab's game another
  -- than the one its seed and moves replay)
  local inspect = core.sandbox.inspect
  local name, f = "R.scores", R.scores
  if per_seat then
    name, f = "R.estimate", function(g)
      local v = {}
      for s = 1, g.players do v[s] = per_seat(g, s) end
      return v
    end
  end
  evaluate = function(g)   -- one call a turn, every seat's
    local ok, v = inspect(name, false, f, g)
    if not ok then error(v, 0) end
    return v
  end
  local play = R.play
  R.play = function(g, ...)
    if ARMED[R] then
      ARMED[R] = nil
      install(g, evaluate, TALLY[R])
    end
    return play(g, ...)
  end
  coverage.WRAPS[R.play] = play      -- coverage reads the script's own play
  return R
end

---------------------------------------------------------------------------
-- After a game
---------------------------------------------------------------------------

-- The moves of a finished game: { cells = { id, seat, n, ... } (the
-- kinds by id: M.key_by_id), decisions = n, options = total options over
-- its decisions, single = decisions with one option, values = an empty
-- table with room for M.values' keys and `more` others (a table grown
-- key by key rehashes itself as it goes) }, and its tracker's
-- finish(scores, winners) (kontor.balance.measures). nil when the game
-- kept no record (a rule set not instrumented). The game's tally starts
-- again from 0.
function M.of_game(game, more)
  local rec = REC[game.ctx]
  if not rec then return nil end
  local tally = rec.tally
  if not tally then return nil, rec.finish end
  local decisions, options, single, cells, values = tally:take(more)
  return { cells = cells, decisions = decisions, options = options, single = single, values = values }, rec.finish
end

-- The counts of M.of_game's moves by kind and seat:
-- { ["decision: kind"] = { [seat] = n } }.
function M.counts(mv)
  local counts, cells = {}, mv.cells
  for i = 1, #cells, 3 do
    local key = LIST[cells[i]]
    local c = counts[key]
    if not c then c = {}; counts[key] = c end
    c[cells[i + 1]] = cells[i + 2]
  end
  return counts
end

-- The measure keys of a kind of move by its id: per game ("moves.K"),
-- share of games ("share.K"), per seat ("moves.K #S"), made once.
local VKEYS = setmetatable({}, { __index = function(t, id)
  local name = LIST[id]
  local k = setmetatable({ total = "moves." .. name, share = "share." .. name }, { __index = function(kt, s)
    local key = "moves." .. name .. " #" .. s
    kt[s] = key
    return key
  end })
  t[id] = k
  return k
end })

-- Adds the moves of M.of_game to a game's measure values v (the balance
-- lab's): each kind's count per seat and in all, and 1 for the share of
-- games it happened in.
function M.values(mv, v)
  local cells = mv.cells
  for i = 1, #cells, 3 do
    local keys, n = VKEYS[cells[i]], cells[i + 2]
    v[keys[cells[i + 1]]] = n
    local total = keys.total
    local t = v[total]
    if t then v[total] = t + n else v[total] = n; v[keys.share] = 1 end
  end
end

return M
