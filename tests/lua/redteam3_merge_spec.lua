-- redteam3: hostile shard files for kontor merge (lua/kontor/balance/run.lua,
-- check_shard and merge): sums near 2^63 that wrap when added, sums beyond
-- what a float holds, negative counts, shares above a whole game, a sum of
-- squares too small for its sum (a zero-width interval), seat counts that
-- are no count. Each gives one message naming the shard, never a report
-- with a wrong figure (docs/security.md, "Red team 3"). Sums that add up
-- past 2^62 together go on as floats, as the lab's own do (many seats:
-- tests/lua/leftovers_many_seats_spec.lua).
local kontor = require "kontor"
local support = require "tests.lua.support"
local run = require "kontor.balance.run"

local function shard(k)
  local out, err = support.run_split(support.binary() .. " sim --games 20 --shard " .. k .. "/2")
  assert(err == "", err)
  return kontor.json.decode(out)
end

local function refused(a, b, message)
  local ok, e = pcall(run.merge, { a, b })
  assert.is_false(ok, "merged")
  assert.are.equal(message, tostring(e))
end

describe("redteam3: kontor merge of hostile shards", function()
  local s1, s2
  setup(function() s1, s2 = shard(1), shard(2) end)
  local function copy() return kontor.json.decode(kontor.json.encode(s1)), kontor.json.decode(kontor.json.encode(s2)) end

  it("the two shards as made merge (20 games)", function()
    local a, b = copy()
    local sides = run.merge { a, b }
    assert.are.equal(20, sides[1].data.n)
  end)

  it("integer sums near 2^63 (which wrapped to a negative mean) are refused", function()
    local a, b = copy()
    for _, sh in ipairs { a, b } do
      sh.sides[1].acc.sum.branching = 9223372036854775000
      sh.sides[1].acc.sq.branching = 9223372036854775000
    end
    refused(a, b, "shard 1: side 1: the sum of branching is 9223372036854775000, beyond 2^62")
  end)

  it("a sum near the float's largest (inf and nan once added) is refused", function()
    local a, b = copy()
    a.sides[1].acc.sum.margin, a.sides[1].acc.sq.margin = 1.5e308, 1.7e308
    refused(a, b, "shard 1: side 1: the sum of margin is 1.5e+308, beyond 2^1000")
  end)

  it("the shards' sums of squares that add up beyond 2^62 together go on as a float, never wrapping", function()
    local a, b = copy()
    for _, sh in ipairs { a, b } do
      sh.sides[1].acc.sum.branching, sh.sides[1].acc.sq.branching = 1000000, (1 << 62) - 1
    end
    local sides = run.merge { a, b }
    assert.are.same({ "integer", "float", 2.0 ^ 63 }, { math.type(sides[1].data.sum.branching),
      math.type(sides[1].data.sq.branching), sides[1].data.sq.branching })
  end)

  it("negative options per decision and a share of games above one a game are refused", function()
    local a, b = copy()
    a.sides[1].acc.sum.branching = -5
    refused(a, b, "shard 1: side 1: the sum of branching is -5, below 0")
    a, b = copy()
    a.sides[1].acc.sum.decided = 10001
    refused(a, b, "shard 1: side 1: decided is 10001, more than 1000 (a whole game) in each of the 10 games")
  end)

  it("a sum of squares below what the sum needs (a zero-width interval) is refused", function()
    local a, b = copy()
    a.sides[1].acc.sq.margin = 0
    local ok, e = pcall(run.merge, { a, b })
    assert.is_false(ok)
    assert.truthy(support.has(tostring(e), "shard 1: side 1: the sum of squares of margin is 0, less than 10 games "
      .. "adding up to "), tostring(e))
  end)

  it("a seat count that is no count or not its seats', and a run of more games than 2^31, are refused", function()
    local a, b = copy()
    for _, sh in ipairs { a, b } do sh.sides[1].info.players = 0 end
    refused(a, b, 'shard 1: side 1: "players" is not a seat count')
    a, b = copy()
    for _, sh in ipairs { a, b } do sh.sides[1].info.players = 50 end
    refused(a, b, 'shard 1: side 1: "seats": 4 given, 50 expected')
    a, b = copy()
    a.games, b.games, b.hi = 1 << 40, 1 << 40, 1 << 40
    refused(a, b, "shard 1: a run of 1099511627776 games, more than 2147483648")
    local ok, e = pcall(run.check_head, { kontor = "shard", version = 2, kind = "worth", games = 1 << 40, lo = 1, hi = 1 },
      "worth", "games", "x")
    assert.is_false(ok)
    assert.are.equal("a run of 1099511627776 games, more than 2147483648", e)
  end)

  it("a rule set of 21 seats still runs in two jobs", function()
    local dir = support.tmpdir()
    local src = support.read("tests/rulesets/race.lua"):gsub("players = { min = 1, max = 6", "players = { min = 1, max = 30")
    support.write(dir .. "/race30.lua", src)
    local out, code = support.run(support.binary() .. " sim --rules " .. dir .. "/race30.lua --players 21 --games 20 --jobs 2")
    os.execute("rm -rf " .. support.sh_quote(dir))
    assert.are.equal(0, code, out)
    assert.truthy(support.has(out, "games        20 (seed 1)"), out)
  end)

  it("worth: a count beyond 2^62 in a shard, or in the shards together, is refused", function()
    local worth = require "kontor.balance.worth"
    local function wshard(k)
      local out, err = support.run_split(support.binary() .. " worth --bot random --games 4 --kinds 'phase1: pass' "
        .. "--shard " .. k .. "/2")
      assert(err == "", err)
      return kontor.json.decode(out)
    end
    local a, b = wshard(1), wshard(2)
    a.sums[1].decisions, b.sums[1].decisions = (1 << 62) + 1, (1 << 62) + 1
    local ok, e = pcall(worth.merge, { a, b })
    assert.is_false(ok)
    assert.are.equal("shard 1: the sums of 'phase1: pass': \"decisions\" is 4611686018427387905, beyond 2^62", e)
    a.sums[1].decisions, b.sums[1].decisions = (1 << 62) - 1, (1 << 62) - 1
    ok, e = pcall(worth.merge, { a, b })
    assert.is_false(ok)
    assert.are.equal("shard 2: the shards' \"decisions\" of 'phase1: pass' add up beyond 2^62 by this one", e)
  end)
end)
