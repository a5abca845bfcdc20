-- A designer's mistakes in the lab (docs/balance.md, "When a run fails"):
-- a variant that fails in `apply`, loops, or breaks a rule mid-game gives
-- one message for people (file:line, what went wrong), never a traceback
-- through the engine, and a game that failed comes with the command that
-- plays it alone. And the ladder says when a rating rests on the prior
-- alone (a bot that won or lost every game).

local support = require "tests.lua.support"

local runner = support.lab()
local tmp, kontor_cmd = runner.tmp, runner.run
teardown(runner.cleanup)
local q = support.sh_quote

local function variant(name, body)
  local path = tmp(name .. ".lua")
  support.write(path, "return {\n  variant = true, name = \"" .. name .. "\", base = \"sea_merchants\",\n"
    .. body .. "}\n")
  return path
end

-- line 4 of each: inside apply, or inside the rule it installs
local TYPO = "  apply = function(R)\n    R.data.prices.dock = 8\n  end,\n"
local LOOP = "  apply = function(R)\n    while true do end\n  end,\n"
local BROKEN_RULE = "  apply = function(R)\n    R.rules.payout_count = function(g, product, slots)\n"
  .. "      local x = nil; return x.y\n    end\n  end,\n"
local LOOPING_RULE = "  apply = function(R)\n    R.rules.payout_count = function(g, product, slots)\n"
  .. "      while true do end\n    end\n  end,\n"

describe("a variant that fails while it is applied", function()
  it("is one line: its file and line, and what went wrong, in compare, sweep and sim --jobs", function()
    local v = variant("typo", TYPO)
    for _, c in ipairs {
      { "compare", "compare --a '' --b " .. q("--variant " .. v) .. " --games 4 --jobs 1" },
      { "compare", "compare --a '' --b " .. q("--variant " .. v) .. " --games 4 --jobs 2" },
      { "sweep", "sweep --variant hand_limit --variant " .. q(v) .. " --over hand_limit.size=4,5 --games 4" },
      { "sim", "sim --variant " .. q(v) .. " --games 4 --jobs 2" },
    } do
      local out, e, code = kontor_cmd(c[2])
      assert.are.equal(1, code, c[2])
      assert.are.equal("", out)
      assert.are.equal(string.format("kontor: %s: variant typo: %s:4: attempt to index a nil value (field 'prices')\n",
        c[1], v), e)
    end
  end)

  it("that loops says where the time ran out #slow", function()
    local v = variant("loop", LOOP)
    local out, e, code = kontor_cmd("compare --a '' --b " .. q("--variant " .. v) .. " --games 4 --jobs 1")
    assert.are.equal(1, code)
    assert.are.equal("", out)
    assert.are.equal("kontor: compare: variant loop: time limit reached (0.5 s of CPU per step), in " .. v .. ":4\n", e)
    -- the plain simulation too, and a string too big for the work limit
    out, e, code = kontor_cmd("sim --variant " .. q(v) .. " --games 4")
    assert.are.same({ 1, "", "kontor: sim: time limit reached (0.5 s of CPU per step), in " .. v .. ":4\n" }, { code, out, e })
    local big = variant("big", '  apply = function(R)\n    local t = {}\n    t[1] = ("x"):rep(2e8)\n  end,\n')
    out, e, code = kontor_cmd("sim --variant " .. q(big) .. " --games 4")
    assert.are.same({ 1, "", "kontor: sim: work limit reached (10000000 units per step), in " .. big .. ":5\n" },
      { code, out, e })
    -- a block above the memory limit: Lua's own "not enough memory" named as the limit, and
    -- where the variant was (the frames the allocator saw, lua/engine/sandbox.c)
    local huge = variant("huge", '  apply = function(R)\n    local t = {}\n    t[1] = ("x"):rep(1e9)\n  end,\n')
    for _, c in ipairs { { "sim", "" }, { "compare", "variant huge: " } } do
      local args = c[1] == "sim" and ("sim --variant " .. q(huge) .. " --games 4")
        or ("compare --a '' --b " .. q("--variant " .. huge) .. " --games 4 --jobs 1")
      out, e, code = kontor_cmd(args)
      assert.are.same({ 1, "", "kontor: " .. c[1] .. ": " .. c[2] .. "memory limit reached (256 MiB), in " .. huge .. ":5\n" },
        { code, out, e })
    end
  end)
end)

describe("a rule of a variant that fails during a game", function()
  it("names the game and its seed, and the command that plays it alone fails the same way", function()
    local v = variant("broken_rule", BROKEN_RULE)
    local out, e, code = kontor_cmd("compare --a '' --b " .. q("--variant " .. v) .. " --games 5 --jobs 1")
    assert.are.equal(1, code)
    assert.are.equal("", out)
    local why = v .. ":5: attempt to index a nil value (local 'x')"
    local lines = support.lines(e)
    assert.are.same({ 3, "" }, { #lines, lines[3] }, e)
    assert.are.equal("kontor: compare: game 1 (seed 6869446166584666695): " .. why, lines[1])
    local alone = "kontor sim --rules sea_merchants --variant " .. v .. " --seed 1 --games 1 --game 1"
    assert.are.equal("Reproduce it alone: " .. alone, lines[2])
    -- the plain simulation plays that game alone and meets the same error
    local _, e2, code2 = kontor_cmd(alone:gsub("^kontor ", ""))
    assert.are.equal(1, code2)
    assert.are.equal("kontor: sim: game 1 of 1 (its seed 6869446166584666695) failed: " .. why, support.lines(e2)[1])
  end)

  it("is said once by a run in jobs: the first games' job's message, from the parent", function()
    local v = variant("broken_rule", BROKEN_RULE)
    local why = v .. ":5: attempt to index a nil value (local 'x')"
    -- games 1-10 and 11-20 both fail: one message, game 1's
    local out, e, code = kontor_cmd("compare --a '' --b " .. q("--variant " .. v) .. " --games 20 --jobs 2")
    assert.are.equal(1, code)
    assert.are.equal("", out)
    assert.are.equal("kontor: compare: game 1 (seed 6869446166584666695): " .. why .. "\n"
      .. "Reproduce it alone: kontor sim --rules sea_merchants --variant " .. v .. " --seed 1 --games 1 --game 1\n", e)
    -- worth and ladder name the game, its seed and the seats' bots
    out, e, code = kontor_cmd("worth --bot random --variant " .. q(v) .. " --kinds 'phase1: buy' --games 20 --jobs 2")
    assert.are.equal(1, code)
    assert.are.equal("", out)
    -- (each deal is played unrestricted first: that game is the first to fail)
    assert.are.equal("kontor: worth: game 1 unrestricted (seed 6869446166584666695; bots: random, random, random, "
      .. "random): " .. why .. "\n", e)
    out, e, code = kontor_cmd("ladder --variant " .. q(v) .. " --deals 4 random greedy --jobs 2")
    assert.are.equal(1, code)
    assert.are.equal("", out)
    assert.are.equal("kontor: ladder: deal 1, game 1 (seed 6869446166584666695; bots: random, greedy): " .. why .. "\n", e)
  end)

  it("that loops: the plain simulation says where too", function()
    local v = variant("looping_rule", LOOPING_RULE)
    local out, e, code = kontor_cmd("sim --variant " .. q(v) .. " --games 3")
    assert.are.same({ 1, "" }, { code, out })
    assert.are.equal("kontor: sim: game 1 of 3 (its seed 6869446166584666695) failed: time limit reached (0.5 s of CPU per step), in "
      .. v .. ":5\nReproduce it alone: kontor sim --variant " .. v .. " --seed 1 --games 3 --game 1\n", e)
  end)

  it("with bots, plays it alone with --range, and a limit says where it was reached #slow", function()
    local v = variant("looping_rule", LOOPING_RULE)
    local out, e, code = kontor_cmd("sweep --bot 2=greedy --variant hand_limit --variant " .. q(v) .. " --over hand_limit.size=4,5 --games 3 --jobs 1")
    assert.are.equal(1, code)
    assert.are.equal("", out)
    local lines = support.lines(e)
    assert.are.same({ 3, "" }, { #lines, lines[3] }, e)
    assert.are.equal("kontor: sweep: game 1 (seed 6869446166584666695): time limit reached (0.5 s of CPU per step), in "
      .. v .. ":5", lines[1])
    assert.are.equal("Reproduce it alone: kontor sim --rules sea_merchants --variant hand_limit:size=4 --variant " .. v
      .. " --bot 2=greedy --seed 1 --range 1-1", lines[2])
  end)
end)

describe("an option whose default in the file has the wrong type", function()
  it("is the file's fault (exit 1, no usage hint); a value given on the command line is a usage error", function()
    local v = variant("bad_default", '  options = { amount = { default = "three", type = "integer", min = 0 } },\n'
      .. "  apply = function(R, o) R.data.contract_bonus = o.amount end,\n")
    for _, cmd in ipairs { "sim", "compare" } do
      local args = cmd == "sim" and ("sim --variant " .. q(v) .. " --games 3")
        or ("compare --a '' --b " .. q("--variant " .. v) .. " --games 3 --jobs 1")
      local out, e, code = kontor_cmd(args)
      assert.are.equal(1, code, args)
      assert.are.equal("", out)
      assert.are.equal("kontor: " .. cmd .. ": " .. v .. ":3: option amount of bad_default: its default 'three' is not "
        .. "a whole number\n", e)
    end
    -- given a good value, the default is not used and the game runs
    local out, e, code = kontor_cmd("sim --variant " .. q(v .. ":amount=4") .. " --games 3")
    assert.are.equal(0, code, e)
    assert.truthy(out:find("games        3 (seed 1)", 1, true), out)
    local _, e2, code2 = kontor_cmd("sim --variant hand_limit:size=five --games 3")
    assert.are.equal(2, code2)
    assert.are.equal("kontor: sim: option size of hand_limit: 'five' is not a whole number\nTry 'kontor --help'.\n", e2)
  end)
end)

describe("a variant whose base names no rule set", function()
  it("says so, with the rule sets there are (exit 1); a variant of another rule set stays a usage error", function()
    local path = tmp("typo_base.lua")
    support.write(path, 'return { variant = true, name = "typo_base", base = "sea_merchant", apply = function() end }\n')
    for _, args in ipairs { "sim --variant " .. q(path) .. " --games 3",
                            "compare --a '' --b " .. q("--variant " .. path) .. " --games 3 --jobs 1" } do
      local out, e, code = kontor_cmd(args)
      assert.are.equal(1, code, args)
      assert.are.equal("", out)
      assert.are.equal("kontor: " .. args:match("^%a+") .. ": " .. path
        .. ": base = 'sea_merchant' names no rule set (rule sets: caribbean, old_world, sea_merchants): "
        .. "did you mean 'sea_merchants'?\n", e)
    end
    local _, e, code = kontor_cmd("sim --variant hand_limit --rules caribbean --games 3")
    assert.are.equal(2, code)
    -- where the variant's file sets its base
    assert.are.equal("kontor: sim: " .. require("kontor.rules").find("hand_limit")
      .. ":21: variant hand_limit is for sea_merchants, not caribbean\nTry 'kontor --help'.\n", e)
  end)
end)

describe("an output the run cannot write", function()
  it("is refused before any game is played, not after the run", function()
    local d = tmp("outputs")
    os.execute("mkdir -p " .. q(d) .. " && touch " .. q(d .. "/afile"))
    -- ten million games: the refusal must come before them (timeout 60 kills a run that plays)
    for _, c in ipairs {
      { "compare --a '' --b '' --games 10000000 --report " .. q(d .. "/no/r.html"), "compare",
        d .. "/no/r.html: cannot create a file in the folder " .. d .. "/no: No such file or directory" },
      { "sweep --variant hand_limit --over size=4,5 --games 10000000 --report " .. q(d .. "/no/s.html"), "sweep",
        d .. "/no/s.html: cannot create a file in the folder " .. d .. "/no: No such file or directory" },
      { "sweep --variant hand_limit --over size=4,5 --games 10000000 --svg " .. q(d .. "/afile/charts"), "sweep",
        d .. "/afile/charts: Not a directory" },
      { "worth --bot random --kinds 'phase1: buy' --games 10000000 --report " .. q(d .. "/no/w.html"), "worth",
        d .. "/no/w.html: cannot create a file in the folder " .. d .. "/no: No such file or directory" },
      { "sim --games 10000000 --jobs 2 --report /dev/null", "sim", "/dev/null: not a regular file (refused as an output)" },
    } do
      local out, e, code = kontor_cmd("--version >/dev/null; timeout 60 " .. q(runner.binary) .. " " .. c[1])
      assert.are.equal(1, code, c[1] .. ": " .. e)
      assert.are.equal("", out)
      assert.are.equal("kontor: " .. c[2] .. ": " .. c[3] .. "\n", e)
    end
    assert.are.same({ "afile" }, kontor.core.fs.list(d))
  end)
end)

describe("kontor compare --a with no SETUP after it", function()
  it("says that the plain game is '', not that the next option is unknown", function()
    runner.usage_errors {
      { "compare --a --b '--variant hand_limit' --games 5",
        "kontor: compare: --a needs a SETUP after it, '' for the plain game: --a '' (it got '--b')" },
      { "compare --b '--variant hand_limit' --a --games 5",
        "kontor: compare: --a needs a SETUP after it, '' for the plain game: --a '' (it got '--games')" },
    }
    local out, e, code = kontor_cmd("compare --a '' --b '--variant hand_limit' --games 3 --jobs 1 --no-moves")
    assert.are.equal(0, code, e)
    assert.truthy(out:find("\nB            --rules sea_merchants --variant hand_limit\n", 1, true), out)
  end)
end)

describe("kontor sweep --over", function()
  it("reads a range typed with a dash as a mistake, and refuses a value given twice", function()
    runner.usage_errors {
      { "sweep --variant hand_limit --over size=4-6 --games 5", "kontor: sweep: --over '4-6': a range is LO..HI (4..6)" },
      { "sweep --variant hand_limit --over size=4,5,4 --games 5", "kontor: sweep: --over '4,5,4': the value 4 is given twice" },
    }
    local sweep = require "kontor.balance.sweep"
    assert.are.same({ "-2", "0", "2" }, sweep.values("-2..2:2"))
    assert.are.same({ "stop", "discard" }, sweep.values("stop, discard"))
  end)
end)

describe("the REPL, a variant edited mid-game and reloaded (docs/designing-variants.md, 3)", function()
  it("keeps the game through a syntax error, an error in apply and a loop, then plays on under the new rule", function()
    local file = tmp("edited.lua")
    local function version(body)
      return "return { variant = true, name = \"edited\", base = \"sea_merchants\",\n"
        .. "  options = { amount = { default = 2, type = \"integer\", min = 0 } },\n"
        .. "  apply = function(R, opts)\n    " .. body .. "\n  end }\n"
    end
    support.write(file, version("R.data.contract_bonus = opts.amount"))
    local lines = { "auto 12", 'print("A", #g:moves(), g.R.data.contract_bonus)' }
    for _, body in ipairs { "R.data.contract_bonus = = opts.amount", "R.data.prices.contract = 1", "while true do end",
                            "R.data.contract_bonus = opts.amount + 4" } do
      lines[#lines + 1] = string.format("local f = io.open(%q, 'w'); f:write(%q); f:close()", file, version(body))
      lines[#lines + 1] = "reload"
      lines[#lines + 1] = 'print("B", #g:moves(), g.R.data.contract_bonus)'
    end
    local script = support.write(tmp("edits.txt"), table.concat(lines, "\n") .. "\n")
    local out, e, code = kontor_cmd("--variant " .. q(file .. ":amount=5") .. " --seed 2 < " .. q(script))
    assert.are.equal(0, code, e)
    local got = {}
    for l in out:gmatch("[^\n]+") do
      if not l:match("^Player %d to choose") and not l:match("^Played ") then got[#got + 1] = l end
    end
    -- the base's path as the program found it (absolute or not)
    got[8] = got[8] and got[8]:gsub("%(%S*variants/sea_merchants%.lua%)", "(variants/sea_merchants.lua)")
    assert.are.same({
      "A\t12\t5",
      "reload failed, the game is as it was: " .. file .. ":4: unexpected symbol near '='",
      "B\t12\t5",
      "reload failed, the game is as it was: " .. "variant edited: " .. file .. ":4: attempt to index a nil value (field 'prices')",
      "B\t12\t5",
      "reload failed, the game is as it was: " .. "variant edited: time limit reached (0.5 s of CPU per step), in "
        .. file .. ":4",
      "B\t12\t5",
      "Reloaded sea_merchants (variants/sea_merchants.lua) with the variant edited (" .. file .. "); replayed 12 moves.",
      "B\t12\t9",
    }, got)
  end)
end)

describe("kontor worth, a kind whose every game had the same outcome", function()
  it("has an interval with a width and no verdict after 2 games", function()
    local report = tmp("w2.html")
    local out, e, code = kontor_cmd("worth --bot random --games 2 --kinds 'phase1: buy;phase1: pass' --jobs 1 --report "
      .. q(report))
    assert.are.equal(0, code, e)
    -- the restricted seat lost both games of each kind, as it did unrestricted: 0 of 2 says little,
    -- and the same outcome on both deals is not a difference of width 0 either
    assert.truthy(out:find("\nphase1: buy   0.0000 [0.0000, 0.6576]  +0.0000 [-0.6576, +0.6576]  0.50 of games, 2.0 a game\n",
      1, true), out)
    local html = support.read(report)
    assert.falsy(html:find("Moves that help win", 1, true))
    assert.truthy(html:find("No one needs", 1, true))
    local json = kontor.core.json.decode((kontor_cmd("worth --bot random --games 2 --kinds 'phase1: buy' --jobs 1 --json")))
    assert.are.same({ 0, { 0, 0.65762 }, 0, { -0.65762, 0.65762 }, 1 },
      { json.rows[1].win_rate, json.rows[1].ci, json.rows[1].diff, json.rows[1].diff_ci, json.rows[1].p })
  end)

  it("uses Wilson's interval and the exact binomial p", function()
    local worth = require "kontor.balance.worth"
    local lo, hi, p = worth.same_outcome(0, 20, 0.25)
    assert.are.same({ 0, 0.1611, 0.0063 }, { lo, tonumber(("%.4f"):format(hi)), tonumber(("%.4f"):format(p)) })
    lo, hi, p = worth.same_outcome(1, 10, 0.5)
    assert.are.same({ 0.7225, 1, 0.002 }, { tonumber(("%.4f"):format(lo)), tonumber(("%.4f"):format(hi)), tonumber(("%.4f"):format(p)) })
  end)
end)

describe("kontor compare, a measure that differed by the same amount in every game", function()
  it("has no verdict from 2 games, and one from many", function()
    local v = variant("cheap_dock", "  apply = function(R) R.data.price.dock = 8 end,\n")
    -- in both games of seed 1 side B bought a dock twice, side A none
    local out, e, code = kontor_cmd("compare --a '' --b " .. q("--variant " .. v) .. " --games 2 --jobs 1")
    assert.are.equal(0, code, e)
    local row = out:match("\n(buy_card: buy dock per game[^\n]*)")
    assert.are.equal("buy_card: buy dock per game                           0.0000    2.0000   +2.0000  [-1.5351, +4.2018]", row)
    local stats = require "kontor.balance.stats"
    local function constant(n, d)
      local acc = stats.acc()
      for _ = 1, n do stats.add(acc, { x = d }) end
      return stats.acc_paired(acc, "x")
    end
    local r = constant(6, 1)
    assert.are.same({ 1, "0.5076", "1.2067" }, { r.diff, ("%.4f"):format(r.ci[1]), ("%.4f"):format(r.ci[2]) })
    assert.are.equal("more", stats.verdict(r.ci, "more", "fewer"))
    assert.is_nil(stats.verdict(constant(2, -3).ci, "more", "fewer"))
    -- no difference at all stays [0, 0]
    assert.are.same({ 0, 0 }, constant(5, 0).ci)
  end)
end)

describe("kontor ladder", function()
  it("says that a bot that won every game has a bound, not a measure", function()
    local out, e, code = kontor_cmd("ladder --rules sea_merchants --deals 3 random random:avoid=phase2:draw greedy --jobs 1")
    assert.are.equal(0, code, e)
    local lines = support.lines(out)
    assert.are.equal("  greedy                      885  [717, 1017]  won every game: a bound, not a measure "
      .. "(more deals move it)", lines[3])
    assert.are.equal("  random                        0  (the anchor)", lines[4])
    assert.are.equal("  random:avoid=phase2:draw   -118  [-717, 0]", lines[5])
    assert.are.equal("  random:avoid=phase2:draw vs greedy: 0.0% of 6 games", lines[9])
  end)

  it("the lab's bots line says when random never beat a bot of the ratings table", function()
    local out, e, code = kontor_cmd("compare --bot 1=greedy --a '' --b '' --games 2 --jobs 1 --no-moves")
    assert.are.equal(0, code, e)
    assert.truthy(out:find("\nbots: greedy on seat 1 (ladder: 2464 [2400, 2556] over random, who never beat it (a bound), "
      .. "2 players); random on seats 2-4 (ladder: 0, the floor)\n", 1, true), out)
    local ladder = require "kontor.balance.ladder"
    -- (Caribbean's ladder of f6a59c8: random never beat mcts at 50, and
    -- won 2 of 48 games against mcts at 150)
    assert.is_true(ladder.rating("caribbean", {}, 2, "mcts:iterations=50").unbeaten)
    assert.is_nil(ladder.rating("caribbean", {}, 2, "mcts:iterations=150").unbeaten)
  end)

  it("finds the bots that won or lost every game from the pairs' shares", function()
    local ladder = require "kontor.balance.ladder"
    assert.are.same({ b = "won", a = "lost" }, ladder.swept { { a = "a", b = "b", games = 4, a_wins = 0 } })
    assert.are.same({ a = "won" },
      ladder.swept { { a = "a", b = "b", games = 4, a_wins = 1 }, { a = "a", b = "c", games = 4, a_wins = 1 },
                     { a = "b", b = "c", games = 4, a_wins = 0.5 } })
    assert.are.same({}, ladder.swept { { a = "a", b = "b", games = 4, a_wins = 0.75 } })
  end)
end)
