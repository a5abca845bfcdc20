-- The rule sets' position evaluations (R.estimate), the one-ply greedy bot
-- that reads them, and restricted play (docs/bots.md).

local bots = require "kontor.bots"
local seatmod = require "kontor.seat"
local support = require "tests.lua.support"

-- Sea Merchants, 4 players, seat 1 to play phase II: 5 coins, an office,
-- ships with fish and wood, a hand of fish, fish and grain; fish shows on
-- 2 market slots, wood on 1. The 51 cards placed nowhere are the deck.
local SCENARIO = {
  market = { "fish", "fish", "grain", "wood", "cloth", "spices" },
  hands = { { "fish", "fish", "grain" } },
  ships = { { "fish", "wood" }, { "grain", "cloth" }, { "spices", "porcelain" }, { "wood", "grain" } },
  coins = { 5, 0, 0, 0 }, specials = { [1] = { office = 1 } }, phase = "phase2", active = 1,
}

local function merchants(variants)
  return kontor.new_game { rules = "sea_merchants", players = 4, seed = 1, scenario = SCENARIO,
                           variants = variants }
end

local function decider(g)
  local w = g:who()
  if type(w) == "table" then return w[1] end
  return w
end

describe("R.estimate", function()
  it("Sea Merchants: coins, ships, the hand's plays to come, specials by price", function()
    local g = merchants()
    assert.are.equal(51, g.ctx.deck:count())
    -- seat 1: 5 coins; ships: fish 2 slots and wood 1 slot at half a coin a
    -- slot (1.5); hand: fish, carried by 1 ship, 2 cards = a play of 2 at
    -- three quarters (1.5), grain with no ship a quarter (0.25); the
    -- office: its price 8 x the share of the deck left, 51/60 (6.8).
    local est = bots.estimates(g)
    assert.are.equal(5 + 1.5 + 1.5 + 0.25 + 6.8, est[1])
    -- seat 2: no coins, no cards; grain 1 slot, cloth 1 slot
    assert.are.equal(1.0, est[2])
    assert.are.equal(0.5, est[3])                  -- spices 1 slot, porcelain none
    assert.are.equal(1.0, est[4])                  -- wood 1, grain 1
  end)

  it("Sea Merchants: a variant that changes a price changes what the card is worth", function()
    local dir = support.scratch()
    local path = dir("dear_office.lua")
    support.write(path, [[
return { variant = true, name = "dear_office", base = "sea_merchants",
         apply = function(R) R.data.price.office = 20 end }
]])
    local g = merchants({ path })
    assert.are.equal(5 + 1.5 + 1.5 + 0.25 + 20 * 51 / 60, bots.estimates(g)[1])
  end)

  it("a variant wraps R.estimate as it wraps any rule", function()
    local dir = support.scratch()
    local path = dir("bonus_estimate.lua")
    support.write(path, [[
return { variant = true, name = "bonus_estimate", base = "sea_merchants",
         apply = function(R)
           local base = R.estimate
           function R.estimate(g, seat) return base(g, seat) + (seat == 2 and 10 or 0) end
         end }
]])
    local est = bots.estimates(merchants({ path }))
    assert.are.same({ 15.05, 11.0, 0.5, 1.0 }, est)
  end)

  it("Caribbean: influence, coins at the persons' influence per coin, less an expedition", function()
    local g = kontor.new_game { rules = "caribbean", players = 2, seed = 1 }
    -- 3 coins (C1); the persons with influence: 83 influence for 282 coins of
    -- cost over the deck (83/282 an influence a coin); no expedition
    -- yet, no symbol towards one, and one needed to win (C9): less the
    -- smallest, 4. Seat 1 discovers, and the harbour shows the Pinnace
    -- 4/3 it revealed: a take of 3 coins.
    assert.are.same({ "Pinnace 4/3" }, g:view(1).harbour)
    local est = bots.estimates(g)
    assert.are.equal(3 * (83 / 282) - 4 + 3 * (83 / 282), est[1])
    assert.are.equal(3 * (83 / 282) - 4, est[2])
    -- Port Royal needs no expedition (C10)
    local p = kontor.new_game { rules = "caribbean", players = 3, seed = 1, variants = { "port_royal" } }
    assert.are.equal(3 * (83 / 282), bots.estimates(p)[1])
  end)

  it("Caribbean: an expedition half gathered halves what its lack costs", function()
    local g = kontor.new_game { rules = "caribbean", players = 2, seed = 1, scenario = {
      displays = { [1] = { "Settler 4/1" } }, expeditions = { "expedition 2 houses" },
      harbour = { "Captain 4/1" }, coins = { 5, 3 }, active = 1, phase = "discover" } }
    local est = bots.estimates(g)
    -- seat 1: 1 influence (the Settler), 5 coins, one house of the two the
    -- expedition needs: less 4 x 1/2; the Captain in the harbour would
    -- cost 4 coins for 1 influence, less than its price: not counted
    assert.are.equal(1 + 5 * (83 / 282) - 4 * (1 - 1 / 2), est[1])
    assert.are.equal(3 * (83 / 282) - 4, est[2])
  end)

  it("Old World: VP, a tenth of a VP a gold, goods, and the chain's VP to come", function()
    local g = kontor.new_game { rules = "old_world", players = 4, seed = 1 }
    local est = bots.estimates(g)
    -- turn 1 (112 in the bag, 4 drawn a turn: 28 turns left): 3 gold, a
    -- crewed ship (1/2); the chain lacks a loom, an Iron Plantation and a
    -- dye house (4 gold; 1 1/2 turns each without a worker, 1 more for
    -- the gold short) and has no wool yet (2): half of 5 VP a turn for
    -- 28 - 2 - 5.5 turns, less the 4 gold; seat 3 (the token, 4 gold)
    -- waits a turn less (old_world_estimate_spec.lua). And the line (1
    -- land and 3 facility workers; the bids open, so each of the four
    -- places counts a quarter): first to pick, a seat takes the land
    -- worker (half a turn sooner for the plantation), at the other places
    -- a facility worker (half a turn for the loom, half for the dye house)
    local line = (2.5 * 0.5 + 3 * 2.5 * 1) / 4
    local est1 = 0.3 + 0.5 + 2.5 * 20.5 - 0.4 + line
    for s, want in ipairs { est1, est1, 0.4 + 0.5 + 2.5 * 21.5 - 0.4 + line, est1 } do
      assert.is_near(want, est[s], 1e-9)
    end
  end)
end)

describe("one-ply greedy", function()
  it("plays its two fish onto slots not showing fish rather than drawing", function()
    local g = merchants()
    local b = assert(bots.new("greedy", 1, 1))
    local taken = {}
    while decider(g) == 1 and g.dname ~= "office" do
      local k = b:choose(seatmod.view(g, 1))
      taken[#taken + 1] = g:options(1)[k]
      g:step(1, k)
    end
    assert.are.equal("play", taken[1])
    assert.are.equal("play fish", taken[2])
    local a, c = taken[#taken]:match("^play fish on slots (%d),(%d)$")
    assert.is_truthy(a, taken[#taken])
    assert.is_true(tonumber(a) >= 3 and tonumber(c) >= 3)   -- slots 1 and 2 show fish
    assert.are.equal(5 + 4, g.ctx.coins:get(1))              -- 4 slots show fish: 4 coins
  end)

  it("loads the product with the most cards in its hand when the market is even", function()
    local g = kontor.new_game { rules = "sea_merchants", players = 2, seed = 1, scenario = {
      market = { "grain", "wood", "porcelain", "fish", "spices", "cloth" },
      hands = { { "cloth", "cloth", "cloth" }, { "grain" } } } }
    local b = assert(bots.new("greedy", 1, 1))
    local k = b:choose(seatmod.view(g, 1))
    assert.matches("^load cloth on ship %d$", g:options(1)[k])
  end)

  it("costs a copy a line, no rollouts, and follows its plan through the move for free", function()
    local fork = require "kontor.fork"
    local orig, copies = fork.sample, 0
    fork.sample = function(...) copies = copies + 1; return orig(...) end
    local ok, err = pcall(function()
      local g = merchants()
      local b = assert(bots.new("greedy:budget=4", 1, 1))
      -- play, draw: a line each (draw ends the move at once), then 4 more
      -- lines for play, whose move stays open
      local k = b:choose(seatmod.view(g, 1))
      assert.are.equal(2 + 4, copies)
      assert.are.equal("play", g:options(1)[k])
      g:step(1, k)
      local steps = 0
      while g.dname ~= "office" do             -- the rest of the move: the plan
        g:step(1, b:choose(seatmod.view(g, 1)))
        steps = steps + 1
      end
      assert.is_true(steps >= 2)
      assert.are.equal(6, copies)
    end)
    fork.sample = orig
    assert(ok, err)
  end)
end)

describe("restricted play", function()
  it("parses avoid= and prefer= with option texts holding commas", function()
    local kind, opts = bots.parse("greedy:avoid=buy contract;play fish on slots 1,4,budget=5,avoid=phase2:draw")
    assert.are.equal("greedy", kind)
    assert.are.same({ avoid = "buy contract;play fish on slots 1,4;phase2:draw", budget = "5" }, opts)
    local b = assert(bots.new("random:prefer=draw", 1, 1))
    assert.are.equal("random:prefer=draw", b:spec())
    assert.are.equal("greedy:avoid=buy contract,budget=12,depth=8,samples=1",
      assert(bots.new("greedy:avoid=buy contract", 1, 1)):spec())
  end)

  it("matches a decision's name and the beginning of an option's text at a word", function()
    assert.is_true(bots.matches("buy", "buy_card", "buy contract"))
    assert.is_true(bots.matches("buy_card:", "buy_card", "buy dock"))
    assert.is_true(bots.matches("buy_card:buy dock", "buy_card", "buy dock"))
    assert.is_false(bots.matches("phase1:buy dock", "buy_card", "buy dock"))
    assert.is_true(bots.matches("buy ship", "load_ship", "buy ship and load fish"))
    assert.is_true(bots.matches("play fish on slots 1", "play_more", "play fish on slots 1,4"))
    assert.is_false(bots.matches("play fish on slots 1", "play_more", "play fish on slots 12"))
    assert.is_false(bots.matches("bu", "buy_card", "buy contract"))
  end)

  for _, kind in ipairs { "random", "greedy:budget=6", "mcts:iterations=30,rollout=5" } do
    it(kind .. ": never takes an avoided move while another is legal, always a preferred one", function()
      local g = kontor.new_game { rules = "sea_merchants", players = 4, seed = 7 }
      local function with(opt) return kind .. (kind:find(":") and "," or ":") .. opt end
      local avoid = assert(bots.new(with("avoid=draw;pass"), 1, 7))
      local prefer = assert(bots.new(with("prefer=exchange"), 2, 7))
      local others = {}
      for s = 3, 4 do others[s] = assert(bots.new("random", s, 7)) end
      local checked = { avoid = 0, prefer = 0 }
      for _ = 1, 120 do
        if g:over() then break end
        local s = decider(g)
        local opts = g:options(s)
        local k
        if s == 1 then
          k = avoid:choose(seatmod.view(g, s))
          if #opts > 1 and (opts[k] == "draw" or opts[k] == "pass") then
            local other = false
            for _, t in ipairs(opts) do if t ~= "draw" and t ~= "pass" then other = true end end
            assert.is_false(other, "seat 1 took " .. opts[k] .. " of " .. table.concat(opts, "|"))
          end
          if opts[1] == "exchange" or opts[1] == "play" then checked.avoid = checked.avoid + 1 end
        elseif s == 2 then
          k = prefer:choose(seatmod.view(g, s))
          local has = false
          for _, t in ipairs(opts) do if t == "exchange" then has = true end end
          if has then
            assert.are.equal("exchange", opts[k])
            checked.prefer = checked.prefer + 1
          end
        else
          k = others[s]:choose(seatmod.view(g, s))
        end
        g:step(s, k)
      end
      assert.is_true(checked.avoid > 3 and checked.prefer > 3,
        string.format("avoid %d, prefer %d", checked.avoid, checked.prefer))
    end)
  end

  it("sits at kontor sim with a space and a comma in its text", function()
    local p = io.popen(support.binary() .. " sim --games 2 --players 4 --bot '1=greedy:budget=4,avoid=draw'"
      .. " --bot '2=random:avoid=play fish on slots 1,2' 2>&1")
    local out = p:read("a"); p:close()
    assert.matches("players      4 %(greedy, random, random, random%)", out)
  end)

  it("sits at the REPL's bot command and at kontor play with spaces in its text", function()
    local input = support.write(os.tmpname(), "bot 2=greedy:avoid=buy contract;play fish on slots 1,4\nbots\n")
    local p = io.popen(support.binary() .. " repl --players 2 < " .. input .. " 2>&1")
    local out = p:read("a"); p:close()
    os.remove(input)
    assert.matches("2  Player 2: greedy:avoid=buy contract;play fish on slots 1,4,budget=6,depth=8,focus=1,samples=1 bot",
      out, 1, true)
    p = io.popen(support.binary() .. " play --players 2 --bot '2=random:prefer=draw' < /dev/null 2>&1")
    out = p:read("a"); p:close()
    assert.is_nil(out:find("expected SEAT=KIND", 1, true), out)
  end)

  it("sits at serve's bot seats: the bot takes the preferred move", function()
    local input = support.write(os.tmpname(),
      '{"id":1,"op":"new","players":2,"bots":{"2":"random:prefer=load fish"}}\n'
      .. '{"id":2,"op":"apply","game":"g1","action":"load grain on ship 1"}\n')
    local p = io.popen(support.binary() .. " serve < " .. input .. " 2>&1")
    local out = p:read("a"); p:close()
    os.remove(input)
    assert.matches("Player 2 loads fish on ship %d", out)
  end)

  it("takes a rule set's restriction (R.bot_options), unless its name gives one", function()
    local dir = support.scratch()
    local path = dir("draw_bots.lua")
    support.write(path, [[
return { variant = true, name = "draw_bots", base = "sea_merchants",
         apply = function(R) R.bot_options = { random = { prefer = "draw" } } end }
]])
    local function first_phase2(spec, seed)
      local g = merchants({ path })
      local b = assert(bots.new(spec, 1, seed))
      return g:options(1)[b:choose(seatmod.view(g, 1))]
    end
    for seed = 1, 6 do
      assert.are.equal("draw", first_phase2("random", seed))
      assert.are.equal("play", first_phase2("random:prefer=play", seed))
    end
  end)

  it("refuses a restriction that is not text", function()
    local b, err = bots.new("random", 1, 1, { avoid = 3 })
    assert.is_nil(b)
    assert.are.equal("random option avoid: expected moves as text, [DECISION:]TEXT;...", err)
  end)
end)
