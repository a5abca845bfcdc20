-- play (repl/play.lua): `kontor play`, hot-seat play at one terminal.
--
-- The REPL's loop and commands, plus: before each prompt the bots move;
-- the person to move sees only their own view (g:show(seat)) and their
-- numbered options; between two people a hand-over screen clears the
-- terminal and waits for Enter; at the end, the final scores and the
-- winners, and the program ends.

local core = require "kontor.core"
local ktext = require "kontor.text"
local term = core.term

local M = {}

local function people(sess, g)
  local n = 0
  for s = 1, g.players do if not sess.bots[s] then n = n + 1 end end
  return n
end

-- The person who decides now (nil when only bots or chance decide).
local function person_to_move(sess, g)
  local d = g:decision()
  if d.kind ~= "player" and d.kind ~= "simultaneous" and d.kind ~= "orders" then return nil end
  local want = sess.turn_seat
  for _, s in ipairs(d.seats or {}) do
    if s == want and not sess.bots[s] then return s end
  end
  for _, s in ipairs(d.seats or {}) do
    if not sess.bots[s] then return s end
  end
  return nil
end

function M.start(sess)
  sess.last_shown = nil
end

function M.prompt(sess)
  local g = sess:game()
  if g and sess.turn_seat then return ktext.escape(g.names[sess.turn_seat]) .. "> " end
  return "> "
end

-- Clears the screen and the terminal's scrollback (ESC[3J), so that
-- scrolling up shows nothing of the previous player's hand.
local CLEAR = "\27[H\27[2J\27[3J"

-- table: the cards only `seat` sees (its piles of visibility "owner" on
-- the rule set's game table, as names), or nil when the seat has no hand.
local function hand_of(g, seat)
  local cards, found = {}, false
  local function pile_cards(p)
    local ok, vis = pcall(function() return p:vis() end)
    if not ok or vis ~= "owner" or p:owner() ~= seat then return end
    found = true
    for _, c in ipairs(p:cards()) do
      local tok, name = core.sandbox.call(g.R.card_text or tostring, g.ctx, c)
      cards[#cards + 1] = tok and tostring(name) or tostring(c)
    end
  end
  for _, v in pairs(g.ctx) do
    if type(v) == "userdata" then pile_cards(v)
    elseif type(v) == "table" and getmetatable(v) == nil then
      for _, w in pairs(v) do if type(w) == "userdata" then pile_cards(w) end end
    end
  end
  return found and cards or nil
end

-- table: before the hand-over, the mover sees the cards their move drew
-- (the board they saw was from before the draw).
local function show_hand(sess, g, s)
  local now = hand_of(g, s)
  if not now then return false end
  local before, new = {}, {}
  for _, c in ipairs(sess.hand_seen and sess.hand_seen[s] or {}) do before[c] = (before[c] or 0) + 1 end
  for _, c in ipairs(now) do
    if (before[c] or 0) > 0 then before[c] = before[c] - 1 else new[#new + 1] = c end
  end
  if #new > 0 then
    sess:say(sess:c("bold", string.format("%s, you drew %s; your hand: %s.", g.names[s], table.concat(new, ", "),
      table.concat(now, ", "))))
  end
  return true
end

local function hand_over(sess, g, seat)
  local last = sess.last_seat
  local hand = last and not sess.bots[last] and show_hand(sess, g, last)
  if sess.tty then
    -- the mover sees what their move did before the screen goes
    if last and not sess.bots[last] then
      local kind = g:decision().kind
      local what = hand and "hide your hand and pass" or (kind == "orders" and "hide your order and pass")
        or (kind == "simultaneous" and "hide your choice and pass") or "pass"
      sess:say(sess:c("bold", string.format("%s: press Enter to %s the keyboard to %s.",
        g.names[last], what, g.names[seat])))
      io.stdout:flush()
      if term.readline("") == nil then return false end
    end
    io.stdout:write(CLEAR)
    sess:say(sess:c("bold", string.format("Pass the keyboard to %s (seat %d) and press Enter.",
      g.names[seat], seat)))
    io.stdout:flush()
    local line = term.readline("")
    if line == nil then return false end
    io.stdout:write(CLEAR)
  else
    sess:say(string.format("--- %s's turn (seat %d) ---", g.names[seat], seat))
  end
  return true
end

-- What happened since `seat` last had the keyboard: the log lines since.
local function greet(sess, g, seat)
  local n = #g:log()
  local from = math.min(sess.seen[seat] or 0, n)
  if from < n then
    sess:say(sess:c("bold", "Since your last turn:"))
    sess:print_log_from(from)
  end
  sess.seen[seat] = n
end

-- Called before each prompt: bots move, the game may end, the next person
-- gets the screen. Returns "over" to leave the loop.
function M.before_prompt(sess)
  local g = sess:game()
  if not g then sess.turn_seat = nil; return nil end
  sess.seen = sess.seen or {}
  local n0 = #g:log()
  local ok, e = pcall(sess.run_bots, sess)
  sess:print_log_from(n0)
  if not ok then sess:err(e) end
  if g:over() then
    sess.turn_seat = nil
    if sess.last_shown ~= "over" then
      local sok, board = pcall(g.show, g)
      if sok then sess:say(board) end
      sess:print_result()
      sess.result_shown = true
      sess.last_shown = "over"
    end
    return "over"
  end
  local seat = person_to_move(sess, g)
  sess.turn_seat = seat
  if seat == nil then return nil end
  local key = seat .. "/" .. #g:actions()
  if sess.last_shown == key then return nil end
  local handed = false
  if sess.last_seat ~= seat and people(sess, g) > 1 then
    -- what the last person saw during their turn counts as seen
    if sess.last_seat then sess.seen[sess.last_seat] = #g:log() end
    if not hand_over(sess, g, seat) then sess.quit = true; return "over" end
    handed = true
  end
  if handed then greet(sess, g, seat) end
  sess.last_seat = seat
  sess.last_shown = key
  local d = g:decision(seat)
  -- the board at every step: while a seat enters its order, it shows the
  -- seat's draft so far (g:draft, R.board); the rules line only once
  local same_order = d.kind == "orders" and sess.order_shown == seat and not handed
  sess.order_shown = d.kind == "orders" and seat or nil
  local sok, board = pcall(g.show, g, seat)
  sess:say(sok and board or tostring(board))
  sess.hand_seen = sess.hand_seen or {}
  sess.hand_seen[seat] = hand_of(g, seat)
  if not same_order then
    local v = require("repl").variants_text(g)
    if v then sess:say(sess:c("dim", "Rules: " .. (g.R.title or g.R.name) .. " " .. v)) end
  end
  if d.kind == "orders" then
    -- a secret order: the seat enters it whole, then hands over
    local mine = g:pending(seat)
    sess:say(sess:c("bold", string.format("%s, your secret order (%s): %s so far; next: %s.", g.names[seat],
      sess:decision_words(d.name), #mine > 0 and table.concat(mine, ", ") or "nothing",
      sess:decision_words(d.steps[seat]))))
    if not same_order then
      sess:say(sess:c("dim", "The others see your order when everyone has entered theirs; undo takes back a step of it."))
    end
  else
    sess:say(sess:c("bold", string.format("%s, your move (%s):", g.names[seat], sess:decision_words(d.name))))
  end
  sess:print_options(seat)
  return nil
end

return M
