-- module_tools_spec.lua: the Lua module with the tools Lua users run
-- (docs/module.md, issue 26 point 6): Debian's busted command under Lua
-- 5.4 through the versioned path variables, and `luarocks make` of the
-- rockspec into a local tree (no network).
local support = require "tests.lua.support"
local tmp, cleanup_tmp = support.scratch()
teardown(cleanup_tmp)

local q = support.sh_quote
local SRC = (function() local p = io.popen("pwd"); local d = p:read("l"); p:close(); return d end)()

local function sh(cmd) return support.run("(" .. cmd .. ")") end

local function has_tool(name) return (sh("command -v " .. name)) ~= "" end

local SPEC = [[
local kontor = require "kontor"
describe("kontor from busted", function()
  it("plays a game under Lua 5.4", function()
    assert.are.equal("Lua 5.4", _VERSION)
    local g = kontor.new_game { players = 3, seed = 7 }
    assert.is_true(g:apply("load fish on ship 1"))
    assert.are.equal(2, g:who())
  end)
end)
]]

describe("docs/module.md", function()
  it("busted --lua=lua5.4 with LUA_PATH_5_4 and LUA_CPATH_5_4 runs a spec that requires kontor", function()
    if not has_tool("busted") or not has_tool("lua5.4") then return pending("busted or lua5.4 is not installed") end
    assert.truthy(io.open(SRC .. "/build/lua/kontor/core.so"), "build/lua/kontor/core.so: run make module")
    local dir = tmp("busted")
    os.execute("mkdir -p " .. q(dir))
    support.write(dir .. "/my_spec.lua", SPEC)
    local out, code = sh(string.format("cd %s && export LUA_PATH_5_4=%s LUA_CPATH_5_4=%s && busted --lua=lua5.4 my_spec.lua",
      q(dir), q(SRC .. "/lua/?.lua;" .. SRC .. "/lua/?/init.lua;;"), q(SRC .. "/build/lua/?.so;;")))
    assert.are.equal(0, code, out)
    assert.matches("1 success / 0 failures / 0 errors / 0 pending", out)
  end)

  it("luarocks make builds and installs the module and the rule sets into a local tree #slow", function()
    if not has_tool("luarocks") or not has_tool("lua5.4") then return pending("luarocks or lua5.4 is not installed") end
    local dir = tmp("rocks")
    local src, tree = dir .. "/src", dir .. "/tree"
    os.execute("mkdir -p " .. q(src))
    local out, code = sh(string.format(
      "git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t %s", q(src)))
    assert.are.equal(0, code, out)
    out, code = sh(string.format("cd %s && luarocks --lua-version=5.4 --tree=%s make kontor-dev-1.rockspec",
      q(src), q(tree)))
    assert.are.equal(0, code, out)
    assert.matches("kontor dev%-1 is now installed in " .. tree:gsub("%p", "%%%0"), out)
    os.execute("rm -rf " .. q(src))      -- the tree stands alone
    out, code = sh(string.format([[cd %s && eval "$(luarocks --lua-version=5.4 --tree=%s path)" && lua5.4 -e '
      local k = require "kontor"
      print(k.home)
      print(k.new_game{ rules = "old_world", players = 3 }:decision().name)
      for _, e in ipairs(k.list()) do if e.name == "house" then print(e.kind, e.base) end end']], q(dir), q(tree)))
    assert.are.equal(0, code, out)
    assert.are.equal(tree .. "/lib/luarocks/rocks-5.4/kontor/dev-1/share/kontor\nbid\nvariant\tsea_merchants\n", out)
  end)
end)
