-- kontor: the public Lua API (docs/api.md).

local core = require "kontor.core"
local rules = require "kontor.rules"
local gamemod = require "kontor.game"
local save_mod       -- kontor.save, loaded when a game is first loaded
local function saves() save_mod = save_mod or require "kontor.save"; return save_mod end
-- (kontor.dump: loaded at the first pretty, show, view or state; the
-- REPL's first prompt needs none of them)
local function pretty(...) return require("kontor.dump").pretty(...) end
local text = require "kontor.text"
local errors = require "kontor.errors"

local kontor = {
  core = core,
  version = core.version,
  json = core.json,
  rng = core.rng,
  pile = core.pile,
  counter = core.counter,
  options = core.options.constant,          -- constant option lists, as rule scripts have them
  family = core.options.constant_family,
  pretty = pretty,
  Game = gamemod.Game,
  errors = errors,
}

function kontor.set_home(home)
  if type(home) ~= "string" then
    error(string.format("bad argument #1 to 'set_home' (a folder name expected, got %s)", type(home)), 2)
  end
  rules.home = home
  kontor.home = home
end

-- Where the rule sets (variants/) are when no program says (`require
-- "kontor"` from stock lua5.4; the kontor program calls set_home itself):
-- $KONTOR_HOME; else the source tree this file is in; else the installed
-- share/kontor the C module found (docs/module.md).
local function default_home()
  local env = os.getenv("KONTOR_HOME")
  if env and env ~= "" then return env end
  local lua_dir = debug.getinfo(1, "S").source:match("^@(.*)/kontor/init%.lua$")
  if lua_dir and core.fs.exists(lua_dir .. "/../variants") then
    return lua_dir == "lua" and "." or (lua_dir .. "/..")
  end
  return core.datadir
end
kontor.set_home(default_home())

-- Loads a rule set with variants: a rule-set object for new_game{rules=}.
-- Raises an error value (kontor.errors) on failure: kind "usage" for a
-- name or variant that does not fit, "rules" for a broken script.
-- A list given as something else (variants = "house", names = "Anna")
-- would be read as an empty list: the game would start without it.
local function check_list(v, name, example, level)
  if v ~= nil and type(v) ~= "table" then
    errors.raise("usage", string.format("%s must be a list (%s), not a %s", name, example, type(v)), nil, level + 1)
  end
end

-- Options given as something else than a table of option = value.
local function check_options(v, level)
  if v ~= nil and type(v) ~= "table" then
    errors.raise("usage", string.format("options must be a table of option = value ({ first_player = 2 }), not a %s",
      type(v)), nil, level + 1)
  end
end

-- rules given as a table must be a rule set (kontor.load_rules gives
-- one); any other table failed deep in the engine ("attempt to index a
-- nil value (field 'players')").
local function check_rules(R, level)
  if type(R) == "table" and (type(R.players) ~= "table" or type(R.play) ~= "function") then
    errors.raise("usage", "rules must be a rule set's name, its file, or what kontor.load_rules gave, "
      .. "not a table without players and play", nil, level + 1)
  end
end

-- A field that is true or false (or absent): anything else was taken as
-- true ("false", 0), a game with manual chance where none was asked.
local function check_flag(v, name, level)
  if v ~= nil and type(v) ~= "boolean" then
    errors.raise("usage", string.format("%s must be true or false, not a %s", name, type(v)), nil, level + 1)
  end
end

function kontor.load_rules(spec, variants)
  check_list(variants, "variants", '{ "house" }', 2)
  local R, err = rules.load(spec, variants)
  if not R then errors.throw(err, 2) end
  return R
end

kontor.list = function() return rules.list() end   -- (the entries only: no loaded tables)

-- The rule set a game without `rules` is of, given its variants: the base
-- the first one names, else "sea_merchants".
kontor.default_rules = rules.default_for

-- A fresh seed from the system (getrandom): 1 .. 2^53 - 1.
kontor.fresh_seed = core.fs.random_seed

-- A seed as a person gives it: a whole number, "random" (a fresh one), or
-- nil (the `default`, which may be "random"). Returns the seed, or nil and
-- a message.
function kontor.parse_seed(v, default)
  if v == nil then v = default end
  if v == "random" then return kontor.fresh_seed() end
  local n = math.tointeger(tonumber(v))
  if not n then return nil, string.format("--seed must be a whole number or 'random', not '%s'", tostring(v)) end
  return n
end
kontor.find_rules = rules.find

-- The fields each table-taking function knows: any other key is an error
-- naming it and the accepted ones (as kontor serve's requests do), so a
-- typo (playrs=3) is never silently the default.
local FIELDS = {
  new_game = { "rules", "variants", "players", "names", "seed", "options", "scenario", "manual_chance", "quiet" },
  sim = { "rules", "variants", "players", "games", "seed", "options", "check", "only" },
}
local HINT = {
  bots = "a game has no bots: seat one with require(\"kontor.bots\").new(kind, seat, seed) and "
    .. "play its b:choose(require(\"kontor.seat\").view(g, seat)) (docs/api.md, Bots)",
}

local function close_to(a, b) return text.distance(a, b, 2) <= 2 end

local function check_fields(fname, t, level)
  if type(t) ~= "table" then
    errors.raise("usage", string.format("kontor.%s takes a table of fields (%s), not a %s", fname,
      table.concat(FIELDS[fname], ", "), type(t)), nil, level + 1)
  end
  local known, bad = {}, {}
  for _, f in ipairs(FIELDS[fname]) do known[f] = true end
  for k in pairs(t) do
    if not known[k] then bad[#bad + 1] = k end
  end
  if #bad == 0 then return end
  table.sort(bad, function(a, b) return tostring(a) < tostring(b) end)
  local k = bad[1]
  local name = type(k) == "string" and string.format("'%s'", k) or string.format("[%s]", tostring(k))
  local extra = ""
  if HINT[k] then extra = ": " .. HINT[k]
  elseif type(k) == "string" then
    for _, f in ipairs(FIELDS[fname]) do
      if close_to(k, f) then extra = string.format(": did you mean '%s'?", f); break end
    end
  end
  errors.raise("usage", string.format("kontor.%s: unknown field %s (fields: %s)%s", fname, name,
    table.concat(FIELDS[fname], ", "), extra), nil, level + 1)
end
kontor.check_fields = check_fields

-- Checks the parameters of a new game; returns params or raises an error
-- value of kind "usage" (kontor.errors) naming the caller's caller.
local function params_for(R, t)
  local players = gamemod.players_for(R, t.players, 3)
  local function usage(msg) errors.raise("usage", msg, nil, 4) end
  local names, seen = {}, {}
  for i = 1, players do
    local n = t.names and t.names[i]
    if n ~= nil and (type(n) ~= "string" or n:match("^%s*$")) then
      usage(string.format("name %d must be a non-empty string", i))
    end
    if n ~= nil and not utf8.len(n) then
      usage(string.format("the name of player %d is not valid UTF-8 text", i))
    end
    -- every front end reads a number as a seat ("view 2", "2: pass")
    if n ~= nil and n:match("^%s*%d+%s*$") then
      usage(string.format("the name of player %d, '%s', is a number, which reads as a seat: give a name", i, n))
    end
    if n ~= nil and (text.has_control(n) or #n > 40) then
      usage(string.format("name %d must be at most 40 printable characters, not '%s'", i,
        text.escape(n:sub(1, 60))))
    end
    n = n or ("Player " .. i)
    if seen[n:lower()] then
      usage(string.format("names %d and %d are the same ('%s'): each player needs a name of their own",
        seen[n:lower()], i, n))
    end
    seen[n:lower()] = i
    names[i] = n
  end
  if t.names and #t.names > players then
    usage(string.format("%d names for %d players", #t.names, players))
  end
  -- no seed, or "random": a fresh one from the system (a game without a
  -- seed is a new game); it is kept in params, shown and saved
  local seed = t.seed
  if seed == nil or seed == "random" then seed = kontor.fresh_seed() end
  if math.type(seed) ~= "integer" then
    usage(string.format("the seed must be a whole number or \"random\", not '%s'", tostring(seed)))
  end
  local options, oerr = rules.resolve_options(R, t.options)
  if not options then usage(oerr) end
  if t.scenario ~= nil and type(t.scenario) ~= "table" then
    usage("scenario must be a table")
  end
  local given = {}
  for k, v in pairs(t.options or {}) do given[k] = v end
  return { rules = R.spec or R.name, variants = t.variants, players = players, names = names,
           seed = seed, options = options, given_options = given, scenario = t.scenario,
           manual_chance = t.manual_chance or false }
end

-- Checks players, names, seed and options of a game of rule set R (as
-- new_game would); raises a message for people.
function kontor.check_params(R, t)
  check_fields("new_game", t or {}, 2)
  check_rules(R, 2)
  params_for(R, t or {})
  return true
end

-- kontor.new_game{ rules=, variants=, players=, names=, seed=, options=, scenario=, quiet= }
function kontor.new_game(t)
  t = t or {}
  check_fields("new_game", t, 2)
  check_list(t.variants, "variants", '{ "house" }', 2)
  check_list(t.names, "names", '{ "Anna", "Bert" }', 2)
  check_options(t.options, 2)
  check_rules(t.rules, 2)
  check_flag(t.manual_chance, "manual_chance", 2)
  check_flag(t.quiet, "quiet", 2)
  local R = t.rules
  if type(R) ~= "table" then
    local err
    R, err = rules.load(R, t.variants)
    if not R then errors.throw(err, 2) end
  end
  local params = params_for(R, t)
  local ok, g = pcall(gamemod.new, R, params, t.quiet)
  if not ok then errors.raise(errors.of_script(g), g, nil, 0) end   -- R.setup failed
  -- the front ends' copy of the names: g.names never reaches the rule
  -- script's table, which a script may replace with anything
  rawset(g, "names", { table.unpack(params.names) })
  return g
end

-- A game from checked parameters and moves (save.read, save.from_document),
-- or nil and an error value (kontor.errors): kind "rules" when a move no
-- longer replays under the rules, else "file" (the save, or a file it
-- names, cannot be used). A third result lists warnings (a rule file that
-- changed since the save).
local function game_of(params, moves, where)
  local R, err = rules.load(params.rules, params.variants)
  -- a refusal says which files changed since the save, if any: the game
  -- as it was needs them as they were
  if not R then
    return nil, errors.new("file", saves().with_note(where .. ": " .. tostring(err),
      saves().changed_note(saves().changed_files(params.files))))
  end
  local changed = saves().changed_files(params.files, R)
  local warnings = saves().changed(params.files, R)
  local as_saved, held = params.as_saved, params.held
  params.files, params.as_saved, params.held = nil, nil, nil
  local ok, game = pcall(function()
    params.rules = R
    return kontor.new_game(params)
  end)
  if not ok then
    return nil, errors.new("file", saves().with_note(where .. ": " .. tostring(game), saves().changed_note(changed)))
  end
  local rok, i, why = game:replay(moves)
  if not rok then
    return nil, errors.new("rules", saves().with_note(string.format("%s: action %d '%s: %s' cannot be replayed: %s",
      where, i, gamemod.seat_label(moves[i][1]), moves[i][2], tostring(why)), saves().changed_note(changed)))
  end
  -- the moves a reload could not replay when the game was saved: held
  -- again, for the reload that fits (docs/designing-variants.md)
  if held then require("kontor.game.history").hold(game, held) end
  -- saved again, the game names its files as the save did
  game.as_saved = as_saved
  for k, w in ipairs(warnings) do warnings[k] = where .. ": " .. w end
  return game, nil, warnings
end

-- A game from a save file, or nil and an error value (see game_of).
function kontor.load_game(path)
  if type(path) ~= "string" then
    error(string.format("bad argument #1 to 'load_game' (a file name expected, got %s)", type(path)), 2)
  end
  local params, moves, data = saves().read(path)
  if not params then return nil, errors.new("file", moves, data) end
  return game_of(params, moves, path)
end

-- A game from a save document (a decoded save file): as load_game, the
-- files it names checked as a save's in the current folder (kontor.files).
function kontor.load_document(doc, where)
  where = where or "document"
  local params, moves, data = saves().from_document(doc, where)
  if not params then return nil, errors.new("file", moves, data) end
  return game_of(params, moves, where)
end

-- A field of sim's that must be a whole number of at least `min` (and at
-- most `max`), checked as the command line checks --games (kontor.sim's
-- count): 3.0 is 3; given as anything else, the run would fail deep inside
-- (sim.lua: "bad 'for' limit") or give a summary of no games (mean -nan),
-- and `games` past kontor.sim's MAX_GAMES would play until stopped.
local function check_count(v, name, min, max, level)
  if v == nil then return nil end
  local n, err = require("kontor.sim").count(v, name, min, max)
  if not n then errors.raise("usage", "kontor.sim: " .. err, nil, level + 1) end
  return n
end

function kontor.sim(t)
  t = t or {}
  check_fields("sim", t, 2)
  check_list(t.variants, "variants", '{ "house" }', 2)   -- else the games would be played without it
  check_options(t.options, 2)
  check_rules(t.rules, 2)
  local games = check_count(t.games, "games", 1, require("kontor.sim").MAX_GAMES, 2)
  local seed = check_count(t.seed, "seed", nil, nil, 2)
  local only = check_count(t.only, "only", 1, games or 100, 2)
  if t.check ~= nil and type(t.check) ~= "function" then
    errors.raise("usage", "kontor.sim: check must be a function(game), not a " .. type(t.check), nil, 2)
  end
  -- (the caller's table as it was given; the run is given the integers)
  local run = {}
  for k, v in pairs(t) do run[k] = v end
  run.games, run.seed, run.only = games, seed, only
  return require("kontor.sim").run(run)
end

return kontor
