-- kontor.text: text that comes from rule scripts, variants, saves or
-- players, made safe to print at a terminal; small helpers for messages.
--
-- Terminal control sequences in such text could retitle the window, write
-- the clipboard (OSC 52) or clear the screen under a fake prompt. Every
-- front end passes what it prints through text.escape: control characters
-- (C0, DEL, C1) and bytes that are not UTF-8 show as visible escapes: ESC as
-- \e, BEL as \a, others as \xNN. So do the invisible format characters
-- that reorder or hide text (the bidirectional overrides and isolates,
-- U+202A-202E and U+2066-2069, the direction marks, zero-width spaces and
-- the byte-order mark), as \u{202E}: a name or a log line with them could
-- show another text than it holds ("Trojan Source"). Printable text,
-- including any UTF-8 letter and the joiners emoji and some scripts need
-- (U+200C, U+200D), is unchanged.

local M = {}

local NAMED = { ["\27"] = "\\e", ["\7"] = "\\a", ["\8"] = "\\b", ["\r"] = "\\r",
                ["\f"] = "\\f", ["\v"] = "\\v", ["\0"] = "\\0", ["\n"] = "\\n", ["\t"] = "\\t" }

local function byte_escape(c)
  return NAMED[c] or string.format("\\x%02X", c:byte())
end

-- The UTF-8 sequence at i of s: its length and code point, or nil when it
-- is not valid UTF-8 or is a C1 control (U+0080..U+009F).
local function utf8_len(s, i)
  local c = s:byte(i)
  local n, min
  if c >= 0xC2 and c <= 0xDF then n, min = 2, 0x80
  elseif c >= 0xE0 and c <= 0xEF then n, min = 3, 0x800
  elseif c >= 0xF0 and c <= 0xF4 then n, min = 4, 0x10000
  else return nil end
  local cp = c & (0x3F >> (n - 1))
  for j = 1, n - 1 do
    local d = s:byte(i + j)
    if not d or d < 0x80 or d > 0xBF then return nil end
    cp = (cp << 6) | (d & 0x3F)
  end
  if cp < min or cp > 0x10FFFF or (cp >= 0xD800 and cp <= 0xDFFF) then return nil end
  if cp >= 0x80 and cp <= 0x9F then return nil end
  return n, cp
end

-- The format characters that reorder or hide text (see the top).
local function hidden(cp)
  return cp == 0x061C or cp == 0x200B or cp == 0x200E or cp == 0x200F or (cp >= 0x202A and cp <= 0x202E)
    or (cp >= 0x2060 and cp <= 0x2064) or (cp >= 0x2066 and cp <= 0x2069) or cp == 0xFEFF
end

local function hex(c) return string.format("\\x%02X", c:byte()) end

-- A byte >= 0x80 and up to three continuation bytes after it: the UTF-8
-- character they start kept, every other byte (an invalid or C1 lead, a
-- stray continuation byte) as \xNN.
local function high(m)
  local len, cp = utf8_len(m, 1)
  local first = len and (hidden(cp) and string.format("\\u{%04X}", cp) or m:sub(1, len))
  if len == #m then return first ~= m and first or nil end
  if len then return first .. m:sub(len + 1):gsub(".", hex) end
  return (m:gsub(".", hex))
end

-- s with control characters and invalid bytes escaped. With `lines`, line
-- breaks and tabs stay (for multi-line text such as a board); without it
-- the result is one line. Non-strings are converted with tostring first.
-- gsub builds the result in one buffer: a 40 MiB line of control
-- characters needs its result's memory, not a table of pieces.
function M.escape(s, lines)
  if type(s) ~= "string" then s = tostring(s) end
  local ctl = lines and "[%z\1-\8\11-\31\127]" or "[%z\1-\31\127]"
  if not s:find(ctl) and not s:find("[\128-\255]") then return s end
  s = s:gsub(ctl, byte_escape)
  -- a character is a lead byte and at most three continuation bytes: each
  -- match is short, whatever the text (no table of pieces)
  return (s:gsub("[\128-\255][\128-\191]?[\128-\191]?[\128-\191]?", high))
end

-- The one sink. What the program prints goes through `write`: every piece
-- is escaped (line breaks and tabs kept), except the program's own control
-- sequences (colours, the progress bar), made with `raw` or `style`. A
-- Raw concatenated with text escapes the text: `raw("\27[1m") .. name`.
local Raw = {}
Raw.__index = Raw
local function raw(s) return setmetatable({ s = s }, Raw) end
M.raw = raw

function M.is_raw(v) return getmetatable(v) == Raw end

-- A piece as it is written: raw as it is, anything else escaped.
local function piece(v)
  if getmetatable(v) == Raw then return v.s end
  return M.escape(v, true)
end
M.piece = piece
Raw.__concat = function(a, b) return raw(piece(a) .. piece(b)) end
Raw.__tostring = function(r) return r.s end

-- s (escaped) in the SGR colour `code` ("31" red, "1" bold ...).
function M.style(code, s)
  return raw("\27[" .. code .. "m" .. piece(s) .. "\27[0m")
end

-- The first error a write met, per file handle: a full disk, a closed pipe.
M.errors = setmetatable({}, { __mode = "k" })

-- Writes the pieces to the file handle `fh` (io.stdout, io.stderr),
-- escaped. Returns true, or nil and the error (kept in M.errors[fh]).
function M.write(fh, ...)
  local n = select("#", ...)
  local parts = {}
  for i = 1, n do parts[i] = piece((select(i, ...))) end
  local ok, err = fh:write(table.concat(parts))
  if not ok then
    M.errors[fh] = M.errors[fh] or tostring(err)
    return nil, err
  end
  return true
end

-- Flushes fh: true, or nil and the first error any write to it met.
function M.finish(fh)
  local ok, err = fh:flush()
  local first = M.errors[fh]
  if first then return nil, first end
  if not ok then return nil, tostring(err) end
  return true
end

-- s without the white space (%s) at its two ends, in time linear in #s.
-- (s:match("^%s*(.-)%s*$") tries its closing %s*$ at every byte of a run
-- of spaces inside s: "load", 30,000 spaces and "x" took 5 s, and a
-- serve request of 1 MiB would have taken hours; red team 6.)
function M.trim(s)
  local i = s:find("%S")
  if not i then return "" end
  return s:sub(i, #s + 1 - s:reverse():find("%S"))
end

-- Whether s holds a character escape would change (in one-line mode).
function M.has_control(s)
  return M.escape(s) ~= s
end

-- The edit distance of a and b (letters inserted, deleted or changed, and
-- two letters next to each other swapped: "baord" is one from "board"),
-- or 99 when their lengths differ by more than 2: for "did you mean".
-- With `limit`, a distance above it may come back as limit + 1: only the
-- cells within `limit` of the diagonal are worked out (those farther hold
-- more), and the rows stop once two in a row are all above it. Every
-- field of a rule set is checked against the engine's names as it loads
-- (rules.lua): 135 pairs as the REPL starts. The bytes are read by one
-- call of string.byte a string (guarded, sandbox.lua: a protected call
-- each), not two a cell.
local byte = string.byte
local FAR = 1 << 30
local ROW1, ROW2, ROW3 = {}, {}, {}      -- (the rows, reused: each cell read is written first)
local REUSED = 256                      -- (longer texts get rows of their own, which go with
                                        -- the call: kept, they held 16 bytes a letter of the
                                        -- longest text ever compared, 12 MiB after a script's
                                        -- R.data[200,000 letters] was missed)
-- The bytes of s (n long) in a list, 4096 a call of string.byte: one call
-- for the whole text needs a stack slot a byte, and stops at about a
-- million ("string slice too long").
local function bytes_of(s, n)
  if n <= 4096 then return { byte(s, 1, n) } end
  local t = {}
  for i = 1, n, 4096 do
    local k = i + 4095 < n and i + 4095 or n
    table.move({ byte(s, i, k) }, 1, k - i + 1, i, t)
  end
  return t
end
-- The letters of a text as bits (byte % 64: two letters may share one),
-- kept for the texts compared before (at most 512 of them, then anew).
local MASKS, masks = {}, 0
local function mask_of(s)
  local m = MASKS[s]
  if m then return m end
  m = 0
  local bs = { byte(s, 1, #s) }
  for i = 1, #bs do m = m | (1 << (bs[i] & 63)) end
  if masks >= 512 then MASKS, masks = {}, 0 end
  MASKS[s], masks = m, masks + 1
  return m
end
M.letters = mask_of

-- Whether mask m has more than n bits.
local function more_bits(m, n)
  for _ = 1, n do
    if m == 0 then return false end
    m = m & (m - 1)
  end
  return m ~= 0
end
function M.distance(a, b, limit)
  local la, lb = #a, #b
  if la - lb > 2 or lb - la > 2 then return 99 end
  if limit then
    if la - lb > limit or lb - la > limit then return limit + 1 end
    -- each letter of one that the other lacks takes an edit
    if la <= 64 and lb <= 64 then
      local ma, mb = mask_of(a), mask_of(b)
      if more_bits(ma & ~mb, limit) or more_bits(mb & ~ma, limit) then return limit + 1 end
    end
  end
  local band = limit or (la > lb and la or lb)
  local A, B = bytes_of(a, la), bytes_of(b, lb)
  local before, prev, cur = ROW1, ROW2, ROW3
  if lb > REUSED then before, prev, cur = {}, {}, {} end
  for j = 0, lb do prev[j] = j end
  local a1, prev_min = nil, 0          -- a's byte before, the least of the row before
  for i = 1, la do
    local ai = A[i]
    local lo, hi = i - band, i + band
    if lo < 1 then lo = 1 end
    if hi > lb then hi = lb end
    cur[lo - 1] = lo == 1 and i or FAR
    local row_min = lo == 1 and i or FAR
    local b1 = B[lo - 1]
    for j = lo, hi do
      local bj = B[j]
      local d = prev[j - 1] + (ai == bj and 0 or 1)
      local x = prev[j] + 1
      if x < d then d = x end
      x = cur[j - 1] + 1
      if x < d then d = x end
      if b1 == ai and a1 == bj then      -- two letters swapped
        x = before[j - 2] + 1
        if x < d then d = x end
      end
      cur[j] = d
      if d < row_min then row_min = d end
      b1 = bj
    end
    if hi < lb then cur[hi + 1] = FAR end
    if limit and row_min > limit and prev_min > limit then return limit + 1 end
    before, prev, cur = prev, cur, before
    a1, prev_min = ai, row_min
  end
  local d = prev[lb]
  if limit and d > limit then return limit + 1 end
  return d
end

-- Option texts alike: a run of texts that differ only in a number at
-- their end, counting up by one ("bid 0", "bid 1", ... "bid 23"), reads
-- as one ("bid 0-23") when it has RUN_MIN texts or more: in play's and the
-- REPL's option list (repl/ui.lua) and in the engine's refusal of a move
-- (game/parse.lua) alike. Old World's bids at 23 gold were 24 of them.
M.RUN_MIN = 4

-- The last text of the run that starts at texts[i] (i itself when none),
-- the run's words before the number and its first number. `stop`, a text
-- that ends a move, is in no run.
-- A number written otherwise than Lua writes it back ("007", a number past
-- 2^63) starts no run, and a run stops before the integers wrap: the range
-- would name options there are not ("bid 7-10" for "bid 007", "bid 8", ...).
function M.run_end(texts, i, stop)
  local prefix, digits = texts[i]:match("^(.-%s)(%d+)$")
  if not prefix or texts[i] == stop then return i, nil end
  local n = math.tointeger(tonumber(digits))
  if not n or tostring(n) ~= digits then return i, nil end
  local j = i
  while texts[j + 1] and texts[j + 1] ~= stop and n + (j + 1 - i) > n
      and texts[j + 1] == prefix .. (n + (j + 1 - i)) do
    j = j + 1
  end
  return j, prefix, n
end

-- The texts for a message, runs of RUN_MIN or more as ranges: "bid 0-23",
-- "load grain on ship 1, load grain on ship 2, pass". With `max`, the first
-- `max` entries (a range is one) and ", ... (N in all)" counting texts.
function M.option_list(texts, max)
  local parts, i, shown = {}, 1, 0
  while texts[i] do
    if max and #parts == max then break end
    local j, prefix, n = M.run_end(texts, i)
    if j - i + 1 >= M.RUN_MIN then
      parts[#parts + 1] = prefix .. n .. "-" .. (n + j - i)
    else
      j = i
      parts[#parts + 1] = texts[i]
    end
    shown, i = j, j + 1
  end
  local s = table.concat(parts, ", ")
  if shown < #texts then s = s .. string.format(", ... (%d in all)", #texts) end
  return s
end

-- A decision's name in plain words: `words` (the rule set's
-- R.decision_words[name]) when it is a text, else the name with its _ and
-- digits spaced ("phase1" -> "phase 1", "take_other" -> "take other"). The
-- one wording of play's and the REPL's status lines and of the engine's
-- refusal of a move at another seat's turn.
function M.decision_words(name, words)
  if type(name) ~= "string" then return tostring(name) end
  if type(words) == "string" then return words end
  return (name:gsub("_", " "):gsub("(%a)(%d)", "%1 %2"):gsub("(%d)(%a)", "%1 %2"))
end

-- "1 coin", "2 coins"; `plural` defaults to word .. "s".
function M.count(n, word, plural)
  return string.format("%d %s", n, n == 1 and word or (plural or word .. "s"))
end

-- The first line of an error message (an error value's too), with the
-- engine's own frames out: what a person needs is the file:line in their
-- script and the message. Ctrl-C's error value (kind "interrupt") is
-- "interrupted", with no internal path.
function M.error_line(msg)
  return (tostring(msg):match("^[^\n]*"))
end

-- The first line, and where a rule script was when the line names no
-- place: an error Lua raises in C ("attempt to index a nil value" from
-- ipairs(nil)'s iterator) or a limit has none, and a one-line message
-- (sim, the lab, a rule set that fails to load) would lose the file:line
-- its traceback holds. "attempt to index a nil value, in ./r.lua:5". A
-- message raised with error(text, 0) stays as the script wrote it.
function M.error_place(msg)
  local s = tostring(msg)
  local first = M.error_line(s)
  -- ("x:5:" somewhere: one letter before the colon is enough to say so,
  -- and is found in one pass; "[^%s:]+:%d+:" ran each run of letters to
  -- its end from each of its letters: a serve request naming a rule set
  -- of 1 MB held the server for hours)
  if first:find("[^%s:]:%d+:") then return first end
  local tb = s:match("\nstack traceback:\n(.*)$") or ""
  -- error(text, 0): a message a script chose to give without a place
  if tb:match("^%s*%[C%]: in function 'error'") then return first end
  for line in tb:gmatch("[^\n]+") do
    local at = line:match("^%s*([^%s:]+:%d+):")
    if at and not at:match("kontor/[%w_/]+%.lua:%d+$") and not at:match("repl/[%w_]+%.lua:%d+$") then
      return first .. ", in " .. at
    end
  end
  return first
end

return M
