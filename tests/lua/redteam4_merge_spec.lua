-- redteam4_merge_spec.lua: hostile shards for kontor merge after "sums
-- past 2^62 go on as floats" (lua/kontor/balance/run.lua). Shards may now
-- hold floating-point sums up to 2^1000, and the win measures had no bound
-- of their own: a first_player sum of -2^400 (its squares 2^1000) printed
-- a 121-digit first-player advantage, and a sum of squares of 2^1000 (or
-- the integer 2^62) for seat 1's wins moved its interval. Each is now one
-- message naming the shard; ordinary shards, and the sums the checks
-- held before (NaN, Infinity, 1e999, 2^64 as text; negative wins;
-- hist counts of 1.5), still merge or are refused as they were.
local kontor = require "kontor"
local support = require "tests.lua.support"
local run = require "kontor.balance.run"

local function shard(args, k)
  local out, err = support.run_split(support.binary() .. " " .. args .. " --shard " .. k .. "/2")
  assert(err == "", err)
  return out
end

local function refused(a, b, message)
  local ok, e = pcall(run.merge, { a, b })
  assert.is_false(ok, "merged")
  assert.are.equal(message, tostring(e))
end

describe("red team 4: kontor merge after the floats", function()
  local t1, t2, c1, c2
  setup(function()
    t1, t2 = shard("sim --games 20", 1), shard("sim --games 20", 2)
    c1, c2 = shard("compare --a '' --b '--variant hand_limit' --games 20", 1),
      shard("compare --a '' --b '--variant hand_limit' --games 20", 2)
  end)
  local function sims() return kontor.json.decode(t1), kontor.json.decode(t2) end

  it("the shards as made merge, sim and compare", function()
    local a, b = sims()
    assert.are.equal(20, run.merge({ a, b })[1].data.n)
    assert.are.equal(20, run.merge({ kontor.json.decode(c1), kontor.json.decode(c2) })[1].data.n)
  end)

  it("sweep --over players pairs sides of 2 to 4 seats: their differences still merge", function()
    local a = kontor.json.decode(shard("sweep --over players=2..4 --games 10", 1))
    local b = kontor.json.decode(shard("sweep --over players=2..4 --games 10", 2))
    assert.is_truthy(a.pairs)
    assert.are.equal(10, run.merge({ a, b })[1].data.n)
  end)

  it("a first-player advantage no game can give is refused (was -1.08e119 per game)", function()
    local a, b = sims()
    a.sides[1].acc.sum.first_player, a.sides[1].acc.sq.first_player = -2.0 ^ 400, 2.0 ^ 1000
    refused(a, b, "shard 1: side 1: the sum of first_player is -2.5822498780869e+120, outside what 10 games "
      .. "can have (-30 to 120)")
    a, b = sims()
    a.sides[1].acc.sq.first_player = 1 << 62
    refused(a, b, "shard 1: side 1: the sum of squares of first_player is 4611686018427387904, more than 10 games "
      .. "adding up to " .. a.sides[1].acc.sum.first_player .. " can have")
  end)

  it("a sum of squares of wins beyond W times the wins is refused (it moved the interval)", function()
    for _, sq in ipairs { 2.0 ^ 1000, 1 << 62 } do
      local a, b = sims()
      a.sides[1].acc.sq["win_rate.1"] = sq
      refused(a, b, "shard 1: side 1: the sum of squares of win_rate.1 is " .. tostring(sq)
        .. ", more than 10 games adding up to " .. a.sides[1].acc.sum["win_rate.1"] .. " can have")
    end
  end)

  it("a compare shard's differences of wins beyond its games are refused", function()
    local a, b = kontor.json.decode(c1), kontor.json.decode(c2)
    a.pairs[1].sum["win_rate.1"], a.pairs[1].sq["win_rate.1"] = 2.0 ^ 300, 2.0 ^ 1000
    refused(a, b, "shard 1: the differences of side 2: the sum of win_rate.1 is 2.0370359763345e+90, outside "
      .. "what 10 games can have (-120 to 120)")
  end)

  it("NaN, Infinity, 1e999 and 2^64 as text are refused as JSON, each in one line", function()
    local tmp, cleanup = support.scratch()
    local good = support.write(tmp("b.json"), t2)
    for text, why in pairs {
      NaN = "invalid token near 'NaN'", Infinity = "invalid token near 'Infinity'",
      ["1e999"] = "real number overflow near '1e999'", ["18446744073709551616"] = "too big integer near '18446744073709551616'",
    } do
      local bad = support.write(tmp("a.json"), (t1:gsub('"first_player":%s*0', '"first_player": ' .. text, 1)))
      local out = support.kontor_rc("merge " .. bad .. " " .. good)
      assert.truthy(support.has(out, "kontor: merge: " .. bad .. ":1: not valid JSON: ") and support.has(out, why), out)
      assert.truthy(support.has(out, "rc=1"), out)
      assert.is_nil(out:find("traceback"), out)
    end
    cleanup()
  end)

  it("integer and float sums mixed, and 2^1000 at its edge, merge to the same figures", function()
    local a, b = sims()
    local ref = run.merge { a, b }
    a, b = sims()
    for k, v in pairs(a.sides[1].acc.sum) do a.sides[1].acc.sum[k] = v + 0.0 end
    for k, v in pairs(b.sides[1].acc.sq) do b.sides[1].acc.sq[k] = v + 0.0 end
    local mixed = run.merge { a, b }
    assert.are.equal(ref[1].data.sum["win_rate.1"], mixed[1].data.sum["win_rate.1"])
    assert.are.equal(ref[1].data.sq.margin, mixed[1].data.sq.margin)
    a, b = sims()
    a.sides[1].acc.sq.margin = 2.0 ^ 1000
    assert.are.equal(2.0 ^ 1000, run.merge({ a, b })[1].data.sq.margin)
    a.sides[1].acc.sq.margin = 2.0 ^ 1000 * (1 + 2 ^ -52)
    refused(a, b, "shard 1: side 1: the sum of squares of margin is 1.0715086071863e+301, beyond 2^1000")
  end)
end)
