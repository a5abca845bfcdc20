-- designqa_games_spec.lua: what a game designer meets writing house
-- variants of Merchants of the Caribbean and Merchants of the Old World
-- from the docs alone (a QA pass after designqa_spec.lua's of Sea
-- Merchants): each mistake gives one clear message, each hook a variant
-- needs is there.
local support = require "tests.lua.support"

local tmp, cleanup = support.scratch()
teardown(cleanup)

-- the program, by a path that works from another folder
local BIN = io.popen("realpath " .. support.sh_quote(support.plain_binary())):read("l")

-- kontor ARGS: stdout, stderr, exit status.
local run = support.kontor_split

describe("a variant that sets a misspelt field in an entry of a list in R.data", function()
  it("is refused at its line with the field it is close to, not played as the base game", function()
    local f = support.write(tmp("guild.lua"), [[
return { variant = true, base = "old_world",
  apply = function(R)
    for _, b in ipairs(R.data.buildings) do
      if b.id == "guild_hall" then b.guild_vpp = 2 end
    end
  end }
]])
    local dir = f:match("^(.*)/[^/]*$")
    local out, e, code = support.run_split("cd " .. support.sh_quote(dir) .. " && " .. support.sh_quote(BIN)
      .. " sim --rules old_world --variant ./guild.lua --games 2")
    assert.are.same({ "", 1 }, { out, code })
    -- the message docs/designing-variants.md gives for it
    local doc = support.read("docs/designing-variants.md"):match("gives `(%./guild%.lua:4: R%.data%.buildings[^`]*)`")
    assert.truthy(doc)
    assert.are.equal("kontor: sim: " .. doc .. "\n", e)
    -- a field no entry has, far from every name, is the variant's own: fine
    local own = support.write(tmp("own.lua"), [[
return { variant = true, base = "old_world",
  apply = function(R)
    for _, b in ipairs(R.data.buildings) do b.designer_note = "x" end
  end }
]])
    out, e, code = run("sim --rules old_world --variant " .. own .. " --games 2 --no-moves")
    assert.are.equal(0, code, e)
    assert.truthy(out:find("^rules        old_world %+ "), out)
    -- a field of another entry given to this one (a Pier's VP for the Guild
    -- Hall), misspelt, is near that entry's field too
    local pier = support.write(tmp("pier.lua"), [[
return { variant = true, base = "old_world",
  apply = function(R)
    for _, b in ipairs(R.data.buildings) do
      if b.id == "guild_hall" then b.pier_pv = 1 end
    end
  end }
]])
    out, e, code = run("sim --rules old_world --variant " .. pier .. " --games 2")
    assert.are.same({ "", 1 }, { out, code })
    assert.truthy(e:find("guild_hall%.pier_pv") or e:find("%[16%]%.pier_pv is not in the data of old_world .*did you mean 'pier_vp'"), e)
    -- Caribbean's skills, a table of tables: a misspelt skill number
    local c = support.write(tmp("trader.lua"), [[
return { variant = true, base = "caribbean",
  apply = function(R) local s = R.data.skills.Trader; s.tradr = 2 end }
]])
    out, e, code = run("sim --rules caribbean --variant " .. c .. " --games 2")
    assert.are.same({ "", 1 }, { out, code })
    assert.truthy(e:find(":2: R%.data%.skills%.Trader%.tradr is not in the data of caribbean %(nothing would read it%): "
      .. "did you mean 'trader'%? %(R%.data%.skills%.Trader: trader%)"), e)
  end)
end)

describe("a variant that gives an Old World tile's number another type", function()
  it("is refused when the game is made, with the tile and the field, not in the game that staffs it", function()
    local f = support.write(tmp("two.lua"), [[
return { variant = true, base = "old_world",
  apply = function(R)
    for _, b in ipairs(R.data.buildings) do
      if b.id == "guild_hall" then b.guild_vp = "two" end
    end
  end }
]])
    local out, e, code = run("sim --rules old_world --variant " .. f .. " --games 2")
    assert.are.same({ "", 1 }, { out, code })
    -- at the variant's line that sets it, not at the rule set's file
    assert.are.equal("kontor: sim: " .. f .. ":4: R.data.buildings[16] (guild_hall): guild_vp must be "
      .. "a whole number >= 0, not 'two' (refused by old_world's R.prepare, after the variants)\n", e)
    -- (before, `sim` played on, exit 0: a guild hall on a ship of one good is rare among random seats)
    local ok, err = pcall(kontor.new_game, { rules = "old_world", variants = { f }, players = 3, seed = 1 })
    assert.is_false(ok)
    assert.truthy(tostring(err.message or err):find("guild_vp must be a whole number >= 0, not 'two'", 1, true))
    local cost = support.write(tmp("cost.lua"), [[
return { variant = true, base = "old_world",
  apply = function(R) R.data.lands[1].cost = 1.5 end }
]])
    out, e, code = run("sim --rules old_world --variant " .. cost .. " --games 2")
    assert.are.same({ "", 1 }, { out, code })
    assert.are.equal("kontor: sim: " .. cost .. ":2: R.data.lands[1] (sheep_herding): cost must be a whole number >= 0, "
      .. "not 1.5 (refused by old_world's R.prepare, after the variants)\n", e)
  end)
end)

describe("a variant that drops an Old World list of tiles or puts a number in one", function()
  it("is refused at its line, naming the list, not by an index of nil in the rule set's own file", function()
    -- (before: "old_world.lua: R.prepare failed after the variants: attempt
    -- to index a nil value, in .../variants/old_world.lua:267")
    local f = support.write(tmp("nolands.lua"), [[
return { variant = true, base = "old_world",
  apply = function(R) R.data.lands = nil end }
]])
    local out, e, code = run("sim --rules old_world --variant " .. f .. " --games 2")
    assert.are.same({ "", 1 }, { out, code })
    assert.are.equal("kontor: sim: " .. f .. ":2: R.data.lands must be a list of tiles (tables with an id), not nil "
      .. "(refused by old_world's R.prepare, after the variants)\n", e)
    local g = support.write(tmp("five.lua"), [[
return { variant = true, base = "old_world",
  apply = function(R) R.data.buildings[1] = 5 end }
]])
    out, e, code = run("sim --rules old_world --variant " .. g .. " --games 2")
    assert.are.same({ "", 1 }, { out, code })
    assert.are.equal("kontor: sim: " .. g .. ":2: R.data.buildings[1] must be a tile (a table with an id), not 5 "
      .. "(refused by old_world's R.prepare, after the variants)\n", e)
  end)
end)

describe("Caribbean's R.data.pay_active, what another player pays the active player for a card (C6)", function()
  local dear = support.write(tmp("dear.lua"), [[
return { variant = true, name = "dear", base = "caribbean",
  options = { fee = { default = 2, type = "integer", min = 0, doc = "coins a card" } },
  apply = function(R, opts) R.data.pay_active = opts.fee end }
]])
  local function logged(g, line)
    for _, l in ipairs(g:log()) do if l == line then return true end end
    return false
  end
  local function skip_of(g, seat)          -- why the seat's take_other was not asked
    for _, k in ipairs(g:skipped()) do
      if k.seat == seat and k.decision == "take_other" then return k.why end
    end
  end
  local function game(fee, coins)
    return kontor.new_game { rules = "caribbean", variants = { dear .. ":fee=" .. fee }, players = 3,
      names = { "Ann", "Bob", "Cem" },
      scenario = { deck = { "Pinnace 1/1", "Skiff 1/1", "Galleon 2/1", "Frigate 1/1", "Priest 4/1" },
                   harbour = { "Flute 2/2", "Sailor 3/1" }, coins = coins, phase = "loot", active = 1,
                   loot_at = 2 } }
  end
  it("is paid by a take of another player, told in the options, the log and why", function()
    local g = game(2, { 0, 5, 1 })
    assert.are.equal("+2 coins; you pay 2 coins to the active player first",
      g.R.describe_option(g, 2, "take_other", "loot Flute 2"))
    assert.are.equal("costs 3 (+2 to the active player); +1 influence; +1 strength",
      g.R.describe_option(g, 2, "take_other", "hire Sailor 3/1"))
    g:apply("hire Sailor 3/1")
    assert.are.same({ 2, 0, 1 }, { g.purse[1]:count(), g.purse[2]:count(), g.purse[3]:count() })
    assert.truthy(logged(g, "Bob hires the Sailor 3/1 for 3, pays 2 to Ann"))
    -- Cem, with 1 coin, cannot pay 2: not asked, and told why
    assert.are.equal("1 coin, and the active player is paid 2", skip_of(g, 3))
  end)
  it("at 1, the rulebook's, reads as before; at 0 a player without a coin may loot", function()
    local g = game(1, { 0, 5, 0 })
    assert.are.equal("costs 3 (+1 to the active player); +1 influence; +1 strength",
      g.R.describe_option(g, 2, "take_other", "hire Sailor 3/1"))
    g:apply("loot Flute 2")
    assert.truthy(logged(g, "Bob loots the Flute 2/2: 2 coins, pays 1 to Ann"))
    assert.are.equal("no coin to pay the active player", skip_of(g, 3))
    g = game(0, { 0, 0, 0 })
    assert.are.equal("+2 coins", g.R.describe_option(g, 2, "take_other", "loot Flute 2"))
    g:apply("loot Flute 2")
    assert.truthy(logged(g, "Bob loots the Flute 2/2: 2 coins"))
    assert.are.same({ 0, 2 }, { g.purse[1]:count(), g.purse[2]:count() })
  end)
end)

describe("Caribbean's R.rules.busts, whether a ship revealed and not repelled busts the turn (C4)", function()
  local bust4 = support.write(tmp("bust4.lua"), [[
return { variant = true, name = "bust4", base = "caribbean",
  apply = function(R)
    local busts = R.rules.busts
    R.rules.busts = function(g, seat, card)
      local ships = 1
      for _, id in ipairs(g.harbour:cards()) do
        if R.ship_of(id) then ships = ships + 1 end
      end
      return busts(g, seat, card) or ships >= 4
    end
  end }
]])
  local function game(variants)
    return kontor.new_game { rules = "caribbean", variants = variants, players = 3, names = { "Ann", "Bob", "Cem" },
      scenario = { deck = { "Galleon 2/1", "Priest 4/1", "Flute 1/1" },
                   harbour = { "Flute 2/2", "Skiff 1/1", "Pinnace 1/1" }, coins = { 3, 3, 3 }, active = 1 } }
  end
  it("a variant replaces: a fourth ship of any name busts, the log says so", function()
    local g = game { bust4 }
    assert.are.equal("3 cards in the deck; what busts is the variant's rule (C4)",
      g.R.describe_option(g, 1, "discover", "reveal"))
    g:apply("reveal")
    local log = g:log()
    assert.are.same({ "Ann reveals Galleon 2/1", "Ann reveals the Galleon 2/1: bust, the harbour is discarded",
      "Bob reveals Priest 4/1" }, { log[#log - 2], log[#log - 1], log[#log] })
  end)
  it("the rulebook's: only a second ship of a name", function()
    local g = game {}
    assert.are.equal("3 cards in the deck; a second Flute, Skiff or Pinnace busts (C4)",
      g.R.describe_option(g, 1, "discover", "reveal"))
    g:apply("reveal")
    assert.are.equal(4, g.harbour:count())
    g:apply("reveal")
    g:apply("reveal")
    local log = g:log()
    assert.are.same({ "Ann reveals Flute 1/1", "Ann reveals a second Flute: bust, the harbour is discarded" },
      { log[#log - 3], log[#log - 2] })
  end)
end)

describe("a variant that sets a Caribbean number to another type", function()
  it("is refused at its own line when the game is made, not by a comparison in game 1", function()
    local d = support.tmpdir()
    local f = support.write(d .. "/dear.lua", [[
return { variant = true, name = "dear", base = "caribbean",
  apply = function(R)
    R.data.pay_active = "2"
  end }
]])
    local out, e, code = support.run_split("cd " .. support.sh_quote(d) .. " && " .. support.sh_quote(BIN)
      .. " sim --rules caribbean --variant ./dear.lua --games 2")
    assert.are.same({ "", 1 }, { out, code })
    -- before: game 1 (seed ...): .../variants/caribbean.lua:1068: attempt to compare number with string;
    -- now the row of docs/designing-variants.md
    local row = support.read("docs/designing-variants.md"):match("\n| `(%./dear%.lua:3: R%.data%.pay_active[^`]*)`")
    assert.are.equal("kontor: sim: " .. row .. "\n", e)
    support.write(f, [[
return { variant = true, name = "dear2", base = "caribbean",
  apply = function(R) R.data.tax_threshold = -1 end }
]])
    out, e, code = support.run_split("cd " .. support.sh_quote(d) .. " && " .. support.sh_quote(BIN)
      .. " sim --rules caribbean --variant ./dear.lua --games 2")
    assert.are.same({ "", 1 }, { out, code })
    assert.are.equal("kontor: sim: ./dear.lua:2: R.data.tax_threshold must be a whole number >= 0, not -1 "
      .. "(refused by caribbean's R.prepare, after the variants)\n", e)
    os.execute("rm -rf " .. support.sh_quote(d))
  end)
  it("at the REPL's reload: the game is as it was", function()
    local f = support.write(tmp("dear3.lua"),
      'return { variant = true, name = "dear3", base = "caribbean", apply = function(R) R.data.pay_active = 2 end }\n')
    local g = kontor.new_game { rules = "caribbean", variants = { f }, players = 3, seed = 2 }
    for _ = 1, 12 do g:apply(g:options()[1]) end
    local moves = g:moves()
    support.write(f,
      'return { variant = true, name = "dear3", base = "caribbean", apply = function(R) R.data.pay_active = "2" end }\n')
    local ok, err = g:reload()
    assert.is_nil(ok)
    assert.truthy(tostring(err):find(f .. ":1: R.data.pay_active must be a whole number >= 0, not '2'", 1, true), tostring(err))
    assert.are.same(moves, g:moves())
    assert.are.equal(2, g.R.data.pay_active)
  end)
end)

describe("the REPL's reload after a change to the deck or a rule", function()
  it("says where the replayed moves log otherwise, so a designer sees another deal, not just a move refused", function()
    local d = support.tmpdir()
    local v = 'return { variant = true, name = "jesters", base = "caribbean", apply = function(R) '
      .. 'for _, p in ipairs(R.data.persons) do if p[1] == "Jester" and p[2] == 5 then p[4] = %d end end end }'
    support.write(d .. "/jesters.lua", v:format(4))
    local edit = string.format("io.open('jesters.lua', 'w'):write(%q):close()", v:format(5))
    local out = support.run("cd " .. support.sh_quote(d) .. " && " .. support.sh_quote(BIN)
      .. " --rules caribbean --players 3 --seed 1 --variant ./jesters.lua", "auto 8\n" .. edit .. "\nreload\n")
    -- before: only 'reloaded; stopped before move 5 ...: it is not Player 2's turn to decide ...'
    assert.truthy(support.has(out, "reloaded; stopped before move 5 '2: take nothing'"), out)
    assert.truthy(support.has(out, "The replayed moves log otherwise from line 1: it read 'Player 1 reveals tax fewest "
      .. "influence', now 'Player 1 reveals Settler 4/1'.\n"), out)
    -- a rule's number: the first line that shows it
    support.write(d .. "/dear.lua", 'return { variant = true, name = "dear", base = "caribbean", '
      .. 'apply = function(R) R.data.pay_active = 2 end }\n')
    out = support.run("cd " .. support.sh_quote(d) .. " && " .. support.sh_quote(BIN)
      .. " --rules caribbean --players 3 --seed 2 --variant ./dear.lua",
      "auto 40\nio.open('dear.lua', 'w'):write('return { variant = true, name = \"dear\", base = \"caribbean\", "
      .. "apply = function(R) R.data.pay_active = 3 end }'):close()\nreload\nreload\n")
    assert.truthy(support.has(out, "replayed 40 moves.\nThe replayed moves log otherwise from line 26: it read 'Player 3 "
      .. "loots the Flute 5/3: 3 coins, pays 2 to Player 1', now 'Player 3 loots the Flute 5/3: 3 coins, pays 3 to "
      .. "Player 1'.\n"), out)
    -- a reload that changes nothing says nothing more
    local _, n = out:gsub("log otherwise", "")
    assert.are.equal(1, n, out)
    os.execute("rm -rf " .. support.sh_quote(d))
  end)
end)

describe("an Old World variant that gives a misspelt kind of worker at the start", function()
  it("is refused at its line, with the kinds, before any game, not when the first seat is dealt", function()
    local f = support.write(tmp("worker.lua"), [[
return { variant = true, name = "worker", base = "old_world",
  apply = function(R)
    R.data.start_workers.facilty = 1
  end }
]])
    local out, e, code = run("sim --rules old_world --variant " .. f .. " --games 2")
    assert.are.same({ "", 1 }, { out, code })
    -- before: 'setting up old_world failed: R.data.start_workers: unknown worker kind 'facilty''
    assert.are.equal("kontor: sim: " .. f .. ":3: R.data.start_workers: unknown worker kind 'facilty' (kinds: seaman, "
      .. "land, facility) (refused by old_world's R.prepare, after the variants)\n", e)
  end)
end)

describe("an Old World bid cap that counts the gold bid (docs/balance.md, section 12)", function()
  it("gets its stat as a row of sim, and the cap lowers it", function()
    local f = support.write(tmp("bid_cap.lua"), [[
return { variant = true, name = "bid_cap", base = "old_world",
  options = { cap = { default = 2, type = "integer", min = 0, doc = "the highest bid" } },
  apply = function(R, opts)
    R.constraints[#R.constraints + 1] = { decisions = { "bid" },
      check = function(g, seat, decision, text)
        local n = tonumber(text:match("^bid (%d+)"))
        if n and n > opts.cap then return "bids are capped at " .. opts.cap end
      end }
    R.stats = R.stats or {}
    R.stats.gold_bid = "gold bid (O12)"
    local pick_order = R.rules.pick_order
    R.rules.pick_order = function(g, bids)
      for s = 1, g.players do g:stat("gold_bid", bids[s] or 0) end
      return pick_order(g, bids)
    end
  end }
]])
    local function mean(cap)
      local out, e, code = run("sim --rules old_world --variant " .. f .. ":cap=" .. cap
        .. " --players 4 --games 20 --no-moves --json")
      assert.are.equal(0, code, e)
      local m = kontor.json.decode(out).measures["stat.gold_bid"]
      assert.are.equal("gold_bid per game", m.label)
      return m.mean
    end
    local capped, free = mean(0), mean(100)
    assert.are.equal(0, capped)
    assert.is_true(free > 10, tostring(free))
  end)
end)

describe("--bot KIND without a seat in sim, compare and sweep", function()
  it("seats the bot on every seat not given one, as worth's --bot does", function()
    -- before: 'kontor: compare: --bot greedy: expected SEAT=KIND[:k=v,...], e.g. --bot 2=random ...' (exit 2)
    local out, e, code = run("compare --bot random:avoid=load --bot 2=random --a '' --b '--option start_gold=4' "
      .. "--rules old_world --players 3 --games 2 --no-moves")
    assert.are.equal(0, code, e)
    assert.truthy(support.has(out, "\nA            --rules old_world --players 3 --bot 1=random:avoid=load --bot 2=random "
      .. "--bot 3=random:avoid=load\n"), out)
    out, e, code = run("sim --bot greedy --rules caribbean --players 2 --games 1 --no-moves")
    assert.are.equal(0, code, e)
    assert.truthy(support.has(out, "players      2 (greedy, greedy)\n"), out)
    out, e, code = run("sweep --bot random --over start_gold=2,3 --rules old_world --games 2 --no-moves")
    assert.are.equal(0, code, e)
    assert.truthy(support.has(out, "--bot 1=random --bot 2=random --bot 3=random --bot 4=random"), out)
    -- a word that is no bot is still refused, as a misspelt bot
    out, e, code = run("sim --bot gready --games 2")
    assert.are.same({ "", 2 }, { out, code })
    assert.truthy(support.has(e, "--bot gready: unknown bot 'gready' (bots: random, greedy, mcts): "
      .. "did you mean 'greedy'?"), e)
  end)
end)
