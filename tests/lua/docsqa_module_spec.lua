-- docsqa_module_spec.lua - docs/module.md's first example, typed as the
-- doc shows it (in the build tree, with the paths the doc gives there):
-- the board it prints is the one the doc shows, line for line up to its
-- "...". Without a seed the deal would be a fresh one each run.
-- Run: build/kontor run tests/busted.lua tests/lua/docsqa_module_spec.lua
local support = require "tests.lua.support"
local q = support.sh_quote
local SRC = (function() local p = io.popen("pwd"); local d = p:read("l"); p:close(); return d end)()

describe("docs/module.md", function()
  it("the installed example prints the board the doc shows", function()
    if (support.run("command -v lua5.4")) == "" then return pending("lua5.4 is not installed") end
    if not io.open(SRC .. "/build/lua/kontor/core.so") then return pending("build/lua/kontor/core.so: make module") end
    local doc = support.read("docs/module.md")
    local cmd, shown = doc:match("\n    %$ (lua5%.4 %-e [^\n]+)\n(.-)\n    %.%.%.\n")
    assert.truthy(cmd, "no $ lua5.4 example in docs/module.md")
    local out, code = support.run(string.format("LUA_PATH=%s LUA_CPATH=%s %s",
      q(SRC .. "/lua/?.lua;" .. SRC .. "/lua/?/init.lua;;"), q(SRC .. "/build/lua/?.so;;"), cmd))
    assert.are.equal(0, code, out)
    local want = shown:gsub("\n    ", "\n"):gsub("^    ", "")
    assert.are.equal(want, out:sub(1, #want))
    -- and it is the same game the program deals from that seed
    local board = support.run(support.plain_binary() .. " --seed 1", "board\n")
    assert.are.equal(want, board:sub(1, #want))
  end)
end)
