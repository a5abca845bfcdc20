-- Start-up (issue 25, item 6): the engine's own modules load from the
-- chunks compiled into the program (repl/chunks.h) while their files are
-- unchanged, under the same file names and lines as their text; a changed
-- file is loaded as text; --version, --help and --list load only the
-- modules they use.

local support = require "tests.lua.support"
local BIN = support.binary()
local q = support.sh_quote

local run = support.run

local function line_of(path, pattern)
  local n = 0
  for line in io.lines(path) do
    n = n + 1
    if line:find(pattern, 1, true) then return n end
  end
  error(pattern .. " is not in " .. path)
end

describe("the engine's compiled modules", function()
  local tmp, cleanup = support.scratch()
  teardown(cleanup)

  it("load unchanged files from the program, named and numbered as their text", function()
    local file = package.searchpath("kontor.rules", package.path)
    local loader, found = package.searchers[2]("kontor.rules")
    assert.are.equal("function", type(loader))
    assert.are.equal(file, found)
    assert.are.equal("@" .. file, debug.getinfo(loader, "S").source)
    local M = loader("kontor.rules", found)
    local info = debug.getinfo(M.list, "S")
    assert.are.equal("@" .. file, info.source)
    assert.are.equal(line_of(file, "function M.list("), info.linedefined)
    local ok, err = pcall(M.parse_variant, nil)
    assert.is_false(ok)
    assert.truthy(err:find(file .. ":%d+: attempt to index a nil value %(local 's'%)"), err)
  end)

  it("are not found for a module outside the engine (busted's own, a test's)", function()
    assert.are.equal(0, select("#", package.searchers[2]("tests.lua.support")))
    assert.are.equal(0, select("#", package.searchers[2]("busted")))
  end)

  it("give way to the text of a file changed since the build, under its name", function()
    local home = tmp("home")
    assert(os.execute("mkdir -p " .. q(home) .. " && cp -r lua repl variants " .. q(home)))
    local text_file = home .. "/lua/kontor/text.lua"
    local text = support.read(text_file)
    support.write(text_file, (text:gsub("\nreturn M%s*$", "\nM.changed = 'yes'\nreturn M\n")))
    support.write(tmp("probe.lua"), [[
local t = require "kontor.text"
print(t.changed, debug.getinfo(t.escape, "S").source)
print(select("#", package.searchers[2]("kontor.text")), select("#", package.searchers[2]("kontor.rules")))
]])
    local out, code = run("KONTOR_HOME=" .. q(home) .. " " .. BIN .. " run " .. q(tmp("probe.lua")))
    assert.are.equal(0, code, out)
    assert.are.equal("yes\t@" .. text_file .. "\n0\t2\n", out)
  end)

  it("report a syntax error in a changed file by its file and line", function()
    local home = tmp("broken")
    assert(os.execute("mkdir -p " .. q(home) .. " && cp -r lua repl variants " .. q(home)))
    -- (kontor.describe: the REPL loads it before its first prompt)
    local f = assert(io.open(home .. "/lua/kontor/describe.lua", "a"))
    f:write("local x = = 1\n")
    f:close()
    local n = line_of(home .. "/lua/kontor/describe.lua", "local x = = 1")
    local out, code = run("KONTOR_HOME=" .. q(home) .. " " .. BIN .. " --rules sea_merchants </dev/null")
    assert.are.equal(1, code, out)
    assert.truthy(out:find("error loading module 'kontor.describe' from file '" .. home .. "/lua/kontor/describe.lua':\n\t"
      .. home .. "/lua/kontor/describe.lua:" .. n .. ": <eof> expected near 'local'\n", 1, true), out)
  end)
end)

describe("kontor --version, --help and --list", function()
  local cli = require "cli"
  local KEEP = { ["kontor.core"] = true, ["kontor.text"] = true, ["kontor.sandbox"] = true }

  -- runs cli.main with no engine module loaded but kontor.core, the cli's
  -- own kontor.text and kontor.sandbox (which sets up the string
  -- metatable once); returns its status, the modules it loaded, its output
  local function fresh_main(args)
    local saved, loaded = {}, {}
    for k, v in pairs(package.loaded) do
      if (k == "kontor" or k:match("^kontor%.")) and not KEEP[k] then
        saved[k] = v
        package.loaded[k] = nil
      end
    end
    local stdout = io.stdout
    local written = {}
    io.stdout = { write = function(self, ...)  -- luacheck: ignore 122
      for _, s in ipairs { ... } do written[#written + 1] = s end
      return self
    end, flush = function(self) return self end }
    local ok, status = pcall(cli.main, kontor.home, args)
    io.stdout = stdout  -- luacheck: ignore 122
    for k in pairs(package.loaded) do
      if (k == "kontor" or k:match("^kontor%.")) and not KEEP[k] then
        loaded[#loaded + 1] = k
      end
    end
    for k, v in pairs(saved) do package.loaded[k] = v end
    assert(ok, status)
    table.sort(loaded)
    return status, table.concat(loaded, " "), table.concat(written)
  end

  it("--version loads no engine module", function()
    local status, loaded, out = fresh_main { "--version" }
    assert.are.equal(0, status)
    assert.are.equal("", loaded)
    assert.are.equal("kontor " .. kontor.version .. "\n", out)
  end)

  it("--help loads no engine module", function()
    local status, loaded, out = fresh_main { "--help" }
    assert.are.equal(0, status)
    assert.are.equal("", loaded)
    assert.truthy(out:find("usage: kontor", 1, true))
  end)

  it("--list loads the rule finder only (and the error values it makes), and lists the same", function()
    local status, loaded, out = fresh_main { "--list" }
    assert.are.equal(0, status)
    assert.are.equal("kontor.errors kontor.rules", loaded)
    local listed, code = run(BIN .. " --list")
    assert.are.equal(0, code)
    assert.are.equal(listed, out)
    assert.truthy(out:match("sea_merchants%s+rules%s+%S"))
  end)
end)
