-- savefile_spec.lua - issue 6: save files under faults. Writes are atomic
-- (lua/l_fs.c fs.write_atomic: temp file, fsync, rename, directory fsync):
-- a full disk (ulimit -f), failing writes, fsyncs and renames (strace
-- fault injection) and a SIGKILL at a random point of repeated saves leave
-- the old file or the new one, complete, never a mix. Loading a file cut at
-- every byte, with every byte flipped, of a newer version or of a missing
-- rule set gives nil and a message naming the file, and the game being
-- played is untouched. (engine_spec.lua has one case of each bad file; this
-- goes through all of them.)
-- Run: build/kontor run tests/busted.lua tests/lua/savefile_spec.lua
local json = kontor.json
local support = require "tests.lua.support"
local sh_quote, binary, write, read = support.sh_quote, support.binary, support.write, support.read
local tmp, cleanup_tmp = support.scratch()
local TMP = tmp(""):sub(1, -2)   -- the scratch folder itself

local RACE = "tests/rulesets/race.lua"




teardown(cleanup_tmp)



local function snapshot(g)
  return json.encode(g:state()) .. "\n" .. table.concat(g:log(), "\n") .. "\n"
    .. table.concat(g:actions(), "\n")
end

local temps = support.temps

-- Runs Lua source in a fresh kontor process through `sh -c`, with `prefix`
-- before the command (ulimit, strace). Returns exit status and output.
local function child(src, prefix)
  local script = write(tmp("child.lua"), src)
  local cmd = string.format("%s %s run %s", prefix or "", sh_quote(binary()), sh_quote(script))
  local p = assert(io.popen("sh -c " .. sh_quote(cmd) .. " 2>&1"))
  local out = p:read("a")
  local _, how, code = p:close()
  return how == "exit" and code or -1, out
end

-- A child script: with MODE "old", writes the old save at PATH (a game of
-- one step); otherwise makes a game of N more steps and saves it over PATH.
-- Exit 0: that save failed with a message matching WHY, the old file is
-- intact and no temp file is left; 3 otherwise (the reason on stderr, which
-- may be lost when writes fail: the status is what counts). The old save is
-- written by a separate run, so a fault can hit every call of the second.
local FAULT = [[
local mode, path, n, why, dir = %q, %q, %d, %q, %q
local function read(p) local f = io.open(p, "rb"); local s = f and f:read("a"); if f then f:close() end; return s end
local g = kontor.new_game { rules = %q, seed = 1, options = { target = 1000000 } }
g:apply(1)
if mode == "old" then os.exit(g:save(path) and 0 or 4) end
local old = read(path)
for _ = 1, n do g:apply(3) end
local ok, err = g:save(path)
local function fail(m) io.stderr:write(m, "\n"); os.exit(3) end
if ok then fail("the save succeeded") end
if not tostring(err):find(why) then fail("message: " .. tostring(err)) end
if read(path) ~= old then fail("the old file changed") end
for _, f in ipairs(kontor.core.fs.list(dir)) do
  if f:find("%%.tmp%%.") then fail("temp file left: " .. f) end
end
os.exit(0)
]]

local function fault(path, n, why, prefix)
  local code, out = child(FAULT:format("old", path, n, why, TMP, RACE))
  assert.are.equal(0, code, out)
  return child(FAULT:format("new", path, n, why, TMP, RACE), prefix)
end

describe("a save under faults", function()
  it("a full disk (ulimit -f) leaves the old file intact and no temp file", function()
    -- ulimit -f counts 512-byte blocks: 4 blocks, and a save of ~40 KB.
    local code, out = fault(tmp("full.json"), 2500, "File too large", "ulimit -f 4;")
    assert.are.equal(0, code, out)
  end)

  local function have_strace()
    return os.execute("strace -V >/dev/null 2>&1")
  end

  for _, c in ipairs {
    { "write", "ENOSPC", "write failed: No space left on device" },
    { "fsync", "EIO", "fsync failed: Input/output error" },
    { "rename", "EXDEV", "rename failed: Invalid cross%-device link" },
  } do
    it(string.format("%s failing with %s (strace fault injection): the old file stays", c[1], c[2]), function()
      if not have_strace() then
        pending("strace is not installed: fault injection skipped")
        return
      end
      -- Every call of the second run fails; LeakSanitizer cannot run
      -- under ptrace.
      local inject = string.format("ASAN_OPTIONS=detect_leaks=0 strace -f -qq -o /dev/null "
        .. "-e trace=%s -e inject=%s:error=%s", c[1], c[1], c[2])
      local code, out = fault(tmp("inject_" .. c[1] .. ".json"), 50, c[3], inject)
      assert.are.equal(0, code, out)
    end)
  end

  it("SIGKILL at random points of repeated saves: old or new, complete; never a mix #slow", function()
    local path = tmp("killed.json")
    local src = string.format([[
      local g = kontor.new_game { rules = %q, seed = 1, options = { target = 1000000 } }
      for i = 1, 1000000 do
        g:apply(1 + i %% 3)
        assert(g:save(%q))
      end]], RACE, path)
    local script = write(tmp("saver.lua"), src)
    local bot = kontor.core.rng(6)
    for round = 1, 12 do
      local delay = 0.05 + bot:float() * 0.4
      os.execute(string.format("sh -c '%s run %s & pid=$!; sleep %.3f; kill -9 $pid; wait $pid' 2>/dev/null",
        binary():gsub("'", ""), script, delay))
      local text = read(path)
      if text then
        -- The file is a whole save: it loads, and saving the loaded game
        -- gives the same bytes.
        local g, err = kontor.load_game(path)
        assert(g, string.format("round %d: %s", round, tostring(err)))
        local again = tmp("again.json")
        assert(g:save(again))
        assert.are.equal(text, read(again), "round " .. round)
        os.remove(again)
      end
    end
    -- A process killed between creating its temp file and renaming it
    -- leaves ".NAME.tmp.PID.N" behind; the next save of that file removes
    -- the temp files whose process is gone (lua/l_fs.c, remove_stale_temps).
    local g = kontor.new_game { rules = "sea_merchants", players = 2, seed = 1 }
    assert.is_true(g:save(path))
    assert.are.same({}, temps(TMP))
  end)
end)

---------------------------------------------------------------------------
-- Loading bad files
---------------------------------------------------------------------------

describe("loading a bad save file", function()
  local good_text, good_moves, current, before

  setup(function()
    local g = kontor.new_game { rules = RACE, seed = 4 }
    for _, k in ipairs { 1, 2, 3, 1 } do assert(g:apply(k)) end
    local p = tmp("good.json")
    assert(g:save(p))
    good_text = read(p)
    good_moves = table.concat(g:moves(), "\n")
    -- The game being played while the bad files are tried.
    current = kontor.new_game { rules = RACE, seed = 9 }
    assert(current:apply(2))
    before = snapshot(current)
  end)

  -- nil and a message naming the file, or (the bytes still being a whole
  -- save) the same game; never an error raised; the current game untouched.
  local function try(text, label)
    local p = write(tmp("bad.json"), text)
    local okk, g, err = pcall(kontor.load_game, p)
    assert(okk, label .. ": load_game raised: " .. tostring(g))
    if g then
      return "loaded", g
    end
    -- an error value (kontor.errors): the file, or a move it holds that does not replay
    assert.truthy(err.kind == "file" or err.kind == "rules", label .. ": " .. tostring(err.kind))
    assert.are.equal("string", type(err.message), label)
    assert(err:find(p, 1, true), label .. ": the message does not name the file: " .. err)
    return "refused", err
  end

  it("cut at every byte offset", function()
    local refused = 0
    for n = 0, #good_text - 1 do
      local how, g = try(good_text:sub(1, n), "cut at " .. n)
      if how == "loaded" then
        -- only the final newline may go
        assert.are.equal(#good_text - 1, n)
        assert.are.equal(good_moves, table.concat(g:moves(), "\n"))
      else
        refused = refused + 1
      end
    end
    assert.are.equal(#good_text - 1, refused)
    assert.are.equal(before, snapshot(current))
  end)

  it("with each byte flipped (every bit pattern of one bit, every offset)", function()
    local bot = kontor.core.rng(11)
    local loaded = 0
    for i = 1, #good_text do
      local bit = 1 << bot:below(8)
      local b = good_text:byte(i) ~ bit
      local text = good_text:sub(1, i - 1) .. string.char(b) .. good_text:sub(i + 1)
      local how = try(text, string.format("byte %d ^ %d", i, bit))
      if how == "loaded" then loaded = loaded + 1 end
    end
    assert.are.equal(before, snapshot(current))
    -- Most flips break the file; a few (a digit of the seed, a name) do not.
    assert.is_true(loaded < #good_text / 2, loaded)
  end)

  it("of a newer version, or naming a missing rule set", function()
    local doc = json.decode(good_text)
    doc.version = 2
    local _, err = try(json.encode(doc), "newer")
    assert.is_truthy(err:find("newer than this Kontor reads", 1, true), err)
    doc.version = 1
    doc.rules = "no_such_rule_set"
    local _, err2 = try(json.encode(doc), "missing rules")
    assert.is_truthy(err2:find("no_such_rule_set", 1, true), err2)
    doc.rules = tmp("gone.lua")
    local _, err3 = try(json.encode(doc), "missing file")
    assert.is_truthy(err3:find("no such file", 1, true), err3)
    assert.are.equal(before, snapshot(current))
  end)

  it("huge, deeply nested or binary: a clear error, quickly", function()
    local _, e1 = try(("["):rep(100000), "nested arrays")
    assert.is_string(e1.message)
    local _, e2 = try("\0\1\2\255" .. ("\0"):rep(1000), "binary")
    assert.is_string(e2.message)
    local doc = json.decode(good_text)
    doc.actions = {}
    for i = 1, 20000 do doc.actions[i] = "1: no such action" end
    local _, e3 = try(json.encode(doc), "20000 bad actions")
    assert.is_truthy(e3:find("cannot be replayed", 1, true), e3)
    assert.are.equal(before, snapshot(current))
  end)
end)

---------------------------------------------------------------------------
-- What a save may name (issue 10 item 7, issue 13 point 3)
---------------------------------------------------------------------------

describe("the files a save names", function()
  local CHEAP = [[
return { variant = true, base = "sea_merchants", name = "cheap",
  options = { price = { default = 5, type = "integer" }, loud = { default = false } },
  apply = function(R, o) end }
]]

  -- Runs `src` in a fresh kontor process in folder `dir`, killed after 10 s
  -- (a save that makes the loader block on a device must fail, not hang).
  local function run_in(dir, src)
    local script = write(tmp("in_dir.lua"), src)
    local cmd = string.format("cd %s && timeout -s KILL 10 %s run %s 2>&1", sh_quote(dir),
      sh_quote(kontor.core.fs.realpath(binary())), sh_quote(script))
    local p = assert(io.popen(cmd))
    local out = p:read("a")
    local _, how, code = p:close()
    return out, how == "exit" and code or 128 + code
  end

  local function dirs()
    local base = tmp("names")
    os.execute("rm -rf " .. sh_quote(base) .. " && mkdir -p " .. sh_quote(base .. "/a") .. " "
      .. sh_quote(base .. "/b"))
    local a = kontor.core.fs.realpath(base .. "/a")
    write(a .. "/cheap.lua", CHEAP)
    return a, kontor.core.fs.realpath(base .. "/b")
  end

  local function save_in(a)
    local out, code = run_in(a, [[
      local g = kontor.new_game { variants = { { "./cheap.lua", options = { price = "8", loud = "true" } } },
        players = 2, options = { start_coins = "3" } }
      assert(g:apply(1))
      assert(g:save("g.json"))
      print("saved")]])
    assert.are.equal(0, code, out)
    return kontor.json.decode(read(a .. "/g.json"))
  end

  it("keep option values typed as the files declare them", function()
    local a = dirs()
    local doc = save_in(a)
    assert.are.equal(8, doc.variants[1].options.price)
    assert.are.equal(true, doc.variants[1].options.loud)
    assert.are.equal(3, doc.options.start_coins)
    assert.are.equal("./cheap.lua", doc.variants[1].name)
  end)

  it("load from any folder: a variant file beside the save is found from elsewhere", function()
    local a, b = dirs()
    local doc = save_in(a)
    assert.are.equal("cheap.lua", doc.files[2].path)
    assert.is_string(doc.files[2].hash)
    local out, code = run_in(b, [[
      local g, err, warns = kontor.load_game("../a/g.json")
      assert(g, err)
      print(#g:moves(), g.R.applied[1].options.price, #warns)]])
    assert.are.equal(0, code, out)
    assert.are.equal("1\t8\t0\n", out)
  end)

  it("warn on load when a rule or variant file changed since the save", function()
    local a, b = dirs()
    save_in(a)
    write(a .. "/cheap.lua", CHEAP .. "-- edited\n")
    local out, code = run_in(b, [[
      local g, err, warns = kontor.load_game("../a/g.json")
      assert(g, err)
      print(warns[1])]])
    assert.are.equal(0, code, out)
    assert.truthy(out:find("../a/g.json: " .. a .. "/cheap.lua changed since the game was saved", 1, true), out)
  end)

  it("a load refused since a variant file changed says which file changed, and what gives the game back", function()
    local a, b = dirs()
    save_in(a)
    local note = " (" .. a .. "/cheap.lua changed since the game was saved: put it back as it was to load the "
      .. "game as it was)"
    -- the move saved no longer replays: the variant now takes loading away
    write(a .. "/cheap.lua", CHEAP:gsub("apply = function%(R, o%) end", [[apply = function(R, o)
    R.constraints[#R.constraints + 1] = { decisions = { "load" }, check = function(_, _, _, text)
      if text:find("^load grain") then return "no grain" end end } end]]))
    local out, code = run_in(b, [[
      local g, err = kontor.load_game("../a/g.json")
      print(g, err.kind, err.message)]])
    assert.are.equal(0, code, out)
    assert.truthy(out:find("^nil\trules\t../a/g.json: action 1 '1: [^\n]*'[^\n]*%(" .. a:gsub("%p", "%%%0")
      .. "/cheap.lua changed since the game was saved: put it back as it was to load the game as it was%)\n$"), out)
    -- the variant no longer has the option the save gives: refused at the game's start
    write(a .. "/cheap.lua", CHEAP:gsub("price = ", "cost = "))
    out = run_in(b, [[print(select(2, kontor.load_game("../a/g.json")).message)]])
    assert.truthy(out:find(note, 1, true), out)
    -- the variant no longer loads: the note ends the first line, before any traceback
    write(a .. "/cheap.lua", CHEAP:gsub("apply = function%(R, o%) end", "apply = function(R, o) R.x.y = 1 end"))
    out = run_in(b, [[print((select(2, kontor.load_game("../a/g.json")).message:match("^[^\n]*")))]])
    assert.truthy(out:find(note .. "\n", 1, true), out)
    -- unchanged, a refusal has no note
    write(a .. "/cheap.lua", CHEAP)
    write(a .. "/g.json", read(a .. "/g.json"):gsub('"1: [^"]*"', '"1: fly away"'))
    out = run_in(b, [[print(select(2, kontor.load_game("../a/g.json")).message)]])
    assert.truthy(out:find("cannot be replayed", 1, true) and not out:find("changed since", 1, true), out)
  end)

  it("refuse devices, system files, FIFOs, big files and folders elsewhere, before opening them", function()
    local a, b = dirs()
    local doc = save_in(a)
    os.execute("mkfifo " .. sh_quote(a .. "/fifo.lua"))
    os.execute("ln -s /dev/zero " .. sh_quote(a .. "/zero.lua"))
    write(a .. "/big.lua", ("-- padding\n"):rep(100000))
    local elsewhere = tmp("elsewhere.lua")
    write(elsewhere, CHEAP)
    local cases = {
      { "/dev/stdin", "a save may name only .lua rule files" },
      { "/etc/passwd", "a save may name only .lua rule files" },
      { "/dev/zero", "a save may name only .lua rule files" },
      { "fifo.lua", "fifo.lua: refused: not a regular file" },
      { "zero.lua", "zero.lua: refused: not a regular file" },
      { "big.lua", "big.lua: refused: too large (1100000 bytes; at most 1048576)" },
      { elsewhere, "refused: outside the folders a save may name" },
      { "../../../etc", "a save may name only .lua rule files" },
    }
    for _, c in ipairs(cases) do
      for _, field in ipairs { "rules", "variant" } do
        local d = kontor.json.decode(kontor.json.encode(doc))
        d.files = nil
        if field == "rules" then d.rules = c[1] else d.variants[1].name = c[1] end
        write(a .. "/evil.json", kontor.json.encode(d))
        local out, code = run_in(b, [[
          local g, err = kontor.load_game("../a/evil.json")
          print(g, err)]])
        assert.are.equal(0, code, c[1] .. ": " .. out)
        assert.truthy(out:find(c[2], 1, true), c[1] .. ": " .. out)
        assert.truthy(out:find("^nil\t../a/evil.json: "), out)
      end
    end
  end)
end)
