-- docsqa_usage_spec.lua - each flag a command's usage shows (kontor help
-- CMD) is one that command takes: typed with a value, it runs (exit 0);
-- and a flag the command takes is in its usage. "sim's --X ... --Y" in a
-- usage stands for sim's flags from --X to --Y.
-- Run: build/kontor run tests/busted.lua tests/lua/docsqa_usage_spec.lua
local support = require "tests.lua.support"
local BIN = support.plain_binary()
if BIN:sub(1, 1) ~= "/" then   -- the runs below start in a scratch folder
  local p = io.popen("pwd"); BIN = p:read("l") .. "/" .. BIN; p:close()
end

-- A value for each flag that takes one, fit for a run of 4 games.
local VALUE = {
  ["--games"] = "4", ["--seed"] = "2", ["--game"] = "1", ["--bot"] = "1=greedy", ["--jobs"] = "1",
  ["--shard"] = "1/2", ["--range"] = "1-2", ["--report"] = "r.html", ["--games-out"] = "g.jsonl",
  ["--until-width"] = "0.5", ["--svg"] = "svg", ["--a"] = "''", ["--b"] = "'--variant house'",
  ["--over"] = "players=2..3", ["--kinds"] = "all", ["--deals"] = "2",
}

-- The flags of `kontor help cmd`'s usage, in order.
local function flags(cmd)
  local usage = support.run(BIN .. " help " .. cmd):match("^(.-)\n\n")
  local out = {}
  usage = usage:gsub("%[sim's (%-%-[%l%-]+) %.%.%. (%-%-[%l%-]+)%]", function(from, to)
    local all, on, picked = (support.run(BIN .. " help sim"):match("^(.-)\n\n")), false, {}
    for f in all:gmatch("%-%-[%l][%l%-]*") do
      if f == from then on = true end
      if on then picked[#picked + 1] = "[" .. f .. "]" end
      if f == to then break end
    end
    return table.concat(picked, " ")
  end)
  for f in usage:gmatch("%-%-[%l][%l%-]*") do out[#out + 1] = f end
  return out
end

local function runs(cmd, base, flag)
  local dir = support.tmpdir()
  local v = VALUE[flag]
  local line = string.format("cd %s && %s %s %s %s", support.sh_quote(dir), BIN, cmd, base,
    v and (flag .. " " .. v) or flag)
  local out, code = support.run(line)
  os.execute("rm -rf " .. support.sh_quote(dir))
  return out, code
end

describe("the usage of compare, sweep, worth and ladder", function()
  for _, c in ipairs {
    -- the command, a run to add a flag to, the flags that run gives, flags
    -- it takes that its usage must show
    { "compare", "--a '' --b '--variant house' --games 4", { "--a", "--b", "--games" }, { "--bot" } },
    { "sweep", "--over players=2..3 --games 4", { "--over", "--games" }, { "--bot" } },
    { "worth", "--bot random --games 4", { "--bot", "--games" }, { "--range" } },
    { "ladder", "random greedy --deals 2", { "--deals" }, { "--range" } },
  } do
    local cmd, base, given, shown = c[1], c[2], c[3], c[4]
    it(cmd .. ": every flag it shows runs #slow", function()
      local bad, seen = {}, {}
      for _, f in ipairs(flags(cmd)) do
        if not seen[f] then seen[f] = true end
      end
      for _, f in ipairs(shown) do
        assert.truthy(seen[f], cmd .. "'s usage does not show " .. f .. ", which it takes")
      end
      seen = {}
      for _, g in ipairs(given) do seen[g] = true end
      for _, f in ipairs(flags(cmd)) do
        if not seen[f] then
          seen[f] = true
          local out, code = runs(cmd, base, f)
          if code ~= 0 then bad[#bad + 1] = f .. ": " .. (out:match("[^\n]*") or "") end
        end
      end
      assert.are.same({}, bad)
    end)
  end
end)

describe("kontor help", function()
  it("help help says what help does, and an unknown command lists every one help knows", function()
    local out, code = support.run(BIN .. " help help")
    assert.are.equal(0, code, out)
    assert.truthy(out:find("^usage: kontor help %[COMMAND%]\n"), out)
    out, code = support.run(BIN .. " help nosuch")
    assert.are.equal(2, code, out)
    assert.truthy(support.has(out, "no command 'nosuch' (commands: repl, play, run, serve, sim, compare, sweep, "
      .. "worth, ladder, merge, --list, help)"), out)
    -- each name it lists has its help
    for name in out:match("%(commands: (.-)%)"):gmatch("[^, ]+") do
      local _, c = support.run(BIN .. " help " .. name)
      assert.are.equal(0, c, name)
    end
  end)

  it("a usage's continued lines start under its command's first option", function()
    -- was: kontor [repl|play]'s at column 22, under nothing
    local usage = support.run(BIN .. " --help"):match("^(.-)\n\n")
    local col, n = nil, 0
    for line in usage:gmatch("[^\n]+") do
      local first = line:match("^usage: kontor [%w|%[%]-]+ ()%[") or line:match("^%s+kontor [%w|%[%]-]+ ()%[")
      if line:match("^%s*usage:") or line:match("^%s+kontor ") then
        col = first
      elseif col then
        n = n + 1
        assert.are.equal(col, line:find("%S"), line)
      end
    end
    assert.truthy(n >= 5, usage)
  end)
end)
