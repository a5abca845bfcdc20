-- repl (repl/repl.lua): a Lua prompt with a game loaded, plus game commands.
--
-- lua.c's conventions: a line is first tried as an expression (so `1+1`
-- and `g` print), `=expr` works too, input that ends early (`<eof>`)
-- continues on the next line, an error prints one line (file:line: message;
-- `trace` shows its traceback) and the prompt comes back. Ctrl-C stops what is running, Ctrl-D leaves.
--
-- Before Lua, a line may be a game command (`board`, `options`, `do 3`,
-- `undo`, ... see HELP), a bare option number, or an action text at a
-- decision (`load fish on ship 1`). Anything else is Lua. This is the
-- designer's prompt: it holds the game itself (the referee's view, every
-- seat's cards). `kontor play` is repl/play.lua, a front end of its own that
-- holds only seat views (kontor.seat) and never reaches this file.
--
-- With stdin not a terminal there is no prompt, no banner and no colour,
-- so `kontor < commands.txt` gives plain output.

local core = require "kontor.core"
local gamemod = require "kontor.game"
-- the bots (and the copies they search) load when a bot is first asked for:
-- the first prompt does not wait for them
local bots = setmetatable({}, { __index = function(_, k) return require("kontor.bots")[k] end })
local describe_mod = require "kontor.describe"
-- (loaded when a bot, hint or `as` first needs a seat view: not for the
-- first prompt)
local seatmod = setmetatable({}, { __index = function(_, k) return require("kontor.seat")[k] end })
local ktext = require "kontor.text"
local kerrors = require "kontor.errors"
local ui = require "ui"
local term = core.term
local csb = core.sandbox

local M = {}

local reloaded_files, secret_counts, hide_secrets
local describe, variants_text   -- (sess, g) -> "Sea Merchants with hand_limit (size=5), 3 players (...), seed 4"

local KEYWORD_SET = {}
for w in ("and break do else elseif end false for function goto if in local nil not or repeat "
    .. "return then true until while"):gmatch("%a+") do KEYWORD_SET[w] = true end

local HELP = [[
Game commands (anything else is Lua; the game is `g`, the API `kontor`):
  board              the board (as the seat chosen with `as`, else everything)
  options            the legal options, numbered
  do N | do TEXT     do option N, or an action by its text (a whole move is
                     fine: do play fish on slots 1,4); at a decision a bare
                     number or option text works too
  why TEXT           why an action is illegal now
  undo [N]           take back N moves (default 1; with bots: your moves)
  redo [N]           do them again
  auto [N]           a random bot plays your next N moves (default: to the end)
  moves              the moves so far          log [N]   the event log (last N)
  result             the final scores and the winners
  new [k=v ...]      a new game: players=3 seed=2 rules=NAME names=A,B
                     variant=NAME; other k=v are rule options (default: as now)
  save FILE          save the game             load FILE  load a saved game
  replay FILE        step through a saved game with next [N] and prev [N]
  view SEAT          the board as SEAT sees it
  as SEAT            from now on show what SEAT sees (as all: everything)
  bot SEAT=KIND      a bot plays SEAT (KIND: random, greedy, mcts, with
                     options as mcts:iterations=500; off: a person again)
  bots               who is a bot
  hint [KIND]        what a bot (default mcts) would play now, and why
  reload             re-read the rule scripts and replay the game under them
  trace              the last error again, with its traceback
  help               this text                 quit      leave (or Ctrl-D)]]

M.HELP = HELP

local function is_game(v)
  return type(v) == "table" and getmetatable(v) == gamemod.Game
end
M.is_game = is_game

---------------------------------------------------------------------------
-- Output
---------------------------------------------------------------------------

local Session = {}
Session.__index = Session

-- Everything printed goes through say and err, which write through the one
-- sink (kontor.text.write): names, options, log lines, boards and messages
-- may come from rule scripts, variants or save files. The program's own
-- escape codes (colours) are raw pieces, written as they are.
-- (repl/ui.lua's color and say).
local piece = ktext.piece

function Session:c(name, s) return ui.color(self.color, name, s) end

function Session:say(...) ui.say(...) end

-- An error message: one line, its first, with the rule script's file:line
-- where the line names no place (kontor.text.error_place). Its traceback
-- (the frames of rule scripts and of the line typed, never the engine's or
-- the REPL's own) is kept for the `trace` command.
function Session:err(msg)
  local interrupt = kerrors.kind(msg) == "interrupt"
  msg = tostring(msg)
  local first = interrupt and ktext.error_line(msg) or ktext.error_place(msg)
  self.last_error = { line = first, trace = not interrupt and Session.frames(msg) or nil }
  io.stdout:write(piece(self:c("red", first)), "\n")
end

-- The traceback of an error message, "stack traceback:" and the frames of
-- rule scripts and of the line typed; nil when it has none of them.
function Session.frames(msg)
  local keep = {}
  local tb = msg:match("\nstack traceback:\n(.*)$")
  if tb then
    local frames = {}
    for line in tb:gmatch("[^\n]+") do
      local file = line:match("^%s*([^:]+):") or ""
      -- the engine's plumbing in C (the sandbox's call, pcall, the REPL's
      -- own xpcall) says nothing about the script; a C function the script
      -- called (string.rep) stays
      local plumbing = line:match("^%s*%[C%]: in %?$") or line:match("^%s*%[C%]: in field 'call'$")
        or line:match("^%s*%[C%]: in function 'x?pcall'$")
      if not plumbing and not file:match("kontor/[%w_/]+%.lua$") and not file:match("^repl/[%w_]+%.lua$")
          and not file:match("/repl/[%w_]+%.lua$") and not line:match("^%s*%(%.%.%.tail calls%.%.%.%)") then
        frames[#frames + 1] = line
      end
    end
    if #frames > 0 then
      keep[1] = "stack traceback:"
      for _, f in ipairs(frames) do keep[#keep + 1] = f end
    end
  end
  return keep[1] and table.concat(keep, "\n") or nil
end

function Session:game()
  local g = rawget(_G, "g")
  if is_game(g) then return g end
  return nil
end

function Session:name(seat)
  local g = self:game()
  if seat == 0 or seat == "chance" then return "chance" end
  return g and g.names[seat] or ("seat " .. tostring(seat))
end

-- The seat whose view the board and the moves show: the `as` seat; nil
-- for everything.
function Session:viewer()
  return self.as
end

local trim, guarded = ui.trim, ui.guarded

---------------------------------------------------------------------------
-- The game: status, options, results, bots
---------------------------------------------------------------------------

-- The seats to decide now (a list) and the decision.
local function deciders(g)
  local d = g:decision()
  if d.kind == "over" then return {}, d end
  return d.seats or {}, d
end

-- A decision's name in plain words: the rule set's R.decision_words[name]
-- when it gives one, else the name with its _ and digits spaced
-- ("phase1" -> "phase 1", "take_other" -> "take other").
function Session:decision_words(name)
  local g = self:game()
  local t = g and rawget(g.R, "decision_words")
  return ui.decision_words(name, type(t) == "table" and name ~= nil and rawget(t, name) or nil)
end

function Session:status()
  local g = self:game()
  if not g then return "no game (g is not a game)" end
  local seats, d = deciders(g)
  local order
  if d.kind == "orders" then
    -- secret orders: who still enters; each seat's own step only for itself
    local me = self.as or self.order_seat
    if me and d.steps[me] then order = { seat = me, pending = g:pending(me), step = d.steps[me] } end
  end
  return ui.status(self, seats, d, order)
end

-- The seats deciding now whose options may be shown: after `as N`, seat N
-- alone (when it decides); else all.
function Session:shown_deciders(g)
  local seats, d = deciders(g)
  if not self.as then return seats, d end
  for _, s in ipairs(seats) do if s == self.as then return { s }, d end end
  return {}, d
end

-- The seat a number or a text without "seat:" is for: after `as N`, seat
-- N, deciding or not (a move of another seat would show that seat's
-- options in its refusal, a secret order's among them); else the first
-- seat still to choose (in secret orders, the one that entered last).
function Session:acting_seat(g)
  local _, d = deciders(g)
  if d.kind == "over" then return nil end
  if self.as then return self.as end
  return self:next_seat(g)
end

-- The next seat to choose, whoever is shown: `auto` plays it.
function Session:next_seat(g)
  local seats, d = deciders(g)
  if d.kind == "over" then return nil end
  for _, s in ipairs(seats) do if s == self.as then return s end end
  if d.kind == "orders" then
    -- the seat that entered the last step goes on with its order
    for _, s in ipairs(seats) do if s == self.order_seat then return s end end
  end
  return seats[1]
end

function Session:print_options(seat)
  local g = self:game()
  if not g then return self:err("no game") end
  if g:over() then return self:say("The game is over: no options.") end
  seat = seat or self:acting_seat(g)
  -- after `as N`, only seat N's own options: another seat's (a hand to
  -- play from, cards to buy) would show what seat N may not see
  if self.as and #self:shown_deciders(g) == 0 then return self:say(self:not_deciding(g)) end
  local opts = g:options(seat) or {}
  -- an option repeating the move so far ends the move there: say so
  local stop = ui.stop_text(g:actions(), seat, opts)
  local decision = describe_mod.decision_name(g, seat)
  -- what each costs and does, when the rule set says (R.describe_option)
  ui.print_options(self, opts, stop, function(o) return describe_mod.option(g, seat, o, decision) end)
end

-- After `as N`, while seat N has no decision: says so, and who decides.
function Session:not_deciding(g)
  local other = self:next_seat(g)
  return string.format("%s (seat %d) has no decision now. %s (%s shows those options.)",
    ktext.escape(g.names[self.as]), self.as, self:status(),
    (other and other ~= 0) and ("`as " .. other .. "` or `as all`") or "`as all`")
end

-- After `as N`, the reason another seat's move (`1: bogus`) is refused is
-- not shown while that seat decides: it lists the seat's options, which
-- tell its hand or the secret order it has entered so far (Old World's
-- `expected one of: assign woad_plantation, done`). Returns the message
-- instead, or nil when the reason may show.
function Session:hidden_refusal(g, text, seat)
  if not self.as or type(text) ~= "string" then return nil end
  local named = math.tointeger(tonumber(text:match("^%s*(%d+)%s*:") or ""))
  local s = named or seat
  if not s or s == self.as or s == 0 then return nil end
  local decides = false
  for _, x in ipairs((deciders(g))) do decides = decides or x == s end
  if not decides then return nil end   -- "it is not Ann's turn": public
  local me = ktext.escape(g.names[self.as])
  return string.format("'%s' is not a legal action for %s (seat %d); shown as %s, the reason is not: it would "
    .. "tell what %s may not see (`as %d` or `as all` shows it)", ui.clip(trim((text:gsub("^%s*%d+%s*:", ""))), 60),
    ktext.escape(g.names[s]), s, me, me, s)
end

-- After moves the REPL made for someone (auto, the bots): the result, shown
-- once, when they ended the game, else who is to choose now.
function Session:after_moves(g)
  if g:over() then
    if not self.result_shown then self:print_result() end
    self.result_shown = true
  else
    self:say(self:status())
  end
end

function Session:print_result()
  local g = self:game()
  local r, e = g:result()
  if not r then return self:err(e) end
  -- a game that began from a scenario: `new seed=N` would deal another
  local again = g.params.scenario ~= nil and string.format("the game began from a scenario, which new seed=%%d "
    .. "alone does not give: prev %d goes back to its start", #g:move_list()) or nil
  ui.print_result(self, r, g.players, describe_mod.why_won(g), g.params.seed, again)
end

function Session:print_log_from(n0) return ui.print_log_from(self, self:game():log(), n0) end

local function log_count(g) return #g:log() end

local function bots_on(sess)
  return next(sess.bots) ~= nil and not sess.replay
end

-- Lets the bots decide while it is their turn. Returns the number of steps.
function Session:run_bots()
  local g = self:game()
  if not g or not bots_on(self) then return 0 end
  -- (a terminal: a line says which bot thinks, taken back once it has chosen)
  local shown = self.out_tty
  return ui.run_bots(self.bots, function() return deciders(g) end, function(s, b)
    local label = shown and self:c("dim", g.names[s] .. " (bot) is thinking...")
    return g:apply(ui.thinking(shown, label, b.choose, b, seatmod.view(g, s)), s)   -- seat registry: bots get seat views
  end)
end

-- The last step continues a move that is not finished yet: every option of
-- the seat extends its text.
local function mid_move(g)
  local acts = g:actions()
  local last = acts[#acts]
  if not last then return false end
  local seat, text = last:match("^(%w+): (.*)$")
  local opts = g:options(tonumber(seat))
  if not opts or #opts == 0 then return false end
  return ui.extends(opts, text)
end

-- After a move: the new log lines, the bots' moves, the end of the game.
function Session:after_move(n0)
  local g = self:game()
  n0 = self:print_log_from(n0)
  if self.replay then self.replay = nil end
  local ok, e = guarded(self.run_bots, self)
  self:print_log_from(n0)
  if not ok then self:err(e) end
  if g:over() then
    if not self.result_shown then self:print_result() end
    self.result_shown = true
  elseif mid_move(g) then
    self:say("The move goes on:")
    self:print_options()
  else
    self:say(self:status())
  end
end

---------------------------------------------------------------------------
-- Moves: doing, undoing, redoing whole moves
---------------------------------------------------------------------------

-- "3: pass" in a game of 2: the message naming the seats (nil when the
-- text names no seat, or one that exists).
function Session:no_such_seat(text)
  local g = self:game()
  local named = math.tointeger(tonumber(text:match("^%s*(%d+)%s*:") or ""))
  if not named or named <= g.players then return nil end   -- 0: chance
  local _, e = self:parse_seat(tostring(named))
  return e
end

function Session:do_action(arg)
  local g = self:game()
  if not g then return self:err("no game (g is not a game)") end
  if arg == "" then return self:err("do what? do N (an option number) or do TEXT") end
  if g:over() then return self:err("the game is over") end
  local bad = self:no_such_seat(arg)
  if bad then return self:err(bad) end
  local seat = self:acting_seat(g)
  local action = math.tointeger(tonumber(arg:match("^%d+$") or ""))
  if action == nil then
    action = arg
    if arg:match("^%s*%d+%s*:") or arg:match("^%w+:") then seat = nil end
  end
  if math.type(action) == "integer" and self.as and #self:shown_deciders(g) == 0 then
    return self:err(string.format("'%d': %s", action, self:not_deciding(g)))
  end
  local n0 = log_count(g)
  local ok, res, e = ui.apply_text(function(a) return g:apply(a, seat) end,
    function(a) return g:why(a, seat) end, action)
  if not ok then return self:err(res) end
  if not res then return self:err(self:hidden_refusal(g, action, seat) or e) end
  local named = type(action) == "string" and tonumber(action:match("^%s*(%d+)%s*:") or "")
  self.order_seat = named or seat
  self:after_move(n0)
end

local function is_bot(sess, seat) return bots_on(sess) and sess.bots[seat] ~= nil end

-- Whether a bot plays every seat: undo and redo then count every move (no
-- person's moves to count by: `undo` took back the whole game).
local function all_bots(sess, g)
  for s = 1, g.players do if not sess.bots[s] then return false end end
  return true
end

-- What undo N and redo N count: " of your moves" with bots (a person's
-- moves), nil without (every move).
function Session:yours(g)
  if bots_on(self) and not all_bots(self, g) then return " of your moves" end
  return nil
end

-- Takes back n moves (with bots: n moves of people, back to a person's decision).
-- Returns the moves taken back and how many of them count towards n.
function Session:undo_moves(n)
  local g = self:game()
  local undone = {}
  local people = 0
  local every = all_bots(self, g)
  if bots_on(self) and not every then
    -- none of the moves is a person's: nothing of yours to take back (the
    -- bots' moves alone would go, and the bot's seat wait on the prompt)
    local mine = false
    for _, m in ipairs(g:move_list()) do mine = mine or not is_bot(self, m[1]) end
    if not mine then return undone, 0 end
  end
  while #g:move_list() > 0 do
    if people >= n then
      if every or not bots_on(self) then break end
      local person_turn = false
      for _, s in ipairs((deciders(g))) do if not is_bot(self, s) then person_turn = true end end
      if person_turn then break end
    end
    -- the move undo takes is the last one taken, which in a simultaneous
    -- choice (Old World's bids: the bots bid as it opens) is not the last
    -- one listed, in seat order
    local last = g:undo_moves(1)[1]
    if not last then break end
    table.insert(undone, 1, last)
    if every or not is_bot(self, last[1]) then people = people + 1 end
  end
  return undone, people
end

-- Does n moves again (with bots: n moves of people and the bots' moves after).
-- Returns the moves done and how many of them count towards n.
function Session:redo_moves(n)
  local g = self:game()
  local done = 0
  local count = 0
  local every = all_bots(self, g)
  while true do
    local fut = g:redo_list()
    local f = fut[#fut]
    if not f then break end
    local human = every or not is_bot(self, f[1])
    if done >= n and (human or not bots_on(self)) then break end
    if g:redo_moves(1) ~= 1 then break end
    count = count + 1
    if human or not bots_on(self) then done = done + 1 end
  end
  return count, done
end

local moves_text = ui.moves_text

---------------------------------------------------------------------------
-- Commands
---------------------------------------------------------------------------

local C = {}   -- name -> function(sess, arg, line)

local function need_game(sess)
  local g = sess:game()
  if not g then sess:err("no game (g is not a game): type new") end
  return g
end

function Session:parse_seat(s)
  local g = self:game()
  return ui.parse_seat(s, g.names, g.players)
end

C.help = function(sess) sess:say(HELP) end

C.board = function(sess)
  local g = need_game(sess); if not g then return end
  local ok, s = pcall(g.show, g, sess:viewer())
  if not ok then return sess:err(s) end
  sess:say(s)
  local v = variants_text(g)
  if v then sess:say(sess:c("dim", "Rules: " .. (g.R.title or g.R.name) .. " " .. v)) end
  sess:say(sess:c("dim", sess:status()))
end

C.options = function(sess)
  if not need_game(sess) then return end
  sess:print_options()
end

C["do"] = function(sess, arg) sess:do_action(arg) end

C.why = function(sess, arg)
  local g = need_game(sess); if not g then return end
  if arg == "" then return sess:err("why what? why TEXT") end
  local bad = sess:no_such_seat(arg)
  if bad then return sess:err(bad) end
  -- (after `as N`, for seat N: why it may not, at another seat's turn too)
  local seat = (not arg:match("^%w+:")) and sess:acting_seat(g) or nil
  local ok, msg = guarded(g.why, g, arg, seat)
  if not ok then return sess:err(msg) end
  if msg then msg = sess:hidden_refusal(g, arg, seat) or msg end
  sess:say(msg or string.format("'%s' is legal now.", arg))
end

local count_arg = ui.count_arg

-- While secret orders are open, `undo` takes back steps of the acting
-- seat's own order (and nothing of the others'). Returns true when it did.
local function undo_order_steps(sess, g, n)
  local d = g:decision()
  if d.kind ~= "orders" then return false end
  local me = sess:acting_seat(g)
  if sess.order_seat and #g:pending(sess.order_seat) > 0 and not sess.as then
    me = sess.order_seat
  end
  if not me then return false end
  local before = g:pending(me)
  if #before == 0 then return false end
  local ok, k = guarded(g.undo, g, n, me)
  if not ok then sess:err(k); return true end
  local taken = {}
  for i = #before - k + 1, #before do taken[#taken + 1] = before[i] end
  ui.say_order_taken(sess, me, k, taken, ui.fewer(n, k, "take back"))
  return true
end

-- How many times each move ("seat: text") of `all` is missing from what a
-- seat sees (`seen`: its secret choices read "(secret)" or are left out).
function secret_counts(all, seen)
  local n = {}
  for _, m in ipairs(all) do n[m] = (n[m] or 0) + 1 end
  for _, m in ipairs(seen) do if n[m] then n[m] = n[m] - 1 end end
  return n
end

-- Moves of `list` ({ seat, text }) that the seat shown (`as`) does not
-- see (counted by secret_counts in `seen`) read "(secret)", in place.
function hide_secrets(sess, list, seen)
  if not seen then return list end
  for i, m in ipairs(list) do
    local key = m[1] .. ": " .. m[2]
    if m[1] ~= sess.as and (seen[key] or 0) > 0 then
      seen[key] = seen[key] - 1
      list[i] = { m[1], "(secret)" }
    end
  end
  return list
end

-- After undo or prev took moves back: a finished game is back in play,
-- which the REPL, the referee, allows to explore it (in play a seat
-- cannot: the seed, public at the end, gives every card); its result shows
-- again when it ends again.
local function back_in_play(sess, g, was_over, cmd)
  if not (was_over and not g:over()) then return end
  sess.result_shown = false
  sess:say(string.format("The game had ended: %s took it back into play (the REPL's, to explore; kontor play ends a "
    .. "finished game).", cmd))
end

C.undo = function(sess, arg)
  local g = need_game(sess); if not g then return end
  local n = count_arg(sess, arg, "undo"); if not n then return end
  if undo_order_steps(sess, g, n) then return end
  -- undo replays the game: near the memory cap that can fail half-way
  -- (a memory error); g:atomically puts the game back as it was
  -- shown `as` a seat: what it may see of the moves, to name no other
  -- seat's secret among those undone (a bid still open, O34)
  local seen = sess.as and secret_counts(g:moves(), g:moves(sess.as))
  local people
  local was_over = g:over()
  local log_before = g:log()
  local ok, undone = guarded(g.atomically, g, function()
    local u, k = sess:undo_moves(n)
    people = k
    return u
  end)
  if not ok then return sess:err("undo failed, the game is as it was: " .. ktext.error_line(undone)) end
  if #undone == 0 then
    return sess:say(#g:move_list() > 0 and "Nothing of yours to undo (the moves so far are the bots')."
      or "Nothing to undo.")
  end
  sess.result_shown = false
  hide_secrets(sess, undone, seen)
  ui.say_undone(sess, undone, ui.fewer(n, people, "undo", sess:yours(g)), ui.lines_after(log_before, #g:log()))
  back_in_play(sess, g, was_over, "undo")
end

C.redo = function(sess, arg)
  local g = need_game(sess); if not g then return end
  local n = count_arg(sess, arg, "redo"); if not n then return end
  local m0, n0 = #g:move_list(), log_count(g)
  local ok, k, counted = guarded(sess.redo_moves, sess, n)
  if not ok then return sess:err(k) end
  if k < n and #g:redo_list() == 0 and #g:held_moves() > 0 then
    -- the moves a reload could not replay (after the redo list's)
    local k0 = k
    ok, k = guarded(g.redo_held, g, n - (counted or k))
    if not ok then return sess:err(k) end
    counted, k = (counted or k0) + k, k0 + k
    if k == 0 then
      local m = g:held_moves()[1]
      local why = g:why(m[2], m[1] ~= 0 and m[1] or nil)
      return sess:err(string.format("the next kept move '%s: %s' does not fit: %s", sess:name(m[1]), m[2], tostring(why)))
    end
  end
  if k == 0 then return sess:say("Nothing to redo.") end
  sess:print_log_from(n0)
  local ml = g:move_list()
  local list = {}
  for i = m0 + 1, #ml do list[#list + 1] = ml[i] end
  sess:say(string.format("Redid %d move%s%s.", #list, #list == 1 and "" or "s",
    ui.fewer(n, counted, "redo", sess:yours(g))))
  if g:over() then
    sess:print_result(); sess.result_shown = true
  else sess:say(sess:status()) end
end

C.auto = function(sess, arg)
  local g = need_game(sess); if not g then return end
  local n = math.huge
  if arg ~= "" then n = count_arg(sess, arg, "auto"); if not n then return end end
  local mine = sess.auto_bots or {}
  sess.auto_bots = mine
  local m0 = #g:move_list()
  local played = 0
  local ok, e = guarded(function()
    while played < n and not g:over() do
      local seat = sess:next_seat(g)
      if seat == nil or seat == 0 then break end
      if is_bot(sess, seat) then sess:run_bots()
      else
        mine[seat] = mine[seat] or assert(bots.new("random", seat, g.params.seed + 1))
        local b = mine[seat]
        local before = #g:move_list()
        repeat
          local r, err = g:apply(b:choose(seatmod.view(g, seat)), seat)   -- seat registry
          if not r then error(err, 0) end
        until not mid_move(g)
        if #g:move_list() > before then played = played + 1 end
        sess:run_bots()
      end
    end
  end)
  if not ok then sess:err(e) end
  sess.replay = nil
  local total = #g:move_list() - m0
  sess:say(string.format("Played %d of your moves (%s in all).", played, ktext.count(total, "move")))
  sess:after_moves(g)
end

C.moves = function(sess)
  local g = need_game(sess); if not g then return end
  ui.print_moves(sess, g:moves(sess:viewer()))
end

C.log = function(sess, arg)
  local g = need_game(sess); if not g then return end
  ui.print_log(sess, g:log(), arg)
end

C.result = function(sess)
  local g = need_game(sess); if not g then return end
  if not g:over() then return sess:say("The game is not over. " .. sess:status()) end
  sess:print_result()
end

-- "players=3 seed=2 names=A,B rules=x variant=v:k=v" -> new_game table
-- The words of `new` itself; any other k=v is a rule option.
local NEW_KEYS = { "names", "players", "rules", "seed", "variant" }

-- The words of a line, split at spaces outside quotes: a value with
-- spaces is quoted, whole or in part (variant='snake_draft:order=2 1 3/3 1 2',
-- names="Ann Lee,Bob"); the quotes are not kept. Nil and a message for a
-- quote left open. Read by bytes (a quote and a space are ASCII, any text
-- passes), a stretch between quotes and spaces at a time: linear in the
-- line (a word grown a byte at a time copied it whole at each byte: a
-- quoted name of 1 MB took 71 s; red team 6).
local function words_of(line)
  local out, parts, quote, i = {}, nil, nil, 1
  while i <= #line do
    if quote then
      local j = line:find(quote, i, true)
      if not j then break end
      parts[#parts + 1] = line:sub(i, j - 1)
      quote, i = nil, j + 1
    else
      local j = line:find("[%s'\"]", i) or #line + 1
      if j > i then parts = parts or {}; parts[#parts + 1] = line:sub(i, j - 1) end
      local c = line:sub(j, j)
      if c == "'" or c == '"' then
        quote, parts = c, parts or {}
      elseif parts then
        out[#out + 1] = table.concat(parts); parts = nil
      end
      i = j + 1
    end
  end
  if quote then return nil, string.format("a quote (%s) is not closed", quote) end
  if parts then out[#out + 1] = table.concat(parts) end
  return out
end

-- The words of new's line given as k=v: { players = true, ... } (a k= in
-- a quoted value is part of that value: names="Ann players=2,Bob").
local function keys_of(arg)
  local keys = {}
  for _, w in ipairs(words_of(arg) or {}) do
    local k = w:match("^([%w_]+)=")
    if k then keys[k] = true end
  end
  return keys
end

local function parse_new(sess, arg)
  local words, qerr = words_of(arg)
  if not words then return nil, "new: " .. qerr end
  local g = sess:game()
  local p = g and g.params or {}
  -- no seed=: a fresh one (a new game is a new deal)
  local t = { rules = p.rules, players = p.players }
  if g then
    -- the variants as given (a preset once, not its members)
    t.variants = require("kontor.rules").given_variants(g.R)
    t.names = p.names
    t.options = {}
    for k, v in pairs(p.given_options or {}) do t.options[k] = v end
  end
  if type(t.rules) == "table" then t.rules = t.rules.spec or t.rules.name end
  local new_variants
  -- players= given on the line wins over the count of names= (as
  -- --players over --names), in either order
  local keys = keys_of(arg)
  local players_given, names_given = keys.players, keys.names
  for _, kv in ipairs(words) do
    local k, v = kv:match("^([%w_]+)=(.*)$")
    if not k then return nil, string.format("new: expected k=v, not '%s'", kv) end
    if k == "seed" and v == "random" then
      t.seed = "random"
    elseif k == "players" or k == "seed" then
      local n = math.tointeger(tonumber(v))
      if not n then return nil, string.format("new: %s must be a whole number, not '%s'", k, v) end
      t[k] = n
      if k == "players" and g and n ~= g.players and not names_given then t.names = nil end
    elseif k == "rules" then
      t.rules = v; t.variants = {}; t.options = {}
    elseif k == "names" then
      t.names = {}
      for nm in (v .. ","):gmatch("([^,]*),") do
        if nm == "" then return nil, string.format("new: names=%s: name %d is empty", v, #t.names + 1) end
        t.names[#t.names + 1] = nm
      end
      if not players_given then t.players = #t.names end
    elseif k == "variant" then
      if v == "" then
        return nil, "new: variant= needs a NAME (variant=hand_limit:size=5); new rules=NAME starts without variants"
      end
      new_variants = new_variants or {}
      local name, rest = v:match("^([^:]+):(.*)$")
      local vo = {}
      if name then
        for p2 in rest:gmatch("[^,]+") do
          local a, b = p2:match("^([%w_][%w_.]*)=(.*)$")   -- member.option of a preset too
          if not a then return nil, string.format("new: variant=%s: expected k=v after ':', not '%s'", v, p2) end
          vo[a] = b
        end
      end
      new_variants[#new_variants + 1] = { name or v, options = vo }
    else
      t.options = t.options or {}
      local val = v
      if v == "true" then val = true elseif v == "false" then val = false
      elseif math.tointeger(tonumber(v)) then val = math.tointeger(tonumber(v)) end
      t.options[k] = val
    end
  end
  if new_variants then t.variants = new_variants end
  return t
end

-- The variants and the options given, "hand_limit (size=5); options
-- start_coins=3", or nil for the rules as they come (kontor.describe's,
-- which seat views show too).
variants_text = describe_mod.variants_text
M.variants_text = variants_text

describe = function(sess, g)
  local v = variants_text(g)
  return string.format("%s%s, %d %s (%s), seed %d", g.R.title or g.R.name, v and (" " .. v) or "",
    g.players, g.players == 1 and "player" or "players", table.concat(g.names, ", "), g.params.seed)
end

-- Says each restriction of the bots `seated` ({ [seat] = spec }) at
-- game g that matches no option of its setup (a typo: the bot would
-- ignore it).
function Session:warn_restricted(g, seated)
  local ok, list = pcall(ui.restriction_warnings, g, ui.seated(seated, "bot "))
  for _, w in ipairs(ok and list or {}) do self:say("warning: ", w) end
end

function Session:set_game(g)
  _G.g = g
  self.result_shown = false
  self.replay = nil
  if self.as and self.as > g.players then self.as = nil end
  local kept = {}
  for s, b in pairs(self.bots) do
    if s > g.players then self.bots[s] = nil
    else
      self.bots[s] = assert(bots.new(b.name or b.kind, s, g.params.seed))
      self.bots[s]:tune(g.R)
      kept[s] = b.name or b.kind
    end
  end
  -- a restriction for the last game's rule set may match nothing in this one
  self:warn_restricted(g, kept)
end

C.new = function(sess, arg)
  local t, e = parse_new(sess, arg)
  if not t then return sess:err(e) end
  local ok, g = pcall(sess.kontor.new_game, t)
  local note
  local keys = keys_of(arg)
  if not ok and kerrors.kind(g) == "usage" and rawget(g, "players") == t.players and rawget(g, "max")
      and keys.rules and not keys.players and not keys.names then
    -- new rules=X from a game of a count X does not take: X's own default
    -- count, said (the count was the old game's, not one the line asked for)
    local refused = kerrors.message(g)
    t.players, t.names = nil, nil
    ok, g = pcall(sess.kontor.new_game, t)
    if ok then
      note = string.format("(%s: %d, its default; players=N for another count)", refused, g.players)
    end
  end
  if not ok then
    -- (what the error says as data: kontor.rules's unknown_option and
    -- wrong_base, never its text)
    local msg = kerrors.message(g)
    local unknown = kerrors.kind(g) == "usage" and rawget(g, "unknown_option")
    local wrong = kerrors.kind(g) == "usage" and rawget(g, "wrong_base")
    -- plyers=3 is taken for a rule option: say the word of new's it is close to
    local near = unknown and not unknown.owner and not unknown.near and unknown.option:match("^[%w_]+$")
      and require("kontor.rules").near(unknown.option, NEW_KEYS)
    if near then
      return sess:err(string.format("%s: did you mean '%s='? (new also takes %s=)", unknown.said, near,
        table.concat(NEW_KEYS, "=, ")))
    end
    -- a variant's option given as the rule set's: in new's words
    if unknown and unknown.owner then
      return sess:err(string.format("%s: '%s' is an option of %s%s: new variant=%s", unknown.said,
        unknown.option, require("kontor.rules").owner_words(unknown.owner),
        unknown.owner.added and ", not in this game" or "",
        unknown.owner.as))
    end
    -- new keeps the variants' options: one the edited file dropped says
    -- how to begin without it
    if unknown and not keys.variant then
      for _, v in ipairs(sess:game().R.applied or {}) do
        if v.depth == 0 and v.name == unknown.of then
          return sess:err(string.format("%s (new keeps the options of the game's variants: new variant=%s gives "
            .. "%s afresh)", msg, v.spec, unknown.of))
        end
      end
    end
    -- new keeps the rule set: a variant of another one says what to type
    if wrong and not keys.rules then
      return sess:err(string.format("%s (new keeps the rule set: new rules=%s %s)", msg, wrong.base,
        trim(arg)))
    end
    -- a rule or variant file that cannot start a game: one line, with its
    -- file:line (a limit's place is in the traceback alone)
    if kerrors.kind(g) == "rules" or kerrors.kind(g) == "limit" then return sess:err(ktext.error_place(g)) end
    return sess:err(g)
  end
  sess:set_game(g)
  sess:say("New game: ", describe(sess, g), ".")
  if note then sess:say(note) end
  -- what the set-up wrote (Caribbean's first card revealed), then the bots
  local n0 = 0
  local bok, be = guarded(sess.run_bots, sess)
  sess:print_log_from(n0)
  if not bok then sess:err(be) end
  sess:say(sess:status())
end

local unquote = ui.unquote

C.save = function(sess, arg)
  local g = need_game(sess); if not g then return end
  if arg == "" then return sess:err("save FILE: which file?") end
  -- `save FILE as SEAT`: the file that seat may see (the others' secret
  -- steps not yet revealed left out; while the game is on, no deal: a
  -- record of the moves, kontor.save)
  local file, seat, se = ui.save_target(arg, g.names, g.players)
  if not file then return sess:err(se) end
  local ok, e = g:save(file, seat)
  if not ok then return sess:err(e) end
  local n = #g:moves(seat, seat ~= nil)
  local held = not seat and #g:held_moves() or 0
  sess:say(string.format("Saved %d move%s%s to %s%s.%s", n, n == 1 and "" or "s",
    held > 0 and string.format(" and %s a reload could not replay", ktext.count(held, "held move")) or "", file,
    seat and string.format(" (what %s sees)", sess:name(seat)) or "", seat and ui.record_note(g:over()) or ""))
end

local function file_exists(path)
  local f = io.open(path, "r")
  if f then f:close() return true end
  return false
end

C.load = function(sess, arg, line, is_action)
  if arg == "" then return sess:err("load FILE: which file?") end
  local file = unquote(arg)
  -- at a decision with a "load ..." move (Sea Merchants), a path is a file
  if is_action and not file_exists(file) and not (file:find("/", 1, true) or file:match("%.json$")) then
    return sess:do_action(line)
  end
  local ok, g, e, warns = pcall(sess.kontor.load_game, file)
  if not ok then return sess:err(g) end
  if not g then return sess:err(e) end
  for _, w in ipairs(warns or {}) do sess:say("warning: ", w) end
  sess:set_game(g)
  local n = #g:move_list()
  local held = #g:held_moves()
  sess:say(string.format("Loaded %s: %s; %d move%s%s.", file, describe(sess, g), n, n == 1 and "" or "s",
    held > 0 and string.format(" (and %s a reload could not replay, kept: reload or redo does them)",
      ktext.count(held, "move")) or ""))
  if g:over() then sess:print_result(); sess.result_shown = true; return end
  local n0 = log_count(g)
  local bok, be = guarded(sess.run_bots, sess)
  sess:print_log_from(n0)
  if not bok then sess:err(be) end
  sess:say(sess:status())
end

C.replay = function(sess, arg)
  if arg == "" then return sess:err("replay FILE: which file?") end
  local file = unquote(arg)
  local ok, g, e, warns = pcall(sess.kontor.load_game, file)
  if not ok then return sess:err(g) end
  if not g then return sess:err(e) end
  for _, w in ipairs(warns or {}) do sess:say("warning: ", w) end
  local total = #g:move_list()
  g:undo(#g:actions())
  sess:set_game(g)
  sess.replay = { file = file, total = total }
  sess:say(string.format("Replaying %s: %s; %d moves. next [N] and prev [N] step; a move of your own plays on from there.",
    file, describe(sess, g), total))
end

local function replay_pos(sess)
  local g = sess:game()
  local total = sess.replay and sess.replay.total or #g:move_list()
  return string.format("move %d of %d", #g:move_list(), total)
end

C.next = function(sess, arg)
  local g = need_game(sess); if not g then return end
  local n = count_arg(sess, arg, "next"); if not n then return end
  local m0, n0 = #g:move_list(), log_count(g)
  local saved = sess.replay
  sess.replay = sess.replay or { total = #g:move_list() + #g:redo_list() }
  local ok, k = guarded(sess.redo_moves, sess, n)
  if not ok then sess.replay = saved return sess:err(k) end
  if k == 0 then sess:say("At the end (" .. replay_pos(sess) .. ").") return end
  local ml = g:move_list()
  local new = {}
  for i = m0 + 1, #ml do new[#new + 1] = ml[i] end
  hide_secrets(sess, new, sess.as and secret_counts(g:moves(), g:moves(sess.as)))
  for i, m in ipairs(new) do sess:say(string.format("%d  %s: %s", m0 + i, sess:name(m[1]), m[2])) end
  sess:print_log_from(n0)
  sess:say("(" .. replay_pos(sess) .. ")")
end

C.prev = function(sess, arg)
  local g = need_game(sess); if not g then return end
  local n = count_arg(sess, arg, "prev"); if not n then return end
  sess.replay = sess.replay or { total = #g:move_list() + #g:redo_list() }
  local seen = sess.as and secret_counts(g:moves(), g:moves(sess.as))
  local was_over = g:over()
  local undone = hide_secrets(sess, sess:undo_moves(n), seen)
  if #undone == 0 then return sess:say("At the start (" .. replay_pos(sess) .. ").") end
  sess:say("Back: " .. moves_text(sess, undone) .. " (" .. replay_pos(sess) .. ")")
  back_in_play(sess, g, was_over, "prev")
end

C.view = function(sess, arg)
  local g = need_game(sess); if not g then return end
  if arg == "" then return sess:err("view SEAT: which seat?") end
  local seat, e = sess:parse_seat(arg)
  if not seat then return sess:err(e) end
  local ok, s = pcall(g.show, g, seat)
  if not ok then return sess:err(s) end
  sess:say(s)
end

C.as = function(sess, arg)
  local g = need_game(sess); if not g then return end
  if arg == "" then
    -- a question, not a change: what is shown now
    if sess.as then
      return sess:say(string.format("Showing what %s (seat %d) sees; `as all` shows everything.", g.names[sess.as],
        sess.as))
    end
    return sess:say("Showing everything; `as SEAT` shows what one seat sees.")
  end
  if arg == "all" or arg == "0" then
    sess.as = nil
    return sess:say("Showing everything.")
  end
  local seat, e = sess:parse_seat(arg)
  if not seat then return sess:err(e) end
  sess.as = seat
  sess:say(string.format("Showing what %s (seat %d) sees; `as all` shows everything.", g.names[seat], seat))
end

C.bot = function(sess, arg)
  local g = need_game(sess); if not g then return end
  -- the seat may be a name with spaces (Player 2), the kind hold spaces
  -- (avoid=buy contract)
  local s, kind = arg:match("^(%S.-)%s*=%s*(%S.-)%s*$")
  if arg == "" then return sess:err("bot SEAT=KIND: which seat, which bot? (KIND: " .. bots.list() .. ", or off)") end
  if not s then
    return sess:err(string.format("bot %s: expected SEAT=KIND (KIND: %s, or off)", arg, bots.list()))
  end
  local seat, e = sess:parse_seat(s)
  if not seat then return sess:err(e) end
  if kind == "off" or kind == "human" then
    sess.bots[seat] = nil
    return sess:say(string.format("%s is played by a person.", g.names[seat]))
  end
  local b, be = bots.new(kind, seat, g.params.seed)
  if not b then return sess:err(be) end
  local tuned, te = pcall(b.tune, b, g.R)
  if not tuned then return sess:err(te) end
  sess.bots[seat] = b
  sess:say(string.format("%s is played by the %s bot.", g.names[seat], kind))
  sess:warn_restricted(g, { [seat] = kind })
  local n0 = log_count(g)
  local ok, re = guarded(sess.run_bots, sess)
  sess:print_log_from(n0)
  if not ok then return sess:err(re) end
  -- the bots moved: who is to choose now, or the result (as after a move)
  if re > 0 then sess:after_moves(g) end
end

C.hint = function(sess, arg)
  local g = need_game(sess); if not g then return end
  -- (after `as N`, seat N's only: another seat's would tell its options)
  if sess.as and not g:over() and #sess:shown_deciders(g) == 0 then return sess:say(sess:not_deciding(g)) end
  local seat = sess:acting_seat(g) or deciders(g)[1]
  if not seat or seat == 0 then return sess:err("no seat decides now") end
  local sv = seatmod.view(g, seat)   -- seat registry: hint through the seat view
  local ok, lines, e = guarded(ui.thinking, sess.out_tty, sess.out_tty and sess:c("dim", "The bot is thinking..."),
    sv.hint, arg)
  if not ok or not lines then return sess:err(ok and e or lines) end
  -- what the move costs and does, as the options list says it, under it
  -- (e: the number of the option the bot would play)
  local move = math.type(e) == "integer" and (sv.options() or {})[e]
  local note = move and describe_mod.option(g, seat, move)
  if note then table.insert(lines, 2, "  (" .. note .. ")") end
  sess:say(table.concat(lines, "\n"))
end

C.bots = function(sess)
  local g = need_game(sess); if not g then return end
  for s = 1, g.players do
    local b = sess.bots[s]
    sess:say(string.format("%d  %s: %s", s, g.names[s], b and (b:spec() .. " bot") or "person"))
  end
end

-- What a reload re-read: the rule set's file and each variant's, named
-- as given ("sea_merchants (variants/sea_merchants.lua) with the variant
-- hand_limit (variants/hand_limit.lua)"), paths relative to here.
local function short_path(f)
  local here = (os.getenv("PWD") or "") .. "/"
  if here ~= "/" and f:sub(1, #here) == here then return f:sub(#here + 1) end
  return f
end

function reloaded_files(g)
  local rules = require "kontor.rules"
  local parts = { string.format("%s (%s)", g.R.name, short_path(g.R.file or "?")) }
  local by_parent, top = {}, {}
  for _, v in ipairs(g.R.applied or {}) do
    if v.depth == 0 then top[#top + 1] = v else by_parent[#by_parent + 1] = v.name end
  end
  for _, v in ipairs(top) do
    local f = rules.find(v.spec)
    parts[#parts + 1] = string.format("the variant %s (%s%s)", v.name, short_path(f or v.spec),
      #by_parent > 0 and (", with " .. table.concat(by_parent, ", ")) or "")
    by_parent = {}
  end
  return parts[1] .. (#parts > 1 and (" with " .. table.concat(parts, " and ", 2)) or "")
end

-- The first line of the log that reads otherwise after a reload, among
-- the lines both have: a changed rule shows there (`pays 2` for `pays
-- 1`), and so does a changed deck, which the same seed shuffles otherwise
-- and whose moves, replayed, are the same choices on another deal. nil
-- when every line both have is alike.
local function log_changed(before, after)
  for i = 1, math.min(#before, #after) do
    if before[i] ~= after[i] then
      return string.format("The replayed moves log otherwise from line %d: it read '%s', now '%s'.", i,
        before[i], after[i])
    end
  end
end

C.reload = function(sess)
  local g = need_game(sess); if not g then return end
  local before = g:log()
  local ok, res, msg, stop = guarded(g.reload, g)
  if not ok then return sess:err(res) end
  local changed = (res or stop) and log_changed(before, g:log())
  if res then
    -- (stop: the moves after yours, undone before, that wait for redo again)
    sess:say(string.format("Reloaded %s; replayed %s%s.", reloaded_files(g), ktext.count(msg, "move"),
      stop and string.format(" (and %s after them, undone: redo does them)", ktext.count(stop, "move")) or ""))
    -- the edited scripts' constraints (a decision name misspelt) and the
    -- bots' restrictions, checked against the rules as they are now
    local seated = {}
    for s, b in pairs(sess.bots) do seated[s] = b.name or b.kind end
    sess:warn_restricted(g, seated)
  elseif stop and stop.secret and sess.as and stop.seat ~= sess.as then
    -- shown as another seat: the step is another seat's secret (O34)
    sess:err(string.format("reloaded; stopped before a secret step of %s that no longer fits the rules "
      .. "(%s from there on kept: put the rule back and reload, or redo)", sess:name(stop.seat), stop.held))
  elseif not stop then
    -- the scripts could not start the game: one line, with the file:line
    sess:err(msg)
  else
    sess:err(msg)
  end
  if changed then sess:say(changed) end
  sess.result_shown = g:over()
  sess:say(sess:status())
end

-- The last error again, with its traceback: where in the rule scripts and
-- the line typed it came from (an error prints one line).
C.trace = function(sess)
  local e = sess.last_error
  if not e then return sess:say("No error yet.") end
  if not e.trace then return sess:say(string.format("%s\n(no traceback through a rule script or a line typed)", e.line)) end
  sess:say(e.line, "\n", e.trace)
end

C.quit = function(sess) sess.quit = true end
C.exit = C.quit

M.COMMANDS = C

local COMMAND_NAMES = {}
for k in pairs(C) do COMMAND_NAMES[#COMMAND_NAMES + 1] = k end
table.sort(COMMAND_NAMES)

---------------------------------------------------------------------------
-- Dispatch: command, action, or Lua
---------------------------------------------------------------------------

-- Whether `word` starts an option of a seat deciding now.
local function action_word(g, word)
  if not g or g:over() then return false end
  local seats = deciders(g)
  for _, s in ipairs(seats) do
    if ui.starts_option(g:options(s) or {}, word) then return true end
  end
  return false
end

local function compile(src)
  local f = load("return " .. src, "=stdin", "t")
  if f then return f end
  return load(src, "=stdin", "t")
end

-- Whether `text` is an option of a seat deciding now.
function Session:is_option(text)
  local g = self:game()
  for _, s in ipairs((self:shown_deciders(g))) do
    if require("kontor.game.parse").is_option(g:options(s) or {}, text) then return true end   -- "Pass" too
  end
  return false
end

-- "did you mean `board`?" for an unknown word: the closest command, option
-- word or global name.
function Session:suggest(word)
  if #word < 3 then return nil end
  -- the moves first: on a tie they win
  local g = self:game()
  local now = {}
  if g and not g:over() then
    for _, s in ipairs((self:shown_deciders(g))) do
      for _, o in ipairs(g:options(s) or {}) do now[#now + 1] = o:match("^%S+") end
    end
  end
  local words = {}                                  -- moves not legal now too
  for w in pairs(g and describe_mod.move_words(g) or {}) do words[#words + 1] = w end
  table.sort(words)
  local globals = {}
  for k in pairs(_G) do if type(k) == "string" then globals[#globals + 1] = k end end
  return ui.suggest(word, { now, words, COMMAND_NAMES, globals })
end

-- The message for a line whose first word is not a command, a move or a
-- known Lua name; nil when the line should run as Lua.
function Session:unknown_word(line)
  local text = trim(line)
  local word, rest = text:match("^([%a_][%w_]*)(.*)$")
  if not word or KEYWORD_SET[word] or rawget(_G, word) ~= nil then return nil end
  -- a lone name (Lua would print nil) or a line that is not Lua at all
  if rest ~= "" and compile(text) then return nil end
  local s = self:suggest(word)
  -- the word as typed, to its first space ("löad", not "lo"), and a pasted
  -- line cut short
  local shown = ui.clip(text:match("^%S+"), 40)
  if s then return string.format("unknown command or name '%s': did you mean `%s`?", shown, s) end
  return string.format("unknown command or name '%s' (help lists the commands)", shown)
end

-- Handles the line as a command or an action; false when it is Lua.
function Session:dispatch(line)
  local text = trim(line)
  if text == "" then return true end
  local g = self:game()
  if text:match("^%d+$") and g and not g:over() then
    self:do_action(text)
    return true
  end
  local word, rest = text:match("^([%a_][%w_]*)(.*)$")
  if word then
    local spaced = rest == "" or rest:match("^%s") ~= nil
    local isaction = spaced and action_word(g, word)
    local cmd = C[word]
    if cmd and spaced and not rest:match("^%s*=[^=]") then
      if word == "do" and (rest == "" or compile(text)) then return false end
      if word == "next" and not (rest == "" or rest:match("^%s*%d+$")) then return false end
      if isaction and word == "do" and ui.do_is_option(function(w) return action_word(g, w) end, rest) then
        self:do_action(text)
        return true
      end
      if isaction and word ~= "do" then
        local ok, why = pcall(g.why, g, text)
        if ok and why == nil then self:do_action(text) return true end
      end
      cmd(self, trim(rest), text, isaction)
      return true
    end
    if isaction and not compile(text) then
      self:do_action(text)
      return true
    end
  end
  -- An option's text typed alone ("pass", "draw", "stop") is that option,
  -- unless it names a Lua variable that exists.
  if g and not g:over() and self:is_option(text) then
    local name = text:match("^[%a_][%w_]*$")
    if not (name and rawget(_G, name) ~= nil) then
      self:do_action(text)
      return true
    end
  end
  if g and text:match("^%d+:%s*%a") and not compile(text) then
    self:do_action(text)
    return true
  end
  -- A move of the game that is not legal now ("buy dock" with no coins,
  -- "draw" in phase I): the rule set's reason, not "unknown command".
  if g and not g:over() then
    local first = text:match("^([%a_][%w_]*)")
    local lua = first and rawget(_G, first) ~= nil and compile(text)
    if not lua and describe_mod.is_move(g, text) then
      local named = text:match("^%s*(%d+)%s*:")
      local seat = (not named) and self:acting_seat(g) or nil
      local why = describe_mod.refusal(g, text, seat)
      if why then self:err(self:hidden_refusal(g, text, seat) or why) return true end
    end
  end
  return false
end

---------------------------------------------------------------------------
-- Lua
---------------------------------------------------------------------------

-- A line that ends before its statement does (the prompt then asks for
-- more): Lua's compiler tells it only by its message ending in "<eof>",
-- which is the way the Lua manual's own interpreter (lua.c, incomplete)
-- tells it; there is no other (docs/architecture.md, "Errors as data").
local function incomplete(msg)
  return type(msg) == "string" and msg:sub(-5) == "<eof>"
end

local function traceback(m)
  if kerrors.kind(m) == "interrupt" then return m end   -- Ctrl-C: no traceback
  if kerrors.is(m) then m = kerrors.message(m) end
  if type(m) ~= "string" then m = "(error object is a " .. type(m) .. " value)" end
  local tb = debug.traceback(m, 2):gsub("\n%s*%[C%]: in %?", "")
  -- the REPL's own frames say nothing: cut at the xpcall that ran the line
  local cut = tb:find("\n%s*%[C%]: in function 'xpcall'")
  if cut then tb = tb:sub(1, cut - 1) end
  return tb
end

function Session:show_value(v)
  -- as lua.c prints: a string as it is (inside tables, quoted)
  if type(v) == "string" then return v end
  if is_game(v) then
    local ok, s = pcall(v.show, v, self:viewer())
    return ok and s or ("<game: " .. tostring(s) .. ">")
  end
  local mt = type(v) == "table" and getmetatable(v)
  if type(mt) == "table" and rawget(mt, "__tostring") then return tostring(v) end
  return require("kontor.dump").pretty(v)
end

function Session:eval(src)
  local f, msg = compile(src)
  if not f then return self:err(msg) end
  -- (the terminal echoes while the Lua runs: io.read() shows what is
  -- typed; the next prompt takes the terminal back, l_term.c)
  if self.tty then term.line_mode() end
  csb.catch_sigint(true, kerrors.interrupt())
  -- the game changes only by its moves: a line that changed it otherwise
  -- is refused and the game rebuilt (g:outside, lua/kontor/game/outside.lua)
  local function run() return xpcall(f, traceback) end
  local g = self:game()
  local res
  if g then
    local ok, r = pcall(function() return table.pack(g:outside(run)) end)
    res = ok and r or table.pack(false, r)
  else
    res = table.pack(run())
  end
  csb.catch_sigint(false)
  if not res[1] then
    self:err(res[2])
    -- `board()`, `quit()`: a command called as a Lua function
    local name = type(res[2]) == "string"
      and res[2]:match("^[^\n]*attempt to call a nil value %(global '([%a_][%w_]*)'%)")
    if name and C[name] then
      self:say(string.format("(`%s` is a command, not a Lua function: type it without brackets; help lists the "
        .. "commands)", name))
    end
    return
  end
  if res.n > 1 then
    local parts = {}
    for i = 2, res.n do parts[#parts + 1] = self:show_value(res[i]) end
    self:say(table.concat(parts, "\t"))
  end
end

---------------------------------------------------------------------------
-- Completion (repl/complete.lua, loaded at the first Tab: the first prompt
-- does not need it)
---------------------------------------------------------------------------

local HELPERS
function Session:complete(text, line)
  HELPERS = HELPERS or { is_game = is_game, deciders = deciders, action_word = action_word,
                         commands = COMMAND_NAMES }
  return require("complete").complete(self, text, line, HELPERS)
end

---------------------------------------------------------------------------
-- The loop
---------------------------------------------------------------------------

-- The REPL holds the game (every seat's cards): it has no play mode. A
-- front end for players is repl/play.lua, given seat views only
-- (docs/security.md, "Seat views"). The error points at the caller.
local function only_repl(opts)
  if opts.mode ~= nil and opts.mode ~= "repl" then
    error(string.format("repl: no mode '%s': the REPL is the designer's prompt and sees every seat; "
      .. "kontor play is repl/play.lua, given seat views", tostring(opts.mode)), 3)
  end
end

function M.session(kontor, game, opts)
  opts = opts or {}
  only_repl(opts)
  local tty = term.isatty(0) and term.isatty(1)
  local nc = os.getenv("NO_COLOR")
  local sess = setmetatable({
    kontor = kontor, bots = {}, tty = tty,
    color = tty and (nc == nil or nc == ""),
    out_tty = term.isatty(1),   -- (the line of a bot thinking: a terminal's only)
  }, Session)
  _G.g = game
  for seat, kind in pairs(opts.bots or {}) do
    sess.bots[seat] = assert(bots.new(kind, seat, game.params.seed))
    sess.bots[seat]:tune(game.R)
  end
  -- One person against bots: show what that person sees (`as all` to lift).
  local people = {}
  for s = 1, game.players do if not sess.bots[s] then people[#people + 1] = s end end
  if next(sess.bots) and #people == 1 then sess.as = people[1] end
  return sess
end

-- A memory error anywhere in a command or a Lua line (a replay, printing a
-- huge log line, a save) is a message, not the end of the session: the
-- game commands keep the game as it was (g:atomically for undo).
for _, name in ipairs { "dispatch", "eval" } do
  local f = Session[name]
  Session[name] = function(self, ...)
    local res = table.pack(pcall(f, self, ...))
    if res[1] then return table.unpack(res, 2, res.n) end
    collectgarbage()
    self:err(kerrors.is_out_of_memory(res[2])
      and "not enough memory for that (the memory limit is the interpreter's; the game is as it was)"
      or res[2])
    return true
  end
end

function M.run(kontor, game, opts)
  opts = opts or {}
  only_repl(opts)
  local sess = M.session(kontor, game, opts)
  term.prepare()   -- Enter is a line end whatever the terminal's state (kontor.core.term)
  _G.help = setmetatable({}, { __tostring = function() return HELP end })
  _G.new = function(t)
    t = t or {}
    local cur = sess:game()
    if t.rules == nil then t.rules = cur and cur.params.rules end
    local ng = kontor.new_game(t)
    sess:set_game(ng)
    return ng
  end
  local hist = (os.getenv("HOME") or ".") .. "/.kontor_history"
  if sess.tty then
    term.load_history(hist)
    term.set_completer(function(text, before) return sess:complete(text, before) end)
    local intro = string.format("Kontor %s - %s. Type help for the commands, Ctrl-D to leave.",
      kontor.version, describe(sess, game))
    sess:say(sess:c("bold", intro))
  end
  for _, w in ipairs(opts.warnings or {}) do sess:say("warning: ", w) end
  -- at a terminal, what the set-up wrote (Caribbean's first card
  -- revealed) under the banner; then the bots' moves
  local n0 = sess.tty and 0 or log_count(game)
  local ok, e = guarded(sess.run_bots, sess)
  if sess.tty or next(sess.bots) then sess:print_log_from(n0) end
  if not ok then sess:err(e) end
  if sess.tty then sess:say(sess:status()) end
  local buffer = nil
  while not sess.quit do
    local prompt = ""
    if sess.tty then
      -- no colour in the prompt: libedit would count the escape codes as width
      prompt = buffer and ">> " or "> "
    end
    local line, interrupted = term.readline(prompt)
    if line == nil or ui.typed_eof(line) then break end
    if interrupted then
      -- Ctrl-C at the prompt drops the line (and any unfinished input)
      io.stdout:write("\n")
      buffer = nil
      goto continue
    end
    if sess.tty and line:match("%S") then term.add_history(line) end
    if buffer then
      local src = buffer .. "\n" .. line
      local f, msg = compile(src)
      if not f and incomplete(msg) then buffer = src
      elseif not f and src:match("^%s*do%s*\n") then
        -- `do` alone, then a move: say what the `do` was taken for
        buffer = nil
        sess:err(msg)
        sess:say("(`do` alone began a Lua block, do ... end; a move is do N or do TEXT on one line)")
      else buffer = nil; sess:eval(src) end
    elseif sess:dispatch(line) then   -- luacheck: ignore 542 (a command or a move: done)
    elseif sess:unknown_word(line) then
      sess:err(sess:unknown_word(line))
    else
      local src = line
      if src:sub(1, 1) == "=" then src = "return " .. src:sub(2) end
      local f, msg = compile(src)
      if not f and incomplete(msg) then buffer = src
      else sess:eval(src) end
    end
    sess:say_warnings()
    io.stdout:flush()
    ::continue::
  end
  if sess.tty then
    term.save_history(hist)
    io.stdout:write("\n")
    sess:autosave()
  end
  io.stdout:flush()
  return 0
end

-- Leaving a terminal session (Ctrl-D, quit) with a game in progress saves
-- it, and says where: nothing a person played is lost.
-- What the engine noticed of the rule script (g:warnings(): a
-- module-level variable that changed), after each line.
function Session:say_warnings()
  local g = self:game()
  if not g then return end
  for _, w in ipairs(g:warnings()) do self:say(self:c("red", "warning: "), w) end
end

function Session:autosave()
  local g = self:game()
  if not g or g:over() or #g:move_list() == 0 then return end
  local path = (os.getenv("HOME") or ".") .. "/.kontor_autosave.json"
  local ok, e = g:save(path)
  if ok then
    -- the bots are not in the file: the commands that put them back
    local seats, after = {}, ""
    for s in pairs(self.bots) do seats[#seats + 1] = s end
    table.sort(seats)
    for _, s in ipairs(seats) do
      local b = self.bots[s]
      after = after .. string.format(", then bot %d=%s", s, b.name or b.kind)
    end
    self:say(string.format("The game is not over: saved %s to %s (load it with: kontor, then load %s%s).",
      ktext.count(#g:move_list(), "move"), path, path, after))
  else
    self:err("could not save the game in progress: " .. tostring(e))
  end
end

return M
