-- The house variants played at the table (docs/rules/house.md, rulings
-- H1-H10): what the players read, in the log, the options and the errors.
-- One test per defect the QA pass found, each seen failing first.
-- Run: build/kontor run tests/busted.lua tests/rules/house_table_spec.lua

local support = require "tests.lua.support"
local ok = support.ok

-- A game from a stated position (two players, Anna and Bert; Anna's ships
-- grain and wood, Bert's cloth and spices).
local function game(variants, sc, players, options)
  sc = sc or {}
  sc.deck = sc.deck or { "wood", "grain", "cloth", "spices", "fish", "fish" }
  return support.sea_merchants_game(sc, players, options, variants)
end

local function last_log(g)
  local log = g:log()
  return log[#log]
end

describe("house rules at the table", function()
  it("H7: the log names the crane a crane exchange uses, not a dock", function()
    for _, variants in ipairs{ { "house" }, { "house_specials" } } do
      local g = game(variants, { specials = { { crane = 1 }, {} } })
      ok(g, "pass")
      ok(g, "crane exchange ship 1 to fish")
      assert.are.equal("Anna uses a crane: exchanges grain for fish on ship 1", last_log(g), variants[1])
      assert.are.same({ 4, 2 }, g.ships[1])
    end
    -- S5's option holds for the crane: bought with dock_at_once=false, it waits a turn
    local w = game({ "house" }, { coins = { 12, 0 } }, 2, { dock_at_once = false })
    ok(w, "buy crane")
    assert.are.equal("phase2", w:decision().name)
    -- the base game's dock as before (S5)
    local g = game({}, { specials = { { dock = 1 }, {} } })
    ok(g, "pass")
    ok(g, "dock exchange ship 1 to fish")
    assert.are.equal("Anna uses a dock: exchanges grain for fish on ship 1", last_log(g))
  end)

  it("H8: with count=delivered the log says what the market shows and what each cube is paid", function()
    -- grain on slot 1; Anna plays 2 grain on slots 2,3: 3 slots show grain,
    -- and her grain ship is paid the 2 cards delivered
    local g = game({ { "delivered_payout", options = { count = "delivered" } } },
      { phase = "phase2", hands = { { "grain", "grain" }, {} } })
    ok(g, "play grain on slots 2,3")
    assert.are.equal(3, g.market:count_of(1))
    assert.are.equal(2, g.coins:get(1))
    assert.are.equal("Anna plays grain on slots 2,3: grain shows 3, pays 2 per cube; Anna earns 2", last_log(g))
    -- the default counts the market (H8 = S8): one number, as in the base
    local h = game({ "delivered_payout" }, { phase = "phase2", hands = { { "grain", "grain" }, {} } })
    ok(h, "play grain on slots 2,3")
    assert.are.equal(3, h.coins:get(1))
    assert.are.equal("Anna plays grain on slots 2,3: grain shows 3; Anna earns 3", last_log(h))
  end)

  it("H3: a draft order that cannot be played is refused when the variant loads, not as a failing game", function()
    local lab = support.lab()
    finally(lab.cleanup)
    -- seats of 4 players, given 3: the player count is wrong (usage, 2)
    lab.usage_errors {
      { "sim --variant 'snake_draft:order=4 3 2 1/1 2 3 4' --players 3 --games 2",
        "kontor: sim: sea_merchants is for 4 players, not 3" },
      { "play --variant 'house:snake_draft.order=2 1/1 2' --players 3",
        "kontor: sea_merchants is for 2 players, not 3" },
    }
    -- was: "sim: game 1 of 2 (its seed ...) failed: snake_draft: order
    -- 'backwards': round 1 must list each seat 1..4 once", and "Reproduce it alone"
    for _, c in ipairs {
      { "backwards", "order 'backwards': 'backwards' is not a seat: expected snake, forward, or rounds of seats such as '4 3 2 1/1 2 3 4'" },
      { "1 2 3/3 1", "order '1 2 3/3 1': round 2 must list each seat once, from 1 (it has no seat 2)" },
      { "1 2 3 4/4 3 2 1/1 2 3 4", "order '1 2 3 4/4 3 2 1/1 2 3 4' has 3 rounds; each player loads 2 ships (S3)" },
      { "1/1", "order '1/1' lists 1 seat a round; sea_merchants is for 2 to 4 players" },
    } do
      local out, err, code = lab.run("sim --variant 'snake_draft:order=" .. c[1] .. "' --games 2")
      assert.are.equal("", out)
      -- a bad value given: exit 2, as a value below an option's min (was 1, a failing script)
      assert.are.equal("kontor: sim: variant snake_draft: " .. c[2] .. "\nTry 'kontor --help'.\n", err)
      assert.are.equal(2, code)
    end
    -- the order's player count is the game's default: 2 players here
    local g = kontor.new_game { rules = "sea_merchants", seed = 1,
                                variants = { { "snake_draft", options = { order = "2 1/1 2" } } } }
    assert.are.equal(2, g.players)
    local order = {}
    while g.phase == "load" do order[#order + 1] = g:who(); ok(g, 1) end
    assert.are.same({ 2, 1, 1, 2 }, order)
  end)

  it("the house preset: an option of a member given as the preset's says how to give it", function()
    local lab = support.lab()
    finally(lab.cleanup)
    -- was: "unknown option 'size' for house (options: none)", and no more
    lab.usage_errors {
      { "sim --variant house:size=5 --games 2",
        "kontor: sim: unknown option 'size' for house (options: none): 'size' is an option of hand_limit, "
        .. "which house includes: --variant house:hand_limit.size=5" },
      { "play --variant house:office_bonus=3",
        "kontor: unknown option 'office_bonus' for house (options: none): 'office_bonus' is an option of "
        .. "house_specials, which house includes: --variant house:house_specials.office_bonus=3" },
      -- a name no member has: as before
      { "play --variant house:sise=5", "kontor: unknown option 'sise' for house (options: none)" },
    }
    -- the REPL's new says what to type, from the error's data
    local out = support.run(support.sh_quote(lab.binary), "new variant=house:size=5\n")
    assert.truthy(support.has(out, "'size' is an option of the variant hand_limit: new variant=house:hand_limit.size=5"), out)
    -- and serve says how to give it in its own request, not --variant
    local lines = support.serve_lines { '{"id":1,"op":"new","variants":["house:size=5"]}' }
    assert.are.equal('{"error":{"code":"game_setup","message":"unknown option \'size\' for house (options: none): '
      .. '\'size\' is an option of the variant hand_limit: give it in \\"variants\\" as '
      .. '\\"house:hand_limit.size=5\\""},"id":1,"ok":false}', lines[1])
    -- and what it says to type is taken (was: "new: variant=house:hand_limit.size=5: expected k=v
    -- after ':', not 'hand_limit.size=5'")
    out = support.run(support.sh_quote(lab.binary), "new variant=house:hand_limit.size=5 players=2 seed=1\n")
    assert.truthy(support.has(out, "New game: Sea Merchants with house (hand_limit.size=5), 2 players "
      .. "(Player 1, Player 2), seed 1.\n"), out)
    -- given as the preset takes it, it plays: a hand of 5
    local g = game({ { "house", options = { ["hand_limit.size"] = 5 } } },
      { phase = "phase2", hands = { { "fish", "fish", "fish", "wood", "wood" }, {} } })
    assert.are.same({ "play" }, g:options())
    assert.truthy(support.has(g:why("draw"), "your hand is full (5 cards, the limit is 5)"))
  end)

  it("H7: a crane's decisions are named for the crane on the players' screens", function()
    -- was: "Ann, your move (dock):" and "(dock product)", in a game without docks
    local moves = "load fish on ship 1\nload fish on ship 1\nload wood on ship 2\nload cloth on ship 2\n"
      .. "buy crane\ncrane exchange ship 1\ncrane exchange ship 1 to spices\n"
    local out = support.kontor_rc("play --variant house --players 2 --names Ann,Bob --seed 5 --option start_coins=12",
      moves)
    assert.truthy(support.has(out, "\nAnn, your move (crane):\n  1  crane exchange ship 1  ("), out)
    assert.truthy(support.has(out, "\nAnn, your move (crane product):\n  1  crane exchange ship 1 to grain  ("), out)
    assert.truthy(support.has(out, "\nAnn uses a crane: exchanges fish for spices on ship 1\n"), out)
    assert.falsy(support.has(out, "(dock"), out)
    -- the REPL says the same
    local repl = support.kontor_rc("--variant house_specials --players 2 --seed 5 --option start_coins=12",
      "auto 4\ndo buy crane\n")
    assert.truthy(support.has(repl, "\nPlayer 1 to choose (crane).\n"), repl)
    -- the base game's dock as before
    local base = support.kontor_rc("--players 2 --seed 5 --option start_coins=12", "auto 4\ndo buy dock\n")
    assert.truthy(support.has(base, "\nPlayer 1 to choose (dock).\n"), base)
  end)

  it("H5: why a discard is refused names the product, the card not held, or the hand and its limit", function()
    local g = game({ { "house", options = { ["hand_limit.overflow"] = "discard" } } },
      { phase = "phase2", hands = { { "fish", "fish", "fish", "wood", "wood", "wood" }, {} },
        specials = { { forklift = 1 }, {} } })
    ok(g, "draw")
    ok(g, "forklift draw")
    assert.are.equal("discard", g:decision().name)
    assert.are.equal(9, g.hands[1]:count())
    local expected = "; expected one of: discard grain, discard wood, discard fish, discard cloth"
    -- was, for each: "your hand is above its limit: discard one card ('discard <product>')"
    assert.are.equal("'discard porcelain' is not a legal action: you hold no porcelain card" .. expected,
      g:why("discard porcelain"))
    assert.are.equal("'discard gold' is not a legal action: there is no product 'gold' "
      .. "(grain, wood, porcelain, fish, spices, cloth)" .. expected, g:why("discard gold"))
    assert.are.equal("'play fish' is not a legal action: your hand holds 9 cards, above its limit of 6: "
      .. "discard one card ('discard <product>')" .. expected, g:why("play fish"))
    -- refused, and the game as it was
    local before = kontor.json.encode(g:state())
    assert.is_nil((g:apply("discard porcelain")))
    assert.are.equal(before, kontor.json.encode(g:state()))
    ok(g, "discard fish")
    assert.are.equal(8, g.hands[1]:count())
  end)

  it("a sweep over an option of a variant the house preset includes sweeps it through the preset", function()
    local lab = support.lab()
    finally(lab.cleanup)
    -- was: "sweep: --over hand_limit.size: no --variant hand_limit is given (variants: house)", status 2
    local out, err, code = lab.run("sweep --variant house --over hand_limit.size=3,6 --games 20")
    assert.are.equal("", err)
    assert.are.equal(0, code)
    assert.truthy(support.has(out, "sweep        hand_limit.size over 3, 6: 20 paired games each (seed 1)\n"
      .. "first        --rules sea_merchants --variant house:hand_limit.size=3\n"), out)
    -- each value plays the games sim plays with it: 67.30 turns at 3, 53.90 at 6 (the preset's default)
    assert.truthy(out:find("\ngame length %(turns%) +3 +67%.3000 ", 1), out)
    assert.truthy(out:find("\n +6 +53%.9000 ", 1), out)
    for size, turns in pairs { [3] = "67.30", [6] = "53.90" } do
      local sim = lab.run("sim --variant house:hand_limit.size=" .. size .. " --games 20 --seed 1")
      assert.truthy(support.has(sim, "mean turns   " .. turns .. " "), sim)
    end
  end)
end)
