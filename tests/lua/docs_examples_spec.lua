-- docs_examples_spec.lua - examples of the user docs that no other spec
-- runs, typed as the docs show them, against what the program prints.
--
-- A block the docs mark with an HTML comment on the line before it (or
-- before a blank line and an indented block) is run as the comment says:
--
--   <!-- example: repl ARGS -->  lines "> TEXT" are typed into
--       `kontor ARGS` (stdin a pipe: no banner, no prompt); the lines after
--       each, up to the next "> ", are what it prints, exactly.
--   <!-- example: serve -->  after a "$ ... serve" line, a request line and
--       its response line, in turn; a response shown ending " ..." is the
--       start of the line serve writes.
--
-- Then the examples written into the text: the Caribbean game's first
-- card (docs/repl.md), the REPL's usage (docs/repl.md), messages the REPL
-- prints that docs/repl.md and docs/api.md quote, the constraint errors
-- and Caribbean's wins line (docs/designing-variants.md), and a bot's
-- warning in serve (docs/protocol.md).
-- Run: build/kontor run tests/busted.lua tests/lua/docs_examples_spec.lua
local support = require "tests.lua.support"
local BIN = support.plain_binary()
local q = support.sh_quote

local DOCS = { "README.md", "docs/repl.md", "docs/api.md", "docs/module.md", "docs/protocol.md",
               "docs/designing-variants.md", "docs/balance.md" }

local lines = support.text_lines

-- The marked blocks of `doc`: { kind =, args =, lines =, line = (the
-- comment's line number) }.
local function marked(doc)
  local out = {}
  local all = lines(doc)
  local i = 1
  while i <= #all do
    local spec = all[i]:match("^<!%-%- example: (.-) %-%->$")
    if spec then
      local kind, args = spec:match("^(%S+)%s*(.*)$")
      local at, body = i, {}
      i = i + 1
      while all[i] == "" do i = i + 1 end
      if all[i] and all[i]:match("^```") then
        i = i + 1
        while all[i] and not all[i]:match("^```") do body[#body + 1] = all[i]; i = i + 1 end
      else
        while all[i] and (all[i]:match("^    ") or all[i] == "") do
          body[#body + 1] = all[i]:sub(5)
          i = i + 1
        end
        while body[#body] == "" do body[#body] = nil end
      end
      out[#out + 1] = { kind = kind, args = args, lines = body, line = at }
    end
    i = i + 1
  end
  return out
end

local RUN = {}

function RUN.repl(ex)
  local typed, want = {}, {}
  for _, l in ipairs(ex.lines) do
    local t = l:match("^> (.*)$")
    if t then typed[#typed + 1] = t else want[#want + 1] = l end
  end
  assert.truthy(#typed > 0, "no line typed")
  local out = support.run(BIN .. " " .. ex.args, table.concat(typed, "\n") .. "\n")
  assert.are.same(want, lines(out))
end

function RUN.serve(ex)
  local body = { table.unpack(ex.lines) }
  assert.truthy(body[1]:match("^%$ .*serve$"), body[1])
  local requests, responses = {}, {}
  for k = 2, #body, 2 do
    requests[#requests + 1], responses[#responses + 1] = body[k], body[k + 1]
  end
  local got = support.serve_lines(requests)
  assert.are.equal(#responses, #got)
  for k, want in ipairs(responses) do
    local start = want:match("^(.-) %.%.%.$")
    if start then
      assert.are.equal(start, got[k]:sub(1, #start))
    else
      assert.are.equal(want, got[k])
    end
  end
end

describe("the marked examples of the docs", function()
  local count = 0
  for _, name in ipairs(DOCS) do
    for _, ex in ipairs(marked(support.read(name))) do
      count = count + 1
      it(string.format("%s:%d (%s %s) prints what the doc shows", name, ex.line, ex.kind, ex.args), function()
        assert.truthy(RUN[ex.kind], "no such kind of example: " .. ex.kind)
        RUN[ex.kind](ex)
      end)
    end
  end
  it("there are some", function() assert.truthy(count >= 2, tostring(count)) end)
end)

-- The text of `doc` between backquotes that starts with `start` (the
-- docs' lines joined with spaces, as a reader reads them).
local function quoted(doc, start)
  local flat = doc:gsub("\n```.-\n```", ""):gsub("\n", " ")
  for span in flat:gmatch("`([^`]+)`") do
    if span:sub(1, #start) == start then return span end
  end
  error("no `" .. start .. "...` in the doc")
end

-- Whether `got` holds `want`, where "..." in `want` is any text.
local function holds(got, want)
  local pat = want:gsub("%p", "%%%0"):gsub("%%%.%%%.%%%.", ".-")
  return got:find(pat) ~= nil
end

describe("docs/repl.md", function()
  local doc = support.read("docs/repl.md")

  it("a Caribbean game's first card follows new's line (kontor --rules caribbean --seed 5)", function()
    local card = quoted(doc, "Player 1 reveals ")
    assert.truthy(doc:find("`kontor --rules caribbean --seed 5`: `Player 1\nreveals", 1, true))
    local out = support.run(BIN .. " --rules caribbean --seed 5", "new seed=5\n")
    assert.are.same({ "New game: Merchants of the Caribbean, 4 players (Player 1, Player 2, Player 3, Player 4), seed 5.",
                      card, "Player 1 to choose (discover)." }, lines(out))
  end)

  it("the usage under Starting is kontor help repl's", function()
    local block = doc:match("## Starting\n\n```\n(.-)```")
    local help = support.run(BIN .. " help repl"):match("^usage: (.-)\n\n")
    assert.are.equal((help:gsub("%s+", " ")), (block:gsub("%s+", " "):gsub(" $", "")))
  end)
end)

-- Quotes of the docs' text (their start) and the session that prints
-- them: the doc, the quote's start, kontor's arguments, what is typed.
local SAID = {
  { "docs/repl.md", "1-24  bid 0-23", "--rules old_world --players 2 --seed 7 --option start_gold=23", "options\n" },
  { "docs/repl.md", "type bid 0 to bid 23", "--rules old_world --players 2 --seed 7 --option start_gold=23",
    "options\n" },
  { "docs/api.md", "'bid 99' is not", "--rules old_world --players 2 --seed 7 --option start_gold=23", "bid 99\n" },
  { "docs/repl.md", "(limit_kinds is for", "--seed 1", "new rules=tests/rulesets/limit_kinds.lua\n" },
  { "docs/repl.md", "'take nothing': it is not", "--rules caribbean --names Ann,Bob,Cy --seed 3",
    "reveal\nreveal\nstop\ntake nothing\n1: take nothing\n" },
  { "docs/repl.md", "Redid 2 moves", "--players 2 --seed 3", "1\n1\nundo 2\nredo 5\n" },
  { "docs/repl.md", "Nothing of yours to undo", "--players 2 --seed 3 --bot 1=random", "undo\n" },
}

describe("the docs' quotes of a session", function()
  for _, c in ipairs(SAID) do
    it(string.format("%s: %s...", c[1], c[2]), function()
      local want = quoted(support.read(c[1]), c[2])
      local out = support.run(BIN .. " " .. c[3], c[4])
      assert.truthy(holds(out, want), "the doc: " .. want .. "\nkontor " .. c[3] .. ":\n" .. out)
    end)
  end
end)

describe("docs/designing-variants.md", function()
  local doc = support.read("docs/designing-variants.md")
  local dir, cleanup = support.scratch()
  teardown(cleanup)

  local FILES = {
    ["nobid.lua"] = 'return { variant = true, name = "nobid", base = "old_world",\n  apply = function(R)\n'
      .. '    R.constraints[#R.constraints + 1] = { decisions = { "bid" },\n'
      .. '      check = function() return "no bidding at all" end }\n  end }\n',
    ["no_check.lua"] = 'return {\n  variant = true, name = "no_check", base = "sea_merchants",\n  apply = function(R)\n'
      .. '    R.constraints[#R.constraints + 1] = { decisions = { "load" } }\n  end,\n}\n',
    ["no_names.lua"] = 'return {\n  variant = true, name = "no_names", base = "sea_merchants",\n  apply = function(R)\n'
      .. '    R.constraints[#R.constraints + 1] = { check = function() end }\n  end,\n}\n',
  }

  local function kontor_in(args, stdin)
    for name, text in pairs(FILES) do support.write(dir(name), text) end
    local p = io.popen("realpath " .. q(BIN))
    local bin = p:read("l")
    p:close()
    local folder = dir("nobid.lua"):match("^(.*)/")
    return support.run("cd " .. q(folder) .. " && " .. q(bin) .. " " .. args, stdin or "")
  end

  it("constraints that leave no option, and malformed ones, say what the doc says", function()
    local out, code = kontor_in("--variant ./nobid.lua --players 2 --seed 1")
    assert.are.equal(1, code, out)
    local want = quoted(doc, ".../variants/old_world.lua:")
    assert.truthy(holds(out, want), out)
    for _, f in ipairs { "no_check", "no_names" } do
      out, code = kontor_in("--variant ./" .. f .. ".lua")
      assert.are.equal(1, code, out)
      assert.are.equal("kontor: " .. quoted(doc, "./" .. f .. ".lua:") .. "\n", out)
    end
  end)

  it("Caribbean's wins line counts the games without a winner", function()
    local out = support.run(BIN .. " sim --rules caribbean --games 200 --seed 1")
    local want = quoted(doc, "wins "):gsub("%s+", " ")
    local got = out:match("\n(wins [^\n]*)"):gsub("%s+", " ")
    assert.are.equal(want, got)
    local json = support.run(BIN .. " sim --rules caribbean --games 200 --seed 1 --json")
    assert.truthy(support.has(json, quoted(doc, '"no_winner"')), json)
  end)
end)

describe("docs/protocol.md", function()
  it("a bot whose restriction matches nothing is seated with the warning shown", function()
    local doc = support.read("docs/protocol.md")
    local request = quoted(doc, '{"op": "new", "players": 2')
    local want = doc:match('\n  ```\n  ("warnings": %[.-%])\n  ```')
    assert.truthy(want)
    local got = support.serve_lines { (request:gsub("^{", '{"id": 1, ')) }
    local warnings = got[1]:match('("warnings":%[.-%])')
    assert.are.equal(want:gsub('^"warnings": ', '"warnings":'), warnings)
  end)
end)
