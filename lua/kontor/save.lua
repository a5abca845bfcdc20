-- kontor.save: save files.
--
-- A save file is JSON (canonical: sorted keys, two-space indent) holding
-- what defines the game: rule set, variants and their options (typed as
-- the rule files declare them), options, players, names, seed, scenario,
-- the moves as "seat: text", and `files`: for the rule set and each
-- variant, its path (relative to the save file when the file is beside or
-- below it, else absolute) and a hash of its content. Loading replays the
-- moves and warns when a file changed since the save. A file that cannot
-- be read gets one message naming the file and what is wrong, and nothing
-- else changes.
--
-- What a save may name (docs/security.md): rule sets and variants by name
-- (found on the rule search path), or .lua files that are regular files of
-- at most 1 MiB in the save's folder, the current folder or the search path.
-- Anything else (/dev/stdin, /etc/passwd, /dev/zero, a FIFO) is refused
-- before it is opened. The policy is kontor.files'; a save file and a save
-- document (serve's `load`) pass the same function, `from_document`.

local core = require "kontor.core"
local files = require "kontor.files"
local json, fs = core.json, core.fs

local M = {}

M.FORMAT = "kontor-save"
M.VERSION = 1
M.MAX_SAVE = files.MAX_SAVE       -- bytes of a save file
M.MAX_SCRIPT = files.MAX_SCRIPT   -- bytes of a rule or variant file a save names

local function rules() return require("kontor.rules") end

local is_path = files.is_path
M.is_path = is_path

local function absolute(path)
  return fs.realpath(path) or path
end

local inside = files.inside

-- A value as its option declares it: the command line gives strings
-- ("8"); the rule set resolved them ("8" -> 8), and the save keeps that.
local function typed(given, resolved)
  local out = {}
  for k, v in pairs(given or {}) do
    local r = resolved and resolved[k]
    if type(v) == "string" and r ~= nil then v = r end
    out[k] = v
  end
  return out
end

-- The rule set's and the variants' files: { spec =, path =, hash = }, path
-- relative to the save file's folder when the file is inside it.
local function files_of(game, savedir, as_saved)
  local R = game.R
  local list = { { spec = R.spec or R.name, file = R.file } }
  for _, v in ipairs(R.applied or {}) do
    list[#list + 1] = { spec = v.spec, file = rules().find(v.spec) }
  end
  local out, seen = {}, {}
  for _, f in ipairs(list) do
    if f.file and not seen[f.spec] then
      seen[f.spec] = true
      local text = fs.read(f.file)
      local e = { spec = as_saved(f.spec), hash = text and fs.hash(text) or nil }
      if is_path(f.spec) then
        local abs = absolute(f.file)
        e.path = savedir and inside(abs, savedir) or abs
      end
      out[#out + 1] = e
    end
  end
  return out
end

-- With `viewer`, the save file that seat may see: the others' choices not
-- yet revealed are left out (it loads as the game before them), and so,
-- while the game is on, are the seed and the scenario, which hold the deal
-- and every hand (the seat sees the seed when the game is over, as
-- v.seed() says): the file is then the seat's record of the moves, which
-- does not load (M.check says why).
function M.encode(game, path, viewer)
  local p = game.params
  local savedir = path and fs.realpath(fs.dirname(path)) or nil
  -- a loaded game names its files as its save file did
  local map = rawget(game, "as_saved") or {}
  local function as_saved(spec) return map[spec] or spec end
  local variants = {}
  -- the options a variant resolved, by the spec of the variant (a preset's
  -- "member.option" is found in the member's)
  local resolved = {}
  for _, v in ipairs(game.R.applied or {}) do resolved[v.spec] = v.options end
  for i, v in ipairs(rules().given_variants(game.R)) do
    local opts = {}
    for k, x in pairs(v.options or {}) do
      local member, o = tostring(k):match("^([%w_%-]+)%.([%w_]+)$")
      local r
      if member then r = resolved[member] and resolved[member][o]
      else r = resolved[v[1]] and resolved[v[1]][k] end
      if type(x) == "string" and r ~= nil then x = r end
      opts[k] = x
    end
    variants[i] = { name = as_saved(v[1]), options = next(opts) and opts or setmetatable({}, json.object) }
  end
  local moves = game:moves(viewer, viewer ~= nil)
  -- the moves a reload could not replay (g:held_moves), as actions: the
  -- next reload that fits replays them. Not in a seat's file: they may
  -- be another seat's secret steps.
  local held
  if viewer == nil then
    for _, m in ipairs(game:held_moves()) do
      held = held or {}
      held[#held + 1] = m[1] == 0 and ("chance: " .. m[2]) or (m[1] .. ": " .. m[2])
    end
  end
  local given = typed(p.given_options, p.options)
  local record = viewer ~= nil and not game:over()   -- no deal in it
  local doc = {
    format = M.FORMAT,
    version = M.VERSION,
    kontor = core.version,
    rules = as_saved(game.R.spec or game.R.name),
    variants = variants,
    files = files_of(game, savedir, as_saved),
    options = next(given) and given or setmetatable({}, json.object),
    players = p.players,
    names = p.names,
    seat = viewer,
    seed = not record and p.seed or nil,
    scenario = not record and p.scenario or nil,
    manual_chance = p.manual_chance or nil,
    actions = moves,
    held = held,
  }
  return json.encode(doc, { indent = 2, newline = true })
end

-- A file already there is replaced only when it is a save (or empty):
-- `save notes.txt` must not destroy what a user wrote there. (A folder,
-- a device or a FIFO files.write refuses itself.)
local function replaceable(path)
  local st = fs.stat(path)
  if not st or st.type ~= "file" or st.size == 0 then return true end
  local text = st.size <= files.MAX_SAVE and fs.read(path, files.MAX_SAVE)
  local ok, doc = pcall(json.decode, text or "")
  if ok and type(doc) == "table" and doc.format == M.FORMAT then return true end
  -- a save damaged after its format was written is a save still
  if text and text:find('"format": "' .. M.FORMAT .. '"', 1, true) then return true end
  return nil, path .. ": the file exists and is not a Kontor save: not replaced (save under another name)"
end

function M.write(game, path, viewer)
  local ok, text = pcall(M.encode, game, path, viewer)
  if not ok then return nil, path .. ": cannot encode the game: " .. tostring(text) end
  local fine, why = replaceable(path)
  if not fine then return nil, why end
  return files.write(path, text)
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
  if doc.seed == nil and math.type(doc.seat) == "integer" then
    -- what to do instead is the front end's to say (serve: "save" without
    -- "seat"): the error's `seat_record` has the message without it
    local said = string.format("%s: seat %d's record of a game in progress: it leaves out the deal (the seed), "
      .. "which that seat may not see, so it does not replay", path, doc.seat)
    return nil, said .. "; a game goes on from a save of the whole game (`save FILE` without `as` in the REPL, "
      .. "or the file `kontor play` writes when you leave)", { seat_record = { seat = doc.seat, said = said } }
  end
  if math.type(doc.seed) ~= "integer" then return bad(path, "\"seed\" must be a whole number") end
  if doc.seat ~= nil and (math.type(doc.seat) ~= "integer" or doc.seat < 1 or doc.seat > doc.players) then
    return bad(path, "\"seat\" must be a seat 1..%d", doc.players)
  end
  if type(doc.actions) ~= "table" then return bad(path, "\"actions\" must be a list") end
  if doc.held ~= nil and type(doc.held) ~= "table" then return bad(path, "\"held\" must be a list") end
  local function actions(list, what)
    local out = {}
    for i, a in ipairs(list) do
      if type(a) ~= "string" then return bad(path, "%s %d is not a string", what, i) end
      local seat, text = a:match("^(%d+): (.+)$")
      if seat then seat = tonumber(seat)
      else
        text = a:match("^chance: (.+)$")
        if not text then return bad(path, "%s %d '%s' is not 'seat: text'", what, i, a) end
        seat = 0
      end
      out[i] = { seat, text }
    end
    return out
  end
  local moves, merr = actions(doc.actions, "action")
  if not moves then return nil, merr end
  local held, herr = actions(doc.held or {}, "held move")
  if not held then return nil, herr end
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
    manual_chance = doc.manual_chance, held = held[1] and held or nil,
  }, moves
end

-- The files whose content changed since the save (their paths), in the
-- save's order; R, the rule set loaded, names them as it found them (nil
-- when it did not load: then as kontor.rules finds them now).
function M.changed_files(list, R)
  local out = {}
  if type(list) ~= "table" then return out end
  local now = {}
  if R then
    now[R.spec or R.name] = R.file
    for _, v in ipairs(R.applied or {}) do now[v.spec] = rules().find(v.spec) end
  end
  for _, e in ipairs(list) do
    if type(e) == "table" and type(e.spec) == "string" and type(e.hash) == "string" then
      local spec = e.resolved or e.spec
      local file = now[spec]
      if not R then file = rules().find(spec) end
      local text = file and fs.read(file, M.MAX_SCRIPT)
      if text and fs.hash(text) ~= e.hash then out[#out + 1] = file end
    end
  end
  return out
end

-- Warnings for the files whose content changed since the save.
function M.changed(list, R)
  local out = M.changed_files(list, R)
  for i, file in ipairs(out) do
    out[i] = string.format("%s changed since the game was saved: the moves replay under the rules as they are now", file)
  end
  return out
end

-- `msg` with `note` at the end of its first line (before a traceback).
function M.with_note(msg, note)
  local nl = msg:find("\n", 1, true)
  if not nl then return msg .. note end
  return msg:sub(1, nl - 1) .. note .. msg:sub(nl)
end

-- What a refused load adds when files changed since the save: which, and
-- what gives the game back as it was ("" when none changed).
function M.changed_note(paths)
  if #paths == 0 then return "" end
  return string.format(" (%s changed since the game was saved: put %s back as %s to load the game as it was)",
    table.concat(paths, ", "), #paths == 1 and "it" or "them", #paths == 1 and "it was" or "they were")
end

-- A save document (a decoded save file, or serve's `document`) -> the
-- parameters for new_game (the rule and variant files it names checked by
-- kontor.files, relative to `dir`: the save file's folder, the current
-- folder for a document) and the moves; or nil and a message naming
-- `where` (the file, or "document").
function M.from_document(doc, where, dir)
  local params, moves, data = M.check(doc, where)
  if not params then return nil, moves, data end
  -- the files the document names: checked before any is opened
  dir = dir or fs.realpath(".") or "."
  local dirs = files.allowed_dirs(dir)
  local entries = {}
  if type(doc.files) == "table" then
    for _, e in ipairs(doc.files) do
      if type(e) == "table" and type(e.spec) == "string" then entries[e.spec] = e end
    end
  end
  local spec, rerr = files.resolve(params.rules, entries[params.rules], dir, dirs)
  if not spec then return bad(where, "rule set %s", rerr) end
  if entries[params.rules] then entries[params.rules].resolved = spec end
  params.as_saved = { [spec] = params.rules }
  params.rules = spec
  for _, v in ipairs(params.variants) do
    local vs, verr = files.resolve(v[1], entries[v[1]], dir, dirs)
    if not vs then return bad(where, "variant %s", verr) end
    if entries[v[1]] then entries[v[1]].resolved = vs end
    params.as_saved[vs] = v[1]
    v[1] = vs
  end
  params.files = doc.files
  return params, moves
end

-- A save file (checked by kontor.files first) -> parameters and moves, or
-- nil and a message naming the file.
function M.read(path)
  local text, err = files.read(path, "save")
  if not text then return nil, err end
  local doc, jerr = json.decode(text)
  if doc == nil then return bad(path, "not valid JSON: %s", tostring(jerr)) end
  return M.from_document(doc, path, fs.realpath(fs.dirname(path)) or fs.dirname(path))
end

return M
