-- describe (lua/kontor/describe.lua): what an option costs and does, and
-- why a move of the game is refused now. Every front end (the REPL,
-- `kontor play`, `hint`, `kontor serve`) calls these; none re-codes them.
--
-- A rule set declares R.describe_option(g, seat, decision, text) -> a short
-- text ("12 coins: an extra exchange after each phase I action (S5)"), or
-- nil for an option that needs no words. R.move_words lists the first
-- words of every move the game has ("buy", "draw", "acquire"): a line
-- starting with one of them is a move, legal or not, and gets the rule
-- set's explanation (g:why) rather than "not a command".

local core = require "kontor.core"
local ktext = require "kontor.text"
local errors = require "kontor.errors"

local M = {}

-- "a=1, b=x": a table's keys and values, keys sorted.
local function kv_text(t)
  local keys = {}
  for k in pairs(t or {}) do keys[#keys + 1] = tostring(k) end
  table.sort(keys)
  for i, k in ipairs(keys) do keys[i] = k .. "=" .. tostring(t[k]) end
  return table.concat(keys, ", ")
end

-- The variants and the options a game was given, "with hand_limit
-- (size=5); options start_coins=3", or nil for the rules as they come:
-- what seat views show (v.variants_text) and the REPL's banner says.
function M.variants_text(game)
  local parts = {}
  for _, v in ipairs(game.R.applied or {}) do
    local o = v.depth == 0 and kv_text(v.recorded)
    -- (a variant that names the game, as port_royal does, is in the
    -- title already: "Port Royal", not "Port Royal with port_royal")
    if o and not (v.titled and o == "") then
      parts[#parts + 1] = tostring(v.name) .. (o ~= "" and (" (" .. o .. ")") or "")
    end
  end
  local s = #parts > 0 and ("with " .. table.concat(parts, " + ")) or nil
  local o = kv_text(game.params.given_options)
  if o ~= "" then s = (s and (s .. "; ") or "") .. "options " .. o end
  return s
end

-- The name of the decision `seat` is at (a secret order's current step
-- for that seat), or nil.
function M.decision_name(g, seat)
  local d = g:decision()
  if d.kind == "over" then return nil end
  if d.kind == "orders" then return d.steps and d.steps[seat] or d.name end
  return d.name
end

-- The game as `seat` may imagine it, which R.describe_option reads in
-- place of the real one (docs/security.md, "Seat views"): a bot's
-- sample (kontor.fork), everything the seat cannot see dealt again from
-- a fixed RNG and the sorted list of unseen cards, the other seats'
-- steps of an open order or choice left out. A description is then made
-- of what the seat may know, whatever the rule script reads: another
-- seat's draft or what its entry wrote under g, the deck, a hand. One
-- copy a seat while the game stays at the same step (a listing describes
-- every option); the rule set, the context and the step record key it,
-- as an undo or a reload makes new ones. When no copy can be made (a
-- hidden card kept where the engine cannot deal it again), no
-- description is asked for: { failed = true }, else { ctx = the copy's
-- g }. (The copy's message is not shown: it may name that card.)
local SEEN = setmetatable({}, { __mode = "k" })
local SAMPLE_SEED = 1

local function as_seen_by(g, seat)
  local c = SEEN[g]
  local ctx, rec, R = g.ctx, g.rec, g.R
  local n = #rec
  -- (and the last step's seat and option: a record cut back and grown
  -- again to the same length holds another step there)
  local ls, lo = n > 0 and rec:seat(n) or nil, n > 0 and rec:option(n) or nil
  if not (c and c.ctx == ctx and c.rec == rec and c.R == R and c.n == n and c.ls == ls and c.lo == lo) then
    c = { ctx = ctx, rec = rec, R = R, n = n, ls = ls, lo = lo, by_seat = {} }
    SEEN[g] = c
  end
  local copy = c.by_seat[seat]
  if copy == nil then
    local fork = require "kontor.fork"
    local ok, made = pcall(function() return fork.sample(fork.base(g, seat), core.rng(SAMPLE_SEED)) end)
    -- (Ctrl-C while the copy is made stops the command, as it would a bot)
    if not ok and errors.kind(made) == "interrupt" then error(made, 0) end
    copy = ok and { ctx = made.ctx, game = made } or { failed = true }
    c.by_seat[seat] = copy
  end
  return copy
end

-- The game as `seat` may imagine it (a copy for search, as_seen_by), for
-- what the rule script says to that seat; nil when no copy can be made.
-- Chance's seat (0) and a copy for search are read as they are.
function M.seen(g, seat)
  if rawget(g, "copy") or not (math.type(seat) == "integer" and seat >= 1 and seat <= g.players) then
    return g
  end
  local seen = as_seen_by(g, seat)
  return seen.game
end

-- The rule set's description of option `text` of `seat` at `decision`
-- (default: the seat's decision now); nil when it gives none. A failing
-- R.describe_option never stops a game: its description says where it
-- failed ("R.describe_option failed: ./sell.lua:12: ..."), as a failing
-- R.explain does in why, so the designer sees it rather than nothing.
-- It reads the game as the seat may imagine it (as_seen_by), never the
-- real one.
function M.option(g, seat, text, decision)
  local f = rawget(g.R, "describe_option")
  if type(f) ~= "function" then return nil end
  decision = decision or M.decision_name(g, seat)
  -- chance's options (a game with manual_chance: the referee enters the
  -- luck, and sees the game) are described from the game itself
  local seen = { ctx = g.ctx }
  if math.type(seat) == "integer" and seat >= 1 and seat <= g.players then seen = as_seen_by(g, seat) end
  if seen.failed then
    return ktext.escape(("R.describe_option not asked: the game cannot be copied as seat %s may see it "
      .. "(a bot at that seat fails too, saying why)"):format(tostring(seat)))
  end
  local ctx = seen.ctx
  local ok, s = core.sandbox.inspect("R.describe_option", ctx, f, ctx, seat, decision, text)
  if not ok then return ktext.escape("R.describe_option failed: " .. ktext.error_place(s)) end
  if type(s) ~= "string" or s == "" then return nil end
  return ktext.escape(s)
end

-- The descriptions of every option of `seat` now, in the order of
-- g:options(seat): a list with false where there is none.
function M.options(g, seat)
  local out, opts = {}, g:options(seat) or {}
  local decision = M.decision_name(g, seat)
  for i, o in ipairs(opts) do out[i] = M.option(g, seat, o, decision) or false end
  return out
end

-- Whether the rule set declares descriptions.
function M.declared(R)
  return type(rawget(R, "describe_option")) == "function"
end

-- The words that start a move of the game: R.move_words, and the first
-- word of every option open now.
function M.move_words(g)
  local set = {}
  local w = rawget(g.R, "move_words")
  if type(w) == "table" then
    for _, x in ipairs(w) do if type(x) == "string" then set[x] = true end end
  end
  local d = g:decision()
  if d.kind ~= "over" then
    for _, s in ipairs(d.seats or {}) do
      for _, o in ipairs(g:options(s) or {}) do set[o:match("^%S+") or o] = true end
    end
  end
  return set
end

-- Whether `text` (its first word, after an optional "seat:") starts a move
-- of the game, in any case (as g:apply takes a move: kontor.game.parse).
function M.is_move(g, text)
  local body = text:match("^%s*%d+%s*:%s*(.*)$") or text
  local word = body:match("^%s*(%S+)")
  if word == nil then return false end
  local words = M.move_words(g)
  if words[word] == true then return true end
  local fold = require("kontor.game.parse").fold
  local f = fold(word)
  for w in pairs(words) do if fold(w) == f then return true end end
  return false
end

-- Why `text` is refused now, when it is a move of the game: the rule
-- set's explanation (g:why). nil when the text is legal or no move of the
-- game (a typo, a command, Lua).
function M.refusal(g, text, seat)
  if g:over() then return nil end
  if not M.is_move(g, text) then return nil end
  local ok, why = pcall(g.why, g, text, seat)
  if not ok then return nil end
  return why
end

-- Why the winners won, once the game is over: R.why_won(g), a sentence
-- for the end screen ("Anna has the most coins: 23 (S11); next Bert with
-- 4"), or nil when the rule set gives none.
function M.why_won(g)
  if not g:over() then return nil end
  local f = rawget(g.R, "why_won")
  if type(f) ~= "function" then return nil end
  local ok, s = core.sandbox.inspect("R.why_won", g.ctx, f, g.ctx)
  if not ok or type(s) ~= "string" or s == "" then return nil end
  return ktext.escape(s)
end

return M
