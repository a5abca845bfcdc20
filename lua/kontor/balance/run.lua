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
-- process would have made.

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
    local va
    for s, L in ipairs(job.sides) do
      local cov = nil
      if job.coverage then
        state.rec[s] = state.rec[s] or coverage.new(L)
        cov = state.rec[s]
      end
      local v, rec = balance.play_game(L, job.seed, i, { cov = cov, unpaired_b = job.unpaired and s == 2 })
      stats.add(state.acc[s], v, hk[s])
      if job.games_out then job.games_out:game(s, L.info, rec) end
      if job.kept then job.kept:game(s, L.info, rec) end
      if paired then
        if s == 1 then va = v else stats.add(state.pairs[s], stats.diff(va, v)) end
      end
      done = done + 1
      if job.progress and done % 25 == 0 then job.progress(done, total) end
    end
  end
  return done
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
    local part
    if job.games_out then
      part = job.games_out:part(k)
      cmd[#cmd + 1] = "--games-out"
      cmd[#cmd + 1] = quote(part)
    end
    local line = "KONTOR_LAB_PROGRESS=1 KONTOR_LAB_PART=1 " .. table.concat(cmd, " ")
    local p, err = io.popen(line, "r")
    if not p then error("cannot start a job: " .. tostring(err), 0) end
    pipes[k] = { p = p, games = (b - a + 1) * #job.sides, part = part }
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
      M.add_shard(job, state, shard)
      if c.part then job.games_out:take(c.part) end
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
  for _, side in ipairs(sh.sides) do parts[#parts + 1] = side.info.label .. tostring(side.info.moves) end
  return table.concat(parts, "\0")
end

-- Merges shard objects into the sides of one run (and the sums of the
-- differences); raises a message when they do not make up one whole run.
function M.merge(shards)
  if #shards == 0 then error("no shards to merge", 0) end
  for i, sh in ipairs(shards) do
    if type(sh) ~= "table" or sh.kontor ~= "shard" then
      error(string.format("shard %d is not a kontor shard (made by --shard K/N)", i), 0)
    end
    if sh.version ~= 2 then
      error(string.format("shard %d was made by an older kontor (its games, not their sums): make it again", i), 0)
    end
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

-- Reads shard objects from files holding one JSON object per line.
function M.read_shards(files)
  local shards = {}
  for _, file in ipairs(files) do
    local f, err = io.open(file, "r")
    if not f then error(err, 0) end
    local n = 0
    for line in f:lines() do
      if line:match("%S") then
        n = n + 1
        local ok, sh = pcall(json.decode, line)
        if not ok then f:close(); error(string.format("%s:%d: %s", file, n, tostring(sh)), 0) end
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

-- A writer of one JSON line per game and side to `path`, as they are
-- played: side A's games first, then side B's (kept in path.b until
-- close). With `part` (a child job's file), close leaves B's lines in
-- path.b for the parent to take.
function M.games_writer(path, kind, nsides, part)
  local files = {}
  local f1, err = io.open(path, "w")
  if not f1 then error(err, 0) end
  files[1] = f1
  if nsides == 2 then
    files[2], err = io.open(path .. ".b", "w")
    if not files[2] then error(err, 0) end
  end
  local w = { n = 0 }
  function w:game(s, info, rec)
    files[s]:write(json.encode(M.game_line(kind, s, info, rec)), "\n")
  end
  -- a line as it is (a shard's games)
  function w:line(s, line)
    files[s]:write(json.encode(line), "\n")
  end
  -- a child's part file
  function w:part(k) return string.format("%s.job%d", path, k) end
  -- appends a child's part (its A lines here, its B lines to path.b)
  function w:take(p)
    for s, suffix in ipairs { "", ".b" } do
      if files[s] then
        local f = io.open(p .. suffix, "r")
        if f then
          while true do
            local chunk = f:read(65536)
            if not chunk then break end
            files[s]:write(chunk)
          end
          f:close()
          os.remove(p .. suffix)
        end
      end
    end
  end
  function w:close()
    if files[2] then
      files[2]:close()
      if not part then
        self:take_b()
      end
    end
    files[1]:close()
  end
  function w:take_b()
    local f = io.open(path .. ".b", "r")
    if f then
      while true do
        local chunk = f:read(65536)
        if not chunk then break end
        files[1]:write(chunk)
      end
      f:close()
      os.remove(path .. ".b")
    end
  end
  return w
end

return M
