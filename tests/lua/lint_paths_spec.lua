-- lint_paths_spec.lua - the repository cites the rulebooks as
-- docs/rules/<file>.md and rulings by id (S3, O12), never by a path of
-- the machine it was written on (issue 25, item 8): no file the
-- repository keeps (code, tests, docs) names such a path. And the one
-- player-count check stays in one place (issue 25, item 3).
-- Run: build/kontor run tests/busted.lua tests/lua/lint_paths_spec.lua

-- The patterns (Lua's) of a machine path, each with what it is; made of
-- pieces so that this file does not name them itself.
local FORBIDDEN = {
  { "/" .. "work/", "the workplace's folder" },
  { "%.%./" .. "shared", "a folder beside the repository" },
  { "shared" .. "/rules", "the rulebooks' folder outside the repository" },
  { "/" .. "home/[%w_]", "a home folder" },
  { "/" .. "root/", "root's home folder" },
  { "/" .. "Users/", "a home folder" },
}

-- Whether `text` names a machine path: the line and why, or nil.
local function machine_path(text)
  local n = 0
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    n = n + 1
    for _, f in ipairs(FORBIDDEN) do
      if line:find(f[1]) then return n, f[2] end
    end
    -- RULINGS.md is cited as docs/rules' neighbour or by name alone
    local dir = line:match("([%w_%.%-/]+)/RULINGS%.md")
    if dir and not dir:match("docs/rules$") then return n, "RULINGS.md by a path" end
  end
  return nil
end

-- The files the repository keeps: git's list, else every file below.
local function kept_files()
  local out = {}
  local p = io.popen("git ls-files 2>/dev/null")
  for line in p:lines() do out[#out + 1] = line end
  p:close()
  if #out == 0 then
    p = io.popen("find . -type f -not -path './.git/*' -not -path './build/*' | sed 's|^./||'")
    for line in p:lines() do out[#out + 1] = line end
    p:close()
  end
  return out
end

describe("the repository cites rulings, never machine paths", function()
  it("the check finds each kind of path it is for", function()
    for _, bad in ipairs {
      "-- see " .. "/" .. "work/shared" .. "/rules/RULINGS" .. ".md (S3)",
      "-- ruling O12 (" .. "../" .. "shared" .. "/rules/RULINGS" .. ".md)",
      "see " .. "/" .. "home/anna/rules/sea_merchants.en.txt",
      "rulings/RULINGS" .. ".md",
    } do
      assert.is_not_nil(machine_path("first line\n" .. bad), bad)
    end
    for _, good in ipairs {
      "-- S3 (docs/rules/sea_merchants.md)",
      "the rulings C1..C10 of `RULINGS.md`",
      "[docs/rules/old_world.md](rules/old_world.md#scenario-set-up)",
      "history in ~/.kontor_history; a scratch folder /tmp/tour",
    } do
      assert.is_nil(machine_path(good), good)
    end
  end)

  it("no file of code, tests or docs names one", function()
    local files = kept_files()
    assert.is_true(#files > 100, "found " .. #files .. " files")
    local found = {}
    for _, path in ipairs(files) do
      local f = io.open(path, "rb")
      local text = f and f:read(1 << 20)
      if f then f:close() end
      if text and not text:find("\0", 1, true) then
        local line, why = machine_path(text)
        if line then found[#found + 1] = string.format("%s:%d: %s", path, line, why) end
      end
    end
    assert.are.same({}, found)
  end)
end)

describe("the player-count check", function()
  it("is in one place: game.players_for", function()
    local p = io.popen("grep -rl --include='*.lua' 'to %d players' lua repl")
    local where = {}
    for line in p:lines() do where[#where + 1] = line end
    p:close()
    assert.are.same({ "lua/kontor/game/init.lua" }, where)
  end)
end)
