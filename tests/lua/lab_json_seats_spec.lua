-- lab_json_seats_spec.lua: the lab's JSON says which bots its figures came
-- from, restrictions included (docs/balance.md). `seats` held each bot's
-- kind alone: `--bot 4=random:avoid=buy contract` read "random", the same
-- as an unrestricted seat, in sim, compare, sweep, merge and --games-out.
local support = require "tests.lua.support"
local json = kontor.json

local tmp, cleanup = support.scratch()
teardown(cleanup)

local BOT = "'4=random:avoid=buy contract;phase1:exchange'"
local SEATS = { "random", "random", "random", "random:avoid=buy contract;phase1:exchange" }

local function lab(args)
  local out, err, code = support.run_split(support.binary() .. " " .. args)
  assert.are.equal(0, code, err)
  return json.decode(out)
end

describe("the lab's JSON seats", function()
  it("sim: each seat's bot with its options", function()
    local games = tmp("games.jsonl")
    local d = lab("sim --games 3 --no-moves --jobs 1 --json --bot " .. BOT .. " --bot 2=random:prefer=pass"
      .. " --games-out " .. games)
    local want = { "random", "random:prefer=pass", "random", SEATS[4] }
    assert.are.same(want, d.seats)
    local line = json.decode(support.read(games):match("^[^\n]+"))
    assert.are.same(want, line.seats)
  end)

  it("compare: both sides", function()
    local d = lab("compare --a '' --b '--bot 3=random:avoid=phase1:buy' --games 3 --no-moves --jobs 1 --json --bot " .. BOT)
    assert.are.same(SEATS, d.a.seats)
    assert.are.same({ "random", "random", "random:avoid=phase1:buy", SEATS[4] }, d.b.seats)
  end)

  it("sweep, and a merge of shards", function()
    local d = lab("sweep --over players=3..4 --games 2 --no-moves --jobs 1 --json --bot '1=random:avoid=phase1:buy'")
    assert.are.same({ "random:avoid=phase1:buy", "random", "random" }, d.seats)
    local parts = {}
    for k = 1, 2 do
      parts[k] = support.write(tmp("shard" .. k .. ".json"), (support.run_split(support.binary()
        .. " sim --games 4 --no-moves --shard " .. k .. "/2 --bot " .. BOT)))
    end
    assert.are.same(SEATS, lab("merge --json " .. parts[1] .. " " .. parts[2]).seats)
  end)

  it("worth: each row names the restricted seat's bot", function()
    local d = lab("worth --bot random --games 2 --jobs 1 --json --kinds 'phase1: buy;phase1: pass'")
    local by = {}
    for _, r in ipairs(d.rows) do by[r.kind] = r.restricted_bot end
    assert.are.same({ ["phase1: buy"] = "random:avoid=phase1:buy", ["phase1: pass"] = "random:avoid=phase1:pass" }, by)
  end)
end)
