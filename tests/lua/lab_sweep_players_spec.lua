-- lab_sweep_players_spec.lua - `kontor sweep --over players=LO..HI`: the
-- same setup at each player count (docs/balance.md, "Which value is
-- right?"). Each count plays the games `kontor sim` plays at that count;
-- the games are not paired (a seed deals another game at another count);
-- a seat's win rate and score are left out; the first player's advantage
-- is compared as a share of the wins at each count's own scale.

local support = require "tests.lua.support"
local json = kontor.core.json
local BIN = support.binary()

local function sweep_json(args)
  return json.decode(support.run(BIN .. " sweep " .. args .. " --json 2>/dev/null", ""))
end

describe("kontor sweep over player counts", function()
  it("plays at each count the games sim plays there, unpaired, with no seat's result", function()
    local sw = sweep_json("--over players=2..4 --games 40 --seed 1")
    assert.equal("players", sw.over)
    assert.same({ "2", "3", "4" }, sw.values)
    assert.is_false(sw.paired)
    for key in pairs(sw.measures) do
      assert.is_nil(key:match("^win_rate%.") or key:match("^score%."), key)
    end
    local rows = sw.measures.turns.rows
    for i, p in ipairs { 2, 3, 4 } do
      local sim = json.decode(support.run(string.format("%s sim --players %d --games 40 --seed 1 --jobs 1 --json", BIN, p), ""))
      assert.equal(sim.mean_turns, rows[i].mean)
    end
    assert.near(rows[2].mean - rows[1].mean, rows[2].diff, 1e-6)
    assert.near(rows[3].mean - rows[1].mean, rows[3].diff, 1e-6)
    -- the first player's advantage: a share of the wins at each count, so a
    -- difference of two independent means
    local fp = sw.measures.first_player.rows
    assert.near(fp[2].mean - fp[1].mean, fp[2].diff, 1e-5)
    local h1, h2 = (fp[1].ci[2] - fp[1].ci[1]) / 2, (fp[2].ci[2] - fp[2].ci[1]) / 2
    assert.near(math.sqrt(h1 * h1 + h2 * h2), (fp[2].diff_ci[2] - fp[2].diff_ci[1]) / 2, 1e-5)
  end)

  it("says so in its text, and which bots played at each count", function()
    local out = support.run(BIN .. " sweep --over players=2..3 --games 20 --seed 1 2>&1", "")
    assert.truthy(out:find("sweep        players over 2, 3: 20 unpaired games each (seed 1)\n", 1, true), out)
    assert.truthy(out:find("(the same seeds deal other games at other player counts, so the games are not\n", 1, true), out)
    assert.truthy(out:find("\nbots, players=2: random on seats 1-2 (ladder: 0, the floor)\n"
      .. "bots, players=3: random on seats 1-3 (ladder: 0, the floor)\n", 1, true), out)
    assert.is_nil(out:find("win rate, seat", 1, true))
  end)

  it("refuses a count the rule set does not take, and a value that is no number", function()
    assert.equal("kontor: sweep: sea_merchants is for 2 to 4 players, not 1\nTry 'kontor --help'.\n",
      support.run(BIN .. " sweep --over players=1..3 --games 4 2>&1", ""))
    assert.equal("kontor: sweep: --over players=a,b: 'a' is not a number of players\nTry 'kontor --help'.\n",
      support.run(BIN .. " sweep --over players=a,b --games 4 2>&1", ""))
  end)
end)
