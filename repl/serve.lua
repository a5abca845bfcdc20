-- serve (repl/serve.lua): `kontor serve`, the JSON-lines protocol for
-- front ends in any language (docs/protocol.md).
--
-- One request a line on stdin, one response a line on stdout, in order:
--   {"id": 7, "op": "apply", "game": "g1", "action": "load fish on ship 1"}
--   {"id":7,"ok":true,"result":{...}}
--   {"id":8,"ok":false,"error":{"code":"illegal_action","message":"..."}}
-- A line that is not a request gets an error (id null when none could be
-- read) and the session goes on. Several games live side by side, by id.

local core = require "kontor.core"
local rules = require "kontor.rules"
local bots = require "kontor.bots"
local describe = require "kontor.describe"
local seatmod = require "kontor.seat"
local save = require "kontor.save"
local files = require "kontor.files"
local json = core.json

local M = {}

M.PROTOCOL = 1
local MAX_LINE = 1 << 20   -- bytes of one request
local MAX_BOT_STEPS = 100000
-- Steps of one bot's move (the `bot` op): a rule set whose every option
-- asks for another step would otherwise run until the reply outgrew the
-- memory cap, with the steps kept.
local MAX_MOVE_STEPS = 1000

---------------------------------------------------------------------------
-- Errors
---------------------------------------------------------------------------

-- A handler's error: an error value of kind "protocol" (kontor.errors)
-- with the protocol's error `code` (docs/protocol.md).
local errors = require "kontor.errors"
local function is_failure(v) return errors.kind(v) == "protocol" end

-- `fmt` is always a format: a message from elsewhere goes in as "%s".
local function fail(code, fmt, ...)
  errors.raise("protocol", fmt:format(...), { code = code }, 0)
end

-- Calls the engine: a raised message (a rule-script error, a limit) becomes
-- the error `code` (default script_error), with the message the REPL shows.
local function engine(code, f, ...)
  local res = table.pack(pcall(f, ...))
  if not res[1] then
    if is_failure(res[2]) then error(res[2], 0) end
    -- a sandbox limit says which (kontor.errors: kind "limit", its `limit`)
    local limit = errors.kind(res[2]) == "limit" and rawget(res[2], "limit") or nil
    local msg = tostring(res[2])
    -- the message says what, without the engine's traceback and its paths,
    -- but with the rule script's file:line where its first line names none
    -- (a limit: "time limit reached (...), in bad.lua:6"), as the REPL says
    do
      local ktext = require "kontor.text"
      local first = ktext.error_line(msg)
      msg = ktext.error_place(msg) .. msg:gsub("\nstack traceback:\n.*$", ""):sub(#first + 1)
    end
    -- a game that cannot be made is the request's fault (a bad scenario)
    if code == "game_setup" then
      -- a variant's option given as another's: how to give it here, in
      -- "variants", not the command line's --variant (the error's data)
      local u = errors.is(res[2]) and rawget(res[2], "unknown_option")
      local owner = type(u) == "table" and type(u.owner) == "table" and u.owner
      if owner and type(owner.as) == "string" and type(u.said) == "string" then
        msg = string.format("%s: '%s' is an option of %s%s as %s", u.said,
          tostring(u.option), rules.owner_words(owner),
          owner.added and ', not in this game: add it to "variants"' or ': give it in "variants"',
          json.encode(owner.as))
      end
      -- a variant given as "rules": how to give it in a request, not the
      -- command line's --variant with the server's path of its file
      local va = errors.is(res[2]) and rawget(res[2], "variant_as_rules")
      if type(va) == "table" and type(va.rules) == "string" then
        msg = string.format("%s is a variant%s, not a rule set: give it in \"variants\" (%s)%s", va.rules,
          type(va.base) == "string" and " (of " .. va.base .. ")" or "", json.encode({ va.rules }),
          type(va.base) == "string" and string.format(", with \"rules\": %s", json.encode(va.base)) or "")
      end
      -- a variant of another rule set: said from the data, without the
      -- variant file's place on the server, with the variants that fit and
      -- the rule set the variant is for, in the request's words
      local wb = errors.is(res[2]) and rawget(res[2], "wrong_base")
      if type(wb) == "table" and type(wb.variant) == "string" and type(wb.base) == "string"
          and type(wb.rules) == "string" then
        local fits = {}
        for _, entry in ipairs(require("kontor.rules").list()) do
          if entry.kind == "variant" and entry.base == wb.rules then fits[#fits + 1] = entry.name end
        end
        msg = string.format("variant %s is for %s, not %s (%s\"rules\": %s for %s)", wb.variant, wb.base, wb.rules,
          #fits > 0 and string.format("variants of %s: %s; ", wb.rules, table.concat(fits, ", ")) or "",
          json.encode(wb.base), wb.variant)
      end
    end
    errors.raise("protocol", msg, { code = code or "script_error", limit = limit }, 0)
  end
  return table.unpack(res, 2, res.n)
end

---------------------------------------------------------------------------
-- Request fields
---------------------------------------------------------------------------

local function is_object(v)
  if type(v) ~= "table" then return false end
  if getmetatable(v) == json.object then return true end
  return next(v) ~= nil and rawlen(v) == 0
end

local function is_array(v)
  return type(v) == "table" and getmetatable(v) ~= json.object and (next(v) == nil or rawlen(v) > 0)
end

local KINDS = {
  string = function(v) return type(v) == "string" end,
  integer = function(v) return math.type(v) == "integer" end,
  boolean = function(v) return type(v) == "boolean" end,
  object = is_object,
  array = is_array,
}

local ARTICLE = { string = "a string", integer = "a whole number", boolean = "true or false",
  object = "an object", array = "an array" }

-- req[name] checked against `kinds` ("string|integer"); nil when absent
-- and not `required`.
local function field(req, name, kinds, required)
  local v = req[name]
  if v == nil or v == json.null then
    if required then fail("bad_request", "'%s' needs \"%s\"", req.op, name) end
    return nil
  end
  local names = {}
  for k in kinds:gmatch("[^|]+") do
    if KINDS[k](v) then return v end
    names[#names + 1] = ARTICLE[k]
  end
  fail("bad_request", "\"%s\" must be %s", name, table.concat(names, " or "))
end

-- Turns decoded JSON into the plain Lua values the engine takes.
local function plain(v)
  if v == json.null then return nil end
  if type(v) ~= "table" then return v end
  local t = {}
  for k, x in pairs(v) do t[k] = plain(x) end
  return t
end

---------------------------------------------------------------------------
-- Games
---------------------------------------------------------------------------

local Session = {}
Session.__index = Session

local function new_session(kontor)
  return setmetatable({ kontor = kontor, games = {}, order = {}, next_id = 1 }, Session)
end

function Session:entry(req)
  local id = field(req, "game", "string", true)
  local e = self.games[id]
  if not e then
    local ids = {}
    for i, o in ipairs(self.order) do ids[i] = o end
    fail("unknown_game", "no game '%s' (%s)", id,
      #ids > 0 and ("games: " .. table.concat(ids, ", ")) or "no game is open: send \"new\" or \"load\"")
  end
  return e
end

-- The seat named in req[name] (1..players), or nil when absent; the
-- REPL's message for a seat that does not exist.
local function seat_field(req, name, g, allow_chance)
  local s = field(req, name or "seat", "integer")
  if s == nil then return nil end
  -- chance is seat 0 only in a game with manual_chance (docs/protocol.md)
  if allow_chance and s == 0 and g.params.manual_chance then return 0 end
  if s < 1 or s > g.players then
    local list = {}
    for i = 1, g.players do list[i] = i .. " " .. g.names[i] end
    fail("no_such_seat", "no seat '%d' (seats: %s)", s, table.concat(list, ", "))
  end
  return s
end

-- One option as the protocol gives it: its seat, number and text, and
-- what it costs and does when the rule set says (R.describe_option).
local function option_json(g, s, n, text, decision)
  local o = { seat = s, n = n, text = text }
  local note = describe.option(g, s, text, decision)
  if note then o.description = note end
  return o
end

-- The decision now, as the protocol gives it; with `seat`, as that seat's
-- view gives it (kontor.seat): its own options only, nothing of the
-- others' (their steps of secret orders included).
local function decision_json(g, seat)
  if seat ~= nil and seat ~= 0 then
    local d = seatmod.view(g, seat).now()
    local out = { kind = d.kind, name = d.name, seats = d.seats, options = {} }
    if d.kind == "over" then return out end
    if d.kind == "simultaneous" then out.chosen = d.chosen elseif d.kind == "orders" then out.chosen = d.done end
    if d.step then out.steps = setmetatable({ [tostring(seat)] = d.step }, json.object) end
    for n, text in ipairs(d.options or {}) do out.options[n] = option_json(g, seat, n, text, d.step or d.name) end
    return out
  end
  local d = g:decision()
  local out = { kind = d.kind, name = d.name, seats = d.seats or {}, options = {} }
  if d.kind == "over" then return out end
  if d.kind == "simultaneous" or d.kind == "orders" then
    -- secret orders (docs/api.md): each seat entering, at its own step
    out.chosen = d.chosen or d.done
    if d.steps then out.steps = setmetatable({}, json.object) end
    for _, s in ipairs(d.seats) do
      if seat == nil or seat == s then
        local name = d.steps and d.steps[s] or d.name
        if d.steps then out.steps[tostring(s)] = name end
        for n, text in ipairs(d.options[s]) do
          out.options[#out.options + 1] = option_json(g, s, n, text, name)
        end
      end
    end
  else
    local s = d.seats[1]
    if seat == nil or seat == s then
      for n, text in ipairs(d.options) do out.options[#out.options + 1] = option_json(g, s, n, text, d.name) end
    end
  end
  return out
end

-- How many moves there are that every seat may see: the steps of secret
-- orders not yet revealed are not counted (their number would tell the
-- others how far a seat has got with its order).
local function public_moves(g)
  return #g:moves(0)
end

local function summary(e)
  local g = e.g
  local variants = {}
  for i, v in ipairs(rules.given_variants(g.R)) do
    variants[i] = { name = v[1], options = next(v.options) and plain(v.options) or setmetatable({}, json.object) }
  end
  local bot_kinds = setmetatable({}, json.object)
  for s, b in pairs(e.bots) do bot_kinds[tostring(s)] = b.kind end
  local spec = g.params.rules   -- as new_game was given it: a name or a file
  if type(spec) ~= "string" then spec = g.R.spec or g.R.name end
  return { game = e.id, rules = spec, title = g.R.title or g.R.name, variants = variants,
    players = g.players, names = g.names, seed = g.params.seed, bots = bot_kinds, over = g:over(),
    moves = public_moves(g), free_undo = e.free_undo == true }
end

-- The steps taken since step n0 (bots' marked), and the log since line l0.
-- A bot's choice in a simultaneous decision still open reads "(secret)":
-- the client learns it when the decision is revealed, as the players do.
-- With `viewer` (the seat that asked), the others' steps of secret orders
-- not yet revealed are left out, their choices in a simultaneous decision
-- still open read "(secret)", and the decision is the viewer's
-- (decision_json).
-- Steps up to `own` (the request's own, made by the client: apply without
-- a seat) are always listed: the client took them.
local function since(e, n0, l0, out, viewer, own)
  local g = e.g
  own = own or n0
  out = out or {}
  out.steps = {}
  local n = g:step_count()
  local open_from = n + 1
  if g.kind == "all" then
    for _ in pairs(g.chosen) do open_from = open_from - 1 end
  end
  local orders_from = g.kind == "orders" and g.ostart or n
  for i = n0 + 1, n do
    local bot = e.bot_steps[i] or false
    local seat, text = g:step_at(i)
    -- (a choice still open: secret but to its own seat, a bot's too when
    -- the reply is that seat's)
    if i >= open_from and seat ~= viewer and (bot or viewer ~= nil) then text = "(secret)" end
    -- another seat's "stop here" (its last text again) would tell that it
    -- could have gone on: not shown to a seat
    local stop = false
    if viewer ~= nil and seat ~= viewer and i > 1 then
      local pseat, ptext = g:step_at(i - 1)
      stop = pseat == seat and ptext == text
    end
    if (i <= own or not (i > orders_from and seat ~= viewer)) and not stop then
      out.steps[#out.steps + 1] = { seat = seat, text = text, bot = bot }
    end
  end
  local lines = g:log()
  out.log = {}
  for i = l0 + 1, #lines do out.log[#out.log + 1] = lines[i] end
  out.decision = decision_json(g, viewer)
  out.over = g:over()
  return out
end

-- The seats to decide now.
local function deciders(g)
  local d = g:decision()
  if d.kind ~= "player" and d.kind ~= "simultaneous" and d.kind ~= "orders" then return {} end
  return d.seats
end

-- The last step continues a move that is not finished: every option of
-- its seat extends its text.
local function mid_move(g)
  local n = g:step_count()
  if n == 0 then return false end
  local seat, text = g:step_at(n)
  local opts = g:options(seat)
  if #opts == 0 then return false end
  for _, o in ipairs(opts) do
    if #o <= #text or o:sub(1, #text) ~= text then return false end
  end
  return true
end

-- One step by `bot` for `seat`, marked as a bot's.
local function bot_step(e, bot, seat)
  local g = e.g
  local ok, err = engine(nil, g.apply, g, bot:choose(seatmod.view(g, seat)), seat)
  if not ok then fail("script_error", "%s", err) end
  e.bot_steps[g:step_count()] = true
end

-- Lets the game's bots decide while it is their turn (the REPL's way).
-- Raises a Failure when a bot's step fails (see bots_then).
local function run_bots(e)
  local g = e.g
  if next(e.bots) == nil then return end
  for _ = 1, MAX_BOT_STEPS do
    local moved = false
    for _, s in ipairs(deciders(g)) do
      local b = e.bots[s]
      if b then
        bot_step(e, b, s)
        moved = true
        break
      end
    end
    if not moved then return end
  end
end

-- Runs the bots after what the request did, which stands whatever they
-- do: their failure (a rule-script error during a bot's step, the game
-- then as it was before that step) goes into the result as `bot_error`.
local function bots_then(e, out)
  local ok, err = pcall(run_bots, e)
  if not ok then
    if not is_failure(err) then err = { code = "internal", message = tostring(err) } end
    out.bot_error = { code = err.code, message = err.message, limit = err.limit }
  end
  return out
end

-- The warnings for the bots `seated` ({ [seat] = kind as given }) at game
-- g: each restriction (avoid=, prefer=) that matches no option of the
-- game's setup (kontor.balance.restrictions.for_game), a typo the bot would
-- ignore. A list of texts, or nil when there is none.
local function restriction_warnings(g, seated)
  local list, any = {}, false
  for seat, kind in pairs(seated) do
    list[#list + 1] = { seat = seat, who = string.format("seat %d's %s bot", seat, kind:match("^%s*([%w_]+)") or kind),
                        spec = kind }
    any = any or kind:find("avoid", 1, true) or kind:find("prefer", 1, true)
  end
  if not any then return nil end
  table.sort(list, function(a, b) return a.seat < b.seat end)
  local ok, out = pcall(require("kontor.balance.restrictions").for_game, g, list)
  return ok and #out > 0 and out or nil
end

-- { "2": "random" } -> { [2] = bot }, checked against the game.
local function make_bots(g, spec)
  local out = {}
  if spec == nil then return out end
  local keys = {}
  for k in pairs(spec) do keys[#keys + 1] = k end
  table.sort(keys)
  for _, k in ipairs(keys) do
    local kind = spec[k]
    -- a seat is written as the protocol writes it: "2", not "02" or "0x2"
    local seat = type(k) == "string" and k:match("^[1-9]%d?%d?$") and math.tointeger(tonumber(k))
    if not seat then
      -- "02", "0x2", " 2": a number the protocol does not write so
      local n = type(k) == "string" and math.tointeger(tonumber(k))
      if n and n >= 1 and n <= g.players then
        fail("bad_request", "\"bots\": a seat is written as a plain number in a string: \"%d\", not \"%s\"", n, k)
      end
    end
    if not seat or seat < 1 or seat > g.players then
      fail("bad_request", "\"bots\": there is no seat %s (the game has %d players)", k, g.players)
    end
    if type(kind) ~= "string" then fail("bad_request", "\"bots\": the bot of seat %d must be a kind (a string)", seat) end
    local b, err = bots.new(kind, seat, g.params.seed)
    if not b then fail("bad_request", "\"bots\": %s", err) end
    out[seat] = b
  end
  return out
end

-- Adds a game to the session; the response of new and load.
function Session:add(g, req)
  local id = field(req, "game", "string")
  if id ~= nil then
    if not id:match("^[%w_%-]+$") then fail("bad_request", "\"game\" must be letters, digits, _ and - (not '%s')", id) end
    if self.games[id] then fail("bad_request", "there is already a game '%s' (close it first)", id) end
  else
    repeat
      id = "g" .. self.next_id
      self.next_id = self.next_id + 1
    until not self.games[id]
  end
  local e = { id = id, g = g, bots = make_bots(g, plain(field(req, "bots", "object"))), bot_steps = {},
              helpers = {}, free_undo = field(req, "free_undo", "boolean") == true }
  self.games[id] = e
  self.order[#self.order + 1] = id
  local given = {}
  for seat, b in pairs(e.bots) do given[seat] = b:spec() end
  local warnings = restriction_warnings(g, given)
  local out = bots_then(e, summary(e))
  out.warnings = warnings
  since(e, 0, 0, out)
  out.moves = public_moves(g)
  out.over = g:over()
  return out
end

---------------------------------------------------------------------------
-- The operations
---------------------------------------------------------------------------

local OPS = {}

OPS.hello = function(self)
  local ops = {}
  for k in pairs(OPS) do ops[#ops + 1] = k end
  table.sort(ops)
  return { protocol = M.PROTOCOL, kontor = self.kontor.version, ops = ops }
end

-- A bot option's type as the protocol names option types.
local BOT_OPTION_TYPE = { number = "float", moves = "string" }

local function option_list(decls)
  local names, out = {}, {}
  for k in pairs(decls or {}) do names[#names + 1] = k end
  table.sort(names)
  for _, k in ipairs(names) do
    local d = decls[k]
    out[#out + 1] = { name = k, type = d.type or math.type(d.default) or type(d.default),
      default = plain(d.default), doc = d.doc, min = d.min, max = d.max, values = plain(d.values) }
  end
  return out
end

OPS.list = function()
  local out = { rule_sets = {}, variants = {}, broken = {} }
  for _, e in ipairs(rules.list()) do
    local R = e.kind ~= "broken" and rules.load_file(e.file) or nil
    if not R then
      out.broken[#out.broken + 1] = { name = e.name, message = tostring(e.summary) }
    elseif R.variant then
      local inc = {}
      for i, v in ipairs(R.includes or {}) do inc[i] = type(v) == "table" and v[1] or v end
      -- (its own title = "...", as a rule set's; else its name, as a rule set without one)
      out.variants[#out.variants + 1] = { name = e.name, title = e.title, base = R.base, summary = e.summary,
        options = option_list(R.options), includes = inc }
    else
      out.rule_sets[#out.rule_sets + 1] = { name = e.name, title = e.title, summary = e.summary,
        players = { min = R.players.min, max = R.players.max, default = R.players.default or R.players.min },
        options = option_list(R.options) }
    end
  end
  -- the bot kinds "bots", "bot" and "hint" take, with their options
  -- ("mcts:iterations=500"; a rule set may change the defaults, docs/bots.md)
  out.bots = {}
  for i, kind in ipairs(bots.ORDER) do
    local opts = option_list(bots.OPTIONS[kind])
    for _, o in ipairs(opts) do o.type = BOT_OPTION_TYPE[o.type] or o.type end
    out.bots[i] = { name = kind, summary = bots.KINDS[kind], options = opts }
  end
  return out
end

-- An object of options ("options", a variant's "options"): each value a
-- number, a text, true/false or (an option of type list) an array; an
-- object would reach the engine's message as "table: 0x...".
local function option_values(opts, where)
  if opts == nil then return nil end
  local keys = {}
  for k in pairs(opts) do keys[#keys + 1] = tostring(k) end
  table.sort(keys)
  for _, k in ipairs(keys) do
    if is_object(opts[k]) then
      fail("bad_request", "%s\"%s\" must be a number, a text, true/false or an array, not an object", where, k)
    end
  end
  return plain(opts)
end

-- "names": an array of texts (new.request.json); a number or an object
-- in it is the request's mistake, not the game's.
local function name_list(names)
  for i, v in ipairs(names or {}) do
    if type(v) ~= "string" then
      local kind = (v == json.null and "null") or (type(v) == "number" and "a number")
        or (type(v) == "boolean" and "true or false") or (is_array(v) and "an array") or "an object"
      fail("bad_request", "\"names\" must be an array of texts: name %d is %s", i, kind)
    end
  end
  return plain(names)
end

OPS.new = function(self, req)
  local t = {
    rules = field(req, "rules", "string"),
    players = field(req, "players", "integer"),
    names = name_list(field(req, "names", "array")),
    seed = field(req, "seed", "integer"),
    options = option_values(field(req, "options", "object"), "\"options\": "),
    scenario = plain(field(req, "scenario", "object")),
    manual_chance = field(req, "manual_chance", "boolean"),
  }
  local vs = field(req, "variants", "array")
  if vs then
    t.variants = {}
    for i, v in ipairs(vs) do
      if type(v) == "string" then
        t.variants[i] = v
      elseif is_object(v) and type(v.name) == "string" and (v.options == nil or is_object(v.options)) then
        for k in pairs(v) do   -- a misspelt "option" is not ignored either
          if k ~= "name" and k ~= "options" then
            fail("bad_request", "\"variants\"[%d]: unknown field \"%s\" (fields: name, options)", i, tostring(k))
          end
        end
        t.variants[i] = { v.name, options = option_values(v.options, string.format("\"variants\"[%d] options: ", i)) }
      else
        fail("bad_request", "\"variants\"[%d] must be a name (\"hand_limit:size=5\" too) or {\"name\": ..., \"options\": {...}}", i)
      end
    end
  end
  local g = engine("game_setup", self.kontor.new_game, t)
  return self:add(g, req)
end

-- A load refused: the engine's message, but for a seat's record of a game
-- in progress, which says what to load instead in the protocol's words
-- (the engine's names the REPL's `save FILE` and `kontor play`).
local function load_failed(err)
  local rec = errors.is(err) and rawget(err, "seat_record")
  if type(rec) == "table" and type(rec.said) == "string" then
    fail("game_setup", "%s; a game goes on from a save of the whole game (\"save\" without \"seat\")", rec.said)
  end
  fail("game_setup", "%s", tostring(err))
end

OPS.load = function(self, req)
  local path = field(req, "path", "string")
  local doc = field(req, "document", "object")
  if (path == nil) == (doc == nil) then fail("bad_request", "'load' needs \"path\" or \"document\" (one of them)") end
  local g
  if path then
    -- io_error only when the file itself cannot be read; what it holds is
    -- judged as a document's (not a save, a rule set it names, a move)
    local text, why = files.read(path, "save")
    if not text then fail("io_error", "%s", why) end
    local ok, res, err = pcall(self.kontor.load_game, path)
    if not ok then fail("game_setup", "%s", tostring(res)) end
    if not res then load_failed(err) end
    g = res
  else
    -- the same checks as a save file's (kontor.files), in the current folder
    local ok, res, err = pcall(self.kontor.load_document, doc, "document")
    if not ok then fail("game_setup", "%s", tostring(res)) end
    if not res then load_failed(err) end
    g = res
  end
  return self:add(g, req)
end

-- With `seat`, the save that seat may see (g:save(path, seat)): the
-- others' secret steps still open left out and, while the game is on, the
-- seed and the scenario, which give every hand back.
OPS.save = function(self, req)
  local e = self:entry(req)
  local path = field(req, "path", "string")
  local seat = seat_field(req, "seat", e.g)
  local out = { moves = public_moves(e.g) }
  if path then
    local ok, err = e.g:save(path, seat)
    if not ok then fail("io_error", "%s", err) end
    out.path = path
  else
    local ok, text = pcall(save.encode, e.g, nil, seat)
    if not ok then fail("io_error", "cannot encode the game: %s", tostring(text)) end
    out.document = json.decode(text)
  end
  return out
end

OPS.games = function(self)
  local out = {}
  for i, id in ipairs(self.order) do out[i] = summary(self.games[id]) end
  return { games = out }
end

OPS.close = function(self, req)
  local e = self:entry(req)
  self.games[e.id] = nil
  for i, id in ipairs(self.order) do
    if id == e.id then table.remove(self.order, i) break end
  end
  return { closed = e.id }
end

OPS.view = function(self, req)
  local e = self:entry(req)
  local g = e.g
  local seat = seat_field(req, "seat", g)
  if seat then
    local v = seatmod.view(g, seat)
    return { seat = seat, view = engine(nil, v.view), text = engine(nil, v.board) }
  end
  return { view = engine(nil, g.state, g), text = engine(nil, g.show, g) }
end

OPS.decision = function(self, req)
  local e = self:entry(req)
  return decision_json(e.g, seat_field(req, "seat", e.g, true))
end

-- The protocol's words for a refused action, read from the request and the
-- game, never from the engine's message:
-- An option number that names no seat, in a decision of several seats:
-- the engine's message speaks of the Lua API ("e.g. g:apply(1, 2)"); here
-- the request says whose with "seat".
-- An option's number sent as a string ("1") is read as text: the refusal
-- says how to send the number (only where that number would have been
-- legal, asked with why(k): not for a game over, another seat's turn or an
-- option that does not exist).
local function protocol_words(msg, g, action, seat, why)
  if msg == nil then return msg end
  if math.type(action) == "integer" and seat == nil and (g.kind == "all" or g.kind == "orders") then
    local who = g:who()
    return string.format('several seats choose at once (%s): say which with "seat", e.g. {"action": %d, "seat": %d}',
      table.concat(who, ", "), action, who[1])
  end
  local n = type(action) == "string" and action:match("^%s*(%d+)%s*$")
  local k = n and math.tointeger(tonumber(n))
  if k and why then
    local ok, refused = pcall(why, k)
    if ok and refused == nil then
      msg = string.format('%s (an option\'s number goes as a JSON number: "action": %d)', msg, k)
    end
  end
  return msg
end

-- why(k) for protocol_words: the seat's own, or the game's.
local function why_of(g, seat)
  if seat ~= nil and seat ~= 0 then return seatmod.view(g, seat).why end
  return function(k) return g:why(k, seat) end
end

-- An action: option number or text; the REPL's `do`.
OPS.apply = function(self, req)
  local e = self:entry(req)
  local g = e.g
  local action = field(req, "action", "string|integer", true)
  local seat = seat_field(req, "seat", g, true)
  local n0, l0 = g:step_count(), #g:log()
  local ok, err
  if seat ~= nil and seat ~= 0 then
    ok, err = engine(nil, seatmod.view(g, seat).apply, action)   -- acts for that seat only
  else
    ok, err = engine(nil, g.apply, g, action, seat)
  end
  if not ok then fail("illegal_action", "%s", protocol_words(err, g, action, seat, why_of(g, seat))) end
  local own = g:step_count()
  local out = bots_then(e, {})
  return since(e, n0, l0, out, seat ~= 0 and seat or nil, own)
end

OPS.why = function(self, req)
  local e = self:entry(req)
  local g = e.g
  local action = field(req, "action", "string|integer", true)
  local seat = seat_field(req, "seat", g, true)
  local msg
  if seat ~= nil and seat ~= 0 then
    msg = engine(nil, seatmod.view(g, seat).why, action)   -- the seat's why: its own options only
  else
    msg = engine(nil, g.why, g, action, seat)
  end
  return { legal = msg == nil, message = protocol_words(msg, g, action, seat, why_of(g, seat)) }
end

local function count_field(req, name)
  local n = field(req, name, "integer")
  if n == nil then return 1 end
  if n < 1 then fail("bad_request", "\"%s\" must be a whole number above 0, not %d", name, n) end
  return n
end

local function is_bot(e, seat) return e.bots[seat] ~= nil end

-- `only` in the result of undo and redo: how many moves there were to take
-- back or do again (of people, or of the seat), when fewer than n; nil
-- when all n were.
local function fewer(n, got)
  if got < n then return got end
  return nil
end

-- The number of secret choices at the end of the steps, of a simultaneous
-- decision still open.
local function open_choices(g)
  if g.kind ~= "all" then return 0 end
  local n = 0
  for _ in pairs(g.chosen) do n = n + 1 end
  return n
end

-- The seats in req.agree (each 1..players), as a set.
local function agree_field(req, g)
  local list = field(req, "agree", "array")
  local set = {}
  for i, s in ipairs(list or {}) do
    if math.type(s) ~= "integer" or s < 1 or s > g.players then
      fail("bad_request", "\"agree\"[%d] must be a seat 1..%d, not %s", i, g.players, json.encode(s))
    end
    set[s] = true
  end
  return set
end

-- undo with `seat`: the seat's view's undo (kontor.seat): n of its own
-- moves with what came after them, another person's moves only when that
-- seat is in `agree`; the game's bots agree as kontor.bots.agrees says (not
-- to moves that showed a hidden card, unless the game was made with
-- "free_undo"); while secret orders are open, steps of its own order only.
-- The reply is the seat's.
local function undo_for(e, seat, n, agreed)
  local g = e.g
  local v = seatmod.view(g, seat)
  local plan = v.undo_plan(n)
  local taken, why = engine(nil, g.atomically, g, function()
    return v.undo(n, function(s)
      if is_bot(e, s) then return bots.agrees(plan, e.free_undo, s) end
      return agreed[s] == true
    end)
  end)
  if not taken then
    -- a consent missing: the seats whose moves would go too, as data
    -- (what to send as "agree" once they said yes), not only in the text
    local need, refuses = {}, nil
    for _, s in ipairs(plan and plan.others or {}) do
      if not is_bot(e, s) then need[#need + 1] = s
      elseif not bots.agrees(plan, e.free_undo, s) and (not refuses or s < refuses) then refuses = s end
    end
    table.sort(need)
    if refuses then
      -- a bot says no: no person's yes can change that, so no "agree"
      -- (with one, a client asking those seats and sending their yes
      -- would be refused again, by the bot this time, and ask again)
      need = {}
      local shown, know = seatmod.shown_words(plan)
      why = plan.unseen and string.format("seat %d is a bot, and a bot does not take back a move that showed %s: "
        .. "seat %d would know %s (a game made with \"free_undo\": true has bots agree to every "
        .. "undo)", refuses, shown, seat, know)
        or string.format("seat %d is a bot, and a bot does not take back a round of secret choices it was in: "
        .. "seat %d has seen its choice (a game made with \"free_undo\": true has bots agree to every undo)",
        refuses, seat)
    end
    errors.raise("protocol", why, { code = "illegal_action", agree = need[1] and need or nil }, 0)
  end
  for i = g:step_count() + 1, #e.bot_steps do e.bot_steps[i] = nil end
  local undone, mine = {}, 0
  for i, m in ipairs(taken) do
    undone[i] = { seat = m[1], text = m[2] }
    if m[1] == seat then mine = mine + 1 end
  end
  return { undone = undone, decision = decision_json(g, seat), over = g:over(), only = fewer(n, mine),
    log_total = #g:log() }
end

-- Takes back n moves of people (with bots, back to a person's decision):
-- the REPL's undo. With `seat`, undo_for.
OPS.undo = function(self, req)
  local e = self:entry(req)
  local g = e.g
  local n = count_field(req, "n")
  local seat = seat_field(req, "seat", g)
  local agreed = agree_field(req, g)
  if seat and is_bot(e, seat) then
    -- the bot's move taken back would leave the game at the bot's turn,
    -- with nobody to act (the bots move after a request): a bot's moves go
    -- back with a person's, as in the REPL and in play
    fail("illegal_action", "seat %d is played by a bot: its moves go back with a person's (undo with that "
      .. "person's seat, or without \"seat\")", seat)
  end
  if seat then return undo_for(e, seat, n, agreed) end
  if next(agreed) then fail("bad_request", "\"agree\" goes with \"seat\" (the seat whose moves are taken back)") end
  local people, undone = 0, {}
  local with_bots = next(e.bots) ~= nil
  -- g:atomically: a failure half-way (a memory error) leaves the game as it was
  -- the moves of people still in the record: with none left, undo stops
  -- (bots' moves before any person's are not taken back: nobody would
  -- play them again, the bots moving only after a request)
  local left = 0
  for _, m in ipairs(g:move_list()) do if not is_bot(e, m[1]) then left = left + 1 end end
  engine(nil, g.atomically, g, function()
    while left > 0 do
      local ml = g:move_list()
      local last = ml[#ml]
      if not last then break end
      if people >= n then
        if not with_bots then break end
        local person_turn = false
        for _, s in ipairs(deciders(g)) do if not is_bot(e, s) then person_turn = true end end
        if person_turn then break end
      end
      -- the move undo takes is the last taken (not the last in the record's
      -- order); a step of a secret order or choice still open is left out
      -- of the list: nobody has seen it
      local open = (g.kind == "orders" and g:step_count() > g.ostart) or open_choices(g) > 0
      local took = g:undo_moves(1)[1]
      if took and not open then table.insert(undone, 1, { seat = took[1], text = took[2] }) end
      if took and not is_bot(e, took[1]) then people, left = people + 1, left - 1 end
    end
  end)
  for i = g:step_count() + 1, #e.bot_steps do e.bot_steps[i] = nil end
  -- the log lines of the moves taken back are gone: log_total says where
  -- the log ends now, for a client that keeps the lines progress gave
  return { undone = undone, decision = decision_json(g), over = g:over(), only = fewer(n, people),
    log_total = #g:log() }
end

-- Does n undone moves of people again, with the bots' moves after them.
OPS.redo = function(self, req)
  local e = self:entry(req)
  local g = e.g
  local n = count_field(req, "n")
  local seat = seat_field(req, "seat", g)
  local n0, l0 = g:step_count(), #g:log()
  local with_bots = next(e.bots) ~= nil
  local done = 0
  engine(nil, function()
    while true do
      local fut = g:redo_list()
      local f = fut[#fut]
      if not f then break end
      local human = not is_bot(e, f[1])
      if done >= n and (human or not with_bots) then break end
      -- with `seat`: its own moves, and the bots' after them
      if seat and human and f[1] ~= seat then break end
      local before = g:step_count()
      if g:redo_moves(1) ~= 1 then break end
      if not human then for i = before + 1, g:step_count() do e.bot_steps[i] = true end end
      if human or not with_bots then done = done + 1 end
    end
  end)
  local out = since(e, n0, l0, nil, seat)
  out.only = fewer(n, done)
  return out
end

-- One whole move by a bot for `seat` (default: the first seat to decide).
OPS.bot = function(self, req)
  local e = self:entry(req)
  local g = e.g
  local kind = field(req, "kind", "string") or "random"
  local seat = seat_field(req, "seat", g)
  if g:over() then fail("illegal_action", "the game is over") end
  local ds = deciders(g)
  if seat == nil then seat = ds[1] end
  if seat == nil then   -- a chance decision (manual_chance): no seat's, no bot's
    fail("illegal_action", "no seat decides now: chance does (manual_chance): apply one of its options with \"seat\": 0")
  end
  local turn = false
  for _, s in ipairs(ds) do if s == seat then turn = true end end
  if not turn then
    fail("illegal_action", "seat %d has no decision now", seat)
  end
  local key = seat .. ":" .. kind
  local b = e.helpers[key]
  local warnings
  if not b then
    local err
    b, err = bots.new(kind, seat, g.params.seed + 1)
    if not b then fail("bad_request", "%s", err) end
    e.helpers[key] = b
    warnings = restriction_warnings(g, { [seat] = kind })   -- the first time it plays
  end
  local n0, l0 = g:step_count(), #g:log()
  -- a client that names the seat acts for it: the reply is that seat's
  local viewer = field(req, "seat", "integer") and seat or nil
  local ok, err = pcall(function()
    local steps = 0
    repeat
      if steps == MAX_MOVE_STEPS then
        fail("script_error", "the bot's move did not end within %d steps: every option it took asked for "
          .. "another step (the steps it took stand; undo takes them back)", MAX_MOVE_STEPS)
      end
      bot_step(e, b, seat)
      steps = steps + 1
    until g:over() or not mid_move(g)
  end)
  if not ok then
    if g:step_count() == n0 then error(err, 0) end   -- nothing was done: a plain error
    local out = since(e, n0, l0, nil, viewer)
    out.bot_error = is_failure(err) and { code = err.code, message = err.message, limit = err.limit }
      or { code = "internal", message = tostring(err) }
    out.warnings = warnings
    return out
  end
  local out = since(e, n0, l0, bots_then(e, {}), viewer)
  out.warnings = warnings
  return out
end

-- What a bot of `kind` (default mcts, as the REPL's hint) would play for
-- `seat` now, and why, without playing it: the seat view's hint
-- (kontor.bots.hint), so the bot sees only what the seat sees.
OPS.hint = function(self, req)
  local e = self:entry(req)
  local g = e.g
  field(req, "seat", "integer", true)
  local seat = seat_field(req, "seat", g)
  local kind = field(req, "kind", "string") or "mcts"
  if g:over() then fail("illegal_action", "the game is over") end
  local v = seatmod.view(g, seat)
  local opts = v.options()
  if not opts then fail("illegal_action", "seat %d has no decision now", seat) end
  local ok, err = bots.new(kind, seat, 1)
  if not ok then fail("bad_request", "%s", err) end
  local lines, k = engine(nil, v.hint, kind)
  if not lines then fail("illegal_action", "%s", k) end
  return { seat = seat, option = option_json(g, seat, k, opts[k], v.decision), lines = lines }
end

OPS.moves = function(self, req)
  local e = self:entry(req)
  local g = e.g
  local seat = seat_field(req, "seat", g)
  -- with a seat, its view's moves: others' unrevealed secret orders left out
  local shown = seat and seatmod.view(g, seat).moves() or g:moves()
  local out = {}
  for i, m in ipairs(shown) do
    local s, text = m:match("^(%w+): (.*)$")
    out[i] = { seat = s == "chance" and 0 or tonumber(s), text = text }
  end
  return { moves = out }
end

OPS.log = function(self, req)
  local e = self:entry(req)
  local from = field(req, "from", "integer") or 0
  if from < 0 then fail("bad_request", "\"from\" must be 0 or more, not %d", from) end
  local lines = e.g:log()
  local out = {}
  for i = math.min(from, #lines) + 1, #lines do out[#out + 1] = lines[i] end
  return { lines = out, total = #lines }
end

OPS.result = function(self, req)
  local e = self:entry(req)
  local r, err = engine(nil, e.g.result, e.g)
  if not r then fail("not_over", "%s", err) end
  return { scores = r.scores, winners = r.winners, turns = r.turns, why = describe.why_won(e.g) }
end

---------------------------------------------------------------------------
-- The loop
---------------------------------------------------------------------------

-- The fields each op takes besides id and op (docs/protocol.md): any other
-- is refused, so a misspelt field is not silently ignored.
local FIELDS = {
  hello = {}, list = {}, games = {},
  new = { "rules", "variants", "players", "names", "seed", "options", "scenario", "manual_chance", "bots", "game",
    "free_undo" },
  load = { "path", "document", "game", "bots", "free_undo" },
  save = { "game", "path", "seat" },
  close = { "game" }, result = { "game" },
  view = { "game", "seat" }, decision = { "game", "seat" }, moves = { "game", "seat" },
  apply = { "game", "action", "seat" }, why = { "game", "action", "seat" },
  undo = { "game", "n", "seat", "agree" }, redo = { "game", "n", "seat" },
  bot = { "game", "seat", "kind" }, hint = { "game", "seat", "kind" },
  log = { "game", "from" },
}

local function check_fields(req, op)
  local allowed = { id = true, op = true }
  for _, f in ipairs(FIELDS[op]) do allowed[f] = true end
  local keys = {}
  for k in pairs(req) do keys[#keys + 1] = tostring(k) end
  table.sort(keys)
  for _, k in ipairs(keys) do
    if not allowed[k] then
      fail("bad_request", "unknown field \"%s\" for '%s' (%s)", k, op,
        #FIELDS[op] > 0 and ("fields: " .. table.concat(FIELDS[op], ", ")) or "it takes none")
    end
  end
end

local function id_ok(id)
  return type(id) == "string" or math.type(id) == "integer"
end

local function too_long(bytes)
  return { id = json.null, ok = false, error = { code = "parse_error",
    message = string.format("request too long (%d bytes; the limit is %d)", bytes, MAX_LINE) } }
end

-- Handles one line; returns the response object.
-- What the engine noticed of the rule script as the steps went (a
-- module-level variable changed: g:warnings(), docs/api.md), added to the
-- result's `warnings` of the ops that take or replay steps.
local TAKES_STEPS = { apply = true, redo = true, undo = true, bot = true, new = true, load = true }
local function module_warnings(self, op, req, res)
  if not TAKES_STEPS[op] or type(res) ~= "table" then return res end
  local e = self.games[res.game or req.game]
  if not e then return res end
  -- (a request that names a seat gets that seat's: without the values)
  local seat = math.type(req.seat) == "integer" and req.seat ~= 0 and req.seat or nil
  local said = e.g:warnings(seat)
  if #said > 0 then
    local out = res.warnings or {}
    table.move(said, 1, #said, #out + 1, out)
    res.warnings = out
  end
  return res
end

function Session:handle(line)
  if #line > MAX_LINE then return too_long(#line) end
  local req, jerr = json.decode(line)
  if req == nil then
    -- (jansson's words for a NUL name its own flag, which means nothing to a client)
    local msg = tostring(jerr):gsub(" is not allowed without JSON_ALLOW_NUL", " is not allowed in a request")
    return { id = json.null, ok = false, error = { code = "parse_error", message = "not JSON: " .. msg } }
  end
  if not is_object(req) then
    return { id = json.null, ok = false, error = { code = "bad_request", message = "a request is a JSON object" } }
  end
  local id = req.id
  if not id_ok(id) then
    return { id = json.null, ok = false, error = { code = "bad_request",
      message = "every request needs an \"id\": a string or a whole number" } }
  end
  local ok, res = pcall(function()
    if req.op == nil or req.op == json.null then
      fail("bad_request", "every request needs an \"op\": a string naming the operation")
    end
    local op = field(req, "op", "string", true)
    local f = OPS[op]
    if not f then
      local names = {}
      for k in pairs(OPS) do names[#names + 1] = k end
      table.sort(names)
      fail("unknown_op", "unknown op '%s' (ops: %s)", op, table.concat(names, ", "))
    end
    check_fields(req, op)
    return module_warnings(self, op, req, f(self, req))
  end)
  if ok then return { id = id, ok = true, result = res } end
  if is_failure(res) then
    return { id = id, ok = false, error = { code = res.code, message = res.message, limit = res.limit,
      agree = res.agree } }
  end
  return { id = id, ok = false, error = { code = "internal", message = tostring(res) } }
end

local function encode(resp)
  local ok, text = pcall(json.encode, resp)
  if ok then return text end
  return json.encode { id = resp.id, ok = false,
    error = { code = "internal", message = "cannot encode the response: " .. tostring(text) } }
end

-- The next line of `input` (a file handle; without its "\n") and its
-- length in bytes, or nil at the end. A line is never held whole past
-- MAX_LINE: its first MAX_LINE + 1 bytes are kept and the rest only
-- counted (kontor.core.fs.read_line, in C), so that a line of hundreds of
-- MiB is one parse_error, not the end of the session (the memory cap
-- covers the whole program, and read("l") keeps the whole line).
function M.read_line(input)
  return core.fs.read_line(input, MAX_LINE)
end

-- Reads requests from `input` until it ends; writes responses to `output`.
function M.run(kontor, input, output)
  input, output = input or io.stdin, output or io.stdout
  local sess = new_session(kontor)
  while true do
    local line, bytes = M.read_line(input)
    if line == nil then break end
    if line:match("%S") or bytes > #line then
      output:write(encode(bytes > MAX_LINE and too_long(bytes) or sess:handle(line)), "\n")
      output:flush()
    end
  end
  return 0
end

M.new_session = new_session
return M
