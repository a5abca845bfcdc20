-- cli (repl/cli.lua): the command line of the `kontor` program.
--
-- Exit status: 0 success; 1 a run-time failure (a rule-script error, an
-- unreadable file, a failed test script); 2 a usage error (unknown command
-- or option, bad value).

local M = {}

local USAGE = [==[
usage: kontor [repl|play] [--rules NAME|FILE] [--variant NAME|FILE[:k=v,...]]...
                          [--players N] [--names A,B,C] [--seed S|random] [--option k=v]...
                          [--bot SEAT=KIND[:k=v,...]]... [--free-undo]
       kontor [repl|play] --load FILE [--bot SEAT=KIND[:k=v,...]]... [--free-undo]
       kontor --list
       kontor run FILE.lua [ARGS...]
       kontor serve
       kontor sim [SETUP OPTIONS] [--games G] [--seed S|random] [--game I] [--json]
                  [--bot SEAT=KIND[:k=v,...]]... [--jobs N] [--shard K/N|--range LO-HI]
                  [--coverage] [--report FILE.html] [--games-out FILE.jsonl] [--until-width W]
                  [--no-moves]
       kontor compare [SETUP OPTIONS] --a 'SETUP' --b 'SETUP' [--games G] [--seed S|random]
                      [--unpaired] [--json] [--bot SEAT=KIND[:k=v,...]]...
                      [sim's --jobs ... --no-moves]
       kontor sweep [SETUP OPTIONS] --over [VARIANT.]OPTION|players=LO..HI|a,b,c [--games G]
                    [--svg DIR] [--seed S|random] [--json] [--bot SEAT=KIND[:k=v,...]]...
                    [--jobs N] [--shard K/N|--range LO-HI] [--report FILE.html] [--no-moves]
       kontor worth [SETUP OPTIONS] --bot KIND[:k=v,...] [--kinds 'K1;K2'|all] [--games G]
                    [--seed S|random] [--json] [--jobs N] [--shard K/N|--range LO-HI]
                    [--report FILE.html]
       kontor ladder [SETUP OPTIONS] [--deals N] [--seed S|random] [--json] [--jobs N]
                     [--shard K/N|--range LO-HI] BOT BOT...
       kontor merge SHARD.json... [--json] [--report FILE.html] [--games-out FILE.jsonl]
       kontor --help | --version

  repl     an interactive Lua prompt with a game loaded as `g` and game
           commands (type help); the default
  play     play at this terminal: hot-seat with hidden hands, bots on the
           seats given with --bot SEAT=KIND (KIND: random, greedy, mcts;
           options as --bot 2=mcts:iterations=500; docs/bots.md); each
           seat sees only its own view; --load FILE goes on with a saved
           game (the one play saves when you leave it unfinished); a bot
           agrees to an undo unless the move showed a hidden card
           (--free-undo: to every undo, for practice)
  --list   the rule sets and variants, one line each: name, kind, title, summary
  run      run a Lua script with the kontor API (global `kontor`, `arg`)
  serve    speak the JSON-lines protocol on stdin/stdout, for front ends
           in any language (docs/protocol.md)
  sim      play G random games and print a summary (the same seed gives
           the same summary; only the speed varies); --game I plays game I
           of the run alone (a failing game's message gives the command);
           the balance lab's flags add intervals, what players do (each
           kind of move), cores, shards, coverage, a report
  compare  play two setups on the same deals; each measure's difference
           with its 95% interval and a verdict (docs/balance.md)
  sweep    play the same deals over an option's values; each measure per
           value with its interval and its change from the first value
           (--over players=2..4: the same setup at each player count)
  worth    what each kind of move is worth: the win rate of a seat whose
           bot never makes it against the same bot unrestricted, with its
           95% interval (docs/balance.md)
  ladder   a round robin of BOTs (KIND[:k=v,...]) on the same deals: each
           bot's rating (Bradley-Terry, Elo scale) with its 95% interval
           (docs/bots.md "Skill ladder")
  merge    combine the shards of a run into that run's result

SETUP OPTIONS are those of repl: [--rules NAME|FILE] [--variant
NAME|FILE[:k=v,...]]... [--players N] [--option k=v]...
Rule sets are found by name in $KONTOR_PATH and the installed variants/
folder, or given as a path to a .lua file.
A game without --seed (or with --seed random) gets a fresh seed from the
system, shown in the REPL's banner and under the final scores; sim,
compare, sweep, worth and ladder use seed 1 unless told, and print the
seed they used. Unless told, sim plays 100 games (sweep 100 a value,
compare 1000 a side, worth 200 a kind of move, ladder 10 deals).
Exit status: 0 success; 1 a failure (an error in a rule or variant file,
a game that fails, a file that cannot be read, a failed script); 2 a usage
error (an unknown command, option, rule set or variant, a bad value, a
player count or option the rule set does not allow).]==]

local ktext = require "kontor.text"

-- What the program prints may quote rule sets, variants and save files:
-- it goes through the one sink (kontor.text.write), which escapes control
-- characters; a write that fails (a full disk) makes the exit status 1.
local function out(...) ktext.write(io.stdout, ...) end
local function err(...) ktext.write(io.stderr, ...) end

local function usage_error(msg)
  err("kontor: ", msg, "\n", "Try 'kontor --help'.\n")
  return 2
end

-- A rule or variant file that fails (a syntax error, an error while it
-- runs, a file that is not a rule script): its first line, file:line
-- first; nil when the error is about what was asked for (kind "usage").
local function script_failure(e)
  local kind = require("kontor.errors").kind(e)
  if kind == "usage" then return nil end
  return e.script or ktext.error_place(e)
end

local function failure(prefix, msg)
  err("kontor: ", prefix, msg, "\n")
  return 1
end

-- "a,b,c" -> {"a","b","c"}; empty and repeated names are refused.
local function split_names(s)
  local names, seen = {}, {}
  for n in (s .. ","):gmatch("([^,]*),") do
    n = n:match("^%s*(.-)%s*$")
    if n == "" then return nil, string.format("--names %s: name %d is empty", s, #names + 1) end
    if seen[n:lower()] then
      return nil, string.format("--names %s: '%s' is given twice (each player needs a name of their own)", s, n)
    end
    seen[n:lower()] = true
    names[#names + 1] = n
  end
  return names
end

-- "name:k=v,k2=v2" -> { name, options = { k = "v", k2 = "v2" } }
local function parse_variant(s)
  local name, opts = require("kontor.rules").parse_variant(s)
  if not name then return nil, opts end
  return { name, options = opts or {} }
end

-- Parses --flag value pairs against one or more specs (flag -> "value",
-- "list", "bool" or "kv"; repl/lab.lua shares it). Returns the table (with
-- the "kv" flags' pairs in t.option), or nil and a message (and, for an
-- option no spec has, the option: "--games" of "--games=3").
function M.parse_flags(args, first, ...)
  local specs = { ... }
  local t = { option = {} }
  local i = first
  while i <= #args do
    local a = args[i]
    local flag, inline = a:match("^(%-%-[%w%-]+)=(.*)$")
    flag = flag or a
    local kind
    for _, spec in ipairs(specs) do kind = kind or spec[flag] end
    if not kind then
      if a:sub(1, 1) == "-" then
        local names = {}
        for _, spec in ipairs(specs) do for f in pairs(spec) do names[#names + 1] = f end end
        table.sort(names)
        local near = require("kontor.rules").near(flag, names)
        return nil, string.format("unknown option '%s'%s", a, near and (": did you mean '" .. near .. "'?") or ""), flag
      end
      -- --bot 1=greedy:avoid=buy contract: the shell split a move's words
      local prev, pflag = args[i - 1], i - 2 >= first and args[i - 2]
      if prev and pflag and pflag:match("^%-%-") and (prev:find("avoid=", 1, true) or prev:find("prefer=", 1, true)) then
        return nil, string.format("unexpected argument '%s' (a value with spaces needs quotes: %s '%s %s')",
          a, pflag, prev, a)
      end
      return nil, string.format("unexpected argument '%s'", a)
    end
    local key = flag:sub(3):gsub("%-", "_")
    if kind == "bool" then
      t[key] = true
    else
      local v = inline
      if v == nil then
        i = i + 1
        v = args[i]
        if v == nil then return nil, string.format("option '%s' needs a value", flag) end
      end
      if kind == "list" then
        t[key] = t[key] or {}
        table.insert(t[key], v)
      elseif kind == "kv" then
        local k, val = v:match("^([%w_]+)=(.*)$")
        if not k then return nil, string.format("'%s %s': expected k=v", flag, v) end
        t.option[k] = val
      else
        t[key] = v
      end
    end
    i = i + 1
  end
  return t
end

local parse_flags = M.parse_flags

local function int_flag(t, name, default)
  local v = t[name]
  if v == nil then return default end
  local n = math.tointeger(tonumber(v))
  if not n then return nil, string.format("--%s must be a whole number, not '%s'", name, v) end
  return n
end

-- --games: a whole number from 1 to kontor.sim's MAX_GAMES, checked as
-- kontor.sim checks its games (kontor.sim's count: the same message, 3.0
-- taken as 3 in both).
local function games_flag(t, default)
  local v = t.games
  if v == nil then return default end
  return require("kontor.sim").count(tonumber(v) or v, "--games", 1, require("kontor.sim").MAX_GAMES)
end
M.games_flag = games_flag

local function variants_of(t)
  local vs = {}
  for _, s in ipairs(t.variant or {}) do
    local v, e = parse_variant(s)
    if not v then return nil, e end
    vs[#vs + 1] = v
  end
  return vs
end

-- kontor --list: a line an entry, its name, kind and title (as serve's
-- list has them), then its summary where the line has room for it within
-- $COLUMNS columns (default 100; cut at a word with "..." when 20 or more
-- are left); a broken file's line ends with its error.
local LIST_WIDTH = 100

local function cmd_list(rules)
  local entries = rules.list()
  -- one line an entry, whatever a file's title, summary or error holds
  -- (escaped text is UTF-8: cut between its characters, never inside one,
  -- which would show as \xC3 after the escape)
  local function cut(s, n) return s:sub(1, (utf8.offset(s, n + 1) or #s + 1) - 1) end
  local function one_line(s, max)
    s = ktext.escape(ktext.error_line(s or ""))
    if utf8.len(s) > max then s = cut(s, max - 3) .. "..." end
    return s
  end
  -- (columns counted in characters: a name in other letters than ASCII's
  -- shifts no line)
  local function pad(s, n) return s .. string.rep(" ", n - (utf8.len(s) or #s)) end
  local width = math.tointeger(tonumber(os.getenv("COLUMNS") or "")) or LIST_WIDTH
  local w, tw = 0, 0
  for _, e in ipairs(entries) do
    local name = ktext.escape(e.name)
    w = math.max(w, utf8.len(name) or #name)
    if e.title then tw = math.max(tw, utf8.len(one_line(e.title, 40)) or 40) end
  end
  for _, e in ipairs(entries) do
    local kind = e.kind == "variant" and ("variant of " .. tostring(e.base)) or e.kind
    local line = pad(ktext.escape(e.name), w) .. "  " .. pad(ktext.escape(kind), 26) .. " "
    if not e.title then
      line = line .. one_line(e.summary, 200)
    else
      local title = one_line(e.title, 40)
      local summary = ktext.escape(ktext.error_line(e.summary or ""))
      if summary ~= "" and summary ~= title then
        line = line .. title .. string.rep(" ", tw - (utf8.len(title) or #title)) .. "  "
        local room = width - (utf8.len(line) or #line)
        if utf8.len(summary) > room then
          summary = room >= 20 and (cut(summary, room - 3):match("^(.*%S)%s") or cut(summary, room - 3)) .. "..." or ""
        end
        line = line .. summary
      else
        line = line .. title
      end
    end
    out((line:gsub("%s+$", "")) .. "\n")
  end
  return 0
end

local function cmd_run(kontor, args)
  local file = args[2]
  if not file then return usage_error("run: a script file is expected") end
  local f, lerr = loadfile(file, "t")
  if not f then err("kontor: ", lerr, "\n"); return 1 end
  local script_args = { [0] = file }
  for i = 3, #args do script_args[#script_args + 1] = args[i] end
  _G.arg = script_args
  local kerrors = require "kontor.errors"
  local ok, res = xpcall(f, function(m)
    -- an error value of the API (kontor.new_game{ players = 9 }) says its message, as in the REPL
    if kerrors.is(m) then m = kerrors.message(m) end
    local tb = debug.traceback(type(m) == "string" and m or ("(error object is a " .. type(m) .. " value)"), 2)
    -- the script's frames end at its main chunk: the ones under it are the program's
    local main = tb:find("in main chunk\n", 1, true)
    return main and tb:sub(1, main + #"in main chunk" - 1) or tb
  end, table.unpack(script_args))
  io.stdout:flush()
  if not ok then err("kontor: ", tostring(res), "\n"); return 1 end
  if math.type(res) == "integer" then return res end
  return 0
end

local SIM_FLAGS = { ["--rules"] = "value", ["--variant"] = "list", ["--players"] = "value",
  ["--games"] = "value", ["--seed"] = "value", ["--json"] = "bool", ["--option"] = "kv",
  ["--game"] = "value" }

-- The flags that make `kontor sim` the balance lab's (repl/lab.lua;
-- --moves: the lab counts the moves unless told --no-moves, the flag asks
-- for the lab's sim). Checked here, so that a plain simulation does not
-- load the lab: its modules are a third of the heap the collector walks
-- and the games share the caches with (docs/performance.md, "Start-up").
local LAB_FLAGS = { ["--bot"] = true, ["--jobs"] = true, ["--shard"] = true, ["--range"] = true,
  ["--coverage"] = true, ["--report"] = true, ["--games-out"] = true, ["--until-width"] = true,
  ["--moves"] = true, ["--no-moves"] = true }

local function lab_wants(args)
  for i = 2, #args do
    if LAB_FLAGS[args[i]:match("^(%-%-[%w%-]+)")] then return true end
  end
  return false
end

-- The command line that plays game `i` of a sim run alone.
local function sim_repro(t, i, seed, games)
  local parts = { "kontor sim" }
  if t.rules then parts[#parts + 1] = "--rules " .. t.rules end
  for _, v in ipairs(t.variant or {}) do parts[#parts + 1] = "--variant " .. v end
  if t.players then parts[#parts + 1] = "--players " .. t.players end
  local keys = {}
  for k in pairs(t.option) do keys[#keys + 1] = k end
  table.sort(keys)
  for _, k in ipairs(keys) do parts[#parts + 1] = "--option " .. k .. "=" .. tostring(t.option[k]) end
  parts[#parts + 1] = string.format("--seed %d --games %d --game %d", seed, games, i)
  return table.concat(parts, " ")
end

local function cmd_sim(kontor, args)
  if lab_wants(args) then return require("lab").sim(kontor, args) end
  local t, e = parse_flags(args, 2, SIM_FLAGS)
  if not t then return usage_error("sim: " .. e) end
  local players, pe = int_flag(t, "players", nil)
  if pe then return usage_error("sim: " .. pe) end
  local games, ge = games_flag(t, 100)
  if not games then return usage_error("sim: " .. ge) end
  local seed, se = kontor.parse_seed(t.seed, 1)
  if not seed then return usage_error("sim: " .. se) end
  local vs, ve = variants_of(t)
  if not vs then return usage_error("sim: " .. ve) end
  -- --game I: checked as kontor.sim checks its only (kontor.sim's count),
  -- in one wording: "--game must be a whole number from 1 to 3, not 5"
  local only
  if t.game ~= nil then
    local oe
    only, oe = require("kontor.sim").count(tonumber(t.game) or t.game, "--game", 1, games)
    if not only then return usage_error("sim: " .. oe) end
  end
  -- the rule set, its variants, players and options first: a mistake in
  -- them is a usage error (2), a broken rule file a failure (1)
  local lok, R = pcall(kontor.load_rules, t.rules, vs)
  if not lok then
    local broken = script_failure(R)
    if broken then return failure("sim: ", broken) end
    return usage_error("sim: " .. ktext.error_line(R))
  end
  local pok, perr = pcall(kontor.check_params, R, { players = players, options = t.option })
  if not pok then return usage_error("sim: " .. ktext.error_line(perr)) end
  local ok, res = pcall(kontor.sim, { rules = R, variants = vs,
    players = players, games = games, seed = seed, options = t.option, only = only })
  if not ok then
    local i, gseed, why = res.game, res.seed, res.why
    if i then
      -- a limit's message names no place, nor one Lua raises in C: the first rule script frame does
      err(string.format("kontor: sim: game %s of %d (its seed %s) failed: %s\nReproduce it alone: %s\n",
        i, games, gseed, ktext.error_place(why), sim_repro(t, tonumber(i), seed, games)))
    else
      err("kontor: sim: ", ktext.error_line(res), "\n")
    end
    return 1
  end
  for _, w in ipairs(res.warnings or {}) do err("kontor: sim: warning: ", w, "\n") end
  -- a decision a constraint names that the games never ask (a typo: the
  -- constraint changed nothing), as the lab's sim says it
  local cons = rawget(R, "constraints")
  if type(cons) == "table" and rawlen(cons) > 0 then
    local gok, game = pcall(kontor.new_game, { rules = R, players = players, options = t.option, seed = seed })
    local wok, warnings = false, nil
    if gok then wok, warnings = pcall(require("ui").restriction_warnings, game, {}) end
    for _, w in ipairs(wok and warnings or {}) do err("kontor: sim: warning: ", w, "\n") end
  end
  if t.json then
    out(kontor.json.encode(res), "\n")
  else
    out(require("kontor.sim").format(res), "\n")
  end
  return 0
end

local REPL_FLAGS = { ["--rules"] = "value", ["--variant"] = "list", ["--players"] = "value",
  ["--names"] = "value", ["--seed"] = "value", ["--option"] = "kv", ["--bot"] = "list",
  ["--load"] = "value", ["--free-undo"] = "bool" }

-- "--bot 2=random" values -> { [2] = "random" }, checked against the game;
-- a kind may carry options: --bot 2=mcts:iterations=500.
local function bots_of(t, game)
  local seats = {}
  if not t.bot then return seats end   -- no bot: the bots' modules are not loaded
  local bots = require "kontor.bots"
  for _, s in ipairs(t.bot or {}) do
    local seat, kind = s:match("^%s*(%d+)%s*=%s*(%S.-)%s*$")   -- avoid=buy contract: spaces
    if not seat then
      return nil, string.format("--bot %s: expected SEAT=KIND[:k=v,...], e.g. --bot 2=mcts (bots: %s)", s, bots.list())
    end
    seat = math.tointeger(tonumber(seat))
    if seat < 1 or seat > game.players then
      return nil, string.format("--bot %s: there is no seat %d (the game has %d players)", s, seat, game.players)
    end
    local ok, be = bots.new(kind, seat, 1)
    if not ok then return nil, string.format("--bot %s: %s", s, be) end
    if seats[seat] and seats[seat] ~= kind then
      return nil, string.format("--bot: seat %d is given twice (%s and %s)", seat, seats[seat], kind)
    end
    seats[seat] = kind
  end
  return seats
end

local function cmd_repl(kontor, args, first, mode)
  local t, e = parse_flags(args, first, REPL_FLAGS)
  if not t then return usage_error(e) end
  if t.free_undo and mode ~= "play" then
    return usage_error("--free-undo is for kontor play: the REPL's undo takes back any move already")
  end
  local players, pe = int_flag(t, "players", nil)
  if pe then return usage_error(pe) end
  -- no --seed: new_game draws a fresh one
  local seed, se = kontor.parse_seed(t.seed, "random")
  if not seed then return usage_error(se) end
  local vs, ve = variants_of(t)
  if not vs then return usage_error(ve) end
  local names, from_names
  if t.names then
    local ne
    names, ne = split_names(t.names)
    if not names then return usage_error(ne) end
    -- --names alone sets the player count
    if players == nil then players, from_names = #names, true end
  end
  local ok, game
  if t.load then
    -- a saved game goes on (kontor play --load FILE, after an autosave)
    if t.rules or #vs > 0 or t.players or t.names or t.seed or next(t.option) then
      return usage_error("--load FILE takes the game from the file: no --rules, --variant, --players, "
        .. "--names, --seed or --option with it")
    end
    local lerr
    ok, game, lerr = pcall(kontor.load_game, t.load)
    if ok and not game then return failure("", lerr) end
  else
    ok, game = pcall(kontor.new_game, { rules = t.rules, variants = vs,
      players = players, names = names, seed = seed, options = t.option })
  end
  if not ok then
    local msg = tostring(game)
    local broken = script_failure(game)
    if broken then return failure("", broken) end
    -- a variant that does not fit: say which ones do (not after another
    -- mistake, a player count or an option, where the list says nothing)
    local kerrors = require "kontor.errors"
    if #vs > 0 and kerrors.kind(game) == "usage" and not rawget(game, "lists_available")
        and rawget(game, "wrong_base") then
      local base = t.rules or kontor.default_rules(vs)
      local fits = {}
      for _, entry in ipairs(kontor.list()) do
        if entry.kind == "variant" and entry.base == base then fits[#fits + 1] = entry.name end
      end
      if #fits > 0 then msg = msg .. string.format(" (variants of %s: %s)", base, table.concat(fits, ", ")) end
    end
    -- a player count out of range that --names set: say where it came from
    if from_names and type(game) == "table" and rawget(game, "min") then
      msg = msg .. string.format(" (--names gives %d name%s; --players sets the count, and the others are "
        .. "named Player N)", #names, #names == 1 and "" or "s")
    end
    return usage_error(msg)
  end
  local bots, be = bots_of(t, game)
  if not bots then return usage_error(be) end
  -- a restriction no option matches (a typo) gives a bot that ignores it:
  -- said before the game (kontor.balance.restrictions)
  local ok_w, warnings = pcall(require("ui").restriction_warnings, game, require("ui").seated(bots, "--bot "))
  if not ok_w then warnings = {} end
  if mode == "play" then
    -- play is given the seats' views, never the game (docs/security.md)
    return require("play").run(kontor, require("kontor.seat").table(game), { bots = bots, warnings = warnings,
      free_undo = t.free_undo, loaded = t.load })
  end
  return require("repl").run(kontor, game, { bots = bots, warnings = warnings })
end

-- `kontor help CMD`: CMD's usage lines and its entry of USAGE, or nil.
local function help_of(cmd)
  local usage, entry = {}, {}
  local form = (cmd == "repl" or cmd == "play") and "[repl|play]" or cmd
  local in_usage, in_entry = false, false
  for line in USAGE:gmatch("[^\n]*") do
    local head = line:match("^usage: kontor (.*)$") or line:match("^       kontor (.*)$")
    if head then
      in_usage = head == form or head:sub(1, #form + 1) == form .. " "
      if in_usage then usage[#usage + 1] = "       kontor " .. head end
    elseif in_usage and line:match("^         ") then
      usage[#usage + 1] = line                     -- a usage line goes on
    else
      in_usage = false
    end
    if line:match("^  (%S+)") == cmd then
      in_entry = true
      entry[#entry + 1] = line
    elseif in_entry and line:match("^           %S") then
      entry[#entry + 1] = line                     -- the entry goes on
    else
      in_entry = false
    end
  end
  if #usage == 0 or #entry == 0 then return nil end
  usage[1] = "usage: " .. usage[1]:sub(8)
  return table.concat(usage, "\n") .. "\n\n" .. table.concat(entry, "\n")
    .. "\n\n(kontor --help: every command, the setup options, the exit status)"
end

local COMMANDS = { "repl", "play", "run", "serve", "sim", "compare", "sweep", "worth", "ladder", "merge", "help" }

local function command(home, args)
  local cmd = args[1]
  -- --help, --version and --list load no more of the engine than they use
  if cmd == "help" and args[2] then
    local text = args[2] == "help"
      and "usage: kontor help [COMMAND]\n\n  help     every command's usage, or COMMAND's usage and what it does"
        .. " (commands: repl, play, run, serve, sim, compare, sweep, worth, ladder, merge, --list, help)"
      or help_of(args[2])
    if not text then
      return usage_error(string.format("help: no command '%s' (commands: repl, play, run, serve, sim, compare, "
        .. "sweep, worth, ladder, merge, --list, help)", args[2]))
    end
    out(text, "\n")
    return 0
  end
  if cmd == "--help" or cmd == "-h" or cmd == "help" then out(USAGE, "\n"); return 0 end
  -- `kontor sim --help`: that command's help (run's further arguments are
  -- its script's)
  for i = 2, cmd == "run" and 2 or #args do
    if (args[i] == "--help" or args[i] == "-h") and help_of(cmd) then out(help_of(cmd), "\n"); return 0 end
  end
  if cmd == "--version" then out("kontor ", require("kontor.core").version, "\n"); return 0 end
  if cmd == "--list" or cmd == "list" then
    local rules = require "kontor.rules"
    rules.home = home
    return cmd_list(rules)
  end
  for i = 2, #args do   -- table: `kontor --variant x --list` says why it does not list
    if args[i] == "--list" and cmd:sub(1, 2) == "--" then
      return usage_error(string.format("--list takes nothing else ('%s' given): kontor --list alone lists every "
        .. "rule set and variant, with what each is for", cmd))
    end
  end
  local kontor = require "kontor"
  kontor.set_home(home)
  _G.kontor = kontor
  if cmd == "run" then return cmd_run(kontor, args) end
  if cmd == "sim" then return cmd_sim(kontor, args) end
  if cmd == "serve" then
    if args[2] then return usage_error(string.format("serve: unexpected argument '%s'", args[2])) end
    return require("serve").run(kontor)
  end
  if cmd == "compare" then return require("lab").compare(kontor, args) end
  if cmd == "merge" then return require("lab").merge(kontor, args) end
  if cmd == "sweep" then return require("lab").sweep(kontor, args) end
  if cmd == "worth" then return require("lab").worth(kontor, args) end
  if cmd == "ladder" then return require("lab").ladder(kontor, args) end
  if cmd == "repl" then return cmd_repl(kontor, args, 2) end
  if cmd == "play" then return cmd_repl(kontor, args, 2, "play") end
  if cmd == nil or cmd:sub(1, 2) == "--" then return cmd_repl(kontor, args, 1) end
  local near = require("kontor.rules").near(cmd, COMMANDS)
  return usage_error(string.format("unknown command '%s'%s", cmd, near and (": did you mean '" .. near .. "'?") or ""))
end

function M.main(home, args)
  -- an error no command caught still reaches the terminal through the sink
  local ok, code = xpcall(command, debug.traceback, home, args)
  if not ok then
    err("kontor: ", tostring(code), "\n")
    code = 1
  end
  -- what was written to stdout must have reached it (a full disk, a
  -- closed pipe): else the run failed
  local written, e = ktext.finish(io.stdout)
  if not written then
    err("kontor: cannot write the output: ", e, "\n")
    if code == 0 then code = 1 end
  end
  return code
end

return M
