-- kontor.balance: the designer's balance lab (docs/balance.md).
--
-- A setup is a rule set with variants, options, a player count and a bot
-- per seat. Game i of a run with seed S starts from derive_seed(S, i), as in
-- kontor.sim, so two setups played with the same seed meet the same deals
-- (paired games), and any range of games can be played anywhere (shards,
-- jobs) and put back together exactly.
--
-- What a range of games leaves is `data`: one list per measure, one entry
-- per game, in game order. Summaries are computed from those lists only, so
-- a merged run and a single run give the same numbers to the last bit.

local core = require "kontor.core"
local gamemod = require "kontor.game"
local rules = require "kontor.rules"
local bots = require "kontor.bots"
local stats = require "kontor.balance.stats"

local M = {}

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
  local R, err = rules.load(setup.rules or "sea_merchants", setup.variants)
  if not R then error(err, 0) end
  local players = gamemod.players_for(R, setup.players)
  local options, oerr = rules.resolve_options(R, setup.options)
  if not options then error(oerr, 0) end
  local names = {}
  for i = 1, players do names[i] = "Player " .. i end
  local seats, any_bot = {}, false
  for seat, b in pairs(setup.bots or {}) do
    if math.type(seat) ~= "integer" or seat < 1 or seat > players then
      error(string.format("--bot %s=%s: there is no seat %s (the game has %d players)",
        tostring(seat), b.kind, tostring(seat), players), 0)
    end
    if not bots.KINDS[b.kind] then
      error(string.format("--bot %d=%s: unknown bot '%s' (bots: %s)", seat, b.kind, b.kind, bots.list()), 0)
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
        error(string.format("--bot %d=%s: the %s bot has no option '%s' (options: %s)", seat, b.kind,
          b.kind, k, #known > 0 and table.concat(known, ", ") or "none"), 0)
      end
    end
    any_bot = true
  end
  for s = 1, players do
    local b = setup.bots and setup.bots[s]
    seats[s] = b and b.kind or "random"
  end
  -- The first player: the rule set's first_player option where it has one.
  local first = 1
  if R.options.first_player and math.type(options.first_player) == "integer" then
    first = options.first_player
  end
  local variants = {}
  for i, v in ipairs(rules.given_variants(R)) do variants[i] = v[1] end
  return {
    R = R, setup = setup, players = players, options = options, names = names,
    bots = any_bot and setup.bots or nil,
    -- what summaries need, as plain data (kept in shard files)
    info = {
      rules = R.name, variants = variants, players = players, first = first,
      seats = seats, stats = declared_stats(R), stat_docs = R.stats or {},
      label = M.label(setup),
    },
  }
end

-- A setup as the options that give it ("--variant house --bot 1=random").
function M.label(setup)
  local parts = { "--rules " .. (setup.rules or "sea_merchants") }
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
  for _, s in ipairs(seats) do
    local b = setup.bots[s]
    local kv = {}
    for k, x in pairs(b.options or {}) do kv[#kv + 1] = k .. "=" .. tostring(x) end
    table.sort(kv)
    parts[#parts + 1] = string.format("--bot %d=%s%s", s, b.kind, #kv > 0 and (":" .. table.concat(kv, ",")) or "")
  end
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
  local d = { scores = {}, wins = {}, turns = {}, steps = {}, stats = {} }
  for s = 1, info.players do d.scores[s], d.wins[s] = {}, {} end
  for _, name in ipairs(info.stats) do d.stats[name] = {} end
  return d
end

-- Plays with the bots of the setup: each decision goes to its seat's bot.
local function play_with_bots(L, game, gseed, cov)
  local players = {}
  for s = 1, L.players do
    local b = L.bots[s]
    local bot, err = bots.new(b and b.kind or "random", s, gseed, b and b.options)
    if not bot then error(err, 0) end
    players[s] = bot
  end
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
    local k = players[seat]:choose(game, seat)
    game:step(seat, k)
    if cov then cov:step(name, select(2, game:step_at(game:step_count()))) end
  end
  error("the game did not end within 100000 steps", 0)
end

local function play_one(L, gseed, cov)
  local params = { rules = L.R.name, players = L.players, names = L.names, seed = gseed,
                   options = L.options }
  if not (L.bots or cov) then   -- no step texts: only the result is read
    return gamemod.playout(L.R, params, core.rng(derive(gseed, 0)), nil, false, true)
  end
  local game = gamemod.new(L.R, params, true)
  if cov then cov:game_start(game) end
  if L.bots then
    play_with_bots(L, game, gseed, cov)
  else
    -- a check forces the step-by-step driver, which plays the same game
    game:play_random(core.rng(derive(gseed, 0)), cov:checker(game))
  end
  return game
end

-- Plays games lo..hi of a run with `seed`; returns data. opts: { cov =
-- coverage recorder, progress = function(games_done), unpaired_b = bool }.
function M.play(L, seed, lo, hi, opts)
  opts = opts or {}
  local info = L.info
  local d = new_data(info)
  d.lo, d.hi = lo, hi
  local P, names = info.players, info.stats
  local declared = L.R.stats or {}
  local progress = opts.progress
  for i = lo, hi do
    local gseed = M.game_seed(seed, i, opts.unpaired_b)
    local ok, game = pcall(play_one, L, gseed, opts.cov)
    if not ok then error(string.format("game %d (seed %d): %s", i, gseed, tostring(game)), 0) end
    local res = game:result()
    local j = i - lo + 1
    local share = 1 / #res.winners
    for s = 1, P do
      d.scores[s][j] = res.scores[s]
      d.wins[s][j] = 0
    end
    for _, w in ipairs(res.winners) do d.wins[w][j] = share end
    d.turns[j] = res.turns
    d.steps[j] = game:step_count()
    local counted = game:stats()
    if next(counted) ~= nil then
      for name in pairs(counted) do
        if not declared[name] then
          error(string.format("game %d: g:stat counts '%s', which %s does not declare in R.stats", i, name, info.rules), 0)
        end
      end
    end
    for _, name in ipairs(names) do d.stats[name][j] = counted and counted[name] or 0 end
    if progress then progress(j) end
  end
  return d
end

-- Concatenates data of consecutive ranges (sorted by lo) into one.
function M.concat(info, parts)
  local d = new_data(info)
  local function append(dst, src) local n = #dst; for k = 1, #src do dst[n + k] = src[k] end end
  for _, p in ipairs(parts) do
    for s = 1, info.players do append(d.scores[s], p.scores[s]); append(d.wins[s], p.wins[s]) end
    append(d.turns, p.turns)
    append(d.steps, p.steps)
    for _, name in ipairs(info.stats) do append(d.stats[name], p.stats[name]) end
  end
  d.lo, d.hi = parts[1] and parts[1].lo or 1, parts[#parts] and parts[#parts].hi or 0
  return d
end

---------------------------------------------------------------------------
-- Measures and summaries
---------------------------------------------------------------------------

-- The measures of a setup, in order: { key, label, values, up, down }.
function M.measures(info, d)
  local out = {}
  local P = info.players
  for s = 1, P do
    out[#out + 1] = { key = "win_rate." .. s, label = "win rate, seat " .. s, values = d.wins[s],
                      up = "higher", down = "lower" }
  end
  for s = 1, P do
    out[#out + 1] = { key = "score." .. s, label = "mean score, seat " .. s, values = d.scores[s],
                      up = "higher", down = "lower" }
  end
  out[#out + 1] = { key = "turns", label = "game length (turns)", values = d.turns,
                    up = "longer", down = "shorter" }
  local first, adv = d.wins[info.first], {}
  for j = 1, #first do adv[j] = first[j] - 1 / P end
  out[#out + 1] = { key = "first_player", label = "first-player advantage (seat " .. info.first .. ")",
                    values = adv, up = "larger", down = "smaller" }
  for _, name in ipairs(info.stats) do
    out[#out + 1] = { key = "stat." .. name, label = name .. " per game", values = d.stats[name],
                      up = "more", down = "fewer" }
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

local function whole_wins(info, d)
  local wins, shared = {}, 0
  for s = 1, info.players do
    local n = 0
    for _, w in ipairs(d.wins[s]) do if w > 0 then n = n + 1 end end
    wins[s] = n
  end
  for j = 1, #d.turns do
    local k = 0
    for s = 1, info.players do if d.wins[s][j] > 0 then k = k + 1 end end
    if k > 1 then shared = shared + 1 end
  end
  return wins, shared
end

-- The summary of one setup's games (kontor sim with the lab's flags).
function M.summary(info, d, seed)
  local n = #d.turns
  local order, measures = {}, {}
  for _, m in ipairs(M.measures(info, d)) do
    local r = stats.mean_ci(m.values)
    order[#order + 1] = m.key
    measures[m.key] = { label = m.label, mean = r6(r.mean), ci = rci(r.ci) }
  end
  local wins, shared = whole_wins(info, d)
  local mean_score = {}
  for s = 1, info.players do mean_score[s] = r6(stats.mean_var(d.scores[s])) end
  return {
    kind = "sim", rules = info.rules, variants = info.variants, players = info.players,
    seats = info.seats, setup = info.label, games = n, seed = seed,
    mean_turns = r6(stats.mean_var(d.turns)), mean_steps = r6(stats.mean_var(d.steps)),
    wins = wins, shared_wins = shared, mean_score = mean_score,
    measures = measures, order = order,
  }
end

-- The comparison of two setups' games: for each measure A, B, B - A, its
-- 95% interval (paired unless `unpaired`) and a verdict where the interval
-- leaves out zero.
function M.compare(ia, da, ib, db, seed, unpaired)
  local ma, mb = M.measures(ia, da), M.measures(ib, db)
  local byb = {}
  for _, m in ipairs(mb) do byb[m.key] = m end
  local order, measures, seen = {}, {}, {}
  local function add(key, a, b)
    local ra = a and stats.mean_var(a.values)
    local rb = b and stats.mean_var(b.values)
    local m = { label = (a or b).label, a = r6(ra), b = r6(rb) }
    if a and b then
      local r = unpaired and stats.unpaired(a.values, b.values) or stats.paired(a.values, b.values)
      m.diff, m.ci = r6(r.diff), rci(r.ci)
      m.verdict = stats.verdict(r.ci, a.up, a.down)
    end
    order[#order + 1] = key
    measures[key] = m
    seen[key] = true
  end
  for _, a in ipairs(ma) do add(a.key, a, byb[a.key]) end
  for _, b in ipairs(mb) do if not seen[b.key] then add(b.key, nil, b) end end
  return {
    kind = "compare", games = #da.turns, seed = seed, paired = not unpaired,
    a = { setup = ia.label, rules = ia.rules, variants = ia.variants, players = ia.players, seats = ia.seats },
    b = { setup = ib.label, rules = ib.rules, variants = ib.variants, players = ib.players, seats = ib.seats },
    measures = measures, order = order,
  }
end

-- Whether every interval of a summary is narrower than `width`.
function M.narrow(summary, width)
  for _, key in ipairs(summary.order) do
    local ci = summary.measures[key].ci
    if not ci or ci[2] - ci[1] >= width then return false end
  end
  return true
end

---------------------------------------------------------------------------
-- Text
---------------------------------------------------------------------------

local function num(x, signed)
  if x == nil then return "-" end
  local s = string.format(signed and "%+.4f" or "%.4f", x)
  return s
end

local function pad(s, w) return s .. string.rep(" ", w - #s) end
local function lpad(s, w) return string.rep(" ", w - #s) .. s end

function M.format_sim(s)
  local lines = {}
  local function add(...) lines[#lines + 1] = string.format(...) end
  local name = s.rules
  if #s.variants > 0 then name = name .. " + " .. table.concat(s.variants, " + ") end
  add("rules        %s", name)
  add("players      %d (%s)", s.players, table.concat(s.seats, ", "))
  add("games        %d (seed %d)", s.games, s.seed)
  add("mean turns   %.2f (%.1f steps)", s.mean_turns, s.mean_steps)
  local w = {}
  for i = 1, s.players do w[i] = string.format("%d: %d", i, s.wins[i]) end
  add("wins         %s (%d games shared)", table.concat(w, "  "), s.shared_wins)
  add("")
  add("%s %s  %s", pad("measure", 34), lpad("mean", 10), "95% interval")
  for _, key in ipairs(s.order) do
    local m = s.measures[key]
    local ci = m.ci and string.format("[%s, %s]", num(m.ci[1]), num(m.ci[2])) or "-"
    add("%s %s  %s", pad(m.label, 34), lpad(num(m.mean), 10), ci)
  end
  return table.concat(lines, "\n")
end

-- color: a function(text, verdict) -> text, or nil for plain text.
function M.format_compare(c, color)
  local lines = {}
  local function add(...) lines[#lines + 1] = string.format(...) end
  add("games        %d %s (seed %d)", c.games, c.paired and "paired" or "unpaired", c.seed)
  add("A            %s", c.a.setup)
  add("B            %s", c.b.setup)
  add("")
  add("%s %s %s %s  %s  %s", pad("measure", 34), lpad("A", 9), lpad("B", 9), lpad("B - A", 9),
    pad("95% interval", 21), "verdict")
  for _, key in ipairs(c.order) do
    local m = c.measures[key]
    local ci = m.ci and string.format("[%s, %s]", num(m.ci[1], true), num(m.ci[2], true)) or "-"
    local v = m.verdict or ""
    if color and m.verdict then v = color(v, m.verdict) end
    local line = string.format("%s %s %s %s  %s  %s", pad(m.label, 34), lpad(num(m.a), 9),
      lpad(num(m.b), 9), lpad(num(m.diff, true), 9), pad(ci, 21), v)
    add("%s", (line:gsub("%s+$", "")))
  end
  return table.concat(lines, "\n")
end

return M
