-- What a move is worth (`kontor worth`, kontor.balance.worth,
-- docs/balance.md): each kind of move maps to the restriction that keeps a
-- bot from exactly that kind's options; a run's rows (win rate and its
-- interval, fair share, how often the seat was kept from the move); the
-- restricted seat never makes an avoided move while another is legal; and
-- --jobs 2 gives the numbers of --jobs 1.

local support = require "tests.lua.support"
local balance = require "kontor.balance"
local worth = require "kontor.balance.worth"
local bots = require "kontor.bots"
local json = kontor.core.json

local runner = support.lab()
local kontor_cmd = runner.run
teardown(runner.cleanup)

describe("a kind's restriction", function()
  it("is the decision and the kind's words", function()
    assert.are.equal("buy_card:buy contract", worth.restriction("buy_card: buy contract"))
    assert.are.equal("load_ship:buy ship and load fish", worth.restriction("load_ship: buy ship and load fish"))
    assert.are.same({ nil, "its options begin with a number, which no restriction names" },
      { worth.restriction("pick: #") })
    assert.are.same({ nil, "'buy' is not a kind of move (DECISION: WORDS)" }, { worth.restriction("buy") })
    assert.are.equal("greedy:avoid=phase1:buy", worth.restricted("greedy", "phase1:buy"))
    assert.are.equal("mcts:iterations=50,avoid=phase1:buy", worth.restricted("mcts:iterations=50", "phase1:buy"))
  end)

  it("names the longer kinds of its decision it matches too", function()
    assert.are.same({ "phase1: buy contract" },
      worth.overlaps("phase1: buy", { "phase1: buy", "phase1: buy contract", "phase1: buyer", "phase2: buy x" }))
    assert.are.same({}, worth.overlaps("dock: dock exchange", { "dock: dock exchange", "dock: no dock exchange" }))
  end)

  it("matches exactly the options of its kind in real Sea Merchants decisions", function()
    -- every option of every decision of random games, 2 to 4 players
    local seen, decisions = {}, {}
    local kinds = {}
    for players = 2, 4 do
      local L = balance.load { rules = "sea_merchants", players = players }
      local specs = {}
      for s = 1, players do specs[s] = "random" end
      for i = 1, 6 do
        worth.walk(L, balance.game_seed(7, i), specs, function(_, name, opts)
          decisions[#decisions + 1] = { name, opts }
          for _, o in ipairs(opts) do
            local k = worth.kind_of(name, o)
            if not seen[k] then seen[k] = true; kinds[#kinds + 1] = k end
          end
        end)
      end
    end
    table.sort(kinds)
    assert.is_true(#kinds >= 40)          -- buy_card:, load:, phase1:, play_product: ... all met
    assert.is_true(seen["phase1: buy"] and seen["buy_card: buy contract"] and seen["dock: no dock exchange"])
    local specs = {}
    for _, k in ipairs(kinds) do
      specs[k] = assert(worth.restriction(k))
      assert.are.same({}, worth.overlaps(k, kinds))
    end
    local checked = 0
    for _, d in ipairs(decisions) do
      local name, opts = d[1], d[2]
      for _, o in ipairs(opts) do
        local own = worth.kind_of(name, o)
        for _, k in ipairs(kinds) do
          local want = own == k
          if bots.matches(specs[k], name, o) ~= want then
            error(string.format("%s: avoid=%s %s option '%s' (kind %s)", k, specs[k],
              want and "misses" or "also matches", o, own))
          end
          checked = checked + 1
        end
      end
    end
    assert.is_true(checked > 100000)
  end)

  it("is the lab's kind of the move made (kontor.balance.moves)", function()
    local L = balance.load { rules = "sea_merchants", players = 3, moves = true,
                             bots = { { kind = "random" }, { kind = "random" }, { kind = "random" } } }
    local lab = {}
    for i = 1, 5 do
      local v = balance.play_game(L, 11, i)
      for key in pairs(v) do
        local k = key:match("^moves%.(.*)$")
        if k and not k:match(" #%d+$") then lab[#lab + 1] = k end
      end
    end
    table.sort(lab)
    local L2 = balance.load { rules = "sea_merchants", players = 3 }
    local found = worth.discover(L2, "random", 11, 1, 5)
    local set, uniq = {}, {}
    for _, k in ipairs(lab) do if not set[k] then set[k] = true; uniq[#uniq + 1] = k end end
    assert.are.same(uniq, found)
  end)
end)

describe("kontor worth", function()
  local ONE = "worth --players 3 --bot random --games 60 --seed 5 --json "
    .. "--kinds 'phase1: buy;phase2: draw;buy_card: buy contract;play_more: play fish'"

  it("gives a row per kind: rates in [0,1] inside their intervals, never-offered kinds said", function()
    local out, e, code = kontor_cmd(ONE .. " --jobs 1")
    assert.are.equal("", e)
    assert.are.equal(0, code)
    local w = json.decode(out)
    assert.are.equal("worth", w.kind)
    assert.are.equal(3, w.players)
    assert.are.equal(60, w.games)
    assert.are.equal(0.333333, w.fair)
    local by = {}
    for _, r in ipairs(w.rows) do by[r.kind] = r end
    for _, k in ipairs { "phase1: buy", "phase2: draw", "buy_card: buy contract", "play_more: play fish" } do
      local r = assert(by[k], k)
      assert.are.equal(60, r.games)
      assert.is_true(r.win_rate >= 0 and r.win_rate <= 1)
      assert.is_true(r.ci[1] <= r.win_rate and r.win_rate <= r.ci[2])
      -- the mean of the differences deal by deal: the win rate less the same seat's unrestricted
      assert.is_true(math.abs(r.diff - (r.win_rate - w.unrestricted.win_rate)) < 1e-5)
      assert.is_true(r.diff_ci[1] <= r.diff and r.diff <= r.diff_ci[2])
      assert.are.equal(0, r.broken)       -- never made an avoided move while another was legal
      assert.is_true(r.decisions > 0)
    end
    -- phase1: buy is kept from often; play_more's options are never of two kinds at once
    assert.is_true(by["phase1: buy"].kept > 60)
    assert.is_true(by["phase1: buy"].offered)
    assert.are.equal(0, by["play_more: play fish"].kept)
    assert.is_false(by["play_more: play fish"].offered)
    -- never in the way: the very same games as unrestricted, a difference of exactly 0
    assert.are.same({ 0, { 0, 0 }, 1 }, { by["play_more: play fish"].diff, by["play_more: play fish"].diff_ci,
      by["play_more: play fish"].p })
    assert.are.equal(60, w.unrestricted.games)
    assert.are.equal("play_more: play fish", w.rows[#w.rows].kind)    -- told nothing: last
    -- the others sorted by the difference
    for i = 2, #w.rows - 1 do assert.is_true(w.rows[i - 1].diff <= w.rows[i].diff) end
  end)

  it("the restricted seat never makes an avoided move while another is legal (the games)", function()
    local L = balance.load { rules = "sea_merchants", players = 4 }
    local spec = "phase1:buy"
    local made, kept = 0, 0
    for i = 1, 8 do
      local r = (i - 1) % 4 + 1
      local specs = { "random", "random", "random", "random" }
      specs[r] = worth.restricted("random", spec)
      worth.walk(L, balance.game_seed(3, i), specs, function(seat, name, opts, k)
        local hit, other = false, false
        for _, o in ipairs(opts) do
          if bots.matches(spec, name, o) then hit = true else other = true end
        end
        if seat == r and hit and other then
          kept = kept + 1
          assert.are_not.equal("buy", opts[k])
        elseif seat ~= r and opts[k] == "buy" then
          made = made + 1
        end
      end)
    end
    assert.is_true(kept > 10)
    assert.is_true(made > 10)    -- the others buy
  end)

  it("gives the same numbers with --jobs 2 as with --jobs 1 #slow", function()
    local one = kontor_cmd(ONE .. " --jobs 1")
    local two, e, code = kontor_cmd(ONE .. " --jobs 2")
    assert.are.equal("", e)
    assert.are.equal(0, code)
    assert.are.same(json.decode(one), json.decode(two))
  end)

  it("refuses a bot with a seat or a restriction, bad shards and --report on a shard, as usage errors", function()
    local _, e, code = kontor_cmd("worth --bot random --shard 3/2")
    assert.are.equal(2, code)
    assert.are.equal("kontor: worth: --shard must be K/N with 1 <= K <= N, not '3/2'\nTry 'kontor --help'.\n", e)
    _, e, code = kontor_cmd("worth --bot random --shard 1/2 --report x.html")
    assert.are.equal(2, code)
    assert.are.equal("kontor: worth: --report cannot be used with --shard (use it with kontor merge)\nTry 'kontor --help'.\n", e)
    _, e, code = kontor_cmd("worth --bot random --shard 1/2 --seed random")
    assert.are.equal(2, code)
    assert.matches("--seed random would draw another seed in each shard", e, 1, true)
    _, e, code = kontor_cmd("worth --bot 1=random")
    assert.are.equal(2, code)
    assert.matches("give the bot without a seat", e, 1, true)
    _, e, code = kontor_cmd("worth --bot 'random:avoid=buy'")
    assert.are.equal(2, code)
    assert.matches("the bot is restricted by worth itself", e, 1, true)
    _, e, code = kontor_cmd("worth --bot random --kinds buy --games 2")
    assert.are.equal(2, code)
    assert.are.equal("kontor: worth: --kinds: 'buy' is not a kind of move (DECISION: WORDS)\nTry 'kontor --help'.\n", e)
    _, e, code = kontor_cmd("worth --games 3")
    assert.are.equal(2, code)
    assert.matches("--bot KIND[:k=v,...] is needed", e, 1, true)
  end)
end)
