-- kontor.balance: the designer's balance lab (docs/balance.md).
--
-- A setup is a rule set with variants, options, a player count and a bot
-- per seat. Game i of a run with seed S starts from derive_seed(S, i), as in
-- kontor.sim, so two setups played with the same seed meet the same deals
-- (paired games), and any range of games can be played anywhere (shards,
-- jobs) and put back together exactly.
--
-- Each game gives its values: measure keys to whole numbers of each
-- measure's unit (M.play_game). A run keeps only their sums
-- (kontor.balance.stats: games, sums, sums of squares, counts by value),
-- which are exact, so a merged run and a single run give the same numbers
-- to the last bit, and the memory of a run does not grow with its games.
-- M.play keeps the games' values too (tests, in-process use).

local core = require "kontor.core"
local gamemod = require "kontor.game"
local rules = require "kontor.rules"
local bots = require "kontor.bots"
local seatmod = require "kontor.seat"
local stats = require "kontor.balance.stats"
local moves = require "kontor.balance.moves"
local text = require "kontor.text"
local errors = require "kontor.errors"

local M = {}
local first_is_drawn

local derive = core.derive_seed

-- The seeds of side B in an unpaired comparison come from this run seed.
local UNPAIRED_SALT = 0x5eed0b

---------------------------------------------------------------------------
-- Setups
---------------------------------------------------------------------------

local function declared_stats(R)
  local names = {}
  if R.stats == nil then return names end
  if type(R.stats) ~= "table" then
    error(string.format("%s: R.stats must map stat names to what they count", R.name), 0)
  end
  for k, v in pairs(R.stats) do
    if type(k) ~= "string" or not k:match("^[%a_][%w_]*$") or type(v) ~= "string" then
      error(string.format("%s: R.stats must map stat names (letters, digits, _) to what they count, e.g. busts = \"ships that went bust\"", R.name), 0)
    end
    names[#names + 1] = k
  end
  table.sort(names)
  return names
end

-- Loads a setup: { rules = name|path, variants = { {name, options = {}} },
-- players = n, options = { k = v }, bots = { [seat] = { kind, options = {} } } }.
-- Returns the loaded setup L; raises a message for people.
function M.load(setup)
  -- a sweep's setup names the value it tries (sweep.setups: `swept`), so
  -- that a value the option does not take (a usage error, not a broken
  -- script) says which of the sweep's it is
  local function refused(msg)
    if setup.swept then
      if type(msg) == "string" then msg = setup.swept .. ": " .. msg
      elseif errors.kind(msg) == "usage" then msg.message = setup.swept .. ": " .. msg.message end
    end
    error(msg, 0)
  end
  local R, err = rules.load(setup.rules, setup.variants)
  if not R then refused(err) end
  moves.instrument(R, setup.moves)     -- the worth each turn; with moves, what players do
  local players = gamemod.players_for(R, setup.players)
  local options, oerr = rules.resolve_options(R, setup.options)
  if not options then refused(oerr) end
  local names = {}
  for i = 1, players do names[i] = "Player " .. i end
  -- `--bot KIND` alone: that bot on every seat not given one of its own
  local every = setup.bots and setup.bots.every
  if every then
    local copy, seated = {}, {}
    for k, v in pairs(setup) do copy[k] = v end
    for s = 1, players do seated[s] = setup.bots[s] or every end
    copy.bots = seated
    setup = copy
  end
  local seats, any_bot = {}, false
  -- a bot as its --bot said it: KIND alone for every seat's, SEAT=KIND else
  local function said(seat, b) return b == every and b.kind or string.format("%d=%s", seat, b.kind) end
  for seat, b in pairs(setup.bots or {}) do
    if math.type(seat) ~= "integer" or seat < 1 or seat > players then
      -- a usage error, as the same --bot is for play and plain sim (exit 2)
      error(errors.new("usage", string.format("--bot %s=%s: there is no seat %s (the game has %d players)",
        tostring(seat), b.kind, tostring(seat), players)), 0)
    end
    if not bots.KINDS[b.kind] then
      error(errors.new("usage", string.format("--bot %s: %s", said(seat, b), bots.unknown(b.kind))), 0)
    end
    -- bot options: only those the kind declares (kontor.bots.OPTIONS[kind])
    local decl = bots.OPTIONS and bots.OPTIONS[b.kind] or {}
    local given = {}
    for k in pairs(b.options or {}) do given[#given + 1] = k end
    table.sort(given)
    for _, k in ipairs(given) do
      if decl[k] == nil then
        local known = {}
        for n in pairs(decl) do known[#known + 1] = n end
        table.sort(known)
        error(errors.new("usage", string.format("--bot %s: the %s bot has no option '%s' (options: %s)",
          said(seat, b), b.kind, k, #known > 0 and table.concat(known, ", ") or "none")), 0)
      end
    end
    -- and their values (depth=x), before any game: a usage error, not game 1's
    local probe, perr = bots.new(b.kind, seat, 1, b.options)
    if not probe then
      error(errors.new("usage", string.format("--bot %s: %s", said(seat, b), tostring(perr))), 0)
    end
    any_bot = true
  end
  for s = 1, players do
    local b = setup.bots and setup.bots[s]
    seats[s] = b and M.bot_text(b) or "random"
  end
  -- The first player: the rule set's first_player option where it has one.
  local first = 1
  if R.options.first_player and math.type(options.first_player) == "integer" then
    first = options.first_player
  end
  local variants = {}
  for i, v in ipairs(rules.given_variants(R)) do variants[i] = v[1] end
  local drawn_first = first_is_drawn(R, players, options, names, first)
  return {
    R = R, setup = setup, players = players, options = options, names = names,
    bots = any_bot and setup.bots or nil, moves = setup.moves or false,
    -- what summaries need, as plain data (kept in shard files)
    info = {
      rules = R.name, variants = variants, players = players, first = first, drawn_first = drawn_first or nil,
      seats = seats, stats = declared_stats(R), stat_docs = R.stats or {}, moves = setup.moves or false,
      label = M.label(setup),
    },
  }
end

-- A seat's bot as the command line gives it, with its options sorted:
-- "greedy:avoid=buy contract,samples=2" (a setup's `seats` in the JSON,
-- the `--bot` of its label). The kind alone said nothing of a restriction.
function M.bot_text(b)
  local kv = {}
  for k, x in pairs(b.options or {}) do kv[#kv + 1] = k .. "=" .. tostring(x) end
  table.sort(kv)
  return b.kind .. (#kv > 0 and (":" .. table.concat(kv, ",")) or "")
end

-- A setup as the options that give it ("--variant house --bot 1=random").
function M.label(setup)
  local parts = { "--rules " .. (setup.rules or rules.default_for(setup.variants)) }
  for _, v in ipairs(setup.variants or {}) do
    local kv = {}
    for k, x in pairs(v.options or {}) do kv[#kv + 1] = k .. "=" .. tostring(x) end
    table.sort(kv)
    parts[#parts + 1] = "--variant " .. v[1] .. (#kv > 0 and (":" .. table.concat(kv, ",")) or "")
  end
  if setup.players then parts[#parts + 1] = "--players " .. setup.players end
  local opts = {}
  for k, x in pairs(setup.options or {}) do opts[#opts + 1] = "--option " .. k .. "=" .. tostring(x) end
  table.sort(opts)
  for _, o in ipairs(opts) do parts[#parts + 1] = o end
  local seats = {}
  for s in pairs(setup.bots or {}) do seats[#seats + 1] = s end
  table.sort(seats)
  for _, s in ipairs(seats) do parts[#parts + 1] = string.format("--bot %d=%s", s, M.bot_text(setup.bots[s])) end
  return table.concat(parts, " ")
end

---------------------------------------------------------------------------
-- Playing
---------------------------------------------------------------------------

-- The seed of game i of a run with `seed` (side "b" of an unpaired compare
-- gets seeds of its own).
function M.game_seed(seed, i, unpaired_b)
  if unpaired_b then return derive(derive(seed, UNPAIRED_SALT), i) end
  return derive(seed, i)
end

local function new_data(info)
  local d = { scores = {}, wins = {}, turns = {}, steps = {}, stats = {}, vals = {} }
  for s = 1, info.players do d.scores[s], d.wins[s] = {}, {} end
  for _, name in ipairs(info.stats) do d.stats[name] = {} end
  return d
end
-- Plays with the bots of the setup: each decision goes to its seat's bot.
-- Whether the rule set draws who takes the first turn (Old World's first
-- player token, O9): the first turns of a few deals are not all `first`.
-- Then the first-player advantage is that of the seat that took the first
-- turn, game by game, not of a fixed seat.
function first_is_drawn(R, players, options, names, first)
  for seed = 1, 8 do
    moves.arm(R)
    local ok, game = pcall(gamemod.new, R, { rules = R.name, players = players, names = names, seed = seed,
                                             options = options }, true)
    local seat = ok and moves.first_turn(game)
    if seat and seat ~= first then return true end
  end
  return false
end

-- Whether every file of R is one of the installed rule sets and variants
-- (tests/lua/module_state_spec.lua plays each of them, and they keep no
-- state outside g): a designer's own file is looked at, the shipped ones
-- are not again at every run.
local function shipped_only(R)
  local home = rules.home and (rules.home .. "/variants/")
  if not (home and type(R.file) == "string" and R.file:sub(1, #home) == home) then return false end
  for _, a in ipairs(R.applied or {}) do
    local f = type(a.spec) == "string" and rules.find(a.spec)
    if not (type(f) == "string" and f:sub(1, #home) == home) then return false end
  end
  return true
end

-- What a game of the setup changes of the rule script's module-level
-- variables (kontor.game.module_state): two random games played, the
-- values after each compared. A run whose games change them plays each
-- game from where the games before it left them (and a job of --jobs from
-- where its own did). A list of messages; empty for a rule set that keeps
-- its state on g, or whose games fail (the run says that).
function M.module_warnings(L)
  if shipped_only(L.R) then return {} end
  local ms = require "kontor.game.module_state"
  -- (the rule set loaded again for this: its own module-level variables,
  -- and none of the lab's instruments, which count the run's games)
  local R = rules.load(L.setup.rules, L.setup.variants)
  if not R then return {} end
  local snap
  for seed = 1, 2 do
    local params = { rules = R.name, players = L.players, names = L.names, seed = seed, options = L.options }
    local ok, err = pcall(gamemod.playout, R, params, core.rng(seed), nil, false, true)
    if not ok then
      if require("kontor.errors").kind(err) == "interrupt" then error(err, 0) end   -- Ctrl-C: as it is
      return {}
    end
    if seed == 1 then snap = ms.snapshot(R) end
  end
  local out = {}
  for i, m in ipairs(ms.changes(R, snap, {}, "from one game of the setup to the next") or {}) do
    out[i] = m.text
  end
  return out
end

local function play_with_bots(L, game, gseed, cov)
  local players = {}
  for s = 1, L.players do
    local b = L.bots[s]
    local bot, err = bots.new(b and b.kind or "random", s, gseed, b and b.options)
    if not bot then error(err, 0) end
    players[s] = bot
  end
  local tally = moves.tally_of(L.R)
  for _ = 1, 100000 do
    local kind = game.kind
    if kind == "over" then return end
    local seat
    if kind == "all" then
      for _, s in ipairs(game.seats) do
        if not game.chosen[s] then seat = s; break end
      end
    elseif kind == "orders" then              -- secret orders: the first seat still entering
      for _, s in ipairs(game.seats) do
        if not game.entries[s].done then seat = s; break end
      end
    else
      seat = game.seat
    end
    local name = game.dname
    local k = players[seat]:choose(seatmod.view(game, seat))   -- seat registry: a seat view
    if tally then moves.note(tally, game, seat, k) end
    game:step(seat, k)
    if cov then cov:step(name, select(2, game:step_at(game:step_count()))) end
  end
  error("the game did not end within 100000 steps", 0)
end

local function play_one(L, gseed, cov)
  local params = { rules = L.R.name, players = L.players, names = L.names, seed = gseed,
                   options = L.options }
  if not (L.bots or cov) then   -- no step texts: only the result is read
    return gamemod.playout(L.R, params, core.rng(derive(gseed, 0)), nil, false, true, moves.tally_of(L.R))
  end
  local game = gamemod.new(L.R, params, true)
  if cov then cov:game_start(game) end
  if L.bots then
    play_with_bots(L, game, gseed, cov)
  else
    -- a check forces the step-by-step driver, which plays the same game
    game:play_random(core.rng(derive(gseed, 0)), cov:checker(game), nil, nil, moves.tally_of(L.R))
  end
  return game
end

-- The scale of the win measures: a win shared by k counts W/k, a whole
-- number for W = lcm(1..players), up to 42 seats (lcm(1..43) passes
-- 2^63). Beyond, W is 1.0 and a share 1/k, a floating-point number
-- (docs/balance.md, "Many seats"); its sums are then floats from the start.
local function win_scale(players)
  local function gcd(x, y) while y ~= 0 do x, y = y, x % y end return x end
  local w = 1
  for k = 2, players do
    local f = k // gcd(w, k)
    if w > math.maxinteger // f then return 1.0 end
    w = w * f
  end
  return w
end
M.win_scale = win_scale

-- A win shared by k at scale W (W // k, whole, for a whole W).
local function win_share(W, k)
  if math.type(W) == "integer" then return W // k end
  return W / k
end
M.win_share = win_share

local FRACTION = 1000   -- shares of a game and per-decision means: in 1000ths, per game

local function whole(x, scale)
  if scale == 1 then
    local i = math.tointeger(x)
    return i or x
  end
  return math.floor(x * scale + 0.5)
end

-- The measure keys of the seats of a game of P players, made once.
local SEAT_KEYS = setmetatable({}, { __index = function(t, P)
  local k = { win = {}, score = {}, won = {} }
  for s = 1, P do
    k.win[s], k.score[s], k.won[s] = "win_rate." .. s, "score." .. s, "won." .. s
  end
  t[P] = k
  return k
end })
local STAT_KEYS = setmetatable({}, { __index = function(t, name)
  local k = "stat." .. name
  t[name] = k
  return k
end })

-- Plays game i of a run with `seed` (the game's seed as M.game_seed);
-- returns its values (measure keys to scaled numbers, 0s left out but the
-- fixed ones) and its record (scores, winners, turns, steps, stats).
-- opts: { cov = coverage recorder, unpaired_b = bool }.
function M.play_game(L, seed, i, opts)
  opts = opts or {}
  local info = L.info
  local gseed = M.game_seed(seed, i, opts.unpaired_b)
  moves.arm(L.R)
  local ok, game = pcall(play_one, L, gseed, opts.cov)
  if not ok then
    if errors.kind(game) == "interrupt" then error(game, 0) end   -- Ctrl-C: as it is
    -- an error value that says which game of which setup failed, for the
    -- command line's "Reproduce it alone" (repl/lab.lua)
    errors.raise(errors.of_script(game), string.format("game %d (seed %d): %s", i, gseed, tostring(game)),
      { game = i, seed = gseed, why = tostring(game), run_seed = seed, setup = info.label,
        unpaired_b = opts.unpaired_b or nil, limit = errors.is(game) and rawget(game, "limit") or nil }, 0)
  end
  local res = game:result()
  local P = info.players
  local W = win_scale(P)
  -- the values' table, sized for the moves and the keys below: win_rate.S,
  -- score.S, won.S, stat.NAME and 9 more at most
  local mv, finish = moves.of_game(game, 3 * P + #info.stats + 9)
  local v = mv and mv.values or {}
  -- a game may end with no winner (Caribbean's C9): no seat's win counts
  local share = #res.winners > 0 and win_share(W, #res.winners) or 0
  local K = SEAT_KEYS[P]
  for s = 1, P do
    v[K.win[s]] = 0
    v[K.score[s]] = whole(res.scores[s], 1)
  end
  for _, w in ipairs(res.winners) do
    v[K.win[w]] = share
    v[K.won[w]] = 1
  end
  if #res.winners > 1 then v.shared = 1 end
  if #res.winners == 0 then v.no_winner = 1 end
  v.turns = res.turns
  local steps = game:step_count()
  v.steps = steps
  v.first_player = v[K.win[info.drawn_first and moves.first_turn(game) or info.first]] - win_share(W, P)
  local counted = game:stats()
  if next(counted) ~= nil then
    local declared = L.R.stats or {}
    for name in pairs(counted) do
      if not declared[name] then
        error(string.format("game %d: g:stat counts '%s', which %s does not declare in R.stats", i, name, info.rules), 0)
      end
    end
  end
  local st = {}
  for _, name in ipairs(info.stats) do
    st[name] = counted[name] or 0
    v[STAT_KEYS[name]] = whole(st[name], 1)
  end
  if finish then
    local t = finish(res.scores, res.winners)
    v.lead_changes = t.lead_changes
    v.decided = whole(t.decided, FRACTION)
    v.margin = whole(t.margin, 1)
  end
  if mv then
    v.branching = mv.decisions > 0 and whole(mv.options / mv.decisions, FRACTION) or 0
    v.forced = mv.decisions > 0 and whole(mv.single / mv.decisions, FRACTION) or 0
    moves.values(mv, v)
  end
  local rec = { scores = res.scores, winners = res.winners, turns = res.turns, steps = steps,
                stats = st, game = i, seed = gseed }
  return v, rec
end

-- The keys counted by value too (the report's histograms).
function M.hist_keys(info)
  local keys = { "turns", "lead_changes" }
  for s = 1, info.players do keys[#keys + 1] = "score." .. s end
  return keys
end

-- Plays games lo..hi of a run with `seed`; returns data: per-game lists
-- (scores, wins, turns, steps, stats; vals: each game's values) and acc,
-- their running sums. opts: { cov = coverage recorder, progress =
-- function(games_done), unpaired_b = bool }.
function M.play(L, seed, lo, hi, opts)
  opts = opts or {}
  local info = L.info
  local d = new_data(info)
  d.lo, d.hi = lo, hi
  d.acc = stats.acc()
  local hk = M.hist_keys(info)
  local W = win_scale(info.players)
  local progress = opts.progress
  for i = lo, hi do
    local v, rec = M.play_game(L, seed, i, opts)
    local j = i - lo + 1
    for s = 1, info.players do
      d.scores[s][j] = rec.scores[s]
      d.wins[s][j] = v["win_rate." .. s] / W
    end
    d.turns[j], d.steps[j] = rec.turns, rec.steps
    for _, name in ipairs(info.stats) do d.stats[name][j] = rec.stats[name] end
    d.vals[j] = v
    stats.add(d.acc, v, hk)
    if progress then progress(j) end
  end
  return d
end

---------------------------------------------------------------------------
-- Measures and summaries
---------------------------------------------------------------------------

-- The sums of some games: a data's acc, or the acc itself.
local function acc_of(x)
  if x.acc then return x.acc end
  return x
end

-- The kinds of move (decision: kind) counted in any of the accs, sorted.
local function move_names(...)
  local set, list = {}, {}
  for _, a in ipairs { ... } do
    for k in pairs(a.sum) do
      local name = k:match("^share%.(.*)$")
      if name and not set[name] then set[name] = true; list[#list + 1] = name end
    end
  end
  table.sort(list)
  return list
end
M.move_names = move_names

-- The measures of a setup, in order: { key, label, scale, up, down,
-- section ("result", "tension", "moves"), seat (moves per seat), domain
-- ("share": 0..1, "count": never below 0; stats.acc_ci keeps an interval
-- inside it), diff_domain (the domain of a difference of two games'
-- values, where it is not `domain`'s) }.
-- `names`: the kinds of move to list (default: those of acc).
function M.measures(info, acc, names)
  local out = {}
  local P = info.players
  local W = win_scale(P)
  local function add(m) out[#out + 1] = m end
  for s = 1, P do
    add { key = "win_rate." .. s, label = "win rate, seat " .. s, scale = W, up = "higher", down = "lower", section = "result",
          domain = "share" }
  end
  for s = 1, P do
    add { key = "score." .. s, label = "mean score, seat " .. s, scale = 1, up = "higher", down = "lower", section = "result" }
  end
  add { key = "turns", label = "game length (turns)", scale = 1, up = "longer", down = "shorter", section = "result",
        domain = "count" }
  add { key = "first_player", label = info.drawn_first and "first-player advantage (who took the first turn)"
          or ("first-player advantage (seat " .. info.first .. ")"), scale = W,
        up = "larger", down = "smaller", section = "result",
        -- a game's value is a share less 1/players, not 0..1, but two
        -- games' values differ by -1 to 1, as two shares: a difference
        -- gets a share's interval (win rate, seat 1 and this one agreed
        -- to the last digit yet read [-0.1611, +0.1611] and [0, 0])
        diff_domain = "share" }
  for _, name in ipairs(info.stats) do
    add { key = "stat." .. name, label = name .. " per game", scale = 1, up = "more", down = "fewer", section = "result" }
  end
  add { key = "lead_changes", label = "lead changes", scale = 1, up = "more", down = "fewer", section = "tension",
        domain = "count" }
  add { key = "decided", label = "decided at (share of game)", scale = FRACTION, up = "later", down = "earlier",
        section = "tension", domain = "share" }
  add { key = "margin", label = "winning margin", scale = 1, up = "wider", down = "narrower", section = "tension" }
  if info.moves then
    add { key = "branching", label = "options per decision", scale = FRACTION, up = "more", down = "fewer", section = "tension" }
    add { key = "forced", label = "decisions with one option", scale = FRACTION, up = "more", down = "fewer",
          section = "tension", domain = "share" }
  end
  for _, name in ipairs(names or (acc and move_names(acc)) or {}) do
    add { key = "moves." .. name, label = name .. " per game", scale = 1, up = "more", down = "fewer",
          section = "moves", move = name, domain = "count" }
    add { key = "share." .. name, label = name .. ": share of games", scale = 1, up = "more", down = "fewer",
          section = "moves", move = name, share = true, domain = "share" }
    for s = 1, P do
      add { key = "moves." .. name .. " #" .. s, label = name .. ", seat " .. s, scale = 1, up = "more",
            down = "fewer", section = "moves", move = name, seat = s, domain = "count" }
    end
  end
  return out
end

-- Rounded for output: 6 decimals keep the JSON readable and exact enough.
local function r6(x)
  if x == nil then return nil end
  if math.type(x) == "integer" then return x end
  local v = math.floor(x * 1e6 + 0.5) / 1e6
  if v == math.floor(v) and math.abs(v) < 2^53 then return math.tointeger(v) end
  return v
end
M.round = r6

local function rci(ci) return ci and { r6(ci[1]), r6(ci[2]) } or nil end

local function whole_wins(info, acc)
  local wins = {}
  for s = 1, info.players do wins[s] = acc.sum["won." .. s] or 0 end
  return wins, acc.sum.shared or 0, acc.sum.no_winner or 0
end

-- The summary of one setup's games (kontor sim with the lab's flags): d
-- is M.play's data or a run's sums (stats.acc).
function M.summary(info, d, seed)
  local acc = acc_of(d)
  local order, measures = {}, {}
  for _, m in ipairs(M.measures(info, acc)) do
    local r = stats.acc_ci(acc, m.key, m.scale, m.domain)
    order[#order + 1] = m.key
    measures[m.key] = { label = m.label, mean = r6(r.mean), ci = rci(r.ci), section = m.section }
  end
  local wins, shared, no_winner = whole_wins(info, acc)
  local mean_score = {}
  for s = 1, info.players do mean_score[s] = r6((stats.acc_mean_var(acc, "score." .. s))) end
  return {
    kind = "sim", rules = info.rules, variants = info.variants, players = info.players,
    seats = info.seats, setup = info.label, games = acc.n, seed = seed,
    mean_turns = r6((stats.acc_mean_var(acc, "turns"))), mean_steps = r6((stats.acc_mean_var(acc, "steps"))),
    wins = wins, shared_wins = shared, no_winner = no_winner, mean_score = mean_score,
    measures = measures, order = order,
  }
end

-- The sums of the per-game differences b - a of two data of M.play.
local function pair_of(da, db)
  local p = stats.acc()
  for j = 1, math.min(#da.vals, #db.vals) do stats.add(p, stats.diff(da.vals[j], db.vals[j])) end
  return p
end

-- The comparison of two setups' games: for each measure A, B, B - A, its
-- 95% interval (paired unless `unpaired`: from `pair`, the sums of the
-- per-game differences, or from the data's per-game values) and a verdict
-- where the interval leaves out zero.
function M.compare(ia, da, ib, db, seed, unpaired, pair)
  local aa, ab = acc_of(da), acc_of(db)
  if not unpaired and not pair then pair = pair_of(da, db) end
  local names = move_names(aa, ab)
  local ma, mb = M.measures(ia, aa, names), M.measures(ib, ab, names)
  local byb = {}
  for _, m in ipairs(mb) do byb[m.key] = m end
  local order, measures, seen = {}, {}, {}
  local function add(key, a, b)
    local ra = a and stats.acc_mean_var(aa, key, a.scale)
    local rb = b and stats.acc_mean_var(ab, key, b.scale)
    local m = { label = (a or b).label, a = r6(ra), b = r6(rb), section = (a or b).section }
    if a and b and a.scale == b.scale then
      -- (one setup on both sides plays the same games: no difference, [0, 0])
      local r = unpaired and stats.acc_unpaired(aa, ab, key, a.scale, a.domain)
        or stats.acc_paired(pair, key, a.scale, ia.label ~= ib.label and (a.diff_domain or a.domain) or nil)
      m.diff, m.ci = r6(r.diff), rci(stats.diff_ci(r.ci, a.diff_domain or a.domain))
      m.verdict = stats.verdict(r.ci, a.up, a.down)
    end
    order[#order + 1] = key
    measures[key] = m
    seen[key] = true
  end
  for _, a in ipairs(ma) do add(a.key, a, byb[a.key]) end
  for _, b in ipairs(mb) do if not seen[b.key] then add(b.key, nil, b) end end
  return {
    kind = "compare", games = aa.n, seed = seed, paired = not unpaired,
    a = { setup = ia.label, rules = ia.rules, variants = ia.variants, players = ia.players, seats = ia.seats },
    b = { setup = ib.label, rules = ib.rules, variants = ib.variants, players = ib.players, seats = ib.seats },
    measures = measures, order = order,
  }
end

-- Whether a measure of a summary is one --until-width judges: the results
-- in shares of the games (the win rates and the first player's
-- advantage). Scores, length and a rule set's stats are in the rule set's
-- own units, which one width cannot judge alike (a width of 0.02 for the
-- win rates is one no mean score reaches in a million games).
function M.judged(key)
  return key:match("^win_rate%.") ~= nil or key == "first_player"
end

-- Whether every interval --until-width judges is narrower than `width`.
function M.narrow(summary, width)
  for _, key in ipairs(summary.order) do
    local ci = summary.measures[key].ci
    if M.judged(key) and (not ci or ci[2] - ci[1] >= width) then return false end
  end
  return true
end

---------------------------------------------------------------------------
-- Text
---------------------------------------------------------------------------

local num = stats.num   -- (the HTML report prints the same)

local function pad(s, w) return s .. string.rep(" ", w - #s) end
local function lpad(s, w) return string.rep(" ", w - #s) .. s end

-- Whether a measure is a row of the text tables: every measure but the
-- counts of a move per seat (in the JSON and the report).
local function shown(key) return not key:match("^moves%..* #%d+$") end

local function label_of(m) return (text.escape(m.label)) end

-- The width of the label column: 34, or the longest label shown.
local function group_of(m) return m.section == "moves" and "moves" or "measure" end

local function label_width(s, group)
  local w = 34
  for _, key in ipairs(s.order) do
    local m = s.measures[key]
    if shown(key) and group_of(m) == group then w = math.max(w, #label_of(m)) end
  end
  return w
end

function M.format_sim(s)
  local lines = {}
  local function add(...) lines[#lines + 1] = string.format(...) end
  local name = s.rules
  if #s.variants > 0 then name = name .. " + " .. table.concat(s.variants, " + ") end
  add("rules        %s", text.escape(name))
  -- (each seat's kind: the bots line below names each bot whole, its
  -- options and restrictions, which hold commas of their own)
  local kinds = {}
  for i, b in ipairs(s.seats) do kinds[i] = b:match("^[^:]*") end
  add("players      %d (%s)", s.players, table.concat(kinds, ", "))
  add("games        %d (seed %d)", s.games, s.seed)
  add("mean turns   %.2f (%.1f steps)", s.mean_turns, s.mean_steps)
  local w = {}
  for i = 1, s.players do w[i] = string.format("%d: %d", i, s.wins[i]) end
  local none = (s.no_winner or 0) > 0 and string.format(", %d without a winner", s.no_winner) or ""
  add("wins         %s (%s shared%s)", table.concat(w, "  "), text.count(s.shared_wins, "game"), none)
  local section
  local lw
  for _, key in ipairs(s.order) do
    local m = s.measures[key]
    local group = group_of(m)
    if group ~= section then
      section = group
      lw = label_width(s, group)
      add("")
      add("%s %s  %s", pad(group, lw), lpad("mean", 10), "95% interval")
    end
    if shown(key) then
      local ci = m.ci and string.format("[%s, %s]", num(m.ci[1]), num(m.ci[2])) or "-"
      add("%s %s  %s", pad(label_of(m), lw), lpad(num(m.mean), 10), ci)
    end
  end
  return table.concat(lines, "\n")
end

-- color: a function(text, verdict) -> a kontor.text raw piece, or nil for
-- plain text. The result is then raw too (the rest escaped): write it
-- through kontor.text.write.
function M.format_compare(c, color)
  local lines = {}
  local function add(...) lines[#lines + 1] = string.format(...) end
  add("games        %d %s (seed %d)", c.games, c.paired and "paired" or "unpaired", c.seed)
  add("A            %s", text.escape(c.a.setup))
  add("B            %s", text.escape(c.b.setup))
  local section
  local lw
  for _, key in ipairs(c.order) do
    local m = c.measures[key]
    local group = group_of(m)
    if group ~= section then
      section = group
      lw = label_width(c, group)
      add("")
      add("%s %s %s %s  %s  %s", pad(group, lw), lpad("A", 9), lpad("B", 9),
        lpad("B - A", 9), pad("95% interval", 21), "verdict")
    end
    if shown(key) then
      local ci = m.ci and string.format("[%s, %s]", num(m.ci[1], true), num(m.ci[2], true)) or "-"
      local v = m.verdict or ""
      local line = string.format("%s %s %s %s  %s  %s", pad(label_of(m), lw), lpad(num(m.a), 9),
        lpad(num(m.b), 9), lpad(num(m.diff, true), 9), pad(ci, 21), v)
      line = line:gsub("%s+$", "")
      -- a coloured verdict is a raw piece (kontor.text): the line around it
      -- is escaped when it is joined to it
      if color and m.verdict then line = line:sub(1, #line - #v) .. color(v, m.verdict) end
      lines[#lines + 1] = line
    end
  end
  if c.a.players ~= c.b.players then
    -- the rows with "-" and the "paired" of the first line need a word
    lines[#lines + 1] = ""
    lines[#lines + 1] = string.format("A plays %d players and B %d: a win rate and the first player's advantage "
      .. "are not compared across player counts (-), and the same seeds deal different games, so the pairs "
      .. "are no closer than two separate runs", c.a.players, c.b.players)
  end
  local joined = lines[1]
  for i = 2, #lines do joined = joined .. "\n" .. lines[i] end
  return joined
end

return M
