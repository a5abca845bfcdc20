-- kontor.balance.run: playing a run's games here or in child processes,
-- shard files, and merging them.
--
-- A run is one setup or more (sim, compare, sweep) played over games 1..G
-- of a seed, each side's game i paired with side 1's. Games lo..hi can be
-- played by any process: `--range lo-hi` (and `--shard K/N`, which names a
-- range) prints a shard: the sums of that range's measures per side and of
-- the paired differences, as JSON (a shard run by hand keeps its games too,
-- for merge --games-out). The parent of `--jobs N` starts N children on N
-- consecutive ranges and adds their sums, which are exactly the sums one
-- process would have made. Every shard, a job's or a file's, passes
-- M.check_shard before its sums are added; every file goes through
-- kontor.files (whole or not at all).

local core = require "kontor.core"
local balance = require "kontor.balance"
local coverage = require "kontor.balance.coverage"
local errors = require "kontor.errors"

local json = core.json
local M = {}

M.CHECK_EVERY = 1000   -- --until-width looks at the intervals every this many games

-- Games of shard k of n over games 1..g: a consecutive range.
function M.shard_range(k, n, g)
  local lo = (k - 1) * g // n + 1
  local hi = k * g // n
  return lo, hi
end

function M.cores()
  local p = io.popen("nproc 2>/dev/null")
  local n = p and p:read("n")
  if p then p:close() end
  n = math.tointeger(n)
  if n and n >= 1 then return n end
  local f = io.open("/proc/cpuinfo")
  if not f then return 1 end
  local c = 0
  for l in f:lines() do if l:match("^processor%s*:") then c = c + 1 end end
  f:close()
  return math.max(c, 1)
end

local function quote(s)
  return "'" .. s:gsub("'", "'\\''") .. "'"
end

-- job: { sides = { L_a [, L_b] }, seed, unpaired, coverage = bool,
--        child = { program, args... } (for jobs > 1), jobs,
--        progress = function(done, total) or nil, games_out = writer or nil }
-- state: { acc = { acc per side }, pairs = { [s] = acc of side s - side 1 }
--          (paired runs of two sides or more),
--          rec = { coverage recorders }, cov = { coverage data } }
-- Only sums are kept: the memory of a run does not grow with its games.

local stats = require "kontor.balance.stats"

local function play_here(job, state, lo, hi, done0, total)
  local nsides = #job.sides
  local hk = state.hist_keys
  local paired = nsides >= 2 and not job.unpaired
  local done = done0
  for i = lo, hi do
    local va, ga
    for s, L in ipairs(job.sides) do
      local cov = nil
      if job.coverage then
        state.rec[s] = state.rec[s] or coverage.new(L)
        cov = state.rec[s]
      end
      local v, rec, game = balance.play_game(L, job.seed, i, { cov = cov, unpaired_b = job.unpaired and s == 2 })
      stats.add(state.acc[s], v, hk[s])
      if job.games_out then job.games_out:game(s, L.info, rec) end
      if job.kept then job.kept:game(s, L.info, rec) end
      if paired then
        if s == 1 then
          va, ga = v, game
        else
          -- "same": 1 where the two sides played the same game (compare
          -- says in how many pairs they did)
          local d = stats.diff(va, v)
          if balance.same_game(va, ga, v, game, L.info.label == job.sides[1].info.label) then d.same = 1 end
          stats.add(state.pairs[s], d)
        end
      end
      done = done + 1
      if job.progress and done % 25 == 0 then job.progress(done, total) end
    end
  end
  return done
end

-- The error a failed job printed as "failed {message, kind, fields}":
-- an error value as the job had it (nil for none, or a line not of one).
local function job_error(line)
  local ok, e = pcall(json.decode, line or "")
  if not ok or type(e) ~= "table" or type(e.message) ~= "string" then return nil end
  local kind = errors.KINDS[e.kind] and e.kind or "rules"
  return errors.new(kind, e.message, type(e.fields) == "table" and e.fields or nil)
end

-- Runs child jobs (shell command lines, each printing "progress D" lines
-- and then one line of JSON, its shard) all at once, and waits for every
-- one, whatever happened to the one before (a child still running would
-- write its part after the parent gave up). sizes[j]: what job j plays
-- (games), for progress(done), an estimate; take(shard, "job j of n")
-- checks and adds a shard (nil when its line was not JSON).
function M.children(cmds, sizes, progress, take)
  local procs, n = {}, #cmds
  for j, cmd in ipairs(cmds) do
    local p, pe = io.popen(cmd, "r")
    if not p then error("cannot start a job: " .. tostring(pe), 0) end
    procs[j] = p
  end
  local finished, failed = 0, nil
  for j, p in ipairs(procs) do
    local body, said
    for l in p:lines() do
      local d = l:match("^progress (%d+)$")
      local f = not d and l:match("^failed (.*)$")
      if d then
        -- the jobs still running are about as far as this one
        if progress then progress(finished + tonumber(d) * (n - j + 1)) end
      elseif f then
        said = f
      else
        body = l
      end
    end
    local okc, why, code = p:close()
    if not okc then
      -- what the job said went wrong (repl/lab.lua), as its own error
      failed = failed or job_error(said)
        or string.format("job %d of %d failed (%s %s)", j, n, tostring(why), tostring(code))
    elseif not failed then
      local okd, part = pcall(json.decode, body or "")
      local okk, ke = pcall(take, okd and part or nil, string.format("job %d of %d", j, n), j)
      if not okk then failed = tostring(ke) end
    end
    finished = finished + sizes[j]
  end
  if failed then error(failed, 0) end
  return finished
end

local function play_children(job, state, lo, hi, done0, total)
  local n = math.min(job.jobs, hi - lo + 1)
  local cmds, sizes, parts = {}, {}, {}
  for k = 1, n do
    local a, b = M.shard_range(k, n, hi - lo + 1)
    local cmd = {}
    for i, x in ipairs(job.child) do cmd[i] = quote(x) end
    cmd[#cmd + 1] = "--range"
    cmd[#cmd + 1] = string.format("%d-%d", lo + a - 1, lo + b - 1)
    if job.games_out then
      parts[k] = job.games_out:part(k)
      cmd[#cmd + 1] = "--games-out"
      cmd[#cmd + 1] = quote(parts[k])
    end
    cmds[k] = "KONTOR_LAB_PROGRESS=1 KONTOR_LAB_PART=1 " .. table.concat(cmd, " ")
    sizes[k] = (b - a + 1) * #job.sides
  end
  local progress = job.progress and function(done) job.progress(math.min(done0 + done, total), total) end
  return done0 + M.children(cmds, sizes, progress, function(shard, name, k)
    M.check_shard(shard, name)
    M.add_shard(job, state, shard)
    if parts[k] then job.games_out:take(parts[k]) end
  end)
end

-- Plays games lo..hi of the job into state, here or in children.
function M.play_range(job, state, lo, hi, done0, total)
  if (job.jobs or 1) > 1 and job.child and hi > lo then
    return play_children(job, state, lo, hi, done0, total)
  end
  return play_here(job, state, lo, hi, done0, total)
end

function M.new_state(job)
  local state = { acc = {}, rec = {}, cov = {}, hist_keys = {} }
  for s, L in ipairs(job.sides) do
    state.acc[s] = stats.acc()
    state.hist_keys[s] = balance.hist_keys(L.info)
  end
  if #job.sides >= 2 and not job.unpaired then
    state.pairs = {}
    for s = 2, #job.sides do state.pairs[s] = stats.acc() end
  end
  return state
end

-- The sums (and coverage) a shard holds, added to state.
function M.add_shard(job, state, shard)
  for s = 1, #job.sides do
    stats.merge(state.acc[s], M.fix_acc(shard.sides[s].acc))
    if job.coverage then state.cov[s] = coverage.add(state.cov[s], shard.sides[s].coverage) end
  end
  if state.pairs then
    for s = 2, #job.sides do stats.merge(state.pairs[s], M.fix_acc(shard.pairs and shard.pairs[s - 1])) end
  end
end

-- The sums and coverage of each side so far; the sums of the differences.
function M.collect(job, state)
  local out = {}
  for s, L in ipairs(job.sides) do
    local cov = state.cov[s]
    if state.rec[s] then cov = coverage.add(cov and cov or nil, state.rec[s]:data()) end
    out[s] = { info = L.info, data = state.acc[s], coverage = cov }
  end
  return out, state.pairs
end

-- The summary of sides (a list of { info, data, coverage }); diffs: the
-- sums of the differences of each side from side 1; sweep: { over, values }.
function M.summarize(kind, sides, seed, unpaired, diffs, sweep)
  local s
  if kind == "compare" then
    s = balance.compare(sides[1].info, sides[1].data, sides[2].info, sides[2].data, seed, unpaired, diffs and diffs[2])
  elseif kind == "sweep" then
    s = require("kontor.balance.sweep").summary(sides, diffs, seed, sweep)
  else
    s = balance.summary(sides[1].info, sides[1].data, seed)
  end
  if sides[1].coverage then
    s.coverage = {}
    for i, side in ipairs(sides) do s.coverage[i] = side.coverage end
  end
  return s
end

-- Runs a whole job over games 1..games; with until_width, stops at the
-- first check where every interval is narrower. Returns the sides and
-- the sums of the differences.
function M.run(job, kind, games, until_width)
  local state = M.new_state(job)
  local total = games * #job.sides
  local played, done = 0, 0
  while played < games do
    local step = until_width and M.CHECK_EVERY or games
    local hi = math.min(games, played + step)
    done = M.play_range(job, state, played + 1, hi, done, total)
    played = hi
    if until_width and played < games then
      local sides, diffs = M.collect(job, state)
      if balance.narrow(M.summarize(kind, sides, job.seed, job.unpaired, diffs, job.sweep), until_width) then break end
    end
  end
  if job.progress then job.progress(done, done) end
  return M.collect(job, state)
end

---------------------------------------------------------------------------
-- Shard files
---------------------------------------------------------------------------

-- The shard object of games lo..hi: what `--shard`/`--range` print (the
-- sums of its games, not the games).
function M.shard(kind, job, sides, games, lo, hi, diffs)
  local out = { kontor = "shard", version = 2, kind = kind, seed = job.seed, games = games, lo = lo, hi = hi,
                unpaired = job.unpaired or false, coverage = job.coverage or false, sides = {},
                sweep = job.sweep }
  if diffs then
    local list = {}          -- JSON: a list from side 2 on (side 1 has none)
    for s = 2, #sides do list[s - 1] = stats.to_json(diffs[s]) end
    out.pairs = list
  end
  for s, side in ipairs(sides) do
    out.sides[s] = { info = side.info, acc = stats.to_json(side.data), coverage = side.coverage,
                     games = job.kept and job.kept.games[s] or nil }
  end
  return out
end

-- The sums of a shard as JSON gave them back.
M.fix_acc = stats.from_json

local function fix_info(info)
  local function list(t) if type(t) ~= "table" or next(t) == nil then return {} end return t end
  info.stats = list(info.stats)
  info.variants = list(info.variants)
  return info
end

-- What must agree between shards of one run.
local function run_key(sh)
  local parts = { sh.kind, tostring(sh.seed), tostring(sh.games), tostring(sh.unpaired), tostring(sh.coverage) }
  for _, side in ipairs(sh.sides) do
    parts[#parts + 1] = side.info.label .. tostring(side.info.moves) .. tostring(side.info.drawn_first)
  end
  return table.concat(parts, "\0")
end

-- What of shard b's run differs from shard a's (run_key's parts), in words.
local function run_difference(a, b)
  if a.kind ~= b.kind then return string.format("it is of kontor %s, shard 1 of kontor %s", b.kind, a.kind) end
  if a.seed ~= b.seed then return string.format("its seed is %s, shard 1's %s", tostring(b.seed), tostring(a.seed)) end
  if a.games ~= b.games then return string.format("it is of a run of %d games, shard 1 of %d", b.games, a.games) end
  for _, f in ipairs { "unpaired", "coverage" } do
    if (a[f] or false) ~= (b[f] or false) then
      return string.format("one was made with --%s, the other without", f)
    end
  end
  if #a.sides ~= #b.sides then return string.format("it has %d setups, shard 1 %d", #b.sides, #a.sides) end
  for s, side in ipairs(a.sides) do
    local x, y = side.info, b.sides[s].info
    if x.label ~= y.label then return string.format("its setup is %s, shard 1's %s", y.label, x.label) end
    if tostring(x.moves) ~= tostring(y.moves) then return "one counts the kinds of move, the other not (--no-moves)" end
  end
  return "setup, seed, games or coverage differ"
end

-- The first of `parts` ({ word, value of the first shard, value of this
-- one }) whose values differ, as "its WORD is B, not A" (nil if none).
function M.differs(parts)
  for _, p in ipairs(parts) do
    if p[2] ~= p[3] then return string.format("its %s is %s, not %s", p[1], tostring(p[3]), tostring(p[2])) end
  end
end

-- Whether shards a and b measure the first player alike: by a fixed seat,
-- or by who took the first turn where the rule set draws it (a shard of
-- a kontor before that measure has no `drawn_first`).
local function first_alike(a, b)
  for s, side in ipairs(a.sides) do
    local other = b.sides[s]
    if other and (side.info.drawn_first or false) ~= (other.info.drawn_first or false) then return false end
  end
  return true
end

-- Where a shard came from: "file:line" (read_shards), else "shard i".
local function where(sh, i)
  if type(sh) == "table" and rawget(sh, "_where") then return rawget(sh, "_where") end
  return type(i) == "string" and i or string.format("shard %d", i)
end

local function is_int(x) return math.type(x) == "integer" end
local function is_num(x) return type(x) == "number" and x == x and x > -math.huge and x < math.huge end

local function fail(...) error(string.format(...), 0) end
-- (redteam3) What a shard may claim: integer sums of at most 2^62, so
-- that two add up without overflow (an integer sum near 2^63 wrapped to a
-- negative "options per decision"; the lab's own sums go on as floats
-- past 2^62, stats.plus); floating-point sums of at most 2^1000, so that
-- the sums of any number of shards stay finite; at most 2^31 games.
local EXACT, FLOATS, MAX_GAMES = 2.0 ^ 62, 2.0 ^ 1000, require("kontor.sim").MAX_GAMES
M.EXACT, M.FLOATS, M.MAX_GAMES = EXACT, FLOATS, MAX_GAMES

-- v is not a sum a shard may claim: "2^62" or "2^1000", the bound it passes.
local function beyond(v)
  if math.type(v) == "integer" then return math.abs(v) > EXACT and "2^62" end
  return math.abs(v) > FLOATS and "2^1000"
end
local function games_of(n) return require("kontor.text").count(n, "game") end

-- t must be a JSON object (a Lua table whose keys are texts; {} and []
-- both come back as an empty table).
local function object(t, what)
  if type(t) ~= "table" then fail("%s is missing", what) end
  for k in pairs(t) do
    if type(k) ~= "string" then fail("%s is not an object of names", what) end
  end
  return t
end

-- t must be a list of exactly n entries (JSON gives {} for an empty one);
-- each passes ok(v) when it is given.
local function list_of(t, n, what, ok, want)
  if type(t) ~= "table" then fail("%s is missing", what) end
  local len = 0
  for k in pairs(t) do
    if not is_int(k) or k < 1 then fail("%s is not a list", what) end
    if k > len then len = k end
  end
  if n and len ~= n then fail("%s: %d given, %d expected", what, len, n) end
  for j = 1, len do
    if ok and not ok(t[j]) then fail("%s: entry %d is not %s", what, j, want) end
  end
  return len
end

M.list_of = list_of

local function is_text(x) return type(x) == "string" end

-- The measure keys whose sums count games (never below zero, at most one
-- a game: `won.S`, `shared`, `no_winner`) or steps of them (never below zero).
-- `share.K` (a game has it or not) counts games too; `decided` and
-- `forced` are shares of a game in 1000ths ("fraction": 0..1000 a game).
local function count_key(key)
  if key == "shared" or key == "no_winner" or key:match("^won%.%d+$") or key:match("^share%.") then
    return "games"
  end
  if key == "decided" or key == "forced" then return "fraction" end
  if key == "turns" or key == "steps" or key:match("^win_rate%.%d+$") or key:match("^moves%.")
      or key == "lead_changes" or key == "branching" then
    return "count"
  end
  return nil
end

-- The sums of one side (or of its differences, `diff`) of a shard of n
-- games: n games, finite sums, sums of squares not below zero, counts by
-- value adding up to n and to the sum.
local function check_acc(a, n, what, diff)
  if type(a) ~= "table" then fail("%s: the sums are missing", what) end
  if not is_int(a.n) or a.n < 0 then fail("%s: \"n\" (its games) must be a whole number", what) end
  if a.n ~= n then fail("%s: the sums are of %s, the shard claims %d", what, games_of(a.n), n) end
  local sum, sq = object(a.sum, what .. ": \"sum\""), object(a.sq, what .. ": \"sq\"")
  for k, v in pairs(sum) do
    if not is_num(v) then fail("%s: the sum of %s is not a finite number", what, k) end
    if beyond(v) then fail("%s: the sum of %s is %s, beyond %s", what, k, tostring(v), beyond(v)) end
    if sq[k] == nil then fail("%s: %s has a sum and no sum of squares", what, k) end
    local c = not diff and count_key(k)
    if c and v < 0 then fail("%s: the sum of %s is %s, below 0", what, k, tostring(v)) end
    if c == "games" and v > n then fail("%s: %s counts %s of the %s", what, k, tostring(v), games_of(n)) end
    if c == "fraction" and v > n * 1000 then
      fail("%s: %s is %s, more than 1000 (a whole game) in each of the %s", what, k, tostring(v), games_of(n))
    end
  end
  for k, v in pairs(sq) do
    if not is_num(v) then fail("%s: the sum of squares of %s is not a finite number", what, k) end
    if v < 0 then fail("%s: the sum of squares of %s is %s, below 0", what, k, tostring(v)) end
    if beyond(v) then fail("%s: the sum of squares of %s is %s, beyond %s", what, k, tostring(v), beyond(v)) end
    if sum[k] == nil then fail("%s: %s has a sum of squares and no sum", what, k) end
  end
  for k, h in pairs(object(a.hist == nil and {} or a.hist, what .. ": \"hist\"")) do
    local games, total = 0, 0
    for v, c in pairs(object(h, string.format("%s: the counts of %s", what, k))) do
      local x = tonumber(v)
      if not is_num(x) then fail("%s: the counts of %s: '%s' is not a number", what, k, v) end
      if not is_int(c) or c < 0 then
        fail("%s: the counts of %s: %s games have %s, not a count", what, k, tostring(c), v)
      end
      games, total = games + c, total + x * c
    end
    if games ~= n then fail("%s: the counts of %s add up to %s, the shard claims %d", what, k, games_of(games), n) end
    local s = sum[k] or 0
    if math.abs(total - s) > 1e-9 * math.max(1, math.abs(s)) then
      fail("%s: the counts of %s add up to %s, its sum is %s", what, k, tostring(total), tostring(s))
    end
  end
end

-- n games whose values add up to s have squares adding up to s^2 / n or
-- more (a smaller sum of squares made a zero-width interval: a false
-- certainty). After the other checks, whose messages say more.
local function check_spread(a, n, what)
  for k, v in pairs(a.sq) do
    local s = a.sum[k] + 0.0
    if n > 0 and s * s > n * (v + 0.0) * (1 + 1e-9) + 1e-6 then
      fail("%s: the sum of squares of %s is %s, less than %s adding up to %s can have", what, k,
        tostring(v), games_of(n), tostring(a.sum[k]))
    end
  end
end

-- The win measures of one side (or its differences, `diff`) of n games at
-- win scale W and P seats: a game's win_rate.S is 0..W (a difference
-- -W..W) and its first_player W/P less, so each sum is within n W and each
-- sum of squares within W times the sum (n W^2 for a difference or
-- first_player). (Red team 4: a sum of squares of 2^1000 for seat 1's
-- wins moved its interval, a first_player of -2^400 printed a 121-digit
-- advantage.) Floats: compared with a margin of 1e-9.
local function check_wins(a, n, W, P, what, diff)
  local nW, WW = (n + 0.0) * W, (W + 0.0) * W
  local function within(v, hi) return v <= hi * (1 + 1e-9) end
  for k, v in pairs(a.sum) do
    local seat = k:match("^win_rate%.(%d+)$")
    if seat or k == "first_player" then
      local sq = a.sq[k]
      local low = diff and -nW or seat and 0 or -nW / P
      if v < low * (1 + 1e-9) or not within(v, nW) then
        fail("%s: the sum of %s is %s, outside what %s can have (%s to %s)", what, k, tostring(v), games_of(n),
          string.format("%.17g", low), string.format("%.17g", nW))
      end
      local most = (diff or not seat) and n * WW or W * (v + 0.0)
      if not within(sq, most) then
        fail("%s: the sum of squares of %s is %s, more than %s adding up to %s can have", what, k,
          tostring(sq), games_of(n), tostring(v))
      end
    end
  end
end

local function check_info(info, what)
  if type(info) ~= "table" then fail("%s has no info", what) end
  local P = info.players
  if not is_int(P) or P < 1 then fail("%s: \"players\" is not a seat count", what) end
  if not is_text(info.label) or not is_text(info.rules) then fail("%s: \"label\" and \"rules\" must be texts", what) end
  list_of(info.seats, P, what .. ": \"seats\"", is_text, "a bot's name")
  list_of(info.variants == nil and {} or info.variants, nil, what .. ": \"variants\"", is_text, "a name")
  list_of(info.stats == nil and {} or info.stats, nil, what .. ": \"stats\"",
    function(x) return is_text(x) and x:match("^[%a_][%w_]*$") ~= nil end, "a stat's name")
  if info.first ~= nil and (not is_int(info.first) or info.first < 1 or info.first > P) then
    fail("%s: \"first\" is not a seat", what)
  end
  return P
end

-- What the shards of worth and ladder share, checked in this order: a
-- kontor shard of version 2 (`old`: what the message says an older one
-- held), of `kind`, with a range lo..hi of 1..sh[count] ("games" or
-- "deals"), a seed, and the setup (`info`: rules, variants, label,
-- players). Raises the first thing wrong, without the shard's name.
function M.check_head(sh, kind, count, old)
  if type(sh) ~= "table" or sh.kontor ~= "shard" then fail("not a kontor shard (made by --shard K/N)") end
  if sh.version ~= 2 then fail("made by an older kontor (%s): make it again", old) end
  if sh.kind ~= kind then fail("a %s shard, not one of kontor %s", tostring(sh.kind), kind) end
  local n = sh[count]
  if not (is_int(n) and is_int(sh.lo) and is_int(sh.hi)) then
    fail("\"%s\", \"lo\" and \"hi\" must be whole numbers", count)
  end
  if n < 1 or sh.lo < 1 or sh.hi > n or sh.hi < sh.lo - 1 then
    fail("%s %d-%d are not a range of %s 1-%d", count, sh.lo, sh.hi, count, n)
  end
  if n > MAX_GAMES then fail("a run of %d %s, more than %d", n, count, MAX_GAMES) end
  if not is_int(sh.seed) then fail("\"seed\" must be a whole number") end
  local info = sh.info
  if type(info) ~= "table" then fail("it has no \"info\" (the setup)") end
  if not is_int(info.players) or info.players < 1 then fail("\"info\": \"players\" is not a seat count") end
  if not is_text(info.label) or not is_text(info.rules) then fail("\"info\": \"label\" and \"rules\" must be texts") end
  list_of(info.variants, nil, "\"info\": \"variants\"", is_text, "a variant's name")
end

M.where = where

-- Checks one shard before anything merges it: its version and range, and
-- each side's sums: of as many games as the shard claims, finite, counts
-- not below zero, wins that add up to one a game. Raises
-- "file:line: what is wrong" (`name` stands for the file:line otherwise).
function M.check_shard(sh, name)
  local ok, e = pcall(function()
    if type(sh) ~= "table" or sh.kontor ~= "shard" then fail("not a kontor shard (made by --shard K/N)") end
    if sh.version ~= 2 then
      fail("made by an older kontor (its games, not their sums): make it again")
    end
    if not (is_int(sh.games) and is_int(sh.lo) and is_int(sh.hi)) then
      fail("\"games\", \"lo\" and \"hi\" must be whole numbers")
    end
    if sh.games < 1 or sh.lo < 1 or sh.hi > sh.games or sh.hi < sh.lo - 1 then
      fail("games %d-%d are not a range of games 1-%d", sh.lo, sh.hi, sh.games)
    end
    if sh.games > MAX_GAMES then fail("a run of %d games, more than %d", sh.games, MAX_GAMES) end
    if not is_int(sh.seed) then fail("\"seed\" must be a whole number") end
    local kinds = { sim = 1, compare = 2, sweep = 2 }
    local want = kinds[sh.kind]
    if not want then fail("\"kind\" must be \"sim\", \"compare\" or \"sweep\"") end
    if type(sh.sides) ~= "table" then fail("it has no sides") end
    local nsides = list_of(sh.sides, nil, "\"sides\"")
    if sh.kind == "sweep" then
      if nsides < 2 then fail("a sweep shard has %d sides, not 2 or more", nsides) end
      if type(sh.sweep) ~= "table" or not is_text(sh.sweep.over) then fail("a sweep shard says not what it sweeps") end
      list_of(sh.sweep.values, nsides, "the sweep's values", is_text, "a value")
    elseif nsides ~= want then
      fail("a %s shard has %d side%s, not %d", sh.kind, want, want == 1 and "" or "s", nsides)
    end
    local n = sh.hi - sh.lo + 1
    for s, side in ipairs(sh.sides) do
      local what = string.format("side %d", s)
      if type(side) ~= "table" then fail("%s is not an object", what) end
      local P = check_info(side.info, what)
      check_acc(side.acc, n, what)
      local sum, W = side.acc.sum, balance.win_scale(P)
      -- n W, and the wins in W: exact integers within 2^62 (then the wins
      -- must add up to n W exactly), else floats, which must agree to 1e-9
      local nW, wins = stats.plus(0, W <= EXACT // n and n * W or (n + 0.0) * W), 0
      for seat = 1, P do
        local w = sum["win_rate." .. seat] or 0
        if w > nW then fail("%s: seat %d won more than the %s", what, seat, games_of(n)) end
        wins = stats.plus(wins, w)
      end
      -- a game without a winner (Caribbean's C9) counts no win
      local none = sum.no_winner or 0
      wins = stats.plus(wins, W <= EXACT // math.max(1, none) and none * W or (none + 0.0) * W)
      local exact = math.type(wins) == "integer" and math.type(nW) == "integer"
      if (exact and wins ~= nW) or (not exact and math.abs(wins - nW) > 1e-9 * nW) then
        fail("%s: the wins add up to %s games, not the %s of the shard", what,
          string.format("%g", wins / W), games_of(n))
      end
      if sh.coverage == true then object(side.coverage, what .. ": the coverage") end
      if side.games ~= nil then
        list_of(side.games, n, what .. ": the games kept", function(x) return type(x) == "table" end, "a game")
      elseif rawget(side, "_games_kept") and side._games_kept ~= n then
        fail("%s: the games kept: %d given, %d expected", what, side._games_kept, n)
      end
    end
    if nsides >= 2 and sh.unpaired ~= true then
      list_of(sh.pairs, nsides - 1, "\"pairs\" (the differences of paired games)")
      for s = 2, nsides do check_acc(sh.pairs[s - 1], n, string.format("the differences of side %d", s), true) end
    end
    for s, side in ipairs(sh.sides) do
      local P = side.info.players
      check_wins(side.acc, n, balance.win_scale(P), P, string.format("side %d", s))
    end
    if nsides >= 2 and sh.unpaired ~= true then
      -- (sweep --over players pairs sides of other seat counts: a
      -- difference is within the larger scale)
      local P1 = sh.sides[1].info.players
      for s = 2, nsides do
        local Ps = sh.sides[s].info.players
        local W1, Ws = balance.win_scale(P1), balance.win_scale(Ps)
        check_wins(sh.pairs[s - 1], n, W1 > Ws and W1 or Ws, math.max(P1, Ps),
          string.format("the differences of side %d", s), true)
      end
    end
    for s, side in ipairs(sh.sides) do check_spread(side.acc, n, string.format("side %d", s)) end
    if nsides >= 2 and sh.unpaired ~= true then
      for s = 2, nsides do check_spread(sh.pairs[s - 1], n, string.format("the differences of side %d", s)) end
    end
  end)
  if not ok then error(where(sh, name) .. ": " .. tostring(e), 0) end
end

-- The part every merge shares: at least one shard, each passing
-- check(sh, i), all of one run (key_of gives the same text; otherwise
-- error with other(i), the message for shard i), and together covering
-- its range once (M.cover's field and noun).
function M.one_run(shards, check, key_of, other, field, noun)
  if #shards == 0 then error("no shards to merge", 0) end
  for i, sh in ipairs(shards) do check(sh, i) end
  local key = key_of(shards[1])
  for i = 2, #shards do
    if key_of(shards[i]) ~= key then error(other(i), 0) end
  end
  M.cover(shards, field, noun)
end

-- Merges shard objects into the sides of one run (and the sums of the
-- differences); raises a message when they do not make up one whole run.
function M.merge(shards)
  M.one_run(shards, M.check_shard, run_key, function(i)
    if not first_alike(shards[1], shards[i]) then
      return string.format("shard %d (games %d-%d) measures the first player otherwise than shard 1 (by a fixed "
        .. "seat, or by who took the first turn where the rule set draws it): one was made by another version of "
        .. "kontor; make them again with one", i, shards[i].lo, shards[i].hi)
    end
    return string.format("shard %d (games %d-%d) is from another run than shard 1: %s",
      i, shards[i].lo, shards[i].hi, run_difference(shards[1], shards[i]))
  end)
  local first = shards[1]
  -- the shards' sums add up as the lab's own do (stats.merge): exact
  -- integers within 2^62, then floats (each shard's is checked alone)
  local sides, diffs = {}, nil
  if #first.sides >= 2 and not first.unpaired then
    diffs = {}
    for s = 2, #first.sides do diffs[s] = stats.acc() end
  end
  for s, side in ipairs(first.sides) do
    local info = fix_info(side.info)
    local acc, cov = stats.acc(), nil
    for _, sh in ipairs(shards) do
      stats.merge(acc, M.fix_acc(sh.sides[s].acc))
      if first.coverage then cov = coverage.add(cov, sh.sides[s].coverage) end
    end
    sides[s] = { info = info, data = acc, coverage = cov }
  end
  if diffs then
    for _, sh in ipairs(shards) do
      for s = 2, #first.sides do stats.merge(diffs[s], M.fix_acc(sh.pairs and sh.pairs[s - 1])) end
    end
  end
  return sides, first, diffs
end

-- Sorts shards (of one run: checked before) by their first game and
-- raises unless their ranges cover the run's games once each: which games
-- are missing or in two shards. `field` names the run's count (default
-- "games"; a ladder's shards count "deals"), `noun` what the message says.
function M.cover(shards, field, noun)
  field, noun = field or "games", noun or "games"
  table.sort(shards, function(x, y) return x.lo < y.lo end)
  local next_game, last = 1, nil
  for i, sh in ipairs(shards) do
    if sh.lo > next_game then
      error(string.format("%s %d-%d are missing (no shard has them)", noun, next_game, sh.lo - 1), 0)
    elseif sh.lo < next_game then
      -- which two: the files and lines where kontor merge read them
      error(string.format("%s %d-%d are in two shards (%s and %s)", noun, sh.lo, math.min(sh.hi, next_game - 1),
        where(last, i - 1), where(sh, i)), 0)
    end
    next_game, last = sh.hi + 1, sh
  end
  local first = shards[1]
  if next_game <= first[field] then
    error(string.format("%s %d-%d are missing (no shard has them)", noun, next_game, first[field]), 0)
  end
end

-- Lets a side's kept games go, keeping their number for check_shard; a
-- list that is not one of games stays, for check_shard to refuse.
local function drop_kept_games(side)
  if type(side) ~= "table" or type(side.games) ~= "table" then return end
  local len = 0
  for k, v in pairs(side.games) do
    if not is_int(k) or k < 1 or type(v) ~= "table" then return end
    if k > len then len = k end
  end
  side.games = nil
  rawset(side, "_games_kept", len)
end

-- Reads shard objects from files holding one JSON object per line. A line
-- that is not JSON or not a shard is refused with "file:line: why". With
-- `drop_games`, the games a shard keeps are let go as it is read (a merge
-- without --games-out: its memory stays that of the sums).
function M.read_shards(files, drop_games)
  local shards = {}
  for _, file in ipairs(files) do
    local f, err = io.open(file, "r")
    if not f then error(err, 0) end
    local n, lineno = 0, 0
    for line in f:lines() do
      lineno = lineno + 1
      if line:match("%S") then
        n = n + 1
        local ok, sh, jerr = pcall(json.decode, line)
        if not ok or sh == nil then
          f:close()
          error(string.format("%s:%d: not valid JSON: %s", file, lineno, tostring(ok and jerr or sh)), 0)
        end
        if type(sh) ~= "table" or sh.kontor ~= "shard" then
          f:close()
          error(string.format("%s:%d: not a kontor shard (made by --shard K/N)", file, lineno), 0)
        end
        rawset(sh, "_where", string.format("%s:%d", file, lineno))
        if drop_games and type(sh.sides) == "table" then
          for _, side in pairs(sh.sides) do drop_kept_games(side) end
        end
        shards[#shards + 1] = sh
      end
    end
    f:close()
    if n == 0 then error(file .. ": no shard in the file", 0) end
  end
  return shards
end

-- Writes the games of merged shards (sorted) with writer w.
function M.merged_games(shards, w)
  for s = 1, #shards[1].sides do
    for i, sh in ipairs(shards) do
      local games = sh.sides[s].games
      if type(games) ~= "table" then
        error(string.format("shard %d (games %d-%d) keeps no games: it was made with --jobs; make it with --shard K/N alone",
          i, sh.lo, sh.hi), 0)
      end
      for _, line in ipairs(games) do w:line(s, line) end
    end
  end
end

---------------------------------------------------------------------------
-- Every game as data
---------------------------------------------------------------------------

-- One game's line of --games-out.
function M.game_line(kind, s, info, rec)
  local winners = {}
  for _, x in ipairs(rec.winners) do winners[#winners + 1] = x end
  table.sort(winners)
  local st = next(rec.stats) and rec.stats or nil
  return { game = rec.game, seed = rec.seed, side = kind == "compare" and (s == 1 and "a" or "b") or nil,
           setup = info.label, rules = info.rules, variants = info.variants, seats = info.seats,
           scores = rec.scores, winners = winners, turns = rec.turns, steps = rec.steps, stats = st }
end

-- A collector with a writer's methods: a shard's games, kept to be
-- printed with its sums (kontor merge --games-out writes them).
function M.games_keeper(kind, nsides)
  local k = { games = {} }
  for s = 1, nsides do k.games[s] = {} end
  function k:game(s, info, rec) local g = self.games[s]; g[#g + 1] = M.game_line(kind, s, info, rec) end
  function k:close() end
  return k
end

-- Reads the open file f to its end into put(chunk), 64 KiB at a time.
local function copy_chunks(f, put)
  while true do
    local chunk = f:read(65536)
    if not chunk then return end
    put(chunk)
  end
end

-- Streams the file at `src` into put(chunk) and removes it.
local function pour(src, put)
  local f, err = io.open(src, "rb")
  if not f then error(err, 0) end
  local ok, e = pcall(copy_chunks, f, put)
  f:close()
  os.remove(src)
  if not ok then error(e, 0) end
end

-- A scratch file for side B's lines until side A's are all written: an
-- unnamed temp file (nothing left behind, whatever happens), every write
-- checked.
local function scratch()
  local f, err = io.tmpfile()
  if not f then error("cannot make a scratch file: " .. tostring(err), 0) end
  local t = {}
  function t.put(...)
    local ok, e = f:write(...)
    if not ok then error("a scratch file: write failed: " .. tostring(e), 0) end
  end
  -- pours what was written into put(chunk), then closes
  function t.drain(put)
    local ok, e = f:flush()
    if not ok then f:close(); error("a scratch file: write failed: " .. tostring(e), 0) end
    f:seek("set", 0)
    local pok, perr = pcall(copy_chunks, f, put)
    f:close()
    if not pok then error(perr, 0) end
  end
  function t.abort() pcall(f.close, f) end
  return t
end

-- An atomic writer (kontor.files) whose writes raise "path: step failed:
-- why"; opening it refuses a target that is not a regular file.
local function atomic(path)
  local w, err = require("kontor.files").writer(path)
  if not w then error(err, 0) end
  return {
    put = function(...)
      local ok, e = w:write(...)
      if not ok then error(e, 0) end
    end,
    commit = function()
      local ok, e = w:commit()
      if not ok then error(e, 0) end
    end,
    abort = function() w:abort() end,
  }
end

-- A writer of one JSON line per game and side to `path`, as they are
-- played: side A's games first, then side B's (kept in a scratch file
-- until close). The file is written through kontor.files: it appears
-- whole at close, or not at all (the old one stays). With `part` (a
-- child job's file), the A lines go to path and the B lines to path.b,
-- both whole at close, for the parent to take. A parent's child parts
-- (w:part(k)) are taken in order (w:take) and removed, and removed on
-- w:abort too.
function M.games_writer(path, kind, nsides, part)
  -- a file already there is replaced only when it is a games file (or
  -- empty): --games-out notes.txt keeps the notes
  local mine, why = require("kontor.files").ours(path, '{"game":', "a Kontor games file")
  if not mine then error(why, 0) end
  local sink = { atomic(path) }
  local ok, err = pcall(function()
    if nsides == 2 then sink[2] = part and atomic(path .. ".b") or scratch() end
  end)
  if not ok then sink[1].abort(); error(err, 0) end
  local parts = {}
  local w = {}
  function w:game(s, info, rec)
    sink[s].put(json.encode(M.game_line(kind, s, info, rec)), "\n")
  end
  -- a line as it is (a shard's games)
  function w:line(s, line)
    sink[s].put(json.encode(line), "\n")
  end
  -- a child's part file
  function w:part(k)
    local p = string.format("%s.job%d", path, k)
    parts[p] = true
    return p
  end
  -- appends a child's part (its A lines here, its B lines to side B's)
  function w:take(p)
    pour(p, sink[1].put)
    if sink[2] then pour(p .. ".b", sink[2].put) end
  end
  -- the file as it was, no part file left
  function w:abort()
    for _, x in ipairs(sink) do x.abort() end
    for p in pairs(parts) do
      os.remove(p)
      os.remove(p .. ".b")
    end
  end
  -- the file in place, whole; on failure as w:abort, and raises
  function w:close()
    local cok, cerr = pcall(function()
      if sink[2] and not part then
        sink[2].drain(sink[1].put)
      elseif sink[2] then
        sink[2].commit()
      end
      sink[1].commit()
    end)
    if not cok then
      self:abort()
      if part then os.remove(path .. ".b") end
      error(cerr, 0)
    end
  end
  return w
end

return M
