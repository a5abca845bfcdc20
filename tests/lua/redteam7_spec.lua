-- redteam7_spec.lua - the seventh red-team pass (docs/security.md, "Red team
-- 7"), on what the session before it added: the shipped rule scripts
-- compiled at build time, kontor.text.distance's band and rules.near, the
-- designers' new hooks, the REPL's `as N` and reload, play's hot seat. The
-- first describes are holes it found, each failing on the code before its
-- fix; the last pin what was tried and held.
-- Run: build/kontor run tests/busted.lua tests/lua/redteam7_spec.lua
local support = require "tests.lua.support"

local write = support.write
local tmp, cleanup = support.scratch()
teardown(cleanup)

-- repl/chunks.h's kn_chunk_hash, in Lua (its integers wrap as C's do).
local P = 0x100000001b3
local function chunk_hash(s)
  local n = #s
  local h = 0xcbf29ce484222325 ~ n
  local i = 1
  while i + 7 <= n do
    h = (h ~ string.unpack("<i8", s, i)) * P
    h = h ~ (h >> 31)
    i = i + 8
  end
  while i <= n do h = (h ~ s:byte(i)) * P; i = i + 1 end
  return h ~ (h >> 29)
end

-- A text of `target`'s length and hash that begins with `body`: each step
-- of the hash can be undone, so a word at the end of a comment is solved
-- for, the word before it tried until the solution is letters.
local function forge(target, body)
  local inv = P
  for _ = 1, 6 do inv = inv * (2 - P * inv) end
  local function unshift(y, k) local x = y for _ = 1, 64 // k do x = y ~ (x >> k) end return x end
  local n, H = #target, chunk_hash(target)
  local post = "]==]\n"
  local pre = body .. "--[==["
  pre = pre .. string.rep(" ", (8 - #pre % 8) % 8)
  local fill = n - #pre - 16 - #post
  post = string.rep(" ", fill % 8) .. post
  pre = pre .. string.rep(" ", fill - fill % 8)
  local h0 = 0xcbf29ce484222325 ~ n
  for i = 1, #pre, 8 do h0 = (h0 ~ string.unpack("<i8", pre, i)) * P; h0 = h0 ~ (h0 >> 31) end
  local t = unshift(H, 29)
  local whole = #post // 8 * 8
  for i = #post, whole + 1, -1 do t = (t * inv) ~ post:byte(i) end
  for i = whole - 7, 1, -8 do t = unshift(t, 31) * inv ~ string.unpack("<i8", post, i) end
  local need = unshift(t, 31) * inv
  for nonce = 1, 1e7 do
    local try = string.format("%08d", nonce)
    local h = (h0 ~ string.unpack("<i8", try)) * P
    h = h ~ (h >> 31)
    local w = string.pack("<i8", need ~ h)
    if w:match("^[%w ]+$") then
      local out = pre .. try .. w .. post
      assert(#out == n and chunk_hash(out) == H)
      return out
    end
  end
end

describe("a rule script forged to the hash of a shipped one", function()
  -- sandbox.load took the chunk compiled from variants/sea_merchants.lua
  -- for any text of its length and kn_chunk_hash, a hash made for speed:
  -- each of its steps can be undone, so a text of one's own with that hash
  -- takes a few thousand tries of one comment. The file below is a rule
  -- set of one move; kontor played Sea Merchants from it, where the lua5.4
  -- module (and any reader of the file) sees the file's own rules.
  it("is compiled from its own text", function()
    local body = "local R = { name = 'forged', title = 'Forged', summary = 'mine', "
      .. "players = { min = 2, max = 2, default = 2 } }\n"
      .. "function R.setup(g) end\n"
      .. "function R.play(g) g:choose(1, 'x', { 'mine' }) end\n"
      .. "function R.scores(g) return { 0, 0 } end\nreturn R\n"
    local shipped = support.read("variants/sea_merchants.lua")
    local text = forge(shipped, body)
    assert.are.equal(#shipped, #text)
    assert.are.equal(chunk_hash(shipped), chunk_hash(text))
    local f = write(tmp("forged.lua"), text)
    local g = kontor.new_game { rules = f, seed = 1 }
    -- (before: Sea Merchants, `load grain on ship 1` and 9 more)
    assert.are.same({ "mine" }, g:options())
  end)
end)

describe("a rule set whose R.data holds a long list of tables", function()
  -- The misspelt-field check of a list entry gathered the fields of every
  -- sister entry anew for each entry: a list of n entries cost n * n, in
  -- the engine's own code, out of the time limit's reach, on every load
  -- with a variant, even one that changes nothing (4,000 entries: 6.2 s;
  -- 8,000: 41.6 s; a rule set of 100,000 held a server for hours).
  it("loads with a variant in time linear in the list", function()
    local f = write(tmp("biglist.lua"), "local R = { name = 'biglist', title = 'T', summary = 's', "
      .. "players = { min = 2, max = 2, default = 2 } }\n"
      .. "R.data = { list = {} }\n"
      .. "for i = 1, 4000 do R.data.list[i] = { a = 1, ['f' .. i] = 2 } end\n"
      .. "function R.setup(g) end\n"
      .. "function R.play(g) g:choose(1, 'x', { 'a' }) end\n"
      .. "function R.scores(g) return { 0, 0 } end\nreturn R\n")
    local v = write(tmp("nothing.lua"), "return { variant = true, name = 'nothing', title = 'N', summary = 'n' }\n")
    local t = os.clock()
    local g = kontor.new_game { rules = f, variants = { v }, seed = 1 }
    assert.are.same({ "a" }, g:options())
    -- (before: 6.2 s)
    assert.is_true(os.clock() - t < 1, tostring(os.clock() - t))
    -- and a misspelt field of an entry is still named, from its sisters'
    local typo = write(tmp("typo.lua"), "return { variant = true, name = 'typo', title = 'T', summary = 't',\n"
      .. "  apply = function(R)\n    local e = R.data.list[7]\n    e.f12 = nil; e.f1e = 3\n  end }\n")
    local ok, e = pcall(kontor.new_game, { rules = f, variants = { typo }, seed = 1 })
    assert.is_false(ok)
    assert.truthy(support.has(tostring(e.message or e), "R.data.list[7].f1e is not in the data of biglist"), tostring(e.message or e))
  end)
end)

describe("kontor.text.distance of long texts", function()
  local text = require "kontor.text"
  -- The banded distance read each text's bytes with one call of
  -- string.byte (a stack slot a byte: a text of about a million bytes
  -- failed with "stack overflow (string slice too long)" at text.lua's
  -- own line, in a rule set's load or a script's read of R.data), and kept
  -- its rows for the next call: after one comparison of 200,000 letters
  -- (a script that misses R.data[its 200,000-letter key .. "b"]) the
  -- interpreter stayed 12 MiB fuller for every later game.
  it("compares a million letters, and keeps nothing of them", function()
    local a = string.rep("a", 1000000)
    -- (before: stack overflow (string slice too long))
    assert.are.equal(1, text.distance(a, a .. "b", 2))
    local k = string.rep("k", 200000)
    collectgarbage(); collectgarbage()
    local before = collectgarbage("count")
    assert.are.equal(1, text.distance(k, k .. "x", 2))
    collectgarbage(); collectgarbage()
    -- (before: 12,288 KiB more)
    assert.is_true(collectgarbage("count") - before < 64, tostring(collectgarbage("count") - before))
    -- the short ones still find the near name
    assert.are.equal(1, text.distance("baord", "board", 2))
    assert.are.equal(3, text.distance("abc", "xyz", 2))
  end)
end)

describe("Caribbean: a typo with a run of spaces at a take", function()
  -- The reason for a card typed by its board name (6a19cb7) read the name
  -- with "^%a+%s+(.-)%s*$", whose closing "%s*$" is tried at each byte:
  -- the sandbox's bound on matching steps refused it, so a player who
  -- typed 'loot x', 60 spaces, 'y' (129 bytes) was told "R.explain.take
  -- failed: .../variants/caribbean.lua:1328: pattern too complex for a
  -- subject of 129 bytes ...": the rule file's error, and the server's
  -- path, for a typo.
  it("is told there is no such card, as for any other typo", function()
    local g = kontor.new_game { rules = "caribbean", players = 3, seed = 1 }
    for _ = 1, 9 do local o = g:options(); g:apply(o[#o > 1 and 2 or 1]) end
    assert.are.same({ "hire Trader Pinnace 3/1", "take nothing" }, g:options())
    local list = "; expected one of: hire Trader Pinnace 3/1, take nothing"
    for _, n in ipairs { 60, 100000 } do
      local typo = "loot x" .. string.rep(" ", n) .. "y"
      local ok, err = g:apply(typo)
      assert.is_nil(ok)
      -- (before: R.explain.take failed: ...caribbean.lua:1328: pattern too complex ...)
      assert.are.equal("'" .. typo .. "' is not a legal action: no such card in the harbour" .. list, tostring(err))
    end
    -- the board's name, with spaces around it, still gets its move
    assert.are.equal("'loot   trader pinnace 3/1' is not a legal action: the Trader Pinnace 3/1 is a person: "
      .. "it is hired, with 'hire Trader Pinnace 3/1'" .. list, g:why("loot   trader pinnace 3/1  "))
    assert.are.equal(0, #g:actions() - 9)
  end)
end)

describe("R.prepare's refusal said at the variant's line", function()
  -- To find the variant's line (054b1bf), every R.data.NAME the message
  -- gave was looked for in each variant's every line, twice, in the
  -- engine's own code, out of the time limit's reach: a rule set whose
  -- R.prepare names 400 fields, with a variant of 500,000 lines, held the
  -- program 108 s of CPU (2 min 33 s of wall clock) on every load.
  it("looks for at most 4 names", function()
    local f = write(tmp("prep.lua"), "local R = { name = 'prep', title = 'T', summary = 's', "
      .. "players = { min = 2, max = 2, default = 2 } }\n"
      .. "R.data = { x = 1 }\n"
      .. "function R.prepare()\n"
      .. "  if R.data.x ~= 1 then\n"
      .. "    local t = {}\n"
      .. "    for i = 1, 400 do t[i] = 'R.data.f' .. i end\n"
      .. "    error(table.concat(t, ' '), 0)\n"
      .. "  end\n"
      .. "end\n"
      .. "function R.setup(g) end\n"
      .. "function R.play(g) g:choose(1, 'x', { 'a' }) end\n"
      .. "function R.scores(g) return { 0, 0 } end\nreturn R\n")
    local v = write(tmp("pv.lua"), "return { variant = true, name = 'pv', title = 'V', summary = 'v',\n"
      .. "  apply = function(R) R.data.x = 2 end }\n" .. string.rep("\n", 100000))
    local t = os.clock()
    local ok, e = pcall(kontor.new_game, { rules = f, variants = { v }, seed = 1 })
    assert.is_false(ok)
    -- (before: 20 s and more)
    assert.is_true(os.clock() - t < 2, tostring(os.clock() - t))
    assert.truthy(support.has(tostring(e.message or e), "R.prepare failed after the variants: R.data.f1 R.data.f2"),
      tostring(e.message or e):sub(1, 200))
  end)
end)

describe("a variant that adds a name of its own to each entry of a long list", function()
  -- Each name a variant added was compared with every field of the
  -- list's entries and looked for in the variant's text, out of the time
  -- limit's reach: 10,000 entries each given a new field took 4.8 s of
  -- CPU, 100,000 about 8 minutes. The check now stops after 2,000,000
  -- comparisons: so many new names are the variant's data, not a typo.
  it("loads in a bounded time", function()
    local f = write(tmp("bl.lua"), "local R = { name = 'bl', title = 'T', summary = 's', "
      .. "players = { min = 2, max = 2, default = 2 } }\n"
      .. "R.data = { list = {} }\n"
      .. "for i = 1, 10000 do R.data.list[i] = { ['f' .. i] = 1 } end\n"
      .. "function R.setup(g) end\n"
      .. "function R.play(g) g:choose(1, 'x', { 'a' }) end\n"
      .. "function R.scores(g) return { 0, 0 } end\nreturn R\n")
    local v = write(tmp("blv.lua"), "return { variant = true, name = 'blv', title = 'V', summary = 'v', apply = "
      .. "function(R) for i, e in ipairs(R.data.list) do e['zzzzzzzz' .. i] = 1 end end }\n")
    local t = os.clock()
    local g = kontor.new_game { rules = f, variants = { v }, seed = 1 }
    assert.are.same({ "a" }, g:options())
    -- (before: 4.8 s)
    assert.is_true(os.clock() - t < 1.5, tostring(os.clock() - t))
  end)
end)

describe("--bot KIND alone with a bad option", function()
  -- `--bot greedy:lead=2` seats greedy on every seat (2baf2d4); its
  -- refusal named a --bot the person never typed: "--bot 1=greedy:
  -- greedy option lead=2: expected 0..1".
  it("is refused as it was typed", function()
    local out = support.kontor_rc("sim --games 2 --bot greedy:lead=2")
    -- (before: kontor: sim: --bot 1=greedy: greedy option lead=2: expected 0..1)
    assert.truthy(support.has(out, "kontor: sim: --bot greedy:lead=2: greedy option lead=2: expected 0..1\n"), out)
    assert.truthy(support.has(out, "rc=2\n"), out)
    out = support.kontor_rc("sim --games 2 --bot random:x=1")
    assert.truthy(support.has(out, "kontor: sim: --bot random:x=1: the random bot has no option 'x' (options: avoid, "
      .. "prefer)\n"), out)
    -- a seat's own still names its seat
    out = support.kontor_rc("sim --games 2 --bot 3=greedy:lead=2")
    assert.truthy(support.has(out, "kontor: sim: --bot 3=greedy:lead=2: greedy option lead=2: expected 0..1\n"), out)
  end)
end)

describe("an error message with a long first line", function()
  -- kontor.text.error_place looked for a place ("file:12:") in the first
  -- line with "[^%s:]+:%d+:", which ran each run of letters to its end
  -- from each of its letters: a serve request {"op": "new", "rules": a
  -- name of 40,000 letters} took 12.9 s, one of 1 MB would hold the
  -- server (and a script's error of that length the REPL) for hours.
  it("is read in one pass, in serve as anywhere", function()
    local text = require "kontor.text"
    local long = "unknown rule set '" .. string.rep("a", 40000) .. "'"
    local t = os.clock()
    -- (before: 12.9 s)
    assert.are.equal(long, text.error_place(long .. "\nstack traceback:\n\t[C]: in ?"))
    assert.is_true(os.clock() - t < 0.5, tostring(os.clock() - t))
    -- a place in the line, or from the traceback, as before
    assert.are.equal("r.lua:5: boom", text.error_place("r.lua:5: boom\nstack traceback:\n\tr.lua:5: in main chunk"))
    assert.are.equal("attempt to index a nil value, in ./r.lua:5", text.error_place(
      "attempt to index a nil value\nstack traceback:\n\t[C]: in ?\n\t./r.lua:5: in function 'f'"))
    -- serve, given 20 s (before: hours)
    local request = kontor.json.encode { id = 1, op = "new", rules = string.rep("a", 1000000) } .. "\n"
    local out = support.run("timeout 20 " .. support.plain_binary() .. " serve", request)
    assert.truthy(support.has(out, '{"error":{"code":"game_setup","message":"unknown rule set or variant \'aaaa'),
      out:sub(1, 200))
  end)
end)
