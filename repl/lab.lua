-- lab (repl/lab.lua): the command line of the balance lab: `kontor
-- compare`, `kontor sweep`, `kontor worth`, `kontor ladder`, `kontor merge`, and `kontor sim` with --jobs, --shard,
-- --range, --coverage, --report, --games-out or --until-width
-- (docs/balance.md). Exit status as cli.lua: 0, 1 failure, 2 usage error.

local core = require "kontor.core"
local balance = require "kontor.balance"
local run = require "kontor.balance.run"
local coverage = require "kontor.balance.coverage"
local ktext = require "kontor.text"
local kfiles = require "kontor.files"
local kerrors = require "kontor.errors"

local json = core.json
local M = {}

-- Every line goes through the one sink (kontor.text.write): rule, variant,
-- stat, option and file names from rule scripts and shards are escaped;
-- the program's own colours and progress bar are raw pieces.
local function out(...) ktext.write(io.stdout, ...) end
local function err(...) ktext.write(io.stderr, ...) end
local raw = ktext.raw

local function usage_error(msg)
  err("kontor: ", msg, "\n", "Try 'kontor --help'.\n")
  return 2
end

-- The first frame of a traceback in a rule script: not the engine's nor
-- the program's own Lua, not C ("./my_rule.lua:4"), or nil.
local function script_frame(msg)
  local tb = msg:match("\nstack traceback:\n(.*)$")
  for line in (tb or ""):gmatch("[^\n]+") do
    local at = line:match("^%s*([^%s:]+:%d+):")
    if at and not at:match("kontor/[%w_/]+%.lua:%d+$") and not at:match("repl/[%w_]+%.lua:%d+$") then
      return at
    end
  end
  return nil
end

-- A failure of a run, as people read it (docs/balance.md, "When a run fails"): the
-- message's first line, never a traceback through the engine; where a
-- rule script reached a limit of the sandbox (whose message says no
-- place); and for a game that failed, the command that plays it alone.
local function failure(name, e)
  local msg = tostring(e)
  if os.getenv("KONTOR_LAB_PROGRESS") then
    -- a job of --jobs: its parent says it (kontor.balance.run.children),
    -- once for the run, the job of the first games that failed
    local fields = {}
    if kerrors.is(e) then
      for _, k in ipairs { "game", "seed", "why", "run_seed", "setup", "unpaired_b", "limit" } do
        fields[k] = rawget(e, k)
      end
    end
    out("failed ", raw(json.encode { message = msg, kind = kerrors.kind(e) or "rules", fields = fields }), "\n")
    return 1
  end
  local first = ktext.error_place(msg)
  -- what was asked for does not fit (an unknown option or bot, a player
  -- count): a usage error, exit 2, as the same flags are for plain sim
  if kerrors.kind(e) == "usage" then return usage_error(name .. ": " .. first) end
  if kerrors.kind(e) == "limit" then
    local at = script_frame(msg)
    if at and not first:find(at, 1, true) then first = first .. ", in " .. at end
  end
  err("kontor: ", name, ": ", first, "\n")
  local game = kerrors.is(e) and rawget(e, "game")
  local setup = kerrors.is(e) and rawget(e, "setup")
  if math.type(game) == "integer" and type(setup) == "string" and not rawget(e, "unpaired_b") then
    local seed = rawget(e, "run_seed")
    -- the plain simulation plays game I of a run alone; with bots, the
    -- lab's --range plays it (and prints its shard)
    local alone = setup:find("--bot ", 1, true) and string.format("--seed %d --range %d-%d", seed, game, game)
      or string.format("--seed %d --games %d --game %d", seed, game, game)
    err("Reproduce it alone: kontor sim ", setup, " ", alone, "\n")
  end
  return 1
end


local SETUP_FLAGS = { ["--rules"] = "value", ["--variant"] = "list", ["--players"] = "value",
  ["--option"] = "list", ["--bot"] = "list" }
local RUN_FLAGS = { ["--games"] = "value", ["--seed"] = "value", ["--json"] = "bool",
  ["--jobs"] = "value", ["--shard"] = "value", ["--range"] = "value", ["--coverage"] = "bool",
  ["--report"] = "value", ["--games-out"] = "value", ["--until-width"] = "value", ["--moves"] = "bool",
  ["--no-moves"] = "bool" }
-- kontor sweep: compare's run over one option's values (kontor.balance.sweep).
local SWEEP_FLAGS = { ["--over"] = "value", ["--svg"] = "value" }
local COMPARE_FLAGS = { ["--a"] = "value", ["--b"] = "value", ["--unpaired"] = "bool" }

-- Parses --flag value pairs against the specs (the command line's parser).
local function parse(args, first, ...)
  return require("cli").parse_flags(args, first, ...)
end

-- "k=v,k2=v2" -> { k = "v", k2 = "v2" }
local function kv_list(rest, whole)
  local opts = {}
  for kv in rest:gmatch("[^,]+") do
    local k, v = kv:match("^%s*([%w_][%w_.]*)%s*=%s*(.-)%s*$")
    if not k then return nil, string.format("bad option '%s' in '%s' (expected k=v)", kv, whole) end
    opts[k] = v
  end
  return opts
end

-- The setup the flags of t give, on top of `base` (the common flags).
local function setup_of(t, base)
  local s = { rules = base and base.rules, players = base and base.players, variants = {},
              options = {}, bots = {}, moves = base and base.moves or t.moves or nil }
  if base then
    for _, v in ipairs(base.variants) do s.variants[#s.variants + 1] = v end
    for k, v in pairs(base.options) do s.options[k] = v end
    for k, v in pairs(base.bots) do s.bots[k] = v end
  end
  if t.rules then s.rules = t.rules end
  if t.players then
    local n = math.tointeger(tonumber(t.players))
    if not n then return nil, string.format("--players must be a whole number, not '%s'", t.players) end
    s.players = n
  end
  for _, v in ipairs(t.variant or {}) do
    local name, rest = v:match("^([^:]+):(.*)$")
    local opts = {}
    if name then
      local e
      opts, e = kv_list(rest, v)
      if not opts then return nil, "--variant " .. e end
    else
      name = v
    end
    s.variants[#s.variants + 1] = { name, options = opts }
  end
  for _, o in ipairs(t.option or {}) do
    local k, val = o:match("^([%w_]+)=(.*)$")
    if not k then return nil, string.format("'--option %s': expected k=v", o) end
    s.options[k] = val
  end
  for _, b in ipairs(t.bot or {}) do
    local seat, kind, rest = b:match("^%s*(%d+)%s*=%s*([%w_]+)(.*)$")
    -- KIND alone (as worth takes it): every seat not given a bot of its own
    if not seat and not b:find("=", 1, true) or (not seat and b:match("^%s*[%w_]+:")) then
      local k = b:match("^%s*([%w_]+)")
      if k and require("kontor.bots").KINDS[k] then seat, kind, rest = "every", k, b:match("^%s*[%w_]+(.*)$") end
    end
    local opts = {}
    if seat and rest ~= "" then
      -- kontor.bots.parse: a restriction's text may hold commas
      local k, o = require("kontor.bots").parse(kind .. rest)
      if not k then return nil, "--bot " .. o end
      opts = o
    end
    if not seat then
      -- a kind alone, or with options, that is no bot: a misspelt one
      -- ("gredy"), said as such, with the one meant where it is near
      local k = (not b:find("=", 1, true) or b:match("^%s*[%w_]+:")) and b:match("^%s*([%w_]+)")
      if k and not k:match("^%d+$") then
        return nil, string.format("--bot %s: %s", b, require("kontor.bots").unknown(k))
      end
      return nil, string.format("--bot %s: expected SEAT=KIND[:k=v,...], e.g. --bot 2=random (bots: %s)",
        b, require("kontor.bots").list())
    end
    -- given: the text as typed, for a message about this bot (balance.load)
    s.bots[seat == "every" and "every" or math.tointeger(tonumber(seat))] = { kind = kind, options = opts,
      given = b:match("^%s*(.-)%s*$") }
  end
  return s
end

-- Splits a SETUP string into words as a shell would (quotes, backslash).
function M.words(s)
  local words, cur, i, q = {}, nil, 1, nil
  while i <= #s do
    local c = s:sub(i, i)
    if q then
      if c == q then q = nil
      elseif c == "\\" and q == '"' and i < #s then i = i + 1; cur = cur .. s:sub(i, i)
      else cur = cur .. c end
    elseif c == "'" or c == '"' then q = c; cur = cur or ""
    elseif c == "\\" and i < #s then i = i + 1; cur = (cur or "") .. s:sub(i, i)
    elseif c:match("%s") then
      if cur then words[#words + 1] = cur; cur = nil end
    else cur = (cur or "") .. c end
    i = i + 1
  end
  if q then return nil, string.format("unclosed %s quote in '%s'", q, s) end
  if cur then words[#words + 1] = cur end
  return words
end

local function int_of(t, name, default, min, max)
  local v = t[name]
  if v == nil then return default end
  local n = math.tointeger(tonumber(v))
  if not n then return nil, string.format("--%s must be a whole number, not '%s'", name:gsub("_", "-"), v) end
  if min and n < min then return nil, string.format("--%s must be at least %d", name:gsub("_", "-"), min) end
  if max and n > max then
    return nil, string.format("--%s must be at most %d, not %d", name:gsub("_", "-"), max, n)
  end
  return n
end
-- The program itself, to start jobs with.
local function program(args)
  return args[0] or "kontor"
end

---------------------------------------------------------------------------
-- Progress on stderr
---------------------------------------------------------------------------

local function progress_bar(color)
  local t0 = os.time()
  local last = -1
  local shown = 0      -- the width of the line drawn, to clear it
  local function draw(done, total, final)
    local now = os.time()
    if not final and now == last then return end
    last = now
    local el = now - t0
    local rate = el > 0 and done / el or 0
    local left = rate > 0 and (total - done) / rate or 0
    local width = 30
    local fill = total > 0 and math.floor(width * done / total) or width
    local hashes = string.rep("#", fill)
    local line = string.format("[%s] %d/%d games  %.0f games/s  %s left ", hashes .. string.rep(".", width - fill),
      done, total, rate, final and "0 s" or string.format("%d s", math.floor(left + 0.5)))
    shown = math.max(shown, #line)
    if color then
      -- the bar's # in green (kontor.text.style), the rest as it is
      err(raw("\r["), ktext.style("32", hashes), line:sub(2 + fill))
    else
      err(raw("\r"), line)
    end
  end
  return function(done, total) draw(done, total, done >= total) end,
         function() if shown > 0 then err(raw("\r" .. string.rep(" ", shown) .. "\r")) end end
end

local function want_color(fd)
  local nc = os.getenv("NO_COLOR")
  return core.term.isatty(fd) and (nc == nil or nc == "")
end

---------------------------------------------------------------------------
-- sim and compare
---------------------------------------------------------------------------

-- The arguments to give a child job: all but the parent's own flags.
local DROP = { ["--jobs"] = 1, ["--shard"] = 1, ["--range"] = 1, ["--report"] = 1,
  ["--games-out"] = 1, ["--until-width"] = 1, ["--json"] = 0, ["--svg"] = 1, ["--seed"] = 1 }
-- (the seed is given as the number the parent uses: `--seed random` draws
-- it once)
-- t with args[first..] appended, less each flag of `drop` (flag -> how
-- many values follow it; a --flag=value form takes its value with it).
-- A child job's progress lines for its parent's bar (done: games played;
-- a line says done // unit). At most about 200 lines, whatever the job's
-- size: the parent reads the jobs' pipes one after another, and a job
-- whose pipe filled would wait for the ones before it.
local function child_progress(total, unit)
  unit = unit or 1
  local next_at = unit
  return function(done)
    if done < next_at then return end
    next_at = done + math.max(unit, total // 200)
    out("progress ", done // unit, "\n")
    io.stdout:flush()
  end
end

local function append_without(t, args, first, drop)
  local i = first
  while i <= #args do
    local a = args[i]
    local flag, inline = a:match("^(%-%-[%w%-]+)=(.*)$")
    local d = drop[flag or a]
    if d then
      if not inline then i = i + d end
    else
      t[#t + 1] = a
    end
    i = i + 1
  end
  return t
end

local function child_args(args, first, seed)
  local t = append_without({ program(args), args[1] }, args, first, DROP)
  t[#t + 1] = "--seed"
  t[#t + 1] = tostring(seed)
  t[#t + 1] = "--jobs"
  t[#t + 1] = "1"
  return t
end

-- Writes an output file through kontor.files (all or nothing); raises
-- "path: step failed: why".
local REPORT = { "<h1>Kontor ", "a Kontor report" }      -- (kontor.files.ours: what a file of each kind holds)
local CHART = { '<svg class="chart"', "a Kontor chart" }

-- `kind`: REPORT or CHART, a file already at path is replaced only when it
-- is one of that kind (or empty).
local function write_file(path, text, kind)
  local ok, e = kfiles.ours(path, kind[1], kind[2])
  if ok then ok, e = kfiles.write(path, text) end
  if not ok then error(e, 0) end
end

-- Says on stderr, before a run, each restriction of its bots (avoid=,
-- prefer=) that no option of the setups `Ls` matches
-- (kontor.balance.restrictions): a typo would change nothing. A
-- restriction that matches in one setup of a comparison (a move only
-- variant B has, avoided by a bot both sides seat) changes that setup and
-- is not warned of. Not in a job of --jobs (its parent said it).
local warned = {}
local function restricted(bot) return bot and bot.options and (bot.options.avoid or bot.options.prefer) end
local function warn_unmatched(name, t, Ls, players)
  if t.range then return end
  local missed, hit, order = {}, {}, {}
  for _, L in ipairs(Ls) do
    -- a rule script that keeps game state in module-level variables
    for _, m in ipairs(balance.module_warnings(L)) do
      if not warned[m] then
        warned[m] = true
        err("kontor: ", name, ": warning: ", m, "\n")
      end
    end
    local any = false
    for _, p in ipairs(players or {}) do any = any or restricted(p) end
    for s = 1, L.players do any = any or (not players and restricted(L.bots and L.bots[s])) end
    -- (and a decision a constraint names that the games never ask: a typo)
    local cons = type(L.R) == "table" and rawget(L.R, "constraints")
    any = any or (type(cons) == "table" and rawlen(cons) > 0)
    if any then   -- (else the check's modules are not even loaded)
      local ok, res, list = pcall(require("kontor.balance.restrictions").unmatched, L, players)
      if not ok then   -- a game of the check failed: the run says it, with its own bots
        if kerrors.kind(res) == "interrupt" then error(res, 0) end
        return
      end
      for _, r in ipairs(list) do
        local key = r.who .. "\0" .. r.key .. "\0" .. r.item
        if r.hit then hit[key] = true
        else
          if not missed[key] then order[#order + 1] = key; missed[key] = { n = 0 } end
          local m = missed[key]
          m.n = m.n + 1
          -- the text of a setup that has a close word, else of the last
          -- (a variant's, with the moves the base does not have)
          if not (m.told and m.near) then m.told, m.near = r.told, r.near end
        end
      end
    end
  end
  for _, key in ipairs(order) do   -- once a run
    local m = missed[key]
    if not hit[key] and not warned[key] then
      warned[key] = true
      err("kontor: ", name, ": warning: ", m.told(m.n), "\n")
    end
  end
end

-- Raises unless `path` can be written (its folder there and writable, not
-- a device or a folder): run before the games, so that a long run does
-- not end in "No such file or directory" with its results lost.
local function check_output(path)
  local ok, why = kfiles.ours(path, REPORT[1], REPORT[2])
  if not ok then error(why, 0) end
  local w, e = kfiles.writer(path)
  if not w then error(e, 0) end
  w:abort()
end

-- Makes the folder `dir` and its parents as needed; raises "dir: why".
local function make_dir(dir)
  local ok, e = core.fs.mkdir(dir)
  if not ok then error(e, 0) end
end

local spill_keeper

-- The line under a lab's tables: `with` of `n` (rows or differences:
-- `what`) have a verdict, `kept` of them hold after Holm's correction for
-- the `n` `compared`; nil without a verdict.
local function holm_text(with, kept, n, what, compared)
  if with == 0 then return nil end
  if kept == with then
    return string.format("verdicts: %d of %d %s, all kept by Holm's correction for the %d %s",
      with, n, what, n, compared)
  end
  return string.format("verdicts: %d of %d %s; Holm's correction for the %d %s keeps %d (the "
    .. "others could be chance: --report marks them)", with, n, what, n, compared, kept)
end

-- As verdicts_line, for a sweep: the differences from the first value.
local function sweep_verdicts_line(sw, report)
  local held, n = report.sweep_holm(sw)
  local with, kept = 0, 0
  for _, key in ipairs(sw.order) do
    for i, r in ipairs(sw.measures[key].rows) do
      if i > 1 and r.verdict then
        with = with + 1
        if held[key] and held[key][i] then kept = kept + 1 end
      end
    end
  end
  return holm_text(with, kept, n, "differences", "compared")
end

local function sweep_output(t, sw)
  local report = require("kontor.balance.report")
  local sweepmod = require("kontor.balance.sweep")
  if t.report then write_file(t.report, report.sweep_html(sw), REPORT) end
  local written, refused = 0, nil
  if t.svg then
    make_dir(t.svg)
    -- a file of the folder that is not a chart keeps every chart out (and
    -- the run's text is still printed, before the error)
    for _, key in ipairs(sw.order) do
      local _, why = kfiles.ours(t.svg .. "/" .. sweepmod.file_of(key), CHART[1], CHART[2])
      refused = refused or why
    end
    for _, key in ipairs(refused and {} or sw.order) do
      local m = sw.measures[key]
      write_file(t.svg .. "/" .. sweepmod.file_of(key), '<?xml version="1.0" encoding="utf-8"?>\n'
        .. report.line_chart(m, sw.values, { id = "sweep", over = sw.over }) .. "\n", CHART)
      written = written + 1
    end
  end
  if t.json then
    for _, key in ipairs(sw.order) do
      for _, r in ipairs(sw.measures[key].rows) do
        for _, f in ipairs { "ci", "diff", "diff_ci", "verdict" } do if r[f] == nil then r[f] = json.null end end
      end
    end
    out(json.encode(sw), "\n")
    if refused then error(refused .. " (no chart written)", 0) end
    return
  end
  out(require("kontor.balance.sweep").format(sw), "\n")
  local said = sweep_verdicts_line(sw, report)
  if said then out(said, "\n") end
  if sw.bots_text then out(sw.bots_text, "\n") end
  if t.svg and not refused then out(string.format("\n%d charts written to ", written), t.svg, "\n") end
  if t.report then out("\nreport written to ", t.report, "\n") end
  if refused then error(refused .. " (no chart written)", 0) end
end

-- A keeper of a shard's games (for merge --games-out) that holds none in
-- memory: each game's JSON goes to a scratch file of its side as it is
-- played, and k:emit(text) prints the shard's JSON text with each side's
-- games poured in where its placeholder (k.games[s], a text) stands. The
-- shard printed is the one a keeper of every game would print.
function spill_keeper(kind, nsides)
  local k = { games = {}, files = {}, count = {} }
  for s = 1, nsides do
    local f, e = io.tmpfile()
    if not f then error("cannot make a scratch file: " .. tostring(e), 0) end
    k.files[s], k.count[s] = f, 0
    k.games[s] = string.format("\1kontor: the games of side %d\1", s)
  end
  function k:game(s, info, rec)
    local ok, e = self.files[s]:write(self.count[s] > 0 and "," or "", json.encode(run.game_line(kind, s, info, rec)))
    if not ok then error("a scratch file: write failed: " .. tostring(e), 0) end
    self.count[s] = self.count[s] + 1
  end
  function k:close() end
  function k:emit(text)
    local pos = 1
    for s = 1, nsides do
      local a, b = text:find(json.encode(self.games[s]), pos, true)
      out(text:sub(pos, a - 1), raw("["))
      local f = self.files[s]
      f:seek("set", 0)
      while true do
        local chunk = f:read(65536)
        if not chunk then break end
        out(raw(chunk))
      end
      f:close()
      out(raw("]"))
      pos = b + 1
    end
    out(text:sub(pos), "\n")
  end
  return k
end

-- Which bots played each side, with the skill ladder's rating of each
-- (kontor.balance.ladder): { desc = { side's list, ... }, lines = {...} };
-- setups that play the same bots get one line.
-- A sweep's sides are named by their values (`sweep`: { over, values }).
local function bots_of(sides, sweep)
  local ladder = require("kontor.balance.ladder")
  local desc, lines, same = {}, {}, true
  for i, side in ipairs(sides) do
    local info = side.info
    desc[i] = ladder.describe(info.rules, info.variants, info.players, ladder.specs_of(info))
    lines[i] = ladder.line(desc[i])
    same = same and lines[i] == lines[1]
  end
  if same then
    lines = { lines[1] }
  elseif sweep then
    for i = 1, #lines do
      lines[i] = ladder.line(desc[i], string.format("bots, %s=%s", sweep.over, sweep.values[i]))
    end
  else
    lines = { ladder.line(desc[1], "bots A"), ladder.line(desc[2], "bots B") }
  end
  return { desc = desc, lines = lines }
end

local verdicts_line

-- What --until-width W did, for the text: stopped early, or not reached
-- in the games asked (with the widest interval and about how many games
-- would narrow it: an interval narrows as 1/sqrt(games)). nil without it.
local function width_line(summary, width, asked)
  if not width then return nil end
  local widest, label = 0, nil
  for _, key in ipairs(summary.order) do
    local m = summary.measures[key]
    if balance.judged(key) and m.ci and m.ci[2] - m.ci[1] >= widest then
      widest, label = m.ci[2] - m.ci[1], m.label
    end
  end
  local played = summary.games
  local what = string.format("widest %.4f: %s", widest, label or "none")
  if widest < width then
    if played < asked then
      return string.format("until-width %g: stopped at %d of %d games, every win rate's interval narrower (%s)",
        width, played, asked, what)
    end
    return string.format("until-width %g: every win rate's interval narrower after all %d games (%s)", width, played, what)
  end
  local need = math.ceil(played * (widest / width) ^ 2 / 1000) * 1000
  return string.format("until-width %g: not reached in %d games (%s; about %d games would narrow it)",
    width, played, what, need)
end

local function report_and_output(kind, t, sides, seed, unpaired, diffs, sweep)
  local summary = run.summarize(kind, sides, seed, unpaired, diffs, sweep)
  local played = bots_of(sides, sweep)
  summary.bots, summary.bots_text = played.desc, table.concat(played.lines, "\n")
  if kind == "sweep" then return sweep_output(t, summary) end
  if t.report then
    write_file(t.report, require("kontor.balance.report").html(summary, sides), REPORT)
  end
  if t.json then
    -- a measure's missing verdict, difference or interval is JSON null
    for _, key in ipairs(summary.order) do
      local m = summary.measures[key]
      if summary.kind == "compare" then
        for _, f in ipairs { "a", "b", "diff", "ci", "verdict" } do
          if m[f] == nil then m[f] = json.null end
        end
      elseif m.ci == nil then
        m.ci = json.null
      end
    end
    out(json.encode(summary), "\n")
  else
    local color = want_color(1) and function(text, v)
      local up = v == "higher" or v == "longer" or v == "larger" or v == "more" or v == "later" or v == "wider"
      return ktext.style(up and "32" or "31", text)
    end or nil
    if kind == "compare" then
      out(balance.format_compare(summary, color), "\n")
      local said = verdicts_line(summary)
      if said then out(said, "\n") end
    else
      out(balance.format_sim(summary), "\n")
    end
    if summary.bots_text then out(summary.bots_text, "\n") end
    local wl = width_line(summary, tonumber(t.until_width), t.asked_games)
    if wl then out(wl, "\n") end
    if summary.coverage then
      for i, c in ipairs(summary.coverage) do
        local title = kind == "compare" and (i == 1 and "A" or "B") or nil
        out("\n", coverage.format(c, title), "\n")
      end
    end
    if t.report then out("\nreport written to ", t.report, "\n") end
  end
end

-- How many rows of a comparison have a verdict, and how many of those
-- Holm's correction for the rows compared keeps (at 95% a change that does
-- nothing still gives one row in twenty a verdict); nil without a verdict.
verdicts_line = function(c)
  local held, n = require("kontor.balance.report").holm(c)
  local with, kept = 0, 0
  for _, key in ipairs(c.order) do
    local m = c.measures[key]
    if m.verdict and not key:match("^moves%..* #%d+$") then
      with = with + 1
      if held[key] then kept = kept + 1 end
    end
  end
  return holm_text(with, kept, n, "rows", "rows compared")
end

local function run_cmd(args, kind)
  local name = args[1]
  local specs = { SETUP_FLAGS, RUN_FLAGS }
  if kind == "compare" then specs[3] = COMPARE_FLAGS end
  if kind == "sweep" then specs[3] = SWEEP_FLAGS end
  if kind == "compare" then
    -- `--a --b '...'`: the plain game given as nothing, not as '' (a
    -- SETUP is "--flag value": a lone flag is the next option)
    for i = 2, #args - 1 do
      if (args[i] == "--a" or args[i] == "--b") and args[i + 1]:match("^%-%-[%w%-]+$") then
        return usage_error(string.format("compare: %s needs a SETUP after it, '' for the plain game: "
          .. "%s '' (it got '%s')", args[i], args[i], args[i + 1]))
      end
    end
  end
  local t, e = parse(args, 2, table.unpack(specs))
  if not t then return usage_error(name .. ": " .. e) end
  local common, ce = setup_of(t)
  if not common then return usage_error(name .. ": " .. ce) end
  if t.moves and t.no_moves then return usage_error(name .. ": --moves and --no-moves: give one") end
  common.moves = not t.no_moves      -- what players do: counted unless --no-moves
  local setups = { common }
  local sweep
  if kind == "sweep" then
    if not t.over then
      return usage_error("sweep: --over OPTION=LO..HI (or OPTION=a,b,c) is needed, e.g. --over hand_limit.size=4..7")
    end
    if t.games_out then return usage_error("sweep: --games-out is for sim and compare") end
    local se
    setups, se = require("kontor.balance.sweep").setups(common, t.over)
    if not setups then return usage_error("sweep: " .. se) end
    sweep = se
  end
  if kind == "compare" then
    if not t.a or not t.b then
      return usage_error("compare: both --a 'SETUP' and --b 'SETUP' are needed (a SETUP is sim options, '' for none)")
    end
    for i, side in ipairs { "a", "b" } do
      local words, we = M.words(t[side])
      if not words then return usage_error("compare: --" .. side .. ": " .. we) end
      local st, se, unknown = parse(words, 1, SETUP_FLAGS)
      if not st then
        local hint = ""
        if unknown and RUN_FLAGS[unknown] then
          hint = " (it is common to both setups: give it outside --a and --b)"
        end
        return usage_error(string.format("compare: --%s '%s': %s%s", side, t[side], se, hint))
      end
      local s, sse = setup_of(st, common)
      if not s then return usage_error(string.format("compare: --%s: %s", side, sse)) end
      -- a bot given inside --a or --b: its errors say which (balance.load)
      for k, b in pairs(s.bots) do
        if common.bots[k] ~= b then b.where = "--" .. side end
      end
      setups[i] = s
    end
    -- `--a ''` is the base game of B (docs/balance.md): a side with
    -- neither --rules nor --variant plays the rule set of the other
    -- side's first variant where that side names no --rules, as that side
    -- does: `--a '' --b '--variant ./low_tax.lua'` compared Sea Merchants
    -- with Caribbean.
    for i = 1, 2 do
      local s, o = setups[i], setups[3 - i]
      if not s.rules and #s.variants == 0 and not o.rules and #o.variants > 0 then
        s.rules = require("kontor.rules").default_for(o.variants)
      end
    end
  end
  local games, ge = require("cli").games_flag(t, kind == "compare" and 1000 or 100)
  if not games then return usage_error(name .. ": " .. ge) end
  local seed, se = require("kontor").parse_seed(t.seed, 1)
  if not seed then return usage_error(name .. ": " .. se) end
  local jobs, je = int_of(t, "jobs", nil, 1)
  if je then return usage_error(name .. ": " .. je) end
  local width
  if t.until_width then
    width = tonumber(t.until_width)
    if not width or width <= 0 then
      return usage_error(string.format("%s: --until-width must be a positive number, not '%s'", name, t.until_width))
    end
  end
  local lo, hi
  if t.shard then
    local k, n = t.shard:match("^(%d+)/(%d+)$")
    k, n = math.tointeger(tonumber(k)), math.tointeger(tonumber(n))
    if not k or n < 1 or k < 1 or k > n then
      return usage_error(string.format("%s: --shard must be K/N with 1 <= K <= N, not '%s'", name, t.shard))
    end
    lo, hi = run.shard_range(k, n, games)
  end
  if t.range then
    local a, b = t.range:match("^(%d+)%-(%d+)$")
    a, b = math.tointeger(tonumber(a)), math.tointeger(tonumber(b))
    if not a or a < 1 or b < a - 1 then
      return usage_error(string.format("%s: --range must be LO-HI (game numbers), not '%s'", name, t.range))
    end
    if t.shard then return usage_error(name .. ": --range and --shard cannot be used together") end
    lo, hi = a, b
  end
  if lo and t.seed == "random" then
    return usage_error(name .. ": --seed random would draw another seed in each shard: give every shard "
      .. "the same whole number")
  end
  -- a sweep plays every value to the same count and reports no coverage
  if kind == "sweep" and (width or t.coverage) then
    return usage_error(string.format("sweep: --%s is for sim and compare; a sweep plays --games at every value",
      width and "until-width" or "coverage"))
  end
  if lo and (width or t.report) then
    return usage_error(string.format("%s: --%s cannot be used with --shard (use it with kontor merge)",
      name, width and "until-width" or "report"))
  end

  local ok, res = pcall(function()
    local sides = {}
    for i, s in ipairs(setups) do sides[i] = balance.load(s) end
    warn_unmatched(name, t, sides)
    if kind == "compare" and sides[1].info.rules ~= sides[2].info.rules and not t.range then
      err(string.format("kontor: compare: warning: A plays %s and B %s: two rule sets, so the same seeds deal "
        .. "different games and the pairs are no closer than two separate runs\n", sides[1].info.rules, sides[2].info.rules))
    end
    if t.report then check_output(t.report) end
    if t.svg then make_dir(t.svg) end
    local job = { sides = sides, seed = seed, unpaired = t.unpaired, coverage = t.coverage, sweep = sweep,
                  jobs = jobs or (lo and 1 or run.cores()), child = child_args(args, 2, seed) }
    if lo then
      -- a shard: its games, as data
      local state = run.new_state(job)
      job.progress = os.getenv("KONTOR_LAB_PROGRESS") and child_progress((hi - lo + 1) * #sides)
      -- a job of --jobs sends its sums alone; a shard keeps its games too
      local part = os.getenv("KONTOR_LAB_PART")
      -- (games its own jobs play are not kept: its memory stays flat, and
      -- merge --games-out says to make it without --jobs)
      local here = not (job.jobs > 1 and hi > lo)
      if not part and kind ~= "sweep" and here then job.kept = spill_keeper(kind, #sides) end
      if t.games_out then job.games_out = run.games_writer(t.games_out, kind, #sides, part) end
      if hi >= lo then
        local okp, perr = pcall(run.play_range, job, state, lo, hi, 0, (hi - lo + 1) * #sides)
        if not okp then
          if job.games_out then job.games_out:abort() end
          error(perr, 0)
        end
      end
      if job.games_out then job.games_out:close() end
      local got, diffs = run.collect(job, state)
      local text = json.encode(run.shard(kind, job, got, games, lo, hi, diffs))
      if job.kept then job.kept:emit(text) else out(text, "\n") end
      return
    end
    if t.games_out then job.games_out = run.games_writer(t.games_out, kind, #sides) end
    local finish
    if core.term.isatty(2) then
      job.progress, finish = progress_bar(want_color(2))
    end
    local okr, got, diffs = pcall(run.run, job, kind, games, width)
    if finish then finish() end
    -- the games file whole, or the old one and no part file left
    if job.games_out then
      if okr then job.games_out:close() else job.games_out:abort() end
    end
    if not okr then error(got, 0) end
    t.asked_games = games
    report_and_output(kind, t, got, seed, t.unpaired, diffs, job.sweep)
  end)
  if not ok then return failure(name, res) end
  return 0
end

-- (kontor, args) as the commands of cli.lua; the lab needs only args.
function M.sim(_, args) return run_cmd(args, "sim") end
function M.compare(_, args) return run_cmd(args, "compare") end
function M.sweep(_, args) return run_cmd(args, "sweep") end

---------------------------------------------------------------------------
-- worth: what a kind of move is worth (kontor.balance.worth)
---------------------------------------------------------------------------

local WORTH_FLAGS = { ["--rules"] = "value", ["--variant"] = "list", ["--players"] = "value",
  ["--option"] = "list", ["--bot"] = "value", ["--kinds"] = "value", ["--games"] = "value",
  ["--seed"] = "value", ["--json"] = "bool", ["--jobs"] = "value", ["--shard"] = "value",
  ["--range"] = "value", ["--report"] = "value" }
-- the games of the first run that finds the kinds (fewer if --games is)
local DISCOVER = 20

-- A child job's command line: `words` quoted for the shell, with the
-- variable that makes it print progress lines for its parent.
local function child_command(words)
  local q = {}
  for j, x in ipairs(words) do q[j] = "'" .. x:gsub("'", "'\\''") .. "'" end
  return "KONTOR_LAB_PROGRESS=1 " .. table.concat(q, " ")
end

-- Plays games lo..hi of every kind in n child jobs (each a shard, checked
-- as kontor merge checks a file's) and adds their sums into acc. A child
-- gets the parent's setup, its seed and kinds, and its games.
local function worth_children(args, seed, kinds, lo, hi, n, acc, progress)
  local worth = require("kontor.balance.worth")
  local cmds, sizes = {}, {}
  for j = 1, n do
    local a, b = run.shard_range(j, n, hi - lo + 1)
    local t = append_without({ program(args), "worth" }, args, 2,
      { ["--jobs"] = 1, ["--seed"] = 1, ["--kinds"] = 1, ["--json"] = 0, ["--range"] = 1, ["--shard"] = 1,
        ["--report"] = 1 })
    for _, x in ipairs { "--seed", tostring(seed), "--kinds", table.concat(kinds, ";"), "--range",
                         (lo + a - 1) .. "-" .. (lo + b - 1), "--jobs", "1" } do t[#t + 1] = x end
    cmds[j], sizes[j] = child_command(t), worth.games_of(kinds, b - a + 1)
  end
  run.children(cmds, sizes, progress, function(part, name)
    worth.check_shard(part, name)
    worth.add_shard(acc, part)
  end)
end

-- The summary of a run of worth: text, --json, and --report.
local function worth_output(t, w)
  local worth = require("kontor.balance.worth")
  -- the bot of every seat, with its skill ladder rating (kontor.balance.ladder)
  local ladder = require("kontor.balance.ladder")
  local every = {}
  for s = 1, w.players do every[s] = w.bot end
  w.bots = ladder.describe(w.rules, w.variants, w.players, every)
  w.bots_text = ladder.line(w.bots) .. ", one seat restricted in turn"
  if t.report then write_file(t.report, require("kontor.balance.report").worth_html(w), REPORT) end
  if t.json then
    for _, r in ipairs(w.rows) do
      for _, f in ipairs { "restriction", "restricted_bot", "why", "win_rate", "ci", "diff", "diff_ci", "p", "kept_share",
                           "kept_per_game" } do
        if r[f] == nil then r[f] = json.null end
      end
    end
    out(json.encode(w), "\n")
  else
    out(worth.format(w), "\n", w.bots_text, "\n")
    if t.report then out("\nreport written to ", t.report, "\n") end
  end
end

function M.worth(_, args)
  local t, e = parse(args, 2, WORTH_FLAGS)
  if not t then return usage_error("worth: " .. e) end
  if not t.bot then return usage_error("worth: --bot KIND[:k=v,...] is needed, e.g. --bot greedy (one bot for every seat)") end
  if t.bot:match("^%s*%d+%s*=") then
    return usage_error(string.format("worth: --bot %s: give the bot without a seat (every seat plays it), e.g. --bot greedy", t.bot))
  end
  local bots = require("kontor.bots")
  local bkind, bopts = bots.parse(t.bot)
  if not bkind then return usage_error("worth: --bot " .. t.bot .. ": " .. bopts) end
  if bopts.avoid or bopts.prefer then
    return usage_error("worth: --bot " .. t.bot .. ": the bot is restricted by worth itself; give it without avoid= or prefer=")
  end
  local probe, pe = bots.new(t.bot, 1, 1)
  if not probe then return usage_error("worth: --bot " .. t.bot .. ": " .. pe) end
  local setup_t = { rules = t.rules, variant = t.variant, players = t.players, option = t.option }
  local setup, se = setup_of(setup_t)
  if not setup then return usage_error("worth: " .. se) end
  local games, ge = require("cli").games_flag(t, 200)
  if not games then return usage_error("worth: " .. ge) end
  local seed, sde = require("kontor").parse_seed(t.seed, 1)
  if not seed then return usage_error("worth: " .. sde) end
  local jobs, je = int_of(t, "jobs", nil, 1)
  if je then return usage_error("worth: " .. je) end
  -- a shard (--shard K/N, or --range LO-HI as the jobs get) prints its
  -- games' sums for kontor merge, as sim, compare and sweep do
  local lo, hi
  if t.shard then
    local k, n = t.shard:match("^(%d+)/(%d+)$")
    k, n = math.tointeger(tonumber(k)), math.tointeger(tonumber(n))
    if not k or n < 1 or k < 1 or k > n then
      return usage_error(string.format("worth: --shard must be K/N with 1 <= K <= N, not '%s'", t.shard))
    end
    lo, hi = run.shard_range(k, n, games)
  end
  if t.range then
    local a, b = t.range:match("^(%d+)%-(%d+)$")
    a, b = math.tointeger(tonumber(a)), math.tointeger(tonumber(b))
    if not a or a < 1 or b < a - 1 or b > games then
      return usage_error(string.format("worth: --range must be LO-HI (game numbers 1-%d), not '%s'", games, t.range))
    end
    if t.shard then return usage_error("worth: --range and --shard cannot be used together") end
    lo, hi = a, b
  end
  if lo and t.seed == "random" then
    return usage_error("worth: --seed random would draw another seed in each shard: give every shard "
      .. "the same whole number")
  end
  if lo and t.report then
    return usage_error("worth: --report cannot be used with --shard (use it with kontor merge)")
  end
  local worth = require("kontor.balance.worth")
  local given
  if t.kinds and t.kinds ~= "all" then
    given = {}
    for k in (t.kinds .. ";"):gmatch("([^;]*);") do
      k = k:match("^%s*(.-)%s*$")
      if k ~= "" then
        local _, why = worth.restriction(k)
        if why and not k:match("^[%w_]+: .+$") then return usage_error("worth: --kinds: " .. why) end
        given[#given + 1] = k
      end
    end
    if #given == 0 then return usage_error("worth: --kinds: no kind given (DECISION: WORDS;..., or all)") end
  end
  local ok, res = pcall(function()
    local L = balance.load(setup)
    if t.report then check_output(t.report) end
    local rated = require("kontor.balance.restrictions").seats(L)
    local _, popts = require("kontor.bots").parse(t.bot)
    rated[#rated + 1] = { who = "--bot " .. t.bot, options = popts }
    for _, k in ipairs(given or {}) do   -- each kind given is a restriction worth plays
      rated[#rated + 1] = { who = "--kinds", what = "kind", shown = k, options = { avoid = worth.restriction(k) } }
    end
    warn_unmatched("worth", t, { L }, rated)
    probe:tune(L.R)   -- its name with the rule set's own settings (R.bot_options)
    -- on a terminal, what the run will do and how long it is likely to
    -- take, on stderr (stdout is the same, terminal or not)
    local tty = not lo and core.term.isatty(2)
    local found = not given and math.min(games, DISCOVER) or nil
    if tty and found then
      err(string.format("kontor: worth: no --kinds: finding the kinds of move %s makes in the first %d games\n",
        t.bot, found))
    end
    -- every shard finds the same kinds: the first games of the whole run
    local kinds = given or worth.discover(L, t.bot, seed, 1, found)
    local a, b = lo or 1, hi or games
    local acc = {}
    jobs = jobs or (lo and 1 or run.cores())
    local n = math.min(jobs, b - a + 1)
    local total = worth.games_of(kinds, b - a + 1)   -- (the deals unrestricted too)
    if tty then err("kontor: worth: ", worth.plan(kinds, b - a + 1, found), "\n") end
    local progress, finish
    local child = os.getenv("KONTOR_LAB_PROGRESS")
    if child and lo then
      progress = child_progress(total)
    elseif tty then
      local draw
      draw, finish = progress_bar(want_color(2))
      -- after 5 s (the clock counts whole seconds: within a fifth), the
      -- time the whole run is likely to take at the pace so far
      local t0, told = os.time(), false
      progress = function(done)
        if not told and done < total and os.time() - t0 >= 5 then
          told = true
          finish()
          local el = os.time() - t0
          err(string.format("kontor: worth: about %s in all (%s for the first %d games)\n",
            worth.duration(el * total / done), worth.duration(el), done))
        end
        draw(math.min(done, total), total)
      end
    end
    local okp, got = pcall(function()
      if n > 1 then
        worth_children(args, seed, kinds, a, b, n, acc, progress)
        return acc
      end
      return worth.play(L, t.bot, kinds, seed, a, b, progress)
    end)
    if finish then finish() end
    if not okp then error(got, 0) end
    acc = got
    if lo then
      out(json.encode(worth.shard(L, probe:spec(), kinds, acc, games, seed, lo, hi)), "\n")
      return
    end
    worth_output(t, worth.summary(L, probe:spec(), kinds, acc, games, seed))
  end)
  if not ok then return failure("worth", res) end
  return 0
end

---------------------------------------------------------------------------
-- ladder: a round robin of bots, rated (kontor.balance.ladder)
---------------------------------------------------------------------------

local LADDER_FLAGS = { ["--rules"] = "value", ["--variant"] = "list", ["--players"] = "value",
  ["--option"] = "list", ["--deals"] = "value", ["--seed"] = "value", ["--json"] = "bool",
  ["--jobs"] = "value", ["--shard"] = "value", ["--range"] = "value" }

-- The summary of a ladder: text or --json.
local function ladder_output(t, s)
  if t.json then
    for _, r in ipairs(s.ratings) do if r.ci == nil then r.ci = json.null end end
    out(json.encode(s), "\n")
  else
    out(require("kontor.balance.ladder").format(s), "\n")
  end
end

-- Plays deals lo..hi in n child jobs (each a shard, checked as kontor
-- merge checks a file's); returns what one run of them would: { results,
-- cpu (the children's, summed) }.
local function ladder_children(args, seed, lo, hi, n, progress)
  local ladder = require("kontor.balance.ladder")
  local cmds, sizes, ran = {}, {}, { results = {}, cpu = 0 }
  for j = 1, n do
    local a, b = run.shard_range(j, n, hi - lo + 1)
    local t = append_without({ program(args), "ladder" }, args, 2,
      { ["--jobs"] = 1, ["--seed"] = 1, ["--json"] = 0, ["--range"] = 1, ["--shard"] = 1 })
    for _, x in ipairs { "--seed", tostring(seed), "--range", (lo + a - 1) .. "-" .. (lo + b - 1),
                         "--jobs", "1" } do t[#t + 1] = x end
    cmds[j], sizes[j] = child_command(t), b - a + 1
  end
  run.children(cmds, sizes, progress, function(part, name)
    ladder.check_shard(part, name)
    for i, r in ipairs(part.results) do ran.results[part.lo + i - 1] = r end
    ran.cpu = ran.cpu + part.cpu
  end)
  return ran
end

-- Deals lo..hi of --shard K/N or --range LO-HI; nothing when neither is
-- given; nil, nil, why for a bad one.
local function ladder_range(t, deals)
  local lo, hi
  if t.shard then
    local k, n = t.shard:match("^(%d+)/(%d+)$")
    k, n = math.tointeger(tonumber(k)), math.tointeger(tonumber(n))
    if not k or n < 1 or k < 1 or k > n then
      return nil, nil, string.format("--shard must be K/N with 1 <= K <= N, not '%s'", t.shard)
    end
    lo, hi = run.shard_range(k, n, deals)
  end
  if t.range then
    if t.shard then return nil, nil, "--range and --shard cannot be used together" end
    local a, b = t.range:match("^(%d+)%-(%d+)$")
    a, b = math.tointeger(tonumber(a)), math.tointeger(tonumber(b))
    if not a or a < 1 or b < a - 1 or b > deals then
      return nil, nil, string.format("--range must be LO-HI (deal numbers 1-%d), not '%s'", deals, t.range)
    end
    lo, hi = a, b
  end
  if lo and t.seed == "random" then
    return nil, nil, "--seed random would draw another seed in each shard: give every shard the same whole number"
  end
  return lo, hi
end

function M.ladder(_, args)
  -- the bots are the words that are neither a flag nor a flag's value
  local flags, names = {}, {}
  local i = 2
  while i <= #args do
    local a = args[i]
    local flag = a:match("^(%-%-[%w%-]+)")
    if flag then
      flags[#flags + 1] = a
      if LADDER_FLAGS[flag] and LADDER_FLAGS[flag] ~= "bool" and not a:find("=", 1, true) and args[i + 1] then
        i = i + 1
        flags[#flags + 1] = args[i]
      end
    else
      names[#names + 1] = a
    end
    i = i + 1
  end
  local t, e, bad = parse(flags, 1, LADDER_FLAGS)
  if not t then
    -- compare and sweep count games; the ladder counts deals
    if bad == "--games" then e = e .. " (the ladder counts --deals: each pair of bots plays each deal twice)" end
    return usage_error("ladder: " .. e)
  end
  local ladder = require("kontor.balance.ladder")
  if #names < 2 then
    return usage_error("ladder: give two bots or more to rate, e.g. kontor ladder --rules caribbean "
      .. "random greedy mcts:iterations=100")
  end
  local seen = {}
  for j, b in ipairs(names) do
    local _, be = require("kontor.bots").new(b, 1, 1)
    local prev = names[j - 1]
    if be and prev and (prev:find("avoid=", 1, true) or prev:find("prefer=", 1, true)) then
      -- ladder random greedy:avoid=buy contract: the shell split a move's words
      be = string.format("%s (a bot with spaces needs quotes: '%s %s')", be, prev, b)
    end
    if be then return usage_error("ladder: " .. be) end
    local c = ladder.canonical(b)
    if seen[c] then return usage_error(string.format("ladder: the bot '%s' is given twice", b)) end
    seen[c] = true
  end
  local setup, se = setup_of({ rules = t.rules, variant = t.variant, players = t.players, option = t.option })
  if not setup then return usage_error("ladder: " .. se) end
  setup.players = setup.players or 2
  local deals, de = int_of(t, "deals", 10, 1)
  if not deals then return usage_error("ladder: " .. de) end
  local seed, sde = require("kontor").parse_seed(t.seed, 1)
  if not seed then return usage_error("ladder: " .. sde) end
  local jobs, je = int_of(t, "jobs", nil, 1)
  if je then return usage_error("ladder: " .. je) end
  local lo, hi, re = ladder_range(t, deals)
  if re then return usage_error("ladder: " .. re) end
  local ok, res = pcall(function()
    local L = balance.load(setup)
    local rated = {}
    for k, b in ipairs(names) do
      local _, opts = require("kontor.bots").parse(b)
      rated[k] = { who = "bot " .. b, options = opts }
    end
    warn_unmatched("ladder", t, { L }, rated)
    local a, b = lo or 1, hi or deals
    local n = math.min(jobs or (lo and 1 or run.cores()), math.max(1, b - a + 1))
    local games_a_deal = 2 * #ladder.pairs(#names)
    local total = games_a_deal * (b - a + 1)
    local progress, finish
    if os.getenv("KONTOR_LAB_PROGRESS") and lo then
      progress = child_progress(total, games_a_deal)
    elseif core.term.isatty(2) then
      local draw
      draw, finish = progress_bar(want_color(2))
      progress = n > 1 and function(d) draw(math.min(d, b - a + 1), b - a + 1) end
                 or function(d) draw(math.min(d, total), total) end
    end
    local okr, ran = pcall(function()
      if n > 1 then return ladder_children(args, seed, a, b, n, progress) end
      return ladder.run(L, names, deals, seed, progress, a, b)
    end)
    if finish then finish() end
    if not okr then error(ran, 0) end
    if lo then
      out(json.encode(ladder.shard(L, names, deals, seed, lo, hi, ran)), "\n")
      return
    end
    ladder_output(t, ladder.summary(L, names, deals, seed, ran))
  end)
  if not ok then return failure("ladder", res) end
  return 0
end

---------------------------------------------------------------------------
-- merge
---------------------------------------------------------------------------

local MERGE_FLAGS = { ["--json"] = "bool", ["--report"] = "value", ["--games-out"] = "value" }

function M.merge(_, args)
  local files, rest = {}, {}
  local i = 2
  while i <= #args do
    local a = args[i]
    local flag = a:match("^(%-%-[%w%-]+)")
    if flag and MERGE_FLAGS[flag] then
      rest[#rest + 1] = a
      if MERGE_FLAGS[flag] == "value" and not a:find("=", 1, true) then
        i = i + 1
        rest[#rest + 1] = args[i]
      end
    elseif a:sub(1, 1) == "-" and a ~= "-" then
      return usage_error(string.format("merge: unknown option '%s'", a))
    else
      files[#files + 1] = a == "-" and "/dev/stdin" or a
    end
    i = i + 1
  end
  local t, e = parse(rest, 1, MERGE_FLAGS)
  if not t then return usage_error("merge: " .. e) end
  if #files == 0 then return usage_error("merge: shard files are expected (made by kontor sim|compare|sweep|worth --shard K/N)") end
  local ok, res = pcall(function()
    local shards = run.read_shards(files, not t.games_out)
    -- the shards of kontor ladder: each deal's results, merged into a ladder
    if shards[1].kind == "ladder" then
      if t.games_out or t.report then error("--games-out and --report are for the lab's runs, not a ladder", 0) end
      return ladder_output(t, require("kontor.balance.ladder").merge(shards))
    end
    -- the shards of kontor worth: sums per kind of move, not per side
    for _, sh in ipairs(shards) do
      if sh.kind == "worth" then
        if t.games_out then error("--games-out is for the shards of sim and compare, not of worth", 0) end
        return worth_output(t, require("kontor.balance.worth").merge(shards))
      end
    end
    local sides, first, diffs = run.merge(shards)
    if t.games_out then
      if first.kind == "sweep" then error("--games-out is for the shards of sim and compare, not of a sweep", 0) end
      local w = run.games_writer(t.games_out, first.kind, #sides)
      local okw, werr = pcall(run.merged_games, shards, w)
      if not okw then w:abort(); error(werr, 0) end
      w:close()
    end
    report_and_output(first.kind, t, sides, first.seed, first.unpaired, diffs, first.sweep)
  end)
  if not ok then return failure("merge", res) end
  return 0
end

return M
