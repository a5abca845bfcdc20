-- kontor: the public Lua API (docs/api.md).

local core = require "kontor.core"
local rules = require "kontor.rules"
local gamemod = require "kontor.game"
local save = require "kontor.save"
local dump = require "kontor.dump"
local text = require "kontor.text"
local errors = require "kontor.errors"

local kontor = {
  core = core,
  version = core.version,
  json = core.json,
  rng = core.rng,
  pile = core.pile,
  counter = core.counter,
  pretty = dump.pretty,
  Game = gamemod.Game,
  errors = errors,
}

function kontor.set_home(home)
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
function kontor.load_rules(spec, variants)
  local R, err = rules.load(spec or "sea_merchants", variants)
  if not R then errors.throw(errors.of_load(err), 2) end
  return R
end

kontor.list = rules.list
kontor.find_rules = rules.find

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
  local seed = t.seed or 1
  if math.type(seed) ~= "integer" then
    usage(string.format("the seed must be a whole number, not '%s'", tostring(seed)))
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
  params_for(R, t or {})
  return true
end

-- kontor.new_game{ rules=, variants=, players=, names=, seed=, options=, scenario=, quiet= }
function kontor.new_game(t)
  t = t or {}
  local R = t.rules
  if type(R) ~= "table" then
    local err
    R, err = rules.load(R or "sea_merchants", t.variants)
    if not R then errors.throw(errors.of_load(err), 2) end
  end
  local params = params_for(R, t)
  local ok, g = pcall(gamemod.new, R, params, t.quiet)
  if not ok then errors.raise(errors.of_script(g), g, nil, 0) end   -- R.setup failed
  return g
end

-- A game from a save file, or nil and an error value (kontor.errors):
-- kind "rules" when a move no longer replays under the rules, else "file"
-- (the save, or a file it names, cannot be used). A third result lists
-- warnings (a rule file that changed since the save).
function kontor.load_game(path)
  local params, moves = save.read(path)
  if not params then return nil, errors.new("file", moves) end
  local R, err = rules.load(params.rules, params.variants)
  if not R then return nil, errors.new("file", path .. ": " .. err) end
  local warnings = save.changed(params.files, R)
  local as_saved = params.as_saved
  params.files, params.as_saved = nil, nil
  local ok, game = pcall(function()
    params.rules = R
    return kontor.new_game(params)
  end)
  if not ok then return nil, errors.new("file", path .. ": " .. tostring(game)) end
  local rok, i, why = game:replay(moves)
  if not rok then
    return nil, errors.new("rules", string.format("%s: action %d '%s: %s' cannot be replayed: %s", path, i,
      gamemod.seat_label(moves[i][1]), moves[i][2], tostring(why)))
  end
  -- saved again, the game names its files as the save did
  game.as_saved = as_saved
  for k, w in ipairs(warnings) do warnings[k] = path .. ": " .. w end
  return game, nil, warnings
end

kontor.sim = function(...) return require("kontor.sim").run(...) end

return kontor
