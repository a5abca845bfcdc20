-- kontor: the public Lua API (docs/api.md).

local core = require "kontor.core"
local rules = require "kontor.rules"
local gamemod = require "kontor.game"
local save = require "kontor.save"
local dump = require "kontor.dump"
local text = require "kontor.text"

local kontor = {
  core = core,
  version = core.version,
  json = core.json,
  rng = core.rng,
  pile = core.pile,
  counter = core.counter,
  pretty = dump.pretty,
  Game = gamemod.Game,
}

function kontor.set_home(home)
  rules.home = home
  kontor.home = home
end

-- Loads a rule set with variants: a rule-set object for new_game{rules=}.
-- Raises a message for people on failure.
function kontor.load_rules(spec, variants)
  local R, err = rules.load(spec or "sea_merchants", variants)
  if not R then error(err, 2) end
  return R
end

kontor.list = rules.list
kontor.find_rules = rules.find

-- Checks the parameters of a new game; returns params or raises.
local function params_for(R, t)
  local players = t.players or R.players.default
  if math.type(players) ~= "integer" then
    error(string.format("players must be a whole number, not '%s'", tostring(players)), 3)
  end
  if players < R.players.min or players > R.players.max then
    error(string.format("%s is for %d to %d players, not %d", R.name, R.players.min,
      R.players.max, players), 3)
  end
  local names, seen = {}, {}
  for i = 1, players do
    local n = t.names and t.names[i]
    if n ~= nil and (type(n) ~= "string" or n:match("^%s*$")) then
      error(string.format("name %d must be a non-empty string", i), 3)
    end
    if n ~= nil and (text.has_control(n) or #n > 40) then
      error(string.format("name %d must be at most 40 printable characters, not '%s'", i,
        text.escape(n:sub(1, 60))), 3)
    end
    n = n or ("Player " .. i)
    if seen[n:lower()] then
      error(string.format("names %d and %d are the same ('%s'): each player needs a name of their own",
        seen[n:lower()], i, n), 3)
    end
    seen[n:lower()] = i
    names[i] = n
  end
  if t.names and #t.names > players then
    error(string.format("%d names for %d players", #t.names, players), 3)
  end
  local seed = t.seed or 1
  if math.type(seed) ~= "integer" then
    error(string.format("the seed must be a whole number, not '%s'", tostring(seed)), 3)
  end
  local options, oerr = rules.resolve_options(R, t.options)
  if not options then error(oerr, 3) end
  if t.scenario ~= nil and type(t.scenario) ~= "table" then
    error("scenario must be a table", 3)
  end
  local given = {}
  for k, v in pairs(t.options or {}) do given[k] = v end
  return { rules = R.spec or R.name, variants = t.variants, players = players, names = names,
           seed = seed, options = options, given_options = given, scenario = t.scenario,
           manual_chance = t.manual_chance or false }
end

-- kontor.new_game{ rules=, variants=, players=, names=, seed=, options=, scenario=, quiet= }
function kontor.new_game(t)
  t = t or {}
  local R = t.rules
  if type(R) ~= "table" then
    local err
    R, err = rules.load(R or "sea_merchants", t.variants)
    if not R then error(err, 2) end
  end
  local params = params_for(R, t)
  return gamemod.new(R, params, t.quiet)
end

-- A game from a save file, or nil and a message. A third result lists
-- warnings (a rule file that changed since the save).
function kontor.load_game(path)
  local params, moves = save.read(path)
  if not params then return nil, moves end
  local R, err = rules.load(params.rules, params.variants)
  if not R then return nil, path .. ": " .. err end
  local warnings = save.changed(params.files, R)
  local as_saved = params.as_saved
  params.files, params.as_saved = nil, nil
  local ok, game = pcall(function()
    params.rules = R
    return kontor.new_game(params)
  end)
  if not ok then return nil, path .. ": " .. tostring(game) end
  local rok, i, why = game:replay(moves)
  if not rok then
    return nil, string.format("%s: action %d '%s: %s' cannot be replayed: %s", path, i,
      gamemod.seat_label(moves[i][1]), moves[i][2], tostring(why))
  end
  -- saved again, the game names its files as the save did
  game.as_saved = as_saved
  for i, w in ipairs(warnings) do warnings[i] = path .. ": " .. w end
  return game, nil, warnings
end

function gamemod.Game:save(path)
  return save.write(self, path)
end

-- Re-reads the rule scripts and replays this game's moves under them.
-- Returns true; or nil and a message: if a move has become illegal, the
-- game stops just before it (the message names it and why); if the new
-- scripts cannot even start the game, nothing changes.
function gamemod.Game:reload()
  local p = self.params
  local R, err = rules.load(p.rules, rules.given_variants(self.R))
  if not R then return nil, err end
  local options, oerr = rules.resolve_options(R, p.given_options)   -- edited defaults count
  if not options then return nil, oerr end
  local moves = self:move_list()
  local old_R, old_options, old_future = self.R, p.options, self.future
  local function restore(msg)
    self.R, p.options = old_R, old_options
    self:replay(moves)
    self.future = old_future
    return nil, "reload failed, the game is as it was: " .. tostring(msg)
  end
  self.R, p.options = R, options
  local started, ok, i, why = pcall(self.replay, self, moves)
  if not started then return restore(ok) end
  if ok then self.future = old_future; return true, #moves end
  -- Keep what replays: stop just before the move that no longer fits.
  local kept = {}
  for j = 1, i - 1 do kept[j] = moves[j] end
  local kstarted, kok = pcall(self.replay, self, kept)
  if not kstarted or not kok then return restore(why) end
  return nil, string.format("reloaded; stopped before move %d '%s: %s': %s", i,
    gamemod.seat_label(moves[i][1]), moves[i][2], tostring(why))
end

kontor.sim = function(...) return require("kontor.sim").run(...) end

return kontor
