-- kontor ladder in parts (docs/bots.md, "Skill ladder"): --jobs N plays
-- the deals in N processes and prints what one process prints; --shard K/N
-- prints a version-2 shard of its deals, which kontor merge adds up to the
-- ladder of one run (text and JSON); a shard that is wrong is refused
-- field by field with FILE:LINE: why, before anything is printed.

local support = require "tests.lua.support"
local json = kontor.core.json

local runner = support.lab()
local tmp, kontor_cmd = runner.tmp, runner.run
teardown(runner.cleanup)

local BOTS = "random random:prefer=phase1:buy random:avoid=phase1:buy"
local RUN = "ladder --rules sea_merchants --deals 5 --seed 5 " .. BOTS

-- the CPU seconds are the only field that differs between runs
local function without_cpu(text)
  return (text:gsub("%(%d+ s of CPU%)", "(CPU)"):gsub('"cpu":[%d.e+-]+', '"cpu":0'))
end

local shards = {}
local function shard(k, n)
  n = n or 3
  local key = k .. "/" .. n
  if not shards[key] then
    local out, e, code = kontor_cmd(RUN .. " --shard " .. key)
    assert.are.equal(0, code, e)
    shards[key] = tmp("ladder-" .. k .. "-" .. n .. ".json")
    support.write(shards[key], out)
  end
  return shards[key]
end

local function merge_err(files)
  local out, e, code = kontor_cmd("merge " .. table.concat(files, " "))
  assert.are.equal(1, code, e)
  assert.are.equal("", out)
  return e
end

describe("kontor ladder --jobs", function()
  it("prints the ladder of one process, in text and in JSON", function()
    local one, e1, c1 = kontor_cmd(RUN .. " --jobs 1")
    local two, e2, c2 = kontor_cmd(RUN .. " --jobs 2")
    assert.are.same({ 0, 0 }, { c1, c2 }, e1 .. e2)
    assert.are.equal(without_cpu(one), without_cpu(two))
    assert.is_truthy(one:find("5 deals (seed 5), 10 games a pair, 30 games", 1, true), one)
    local j1 = kontor_cmd(RUN .. " --jobs 1 --json")
    local j3 = kontor_cmd(RUN .. " --jobs 3 --json")
    assert.are.equal(without_cpu(j1), without_cpu(j3))
    assert.are.equal(30, json.decode(j3).games)
  end)
end)

describe("kontor ladder --shard and kontor merge", function()
  it("keeps each deal's results, in a shard of the lab's version 2", function()
    local sh = json.decode(support.read(shard(2)))
    assert.are.same({ "shard", 2, "ladder", 5, 2, 3, 5 }, { sh.kontor, sh.version, sh.kind, sh.seed, sh.lo, sh.hi, sh.deals })
    assert.are.same({ "random", "random:prefer=phase1:buy", "random:avoid=phase1:buy" }, sh.bots)
    -- two deals, three pairs each: the first bot's wins of the deal's two games
    assert.are.equal(2, #sh.results)
    for _, r in ipairs(sh.results) do
      assert.are.equal(3, #r)
      for _, x in ipairs(r) do assert.is_true(x >= 0 and x <= 2) end
    end
  end)

  it("adds shards up to the ladder of one run, whatever their order", function()
    local whole = kontor_cmd(RUN .. " --jobs 1")
    local out, e, code = kontor_cmd("merge " .. table.concat({ shard(3), shard(1), shard(2) }, " "))
    assert.are.equal(0, code, e)
    assert.are.equal(without_cpu(whole), without_cpu(out))
    local wj = kontor_cmd(RUN .. " --jobs 1 --json")
    local mj = kontor_cmd("merge --json " .. shard(1, 2) .. " " .. shard(2, 2))
    assert.are.equal(without_cpu(wj), without_cpu(mj))
  end)

  it("says which deals are missing or twice, and refuses another ladder's part", function()
    assert.are.equal("kontor: merge: deals 4-5 are missing (no shard has them)\n",
      merge_err { shard(1), shard(2) })
    assert.are.equal("kontor: merge: deals 2-3 are in two shards (" .. shard(2) .. ":1 and " .. shard(2) .. ":1)\n",
      merge_err { shard(1), shard(2), shard(2), shard(3) })
    local out, e, code = kontor_cmd("ladder --rules sea_merchants --deals 5 --seed 6 " .. BOTS .. " --shard 3/3")
    assert.are.equal(0, code, e)
    local other = tmp("other-seed.json")
    support.write(other, out)
    assert.are.equal(string.format("kontor: merge: %s:1: deals 4-5 are from another ladder than %s:1: "
      .. "its seed is 6, not 5\n", other, shard(1)), merge_err { shard(1), shard(2), other })
  end)

  it("refuses a broken shard field by field, with its file and line", function()
    local function broken(f)
      local sh = json.decode(support.read(shard(3)))
      f(sh)
      local path = tmp("broken.json")
      support.write(path, "\n" .. json.encode(sh) .. "\n")
      return path
    end
    local cases = {
      { function(sh) sh.version = 1 end, "made by an older kontor (another form of ladder): make it again" },
      { function(sh) sh.hi = 9 end, "deals 4-9 are not a range of deals 1-5" },
      { function(sh) sh.results[2][3] = 2.5 end,
        "\"results\" of deal 5 (one per pair of bots): entry 3 is not a share of two games, 0 to 2" },
      { function(sh) sh.results[2] = nil end, "\"results\" (one per deal): 1 given, 2 expected" },
      { function(sh) sh.bots[3] = "wizard" end, "\"bots\": entry 3 is not a bot's text (e.g. \"greedy\")" },
      { function(sh) sh.bots[3] = "random" end, "\"bots\": 'random' is given twice" },
      { function(sh) sh.cpu = -1 end, "\"cpu\" must be the seconds of CPU the shard took" },
    }
    for _, c in ipairs(cases) do
      local path = broken(c[1])
      assert.are.equal(string.format("kontor: merge: %s:2: %s\n", path, c[2]), merge_err { shard(1), shard(2), path })
    end
  end)

  it("says what is wrong with --shard, --range and --seed", function()
    local cases = {
      { RUN .. " --shard 4/3", "kontor: ladder: --shard must be K/N with 1 <= K <= N, not '4/3'" },
      { RUN .. " --range 2-9", "kontor: ladder: --range must be LO-HI (deal numbers 1-5), not '2-9'" },
      { RUN .. " --range 1-2 --shard 1/2", "kontor: ladder: --range and --shard cannot be used together" },
      { "ladder --rules sea_merchants --deals 5 --seed random " .. BOTS .. " --shard 1/2",
        "kontor: ladder: --seed random would draw another seed in each shard: give every shard the same whole number" },
      { RUN .. " --jobs 0", "kontor: ladder: --jobs must be at least 1" },
    }
    runner.usage_errors(cases)
  end)
end)

describe("a child job's progress lines", function()
  -- the parent reads its jobs' pipes one after another: a job that wrote
  -- a line every few games could fill its pipe and wait for the others
  local function lines_of(args)
    local p = assert(io.popen(string.format("cd %s && KONTOR_LAB_PROGRESS=1 %s %s 2>&1",
      support.sh_quote(runner.root), support.sh_quote(runner.binary), args)))
    local progress, last, rest = 0, -1, {}
    for l in p:lines() do
      local d = tonumber(l:match("^progress (%d+)$"))
      if d then
        assert.is_true(d > last, l)
        progress, last = progress + 1, d
      else
        rest[#rest + 1] = l
      end
    end
    p:close()
    return progress, last, rest
  end

  it("are about 200 at most, however many games the job plays #slow", function()
    -- 12,000 games of a quick rule set: a line every 25 would be 480
    local n, last, rest = lines_of("sim --rules tests/rulesets/race.lua --games 12000 --range 1-12000 --seed 1 --no-moves")
    assert.is_true(n >= 100 and n <= 201, tostring(n))
    assert.is_true(last > 11000 and last <= 12000, tostring(last))   -- games played
    assert.are.equal(1, #rest)                                       -- then the shard
    assert.are.equal("shard", json.decode(rest[1]).kontor)
  end)

  it("count a ladder's deals, one line a deal while there are few", function()
    local n, last = lines_of(RUN .. " --range 1-5")
    assert.are.same({ 5, 5 }, { n, last })
  end)
end)

describe("a hostile bot text in a ladder", function()
  -- a restriction's words are the user's (or a shard's): they reach the
  -- terminal through the one text sink, escaped, run or merged
  local bot = "random:avoid=\27]0;pwn\7x"
  it("is escaped when the ladder is run and when its shard is merged", function()
    local run = "ladder --deals 2 --seed 3 random " .. support.sh_quote(bot)
    local out, e, code = kontor_cmd(run)
    assert.are.equal(0, code, e)
    assert.falsy(out:find("\27", 1, true))
    assert.truthy(out:find("random:avoid=\\e]0;pwn\\ax", 1, true), out)
    -- the ratings line up as shown: each name padded by its escaped width
    local ends = {}
    for l in out:gmatch("[^\n]+") do
      if l:find("^  random") then ends[#ends + 1] = select(2, l:find("^  %S+ +%-?%d+")) end
    end
    assert.are.equal(2, #ends, out)
    assert.are.equal(ends[1], ends[2], out)
    local part, pe, pc = kontor_cmd(run .. " --shard 1/1")
    assert.are.equal(0, pc, pe)
    local path = tmp("hostile.json")
    support.write(path, part)
    local merged, me, mc = kontor_cmd("merge " .. support.sh_quote(path))
    assert.are.equal(0, mc, me)
    assert.falsy(merged:find("\27", 1, true))
    assert.are.equal(without_cpu(out), without_cpu(merged))
  end)
end)
