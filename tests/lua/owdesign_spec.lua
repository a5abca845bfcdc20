-- A game designer's evening on Old World and Caribbean variants
-- (docs/designing-variants.md, docs/repl.md, docs/balance.md): what went
-- wrong for a designer who followed the docs, each case a defect fixed.

local support = require "tests.lua.support"

local tmp, cleanup = support.scratch()
teardown(cleanup)

-- Old World with the Deep Harbor at `cost` gold (a building's cost, R.data).
local function harbor_variant(path, cost)
  return support.old_world_cost_variant(path, "cheap_harbor", "deep_harbor", "Deep Harbor", "cost", cost)
end

-- Three seats, seed 1: seat 1 bids 1 and picks the land worker, the others'
-- picks are forced; then the build orders open.
local OPENING = { "1: bid 1", "2: bid 0", "3: bid 0", "1: pick land worker" }

describe("moves held by a reload in an open build order", function()
  local function game_with_held(v)
    local g = kontor.new_game{ rules = "old_world", variants = { v }, players = 3, seed = 1 }
    for _, m in ipairs(OPENING) do assert(g:apply(m)) end
    for _, m in ipairs({ "2: acquire building:deep_harbor", "2: done", "3: acquire land:woad_plantation" }) do
      assert(g:apply(m))
    end
    harbor_variant(v, 4)                    -- now seat 2 (3 gold) cannot pay for it
    assert.is_nil((g:reload()))
    assert.are.same({ { 2, "acquire building:deep_harbor" }, { 2, "done" } }, g:held_moves())
    return g
  end

  it("stay held while the other seats go on entering (before: the first step of another seat dropped them)",
    function()
      local v = harbor_variant(tmp("harbor_a.lua"), 2)
      local g = game_with_held(v)
      assert(g:apply("3: done"))              -- seat 3 finishes its order
      assert(g:apply("1: acquire none"))      -- seat 1 begins its own
      assert.are.same({ { 2, "acquire building:deep_harbor" }, { 2, "done" } }, g:held_moves())
      -- through an undo of another seat's step and its redo too
      assert.are.equal(1, g:undo(1, 1))
      assert.are.same({ { 2, "acquire building:deep_harbor" }, { 2, "done" } }, g:held_moves())
      assert(g:redo())
      -- the rule put back: the whole game, seat 2's order in place again
      harbor_variant(v, 2)
      local ok, n = g:reload()
      assert.are.same({ true, 9 }, { ok, n })
      assert.are.same({ "acquire building:deep_harbor", "done" }, g:pending(2))
      assert.are.same({ "acquire land:woad_plantation", "done" }, g:pending(3))
      assert.are.same({ "acquire none" }, g:pending(1))
    end)

  it("stay held through an undo and redo of another seat's step taken from the middle of the record "
    .. "(before: the reload with the rule put back replayed 8 moves of 11, seat 2's order and the reveal lost)",
    function()
      local v = harbor_variant(tmp("harbor_d.lua"), 2)
      local g = kontor.new_game{ rules = "old_world", variants = { v }, players = 3, seed = 1 }
      for _, m in ipairs(OPENING) do assert(g:apply(m)) end
      for _, m in ipairs({ "2: acquire building:deep_harbor", "2: done", "2: assign deep_harbor",
                           "3: acquire none", "3: done", "1: acquire none", "1: done" }) do
        assert(g:apply(m))
      end
      assert.are.equal("bid", g:view(1).phase)         -- turn 2: the orders were revealed
      harbor_variant(v, 4)
      assert.is_nil((g:reload()))
      assert.are.equal(3, #g:held_moves())
      -- seat 1's last step comes before seat 3's in the record: its undo takes it from the middle
      assert.are.equal(1, g:undo(1, 1))
      assert(g:redo())
      assert.are.equal(3, #g:held_moves())
      harbor_variant(v, 2)
      assert.are.same({ true, 11 }, { g:reload() })
      assert.are.equal("bid", g:view(1).phase)
      assert.are.equal(2, g:view(1).turn)
    end)

  it("are kept in a save and held again when it is loaded (before: the save, and the REPL's autosave on "
    .. "leaving, dropped them)", function()
    local v = harbor_variant(tmp("harbor_e.lua"), 2)
    local g = game_with_held(v)
    local file = tmp("held.json")
    assert(g:save(file))
    assert.is_truthy(support.has(support.read(file), '"held": [\n    "2: acquire building:deep_harbor",\n    "2: done"\n  ]'))
    local l = assert(kontor.load_game(file))
    assert.are.same({ { 2, "acquire building:deep_harbor" }, { 2, "done" } }, l:held_moves())
    harbor_variant(v, 2)
    assert.are.same({ true, 7 }, { l:reload() })
    assert.are.same({ "acquire building:deep_harbor", "done" }, l:pending(2))
    -- a seat's file leaves them out: they may be another seat's secret steps
    local mine = tmp("seat3.json")
    assert(g:save(mine, 3))
    assert.is_falsy(support.has(support.read(mine), "held"))
    -- a file's held moves are checked as its actions are
    local doc = kontor.json.decode(support.read(file))
    doc.held = { 7 }
    local bad, err = kontor.load_document(doc, "doc.json")
    assert.is_nil(bad)
    assert.are.equal("doc.json: held move 1 is not a string", tostring(err))
  end)

  it("are dropped by a new step of the seat whose steps are held", function()
    local v = harbor_variant(tmp("harbor_c.lua"), 2)
    local g = game_with_held(v)
    assert(g:apply("2: acquire none"))
    assert.are.same({}, g:held_moves())
  end)
end)

describe("a variant's rule that keeps a count in a file-level local", function()
  it("is named by the rule that uses it (before: R.board, R.describe_option, the first field of R "
    .. "whose upvalues lead to it)", function()
    local wrapped = support.write(tmp("tax_count.lua"), [[
local taxes = 0
return {
  variant = true, name = "tax_count", base = "caribbean",
  apply = function(R)
    local base = R.rules.tax_winners
    R.rules.tax_winners = function(g, card, active)
      taxes = taxes + 1
      return base(g, card, active)
    end
  end,
}
]])
    local g = kontor.new_game{ rules = "caribbean", variants = { wrapped }, players = 3, seed = 1 }
    local w
    for _ = 1, 400 do
      if g:over() then break end
      assert(g:apply(g:options()[1]))
      w = g:warnings()
      if #w > 0 then break end
    end
    assert.are.equal(1, #w)
    assert.are.equal(wrapped .. ":1: 'taxes', a module-level variable of R.rules.tax_winners, changed as the game "
      .. "was played (0 to 1): undo, a saved game, a reload and the bots replay the steps without it and play "
      .. "another game; keep the game's state on g (docs/api.md)", w[1])
    local counted = support.write(tmp("bid_count.lua"), [[
local bids = 0
return {
  variant = true, name = "bid_count", base = "old_world",
  apply = function(R)
    R.constraints[#R.constraints + 1] = { decisions = { "bid" },
      check = function(g, seat, decision, text)
        bids = bids + 1
      end }
  end,
}
]])
    local o = kontor.new_game{ rules = "old_world", variants = { counted }, players = 3, seed = 1 }
    assert(o:apply("1: bid 0"))
    o:undo(1)
    local ow = o:warnings()
    assert.are.equal(1, #ow)
    assert.is_truthy(support.has(ow[1], counted .. ":1: 'bids', a module-level variable of R.constraints[1].check, "
      .. "changed as the game was played"), ow[1])
  end)
end)

describe("a constraint that names a decision the game never asks", function()
  -- a bid cap whose constraint names 'bids' (Old World's decision is 'bid'):
  -- its check is never called, and the cap changes nothing
  local function cap_variant(path, decision)
    return support.write(path, ([[
return {
  variant = true, name = "bid_cap", base = "old_world",
  apply = function(R)
    R.constraints[#R.constraints + 1] = { decisions = { "%s" },
      check = function(g, seat, decision, text)
        local n = tonumber(text:match("^bid (%%d+)"))
        if n and n > 1 then return "bids are capped at 1 gold" end
      end }
  end,
}
]]):format(decision))
  end
  local WARNING = ":5: R.constraints[1] names the decision 'bids', which no step of 20 random games of this "
    .. "setup asked, so its check is never called and it changes nothing: did you mean 'bid'? (decisions: "
    .. "acquire, assign, bid, colour, load, pick, release, rob, sail)"

  it("is said by kontor sim, the lab and the REPL (before: nothing, and the variant measured as the base game)",
    function()
      local v = cap_variant(tmp("typo_cap.lua"), "bids")
      local kq = support.sh_quote(support.plain_binary())
      local out, err, rc = support.run_split(kq .. " sim --variant " .. support.sh_quote(v) .. " --games 3")
      assert.are.equal(0, rc)
      assert.are.equal("kontor: sim: warning: " .. v .. WARNING .. "\n", err)
      assert.is_truthy(support.has(out, "games        3 (seed 1)"), out)
      local _, cerr = support.run_split(kq .. " compare --a '' --b " .. support.sh_quote("--variant " .. v)
        .. " --games 2 --jobs 1 --no-moves")
      assert.are.equal("kontor: compare: warning: " .. v .. WARNING .. "\n", cerr)
      out = support.run(kq .. " --variant " .. support.sh_quote(v) .. " --players 3 --seed 1", "why 1: bid 3\n")
      assert.is_truthy(support.has(out, "warning: " .. v .. WARNING .. "\n"), out)
    end)

  it("is not said of a constraint whose decision the game asks", function()
    local v = cap_variant(tmp("right_cap.lua"), "bid")
    local kq = support.sh_quote(support.plain_binary())
    local _, err, rc = support.run_split(kq .. " sim --variant " .. support.sh_quote(v) .. " --games 3")
    assert.are.same({ 0, "" }, { rc, err })
    local out = support.run(kq .. " --variant " .. support.sh_quote(v) .. " --players 3 --seed 1", "why 1: bid 3\n")
    assert.are.equal("'bid 3' is not a legal action: bids are capped at 1 gold; expected one of: bid 0, bid 1\n", out)
  end)
end)

describe("trace after a reload the edited rules fail", function()
  it("shows the rule script's frames (before: '(no traceback through a rule script or a line typed)')", function()
    local good = support.write(tmp("cap.lua"), [[
return {
  variant = true, name = "cap", base = "old_world",
  apply = function(R)
    R.constraints[#R.constraints + 1] = { decisions = { "bid" },
      check = function(g, seat, decision, text)
        if text == "bid 3" then return "capped" end
      end }
  end,
}
]])
    local broken = support.write(tmp("cap_broken.lua"), (support.read(good):gsub('if text == "bid 3"',
      'if g.cap.limit < 3')))
    local out = support.run(support.sh_quote(support.plain_binary()) .. " --variant " .. support.sh_quote(good)
      .. " --players 3 --seed 1", ("1: bid 1\nos.execute(%q)\nreload\ntrace\n"):format(
        "cp " .. support.sh_quote(broken) .. " " .. support.sh_quote(good)))
    local line = "reload failed, the game is as it was: " .. good .. ":6: attempt to index a nil value (field 'cap')\n"
    assert.is_truthy(support.has(out, line .. "Player 2, Player 3 to choose (bid).\n" .. line
      .. "stack traceback:\n\t" .. good .. ":6: in function <" .. good .. ":5>\n"), out)
  end)
end)

describe("the data a rulebook's Components table lists as the start's gold or coins", function()
  local function variant(path, base, body)
    return support.write(path, ('return { variant = true, name = "v", base = "%s",\n'
      .. '  apply = function(R) %s end }\n'):format(base, body))
  end

  it("changes the game when a variant changes it (before: the options' defaults were read, the data never)",
    function()
      local ow = variant(tmp("ow_gold.lua"), "old_world", "R.data.start_gold = 6; R.data.first_player_gold = 2")
      local g = kontor.new_game{ rules = "old_world", variants = { ow }, players = 3, seed = 1 }
      -- seat 3 holds the token (O9): 6 gold, and 2 for the token
      assert.are.same({ 6, 6, 8 }, { g.gold:get(1), g.gold:get(2), g.gold:get(3) })
      local given = kontor.new_game{ rules = "old_world", variants = { ow }, players = 3, seed = 1,
                                     options = { start_gold = 4 } }
      assert.are.equal(4, given.gold:get(1))
      local c = variant(tmp("carib_coins.lua"), "caribbean", "R.data.start_coins = 5; R.prepare(R)")
      local cg = kontor.new_game{ rules = "caribbean", variants = { c }, players = 3, seed = 1 }
      assert.are.same({ 5, 5, 5 }, { cg:view(1).players[1].coins, cg:view(1).players[2].coins,
                                     cg:view(1).players[3].coins })
    end)

  it("left as it is, keeps an option's default a variant set", function()
    local ow = variant(tmp("ow_opt.lua"), "old_world", "R.options.start_gold.default = 1")
    local g = kontor.new_game{ rules = "old_world", variants = { ow }, players = 3, seed = 1 }
    assert.are.same({ 1, 1 }, { g.gold:get(1), g.gold:get(2) })
    local base = kontor.new_game{ rules = "caribbean", players = 3, seed = 1 }
    assert.are.equal(3, base:view(1).players[1].coins)
  end)
end)

describe("kontor sweep over a rule set's own option beside one variant", function()
  it("sweeps the rule set's option (before: 'unknown option 'start_coins' for rich_admiral (options: pay)')",
    function()
      local v = support.write(tmp("rich_admiral.lua"), [[
return { variant = true, name = "rich_admiral", base = "caribbean",
  options = { pay = { default = 3, type = "integer", min = 0, max = 10, doc = "coins an Admiral pays" } },
  apply = function(R, opts) R.data.skills.Admiral.admiral = opts.pay; R.prepare(R) end }
]])
      local kq = support.sh_quote(support.plain_binary())
      local out, err, rc = support.run_split(kq .. " sweep --variant " .. support.sh_quote(v)
        .. " --over start_coins=1,2 --games 4 --jobs 1 --no-moves")
      assert.are.same({ 0, "" }, { rc, err })
      assert.is_truthy(support.has(out, "sweep        start_coins over 1, 2: 4 paired games each (seed 1)\n"
        .. "first        --rules caribbean --variant " .. v .. " --option start_coins=1\n"), out)
      -- beside two variants, neither of which declares it, too (before: "say whose option,
      -- VARIANT.start_coins (none of them declares start_coins)", and no way to say it)
      out, err, rc = support.run_split(kq .. " sweep --variant port_royal --variant " .. support.sh_quote(v)
        .. " --over start_coins=1,2 --games 4 --jobs 1 --no-moves")
      assert.are.same({ 0, "" }, { rc, err })
      assert.is_truthy(support.has(out, "first        --rules caribbean --variant port_royal --variant " .. v
        .. " --option start_coins=1\n"), out)
      -- the variant's own option alone is still the variant's
      out = support.run_split(kq .. " sweep --variant " .. support.sh_quote(v) .. " --over pay=1,2 --games 4 "
        .. "--jobs 1 --no-moves")
      assert.is_truthy(support.has(out, "first        --rules caribbean --variant " .. v .. ":pay=1\n"), out)
    end)
end)

describe("a Caribbean variant in which a Trader pays more", function()
  it("gains the skill's number per Trader (before: any trader value counted 1)", function()
    local v = support.write(tmp("rich_trader.lua"), [[
return { variant = true, name = "rich_trader", base = "caribbean",
  apply = function(R) R.data.skills.Trader.trader = 2; R.prepare(R) end }
]])
    local function loot(variants)
      local g = kontor.new_game{ rules = "caribbean", variants = variants, players = 2, seed = 1, scenario = {
        deck = { "Sailor 3/1", "Priest 4/1", "Captain 4/1" }, harbour = { "Flute 2/2", "Trader Skiff 3/1" },
        displays = { { "Trader Flute 3/1" }, {} }, coins = { 3, 0 }, phase = "loot" } }
      local said = { g.R.describe_option(g, 1, "take", "loot Flute 2"),
                     g.R.describe_option(g, 1, "take", "hire Trader Skiff 3/1") }
      assert(g:apply("loot Flute 2"))
      return g:view(1).players[1].coins, said
    end
    assert.are.same({ 6, { "+3 coins", "costs 3; +1 influence; +1 coin for each Skiff you loot" } }, { loot({}) })
    assert.are.same({ 7, { "+4 coins", "costs 3; +1 influence; +2 coins for each Skiff you loot" } }, { loot({ v }) })
  end)
end)

describe("constraints that leave a seat no option", function()
  it("name the constraint that refused the last option, its file:line and its reason (before: only the "
    .. "base script's line)", function()
    local v = support.write(tmp("nobid.lua"), [[
return { variant = true, name = "nobid", base = "old_world",
  apply = function(R)
    R.constraints[#R.constraints + 1] = { decisions = { "bid" },
      check = function(g, seat, decision, text) return "no bidding at all" end }
  end }
]])
    local ok, err = pcall(kontor.new_game, { rules = "old_world", variants = { v }, players = 3, seed = 1 })
    assert.is_false(ok)
    assert.is_truthy(support.has(tostring(err), ": the constraints of the variants leave seat 1 no option at "
      .. "decision 'bid' (the last, 'bid 3', refused by " .. v .. ":4: no bidding at all)"), tostring(err))
  end)
end)
