-- kontor.balance.worth: what a kind of move is worth (`kontor worth`,
-- docs/balance.md "What is a move worth?"), after Jaffe et al.'s
-- restricted play (AIIDE 2012, docs/bots.md "Restricted play").
--
-- For each kind of move ("decision: kind", as kontor.balance.moves counts
-- them), game i of the run puts on seat ((i - 1) % players) + 1 the bot
-- restricted with avoid=<the kind's restriction> and on the other seats
-- the same bot unrestricted; every kind meets the same deals (game i starts
-- from balance.game_seed(seed, i)). The restricted seat rotates, so the
-- seat advantage cancels and an unrestricted seat's fair share is
-- 1/players. Each deal is also played once with every seat unrestricted
-- (the same bots, the same seeds): a kind's difference is, game by game,
-- the restricted seat's win less that same seat's win on the same deal
-- unrestricted. A restriction that never takes an option away plays the
-- very same game, so its difference is 0 in every game, where a win rate
-- against the fair share would show the deals' own noise (100 deals: a
-- seat's share of the wins is 0.25 +- 0.09); a difference below 0 says
-- the move helps win, 0 that no one needs it.
--
-- A run keeps only whole-number sums per kind (games, wins in 1/W of a
-- game, their squares, the differences from the unrestricted deal and
-- their squares, decisions and games where the restriction took an option
-- away, and moves the restricted seat made that it should have avoided),
-- and the unrestricted deals' wins, so parts played anywhere (--jobs) add
-- up to the same numbers.

local gamemod = require "kontor.game"
local bots = require "kontor.bots"
local seatmod = require "kontor.seat"
local balance = require "kontor.balance"
local moves = require "kontor.balance.moves"
local stats = require "kontor.balance.stats"
local text = require "kontor.text"
local errors = require "kontor.errors"

local M = {}

-- The kind of option `opt` (its text) of decision `name`: the lab's
-- "decision: kind" (kontor.balance.moves.kind_of).
function M.kind_of(name, opt)
  return tostring(name) .. ": " .. moves.kind_of(opt)
end

-- The restriction (an avoid= text, [DECISION:]TEXT) that matches the
-- options of `kind`: "buy_card: buy contract" -> "buy_card:buy contract".
-- An option's kind is its words up to the first number less the counted
-- word and joiners (moves.kind_of), so every option of the kind begins
-- with the kind's words followed by a space, or is those words: the
-- restriction matches them all (bots' matching: the text or its beginning
-- up to a space or a comma). It may match more: options of a longer kind
-- of the same decision ("buy" matches "buy contract"); M.overlaps names
-- them. Options that begin with a number (kind "#") cannot be named: nil
-- and why.
function M.restriction(kind)
  local name, words = tostring(kind):match("^([%w_]+): (.+)$")
  if not name then return nil, string.format("'%s' is not a kind of move (DECISION: WORDS)", tostring(kind)) end
  if words == "#" then return nil, "its options begin with a number, which no restriction names" end
  return name .. ":" .. words
end

-- The other kinds of `kinds` whose options kind's restriction matches too
-- (a longer kind of the same decision), as a list.
function M.overlaps(kind, kinds)
  local spec = M.restriction(kind)
  local out = {}
  if not spec then return out end
  local name = kind:match("^([%w_]+): ")
  for _, other in ipairs(kinds) do
    local oname, owords = other:match("^([%w_]+): (.+)$")
    if other ~= kind and oname == name and bots.matches(spec, name, owords) then out[#out + 1] = other end
  end
  table.sort(out)
  return out
end

-- Plays one game of setup L (kontor.balance.load) from `gseed` with the
-- bots `specs` (seat -> bot text); on_decision(seat, name, opts, k, bot)
-- is called before each step (k: the option the seat's bot chose).
-- Returns the game.
function M.walk(L, gseed, specs, on_decision)
  local params = { rules = L.R.name, players = L.players, names = L.names, seed = gseed, options = L.options }
  local game = gamemod.new(L.R, params, true)
  local players = {}
  for s = 1, L.players do
    local bot, err = bots.new(specs[s], s, gseed)
    if not bot then error(err, 0) end
    players[s] = bot
  end
  for _ = 1, 100000 do
    local kind = game.kind
    if kind == "over" then return game end
    local seat
    if kind == "all" then
      for _, s in ipairs(game.seats) do
        if not game.chosen[s] then seat = s; break end
      end
    elseif kind == "orders" then
      for _, s in ipairs(game.seats) do
        if not game.entries[s].done then seat = s; break end
      end
    else
      seat = game.seat
    end
    local view = seatmod.view(game, seat)
    local k = players[seat]:choose(view)
    if on_decision then on_decision(seat, view.decision, view.options(), k, players[seat]) end
    game:step(seat, k)
  end
  error("the game did not end within 100000 steps", 0)
end

-- M.walk, and a game that fails says which one, from which seed, with
-- which bots ("game 3 (seed S; bots: random:avoid=phase1:buy, random): why").
function M.walk_game(what, L, gseed, specs, on_decision)
  local ok, game = pcall(M.walk, L, gseed, specs, on_decision)
  if ok then return game end
  if errors.kind(game) == "interrupt" then error(game, 0) end   -- Ctrl-C: as it is
  local list = {}
  for s = 1, L.players do list[s] = specs[s] end
  errors.raise(errors.of_script(game),
    string.format("%s (seed %d; bots: %s): %s", what, gseed, table.concat(list, ", "), tostring(game)),
    { limit = errors.is(game) and rawget(game, "limit") or nil }, 0)
end

-- `bot` with avoid=`spec` added.
function M.restricted(bot, spec)
  return bot .. (bot:find(":", 1, true) and "," or ":") .. "avoid=" .. spec
end

-- The kinds of the moves `bot` makes in games lo..hi of a run with
-- `seed` (every seat unrestricted), sorted.
function M.discover(L, bot, seed, lo, hi)
  local specs, seen, out = {}, {}, {}
  for s = 1, L.players do specs[s] = bot end
  for i = lo, hi do
    M.walk_game("game " .. i, L, balance.game_seed(seed, i), specs, function(_, name, opts, k)
      local kind = M.kind_of(name, opts[k])
      if not seen[kind] then seen[kind] = true; out[#out + 1] = kind end
    end)
  end
  table.sort(out)
  return out
end

local FIELDS = { "games", "wins", "wins2", "paired", "paired2", "kept", "kept_games", "decisions", "broken" }
-- the sums in the win scale, which may be floats (past 2^62, or beyond 42 seats)
local WINS = { wins = true, wins2 = true, paired = true, paired2 = true }
-- The unrestricted deals' sums (acc[UNRESTRICTED]; a shard's "unrestricted"):
-- the wins of the seat that is restricted in the other games, on each deal.
local UNRESTRICTED, BASE_FIELDS = "", { "games", "wins", "wins2" }
M.UNRESTRICTED = UNRESTRICTED

-- Whether any of `kinds` is measured (has a restriction): then the run
-- plays the unrestricted deals too.
local function measures(kinds)
  for _, kind in ipairs(kinds) do
    if M.restriction(kind) then return true end
  end
  return false
end

-- The games a run of `n` deals plays: n a kind measured, and n unrestricted.
-- A time in seconds as a person reads it: "45 s", "1 min 44 s", "2 h 5 min".
function M.duration(sec)
  sec = math.floor(sec + 0.5)
  if sec < 60 then return sec .. " s" end
  if sec < 3600 then return string.format("%d min %d s", sec // 60, sec % 60) end
  return string.format("%d h %d min", sec // 3600, sec % 3600 // 60)
end

-- What a run will play, said before it starts (kontor worth on a
-- terminal): `kinds` the kinds it measures, n its deals, `found` the
-- games the kinds were found in (nil: given with --kinds).
function M.plan(kinds, n, found)
  local k = 0
  for _, kind in ipairs(kinds) do if M.restriction(kind) then k = k + 1 end end
  local what = found and string.format("%d kind%s of move (those made in the first %d games; --kinds "
    .. "'DECISION: KIND;...' measures fewer)", k, k == 1 and "" or "s", found)
    or string.format("%d kind%s of move", k, k == 1 and "" or "s")
  return string.format("%s, %d game%s a kind and %d unrestricted on the same deals: %d games", what, n,
    n == 1 and "" or "s", n, M.games_of(kinds, n))
end

function M.games_of(kinds, n)
  local k = 0
  for _, kind in ipairs(kinds) do if M.restriction(kind) then k = k + 1 end end
  return k > 0 and (k + 1) * n or 0
end

-- The win of seat r in `game` (over), in 1/W of a game.
local function win_of(game, r, W)
  local res = game:result()
  for _, s in ipairs(res.winners) do
    if s == r then return balance.win_share(W, #res.winners) end
  end
  return 0
end

-- Plays games lo..hi for each of `kinds`; returns { [kind] = sums }.
-- progress(done) after each game, if given.
function M.play(L, bot, kinds, seed, lo, hi, progress)
  local P = L.players
  local W = balance.win_scale(P)
  local acc = {}
  local done = 0
  local function step()
    done = done + 1
    if progress then progress(done) end
  end
  local measured = {}                         -- { kind, its sums, its restriction, the bot restricted }
  for _, kind in ipairs(kinds) do
    local a = {}
    for _, f in ipairs(FIELDS) do a[f] = 0 end
    acc[kind] = a
    local spec = M.restriction(kind)
    if spec then measured[#measured + 1] = { kind, a, spec, M.restricted(bot, spec) } end
  end
  if #measured == 0 then return acc end
  local b = {}
  for _, f in ipairs(BASE_FIELDS) do b[f] = 0 end
  acc[UNRESTRICTED] = b
  local plain = {}
  for s = 1, P do plain[s] = bot end
  -- deal by deal (memory flat in the games): unrestricted, then each kind
  for i = lo, hi do
    local gseed, r = balance.game_seed(seed, i), (i - 1) % P + 1
    -- the deal unrestricted: every seat `bot`, the win of the seat the
    -- other games restrict
    local base = win_of(M.walk_game("game " .. i .. " unrestricted", L, gseed, plain), r, W)
    b.games = b.games + 1
    b.wins, b.wins2 = stats.plus(b.wins, base), stats.plus(b.wins2, stats.square(base))
    step()
    for _, m in ipairs(measured) do
      local a, spec = m[2], m[3]
      local specs = {}
      for s = 1, P do specs[s] = s == r and m[4] or bot end
      local kept = 0
      local game = M.walk_game("game " .. i, L, gseed, specs, function(seat, name, opts, k)
        if seat ~= r then return end
        a.decisions = a.decisions + 1
        -- kept from it: an option of the kind and another were legal
        local hit, other = false, false
        for j = 1, #opts do
          if bots.matches(spec, name, opts[j]) then hit = true else other = true end
        end
        if hit and other then
          kept = kept + 1
          if bots.matches(spec, name, opts[k]) then a.broken = a.broken + 1 end
        end
      end)
      local w = win_of(game, r, W)
      local d = w - base                      -- against the same seat, the same deal, unrestricted
      a.games = a.games + 1
      -- exact within 2^62, then floats (stats.plus: many seats' wins)
      a.wins, a.wins2 = stats.plus(a.wins, w), stats.plus(a.wins2, stats.square(w))
      a.paired, a.paired2 = stats.plus(a.paired, d), stats.plus(a.paired2, stats.square(d))
      a.kept = a.kept + kept
      if kept > 0 then a.kept_games = a.kept_games + 1 end
      step()
    end
  end
  return acc
end

-- Adds sums b into a (per kind).
function M.add(a, b)
  for kind, s in pairs(b) do
    if type(kind) ~= "string" or type(s) ~= "table" then
      error(string.format("a part's sums of '%s' are not a kind's sums", tostring(kind)), 0)
    end
    local fields = kind == UNRESTRICTED and BASE_FIELDS or FIELDS
    local t = a[kind]
    if not t then
      t = {}
      for _, f in ipairs(fields) do t[f] = 0 end
      a[kind] = t
    end
    for _, f in ipairs(fields) do
      local v = s[f] or 0
      if WINS[f] and math.type(v) == "float" then           -- many seats' wins: floats past 2^62
        t[f] = stats.plus(t[f], v)
      else
        v = math.tointeger(v)
        if not v then error(string.format("a part's '%s' of '%s' is not a whole number", f, kind), 0) end
        t[f] = WINS[f] and stats.plus(t[f], v) or t[f] + v
      end
    end
  end
  return a
end

local function r6(x) return x and balance.round(x) end

-- The interval and p of a win rate `mean` over n games that all had the
-- same outcome: Wilson's score interval (which has a width where the t
-- interval has none: 0 wins of 20 give [0, 0.1611]) and, for no win or
-- every win, the exact two-sided binomial p against the fair share
-- (2 (1 - fair)^n: 0 wins of 2 games at 1/4 is p = 1, of 20 p = 0.0063).
function M.same_outcome(mean, n, fair)
  local lo, hi = stats.wilson(mean, n)
  local p
  if mean == 0 then p = 2 * (1 - fair) ^ n
  elseif mean == 1 then p = 2 * fair ^ n
  else p = stats.p_of(mean - fair, { lo - fair, hi - fair }) end
  return lo, hi, math.min(1, p)
end

-- The mean of the per-game values whose sums over n games are `sum` and
-- `sum2` (in 1/W of a game), and the 95% t interval of it, clipped to
-- lo..hi; nil interval for fewer than 2 games or none of width.
local function mean_ci(sum, sum2, n, W, lo, hi)
  local mean = sum / n / W
  if n < 2 then return mean end
  local var = (sum2 - (sum + 0.0) * sum / n) / (n - 1) / ((W + 0.0) * W)
  if var <= 0 then return mean end
  local h = stats.t975(n - 1) * math.sqrt(var / n)
  return mean, math.max(lo, mean - h), math.min(hi, mean + h), h
end

-- The rows of a run: per kind its restriction, games, the restricted
-- seat's win rate and 95% interval, the fair share, the difference from
-- the same seat unrestricted on the same deals and its interval, and how
-- often the restriction kept the seat from a move; sorted by the
-- difference (the moves that decide games first), the kinds never kept
-- from last.
function M.rows(L, kinds, acc)
  local P = L.players
  local W = balance.win_scale(P)
  local fair = 1 / P
  local rows = {}
  for _, kind in ipairs(kinds) do
    local a = acc[kind] or M.add({}, { [kind] = {} })[kind]
    local spec, why = M.restriction(kind)
    local row = { kind = kind, restriction = spec, why = why, games = a.games, fair = r6(fair),
                  kept = a.kept, kept_games = a.kept_games, decisions = a.decisions, broken = a.broken,
                  also = M.overlaps(kind, kinds) }
    if a.games > 0 then
      local n = a.games
      local mean, lo, hi = mean_ci(a.wins, a.wins2, n, W, 0, 1)
      row.win_rate = r6(mean)
      row.kept_share = r6(a.kept_games / n)
      row.kept_per_game = r6(a.kept / n)
      local d, dlo, dhi, h = mean_ci(a.paired, a.paired2, n, W, -1, 1)
      row.diff = r6(d)
      if n > 1 then
        if lo then
          row.ci = { r6(lo), r6(hi) }
        else
          -- every game the same outcome (lost them all, say): Wilson's
          -- interval, which has a width where the t interval has none
          local wlo, whi = M.same_outcome(mean, n, fair)
          row.ci = { r6(wlo), r6(whi) }
        end
        if dlo then
          row.diff_ci = { r6(dlo), r6(dhi) }
          -- the two-sided p of the difference (from the interval before
          -- clipping), for Holm's correction in the report
          row.p = r6(stats.p_of(d, { d - h, d + h }))
        elseif a.kept == 0 then
          -- a restriction never in the way plays the very same games: the
          -- difference is 0, and no number of games could make it another
          row.diff_ci, row.p = { 0, 0 }, 1
        else
          -- the same difference on every deal (none, in 2 games, say): as
          -- wide as the share of the games it could have changed allows
          -- (Wilson's interval of 0 changed of n), not an interval of width 0
          local _, u = stats.wilson(0, n)
          row.diff_ci = { r6(math.max(-1, d - u)), r6(math.min(1, d + u)) }
          row.p = r6(stats.p_of(d, { d - u, d + u }))
        end
      end
    end
    row.offered = a.kept > 0
    rows[#rows + 1] = row
  end
  table.sort(rows, function(x, y)
    if x.offered ~= y.offered then return x.offered end
    local dx, dy = x.diff or math.huge, y.diff or math.huge
    if dx ~= dy then return dx < dy end
    return x.kind < y.kind
  end)
  return rows
end

-- The seat the others restrict, on the same deals unrestricted: its win
-- rate and interval, or nil when no kind was measured.
function M.unrestricted(L, acc)
  local b = acc[UNRESTRICTED]
  if not b or b.games == 0 then return nil end
  local W = balance.win_scale(L.players)
  local mean, lo, hi = mean_ci(b.wins, b.wins2, b.games, W, 0, 1)
  if not lo and b.games > 1 then lo, hi = stats.wilson(mean, b.games) end
  return { games = b.games, win_rate = r6(mean), ci = lo and { r6(lo), r6(hi) } or nil }
end

local num = stats.num   -- (the HTML report prints the same)

-- The rows as a table for people (through kontor.text: kinds come from
-- rule scripts).
function M.format(w)
  local width = #"kind"
  for _, r in ipairs(w.rows) do width = math.max(width, #text.escape(r.kind)) end
  local lines = {
    string.format("What a move is worth: %s, %d players, %s a kind (seed %d), the restricted seat in turn",
      text.escape(w.bot), w.players, text.count(w.games, "game"), w.seed),
    "setup: " .. text.escape(w.label or w.rules or "?"),
    string.format("fair share %s (1/%d); %s", num(w.fair), w.players,
      w.unrestricted and ("the same seat unrestricted on the same deals wins " .. num(w.unrestricted.win_rate)
        .. (w.unrestricted.ci and string.format(" [%s, %s]", num(w.unrestricted.ci[1]), num(w.unrestricted.ci[2]))
          or "")) or "no deal played unrestricted (no kind measured)"),
    "win rate: of the seat that never makes the move; diff: its win less its win unrestricted, deal by deal",
    "",
    string.format("%-" .. width .. "s  %-23s  %-26s  %s", "kind", "win rate [95% interval]", "diff [95% interval]",
      "kept from it"),
  }
  local function diff(r)
    return string.format("%-26s", num(r.diff, true) .. (r.diff_ci and string.format(" [%s, %s]",
      num(r.diff_ci[1], true), num(r.diff_ci[2], true)) or ""))
  end
  local notes = {}
  for _, r in ipairs(w.rows) do
    local k = text.escape(r.kind)
    if not r.restriction then
      lines[#lines + 1] = string.format("%-" .. width .. "s  not measured: %s", k, r.why)
    elseif not r.offered then
      lines[#lines + 1] = string.format("%-" .. width .. "s  %s [%s, %s]  %s  never: tells nothing", k,
        num(r.win_rate), num(r.ci and r.ci[1]), num(r.ci and r.ci[2]), diff(r))
    else
      lines[#lines + 1] = string.format("%-" .. width .. "s  %s [%s, %s]  %s  %s of games, %s a game", k,
        num(r.win_rate), num(r.ci and r.ci[1]), num(r.ci and r.ci[2]), diff(r),
        string.format("%.2f", r.kept_share), string.format("%.1f", r.kept_per_game))
    end
    if #r.also > 0 then
      local also = {}
      for i, o in ipairs(r.also) do also[i] = text.escape(o) end
      notes[#notes + 1] = string.format("%s: avoid=%s also keeps it from %s", k, text.escape(r.restriction),
        table.concat(also, ", "))
    end
  end
  for _, n in ipairs(notes) do lines[#lines + 1] = n end
  return table.concat(lines, "\n")
end

-- The summary of a run, as data (the --json output). Each row names the
-- bot the restricted seat played (`restricted_bot`: `bot` with the row's
-- avoid=), the other seats playing `bot`.
function M.summary(L, bot, kinds, acc, games, seed)
  local rows = M.rows(L, kinds, acc)
  for _, r in ipairs(rows) do r.restricted_bot = r.restriction and M.restricted(bot, r.restriction) end
  return { kind = "worth", rules = L.info.rules, variants = L.info.variants, label = L.info.label, bot = bot,
           players = L.players,
           games = games, seed = seed, fair = r6(1 / L.players), unrestricted = M.unrestricted(L, acc),
           rows = rows }
end

---------------------------------------------------------------------------
-- Shards: a range of games as data, for kontor merge (and --jobs)
---------------------------------------------------------------------------

-- The shard of games lo..hi of a run of `games` games: the lab's version-2
-- shard (kontor.balance.run), kind "worth": the setup (`info`), the bot,
-- the kinds, and per kind (in the order of `kinds`) its sums.
function M.shard(L, bot, kinds, acc, games, seed, lo, hi)
  local sums = {}
  for i, kind in ipairs(kinds) do
    local a = acc[kind] or M.add({}, { [kind] = {} })[kind]
    local t = {}
    for _, f in ipairs(FIELDS) do t[f] = a[f] end
    sums[i] = t
  end
  local b = acc[UNRESTRICTED] or M.add({}, { [UNRESTRICTED] = {} })[UNRESTRICTED]
  local base = {}
  for _, f in ipairs(BASE_FIELDS) do base[f] = b[f] end
  return { kontor = "shard", version = 2, kind = "worth", seed = seed, games = games, lo = lo, hi = hi,
           bot = bot, info = { rules = L.info.rules, variants = L.info.variants, label = L.info.label,
                               players = L.players },
           kinds = kinds, sums = sums, unrestricted = base }
end

local function fail(...) error(string.format(...), 0) end
local function is_int(x) return math.type(x) == "integer" end
local function is_text(x) return type(x) == "string" end

local run = require("kontor.balance.run")
-- t must be a JSON list of exactly n entries (n nil: any length), as the
-- other shards' lists are checked.
local list_of = run.list_of

-- (a JSON array decodes to a table with [1]; an object's keys are names)
local function is_array_like(t) return rawget(t, 1) ~= nil end

-- Checks sum `f` of sums `a` (of `what`), W the win scale: a whole number
-- from 0 (a difference: any sign) within 2^62, or, for the sums in the win
-- scale, a float past it (or where the scale itself is one) up to 2^1000.
local function check_sum(a, f, what, W)
  local v = a[f]
  local signed = f == "paired"
  local float = WINS[f] and math.type(v) == "float" and (math.type(W) == "float" or math.abs(v) > run.EXACT)
  if not is_int(v) and not float then fail("%s: \"%s\" must be a whole number", what, f) end
  if float and not ((signed or v >= 0) and math.abs(v) <= run.FLOATS) then
    fail("%s: \"%s\" is %s, not a number from %s0 to 2^1000", what, f, tostring(v), signed and "-2^1000 or " or "")
  end
  if v < 0 and not signed then fail("%s: \"%s\" is %d, below 0", what, f, v) end
  -- (redteam3: an integer 2^62 a shard and together, or the sums
  -- wrap when added; the wins go on as floats past it, stats.plus)
  if not float and math.abs(v) > run.EXACT then fail("%s: \"%s\" is %d, beyond 2^62", what, f, v) end
end

-- Checks a worth shard field by field before anything adds it; raises
-- "NAME: why" (NAME: its file:line, or "job k of n").
function M.check_shard(sh, name)
  local ok, e = pcall(function()
    run.check_head(sh, "worth", "games", "its games, not their sums")
    if not is_text(sh.bot) or sh.bot == "" then fail("\"bot\" must be a bot's text (e.g. \"greedy\")") end
    local info = sh.info
    local nk = list_of(sh.kinds, nil, "\"kinds\"")
    if nk == 0 then fail("\"kinds\" is empty") end
    local seen = {}
    for i = 1, nk do
      local k = sh.kinds[i]
      if not is_text(k) or not k:match("^[%w_]+: .+$") then
        fail("\"kinds\": entry %d is not a kind of move (DECISION: WORDS)", i)
      end
      if seen[k] then fail("\"kinds\": '%s' is given twice", k) end
      seen[k] = true
    end
    list_of(sh.sums, nk, "\"sums\" (one per kind)")
    -- a shard of before the unrestricted deals: all of it is missing
    if sh.unrestricted == nil and type(sh.sums[1]) == "table" and sh.sums[1].paired == nil then
      fail("made by an older kontor (no unrestricted deals to pair with): make it again")
    end
    local n, W = sh.hi - sh.lo + 1, balance.win_scale(info.players)
    for i, k in ipairs(sh.kinds) do
      local a = sh.sums[i]
      local what = string.format("the sums of '%s'", k)
      if type(a) ~= "table" then fail("%s are not an object", what) end
      for _, f in ipairs(FIELDS) do check_sum(a, f, what, W) end
      local want = M.restriction(k) and n or 0
      if a.games ~= want then fail("%s are of %s, the shard has %d", what, text.count(a.games, "game"), want) end
      if a.wins > (a.games + 0.0) * W then fail("%s: the seat won more than its %s", what, text.count(a.games, "game")) end
      -- each game's w is 0..W: sum w^2 <= W sum w, and n sum w^2 >= (sum w)^2
      if a.wins2 > W * (a.wins + 0.0) or (a.games + 0.0) * a.wins2 < (a.wins + 0.0) * a.wins then
        fail("%s: \"wins2\" (%s) cannot be the squares of wins adding up to %s", what, tostring(a.wins2), tostring(a.wins))
      end
      -- each game's difference is -W..W: |sum d| <= n W, sum d^2 <= n W^2,
      -- and n sum d^2 >= (sum d)^2
      if math.abs(a.paired) > (a.games + 0.0) * W then
        fail("%s: \"paired\" (%s) is more than %s could differ by", what, tostring(a.paired), text.count(a.games, "game"))
      end
      if a.paired2 > (a.games + 0.0) * W * W or (a.games + 0.0) * a.paired2 < (a.paired + 0.0) * a.paired then
        fail("%s: \"paired2\" (%s) cannot be the squares of differences adding up to %s", what,
          tostring(a.paired2), tostring(a.paired))
      end
      if a.kept_games > a.games then fail("%s: kept from it in %d games of %d", what, a.kept_games, a.games) end
      if a.kept_games > a.kept then fail("%s: kept from it in %d games but %d times", what, a.kept_games, a.kept) end
      if a.kept > a.decisions then fail("%s: kept from it %d times in %d decisions", what, a.kept, a.decisions) end
      if a.broken > a.kept then fail("%s: %d avoided moves made, kept from it %d times", what, a.broken, a.kept) end
    end
    -- the deals unrestricted, played once for every kind measured
    local b, what = sh.unrestricted, "\"unrestricted\""
    if type(b) ~= "table" or is_array_like(b) then fail("%s must be an object (the unrestricted deals' sums)", what) end
    for _, f in ipairs(BASE_FIELDS) do check_sum(b, f, what, W) end
    local want = measures(sh.kinds) and n or 0
    if b.games ~= want then fail("%s: %s, the shard has %d", what, text.count(b.games, "game"), want) end
    if b.wins > (b.games + 0.0) * W then fail("%s: the seat won more than its %s", what, text.count(b.games, "game")) end
    if b.wins2 > W * (b.wins + 0.0) or (b.games + 0.0) * b.wins2 < (b.wins + 0.0) * b.wins then
      fail("%s: \"wins2\" (%s) cannot be the squares of wins adding up to %s", what, tostring(b.wins2), tostring(b.wins))
    end
  end)
  if not ok then error(tostring(name) .. ": " .. tostring(e), 0) end
end

-- What must agree between the shards of one run.
local function run_key(sh)
  return table.concat({ tostring(sh.seed), tostring(sh.games), sh.bot, sh.info.label, tostring(sh.info.players),
                        table.concat(sh.info.variants, "\0"), table.concat(sh.kinds, "\0") }, "\1")
end

local where = run.where

-- Adds the sums of a checked shard into acc.
function M.add_shard(acc, sh)
  local part = { [UNRESTRICTED] = sh.unrestricted }
  for i, k in ipairs(sh.kinds) do part[k] = sh.sums[i] end
  return M.add(acc, part)
end

-- Merges worth shards (each checked first) into the summary one run of
-- all their games would give; raises "file:line: why", or which games are
-- missing or in two shards.
function M.merge(shards)
  run.one_run(shards, function(sh, i) M.check_shard(sh, where(sh, i)) end, run_key, function(i)
    local a, b = shards[1], shards[i]
    local what = run.differs {
      { "seed", a.seed, b.seed }, { "number of games", a.games, b.games }, { "bot", a.bot, b.bot },
      { "setup", a.info.label, b.info.label },
      { "list of kinds", table.concat(a.kinds, ";"), table.concat(b.kinds, ";") } }
      or "setup, bot, kinds, seed or games differ"
    return string.format("%s: games %d-%d are from another run than %s: %s",
      where(b, i), b.lo, b.hi, where(a, 1), what)
  end)
  local first = shards[1]
  local acc, total = {}, {}
  for i, sh in ipairs(shards) do
    for j, k in ipairs(sh.kinds) do
      for _, f in ipairs(FIELDS) do
        local key = k .. "\0" .. f
        total[key] = (total[key] or 0.0) + sh.sums[j][f]
        if total[key] > run.EXACT and not WINS[f] then
          fail("%s: the shards' \"%s\" of '%s' add up beyond 2^62 by this one", where(sh, i), f, k)
        end
      end
    end
    M.add_shard(acc, sh)
  end
  local L = { players = first.info.players, info = first.info }
  return M.summary(L, first.bot, first.kinds, acc, first.games, first.seed)
end

M.FIELDS = FIELDS
return M
