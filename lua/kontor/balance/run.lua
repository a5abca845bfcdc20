-- kontor.balance.run: playing a run's games here or in child processes,
-- shard files, and merging them.
--
-- A run is one or two setups (sim, compare) played over games 1..G of a
-- seed. Games lo..hi can be played by any process: `--range lo-hi` (and
-- `--shard K/N`, which names a range) prints a shard: the per-game lists of
-- that range as JSON. The parent of `--jobs N` starts N children on N
-- consecutive ranges and puts their lists end to end, which is exactly the
-- lists one process would have made.

local core = require "kontor.core"
local balance = require "kontor.balance"
local coverage = require "kontor.balance.coverage"

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
--        progress = function(done, total) or nil }
-- state: { data = { {parts}, {parts} }, cov = { rec_or_data, ... } }

local function play_here(job, state, lo, hi, done0, total)
  local nsides = #job.sides
  for s, L in ipairs(job.sides) do
    local cov = nil
    if job.coverage then
      state.rec[s] = state.rec[s] or coverage.new(L)
      cov = state.rec[s]
    end
    local base = done0 + (s - 1) * (hi - lo + 1)
    local progress = job.progress and function(j)
      if j % 25 == 0 then job.progress(base + j, total) end
    end
    local d = balance.play(L, job.seed, lo, hi, { cov = cov, progress = progress,
                                                   unpaired_b = job.unpaired and s == 2 })
    table.insert(state.parts[s], d)
  end
  return done0 + nsides * (hi - lo + 1)
end

local function play_children(job, state, lo, hi, done0, total)
  local n = math.min(job.jobs, hi - lo + 1)
  local pipes = {}
  for k = 1, n do
    local a, b = M.shard_range(k, n, hi - lo + 1)
    local cmd = {}
    for i, x in ipairs(job.child) do cmd[i] = quote(x) end
    cmd[#cmd + 1] = "--range"
    cmd[#cmd + 1] = string.format("%d-%d", lo + a - 1, lo + b - 1)
    local line = "KONTOR_LAB_PROGRESS=1 " .. table.concat(cmd, " ")
    local p, err = io.popen(line, "r")
    if not p then error("cannot start a job: " .. tostring(err), 0) end
    pipes[k] = { p = p, games = (b - a + 1) * #job.sides }
  end
  local finished = done0
  local failed
  for k, c in ipairs(pipes) do
    local text
    for l in c.p:lines() do
      local d = l:match("^progress (%d+)$")
      if d then
        if job.progress then
          local est = finished + tonumber(d) * (n - k + 1)
          job.progress(math.min(est, total), total)
        end
      else
        text = l
      end
    end
    local ok, how, code = c.p:close()
    if not ok then
      failed = failed or string.format("job %d of %d failed (%s %s)", k, n, tostring(how), tostring(code))
    elseif not failed then
      local shard = json.decode(text or "")
      for s = 1, #job.sides do
        table.insert(state.parts[s], shard.sides[s].data)
        if job.coverage then state.cov[s] = coverage.add(state.cov[s], shard.sides[s].coverage) end
      end
    end
    finished = finished + c.games
  end
  if failed then error(failed, 0) end
  return finished
end

-- Plays games lo..hi of the job into state, here or in children.
function M.play_range(job, state, lo, hi, done0, total)
  if (job.jobs or 1) > 1 and job.child and hi > lo then
    return play_children(job, state, lo, hi, done0, total)
  end
  return play_here(job, state, lo, hi, done0, total)
end

function M.new_state(job)
  local state = { parts = {}, rec = {}, cov = {} }
  for s = 1, #job.sides do state.parts[s] = {} end
  return state
end

-- The data and coverage of each side so far.
function M.collect(job, state)
  local out = {}
  for s, L in ipairs(job.sides) do
    local cov = state.cov[s]
    if state.rec[s] then cov = coverage.add(cov and cov or nil, state.rec[s]:data()) end
    out[s] = { info = L.info, data = balance.concat(L.info, state.parts[s]), coverage = cov }
  end
  return out
end

-- The summary of sides (a list of { info, data, coverage }).
function M.summarize(kind, sides, seed, unpaired)
  local s
  if kind == "compare" then
    s = balance.compare(sides[1].info, sides[1].data, sides[2].info, sides[2].data, seed, unpaired)
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
-- first check where every interval is narrower. Returns the sides.
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
      local sides = M.collect(job, state)
      if balance.narrow(M.summarize(kind, sides, job.seed, job.unpaired), until_width) then break end
    end
  end
  if job.progress then job.progress(done, done) end
  return M.collect(job, state)
end

---------------------------------------------------------------------------
-- Shard files
---------------------------------------------------------------------------

-- The shard object of games lo..hi: what `--shard`/`--range` print.
function M.shard(kind, job, sides, games, lo, hi)
  local out = { kontor = "shard", kind = kind, seed = job.seed, games = games, lo = lo, hi = hi,
                unpaired = job.unpaired or false, coverage = job.coverage or false, sides = {} }
  for s, side in ipairs(sides) do
    out.sides[s] = { info = side.info, data = side.data, coverage = side.coverage }
  end
  return out
end

-- JSON keeps lists; data of zero games come back as objects: normalise.
local function fix_data(d, info)
  local function list(t) if type(t) ~= "table" or next(t) == nil then return {} end return t end
  d.turns, d.steps = list(d.turns), list(d.steps)
  d.scores, d.wins, d.stats = d.scores or {}, d.wins or {}, type(d.stats) == "table" and d.stats or {}
  for s = 1, info.players do d.scores[s], d.wins[s] = list(d.scores[s]), list(d.wins[s]) end
  for _, name in ipairs(info.stats) do d.stats[name] = list(d.stats[name]) end
  info.stats = list(info.stats)
  info.variants = list(info.variants)
  return d
end

-- What must agree between shards of one run.
local function run_key(sh)
  local parts = { sh.kind, tostring(sh.seed), tostring(sh.games), tostring(sh.unpaired), tostring(sh.coverage) }
  for _, side in ipairs(sh.sides) do parts[#parts + 1] = side.info.label end
  return table.concat(parts, "\0")
end

-- Where a shard came from: "file:line" (read_shards), else "shard i".
local function where(sh, i)
  return rawget(sh, "_where") or string.format("shard %d", i)
end

local function is_int(x) return math.type(x) == "integer" end
local function is_num(x) return type(x) == "number" and x == x and x > -math.huge and x < math.huge end

-- t must be a list of exactly n numbers (JSON gives {} for an empty list).
local function count_list(t, n, what)
  if n == 0 and type(t) == "table" and next(t) == nil then return end
  if type(t) ~= "table" then error(string.format("%s is missing", what), 0) end
  local len = 0
  for k in pairs(t) do
    if not is_int(k) or k < 1 then error(string.format("%s is not a list", what), 0) end
    if k > len then len = k end
  end
  if len ~= n then
    error(string.format("%s has %d games, the shard claims %d", what, len, n), 0)
  end
  for j = 1, n do
    if not is_num(t[j]) then error(string.format("%s: game %d is not a number", what, j), 0) end
  end
end

-- Checks one shard before anything merges it: its range, and that each
-- side's data holds one entry per game of it, with wins that add up to 1
-- a game. Raises "file:line: what is wrong".
local function check_shard(sh, i)
  local ok, e = pcall(function()
    if not (is_int(sh.games) and is_int(sh.lo) and is_int(sh.hi)) then
      error("\"games\", \"lo\" and \"hi\" must be whole numbers", 0)
    end
    if sh.games < 1 or sh.lo < 1 or sh.hi > sh.games or sh.hi < sh.lo - 1 then
      error(string.format("games %d-%d are not a range of games 1-%d", sh.lo, sh.hi, sh.games), 0)
    end
    local want = sh.kind == "compare" and 2 or sh.kind == "sim" and 1 or nil
    if not want then error("\"kind\" must be \"sim\" or \"compare\"", 0) end
    if type(sh.sides) ~= "table" or #sh.sides ~= want then
      error(string.format("a %s shard has %d side%s", sh.kind, want, want == 1 and "" or "s"), 0)
    end
    local n = sh.hi - sh.lo + 1
    for s, side in ipairs(sh.sides) do
      local info, d = type(side) == "table" and side.info, type(side) == "table" and side.data
      if type(info) ~= "table" or type(d) ~= "table" then error(string.format("side %d has no info or data", s), 0) end
      local P = info.players
      if not is_int(P) or P < 1 or P > 1000 then error(string.format("side %d: \"players\" is not a seat count", s), 0) end
      count_list(d.turns, n, string.format("side %d: turns", s))
      count_list(d.steps, n, string.format("side %d: steps", s))
      local sums = {}
      for seat = 1, P do
        count_list(type(d.scores) == "table" and d.scores[seat] or nil, n,
          string.format("side %d: scores of seat %d", s, seat))
        count_list(type(d.wins) == "table" and d.wins[seat] or nil, n,
          string.format("side %d: wins of seat %d", s, seat))
        for j = 1, n do sums[j] = (sums[j] or 0) + d.wins[seat][j] end
      end
      for j = 1, n do
        if math.abs(sums[j] - 1) > 1e-6 then
          error(string.format("side %d: the wins of game %d add up to %s, not 1", s, sh.lo + j - 1,
            tostring(sums[j])), 0)
        end
      end
      if info.stats ~= nil and type(info.stats) ~= "table" then error(string.format("side %d: bad stats", s), 0) end
      for _, name in ipairs(info.stats or {}) do
        count_list(type(d.stats) == "table" and d.stats[name] or nil, n,
          string.format("side %d: stat %s", s, tostring(name)))
      end
    end
  end)
  if not ok then error(where(sh, i) .. ": " .. tostring(e), 0) end
end

-- Merges shard objects into the sides of one run; raises a message when
-- they do not make up one whole run.
function M.merge(shards)
  if #shards == 0 then error("no shards to merge", 0) end
  for i, sh in ipairs(shards) do
    if type(sh) ~= "table" or sh.kontor ~= "shard" then
      error(string.format("%s is not a kontor shard (made by --shard K/N)",
        type(sh) == "table" and where(sh, i) or ("shard " .. i)), 0)
    end
    check_shard(sh, i)
  end
  local key = run_key(shards[1])
  for i = 2, #shards do
    if run_key(shards[i]) ~= key then
      error(string.format("shard %d (games %d-%d) is from another run than shard 1 (setup, seed, games or coverage differ)",
        i, shards[i].lo, shards[i].hi), 0)
    end
  end
  table.sort(shards, function(x, y) return x.lo < y.lo end)
  local next_game = 1
  for _, sh in ipairs(shards) do
    if sh.lo > next_game then
      error(string.format("games %d-%d are missing (no shard has them)", next_game, sh.lo - 1), 0)
    elseif sh.lo < next_game then
      error(string.format("games %d-%d are in two shards", sh.lo, math.min(sh.hi, next_game - 1)), 0)
    end
    next_game = sh.hi + 1
  end
  local first = shards[1]
  if next_game <= first.games then
    error(string.format("games %d-%d are missing (no shard has them)", next_game, first.games), 0)
  end
  local sides = {}
  for s, side in ipairs(first.sides) do
    local info = side.info
    local parts, cov = {}, nil
    for _, sh in ipairs(shards) do
      parts[#parts + 1] = fix_data(sh.sides[s].data, info)
      if first.coverage then cov = coverage.add(cov, sh.sides[s].coverage) end
    end
    sides[s] = { info = info, data = balance.concat(info, parts), coverage = cov }
  end
  return sides, first
end

-- Reads shard objects from files holding one JSON object per line. A line
-- that is not JSON or not a shard is refused with "file:line: why".
function M.read_shards(files)
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
        shards[#shards + 1] = sh
      end
    end
    f:close()
    if n == 0 then error(file .. ": no shard in the file", 0) end
  end
  return shards
end

---------------------------------------------------------------------------
-- Every game as data
---------------------------------------------------------------------------

-- Writes one JSON line per game and side to `path`, all or nothing
-- (kontor.files); raises "path: step failed: why".
function M.games_out(path, kind, sides, seed, unpaired, lo)
  lo = lo or 1
  local ok, err = require("kontor.files").write_with(path, function(put)
    for s, side in ipairs(sides) do
      local info, d = side.info, side.data
      local label = kind == "compare" and (s == 1 and "a" or "b") or nil
      for j = 1, #d.turns do
        local i = lo + j - 1
        local scores, winners = {}, {}
        for seat = 1, info.players do
          scores[seat] = d.scores[seat][j]
          if d.wins[seat][j] > 0 then winners[#winners + 1] = seat end
        end
        local st = {}
        for _, name in ipairs(info.stats) do st[name] = d.stats[name][j] end
        local rec = { game = i, seed = balance.game_seed(seed, i, unpaired and s == 2),
                      side = label, setup = info.label, rules = info.rules, variants = info.variants,
                      seats = info.seats, scores = scores, winners = winners,
                      turns = d.turns[j], steps = d.steps[j], stats = next(st) and st or nil }
        put(json.encode(rec), "\n")
      end
    end
  end)
  if not ok then error(err, 0) end
end

return M
