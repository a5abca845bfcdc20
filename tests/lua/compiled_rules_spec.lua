-- compiled_rules_spec.lua: the shipped rule scripts are loaded from their
-- chunks compiled at build time, and only for exactly the text they were
-- compiled from (repl/main.c, compiled_rules; lua/engine/sandbox.c,
-- sandbox.load): the same functions, at the same file and lines; a file
-- whose text differs is compiled from its text.
local support = require "tests.lua.support"
local rules = require "kontor.rules"

-- the line of the first line of `src` that starts with `text`
local function line_of(src, text)
  local n = 0
  for line in (src .. "\n"):gmatch("([^\n]*)\n") do
    n = n + 1
    if line:sub(1, #text) == text then return n end
  end
end

describe("a shipped rule script", function()
  local tmp, cleanup = support.scratch()
  teardown(cleanup)

  it("keeps its file and lines, as its text would have them", function()
    local R = assert(rules.load("sea_merchants"))
    local src = support.read("variants/sea_merchants.lua")
    local info = debug.getinfo(R.setup, "S")
    assert.truthy(info.source:match("variants/sea_merchants%.lua$"), info.source)
    assert.are.equal(line_of(src, "function R.setup("), info.linedefined)
    -- an error in a rule names the file and the line, as from the text
    local ok, err = pcall(R.estimate, {}, 1)          -- (no deck: it fails in its first line)
    assert.is_false(ok)
    assert.truthy(tostring(err):match("variants/sea_merchants%.lua:%d+:"), tostring(err))
  end)

  it("changed by a byte is compiled from its text: its lines are the new text's", function()
    local src = support.read("variants/sea_merchants.lua")
    local f = support.write(tmp("sea_merchants.lua"), "\n" .. src)      -- one line more at the top
    local R = assert(rules.load(f))
    local info = debug.getinfo(R.setup, "S")
    assert.are.equal(f, info.source:gsub("^@", ""))
    assert.are.equal(line_of(src, "function R.setup(") + 1, info.linedefined)
  end)
end)
