-- leftovers_many_seats_spec.lua - the balance lab's win measures at many
-- seats (docs/balance.md, "Many seats"). A win shared by k counts
-- lcm(1..P)/k: its square passed 2^63 at 23 seats and wrapped without a
-- word (a zero-width or NaN interval), and shards and --jobs refused sums
-- past 2^62 after a few thousand games at 17-22 seats. Now an integer sum
-- goes on as a float past 2^62, and a run gives the figures its games
-- give, alone, in jobs or merged from shards (tests/rulesets/crowd.lua:
-- up to 64 seats, wins shared among many).
local kontor = require "kontor"
local support = require "tests.lua.support"
local stats = require "kontor.balance.stats"
local balance = require "kontor.balance"

local BIN = support.binary()
local CROWD = "tests/rulesets/crowd.lua"

-- The JSON summary of `args`, without its timing.
local function summary(args)
  local out, err, code = support.run_split(BIN .. " " .. args .. " --json")
  assert(code == 0 and err == "", err)
  local d = kontor.json.decode(out)
  d.seconds, d.games_per_second = nil, nil
  return d
end

-- The mean and 95% interval of per-game values (floats), as the lab makes them.
local function interval(vals)
  local n, s = #vals, 0
  for _, v in ipairs(vals) do s = s + v end
  local mean, q = s / n, 0
  for _, v in ipairs(vals) do q = q + (v - mean) ^ 2 end
  local h = stats.t975(n - 1) * math.sqrt(q / (n - 1) / n)
  return mean, mean - h, mean + h
end

describe("the lab's sums", function()
  it("stay integers within 2^62 and go on as floats past it, never wrapping", function()
    assert.are.equal(math.tointeger(2 ^ 62), stats.plus((1 << 62) - 1, 1))
    assert.are.equal("float", math.type(stats.plus(1 << 62, 1)))
    assert.are.equal(2.0 ^ 62 + 1, stats.plus(1 << 62, 1))
    assert.are.equal(2.0 ^ 63, stats.plus(math.maxinteger, 1))              -- wrapped to -2^63 before
    assert.are.equal(-(2.0 ^ 63) - 1, stats.plus(math.mininteger, -1))
    assert.are.equal(1 << 62, stats.square(1 << 31))
    assert.are.equal("float", math.type(stats.square((1 << 31) + 1)))
    assert.are.equal(2.0 ^ 64, stats.square(1 << 32))                       -- 0 as an integer
    local a = stats.acc()
    for _ = 1, 3 do stats.add(a, { w = 5354228880 }) end                   -- lcm(1..23): a sole win
    assert.are.same({ 16062686640, 3 * 5354228880.0 ^ 2 }, { a.sum.w, a.sq.w })
  end)

  it("count a win in lcm(1..P)ths up to 42 seats, and in floats beyond", function()
    assert.are.same({ 840, 5354228880, 219060189739591200 },
      { balance.win_scale(8), balance.win_scale(23), balance.win_scale(42) })
    assert.are.equal(1.0, balance.win_scale(43))
    assert.are.same({ 105, 0.125 }, { balance.win_share(840, 8), balance.win_share(1.0, 8) })
  end)
end)

describe("a run of many seats", function()
  it("gives at 24 seats the win rate and interval its games give (it wrapped at the first game)", function()
    local dir = support.tmpdir()
    local d = summary("sim --rules " .. CROWD .. " --players 24 --games 400 --jobs 1 --games-out " .. dir .. "/g.jsonl")
    local shares, first = {}, {}
    for line in io.lines(dir .. "/g.jsonl") do
      local g = kontor.json.decode(line)
      local won = 0
      for _, w in ipairs(g.winners) do if w == 2 then won = 1 / #g.winners end end
      local one = 0
      for _, w in ipairs(g.winners) do if w == 1 then one = 1 / #g.winners end end
      shares[#shares + 1], first[#first + 1] = won, one - 1 / 24
    end
    os.execute("rm -rf " .. support.sh_quote(dir))
    assert.are.equal(400, #shares)
    for key, vals in pairs { ["win_rate.2"] = shares, first_player = first } do
      local m = d.measures[key]
      local mean, lo, hi = interval(vals)
      assert.is_true(m.ci[2] > m.ci[1], key)
      assert.is_true(math.abs(m.mean - mean) < 1e-6 and math.abs(m.ci[1] - lo) < 1e-6
        and math.abs(m.ci[2] - hi) < 1e-6, string.format("%s: %s [%s, %s], the games give %.6f [%.6f, %.6f]",
          key, m.mean, m.ci[1], m.ci[2], mean, lo, hi))
    end
  end)

  it("at 23 seats, 2000 games: alone, in two jobs and merged from shards, the same figures #slow", function()
    local run = "sim --rules " .. CROWD .. " --players 23 --games 2000"
    local alone = summary(run .. " --jobs 1")
    assert.are.same(alone, summary(run .. " --jobs 2"))              -- refused: sums beyond 2^62
    local dir = support.tmpdir()
    for k = 1, 3 do
      local out = support.run_split(BIN .. " " .. run .. " --shard " .. k .. "/3")
      support.write(dir .. "/s" .. k .. ".json", out)
    end
    local merged = summary("merge " .. dir .. "/s3.json " .. dir .. "/s1.json " .. dir .. "/s2.json")
    os.execute("rm -rf " .. support.sh_quote(dir))
    assert.are.same(alone.measures, merged.measures)
    assert.are.same(alone.wins, merged.wins)
  end)

  it("at 50 seats (lcm(1..50) passes 2^63): win rates that add up to the games won", function()
    local d = summary("sim --rules " .. CROWD .. " --players 50 --games 200 --jobs 1")
    local total = 0
    for s = 1, 50 do
      local m = d.measures["win_rate." .. s]
      assert.is_true(m.mean >= 0 and m.mean <= 1, tostring(m.mean))
      total = total + m.mean
    end
    assert.is_true(math.abs(total - 1) < 1e-5, tostring(total))        -- every game has a winner
    -- seat 1 moves first: its advantage is its win rate less the fair 1/50
    assert.is_true(math.abs(d.measures.first_player.mean - (d.measures["win_rate.1"].mean - 0.02)) < 1e-5)
    assert.is_true(d.measures.first_player.ci[2] > d.measures.first_player.ci[1])
  end)

  it("worth at 23 seats: the same row alone and in two jobs (a job refused its sums)", function()
    local run = BIN .. " worth --rules " .. CROWD .. " --players 23 --bot random --kinds 'points: 1 point' --games 600"
    local one, err1 = support.run_split(run .. " --jobs 1")
    local two, err2 = support.run_split(run .. " --jobs 2")
    assert.are.equal("", err1)
    assert.are.equal("", err2)
    local row = one:match("\n(points: 1 point[^\n]*)")
    assert.truthy(row, one)
    assert.are.equal(row, two:match("\n(points: 1 point[^\n]*)"))
    assert.falsy(row:find("nan", 1, true), row)
  end)
end)
