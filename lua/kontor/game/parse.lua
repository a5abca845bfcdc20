-- kontor.game.parse: actions as people type them. g:apply walks an action
-- text through the decisions it passes (the longest option that fits at a
-- word boundary, then any "stop here"), and a text that fits nothing is
-- explained: R.constraints' reason or R.explain[decision], and the options
-- expected. g:why asks the same question without taking the steps.

local core = require "kontor.core"
local driver = require "kontor.game.driver"
local ktext = require "kontor.text"

local inspect = core.sandbox.inspect    -- a call that reads the game and changes nothing of it
local format, concat = string.format, table.concat
local step, rebuild = driver.step, driver.rebuild
local options_of, texts_of, dname_of = driver.options_of, driver.texts_of, driver.dname_of
local hist_texts, extends_any = driver.hist_texts, driver.extends_any

local M = {}
local Game = {}     -- the Game methods of this file (game/init.lua)
M.methods = Game

local function seat_label(seat)
  if seat == 0 then return "chance" end
  return tostring(seat)
end

-- A seat as the front ends name it: its player's name ("Ann", or
-- "Player 2" when the game was given none), or "chance".
local function seat_name(game, seat)
  if seat == 0 then return "chance" end
  local names = game.params and game.params.names
  return names and names[seat] or ("seat " .. seat_label(seat))
end

-- A decision's name in the words play's and the REPL's status lines use
-- (the rule set's R.decision_words, else "take_other" -> "take other").
local function decision_words(game, name)
  local t = rawget(game.R, "decision_words")
  return ktext.decision_words(name, type(t) == "table" and rawget(t, name) or nil)
end

-- Who the game waits for, and on what decision, in the words of the
-- status line ("Bob to choose (take other)"; the decision's name is
-- public: the options are not, they may show a hand): "waiting for Ann:
-- discover", "waiting for Ann, Cy: bid", "waiting for chance: deal".
local function waiting_for(game)
  local cur, name = game:who(), game.dname
  local who
  if type(cur) == "table" then
    local names = {}
    for i, s in ipairs(cur) do names[i] = seat_name(game, s) end
    who = concat(names, ", ")
  else
    who = seat_name(game, cur)
  end
  return "waiting for " .. who .. ((name and name ~= "") and (": " .. decision_words(game, name)) or "")
end

-- Whether the character at i ends a word of an action text.
local function is_boundary(text, i)
  local c = text:sub(i, i)
  return c == " " or c == ","
end

-- The reason is told to the seat whose text was refused, so the rule
-- script reads the game as that seat may imagine it (kontor.describe.seen:
-- a copy with what the seat cannot see dealt again), never the real one
-- (docs/security.md, "Seat views"); no copy, no reason.
local function explain(game, seat, name, text)
  local cons = game.cons
  cons = cons and cons[name] or {}
  local f = game.R.explain[name]
  if #cons == 0 and not f then return nil end
  local seen = require("kontor.describe").seen(game, seat)
  if not seen then return nil end
  local ctx = seen.ctx
  local option = text                  -- the option itself, if the text is one
  local opts, texts = options_of(seen, seat), texts_of(seen, seat)
  for i = 1, texts and #texts or 0 do
    if texts[i] == text then option = opts[i]; break end
  end
  for _, c in ipairs(cons) do
    local ok, why = inspect("R.constraints", ctx, c, ctx, seat, name, text, option)
    if ok and type(why) == "string" then return why end
  end
  if not f then return nil end
  local ok, why = inspect("R.explain", ctx, f, ctx, seat, text)
  if ok and type(why) == "string" then return why end
  -- a broken explanation says so, with its file:line (the designer's bug
  -- would else be a reason left out, silently); an interrupt goes on
  if not ok then
    if require("kontor.errors").kind(why) == "interrupt" then error(why, 0) end
    return format("R.explain.%s failed: %s", name, require("kontor.text").error_place(why))
  end
  return nil
end

-- Case. An action is matched against the options as the rule set spells
-- them first; only where that finds nothing is it matched again with
-- letters A-Z and a-z taken alike ("Buy Contract" for "buy contract"),
-- and taken when it names one option (or one the short way). The step
-- records the option, so what is recorded, saved and shown is the rule
-- set's text. Two options that differ only in case are never told apart
-- that way: each is taken as spelt, and a text between them is refused,
-- saying so. (ASCII letters only: no locale decides what a move is.)
local LOWER = {}
for c = 65, 90 do LOWER[string.char(c)] = string.char(c + 32) end
local function fold(s) return (s:gsub("[A-Z]", LOWER)) end
M.fold = fold

-- Up to 12 of the option texts, runs alike as ranges ("bid 0-23",
-- kontor.text.option_list), for a message (with `prefix`: only those
-- that extend it at a word's end, or at a ':' as in "acquire building:dye_house",
-- which no short form takes but a message may list).
local function expected(opts, prefix)
  if prefix then
    local some, fprefix = {}, fold(prefix)
    for i = 1, #opts do
      local o = opts[i]
      if #o > #prefix and (o:sub(1, #prefix) == prefix or fold(o:sub(1, #prefix)) == fprefix)
         and (is_boundary(o, #prefix + 1) or o:sub(#prefix + 1, #prefix + 1) == ":") then
        some[#some + 1] = o
      end
    end
    opts = some
  end
  return ktext.option_list(opts, 12)
end

-- The longest option that `text` begins with at a word boundary (or is),
-- letters of either case alike: its index and length; or nil, and the
-- options of that length that differ only in case when there are several.
local function fold_best(opts, text)
  local ftext, tlen = fold(text), #text
  local best, bestlen, twins = nil, 0, nil
  for i = 1, #opts do
    local o = opts[i]
    local l = #o
    if l >= bestlen and l <= tlen and (l == tlen or is_boundary(text, l + 1)) and fold(o) == ftext:sub(1, l) then
      if l > bestlen or not best then best, bestlen, twins = i, l, nil
      elseif o ~= opts[best] then twins = twins or { opts[best] }; twins[#twins + 1] = o end
    end
  end
  if twins then return nil, twins end
  return best, bestlen
end

-- The options that extend `text` at a word boundary, letters of either
-- case alike: the first one's index and how many there are.
local function fold_extensions(opts, text)
  local first, n, len, ftext = nil, 0, #text, fold(text)
  for i = 1, #opts do
    local o = opts[i]
    if #o > len and is_boundary(o, len + 1) and fold(o:sub(1, len)) == ftext then
      first, n = first or i, n + 1
    end
  end
  return first, n
end

-- Whether `word` begins one of `opts` (the whole option or its first
-- words), as an action's walk takes it: as spelt or in another case. The
-- front ends ask it of a line's first word: a move, or a command?
function M.starts_option(opts, word)
  local fword, n = fold(word), #word
  for _, o in ipairs(opts) do
    if o == word or (#o > n and o:sub(n + 1, n + 1) == " " and o:sub(1, n) == word) then return true end
    if (#o == n or (#o > n and o:sub(n + 1, n + 1) == " ")) and fold(o:sub(1, n)) == fword then return true end
  end
  return false
end

-- Whether `text` is one of `opts` as the walk takes it: as spelt, or in
-- another case when it names one option so.
function M.is_option(opts, text)
  local ftext, k = fold(text), nil
  for i, o in ipairs(opts) do
    if o == text then return true end
    if #o == #text and fold(o) == ftext then
      if k and opts[k] ~= o then return false end
      k = i
    end
  end
  return k ~= nil
end

-- The options that extend `text` at a word boundary: the first one's
-- index and how many there are.
local function extensions_of(opts, text)
  local first, n, len = nil, 0, #text
  for i = 1, #opts do
    local o = opts[i]
    if #o > len and o:sub(1, len) == text and is_boundary(o, len + 1) then
      first, n = first or i, n + 1
    end
  end
  return first, n
end

-- A step for a seat's own text that goes on past it (kontor.seat's apply
-- and why): whether it showed the seat what was hidden, a card out of a
-- pile it cannot see, a g:chance outcome or a draw of the game's RNG (as
-- kontor.seat's undo tells them). The walk then stops: taken back with the
-- rest of a refused text, or asked by `why` and taken back, such a step
-- showed the card in the message's options ("expected one of: draw, keep
-- Ten") or in whether the rest fitted ("draw, discard Ace" refused,
-- "draw, discard Ten" taken), with the game as it was: a peek at the deck
-- that no undo, and no other seat, had let happen.
local CHANCE
local function watched_step(game, seat, k)
  CHANCE = CHANCE or require("kontor.game.context").chance_watch
  local rng = game.rng:state()
  core.pile_watch(true)
  CHANCE.on, CHANCE.drawn = true, false
  local pok, ok, err = pcall(step, game, seat, k)
  CHANCE.on = false
  local shown = core.pile_watch(false)
  if not pok then error(ok, 0) end
  local showed = CHANCE.drawn or game.rng:state() ~= rng or seat > 63 and shown ~= 0 or (shown >> seat) & 1 == 1
  return ok, err, showed
end

-- Walks the steps of one move text for `seat`. Returns true, or nil and a
-- message (the game then is as it was). `as_seat`: the text is a seat's
-- own (kontor.seat), and stops at a step that shows it what was hidden.
local function walk(game, seat, text, as_seat)
  local start_n = #game.rec
  local prev = -1
  local tlen = #text
  local last_n                 -- steps taken before the decision the text last passed through
  local function fail(msg)
    if #game.rec > start_n then rebuild(game, start_n) end
    return nil, msg
  end
  local function illegal(name, opts)
    local why = explain(game, seat, name, text)
    -- the options the text begins (at a ':': "acquire building"), if any
    local some = expected(opts, text)
    return format("'%s' is not a legal action%s; expected one of: %s",
      text, why and (": " .. why) or "", some ~= "" and some or expected(opts))
  end
  -- The text ran past the end of a move: explain it at the decision it
  -- last passed through, in the state of that moment.
  local function overran()
    rebuild(game, last_n)
    return fail(illegal(dname_of(game, seat), texts_of(game, seat)))
  end
  while true do
    local opts, who = texts_of(game, seat)
    if not opts and last_n then return overran() end
    if not opts then
      if game.kind == "over" then return fail(format("'%s': the game is over", text)) end
      if (game.kind == "all" or game.kind == "orders") and who == nil then
        return fail(format("'%s': several seats choose at once (%s): say which, e.g. '%d: %s'",
          text, concat(game:who(), ", "), game:who()[1], text))
      end
      return fail(format("'%s': it is not %s's turn to decide (%s)", text, seat_name(game, who), waiting_for(game)))
    end
    seat = who
    local best, bestlen = nil, 0
    for i = 1, #opts do
      local o = opts[i]
      local l = #o
      if l > bestlen and l <= tlen and (l == tlen and o == text or
          (text:sub(1, l) == o and is_boundary(text, l + 1))) then
        best, bestlen = i, l
      end
    end
    if not best or bestlen <= prev then
      -- A short form: the text names exactly one option by its beginning
      -- ("load fish" when one ship is empty). The step records the option.
      local k, n = extensions_of(opts, text)
      if n == 1 then
        best, text = k, opts[k]
        bestlen, tlen = #text, #text
      elseif n > 1 and not (last_n and not extends_any(opts, text:sub(1, prev))) then
        return fail(format("'%s' is ambiguous: it could be %s", text, expected(opts, text)))
      end
    end
    if not best or bestlen <= prev then
      -- Nothing as spelt: the same, letters of either case alike
      -- ("Load Fish on ship 2"); the text takes the option's spelling.
      local k, klen = fold_best(opts, text)
      if type(klen) == "table" and #klen[1] > prev then
        return fail(format("'%s' could be %s, which differ only in case: type the one you mean as it is spelt",
          text, expected(klen)))
      end
      if k and klen > prev then
        best, bestlen, text = k, klen, opts[k] .. text:sub(klen + 1)
      else
        local n
        k, n = fold_extensions(opts, text)
        if n == 1 then
          best, text = k, opts[k]
          bestlen, tlen = #text, #text
        elseif n > 1 and not (last_n and not extends_any(opts, text:sub(1, prev))) then
          local some, ftext = {}, fold(text)
          for i = 1, #opts do
            local o = opts[i]
            if #o > #text and is_boundary(o, #text + 1) and fold(o:sub(1, #text)) == ftext then some[#some + 1] = o end
          end
          local cased = true    -- one option but for case?
          for i = 2, #some do if fold(some[i]) ~= fold(some[1]) then cased = false end end
          return fail(format("'%s' is ambiguous: it could be %s%s", text, expected(some),
            cased and " (they differ only in case: type the one you mean as it is spelt)" or ""))
        end
      end
    end
    if not best or bestlen <= prev then
      if last_n and not extends_any(opts, text:sub(1, prev)) then
        return overran()   -- this decision starts a new move
      end
      return fail(illegal(dname_of(game, seat), opts))
    end
    if bestlen < tlen then last_n = #game.rec end
    local ok, err, showed
    if as_seat and bestlen < tlen and seat ~= 0 then
      local pok, a, b, c = pcall(watched_step, game, seat, best)
      if not pok then rebuild(game, start_n); error(a, 0) end
      ok, err, showed = a, b, c
    else
      ok, err = step(game, seat, best)
    end
    if not ok then
      rebuild(game, start_n)
      error(err, 0)
    end
    if showed then
      local done = text:sub(1, bestlen)
      return fail(format("'%s': '%s' shows what was hidden (a card, a draw), and a move's text stops there: "
        .. "type '%s', then the rest once you have seen it", text, done, done))
    end
    prev = bestlen
    if bestlen == tlen then
      -- The move is complete; take a "stop here" option that repeats it.
      local nopts, nwho = texts_of(game, seat)
      if nopts and nwho == seat and extends_any(nopts, text) then
        for i = 1, #nopts do
          if nopts[i] == text then
            local ok2, err2 = step(game, seat, i)
            if not ok2 then rebuild(game, start_n); error(err2, 0) end
            break
          end
        end
      end
      return true
    end
  end
end

-- (trimmed first, in one pass: the patterns below then match in linear
-- time, whatever runs of spaces the text holds)
local function parse_seat(action)
  action = ktext.trim(action)
  local s, rest = action:match("^(%d+)%s*:%s*(.*)$")
  if s then return tonumber(s), rest end
  rest = action:match("^chance%s*:%s*(.*)$")
  if rest then return 0, rest end
  return nil, action
end

-- Applies an action: an option number, an option text or a whole move
-- text, optionally "seat: text". Returns true, or nil and a message.
-- A rule-script error raises (the game is then exactly as before).
function Game:apply(action, seat, as_seat)
  if self.kind == "over" then return nil, "the game is over" end
  local n0 = #self.rec
  local ok, err
  if seat ~= nil and seat ~= 0 and (math.type(seat) ~= "integer" or seat < 1 or seat > self.players) then
    return nil, format("there is no seat %s (seats 1..%d)", tostring(seat), self.players)
  end
  if math.type(action) == "integer" then
    local opts, who = options_of(self, seat)
    if not opts then
      if (self.kind == "all" or self.kind == "orders") and seat == nil then
        return nil, format("several seats choose at once (%s): say which, e.g. g:apply(%d, %d)",
          concat(self:who(), ", "), action, self:who()[1])
      end
      return nil, format("seat %s has no decision now", seat_label(seat or "?"))
    end
    if action < 1 or action > #opts then
      return nil, format("option %d does not exist (there are %d)", action, #opts)
    end
    self:step(who, action)
    ok = true
  elseif type(action) == "string" then
    local s, text = parse_seat(action)
    if s and seat and s ~= seat then
      return nil, format("'%s' names seat %d but seat %d was given", action, s, seat)
    end
    if text == "" then return nil, "an empty action" end
    local opts = text:match("^%d+$") and not math.tointeger(tonumber(text)) and options_of(self, s or seat)
    if opts then   -- an option number past any integer, typed at a prompt
      return nil, format("option %s does not exist (there are %d)", text, #opts)
    end
    ok, err = walk(self, s or seat, text, as_seat)
    -- Spaces. Where the text as typed fits nothing, runs of spaces (or
    -- tabs) are taken as one ("load  fish on ship 1", a completion's
    -- space and one typed after it): the options' own spacing comes first,
    -- as their spelling does for case.
    if not ok and (text:find("%s%s") or text:find("[\t\r\n\f\v]")) then
      local one = text:gsub("%s+", " ")
      local ok2, err2 = walk(self, s or seat, one, as_seat)
      if ok2 then ok, err = ok2, err2 end
    end
  else
    return nil, format("an action is an option number or text, not a %s", type(action))
  end
  if not ok then return nil, err end
  -- Redo survives only while the new steps are the ones undone.
  local fut = self.future
  local texts = hist_texts(self)
  local rec = self.rec
  for i = n0 + 1, #rec do
    local f = fut[#fut]
    if f and f[1] == rec:seat(i) and f[2] == texts[i] then
      fut[#fut] = nil
    else
      self.future = {}
      fut = self.future
    end
  end
  return true
end

function Game:why(action, seat, as_seat)
  if self.kind == "over" then return "the game is over" end
  local n0 = #self.rec
  local fut = { table.unpack(self.future) }
  local ok, err = self:apply(action, seat, as_seat)
  if ok then rebuild(self, n0) end
  self.future = fut
  if ok then return nil end
  return err
end

M.seat_label = seat_label
M.seat_name = seat_name
M.is_boundary = is_boundary
M.parse_seat = parse_seat
M.walk = walk
return M
