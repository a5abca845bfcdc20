-- ui (repl/ui.lua): the terminal helpers both front ends use, the
-- designer's prompt (repl/repl.lua) and hot-seat play (repl/play.lua).
--
-- Every function here takes plain data: texts, lists of texts, numbers,
-- and the front end's session only as its output (sess:say, sess:err,
-- sess:c, sess:name, sess:status, sess.bots). None takes a game: play holds
-- seat views only (kontor.seat), and what it gives these functions is what
-- a view gave it.

local core = require "kontor.core"
local ktext = require "kontor.text"
local kerrors = require "kontor.errors"
local csb = core.sandbox

local M = {}

---------------------------------------------------------------------------
-- Output and input
---------------------------------------------------------------------------

M.ESC = {
  red = "\27[31m", green = "\27[32m", yellow = "\27[33m", cyan = "\27[36m",
  bold = "\27[1m", dim = "\27[2m", reset = "\27[0m",
  -- to the line's first column (CSI G, not a carriage return: every "\r"
  -- the program sends ends a line) and erase to its end
  erase_line = "\27[G\27[K",
}

-- s (escaped) in the colour `name` when `on`, else s escaped: a session's c.
function M.color(on, name, s)
  if not on then return ktext.escape(s, true) end
  return ktext.raw(M.ESC[name] .. ktext.escape(s, true) .. M.ESC.reset)
end

-- Writes the pieces (escaped, colours raw) through the one sink, then a
-- line break: a session's say.
function M.say(...)
  ktext.write(io.stdout, ...)
  io.stdout:write("\n")
end

-- A line that says what the program is busy with (a bot thinking), for
-- a terminal only: the pieces with no line break after, then `erase_line`
-- (a session's busy and idle) takes the line back, so that what comes
-- next is written where it stood.
function M.busy(...)
  ktext.write(io.stdout, ...)
  io.stdout:flush()
end

function M.idle()
  ktext.write(io.stdout, ktext.raw(M.ESC.erase_line))
end

-- f(...)'s results, with the busy line `text` shown while it runs when
-- `shown` (the output is a terminal), taken back however f ends (Ctrl-C,
-- a failing rule set): a bot choosing, a hint's bot thinking.
function M.thinking(shown, text, f, ...)
  if not shown then return f(...) end
  M.busy(text)
  local r = table.pack(pcall(f, ...))
  M.idle()
  if not r[1] then error(r[2], 0) end
  return table.unpack(r, 2, r.n)
end

M.trim = ktext.trim

-- A file name as typed: without the quotes around it, if any.
function M.unquote(s)
  return s:match('^"(.*)"$') or s:match("^'(.*)'$") or s
end

-- Runs f with Ctrl-C turned into an error of kind "interrupt"
-- (kontor.errors: its message "interrupted"); returns pcall's results.
function M.guarded(f, ...)
  csb.catch_sigint(true, kerrors.interrupt())
  local res = table.pack(pcall(f, ...))
  csb.catch_sigint(false)
  return table.unpack(res, 1, res.n)
end

-- The N of `undo N`, `log N` ...: 1 for "", nil (and a message through
-- sess:err) for anything but a whole number above 0.
function M.count_arg(sess, arg, what)
  if arg == "" then return 1 end
  local n = math.tointeger(tonumber(arg))
  if not n and arg:match("^%d+$") then n = math.maxinteger end   -- more than there can be: all
  if not n or n < 1 then
    sess:err(string.format("%s N: N must be a whole number above 0, not '%s'", what, arg))
    return nil
  end
  return n
end

-- The seat a text names among `names` (players seats): a number or a
-- name; nil and a message if none.
function M.parse_seat(s, names, players)
  s = M.trim(s or "")
  local n = math.tointeger(tonumber(s))
  if n and n >= 1 and n <= players then return n end
  for i = 1, players do
    if names[i]:lower() == s:lower() then return i end
  end
  local list = {}
  for i = 1, players do list[i] = i .. " " .. names[i] end
  return nil, string.format("no seat '%s' (seats: %s)", s, table.concat(list, ", "))
end

-- `save FILE [as SEAT]`: the file, and the seat (nil when no "as" is
-- given); nil, nil and a message when the words after the last " as " name
-- no seat ("x.json as 3" in a game of 2 is not a file of that name). A
-- quoted FILE is taken whole.
function M.save_target(arg, names, players)
  local q = M.unquote(arg)
  if q == "" then return nil, nil, string.format("save FILE: %s is no file name (an empty one)", arg) end
  if q ~= arg then return q end
  local fpart, spart = arg:match("^(.*%S)%s+as%s+(%S.*)$")
  if not fpart then return arg end
  local seat, e = M.parse_seat(spart, names, players)
  if not seat then
    return nil, nil, string.format("save FILE as SEAT: %s; a file name with ' as ' in it goes in quotes", e)
  end
  local file = M.unquote(fpart)
  if file == "" then return nil, nil, string.format("save FILE: %s is no file name (an empty one)", fpart) end
  return file, seat
end

---------------------------------------------------------------------------
-- Decisions and options
---------------------------------------------------------------------------

-- A decision's name in plain words (kontor.text.decision_words, which the
-- engine's refusals share): `words`, the rule set's
-- R.decision_words[name], when it is a text, else "take_other" -> "take other".
M.decision_words = ktext.decision_words

-- The status line: who decides now (`seats`, the decision `d`). `order`,
-- { seat =, pending =, step = }, is the secret order of the seat looking,
-- shown only to it.
function M.status(sess, seats, d, order)
  if d.kind == "over" then return "The game is over." end
  if d.kind == "chance" then return string.format("Chance decides (%s).", sess:decision_words(d.name)) end
  local names = {}
  for i, s in ipairs(seats) do
    names[i] = sess:name(s) .. (sess.bots[s] and " (bot)" or "")
  end
  if d.kind == "orders" then
    local line = string.format("%s to enter %s secret order%s (%s).", table.concat(names, ", "),
      #seats == 1 and "a" or "their", #seats == 1 and "" or "s", sess:decision_words(d.name))
    if order then
      line = line .. string.format(" %s's order so far: %s; next: %s.", sess:name(order.seat),
        #order.pending > 0 and table.concat(order.pending, ", ") or "nothing", sess:decision_words(order.step))
    end
    return line
  end
  return string.format("%s to choose (%s).", table.concat(names, ", "), sess:decision_words(d.name))
end

-- The option that ends a move where `seat`'s last step (`acts`, the record
-- of "seat: text") stands, when another of `opts` goes on from it; or nil.
function M.stop_text(acts, seat, opts)
  local lseat, ltext = (acts[#acts] or ""):match("^(%w+): (.*)$")
  local stop = lseat and tonumber(lseat) == seat and ltext or nil
  if stop then
    -- a stop only where another option goes on from that text
    local goes_on = false
    for _, o in ipairs(opts) do
      if #o > #stop and o:sub(1, #stop) == stop and o:sub(#stop + 1, #stop + 1):match("[ ,]") then goes_on = true end
    end
    if not goes_on then stop = nil end
  end
  return stop
end

-- The options, numbered; the one that ends the move marked; note(o) is
-- what follows each ("" or a dim "  (costs ...)").
-- A run of options that differ only in a number at their end, counting up
-- by one ("bid 0" ... "bid 23"; kontor.text.run_end, which the engine's
-- refusal of a move shares), is one line when it has RUN_MIN options or
-- more and their descriptions differ only in that number too: Old World's
-- bids at 23 gold were 24 lines, which pushed the board off a 40-row
-- screen. The texts are the options' own: only the list is shorter.
local RUN_MIN, run_end = ktext.RUN_MIN, ktext.run_end

-- The description of `o` with its number `n` made "N", if every option of
-- the run describe(text of value v) reads so with v for N; else nil.
local function run_template(describe, prefix, from, to)
  local PLACE = "\0"
  for _, v in ipairs { from, to } do
    local d = describe(prefix .. v)
    if not d then return nil end
    local t = d:gsub("%f[%d]" .. v .. "%f[%D]", PLACE)
    local fits = t ~= d
    for k = from, to do
      if not fits then break end
      fits = t:gsub(PLACE, tostring(k)) == describe(prefix .. k)
    end
    if fits then return (t:gsub(PLACE, "N")) end
  end
  return nil
end

-- The columns an option's line may take: the terminal's on a terminal
-- that says (at least 40), else nil (piped: one line an option, as ever).
local function option_width(sess)
  if not sess.out_tty then return nil end
  local cols = core.term.columns()
  return cols and cols >= 40 and cols or nil
end

local function text_len(t) return utf8.len(t) or #t end

-- The note of an option (" (what it costs and does)"), dim, after the
-- option's own line `head` (its pieces) of `used` columns: on that line
-- while it fits in `width`; else its words go on, under the option's
-- text (`indent` columns in), on lines of at most `width`, so that a
-- terminal does not break it anywhere (Old World's picks at 100 columns
-- left a ")" alone on a line).
local function say_noted(sess, head, used, note, width, indent)
  if not note or note == "" then return sess:say(table.unpack(head)) end
  local text = "(" .. ktext.escape(note) .. ")"
  if not width or used + 2 + text_len(text) <= width then
    head[#head + 1] = sess:c("dim", "  " .. text)
    return sess:say(table.unpack(head))
  end
  local line, at, first = {}, used + 2, true
  local function flush()
    local piece = table.concat(line, " ")
    if first then head[#head + 1] = sess:c("dim", "  " .. piece); sess:say(table.unpack(head))
    else sess:say(string.rep(" ", indent), sess:c("dim", piece)) end
    first, line, at = false, {}, indent
  end
  for word in text:gmatch("%S+") do
    local need = text_len(word) + (#line > 0 and 1 or 0)
    if #line > 0 and at + need > width then flush(); need = text_len(word) end
    if first and #line == 0 and at + need > width then flush(); need = text_len(word) end
    line[#line + 1] = word
    at = at + need
  end
  flush()
end

-- Prints the options, numbered; `describe(o)` says what an option costs
-- and does (a text, or nil).
function M.print_options(sess, opts, stop, describe)
  local w = #tostring(#opts)
  local width = option_width(sess)
  local i = 1
  while opts[i] do
    local j, prefix, n = run_end(opts, i, stop)
    local template = j - i + 1 >= RUN_MIN and run_template(describe, prefix, n, n + j - i)
    if template then
      local range, text = string.format("%" .. w + 2 .. "s", i .. "-" .. j), ktext.escape(prefix .. n .. "-" .. (n + j - i))
      say_noted(sess, { sess:c("cyan", range), "  ", text }, #range + 2 + text_len(text), prefix .. "N: " .. template,
        width, w + 4)
      sess:say(sess:c("dim", string.format("%s  type %s to %s, or the option's number: %d to %d",
        string.rep(" ", w + 2), prefix .. n, prefix .. (n + j - i), i, j)))
      i = j + 1
    else
      local o = opts[i]
      local mark = o == stop and "  (stop here: the move ends)" or ""
      local num, text = string.format("%" .. w + 2 .. "d", i), ktext.escape(o)
      local d = describe(o)
      say_noted(sess, { sess:c("cyan", num), "  ", text, mark ~= "" and sess:c("dim", mark) or "" },
        #num + 2 + text_len(text) + #mark, d, width, w + 4)
      i = i + 1
    end
  end
end

-- Whether every option other than `text` extends `text` (and one does):
-- the move that `text` began is not finished.
function M.extends(opts, text)
  local extends = false
  for _, o in ipairs(opts) do
    if o ~= text then   -- an option equal to the text ends the move there
      if #o <= #text or o:sub(1, #text) ~= text then return false end
      extends = true
    end
  end
  return extends
end

-- Whether the line "do REST" is an option's own text that begins with the
-- word "do" (Caribbean's "do not repel"), not the command `do` with REST:
-- REST's first word is neither a number, a seat ("2:") nor a word an
-- option begins with (`is_word`), so "do 1" and "do repel" stay commands.
function M.do_is_option(is_word, rest)
  local second = rest:match("^%s*([^%s:]+)")
  if not second or second:match("^%d") then return false end
  return not is_word(second)
end

-- Whether `line` is Ctrl-D typed ahead: pressed while the program was
-- busy (a bot thinking), it reaches the next prompt as the character \4
-- in the line, not as the end of input. A line of nothing else leaves, as
-- Ctrl-D at the prompt does.
function M.typed_eof(line)
  return line:find("\4", 1, true) ~= nil and not line:find("[^\4%s]")
end

-- Whether `word` starts one of `opts` (the whole option or its first
-- words), in any case, as g:apply takes it (kontor.game.parse).
M.starts_option = require("kontor.game.parse").starts_option

-- The texts that differ from `s` by the number of a word before a number:
-- "slot 2" <-> "slots 2" (each such word alone, then all of them).
function M.number_forms(s)
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

-- apply(action) under guarded; when a text is refused, the first of its
-- number forms that why(text) finds legal instead (the log's words and
-- the moves' may differ in number: "slot 2" in a log line, "slots 2" in
-- the move). Returns guarded's results: ok, then apply's.
function M.apply_text(apply, why, action)
  local ok, res, e = M.guarded(apply, action)
  if not ok then return ok, res end
  if not res and type(action) == "string" then
    for _, alt in ipairs(M.number_forms(action)) do
      local wok, refused = pcall(why, alt)
      if wok and refused == nil then
        return M.guarded(apply, alt)
      end
    end
  end
  return ok, res, e
end

-- Lets the bots (sess.bots, seat -> bot) decide while it is their turn:
-- deciders() gives the seats deciding and the decision, move(seat, bot)
-- makes the bot's move (or fails: ok, error). Returns the number of steps.
function M.run_bots(bots, deciders, move)
  local steps = 0
  while steps < 100000 do
    local seats, d = deciders()
    if d.kind ~= "player" and d.kind ~= "simultaneous" and d.kind ~= "orders" then break end
    local moved = false
    for _, s in ipairs(seats) do
      local b = bots[s]
      if b then
        local ok, e = move(s, b)
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

---------------------------------------------------------------------------
-- Moves, log, result
---------------------------------------------------------------------------

-- "Ann: buy dock; Bob: pass" for a list of { seat, text }.
function M.moves_text(sess, list)
  local parts = {}
  for i, m in ipairs(list) do parts[i] = sess:name(m[1]) .. ": " .. m[2] end
  return table.concat(parts, "; ")
end

-- Whether `form` ("slot 4") stands in `s` as words of their own: no
-- letter before it, and its number does not go on (no digit after, no
-- ",5" of a list).
local function says(s, form)
  local at = 1
  while true do
    local a, b = s:find(form, at, true)
    if not a then return false end
    local before, after = s:sub(a - 1, a - 1), s:sub(b + 1, b + 2)
    if not before:match("%a") and not after:match("^%d") and not after:match("^,%d") then return true end
    at = a + 1
  end
end

-- The move `text` in the log's words, as to number: a word before one
-- number ("slots 4") takes the number the log lines the move wrote
-- (`lines`) give it ("slot 4"), where they hold that form and not the
-- move's own. Sea Merchants' move reads "play grain on slots 4" (the
-- option's text, whatever the count), its log line "Player 2 plays grain
-- on slot 4": one slot, singular; "slots 1,4", plural, in both. A text
-- the log does not say otherwise (Caribbean's "Trades 1") stays.
function M.log_number(text, lines)
  if not lines or #lines == 0 then return text end
  local all = table.concat(lines, "\n")
  return (text:gsub("%f[%a](%a+) (%d+)(,?%d?)", function(w, n, after)
    if after:match("^,%d") then return nil end   -- a list: the plural's
    local alt = (w:sub(-1) == "s" and w:sub(1, -2) or w .. "s") .. " " .. n
    if says(all, alt) and not says(all, w .. " " .. n) then return alt .. after end
    return nil
  end))
end

-- After an undo of the moves `undone` ({ seat, text }): what went, in the
-- words of `lines`, the log lines they wrote (M.log_number), and who
-- decides now.
function M.say_undone(sess, undone, note, lines)
  local worded = {}
  for i, m in ipairs(undone) do worded[i] = { m[1], M.log_number(m[2], lines) } end
  sess:say(string.format("Undid %d move%s%s: %s", #undone, #undone == 1 and "" or "s", note or "",
    M.moves_text(sess, worded)))
  sess:say(sess:status())
end

-- The lines of `before` (a log) past the first `n`: those an undo took.
function M.lines_after(before, n)
  return table.move(before, n + 1, #before, 1, {})
end

-- What `undo N` or `redo N` says when fewer than N were there: "" when
-- all were, else " (only 2 were there to redo)" (`whose`: " of your
-- moves" when N counts a person's moves, with bots).
function M.fewer(asked, got, verb, whose)
  if got >= asked then return "" end
  return string.format(" (only %d%s %s there to %s)", got, whose or "", got == 1 and "was" or "were", verb)
end

-- After taking back `k` steps (`texts`) of `seat`'s secret order.
function M.say_order_taken(sess, seat, k, texts, note)
  sess:say(string.format("Took back %d step%s of %s's order%s: %s", k, k == 1 and "" or "s", sess:name(seat), note or "",
    table.concat(texts, "; ")))
  sess:say(sess:status())
end

-- The moves so far (texts "seat: text"), numbered, with the seats' names.
function M.print_moves(sess, list)
  if #list == 0 then return sess:say("No moves yet.") end
  local w = #tostring(#list)
  for i, m in ipairs(list) do
    local seat, text = m:match("^(%w+): (.*)$")
    sess:say(string.format("%" .. w .. "d  %s: %s", i, sess:name(tonumber(seat) or seat), text))
  end
end

-- The log lines after the first n0; returns how many there are.
function M.print_log_from(sess, lines, n0)
  for i = n0 + 1, #lines do sess:say(ktext.escape(lines[i])) end
  return #lines
end

-- `log [N]`: the log, or its last N lines.
function M.print_log(sess, lines, arg)
  local first = 1
  if arg ~= "" then
    local n = M.count_arg(sess, arg, "log"); if not n then return end
    first = math.max(1, #lines - n + 1)
  end
  if #lines == 0 then return sess:say("The log is empty.") end
  for i = first, #lines do sess:say(ktext.escape(lines[i])) end
end

-- The final scores (the result r: scores, winners) of `players` seats,
-- the winners, why they won (or nil) and the seed (or nil); `again` says
-- how to play the deal again (a format of the seed; default the REPL's
-- "new seed=%d plays this deal again").
function M.print_result(sess, r, players, why, seed, again)
  local win = {}
  for _, s in ipairs(r.winners) do win[s] = true end
  -- (names padded by letters, not bytes: "Zoë" takes 3 columns)
  local function len(t) return utf8.len(t) or #t end
  local w = 0
  for s = 1, players do w = math.max(w, len(sess:name(s))) end
  sess:say(sess:c("bold", "Game over.") .. " Final scores:")
  for s = 1, players do
    local name = sess:name(s)
    local line = string.format("  %s%s  %4s", name, string.rep(" ", w - len(name)), tostring(r.scores[s]))
    if win[s] then line = line .. "  " .. sess:c("green", "winner") end
    sess:say(line)
  end
  local names = {}
  for i, s in ipairs(r.winners) do names[i] = sess:name(s) end
  -- (a game may end with nobody able to win: Caribbean's C9)
  if #names == 0 then sess:say("No winner.")
  else sess:say((#names == 1 and "Winner: " or "Winners: ") .. table.concat(names, ", ")) end
  if why then sess:say("Why: ", why) end
  -- the seed, so the same deal can be played again
  if seed then
    sess:say(string.format("Seed %d (%s).", seed, string.format(again or "new seed=%d plays this deal again", seed)))
  end
end

---------------------------------------------------------------------------
-- "Did you mean", completion
---------------------------------------------------------------------------

-- The edit distance of a and b (99 when their lengths differ by more
-- than 2): kontor.text's, which the API's "did you mean" uses too.
M.distance = ktext.distance

-- What `save FILE` of one seat adds while the game is on: the file leaves
-- out the deal, which the seat may not see yet (kontor.save), so it is a
-- record of the moves that does not load (one saved after the end does).
function M.record_note(over)
  if over then return "" end
  return " It holds no deal, which that seat may not see yet: a record of the moves, not a game to go on with."
end

-- "did you mean `board`?": the word of `lists` (lists of words, tried in
-- order: on a tie the earlier wins) closest to `word`, or nil.
function M.suggest(word, lists)
  if #word < 3 or #word > 64 then return nil end   -- (no command is that long)
  local best, bestd = nil, 3
  local most = math.max(1, #word // 3)
  for _, list in ipairs(lists) do
    for _, c in ipairs(list) do
      local d = M.distance(word:lower(), c:lower(), most)
      if d <= most then
        if c:lower():sub(1, #word) == word:lower() then d = d - 0.5 end   -- a prefix: likelier
        if d < bestd then best, bestd = c, d end
      end
    end
  end
  return best
end

-- A list that takes each text once: out, and add(text).
function M.adder()
  local out, set = {}, {}
  return out, function(s) if not set[s] then set[s] = true; out[#out + 1] = s end end
end

-- TAB on an action: for each of `opts` that starts with the typed `body`,
-- in any letter case as an action is taken (kontor.game.parse's fold),
-- the word being completed (`text`, the end of `body`) in the option's own
-- spelling and the rest of the option's word: "LOAD gr" and "load GR"
-- complete to "grain", "Lo" to "load".
local fold = require("kontor.game.parse").fold

function M.complete_options(add, opts, body, text)
  local fbody = fold(body)
  local k = math.min(#text, #body)   -- the part of `text` typed in `body`
  for _, o in ipairs(opts) do
    if fold(o:sub(1, #body)) == fbody then
      add(text:sub(1, #text - k) .. o:sub(#body - k + 1, #body) .. o:sub(#body + 1):match("^[^ ]*"))
    end
  end
end

-- TAB on a line's first word: the first word of each of `opts` that
-- starts with `text`, in any letter case, as the option spells it.
function M.complete_option_words(add, opts, text)
  local ftext = fold(text)
  for _, o in ipairs(opts) do
    local w = o:match("^%S+")
    if w and fold(w:sub(1, #text)) == ftext then add(w) end
  end
end

-- File names for `load`, `save`, `replay` (play's `save`): the entries of
-- the folder being typed that start with what is typed (folders end with /).
function M.complete_file(partial)
  local fs = core.fs
  local dir, base = partial:match("^(.*/)([^/]*)$")
  if not dir then dir, base = "", partial end
  local out = {}
  for _, f in ipairs(fs.list(dir == "" and "." or dir) or {}) do
    if f:sub(1, #base) == base and (base ~= "" or f:sub(1, 1) ~= ".") then
      local st = fs.stat((dir == "" and "./" or dir) .. f)
      out[#out + 1] = dir .. f .. (st and st.type == "directory" and "/" or "")
    end
  end
  return out
end

-- A word for the shell: as it is when it is plain, else in single quotes.
function M.shell_word(s)
  if s:match("^[%w_%-%.,:=/+]+$") then return s end
  return "'" .. s:gsub("'", "'\\''") .. "'"
end

-- " --bot 2=greedy --bot 3=mcts:iterations=200": the seats' bots as they
-- were given ({ [seat] = kind }), for the command that goes on with a
-- saved game (the save file does not say who was a bot; without them
-- every seat is a person).
function M.bot_flags(bots)
  local seats = {}
  for s in pairs(bots or {}) do seats[#seats + 1] = s end
  table.sort(seats)
  local out = {}
  for i, s in ipairs(seats) do out[i] = " --bot " .. M.shell_word(s .. "=" .. bots[s]) end
  return table.concat(out)
end

-- `s` cut to its first `n` characters (not inside one), "..." after
-- when it was longer: a pasted line in a message stays one line.
function M.clip(s, n)
  local len = utf8.len(s)
  if not len then
    if #s <= n then return s end
    return s:sub(1, n) .. "..."
  end
  if len <= n then return s end
  return s:sub(1, utf8.offset(s, n + 1) - 1) .. "..."
end

-- The warnings for bots seated at `game` (a list of { who = "--bot
-- 2=greedy", spec = "greedy:avoid=by contract" }): each restriction
-- (avoid=, prefer=) that matches no option of the game's setup
-- (kontor.balance.restrictions.for_game); and each decision a constraint
-- of the rule set names that the game never asks (a typo: the constraint
-- would change nothing). Without a restriction or a constraint the
-- check's modules are not even loaded.
function M.restriction_warnings(game, seated)
  local any = false
  for _, b in ipairs(seated) do
    any = any or b.spec:find("avoid", 1, true) ~= nil or b.spec:find("prefer", 1, true) ~= nil
  end
  local cons = type(game.R) == "table" and rawget(game.R, "constraints")
  any = any or (type(cons) == "table" and rawlen(cons) > 0)
  if not any then return {} end
  return require("kontor.balance.restrictions").for_game(game, seated)
end

-- `bots` ({ [seat] = spec }) as restriction_warnings takes them, each
-- called `prefix` SEAT=KIND ("--bot 2=greedy").
function M.seated(bots, prefix)
  local seats, out = {}, {}
  for s in pairs(bots or {}) do seats[#seats + 1] = s end
  table.sort(seats)
  for _, s in ipairs(seats) do
    local spec = bots[s]
    out[#out + 1] = { who = string.format("%s%d=%s", prefix, s, spec:match("^%s*([%w_]+)") or spec), spec = spec }
  end
  return out
end

-- TAB on a first word: the command names that start with `text`.
function M.complete_commands(add, names, text)
  for _, c in ipairs(names) do if c:sub(1, #text) == text then add(c) end end
end

return M
