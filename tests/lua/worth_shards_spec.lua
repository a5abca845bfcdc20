-- kontor worth in parts (docs/balance.md, "What is a move worth?"):
-- --shard K/N prints the lab's version-2 shard of its games, kontor merge
-- adds shards up to exactly what one run prints (byte for byte, text and
-- JSON), --jobs passes its parts through the same checks, and a shard that
-- is wrong is refused field by field with FILE:LINE: why, before anything
-- is printed. A sweep's shards merge to the bytes of one run too.

local support = require "tests.lua.support"
local json = kontor.core.json

local q = support.sh_quote
local runner = support.lab()
local tmp, kontor_cmd = runner.tmp, runner.run
teardown(runner.cleanup)

local RUN = "worth --players 3 --bot random --games 45 --seed 9 "
  .. "--kinds 'phase1: buy;phase2: draw;buy_card: buy contract;play_more: play fish'"

-- shard k of 3 of RUN, written to a file; its path
local shards = {}
local function shard(k)
  if not shards[k] then
    local out, e, code = kontor_cmd(RUN .. " --shard " .. k .. "/3")
    assert.are.equal(0, code, e)
    shards[k] = tmp("worth-" .. k .. ".json")
    support.write(shards[k], out)
  end
  return shards[k]
end

-- a copy of shard 1 with its object changed by f, as a file
local function broken(f)
  local sh = json.decode(support.read(shard(1)))
  f(sh)
  local path = tmp("broken.json")
  support.write(path, "\n" .. json.encode(sh) .. "\n")
  return path
end

local function merge_err(files)
  local out, e, code = kontor_cmd("merge " .. files)
  assert.are.equal(1, code)
  assert.are.equal("", out)
  return e
end

describe("kontor worth --shard", function()
  it("prints a version-2 shard of its games: the setup, the bot, the kinds and their sums", function()
    local sh = json.decode(support.read(shard(2)))
    assert.are.equal("shard", sh.kontor)
    assert.are.equal(2, sh.version)
    assert.are.equal("worth", sh.kind)
    assert.are.same({ 16, 30, 45, 9 }, { sh.lo, sh.hi, sh.games, sh.seed })
    assert.are.equal("random", sh.bot)
    assert.are.same({ label = "--rules sea_merchants --players 3", players = 3, rules = "sea_merchants",
                      variants = {} }, sh.info)
    assert.are.same({ "phase1: buy", "phase2: draw", "buy_card: buy contract", "play_more: play fish" }, sh.kinds)
    for _, a in ipairs(sh.sums) do
      assert.are.equal(15, a.games)
      assert.are.equal(0, a.broken)
    end
  end)

  it("merges, in any order, to the bytes one run prints: JSON, text and report #slow", function()
    local one = kontor_cmd(RUN .. " --jobs 1 --json")
    local merged, e, code = kontor_cmd("merge " .. q(shard(3)) .. " " .. q(shard(1)) .. " " .. q(shard(2)) .. " --json")
    assert.are.equal(0, code, e)
    assert.are.equal(one, merged)
    assert.are.equal("worth", json.decode(merged).kind)
    local text1 = kontor_cmd(RUN .. " --jobs 1")
    local text2 = kontor_cmd("merge " .. q(shard(2)) .. " " .. q(shard(1)) .. " " .. q(shard(3)))
    assert.are.equal(text1, text2)
    assert.truthy(text1:find("What a move is worth: random, 3 players, 45 games a kind (seed 9)", 1, true), text1)
    -- a file of several shards, one a line
    local all = tmp("all.jsonl")
    support.write(all, support.read(shard(1)) .. support.read(shard(2)) .. support.read(shard(3)))
    assert.are.equal(one, (kontor_cmd("merge " .. q(all) .. " --json")))
    local r1, r2 = tmp("r1.html"), tmp("r2.html")
    kontor_cmd(RUN .. " --jobs 1 --report " .. q(r1))
    kontor_cmd("merge " .. q(all) .. " --report " .. q(r2))
    assert.are.equal(support.read(r1), support.read(r2))
  end)

  it("with --jobs 2 gives the bytes of --jobs 1, its parts checked as shards #slow", function()
    local one = kontor_cmd(RUN .. " --jobs 1 --json")
    local two, e, code = kontor_cmd(RUN .. " --jobs 2 --json")
    assert.are.equal(0, code, e)
    assert.are.equal("", e)
    assert.are.equal(one, two)
    -- a shard played in two jobs is the shard played in one
    local s2 = kontor_cmd(RUN .. " --shard 2/3 --jobs 2")
    assert.are.equal(support.read(shard(2)), s2)
  end)

  it("refuses shards that do not make one whole run, saying which games", function()
    assert.are.equal("kontor: merge: games 16-30 are missing (no shard has them)\n",
      merge_err(q(shard(1)) .. " " .. q(shard(3))))
    assert.are.equal("kontor: merge: games 1-15 are in two shards (" .. shard(1) .. ":1 and " .. shard(1) .. ":1)\n",
      merge_err(q(shard(1)) .. " " .. q(shard(1)) .. " " .. q(shard(2)) .. " " .. q(shard(3))))
    local other = broken(function(sh) sh.seed = 10 end)
    assert.are.equal(string.format("kontor: merge: %s:2: games 1-15 are from another run than %s:1: "
      .. "its seed is 10, not 9\n", other, shard(2)),
      merge_err(q(shard(2)) .. " " .. q(other) .. " " .. q(shard(3))))
    local _, e, code = kontor_cmd("merge " .. q(shard(1)) .. " --games-out " .. q(tmp("g.jsonl")))
    assert.are.equal(1, code)
    assert.are.equal("kontor: merge: --games-out is for the shards of sim and compare, not of worth\n", e)
  end)

  it("refuses a wrong shard field by field, with its file and line, printing nothing", function()
    local cases = {
      { function(sh) sh.version = 1 end, "made by an older kontor (its games, not their sums): make it again" },
      { function(sh) sh.lo = "1" end, '"games", "lo" and "hi" must be whole numbers' },
      { function(sh) sh.hi = 46 end, "games 1-46 are not a range of games 1-45" },
      { function(sh) sh.seed = 1.5 end, '"seed" must be a whole number' },
      { function(sh) sh.bot = 7 end, '"bot" must be a bot\'s text (e.g. "greedy")' },
      { function(sh) sh.info = nil end, 'it has no "info" (the setup)' },
      { function(sh) sh.info.players = 0 end, '"info": "players" is not a seat count' },
      { function(sh) sh.info.label = false end, '"info": "label" and "rules" must be texts' },
      { function(sh) sh.info.variants = nil end, '"info": "variants" is missing' },
      { function(sh) sh.info.variants = { 7 } end, '"info": "variants": entry 1 is not a variant\'s name' },
      { function(sh) sh.kinds = {} end, '"kinds" is empty' },
      { function(sh) sh.kinds[2] = "draw" end, '"kinds": entry 2 is not a kind of move (DECISION: WORDS)' },
      { function(sh) sh.kinds[2] = "phase1: buy" end, "\"kinds\": 'phase1: buy' is given twice" },
      { function(sh) sh.sums[4] = nil end, '"sums" (one per kind): 3 given, 4 expected' },
      { function(sh) sh.sums[1].wins = 2.5 end, "the sums of 'phase1: buy': \"wins\" must be a whole number" },
      { function(sh) sh.sums[1].kept = -3 end, "the sums of 'phase1: buy': \"kept\" is -3, below 0" },
      { function(sh) sh.sums[2].games = 14 end, "the sums of 'phase2: draw' are of 14 games, the shard has 15" },
      { function(sh) sh.sums[1].wins = 16 * 6 end, "the sums of 'phase1: buy': the seat won more than its 15 games" },
      { function(sh) sh.sums[1].wins2 = 0 end, "cannot be the squares of wins adding up to" },
      { function(sh) sh.sums[3].kept_games = 16 end, "the sums of 'buy_card: buy contract': kept from it in 16 games of 15" },
      { function(sh) sh.sums[1].broken = sh.sums[1].kept + 1 end, "avoided moves made, kept from it" },
      { function(sh) sh.kind = "sim" end, "a sim shard, not one of kontor worth" },
      -- the differences from the same seat unrestricted, and the unrestricted deals
      { function(sh) sh.sums[1].paired = nil end, "the sums of 'phase1: buy': \"paired\" must be a whole number" },
      { function(sh) sh.sums[1].paired = -16 * 6 end, "\"paired\" (-96) is more than 15 games could differ by" },
      { function(sh) sh.sums[1].paired2 = sh.sums[1].paired2 + 15 * 36 end,
        "\"paired2\" (" },
      { function(sh) sh.sums[1].paired2 = -1 end, "\"paired2\" is -1, below 0" },
      { function(sh) sh.unrestricted = nil end, "\"unrestricted\" must be an object (the unrestricted deals' sums)" },
      { function(sh)
          sh.unrestricted = nil
          for _, a in ipairs(sh.sums) do a.paired, a.paired2 = nil, nil end
        end, "made by an older kontor (no unrestricted deals to pair with): make it again" },
      { function(sh) sh.unrestricted = { 1, 2 } end, "\"unrestricted\" must be an object" },
      { function(sh) sh.unrestricted.games = 14 end, "\"unrestricted\": 14 games, the shard has 15" },
      { function(sh) sh.unrestricted.wins = 16 * 6 end, "\"unrestricted\": the seat won more than its 15 games" },
      { function(sh) sh.unrestricted.wins2 = "x" end, "\"unrestricted\": \"wins2\" must be a whole number" },
    }
    for _, c in ipairs(cases) do
      local path = broken(c[1])
      local e = merge_err(q(path) .. " " .. q(shard(2)) .. " " .. q(shard(3)))
      assert.truthy(e:find("kontor: merge: " .. path .. ":2: ", 1, true), e)
      assert.truthy(e:find(c[2], 1, true), e)
    end
    -- a worth shard among a sim's shards: the sim's shard is named
    local sim = tmp("sim.json")
    support.write(sim, (kontor_cmd("sim --players 3 --games 10 --shard 1/1")))
    assert.are.equal(string.format("kontor: merge: %s:1: a sim shard, not one of kontor worth\n", sim),
      merge_err(q(shard(1)) .. " " .. q(sim)))
  end)
end)

describe("kontor sweep in shards", function()
  it("merges to the bytes one run prints: JSON, text and report, and --jobs 2 too", function()
    local args = "sweep --rules tests/balance/dice.lua --over target=15..18 --games 90 --seed 4 --moves"
    local files = {}
    for k = 1, 3 do
      local out, e, code = kontor_cmd(args .. " --shard " .. k .. "/3")
      assert.are.equal(0, code, e)
      files[k] = tmp("sweep-" .. k .. ".json")
      support.write(files[k], out)
    end
    local list = q(files[2]) .. " " .. q(files[3]) .. " " .. q(files[1])
    local one = kontor_cmd(args .. " --jobs 1 --json")
    assert.are.equal("sweep", json.decode(one).kind)
    assert.are.equal(one, (kontor_cmd("merge " .. list .. " --json")))
    assert.are.equal(one, (kontor_cmd(args .. " --jobs 2 --json")))
    assert.are.equal(kontor_cmd(args .. " --jobs 1"), (kontor_cmd("merge " .. list)))
    local r1, r2 = tmp("sweep1.html"), tmp("sweep2.html")
    kontor_cmd(args .. " --jobs 1 --report " .. q(r1))
    kontor_cmd("merge " .. list .. " --report " .. q(r2))
    assert.truthy(support.read(r1):find('<section id="sweep-moves">', 1, true))
    assert.are.equal(support.read(r1), support.read(r2))
  end)
end)

describe("kontor merge of a variant's worth shards", function()
  it("names its bots with the variant's ladder, as one run does", function()
    -- greedy is on Sea Merchants' ladder but not on the house preset's: a
    -- merged run must not borrow the base game's rating
    local run = "worth --variant house --bot greedy --games 2 --seed 3 --kinds 'phase1: buy'"
    local whole, e, code = kontor_cmd(run)
    assert.are.equal(0, code, e)
    local parts = {}
    for k = 1, 2 do
      local out, pe, pc = kontor_cmd(run .. " --shard " .. k .. "/2")
      assert.are.equal(0, pc, pe)
      parts[k] = tmp("house-" .. k .. ".json")
      support.write(parts[k], out)
    end
    local merged, me, mc = kontor_cmd("merge " .. q(parts[1]) .. " " .. q(parts[2]))
    assert.are.equal(0, mc, me)
    assert.are.equal(whole, merged)
    assert.is_truthy(merged:find("bots: greedy:budget=6,depth=8,focus=1,samples=1 on seats 1-4 (not on the ladder)",
      1, true), merged)
    assert.are.same({ "house" }, json.decode(support.read(parts[1])).info.variants)
  end)
end)
