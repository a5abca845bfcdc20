-- kontor.save: save files.
--
-- A save file is JSON (canonical: sorted keys, two-space indent) holding
-- what defines the game: rule set, variants and their options, options,
-- players, names, seed, scenario, and the moves as "seat: text". Loading
-- replays the moves. A file that cannot be read gets one message naming the
-- file and what is wrong, and nothing else changes.

local core = require "kontor.core"
local json, fs = core.json, core.fs

local M = {}

M.FORMAT = "kontor-save"
M.VERSION = 1

function M.encode(game)
  local p = game.params
  local variants = {}
  for i, v in ipairs(require("kontor.rules").given_variants(game.R)) do
    variants[i] = { name = v[1], options = next(v.options) and v.options or setmetatable({}, json.object) }
  end
  local moves = game:moves()
  local doc = {
    format = M.FORMAT,
    version = M.VERSION,
    kontor = core.version,
    rules = game.R.spec or game.R.name,
    variants = variants,
    options = next(p.given_options or {}) and p.given_options or setmetatable({}, json.object),
    players = p.players,
    names = p.names,
    seed = p.seed,
    scenario = p.scenario,
    manual_chance = p.manual_chance or nil,
    actions = moves,
  }
  return json.encode(doc, { indent = 2, newline = true })
end

function M.write(game, path)
  local ok, text = pcall(M.encode, game)
  if not ok then return nil, path .. ": cannot encode the game: " .. tostring(text) end
  return fs.write_atomic(path, text)
end

local function bad(path, fmt, ...)
  return nil, path .. ": " .. string.format(fmt, ...)
end

-- Checks a decoded document; returns the parameters for new_game and the
-- moves, or nil and a message.
function M.check(doc, path)
  if type(doc) ~= "table" then return bad(path, "not a Kontor save file (a JSON object is expected)") end
  if doc.format ~= M.FORMAT then
    return bad(path, "not a Kontor save file (\"format\" is %s, expected \"%s\")",
      doc.format == nil and "missing" or string.format("%q", tostring(doc.format)), M.FORMAT)
  end
  if math.type(doc.version) ~= "integer" then return bad(path, "\"version\" must be a whole number") end
  if doc.version > M.VERSION then
    return bad(path, "save file version %d is newer than this Kontor reads (%d): upgrade Kontor",
      doc.version, M.VERSION)
  end
  if doc.version < 1 then return bad(path, "save file version %d is not valid", doc.version) end
  if type(doc.rules) ~= "string" then return bad(path, "\"rules\" must name a rule set") end
  if math.type(doc.players) ~= "integer" then return bad(path, "\"players\" must be a whole number") end
  if math.type(doc.seed) ~= "integer" then return bad(path, "\"seed\" must be a whole number") end
  if type(doc.actions) ~= "table" then return bad(path, "\"actions\" must be a list") end
  local moves = {}
  for i, a in ipairs(doc.actions) do
    if type(a) ~= "string" then return bad(path, "action %d is not a string", i) end
    local seat, text = a:match("^(%d+): (.+)$")
    if seat then seat = tonumber(seat)
    else
      text = a:match("^chance: (.+)$")
      if not text then return bad(path, "action %d '%s' is not 'seat: text'", i, a) end
      seat = 0
    end
    moves[i] = { seat, text }
  end
  local variants = {}
  if doc.variants ~= nil then
    if type(doc.variants) ~= "table" then return bad(path, "\"variants\" must be a list") end
    for i, v in ipairs(doc.variants) do
      if type(v) ~= "table" or type(v.name) ~= "string" then
        return bad(path, "variant %d must be { \"name\": ..., \"options\": {...} }", i)
      end
      variants[i] = { v.name, options = v.options }
    end
  end
  local names = doc.names
  if names ~= nil and type(names) ~= "table" then return bad(path, "\"names\" must be a list") end
  if doc.manual_chance ~= nil and type(doc.manual_chance) ~= "boolean" then
    return bad(path, "\"manual_chance\" must be true or false")
  end
  return {
    rules = doc.rules, variants = variants, players = doc.players, names = names,
    seed = doc.seed, options = doc.options, scenario = doc.scenario,
    manual_chance = doc.manual_chance,
  }, moves
end

function M.read(path)
  local text, err = fs.read(path)
  if not text then return nil, err end
  local doc, jerr = json.decode(text)
  if doc == nil then return bad(path, "not valid JSON: %s", tostring(jerr)) end
  return M.check(doc, path)
end

return M
