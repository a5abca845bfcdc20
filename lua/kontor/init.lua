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
-- Raises a message for people on failure.
function kontor.load_rules(spec, variants)
  local R, err = rules.load(spec or "sea_merchants", variants)
  if not R then error(err, 2) end
  return R
end

kontor.list = rules.list

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

local function close_to(a, b)
  if math.abs(#a - #b) > 2 then return false end
  local prev = {}
  for j = 0, #b do prev[j] = j end
  for i = 1, #a do
    local cur = { [0] = i }
    for j = 1, #b do
      cur[j] = math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a:sub(i, i) == b:sub(j, j) and 0 or 1))
    end
    prev = cur
  end
  return prev[#b] <= 2
end

local function check_fields(fname, t, level)
  if type(t) ~= "table" then
    error(string.format("kontor.%s takes a table of fields (%s), not a %s", fname,
      table.concat(FIELDS[fname], ", "), type(t)), level + 1)
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
  error(string.format("kontor.%s: unknown field %s (fields: %s)%s", fname, name,
    table.concat(FIELDS[fname], ", "), extra), level + 1)
end
kontor.check_fields = check_fields

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
    if n ~= nil and not utf8.len(n) then
      error(string.format("the name of player %d is not valid UTF-8 text", i), 3)
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
  -- no seed, or "random": a fresh one from the system (a game without a
  -- seed is a new game); it is kept in params, shown and saved
  local seed = t.seed
  if seed == nil or seed == "random" then seed = kontor.fresh_seed() end
  if math.type(seed) ~= "integer" then
    error(string.format("the seed must be a whole number or \"random\", not '%s'", tostring(seed)), 3)
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

-- Checks players, names, seed and options of a game of rule set R (as
-- new_game would); raises a message for people.
function kontor.check_params(R, t)
  check_fields("new_game", t or {}, 2)
  params_for(R, t or {})
  return true
end

-- kontor.new_game{ rules=, variants=, players=, names=, seed=, options=, scenario=, quiet= }
function kontor.new_game(t)
  t = t or {}
  check_fields("new_game", t, 2)
  local R = t.rules
  if type(R) ~= "table" then
    local err
    R, err = rules.load(R or "sea_merchants", t.variants)
    if not R then error(err, 2) end
  end
  local params = params_for(R, t)
  local game = gamemod.new(R, params, t.quiet)
  -- the front ends' copy of the names: g.names never reaches the rule
  -- script's table, which a script may replace with anything
  rawset(game, "names", { table.unpack(params.names) })
  return game
end

-- A game from checked parameters and moves (save.read, save.from_document).
local function game_of(params, moves, where)
  local R, err = rules.load(params.rules, params.variants)
  if not R then return nil, where .. ": " .. err end
  local warnings = save.changed(params.files, R)
  local as_saved = params.as_saved
  params.files, params.as_saved = nil, nil
  local ok, game = pcall(function()
    params.rules = R
    return kontor.new_game(params)
  end)
  if not ok then return nil, where .. ": " .. tostring(game) end
  local rok, i, why = game:replay(moves)
  if not rok then
    return nil, string.format("%s: action %d '%s: %s' cannot be replayed: %s", where, i,
      gamemod.seat_label(moves[i][1]), moves[i][2], tostring(why))
  end
  -- saved again, the game names its files as the save did
  game.as_saved = as_saved
  for k, w in ipairs(warnings) do warnings[k] = where .. ": " .. w end
  return game, nil, warnings
end

-- A game from a save file, or nil and a message. A third result lists
-- warnings (a rule file that changed since the save).
function kontor.load_game(path)
  local params, moves = save.read(path)
  if not params then return nil, moves end
  return game_of(params, moves, path)
end

-- A game from a save document (a decoded save file): as load_game, the
-- files it names checked as a save's in the current folder (kontor.files).
function kontor.load_document(doc, where)
  where = where or "document"
  local params, moves = save.from_document(doc, where)
  if not params then return nil, moves end
  return game_of(params, moves, where)
end

function gamemod.Game:save(path, viewer)
  if viewer ~= nil and (math.type(viewer) ~= "integer" or viewer < 1 or viewer > self.players) then
    error(string.format("bad argument #2 to 'save' (a seat 1..%d expected, got %s)", self.players, tostring(viewer)), 2)
  end
  return save.write(self, path, viewer)
end

-- Runs f(...) with the game's own fields kept aside: if f raises (a
-- memory error half-way through the replay of an undo), they are put back,
-- so the game is exactly as it was, and the error is raised again. The
-- replay builds new state and does not change the old (only `future` is
-- changed in place: a copy is kept); the old state stays alive meanwhile,
-- so a game using over half the memory cap cannot undo, and says so.
function gamemod.Game:atomically(f, ...)
  local kept = {}
  for k, v in next, self do kept[k] = v end
  local future = { table.unpack(self.future) }
  local res = table.pack(pcall(f, ...))
  if not res[1] then
    for k in next, self do if kept[k] == nil then rawset(self, k, nil) end end
    for k, v in pairs(kept) do rawset(self, k, v) end
    self.future = future
    kept, future = nil, nil   -- luacheck: ignore 311 (dropped before the collection)
    collectgarbage()
    error(res[2], 0)
  end
  return table.unpack(res, 2, res.n)
end

-- The moves a reload could not replay (see reload), while the game is
-- still where that reload left it: { {seat, text}, ... }, oldest first.
function gamemod.Game:held_moves()
  local h = rawget(self, "held")
  if not h or h.at ~= #self.hist then return {} end
  return { table.unpack(h.moves) }
end

-- Does up to n held moves again (as typed: g:apply); returns how many.
-- A rule-script error raises, as in apply.
function gamemod.Game:redo_held(n)
  local moves = self:held_moves()
  local done = 0
  while done < (n or 1) and moves[done + 1] do
    local m = moves[done + 1]
    local ok = self:apply(m[2], m[1] ~= 0 and m[1] or nil)
    if not ok then break end
    done = done + 1
  end
  if done > 0 then
    local rest = {}
    for i = done + 1, #moves do rest[#rest + 1] = moves[i] end
    self.held = #rest > 0 and { at = #self.hist, moves = rest } or nil
  end
  return done
end

-- Re-reads the rule scripts and replays this game's moves under them.
-- Returns true and the number of moves replayed; or nil and a message: if
-- a move has become illegal, the game stops just before it (the message
-- names it and why) and the moves from there on are held, not lost: the
-- next reload (the rule put back) replays them too, and g:redo_held (the
-- REPL's `redo`) does them again. If the new scripts cannot even start the
-- game, nothing changes.
function gamemod.Game:reload()
  local p = self.params
  local R, err = rules.load(p.rules, rules.given_variants(self.R))
  if not R then return nil, err end
  local options, oerr = rules.resolve_options(R, p.given_options)   -- edited defaults count
  if not options then return nil, oerr end
  local moves = self:move_list()
  local all = { table.unpack(moves) }
  for _, m in ipairs(self:held_moves()) do all[#all + 1] = m end
  local old_R, old_options, old_future, old_held = self.R, p.options, self.future, rawget(self, "held")
  local function restore(msg)
    self.R, p.options = old_R, old_options
    self:replay(moves)
    self.future, self.held = old_future, old_held
    return nil, "reload failed, the game is as it was: " .. tostring(msg)
  end
  self.R, p.options = R, options
  local started, ok, i, why = pcall(self.replay, self, all)
  if not started then return restore(ok) end
  if ok then
    self.future = #all == #moves and old_future or {}
    self.held = nil
    return true, #all
  end
  -- Keep what replays: stop just before the move that no longer fits,
  -- and hold the rest.
  local kept, rest = {}, {}
  for j = 1, #all do
    if j < i then kept[#kept + 1] = all[j] else rest[#rest + 1] = all[j] end
  end
  local kstarted, kok = pcall(self.replay, self, kept)
  if not kstarted or not kok then return restore(why) end
  self.future = {}
  self.held = { at = #self.hist, moves = rest }
  return nil, string.format("reloaded; stopped before move %d '%s: %s': %s (%s from there on kept: "
    .. "put the rule back and reload, or redo)", i, gamemod.seat_label(all[i][1]), all[i][2], tostring(why),
    #rest == 1 and "1 move" or (#rest .. " moves"))
end

function kontor.sim(t)
  t = t or {}
  check_fields("sim", t, 2)
  return require("kontor.sim").run(t)
end

return kontor
