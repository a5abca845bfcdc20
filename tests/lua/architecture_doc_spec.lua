-- architecture_doc_spec.lua - docs/architecture.md names every module of
-- the code: each Lua file of the engine and the program, each C file of
-- the core, the binding and the engine's C, each header of its own; and
-- the binding has no circle: l_core.c gathers the type files, none of them
-- needs l_core.c.
-- Run: build/kontor run tests/busted.lua tests/lua/architecture_doc_spec.lua
local support = require "tests.lua.support"

local FOLDERS = { "core", "lua", "lua/engine", "lua/kontor", "lua/kontor/game", "lua/kontor/bots",
                  "lua/kontor/balance", "repl", "repl/gen" }

-- The files of `dir` (not its folders), as paths.
local function files(dir)
  local out = {}
  local p = assert(io.popen("find " .. support.sh_quote(dir) .. " -maxdepth 1 -type f -name '*.*' | sort"))
  for line in p:lines() do out[#out + 1] = line:gsub("^%./", "") end
  p:close()
  return out
end

local function exists(path)
  local f = io.open(path)
  if f then f:close() end
  return f ~= nil
end

-- Whether the doc names `path`: by its path; in its folder's entry (the
-- folder's line and the lines under it) by its file name, or by its stem
-- (the balance lab lists its rooms: "init (setups, runs), run, ..."); or
-- anywhere by its file name, unless more than one folder has that name
-- (init.lua).
local function named(doc, lines, path, ambiguous)
  if doc:find(path, 1, true) then return true end
  local dir, name = path:match("^(.*)/([^/]+)$")
  local stem = name:gsub("%.%a+$", "")
  for i, line in ipairs(lines) do
    if line:find(dir .. "/ ", 1, true) or line:find(dir .. "/$") then
      local entry = table.concat(lines, "\n", i, math.min(#lines, i + 8))
      if entry:find(name, 1, true) or entry:find("%f[%w]" .. stem .. "%f[^%w_]") then return true end
      break
    end
  end
  return not ambiguous[name] and doc:find(name, 1, true) ~= nil
end

describe("docs/architecture.md", function()
  local doc = support.read("docs/architecture.md")
  local lines = support.lines(doc)

  it("names every file of core/, lua/, lua/engine/, lua/kontor/** and repl/", function()
    local all, count = {}, {}
    for _, dir in ipairs(FOLDERS) do
      local found = files(dir)
      assert.is_true(#found > 0, dir)
      for _, path in ipairs(found) do
        if path:match("%.[ch]$") or path:match("%.lua$") then
          all[#all + 1] = path
          local name = path:match("[^/]+$")
          count[name] = (count[name] or 0) + 1
        end
      end
    end
    local ambiguous = {}
    for name, n in pairs(count) do if n > 1 then ambiguous[name] = true end end
    local missing = {}
    for _, path in ipairs(all) do
      -- a header with a .c of its own (rng.h and rng.c) is named with it
      local paired = path:match("%.h$") and exists((path:gsub("%.h$", ".c")))
      if not paired and not named(doc, lines, path, ambiguous) then missing[#missing + 1] = path end
    end
    assert.are.same({}, missing)
  end)

  it("looks in every folder of core/, lua/ and repl/ that holds code", function()
    local listed, unlisted = {}, {}
    for _, dir in ipairs(FOLDERS) do listed[dir] = true end
    local p = assert(io.popen("find core lua repl -type f \\( -name '*.lua' -o -name '*.c' -o -name '*.h' \\)"
      .. " -printf '%h\\n' | sort -u"))
    for dir in p:lines() do
      if not listed[dir] then unlisted[#unlisted + 1] = dir end
    end
    p:close()
    assert.are.same({}, unlisted)
  end)

  it("has no circle in the binding: no type file and no engine C needs l_core.c", function()
    local core_src = support.read("lua/l_core.c")
    local exported = {}   -- its functions that are not static
    for _, line in ipairs(support.lines(core_src)) do
      local name = not line:match("^static") and line:match("^[%w_ ]-%f[%w_]([%w_]+)%(lua_State %*L%) {$")
      if name then exported[#exported + 1] = name end
    end
    assert.are.same({ "luaopen_kontor_core", "kn_preload_core" }, exported)
    local users = {}
    for _, dir in ipairs { "lua", "lua/engine" } do
      for _, path in ipairs(files(dir)) do
        if path:match("%.c$") and path ~= "lua/l_core.c" then
          local src = support.read(path)
          for _, name in ipairs(exported) do
            if src:find(name, 1, true) then users[#users + 1] = path .. ": " .. name end
          end
          if src:find('#include "l_core', 1, true) then users[#users + 1] = path .. ": includes l_core" end
        end
      end
    end
    assert.are.same({}, users)
  end)
end)
