-- kontor.balance.ladder: a skill ladder of bots (`kontor ladder`,
-- docs/bots.md "Skill ladder").
--
-- A round robin: every pair of bots plays every deal twice. Deal d starts
-- from balance.game_seed(seed, d); in its first game the pair's first bot
-- sits on the odd seats and the second on the even ones, in the second
-- game the other way round, so each bot sits on each seat once a deal (in
-- two players: once first, once second). A game counts for the bot whose
-- seat won it; a win shared by k seats counts 1/k to each winner's bot.
--
-- The ratings are a Bradley-Terry fit of those wins (P(a beats b) =
-- r_a / (r_a + r_b)) on the Elo scale (400 log10 r, the first bot at 0).
-- Every bot gets a tenth of a win against a virtual equal, so a bot that
-- never wins (or never loses) still gets a finite rating. The 95%
-- intervals are the 2.5th and 97.5th percentiles of 200 fits to the deals
-- drawn again with replacement (a bootstrap over deals, which keeps the
-- pairing).

local core = require "kontor.core"
local bots = require "kontor.bots"
local balance = require "kontor.balance"
local worth = require "kontor.balance.worth"

local M = {}

M.BOOTSTRAPS = 200
M.BOOT_SEED = 2012        -- the bootstrap's draws: the same table from the same games
M.PRIOR = 0.1             -- wins against a virtual equal of rating 0 (r = 1)
M.ROUNDS = 500            -- rounds of the minorization-maximization fit

-- "mcts:iterations=100,c=0.7" -> "mcts:c=0.7,iterations=100": a bot's text
-- with its options sorted, to find it in a table of ratings. nil, why for
-- a text that names no bot.
function M.canonical(spec)
  local kind, opts = bots.parse(spec)
  if not kind then return nil, opts end
  local kv = {}
  for k, v in pairs(opts) do kv[#kv + 1] = k .. "=" .. tostring(v) end
  table.sort(kv)
  return kind .. (#kv > 0 and (":" .. table.concat(kv, ",")) or "")
end

-- The pairs of a round robin of n bots: { {1, 2}, {1, 3}, ... }.
function M.pairs(n)
  local list = {}
  for x = 1, n do for y = x + 1, n do list[#list + 1] = { x, y } end end
  return list
end

-- The bots of game `k` (1 or 2) of a deal for the pair a, b: seat -> text.
function M.seats(players, a, b, k)
  local specs = {}
  for s = 1, players do specs[s] = (s % 2 == k % 2) and a or b end
  return specs
end

-- The share of game k of a deal (game seed gseed) that bot a won against b.
function M.play(L, gseed, a, b, k, d)
  local game = worth.walk_game(string.format("deal %d, game %d", d or 0, k), L, gseed, M.seats(L.players, a, b, k))
  local winners = game:result().winners
  local share = 0
  for _, w in ipairs(winners) do
    if (w % 2 == k % 2) then share = share + 1 / #winners end
  end
  return share
end

-- Plays the round robin of `names` (bot texts, at least two) on setup L
-- (kontor.balance.load) over deals lo..hi (default 1..deals) of `seed`.
-- progress(done, total) after each game. Returns { results = results[d][p]
-- (the pair p's first bot's wins of deal d's two games, 0..2), cpu =
-- seconds }. A deal's games depend on its number alone, so deals played
-- in several jobs or shards give the same results as one run.
function M.run(L, names, deals, seed, progress, lo, hi)
  lo, hi = lo or 1, hi or deals
  local pl = M.pairs(#names)
  local results, total, done = {}, 2 * (hi - lo + 1) * #pl, 0
  local t0 = os.clock()
  for d = lo, hi do
    local gseed = balance.game_seed(seed, d)
    results[d] = {}
    for p, xy in ipairs(pl) do
      local a, b = names[xy[1]], names[xy[2]]
      local w = 0
      for k = 1, 2 do
        w = w + M.play(L, gseed, a, b, k, d)
        done = done + 1
        if progress then progress(done, total) end
      end
      results[d][p] = w
    end
  end
  return { results = results, cpu = os.clock() - t0 }
end

-- Bradley-Terry by minorization-maximization over the deals of `sample`
-- (a list of deal numbers, repeats allowed). Returns the Elo ratings, the
-- first bot at 0.
function M.fit(n, results, sample)
  local pl = M.pairs(n)
  local w = {}
  for x = 1, n do w[x] = {}; for y = 1, n do w[x][y] = 0 end end
  for _, d in ipairs(sample) do
    for p, xy in ipairs(pl) do
      local x, y = xy[1], xy[2]
      w[x][y] = w[x][y] + results[d][p]
      w[y][x] = w[y][x] + 2 - results[d][p]
    end
  end
  local r = {}
  for x = 1, n do r[x] = 1 end
  for _ = 1, M.ROUNDS do
    local nr = {}
    for x = 1, n do
      local wins, den = M.PRIOR, 2 * M.PRIOR / (r[x] + 1)
      for y = 1, n do
        if y ~= x then
          wins = wins + w[x][y]
          den = den + (w[x][y] + w[y][x]) / (r[x] + r[y])
        end
      end
      nr[x] = wins / den
    end
    local base = nr[1]
    for x = 1, n do r[x] = nr[x] / base end
  end
  local elo = {}
  for x = 1, n do elo[x] = 400 * math.log(r[x], 10) end
  return elo
end

local function round(x) return math.floor(x + 0.5) end

-- The ladder of a run as plain data: the setup, the ratings best first
-- (each with its interval) and each pair's share.
function M.summary(L, names, deals, seed, ran)
  local n = #names
  local all = {}
  for d = 1, deals do all[d] = d end
  local point = M.fit(n, ran.results, all)
  local rng = core.rng(M.BOOT_SEED)
  local boots = {}
  for x = 1, n do boots[x] = {} end
  for _ = 1, M.BOOTSTRAPS do
    local sample = {}
    for k = 1, deals do sample[k] = rng:below(deals) + 1 end
    local e = M.fit(n, ran.results, sample)
    for x = 1, n do boots[x][#boots[x] + 1] = e[x] end
  end
  local lo_i = math.max(1, math.floor(0.025 * M.BOOTSTRAPS + 0.5) + 1)
  local hi_i = math.min(M.BOOTSTRAPS, math.floor(0.975 * M.BOOTSTRAPS + 0.5))
  local ratings = {}
  for x = 1, n do
    table.sort(boots[x])
    ratings[x] = { bot = names[x], rating = round(point[x]),
                   ci = x > 1 and { round(boots[x][lo_i]), round(boots[x][hi_i]) } or nil }
  end
  table.sort(ratings, function(p, q)
    if p.rating ~= q.rating then return p.rating > q.rating end
    return p.bot < q.bot
  end)
  local pl, shares = M.pairs(n), {}
  for p, xy in ipairs(pl) do
    local s = 0
    for d = 1, deals do s = s + ran.results[d][p] end
    shares[p] = { a = names[xy[1]], b = names[xy[2]], games = 2 * deals, a_wins = s / (2 * deals) }
  end
  return {
    kind = "ladder", rules = L.info.rules, variants = L.info.variants, players = L.players,
    label = L.info.label, deals = deals, seed = seed, games = 2 * deals * #pl, anchor = names[1],
    cpu = round(ran.cpu), ratings = ratings, pairs = shares,
  }
end

---------------------------------------------------------------------------
-- Shards: a ladder played in pieces (--jobs, --shard K/N, kontor merge)
---------------------------------------------------------------------------

-- The shard of deals lo..hi of a run: what kontor merge needs to make the
-- summary one run of every deal would give.
function M.shard(L, names, deals, seed, lo, hi, ran)
  local results = {}
  for d = lo, hi do results[#results + 1] = ran.results[d] end
  return { kontor = "shard", version = 2, kind = "ladder", seed = seed, deals = deals, lo = lo, hi = hi,
           bots = names, info = { rules = L.info.rules, variants = L.info.variants, label = L.info.label,
                                  players = L.players },
           results = results, cpu = ran.cpu }
end

local function fail(...) error(string.format(...), 0) end
local function is_text(x) return type(x) == "string" end
local where = function(sh, i) return require("kontor.balance.run").where(sh, i) end

-- Checks a ladder shard field by field before anything reads it; raises
-- "NAME: why" (NAME: its file:line, or "job k of n").
function M.check_shard(sh, name)
  local run = require("kontor.balance.run")
  local list_of = run.list_of
  local ok, e = pcall(function()
    run.check_head(sh, "ladder", "deals", "another form of ladder")
    local nb = list_of(sh.bots, nil, "\"bots\"")
    if nb < 2 then fail("\"bots\": two bots or more are rated, %d given", nb) end
    local seen = {}
    for i = 1, nb do
      local c = is_text(sh.bots[i]) and bots.new(sh.bots[i], 1, 1) and M.canonical(sh.bots[i])
      if not c then fail("\"bots\": entry %d is not a bot's text (e.g. \"greedy\")", i) end
      if seen[c] then fail("\"bots\": '%s' is given twice", c) end
      seen[c] = true
    end
    local np = #M.pairs(nb)
    list_of(sh.results, sh.hi - sh.lo + 1, "\"results\" (one per deal)")
    for i, r in ipairs(sh.results) do
      list_of(r, np, string.format("\"results\" of deal %d (one per pair of bots)", sh.lo + i - 1),
        function(x) return type(x) == "number" and x >= 0 and x <= 2 end, "a share of two games, 0 to 2")
    end
    if type(sh.cpu) ~= "number" or not (sh.cpu >= 0 and sh.cpu <= run.EXACT) then   -- (inf once added)
      fail("\"cpu\" must be the seconds of CPU the shard took")
    end
  end)
  if not ok then error(string.format("%s: %s", where(sh, name), tostring(e)), 0) end
end

local function run_key(sh)
  return table.concat({ tostring(sh.seed), tostring(sh.deals), table.concat(sh.bots, "\0"), sh.info.rules,
                        table.concat(sh.info.variants, "\0"), sh.info.label, tostring(sh.info.players) }, "\1")
end

-- Merges ladder shards (each checked first) into the summary one run of
-- all their deals would give; raises "file:line: why", or which deals are
-- missing or in two shards.
function M.merge(shards)
  require("kontor.balance.run").one_run(shards, M.check_shard, run_key, function(i)
    local a, b = shards[1], shards[i]
    local what = require("kontor.balance.run").differs {
      { "seed", a.seed, b.seed }, { "number of deals", a.deals, b.deals },
      { "list of bots", table.concat(a.bots, " "), table.concat(b.bots, " ") },
      { "setup", a.info.label, b.info.label } } or "setup, bots, seed or deals differ"
    return string.format("%s: deals %d-%d are from another ladder than %s: %s",
      where(b, i), b.lo, b.hi, where(a, 1), what)
  end, "deals", "deals")
  local first = shards[1]
  local ran = { results = {}, cpu = 0 }
  for _, sh in ipairs(shards) do
    for i, r in ipairs(sh.results) do ran.results[sh.lo + i - 1] = r end
    ran.cpu = ran.cpu + sh.cpu
  end
  local L = { players = first.info.players, info = first.info }
  return M.summary(L, first.bots, first.deals, first.seed, ran)
end

-- The columns a bot's name takes on a terminal: the text sink escapes
-- control characters and invalid bytes (kontor.text), and a UTF-8
-- character takes one column.
local function columns(name)
  local shown = require("kontor.text").escape(name)
  return utf8.len(shown) or #shown
end

-- The bots that won every game they played, or lost every one, from a
-- ladder's pairs: { [bot] = "won" | "lost" }. Their ratings rest on the
-- prior alone (a tenth of a win against a virtual equal).
function M.swept(list)
  local won, lost, played = {}, {}, {}
  for _, p in ipairs(list) do
    for side, bot in ipairs { p.a, p.b } do
      local share = side == 1 and p.a_wins or 1 - p.a_wins
      if played[bot] == nil then played[bot], won[bot], lost[bot] = true, true, true end
      if share < 1 then won[bot] = false end
      if share > 0 then lost[bot] = false end
    end
  end
  local out = {}
  for bot in pairs(played) do
    out[bot] = won[bot] and "won" or lost[bot] and "lost" or nil
  end
  return out
end

-- How `bot` did in its pair with the ladder's anchor (the bot rated 0)
-- where one side won every game: "%s never beat it" or "it never beat %s"
-- (the anchor's name in place of %s); else nil.
local function swept_by_anchor(s, bot)
  for _, p in ipairs(s.pairs) do
    local share = p.a == s.anchor and p.b == bot and p.a_wins or p.b == s.anchor and p.a == bot and 1 - p.a_wins
    if share and p.games > 0 then
      return share == 0 and "%s never beat it" or share == 1 and "it never beat %s" or nil
    end
  end
end

-- The ladder as text for people.
function M.format(s)
  local vs = #s.variants > 0 and (" + " .. table.concat(s.variants, " + ")) or ""
  local lines = {
    -- the seed as sim prints it: with --seed random, the one to play the deals again
    string.format("%s%s, %d players: %d deal%s (seed %s), %d games a pair, %d games (%d s of CPU)", s.rules, vs,
      s.players, s.deals, s.deals == 1 and "" or "s", tostring(s.seed), 2 * s.deals, s.games, s.cpu),
    string.format("ratings (Elo scale, %s at 0; 95%% interval over deals):", s.anchor),
  }
  local w = 4
  for _, r in ipairs(s.ratings) do w = math.max(w, columns(r.bot)) end
  local swept = M.swept(s.pairs)
  for _, r in ipairs(s.ratings) do
    local line = string.format("  %s%s %6d  %s", r.bot, string.rep(" ", w - columns(r.bot)), r.rating,
      r.ci and string.format("[%d, %d]", r.ci[1], r.ci[2]) or "(the anchor)")
    -- a bot that won (or lost) every game: the fit has only the prior to
    -- go by, every resample gives the same number, and more deals move it
    if r.ci and swept[r.bot] then
      line = line .. string.format("  %s every game: a bound, not a measure (more deals move it)", swept[r.bot])
    elseif r.ci and swept_by_anchor(s, r.bot) then
      -- its distance to the anchor rests on the prior as well, however
      -- it did against the others: its interval has no width either
      line = line .. "  " .. swept_by_anchor(s, r.bot):format(s.anchor)
        .. ": a bound, not a measure (more deals move it)"
    end
    lines[#lines + 1] = line
  end
  lines[#lines + 1] = "pair by pair (the first bot's share of the wins):"
  for _, p in ipairs(s.pairs) do
    lines[#lines + 1] = string.format("  %s vs %s: %.1f%% of %d games", p.a, p.b, 100 * p.a_wins, p.games)
  end
  return table.concat(lines, "\n")
end

---------------------------------------------------------------------------
-- Which bots a verdict came from (the lab's "bots:" line)
---------------------------------------------------------------------------

-- The ladder's rating of bot `spec` in rule set `rules` with `variants`
-- (names) for `players`: { rating, lo, hi, players =, deals =, commit = }
-- from kontor.balance.ratings, the entry of the same player count first;
-- nil when the ladder has not rated it there.
-- The bot a spec makes in a rule set: its options with its kind's defaults
-- and the rule set's own (R.bot_options) filled in, so that "greedy" and
-- "greedy:budget=6,focus=1" are one bot where the rule set says so.
local RULE_SETS = {}
local function resolved(spec, rules, variants)
  local vkey = rules .. "+" .. table.concat(variants or {}, "+")
  local R = RULE_SETS[vkey]
  if R == nil then
    R = require("kontor.rules").load(rules, variants or {}) or false
    RULE_SETS[vkey] = R
  end
  local b = bots.new(spec, 1, 1)
  if not b then return M.canonical(spec) end
  if R then b:tune(R) end
  return b:spec()
end

function M.rating(rules, variants, players, spec, table_)
  if not M.canonical(spec) then return nil end
  local key = resolved(spec, rules, variants)
  local vkey = table.concat(variants or {}, "+")
  local best
  for _, e in ipairs(table_ or require("kontor.balance.ratings")) do
    local r, unbeaten
    if e.rules == rules and table.concat(e.variants, "+") == vkey then
      for b, x in pairs(e.ratings) do if resolved(b, rules, variants) == key then r = x end end
      for _, b in ipairs(e.unbeaten or {}) do if resolved(b, rules, variants) == key then unbeaten = true end end
    end
    if r and e.rules == rules and table.concat(e.variants, "+") == vkey
       and (not best or (e.players == players and best.players ~= players)) then
      best = { rating = r[1], ci = r[2] and { r[2], r[3] } or nil, players = e.players, deals = e.deals,
               commit = e.commit, unbeaten = unbeaten }
    end
  end
  return best
end

-- Seats as text: { 1, 2, 3 } -> "seats 1-3", { 2 } -> "seat 2", { 1, 3 } -> "seats 1, 3".
local function seats_text(list)
  if #list == 1 then return "seat " .. list[1] end
  local run = true
  for i = 2, #list do if list[i] ~= list[i - 1] + 1 then run = false end end
  if run then return string.format("seats %d-%d", list[1], list[#list]) end
  return "seats " .. table.concat(list, ", ")
end

-- The bots of seats seat -> text (every seat of 1..players) with the
-- ladder's rating of each: { { bot =, seats = {...}, ladder = M.rating(...) or nil } }
-- (table_: the ratings, kontor.balance.ratings unless given).
function M.describe(rules, variants, players, specs, table_)
  local out, by = {}, {}
  for s = 1, players do
    local b = specs[s] or "random"
    local key = M.canonical(b) or b
    if not by[key] then
      -- random is every ladder's anchor: 0 by definition, in any rule set
      local l = key == "random" and { rating = 0, anchor = true } or M.rating(rules, variants, players, b, table_)
      by[key] = { bot = key, seats = {}, ladder = l }
      out[#out + 1] = by[key]
    end
    table.insert(by[key].seats, s)
  end
  return out
end

-- The bot texts of a run's sides, seat by seat, from its summary data
-- (info: players and the setup's label, "--rules x --bot 2=mcts:k=v"; a
-- merged run has only these): every seat without a --bot is random.
function M.specs_of(info)
  local specs = {}
  for seat = 1, info.players do specs[seat] = "random" end
  local l = " " .. (info.label or "")
  local at = l:find(" %-%-")
  while at do
    local nxt = l:find(" %-%-", at + 3)
    local seat, spec = l:sub(at + 3, (nxt or #l + 1) - 1):match("^bot (%d+)=(.+)$")
    seat = tonumber(seat)
    if seat and specs[seat] then specs[seat] = spec end
    at = nxt
  end
  return specs
end

-- The "bots:" line: "bots: greedy on seats 1-4 (ladder: 2133 [2097,
-- 2183] over random, 2 players)".
function M.line(desc, title)
  local parts = {}
  for _, d in ipairs(desc) do
    local l = d.ladder
    local rated
    if not l then
      rated = "not on the ladder"
    elseif l.anchor then
      rated = "ladder: 0, the floor"
    elseif not l.ci then
      rated = string.format("ladder: %d, %d players", l.rating, l.players)
    else
      -- over a random that never beat it, the number is the prior's
      rated = string.format("ladder: %d [%d, %d] over random%s, %d players", l.rating, l.ci[1], l.ci[2],
        l.unbeaten and ", who never beat it (a bound)" or "", l.players)
    end
    parts[#parts + 1] = string.format("%s on %s (%s)", d.bot, seats_text(d.seats), rated)
  end
  return (title or "bots") .. ": " .. table.concat(parts, "; ")
end

return M
