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
local kerrors = require "kontor.errors"
local ui = require "ui"
local term = core.term

local M = {}

local HELP = [[
Game commands (in play: only your own seat's view):
  board              your board, with the key of its short words (at the
                     prompt the key shows once a turn)
  options            your legal options, numbered
  do N | do TEXT     do option N, or an action by its text (a whole move is
                     fine, as Sea Merchants' do play fish on slots 1,4); a
                     bare number or option text works too
  why TEXT           why an action is illegal now
  undo [N]           take back N of your moves (the others' after them only
                     with their yes; secret choices once revealed go back
                     together, everyone's, with the others' yes)
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

function P:c(name, s) return ui.color(self.color, name, s) end

function P:say(...) ui.say(...) end

function P:err(msg)
  io.stdout:write(ktext.piece(self:c("red", ktext.error_place(tostring(msg)))), "\n")
end

local trim, guarded = ui.trim, ui.guarded

---------------------------------------------------------------------------
-- The table: public facts come from any view, the rest from the seat's
---------------------------------------------------------------------------

function P:name(s)
  if s == 0 or s == "chance" then return "chance" end
  return self.names[s] or ("seat " .. tostring(s))
end

-- The view public facts are read from (who decides, the log, the result).
function P:any() return self.views[self.turn_seat or self.last_seat or 1] end

-- The view of the seat at the keyboard. While a screen waits for Enter
-- (self.typing): at the mover's last screen the mover's, though the next
-- seat is the one to move; at a hand-over or a question to another
-- person (typing 0), nobody's: TAB there offered the next seat's
-- options to whoever still sat at the keyboard.
function P:mine()
  local s = self.typing or self.turn_seat
  return s and s ~= 0 and self.views[s] or nil
end

function P:decision_words(name) return ui.decision_words(name, self.words[name]) end

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
  local order
  if d.kind == "orders" then
    local v = self:mine()
    local mine = v and v.now()
    if mine and mine.step then order = { seat = v.seat, pending = mine.pending, step = mine.step } end
  end
  return ui.status(self, seats, d, order)
end

function P:print_log_from(n0) return ui.print_log_from(self, self:any().log(), n0) end

function P:print_options()
  local v = self:mine()
  if not v then return self:err("no seat of yours decides now") end
  if v.over() then return self:say("The game is over: no options.") end
  local opts = v.options() or {}
  -- an option repeating the move so far ends the move there: say so
  ui.print_options(self, opts, ui.stop_text(v.record(), v.seat, opts), v.note)
end

function P:print_result()
  local v = self:any()
  local r, e = v.result()
  if not r then return self:err(e) end
  -- `new` is the REPL's: in play the same deal comes from --seed; a game
  -- that began from a scenario (a save's: play has no other) from the file
  local again = "--seed %d plays this deal again"
  if v.from_scenario() then
    again = "the game began from a scenario, which --seed %d alone does not give: kontor, then replay "
      .. (self.loaded and ui.shell_word(self.loaded):gsub("%%", "%%%%") or "FILE (a save of it)")
      .. ", plays it again from its start"
  end
  ui.print_result(self, r, self.players, v.why_won(), v.seed(), again)
end

-- The bots decide while it is their turn, each through its own seat's view.
-- With the output a terminal, a line says which bot thinks ("Bob (bot)
-- is thinking..."), taken back once it has chosen: an mcts bot thinks up
-- to about a second, and the screen would seem frozen. Piped, nothing.
function P:run_bots()
  if next(self.bots) == nil then return 0 end
  return ui.run_bots(self.bots, function() return self:deciders() end, function(s, b)
    local v = self.views[s]
    return v.apply(ui.thinking(self.out_tty, self:c("dim", self:name(s) .. " (bot) is thinking..."), b.choose, b, v))
  end)
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
  return ui.extends(opts, text)
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

-- Waits for Enter; false when input ended (Ctrl-D). Ctrl-C is not an
-- Enter: at the hand-over it would show the next person's hand to
-- whoever pressed it. A line typed there is not dropped without a word:
-- with `take`, it is returned ("undo" while the mover still has the
-- keyboard), else it is said that it was not run, and Enter is waited for.
-- `ahead`: input was waiting before the screen showed (term.pending(),
-- asked before it is drawn). Its first line, when empty, is no Enter
-- pressed there (the "\n" of a terminal that sends "\r\n" for Enter, a
-- second Enter typed fast): it passes nothing, so no screen goes by unseen.
local function wait_enter(sess, take, ahead)
  while true do
    local line, interrupted = term.readline("")
    if line == nil or ui.typed_eof(line) then return false end
    local text = trim(line)
    local early = ahead
    ahead = false
    if interrupted then
      sess:say("(Ctrl-C: press Enter to go on, or Ctrl-D to save the game and leave.)")
    elseif text == "" then
      if not early then return true end
    elseif take then
      return true, text
    else
      sess:err(string.format("'%s' was not run: here only Enter goes on (or Ctrl-D, to save the game and leave)",
        ui.clip(text, 40)))
    end
    io.stdout:flush()
  end
end

-- Hands the keyboard to `seat`; `why` says what for (nil: its turn).
-- False when input ended.
local function hand_over(sess, seat, why)
  if sess.keyboard then
    -- what was typed before this screen shows is the last mover's: Enter
    -- pressed again and again with a move must not show the next hand to them
    local dropped = term.discard()
    if not sess.keep_screen then io.stdout:write(CLEAR); sess.key_seen = {} end
    sess.keep_screen = nil
    sess:say(sess:c("bold", string.format("Pass the keyboard to %s (seat %d) and press Enter%s.",
      sess:name(seat), seat, why and (": " .. why) or "")))
    if dropped then sess:say("(What was typed before this screen showed was not used.)") end
    io.stdout:flush()
    sess.typing = 0
    local entered = wait_enter(sess)
    sess.typing = nil
    if not entered then return false end
    io.stdout:write(CLEAR)
    sess.key_seen = {}   -- (the key went with the screen)
  else
    sess:say(string.format("--- %s's turn (seat %d) ---", sess:name(seat), seat))
  end
  return true
end

-- The mover sees what their move did before the screen goes: the cards
-- it drew (the board they saw was from before the draw), then the word to
-- hide their hand, order or choice where they have one. True when they
-- pressed Enter, false when input ended; true and the line when they typed
-- a command instead (undo: the keyboard is still theirs).
local function leave(sess, seat)
  local last = sess.last_seat
  if not last or sess.bots[last] then return true end
  local ahead = term.pending()
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
  if sess.keyboard then
    local kind = v.now().kind
    local what = now and "hide your hand and pass" or (kind == "orders" and "hide your order and pass")
      or (kind == "simultaneous" and "hide your choice and pass") or "pass"
    -- (a move that revealed a round of secret choices goes back only with
    -- the round, and the others in it must agree: the plan says so)
    local pok, plan = pcall(v.undo_plan, 1)
    local bot_says_no = false
    if pok and plan then
      local agrees = require("kontor.bots").agrees
      for _, s in ipairs(plan.others) do
        bot_says_no = bot_says_no or sess:is_bot(s) and not agrees(plan, sess.free_undo, s)
      end
    end
    local shown = pok and plan and (require("kontor.seat").shown_words(plan))
    local undo = pok and plan and (bot_says_no and (plan.unseen and ("undo cannot take your move back: it showed "
        .. shown .. ", and the bots do not agree to that") or "undo cannot take your move back: the bots' secret "
        .. "choices were revealed with it, and they do not agree to that")
      or plan.unseen and "undo takes your move back, if the others agree: it showed " .. shown
      or #plan.others > 0 and "undo takes back the whole revealed round, if the others in it agree")
      or "undo takes your move back"
    sess:say(sess:c("bold", string.format("%s: press Enter to %s the keyboard to %s. Until then it is yours: %s.",
      sess:name(last), what, sess:name(seat), undo)))
    io.stdout:flush()
    sess.typing = last
    local ok, line = wait_enter(sess, true, ahead)
    sess.typing = nil
    if not ok then return false end
    if line then return true, line end
  end
  return true
end

local RECAP = 12        -- log lines a seat is shown of a loaded game at its first turn

-- What happened since `seat` last had the keyboard: the log lines since,
-- then the decisions the rules skipped since (a take that passed: "No
-- choice for Bob (take other): no coin to pay the active player."). At a
-- seat's first turn there was no last one: "Since the game began:"; of a
-- game loaded to go on with, the last RECAP lines.
local function greet(sess, seat)
  local v = sess:any()
  local n, skips = #v.log(), v.skipped()
  local from = math.min(sess.seen[seat] or 0, n)
  local sfrom = math.min(sess.skips_seen[seat] or 0, #skips)
  local head = sess.seen[seat] and "Since your last turn:" or "Since the game began:"
  if not sess.seen[seat] and sess.loaded and n - from > RECAP then
    -- a game loaded to go on with: its last lines, not a whole game's log
    from = n - RECAP
    while sfrom < #skips and (skips[sfrom + 1].log_lines or 0) < from do sfrom = sfrom + 1 end
    head = string.format("The game so far, its last %d of %d log lines (log shows them all):", RECAP, n)
  end
  if from < n or sfrom < #skips then
    sess:say(sess:c("bold", head))
    -- each skip after the log lines written before it
    local lines, at = v.log(), from
    for i = sfrom + 1, #skips do
      local sk = skips[i]
      local upto = math.max(at, math.min(sk.log_lines or at, n))
      for k = at + 1, upto do sess:say(ktext.escape(lines[k])) end
      at = upto
      sess:say(sess:c("dim", ktext.escape(string.format("No choice for %s (%s)%s.", sess:name(sk.seat),
        sess:decision_words(sk.decision), sk.why and (": " .. sk.why) or ""))))
    end
    sess:print_log_from(at)
  end
  sess.seen[seat], sess.skips_seen[seat] = n, #skips
end

-- Before each prompt: bots move, the game may end, the next person gets
-- the screen. Returns "over" to leave the loop. A command the mover types
-- at their last screen (leave) runs as theirs, and all this again: after
-- an undo the keyboard stays with them.
function P:before_prompt()
  while true do
    local r, line = self:before_prompt_once()
    if r ~= "command" then return r end
    local mover = self.last_seat
    self.turn_seat = mover
    self:dispatch(line)
    io.stdout:flush()
    if self.quit then return "over" end
  end
end

-- The bots named in `names`, as the subject of a line about them: "Bob
-- (bot)", "Bob and Cy (bots)", "Bob, Cy and Di (bots)"; and whether
-- they are several, for the verb and pronoun that follow.
local function bots_subject(names)
  if #names == 1 then return names[1] .. " (bot)", false end
  return table.concat(names, ", ", 1, #names - 1) .. " and " .. names[#names] .. " (bots)", true
end

function P:before_prompt_once()
  local n0 = #self:any().log()
  local ok, e = guarded(self.run_bots, self)
  self:print_log_from(n0)
  local bots_now, stopped = {}, nil
  if not ok then
    for _, s in ipairs((self:deciders())) do if self.bots[s] then bots_now[#bots_now + 1] = self:name(s) end end
  end
  if not ok and kerrors.kind(e) == "interrupt" and #bots_now > 0 and person_to_move(self) then
    -- Ctrl-C while a bot entered its order (or chose in secret) beside a
    -- person who decides too: that person's own board and prompt come
    -- next, where Enter would not be what lets the bot go on; one line
    -- says what became of the bot, to the person at the keyboard then
    -- (after a hand-over, if one comes)
    local d = select(2, self:deciders())
    local who, many = bots_subject(bots_now)
    local what = d.kind == "orders" and (many and "have not finished their orders" or "has not finished its order")
      or (many and "have not chosen yet" or "has not chosen yet")
    stopped = self:c("dim", string.format("%s %s (Ctrl-C): %s after your next line.",
      who, what, many and "they go on" or "it goes on"))
  elseif not ok then
    self:err(e)
    if #bots_now > 0 and kerrors.kind(e) ~= "interrupt" then
      -- a bot's step failed in the rule set: it will fail again; say so
      local who, many = bots_subject(bots_now)
      self:say(string.format("%s could not move: the rule set failed on %s (above); %s "
        .. "again after each line you type, and quit leaves.", who,
        many and "their moves" or "its move", many and "they try" or "it tries"))
    elseif #bots_now > 0 then
      -- Ctrl-C while a bot thought and only bots decide: it has not moved; say what now
      local who, many = bots_subject(bots_now)
      self:say(string.format("%s %s not moved yet: press Enter to let %s go on, or Ctrl-D to save the "
        .. "game and leave.", who, many and "have" or "has", many and "them" or "it"))
    end
  end
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
  if self.last_shown == key then
    if stopped then self:say(stopped) end
    return nil
  end
  local handed = false
  if self.last_seat ~= seat and people(self) > 1 then
    -- what the last person saw during their turn counts as seen
    if self.last_seat then self.seen[self.last_seat], self.skips_seen[self.last_seat] = #v.log(), #v.skipped() end
    local left, line = leave(self, seat)
    if line then return "command", line end
    if not (left and hand_over(self, seat)) then self.quit = true; return "over" end
    handed = true
  end
  if handed then greet(self, seat) end
  if stopped then self:say(stopped) end
  self.last_seat = seat
  self.last_shown = key
  local d = v.now()
  -- the board at every step: while a seat enters its order, it shows the
  -- seat's draft so far (R.board); the rules line only once
  local same_order = d.kind == "orders" and self.order_shown == seat and not handed
  self.order_shown = d.kind == "orders" and seat or nil
  -- the board's key (Old World's 7 lines of short words) with the seat's
  -- first board of a game turn and on a cleared screen, not again at each
  -- step of an order: `board` shows it when asked
  local vok, view = pcall(v.view)
  local turn = vok and type(view) == "table" and view.turn or 0
  local how = self.key_seen[seat] == turn and { key = false } or nil
  self.key_seen[seat] = turn
  local sok, board = pcall(v.board, how)
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

local count_arg = ui.count_arg

-- The seat a text names: a number or a name; nil and a message if none.
function P:parse_seat(s) return ui.parse_seat(s, self.names, self.players) end

function P:do_action(arg)
  local v = self:mine()
  if not v then return self:err("no seat of yours decides now") end
  if arg == "" then return self:err("do what? do N (an option number) or do TEXT") end
  if v.over() then return self:err("the game is over") end
  local named = arg:match("^%s*(%d+)%s*:")
  if named and tonumber(named) ~= v.seat then return own_seat_only(self, "do") end
  local action = math.tointeger(tonumber(arg:match("^%d+$") or "")) or arg
  if math.type(action) == "integer" and not v.options() then
    -- (typed at the mover's last screen, their part done: in their name,
    -- as a text typed there is, not "seat 1 has no decision now")
    return self:err(string.format("'%d': %s has no decision now. %s", action, self:name(v.seat), self:status()))
  end
  local n0 = #v.log()
  local ok, res, e = ui.apply_text(v.apply, v.why, action)
  if not ok then return self:err(res) end
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
-- the mover's screen goes first (it shows the mover's hand); the keyboard
-- goes from one person asked to the next, and back to the mover once all
-- have answered (P:back_to_mover).
function P:consent(s, mover, moves, plan)
  -- a bot answers as a fair opponent (kontor.bots.agrees): no to moves
  -- that showed a hidden card, unless the table was started --free-undo
  if self:is_bot(s) then return require("kontor.bots").agrees(plan, self.free_undo, s) end
  -- which of s's own moves go (a revealed bid or order goes with
  -- everyone's); only s's: the mover's own may hold a choice still secret.
  -- None: s is asked because the moves showed a hidden card (the next
  -- card of the deck), which the mover would know where it lies again.
  -- (in the log's words, as undo's message: "play grain on slot 4"; the
  -- moves to take back are the last, their lines the log's last)
  local theirs, lines = {}, self:any().log()
  for _, m in ipairs(moves or {}) do if m[1] == s then theirs[#theirs + 1] = ui.log_number(m[2], lines) end end
  if self.keyboard then
    local shown = require("kontor.seat").shown_words(plan)
    local asks = #theirs > 0 and "%s asks to take back a move of yours" or ("%s asks to take back a move that showed " .. shown)
    if not hand_over(self, s, string.format(asks, self:name(mover))) then
      return false
    end
  end
  if #theirs > 0 then
    self:say("Of your moves it takes back: " .. ui.clip(table.concat(theirs, "; "), 300) .. ".")
    self:say(string.format("Undo takes back %s's move too.", self:name(s)))
  else
    local what = #(moves or {}) == 1 and (self:name(mover) .. "'s move") or "The moves it takes back"
    local shown, know = require("kontor.seat").shown_words(plan)
    self:say(string.format("%s showed %s: taken back, %s would know %s.", what, shown, self:name(mover), know))
  end
  io.stdout:flush()
  -- yes or no, asked again for anything else ("yse", "maybe"); the end of
  -- input and Ctrl-C are a no
  local yes
  local question = ktext.escape(self:name(s)) .. ", do you agree? (yes/no) "
  -- no prompt without a terminal: the question is a line of its own
  if not self.tty then self:say(self:name(s), ", do you agree? (yes/no)"); question = "" end
  repeat
    self.typing = 0
    local line, interrupted = term.readline(question)
    self.typing = nil
    local a = line and not interrupted and trim(line):lower()
    if not a or a == "n" or a == "no" then yes = false
    elseif a == "y" or a == "yes" then yes = true
    elseif a == "" then self:err("answer yes or no")
    else self:err(string.format("'%s': answer yes or no", ui.clip(trim(line), 40))) end
  until yes ~= nil
  self.asked = true
  return yes
end

-- After the others were asked (P:consent): the keyboard back to the mover,
-- once, whatever they answered. False when input ended.
function P:back_to_mover(mover)
  if not self.asked then return true end
  self.asked = nil
  if not self.keyboard then return true end
  self.last_shown = nil   -- the screen was cleared: the mover's board again
  return hand_over(self, mover, "back to you")
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
    return ui.say_order_taken(sess, v.seat, #taken, texts, ui.fewer(n, #taken, "take back"))
  end
  local refused
  local pok, plan = guarded(v.undo_plan, n)
  local moves = pok and plan and plan.moves or nil
  local log_before = v.log()
  local ok, undone, why = guarded(v.undo, n, function(s)
    if sess:consent(s, v.seat, moves, pok and plan or nil) then return true end
    refused = s
    return false
  end)
  if not sess:back_to_mover(v.seat) then sess.quit = true; return end
  if not ok then return sess:err(undone) end
  if refused then
    -- (true of a later move of theirs and of a revealed round alike: in a
    -- round of secret choices one's own move goes only with the others')
    local theirs = false
    for _, m in ipairs(moves or {}) do if m[1] == refused then theirs = true end end
    local shown, know = require("kontor.seat").shown_words(plan)
    if pok and type(plan) == "table" and not plan.unseen and sess:is_bot(refused) then
      -- (their secret choice, revealed, goes too: the bot says no to that)
      return sess:say(string.format("Not undone: %s is a bot, and a bot does not take back a round of secret "
        .. "choices it was in: you have seen its choice (kontor play --free-undo: bots agree to every undo, for "
        .. "practice).", sess:name(refused)))
    end
    if not theirs and pok and type(plan) == "table" and plan.unseen and sess:is_bot(refused) then
      return sess:say(string.format("Not undone: %s is a bot, and a bot does not take back a move that showed "
        .. "%s: taken back, you would know %s (kontor play --free-undo: bots agree to every "
        .. "undo, for practice).", sess:name(refused), shown, know))
    end
    if not theirs and pok and type(plan) == "table" and plan.unseen then
      return sess:say(string.format("Not undone: %s did not agree. %s showed %s: taken back, "
        .. "you would know %s.", sess:name(refused), #moves == 1 and "Your move" or "The moves", shown, know))
    end
    return sess:say(string.format("Not undone: %s did not agree. A move goes back without the others' "
      .. "consent only when none of theirs goes with it.", sess:name(refused)))
  end
  if not undone then return sess:err(why) end
  if #undone == 0 then return sess:say("Nothing to undo.") end
  -- the log is shorter now: what each seat has seen ends there, so the
  -- lines written after (a move done again) greet them as new
  local nlog = #v.log()
  for s, k in pairs(sess.seen) do sess.seen[s] = math.min(k, nlog) end
  local nskips = #v.skipped()
  for s, k in pairs(sess.skips_seen) do sess.skips_seen[s] = math.min(k, nskips) end
  sess.last_shown = nil
  local mine = 0
  for _, m in ipairs(undone) do if m[1] == v.seat then mine = mine + 1 end end
  ui.say_undone(sess, undone, ui.fewer(n, mine, "undo", " of your moves"), ui.lines_after(log_before, nlog))
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
  sess:say(string.format("Redid %d move%s%s.", k, k == 1 and "" or "s", ui.fewer(n, k, "redo", " of your moves")))
  if not v.over() then sess:say(sess:status()) end
end

C.auto = function(sess, arg)
  local me = sess:mine()
  if not me then return sess:err("no seat of yours decides now") end
  local n = math.huge
  if arg ~= "" then n = count_arg(sess, arg, "auto"); if not n then return end end
  sess.auto_bots[me.seat] = sess.auto_bots[me.seat] or assert(sess.new_bot("random", me.seat, 1))
  local auto_bot = sess.auto_bots[me.seat]
  local m0, n0 = #me.moves(), #me.log()
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
  -- what was played for you and by the bots (the log is public)
  sess:print_log_from(n0)
  if not ok then sess:err(e) end
  local total = #me.moves() - m0
  local stopped = ""
  if played < n and not me.over() and not me.options() then
    -- auto plays only your moves: another person decides now
    local others = {}
    for _, s in ipairs((sess:deciders())) do
      if s ~= me.seat and not sess.bots[s] then others[#others + 1] = sess:name(s) end
    end
    if #others > 0 then
      stopped = string.format("; it stops where %s decides", table.concat(others, " and "))
    end
  end
  sess:say(string.format("Played %d of your moves (%s in all)%s.", played, ktext.count(total, "move"), stopped))
  if not me.over() then sess:say(sess:status()) end
end

C.moves = function(sess)
  local v = sess:mine() or sess:any()
  ui.print_moves(sess, v.moves())
end

C.log = function(sess, arg) ui.print_log(sess, sess:any().log(), arg) end

C.result = function(sess)
  if not sess:any().over() then return sess:say("The game is not over. " .. sess:status()) end
  sess:print_result()
end

-- save FILE: the game as the seat at the keyboard sees it (the others'
-- secret steps not yet revealed left out; while the game is on, no deal:
-- a record of the moves, which does not load, kontor.save).
C.save = function(sess, arg)
  local v = sess:mine() or sess:any()
  if arg == "" then return sess:err("save FILE: which file?") end
  local file, s, se = ui.save_target(arg, sess.names, sess.players)
  if not file then return sess:err(se) end
  if s and s ~= v.seat then return own_seat_only(sess, "save") end
  local ok, e = v.save(file)
  if not ok then return sess:err(e) end
  local n = #v.moves(true)   -- (what the file holds: the others' unrevealed bids left out)
  sess:say(string.format("Saved %d move%s to %s (what %s sees).%s", n, n == 1 and "" or "s", file,
    sess:name(v.seat), ui.record_note(v.over())))
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
  local ok, lines, e = guarded(ui.thinking, sess.out_tty, sess:c("dim", "The bot is thinking..."), v.hint, arg)
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

-- The REPL's commands, refused in play (a move that begins with one of
-- these words, Sea Merchants' "load grain on ship 1", is a move).
local REPL_ONLY = { "new", "load", "replay", "next", "prev", "reload", "bot" }
local INSTEAD = {   -- what to do instead, where it is not to load a game
  new = "a new game: quit, then kontor play again",
  bot = "bots are seated when play starts: kontor play --bot SEAT=KIND",
  reload = "the REPL's, where all is visible: kontor",
  replay = "the REPL's: kontor, then replay FILE",
  next = "the REPL's: kontor, then replay FILE",
  prev = "the REPL's: kontor, then replay FILE",
}
for _, name in ipairs(REPL_ONLY) do
  REPL_ONLY[name] = true
  C[name] = function(sess)
    sess:err(string.format("%s: not in play (%s)", name,
      INSTEAD[name] or "a saved game goes on with kontor play --load FILE"))
  end
end

-- The commands of play, for TAB and "did you mean" (not the REPL's, which
-- play refuses).
local COMMAND_NAMES = {}
for k in pairs(C) do if not REPL_ONLY[k] then COMMAND_NAMES[#COMMAND_NAMES + 1] = k end end
table.sort(COMMAND_NAMES)

---------------------------------------------------------------------------
-- Dispatch
---------------------------------------------------------------------------

-- Whether `word` starts an option of the seat at the keyboard.
function P:action_word(word)
  local v = self:mine()
  return ui.starts_option(v and v.options() or {}, word)
end

-- "did you mean `board`?": the closest command or option word.
function P:suggest(word)
  local v = self:mine()
  local words = {}
  for _, o in ipairs(v and v.options() or {}) do words[#words + 1] = o:match("^%S+") end
  return ui.suggest(word, { words, COMMAND_NAMES })
end

-- No move or command is longer; a longer line (a paste gone wrong) is
-- not printed back whole in the message.
local MAX_LINE = 1000

function P:dispatch(line)
  local text = trim(line)
  if text == "" then return end
  local chars = utf8.len(text) or #text
  if chars > MAX_LINE then
    local start = text:sub(1, 40):gsub("[\192-\255][\128-\191]*$", "")   -- not inside a character
    return self:err(string.format("'%s...' is not a command or a move here: the line has %d characters "
      .. "(a move or command has at most %d)", start, chars, MAX_LINE))
  end
  if text:match("^%d+$") then return self:do_action(text) end
  local word, rest = text:match("^([%a_][%w_]*)(.*)$")
  if word then
    local spaced = rest == "" or rest:match("^%s") ~= nil
    local isaction = spaced and self:action_word(word)
    local cmd = C[word]
    if cmd and spaced then
      if isaction and word == "do"
        and ui.do_is_option(function(w) return self:action_word(w) end, rest) then
        return self:do_action(text)
      end
      -- "load grain on ship 9": the rule set's reason, not "not in play"
      -- ("load game.json" is a file: that message stays)
      if isaction and REPL_ONLY[word] and not rest:find("[/.]") then return self:do_action(text) end
      if isaction and word ~= "do" then
        local ok, why = pcall(self:mine().why, text)
        if ok and why == nil then return self:do_action(text) end
      end
      return cmd(self, trim(rest))
    end
    if isaction then return self:do_action(text) end
  end
  local v = self:mine()
  if v and require("kontor.game.parse").is_option(v.options() or {}, text) then   -- "Pass" too
    return self:do_action(text)
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
  local out, add = ui.adder()
  -- file names after save
  local farg = line:match("^%s*save%s+(.*)$")
  if farg then
    local before = farg:sub(1, #farg - #text)
    for _, f in ipairs(ui.complete_file(farg)) do
      if f:sub(1, #before) == before then add(f:sub(#before + 1)) end
    end
    return out
  end
  local p = line:match("^%s*do%s+(.*)$") or line:match("^%s*why%s+(.*)$")
  local v = self:mine()
  if not p and v and not line:match("^%s*$") then
    local word = line:match("^%s*([%a_][%w_]*)")
    if word and self:action_word(word) then p = line:gsub("^%s+", "") end
  end
  if p and v then
    ui.complete_options(add, v.options() or {}, p, text)
    if #out > 0 then return out end
  end
  if line:match("^%s*([%a_][%w_]*)$") then
    ui.complete_commands(add, COMMAND_NAMES, text)
    -- and the first words of your options ("lo" or "LO" -> load)
    ui.complete_option_words(add, v and v.options() or {}, text)
  end
  return out
end

---------------------------------------------------------------------------
-- The loop
---------------------------------------------------------------------------

local shell_word, bot_flags = ui.shell_word, ui.bot_flags

-- Plays the game of `tbl` (kontor.seat.table) at this terminal. opts.bots:
-- { [seat] = kind }.
function M.run(kontor, tbl, opts)
  opts = opts or {}
  term.prepare()   -- Enter is a line end whatever the terminal's state (kontor.core.term)
  local tty = term.isatty(0) and term.isatty(1)
  -- people at the keyboard: the hand-over screens, even with the output
  -- piped (kontor play | tee game.log), where the next person would see
  -- the last one's hand
  local keyboard = term.isatty(0)
  local nc = os.getenv("NO_COLOR")
  local v1 = tbl.views[1]
  local sess = setmetatable({ views = tbl.views, players = tbl.players, names = v1.names,
    words = v1.decision_words, bots = {}, tty = tty, keyboard = keyboard, color = tty and (nc == nil or nc == ""),
    out_tty = term.isatty(1),   -- (the line of a bot thinking: a terminal's only)
    seen = {}, skips_seen = {}, hand_seen = {}, key_seen = {}, auto_bots = {}, new_bot = tbl.new_bot,
    free_undo = opts.free_undo == true }, P)
  sess.loaded = opts.loaded   -- the file of kontor play --load, if any
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
  -- before the first hand-over, which would clear them from the screen
  for _, w in ipairs(opts.warnings or {}) do sess:say(sess:c("red", "warning: "), w) end
  sess.keep_screen = opts.warnings and #opts.warnings > 0
  while not sess.quit do
    if sess:before_prompt() == "over" then
      -- a finished game ends here: no undo (a seat has the seed now, which
      -- gives every card dealt), and what was typed after the last move,
      -- undo or Enter, goes neither to the game nor to the shell
      if keyboard and sess:any().over() and term.discard() then
        sess:say("(What was typed after the game ended was not used: in play a finished game ends here.)")
      end
      break
    end
    local prompt = ""
    if tty then prompt = sess.turn_seat and (ktext.escape(sess:name(sess.turn_seat)) .. "> ") or "> " end
    local line, interrupted = term.readline(prompt)
    if line == nil or ui.typed_eof(line) then break end
    if interrupted then
      io.stdout:write("\n")
    else
      sess:dispatch(line)
    end
    for _, w in ipairs(tbl.warnings and tbl.warnings() or {}) do sess:say(sess:c("red", "warning: "), w) end
    io.stdout:flush()
  end
  if keyboard and sess:any().over() then
    io.stdout:write("\n")
    -- a finished game is kept, to step through in the REPL (`replay`), in
    -- a file of its own: an autosave to go on with stays as it is
    local path = (os.getenv("HOME") or ".") .. "/.kontor_last_game.json"
    local ok, n = tbl.keep(path)
    if ok then
      sess:say(string.format("Saved the game's %s to %s (step through it: kontor, then replay %s).",
        ktext.count(n, "move"), path, shell_word(path)))
    elseif n then
      sess:err("could not keep the finished game: " .. tostring(n))
    end
  elseif keyboard then
    io.stdout:write("\n")
    -- nothing a person played is lost: the whole game, to go on with in play
    local path = (os.getenv("HOME") or ".") .. "/.kontor_autosave.json"
    local ok, n = tbl.autosave(path)
    if ok then
      -- the count every seat may see: the steps of a secret order still
      -- open are left out (their number would tell the one leaving how far
      -- another player's order has got)
      local seen = n
      for _, v in ipairs(tbl.views) do seen = math.min(seen, #v.moves()) end
      local what = ktext.count(seen, "move") .. (seen < n and " and the secret orders being entered" or "")
      sess:say(string.format("The game is not over: saved %s to %s (go on with: kontor play --load %s%s).",
        what, path, shell_word(path), bot_flags(opts.bots) .. (sess.free_undo and " --free-undo" or "")))
    elseif n then
      sess:err("could not save the game in progress: " .. tostring(n))
    end
  end
  io.stdout:flush()
  return 0
end

M.HELP = HELP
return M
