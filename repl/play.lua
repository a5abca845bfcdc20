-- play (repl/play.lua): `kontor play`, hot-seat play at one terminal.
--
-- Play is given a table (kontor.seat.table): the seat views of the game,
-- one per seat, and autosave. It never holds the game: everything it
-- shows or does goes through the view of the seat at the keyboard (or of
-- a bot's seat, for that bot), so it cannot show a seat what its view
-- does not (docs/security.md, "Seat views"). Before each prompt the bots
-- move; the person to move sees their own board and numbered options;
-- between two people a hand-over screen clears the terminal and waits for
-- Enter; at the end, the final scores and the winners.

local core = require "kontor.core"
local ktext = require "kontor.text"
local term = core.term
local csb = core.sandbox

local M = {}

local HELP = [[
Game commands (in play: only your own seat's view):
  board              your board
  options            your legal options, numbered
  do N | do TEXT     do option N, or an action by its text (a whole move is
                     fine: do play fish on slots 1,4); a bare number or
                     option text works too
  why TEXT           why an action is illegal now
  undo [N]           take back N of your moves (the others' after them only
                     with their yes)
  redo [N]           do them again
  auto [N]           a random bot plays your next N moves (default: to the end)
  moves              the moves so far          log [N]   the event log (last N)
  result             the final scores and the winners
  save FILE          save the game as you see it
  hint [KIND]        what a bot (default mcts) would play now, and why
  bots               who is a bot
  help               this text                 quit      leave (or Ctrl-D)]]

---------------------------------------------------------------------------
-- Output: every text goes through ktext.escape (it may come from a rule
-- script); the program's own colours are Raw pieces
---------------------------------------------------------------------------

local P = {}
P.__index = P

local ESC = { red = "\27[31m", green = "\27[32m", cyan = "\27[36m", bold = "\27[1m", dim = "\27[2m",
              reset = "\27[0m" }
local Raw = {}
Raw.__index = Raw
local function raw(s) return setmetatable({ s = s }, Raw) end
local function piece(v)
  if getmetatable(v) == Raw then return v.s end
  return ktext.escape(v, true)
end
Raw.__concat = function(a, b) return raw(piece(a) .. piece(b)) end

function P:c(name, s)
  if not self.color then return ktext.escape(s, true) end
  return raw(ESC[name] .. ktext.escape(s, true) .. ESC.reset)
end

function P:say(...)
  local parts = table.pack(...)
  for i = 1, parts.n do io.stdout:write(piece(parts[i])) end
  io.stdout:write("\n")
end

function P:err(msg)
  io.stdout:write(piece(self:c("red", ktext.error_line(tostring(msg)))), "\n")
end

local function trim(s) return (s:match("^%s*(.-)%s*$")) end

-- Runs f with Ctrl-C turned into an "interrupted" error; returns pcall's results.
local function guarded(f, ...)
  csb.catch_sigint(true)
  local res = table.pack(pcall(f, ...))
  csb.catch_sigint(false)
  return table.unpack(res, 1, res.n)
end

---------------------------------------------------------------------------
-- The table: public facts come from any view, the rest from the seat's
---------------------------------------------------------------------------

function P:name(s)
  if s == 0 or s == "chance" then return "chance" end
  return self.names[s] or ("seat " .. tostring(s))
end

-- The view public facts are read from (who decides, the log, the result).
function P:any() return self.views[self.turn_seat or self.last_seat or 1] end

-- The view of the seat at the keyboard.
function P:mine() return self.turn_seat and self.views[self.turn_seat] end

function P:decision_words(name)
  if type(name) ~= "string" then return tostring(name) end
  local w = self.words[name]
  if w then return w end
  return (name:gsub("_", " "):gsub("(%a)(%d)", "%1 %2"):gsub("(%d)(%a)", "%1 %2"))
end

-- The seats to decide now (a list; chance is "chance") and the decision's kind.
function P:deciders()
  local v = self:any()
  local w, d = v.who(), v.now()
  if w == nil then return {}, d end
  if type(w) ~= "table" then w = { w } end
  return w, d
end

function P:is_bot(s) return self.bots[s] ~= nil end

function P:status()
  local seats, d = self:deciders()
  if d.kind == "over" then return "The game is over." end
  if d.kind == "chance" then return string.format("Chance decides (%s).", self:decision_words(d.name)) end
  local names = {}
  for i, s in ipairs(seats) do names[i] = self:name(s) .. (self.bots[s] and " (bot)" or "") end
  if d.kind == "orders" then
    local line = string.format("%s to enter %s secret order%s (%s).", table.concat(names, ", "),
      #seats == 1 and "a" or "their", #seats == 1 and "" or "s", self:decision_words(d.name))
    local v = self:mine()
    local mine = v and v.now()
    if mine and mine.step then
      line = line .. string.format(" %s's order so far: %s; next: %s.", self:name(v.seat),
        #mine.pending > 0 and table.concat(mine.pending, ", ") or "nothing", self:decision_words(mine.step))
    end
    return line
  end
  return string.format("%s to choose (%s).", table.concat(names, ", "), self:decision_words(d.name))
end

function P:print_log_from(n0)
  local lines = self:any().log()
  for i = n0 + 1, #lines do self:say(ktext.escape(lines[i])) end
  return #lines
end

function P:print_options()
  local v = self:mine()
  if not v then return self:err("no seat of yours decides now") end
  if v.over() then return self:say("The game is over: no options.") end
  local opts = v.options() or {}
  local w = #tostring(#opts)
  -- an option repeating the move so far ends the move there: say so
  local acts = v.record()
  local lseat, ltext = (acts[#acts] or ""):match("^(%w+): (.*)$")
  local stop = lseat and tonumber(lseat) == v.seat and ltext or nil
  if stop then
    local goes_on = false
    for _, o in ipairs(opts) do
      if #o > #stop and o:sub(1, #stop) == stop and o:sub(#stop + 1, #stop + 1):match("[ ,]") then goes_on = true end
    end
    if not goes_on then stop = nil end
  end
  for i, o in ipairs(opts) do
    local note = o == stop and self:c("dim", "  (stop here: the move ends)") or ""
    local cost = v.note(o)
    self:say(self:c("cyan", string.format("%" .. w + 2 .. "d", i)), "  ", ktext.escape(o), note,
      cost and self:c("dim", "  (" .. cost .. ")") or "")
  end
end

function P:print_result()
  local r, e = self:any().result()
  if not r then return self:err(e) end
  local win = {}
  for _, s in ipairs(r.winners) do win[s] = true end
  local w = 0
  for s = 1, self.players do w = math.max(w, #self:name(s)) end
  self:say(self:c("bold", "Game over.") .. " Final scores:")
  for s = 1, self.players do
    local line = string.format("  %-" .. w .. "s  %4s", self:name(s), tostring(r.scores[s]))
    if win[s] then line = line .. "  " .. self:c("green", "winner") end
    self:say(line)
  end
  local names = {}
  for i, s in ipairs(r.winners) do names[i] = self:name(s) end
  self:say((#names == 1 and "Winner: " or "Winners: ") .. table.concat(names, ", "))
  local v = self:any()
  local why = v.why_won()
  if why then self:say("Why: ", why) end
  local seed = v.seed()
  if seed then self:say(string.format("Seed %d (new seed=%d plays this deal again).", seed, seed)) end
end

-- The bots decide while it is their turn, each through its own seat's view.
function P:run_bots()
  if next(self.bots) == nil then return 0 end
  local steps = 0
  while steps < 100000 do
    local seats, d = self:deciders()
    if d.kind ~= "player" and d.kind ~= "simultaneous" and d.kind ~= "orders" then break end
    local moved = false
    for _, s in ipairs(seats) do
      local b = self.bots[s]
      if b then
        local v = self.views[s]
        local ok, e = v.apply(b:choose(v))
        if not ok then error(e, 0) end
        steps = steps + 1
        moved = true
        break
      end
    end
    if not moved then break end
  end
  return steps
end

-- The last step continues a move that is not finished yet: every option
-- of the seat extends its text.
local function mid_move(v)
  local acts = v.record()
  local last = acts[#acts]
  if not last then return false end
  local seat, text = last:match("^(%w+): (.*)$")
  if tonumber(seat) ~= v.seat then return false end
  local opts = v.options()
  if not opts then return false end
  local extends = false
  for _, o in ipairs(opts) do
    if o ~= text then
      if #o <= #text or o:sub(1, #text) ~= text then return false end
      extends = true
    end
  end
  return extends
end

---------------------------------------------------------------------------
-- Turns: who is at the keyboard, the hand-over
---------------------------------------------------------------------------

local function people(sess)
  local n = 0
  for s = 1, sess.players do if not sess.bots[s] then n = n + 1 end end
  return n
end

-- The person who decides now (nil when only bots or chance decide).
local function person_to_move(sess)
  local seats, d = sess:deciders()
  if d.kind ~= "player" and d.kind ~= "simultaneous" and d.kind ~= "orders" then return nil end
  for _, s in ipairs(seats) do
    if s == sess.turn_seat and not sess.bots[s] then return s end
  end
  for _, s in ipairs(seats) do
    if not sess.bots[s] then return s end
  end
  return nil
end

-- Clears the screen and the terminal's scrollback (ESC[3J), so that
-- scrolling up shows nothing of the previous player's hand.
local CLEAR = "\27[H\27[2J\27[3J"

-- Hands the keyboard to `seat`; `why` says what for (nil: its turn).
-- False when input ended.
local function hand_over(sess, seat, why)
  if sess.tty then
    io.stdout:write(CLEAR)
    sess:say(sess:c("bold", string.format("Pass the keyboard to %s (seat %d) and press Enter%s.",
      sess:name(seat), seat, why and (": " .. why) or "")))
    io.stdout:flush()
    if term.readline("") == nil then return false end
    io.stdout:write(CLEAR)
  else
    sess:say(string.format("--- %s's turn (seat %d) ---", sess:name(seat), seat))
  end
  return true
end

-- The mover sees what their move did before the screen goes: the cards
-- it drew (the board they saw was from before the draw), then the word to
-- hide their hand, order or choice where they have one.
local function leave(sess, seat)
  local last = sess.last_seat
  if not last or sess.bots[last] then return true end
  local v = sess.views[last]
  local now = v.hand()
  if now then
    local before, new = {}, {}
    for _, c in ipairs(sess.hand_seen[last] or {}) do before[c] = (before[c] or 0) + 1 end
    for _, c in ipairs(now) do
      if (before[c] or 0) > 0 then before[c] = before[c] - 1 else new[#new + 1] = c end
    end
    if #new > 0 then
      sess:say(sess:c("bold", string.format("%s, you drew %s; your hand: %s.", sess:name(last),
        table.concat(new, ", "), table.concat(now, ", "))))
    end
  end
  if sess.tty then
    local kind = v.now().kind
    local what = now and "hide your hand and pass" or (kind == "orders" and "hide your order and pass")
      or (kind == "simultaneous" and "hide your choice and pass") or "pass"
    sess:say(sess:c("bold", string.format("%s: press Enter to %s the keyboard to %s.",
      sess:name(last), what, sess:name(seat))))
    io.stdout:flush()
    if term.readline("") == nil then return false end
  end
  return true
end

-- What happened since `seat` last had the keyboard: the log lines since.
local function greet(sess, seat)
  local n = #sess:any().log()
  local from = math.min(sess.seen[seat] or 0, n)
  if from < n then
    sess:say(sess:c("bold", "Since your last turn:"))
    sess:print_log_from(from)
  end
  sess.seen[seat] = n
end

-- Before each prompt: bots move, the game may end, the next person gets
-- the screen. Returns "over" to leave the loop.
function P:before_prompt()
  local n0 = #self:any().log()
  local ok, e = guarded(self.run_bots, self)
  self:print_log_from(n0)
  if not ok then self:err(e) end
  local any = self:any()
  if any.over() then
    self.turn_seat = nil
    if self.last_shown ~= "over" then
      local sok, board = pcall(any.board)
      if sok then self:say(board) end
      self:print_result()
      self.last_shown = "over"
    end
    return "over"
  end
  local seat = person_to_move(self)
  self.turn_seat = seat
  if seat == nil then return nil end
  local v = self.views[seat]
  local key = seat .. "/" .. v.mark()
  if self.last_shown == key then return nil end
  local handed = false
  if self.last_seat ~= seat and people(self) > 1 then
    -- what the last person saw during their turn counts as seen
    if self.last_seat then self.seen[self.last_seat] = #v.log() end
    if not (leave(self, seat) and hand_over(self, seat)) then self.quit = true; return "over" end
    handed = true
  end
  if handed then greet(self, seat) end
  self.last_seat = seat
  self.last_shown = key
  local d = v.now()
  -- the board at every step: while a seat enters its order, it shows the
  -- seat's draft so far (R.board); the rules line only once
  local same_order = d.kind == "orders" and self.order_shown == seat and not handed
  self.order_shown = d.kind == "orders" and seat or nil
  local sok, board = pcall(v.board)
  self:say(sok and board or tostring(board))
  self.hand_seen[seat] = v.hand()
  if not same_order and v.variants_text then
    self:say(self:c("dim", "Rules: " .. v.title .. " " .. v.variants_text))
  end
  if d.kind == "orders" then
    -- a secret order: the seat enters it whole, then hands over
    self:say(self:c("bold", string.format("%s, your secret order (%s): %s so far; next: %s.", self:name(seat),
      self:decision_words(d.name), #d.pending > 0 and table.concat(d.pending, ", ") or "nothing",
      self:decision_words(d.step))))
    if not same_order then
      self:say(self:c("dim", "The others see your order when everyone has entered theirs; undo takes back a step of it."))
    end
  else
    self:say(self:c("bold", string.format("%s, your move (%s):", self:name(seat), self:decision_words(d.name))))
  end
  self:print_options()
  return nil
end

---------------------------------------------------------------------------
-- Commands
---------------------------------------------------------------------------

local C = {}

local function own_seat_only(sess, what)
  sess:err(string.format("%s: in play you see and act only for your own seat (%s)", what,
    sess:name(sess.turn_seat)))
end

local function count_arg(sess, arg, what)
  if arg == "" then return 1 end
  local n = math.tointeger(tonumber(arg))
  if not n or n < 1 then sess:err(string.format("%s N: N must be a whole number above 0, not '%s'", what, arg)) end
  return n
end

-- The seat a text names: a number or a name; nil and a message if none.
function P:parse_seat(s)
  s = trim(s or "")
  local n = math.tointeger(tonumber(s))
  if n and n >= 1 and n <= self.players then return n end
  for i = 1, self.players do
    if self.names[i]:lower() == s:lower() then return i end
  end
  local list = {}
  for i = 1, self.players do list[i] = i .. " " .. self.names[i] end
  return nil, string.format("no seat '%s' (seats: %s)", s, table.concat(list, ", "))
end

local function moves_text(sess, list)
  local parts = {}
  for i, m in ipairs(list) do parts[i] = sess:name(m[1]) .. ": " .. m[2] end
  return table.concat(parts, "; ")
end

-- The texts that differ from `s` by the number of a word before a number:
-- "slot 2" <-> "slots 2" (each such word alone, then all of them).
local function number_forms(s)
  local out = {}
  local function toggle(w) return w:sub(-1) == "s" and w:sub(1, -2) or w .. "s" end
  local pos = 1
  while true do
    local a, b, w = s:find("%f[%a](%a+) %d", pos)
    if not a then break end
    out[#out + 1] = s:sub(1, a - 1) .. toggle(w) .. s:sub(a + #w)
    pos = b
  end
  local all = s:gsub("%f[%a](%a+)( %d)", function(w, d) return toggle(w) .. d end)
  if #out > 1 then out[#out + 1] = all end
  return out
end

function P:do_action(arg)
  local v = self:mine()
  if not v then return self:err("no seat of yours decides now") end
  if arg == "" then return self:err("do what? do N (an option number) or do TEXT") end
  if v.over() then return self:err("the game is over") end
  local named = arg:match("^%s*(%d+)%s*:")
  if named and tonumber(named) ~= v.seat then return own_seat_only(self, "do") end
  local action = math.tointeger(tonumber(arg:match("^%d+$") or "")) or arg
  local n0 = #v.log()
  local ok, res, e = guarded(v.apply, action)
  if not ok then return self:err(res) end
  if not res and type(action) == "string" then
    -- the log's words and the moves' may differ in number ("slot 2" in a
    -- log line, "slots 2" in the move): try the other form
    for _, alt in ipairs(number_forms(action)) do
      local wok, why = pcall(v.why, alt)
      if wok and why == nil then
        ok, res, e = guarded(v.apply, alt)
        if not ok then return self:err(res) end
        break
      end
    end
  end
  if not res then return self:err(e) end
  self:print_log_from(n0)
end

C["do"] = function(sess, arg) sess:do_action(arg) end

C.help = function(sess) sess:say(HELP) end

C.board = function(sess)
  local v = sess:mine() or sess:any()
  local ok, s = pcall(v.board)
  if not ok then return sess:err(s) end
  sess:say(s)
  if v.variants_text then sess:say(sess:c("dim", "Rules: " .. v.title .. " " .. v.variants_text)) end
  sess:say(sess:c("dim", sess:status()))
end

C.options = function(sess) sess:print_options() end

C.why = function(sess, arg)
  local v = sess:mine()
  if not v then return sess:err("no seat of yours decides now") end
  if arg == "" then return sess:err("why what? why TEXT") end
  local named = arg:match("^%s*(%d+)%s*:")
  if named and tonumber(named) ~= v.seat then return own_seat_only(sess, "why") end
  local ok, msg = guarded(v.why, arg)
  if not ok then return sess:err(msg) end
  sess:say(msg or string.format("'%s' is legal now.", arg))
end

-- Asks `s` whether the mover may take back s's move too. At a terminal
-- the mover's screen goes first (it shows the mover's hand), and comes
-- back after.
function P:consent(s, mover)
  if self:is_bot(s) then return true end
  if self.tty then
    if not hand_over(self, s, string.format("%s asks to take back a move of yours", self:name(mover))) then
      return false
    end
  end
  self:say(string.format("Undo takes back %s's move too.", self:name(s)))
  io.stdout:flush()
  local line = term.readline(self.tty and (ktext.escape(self:name(s)) .. ", do you agree? (yes/no) ") or "")
  local yes = line ~= nil and trim(line):lower():match("^y") ~= nil
  if self.tty then hand_over(self, mover, "back to you") end
  return yes
end

C.undo = function(sess, arg)
  local v = sess:mine()
  if not v then return sess:err("no seat of yours decides now") end
  local n = count_arg(sess, arg, "undo"); if not n then return end
  local d = v.now()
  if d.kind == "orders" then
    if #d.pending == 0 then
      -- taking back a move before the orders would take back the others'
      -- secret entries too (and show them): not at the keyboard
      return sess:say(string.format("Nothing of your order to take back, %s. The moves before the secret "
        .. "orders can be taken back once the orders are revealed.", sess:name(v.seat)))
    end
    local ok, taken = guarded(v.undo, n)
    if not ok then return sess:err(taken) end
    local texts = {}
    for i, m in ipairs(taken) do texts[i] = m[2] end
    sess:say(string.format("Took back %d step%s of %s's order: %s", #taken, #taken == 1 and "" or "s",
      sess:name(v.seat), table.concat(texts, "; ")))
    return sess:say(sess:status())
  end
  local refused
  local ok, undone, why = guarded(v.undo, n, function(s)
    if sess:consent(s, v.seat) then return true end
    refused = s
    return false
  end)
  if not ok then return sess:err(undone) end
  if refused then
    return sess:say(string.format("Not undone: %s did not agree. Only your own moves can be taken back "
      .. "without the others' consent.", sess:name(refused)))
  end
  if not undone then return sess:err(why) end
  if #undone == 0 then return sess:say("Nothing to undo.") end
  sess.last_shown = nil
  sess:say(string.format("Undid %d move%s: %s", #undone, #undone == 1 and "" or "s", moves_text(sess, undone)))
  sess:say(sess:status())
end

C.redo = function(sess, arg)
  local v = sess:mine()
  if not v then return sess:err("no seat of yours decides now") end
  local n = count_arg(sess, arg, "redo"); if not n then return end
  local n0 = #v.log()
  local ok, k = guarded(v.redo, n)
  if not ok then return sess:err(k) end
  if k == 0 then return sess:say("Nothing to redo.") end
  sess:print_log_from(n0)
  sess:say(string.format("Redid %d move%s.", k, k == 1 and "" or "s"))
  if not v.over() then sess:say(sess:status()) end
end

C.auto = function(sess, arg)
  local me = sess:mine()
  if not me then return sess:err("no seat of yours decides now") end
  local n = math.huge
  if arg ~= "" then n = count_arg(sess, arg, "auto"); if not n then return end end
  sess.auto_bots[me.seat] = sess.auto_bots[me.seat] or assert(sess.new_bot("random", me.seat, 1))
  local auto_bot = sess.auto_bots[me.seat]
  local m0 = #me.moves()
  local played = 0
  local ok, e = guarded(function()
    while played < n and not me.over() do
      sess:run_bots()
      if me.over() or not me.options() then break end
      local before = #me.moves()
      repeat
        local r, err = me.apply(auto_bot:choose(me))
        if not r then error(err, 0) end
      until not mid_move(me)
      if #me.moves() > before then played = played + 1 end
      sess:run_bots()
    end
  end)
  if not ok then sess:err(e) end
  local total = #me.moves() - m0
  sess:say(string.format("Played %d of your moves (%s in all).", played, ktext.count(total, "move")))
  if not me.over() then sess:say(sess:status()) end
end

C.moves = function(sess)
  local v = sess:mine() or sess:any()
  local list = v.moves()
  if #list == 0 then return sess:say("No moves yet.") end
  local w = #tostring(#list)
  for i, m in ipairs(list) do
    local s, text = m:match("^(%w+): (.*)$")
    sess:say(string.format("%" .. w .. "d  %s: %s", i, sess:name(tonumber(s) or s), text))
  end
end

C.log = function(sess, arg)
  local lines = sess:any().log()
  local first = 1
  if arg ~= "" then
    local n = count_arg(sess, arg, "log"); if not n then return end
    first = math.max(1, #lines - n + 1)
  end
  if #lines == 0 then return sess:say("The log is empty.") end
  for i = first, #lines do sess:say(ktext.escape(lines[i])) end
end

C.result = function(sess)
  if not sess:any().over() then return sess:say("The game is not over. " .. sess:status()) end
  sess:print_result()
end

local function unquote(s)
  return s:match('^"(.*)"$') or s:match("^'(.*)'$") or s
end

-- save FILE: the game as the seat at the keyboard sees it (the others'
-- secret steps not yet revealed left out).
C.save = function(sess, arg)
  local v = sess:mine() or sess:any()
  if arg == "" then return sess:err("save FILE: which file?") end
  local fpart, spart = arg:match("^(.-)%s+as%s+(%S+)$")
  if fpart and fpart ~= "" then
    local s = sess:parse_seat(spart)
    if s and s ~= v.seat then return own_seat_only(sess, "save") end
    if s then arg = fpart end
  end
  local file = unquote(arg)
  local ok, e = v.save(file)
  if not ok then return sess:err(e) end
  local n = #v.moves()
  sess:say(string.format("Saved %d move%s to %s (what %s sees).", n, n == 1 and "" or "s", file, sess:name(v.seat)))
end

C.view = function(sess, arg)
  local v = sess:mine() or sess:any()
  if arg == "" then return sess:err("view SEAT: which seat?") end
  local s, e = sess:parse_seat(arg)
  if not s then return sess:err(e) end
  if s ~= v.seat then return own_seat_only(sess, "view") end
  local ok, b = pcall(v.board)
  if not ok then return sess:err(b) end
  sess:say(b)
end

C.as = function(sess)
  sess:err("as: in play the board shows your own seat")
end

C.hint = function(sess, arg)
  local v = sess:mine()
  if not v then return sess:err("no seat of yours decides now") end
  local ok, lines, e = guarded(v.hint, arg)
  if not ok or not lines then return sess:err(ok and e or lines) end
  sess:say(table.concat(lines, "\n"))
end

C.bots = function(sess)
  for s = 1, sess.players do
    local b = sess.bots[s]
    sess:say(string.format("%d  %s: %s", s, sess:name(s), b and (b:spec() .. " bot") or "person"))
  end
end

C.quit = function(sess) sess.quit = true end
C.exit = C.quit

for _, name in ipairs { "new", "load", "replay", "next", "prev", "reload", "bot" } do
  C[name] = function(sess)
    sess:err(string.format("%s: not in play (a saved game goes on with kontor play --load FILE)", name))
  end
end

local COMMAND_NAMES = {}
for k in pairs(C) do COMMAND_NAMES[#COMMAND_NAMES + 1] = k end
table.sort(COMMAND_NAMES)

---------------------------------------------------------------------------
-- Dispatch
---------------------------------------------------------------------------

-- Whether `word` starts an option of the seat at the keyboard.
function P:action_word(word)
  local v = self:mine()
  for _, o in ipairs(v and v.options() or {}) do
    if o == word or (o:sub(1, #word) == word and o:sub(#word + 1, #word + 1) == " ") then return true end
  end
  return false
end

local function distance(a, b)
  if math.abs(#a - #b) > 2 then return 99 end
  local prev = {}
  for j = 0, #b do prev[j] = j end
  for i = 1, #a do
    local cur = { [0] = i }
    for j = 1, #b do
      local cost = a:sub(i, i) == b:sub(j, j) and 0 or 1
      cur[j] = math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
    end
    prev = cur
  end
  return prev[#b]
end

-- "did you mean `board`?": the closest command or option word.
function P:suggest(word)
  if #word < 3 then return nil end
  local best, bestd = nil, 3
  local function try(c)
    local d = distance(word:lower(), c:lower())
    if d > math.max(1, #word // 3) then return end
    if c:lower():sub(1, #word) == word:lower() then d = d - 0.5 end
    if d < bestd then best, bestd = c, d end
  end
  local v = self:mine()
  for _, o in ipairs(v and v.options() or {}) do try(o:match("^%S+")) end
  for _, c in ipairs(COMMAND_NAMES) do try(c) end
  return best
end

function P:dispatch(line)
  local text = trim(line)
  if text == "" then return end
  if text:match("^%d+$") then return self:do_action(text) end
  local word, rest = text:match("^([%a_][%w_]*)(.*)$")
  if word then
    local spaced = rest == "" or rest:match("^%s") ~= nil
    local isaction = spaced and self:action_word(word)
    local cmd = C[word]
    if cmd and spaced then
      if isaction and word ~= "do" then
        local ok, why = pcall(self:mine().why, text)
        if ok and why == nil then return self:do_action(text) end
      end
      return cmd(self, trim(rest))
    end
    if isaction then return self:do_action(text) end
  end
  local v = self:mine()
  for _, o in ipairs(v and v.options() or {}) do
    if o == text then return self:do_action(text) end
  end
  if text:match("^%d+:%s*%a") then return self:do_action(text) end
  -- a move of the game that is not legal now: the rule set's reason
  local why = v and v.refusal(text)
  if why then return self:err(why) end
  local s = word and self:suggest(word)
  self:err(string.format("'%s' is not a command or a move here%s", text,
    s and (": did you mean `" .. s .. "`?") or " (help lists the commands)"))
end

-- TAB: the commands, and the options of the seat at the keyboard.
function P:complete(text, line)
  local out, set = {}, {}
  local function add(s) if not set[s] then set[s] = true; out[#out + 1] = s end end
  local p = line:match("^%s*do%s+(.*)$") or line:match("^%s*why%s+(.*)$")
  local v = self:mine()
  if not p and v and not line:match("^%s*$") then
    local word = line:match("^%s*([%a_][%w_]*)")
    if word and self:action_word(word) then p = line:gsub("^%s+", "") end
  end
  if p and v then
    for _, o in ipairs(v.options() or {}) do
      if o:sub(1, #p) == p then add(text .. o:sub(#p + 1):match("^[^ ]*")) end
    end
    if #out > 0 then return out end
  end
  if line:match("^%s*([%a_][%w_]*)$") then
    for _, c in ipairs(COMMAND_NAMES) do if c:sub(1, #text) == text then add(c) end end
  end
  return out
end

---------------------------------------------------------------------------
-- The loop
---------------------------------------------------------------------------

-- Plays the game of `tbl` (kontor.seat.table) at this terminal. opts.bots:
-- { [seat] = kind }.
function M.run(kontor, tbl, opts)
  opts = opts or {}
  local tty = term.isatty(0) and term.isatty(1)
  local nc = os.getenv("NO_COLOR")
  local v1 = tbl.views[1]
  local sess = setmetatable({ views = tbl.views, players = tbl.players, names = v1.names,
    words = v1.decision_words, bots = {}, tty = tty, color = tty and (nc == nil or nc == ""),
    seen = {}, hand_seen = {}, auto_bots = {}, new_bot = tbl.new_bot }, P)
  for s, kind in pairs(opts.bots or {}) do sess.bots[s] = assert(tbl.new_bot(kind, s)) end
  if tty then
    -- no history file: a person pressing Up would see the last person's
    -- lines (their secret order among them)
    term.set_completer(function(text, before) return sess:complete(text, before) end)
    local who = {}
    for s = 1, sess.players do who[s] = sess:name(s) end
    sess:say(sess:c("bold", string.format("Kontor %s - %s%s, %d players (%s). Type help for the commands, "
      .. "Ctrl-D to leave.", kontor.version, v1.title, v1.variants_text and (" " .. v1.variants_text) or "",
      sess.players, table.concat(who, ", "))))
  end
  while not sess.quit do
    if sess:before_prompt() == "over" then break end
    local prompt = ""
    if tty then prompt = sess.turn_seat and (ktext.escape(sess:name(sess.turn_seat)) .. "> ") or "> " end
    local line, interrupted = term.readline(prompt)
    if line == nil then break end
    if interrupted then
      io.stdout:write("\n")
    else
      sess:dispatch(line)
    end
    io.stdout:flush()
  end
  if tty then
    io.stdout:write("\n")
    -- nothing a person played is lost: the whole game, to go on with in play
    local path = (os.getenv("HOME") or ".") .. "/.kontor_autosave.json"
    local ok, n = tbl.autosave(path)
    if ok then
      sess:say(string.format("The game is not over: saved %s to %s (go on with: kontor play --load %s).",
        ktext.count(n, "move"), path, path))
    elseif n then
      sess:err("could not save the game in progress: " .. tostring(n))
    end
  end
  io.stdout:flush()
  return 0
end

M.HELP = HELP
return M
