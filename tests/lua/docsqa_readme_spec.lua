-- docsqa_readme_spec.lua - README.md names what the program has: every
-- game command the REPL's `help` lists, and every command of
-- `kontor --help` in "What you can type" (a newcomer learns the program
-- from that list).
-- Run: build/kontor run tests/busted.lua tests/lua/docsqa_readme_spec.lua
local support = require "tests.lua.support"
local BIN = support.plain_binary()

describe("README.md", function()
  local doc = support.read("README.md")

  it("names every command of the REPL's help at the prompt", function()
    local help = support.run(BIN, "help\n")
    local cmds, seen = {}, {}
    for line in help:gmatch("[^\n]+") do
      -- a command starts a line ("  board   the board ..."), or its second
      -- column ("  moves   the moves so far      log [N]   the event log")
      local words = { line:match("^  (%l+)") }
      for w in line:gmatch("%s%s%s(%l+) +[%u%[]") do words[#words + 1] = w end
      for w in line:gmatch("%s%s%s(%l+)%s%s") do words[#words + 1] = w end
      for _, word in ipairs(words) do
        if not seen[word] then seen[word] = true; cmds[#cmds + 1] = word end
      end
    end
    assert.truthy(seen.trace and seen.board and seen.log and seen.quit, help)
    local para = doc:match("At the prompt, plain words are game commands: (.-)Anything else is Lua")
    local missing = {}
    for _, c in ipairs(cmds) do
      if not para:find("`" .. c .. "[ `]") then missing[#missing + 1] = c end
    end
    assert.are.same({}, missing)
  end)

  it("shows every command of kontor --help in What you can type", function()
    local help = support.run(BIN .. " --help")
    local usage = doc:match("## What you can type\n\n(.-)\n\n")
    local missing = {}
    for cmd in help:gmatch("\n%s+kontor (%l+)") do
      if not usage:find("build/kontor " .. cmd .. "%f[^%l]") then missing[#missing + 1] = cmd end
    end
    assert.are.same({}, missing)
  end)
end)

describe("README.md's dependencies", function()
  it("the table names every package .ci/deps installs", function()
    local deps = support.read(".ci/deps")
    local table_ = support.read("README.md"):match("## Dependencies %(Debian packages%)\n(.-)\n## ")
    local missing = {}
    for list in deps:gmatch('PKGS="([^"]*)"') do
      for p in list:gmatch("%S+") do
        if p ~= "$PKGS" and not table_:find("`" .. p .. "`", 1, true) then missing[#missing + 1] = p end
      end
    end
    assert.are.same({}, missing)
  end)
end)
