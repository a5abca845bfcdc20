-- designqa_spec.lua: what a game designer meets in the first hour, from a
-- QA pass that used only the docs (designing-variants, balance, bots,
-- repl): each mistake gives one clear message and the right exit status.
local support = require "tests.lua.support"

local tmp, cleanup = support.scratch()
teardown(cleanup)

-- the program, by a path that works from another folder
local BIN = io.popen("realpath " .. support.sh_quote(support.plain_binary())):read("l")

-- kontor ARGS: stdout, stderr, exit status.
local run = support.kontor_split

describe("a bot option with a bad value in a lab setup", function()
  it("is a usage error before any game (exit 2), not game 1's failure", function()
    local out, e, code = run("compare --a '--bot 1=greedy:depth=x' --b '' --games 2")
    assert.are.equal(2, code)
    assert.are.equal("", out)
    assert.are.equal("kontor: compare: --a: --bot 1=greedy:depth=x: greedy option depth=x: expected a whole number\n"
      .. "Try 'kontor --help'.\n", e)
    out, e, code = run("sim --bot 2=mcts:iterations=0 --games 2")
    assert.are.same({ "", 2 }, { out, code })
    assert.are.equal("kontor: sim: --bot 2=mcts:iterations=0: mcts option iterations=0: expected 1..10000000\n"
      .. "Try 'kontor --help'.\n", e)
    assert.falsy(support.has(e, "Reproduce"), e)
  end)
end)

describe("a variant file a designer got slightly wrong", function()
  it("with a misspelt field (aply) is refused, with the fields and a close one, not run without it", function()
    local f = support.write(tmp("typo_field.lua"), [[
return { variant = true, base = "sea_merchants",
  aply = function(R) R.data.price.dock = 3 end }
]])
    local out, e, code = run("sim --variant " .. f .. " --games 2")
    assert.are.equal(1, code)
    assert.are.equal("", out)
    assert.are.equal("kontor: sim: " .. f .. ": a variant has no field 'aply' (fields: apply, base, explain, "
      .. "includes, name, options, replaces, summary, title, variant): did you mean 'apply'?\n", e)
  end)

  it("without variant = true says so, not that the rule set has no R.setup", function()
    local f = support.write(tmp("novariant.lua"), [[
return { base = "sea_merchants", apply = function(R) R.data.price.dock = 3 end }
]])
    local out, e, code = run("sim --variant " .. f .. " --games 2")
    assert.are.equal(1, code)
    assert.are.equal("", out)
    assert.are.equal("kontor: sim: " .. f .. ": the file has base but not variant = true: a variant returns "
      .. "{ variant = true, base = ..., apply = function(R, opts) ... end }\n", e)
  end)
end)

describe("docs/designing-variants.md's rows for these mistakes", function()
  it("are what kontor prints", function()
    local doc = support.read("docs/designing-variants.md")
    local d = support.tmpdir()
    support.write(d .. "/mine.lua", 'return { variant = true, base = "sea_merchants", aply = function(R) end }\n')
    local out = support.run("cd " .. support.sh_quote(d) .. " && " .. support.sh_quote(BIN)
      .. " --variant ./mine.lua </dev/null")
    local row = doc:match("\n| `(%./mine%.lua: a variant has no field[^`]*)`")
    assert.truthy(row)
    assert.truthy(support.has(out, row), out)
    support.write(d .. "/mine.lua", 'return { base = "sea_merchants", apply = function(R) end }\n')
    out = support.run("cd " .. support.sh_quote(d) .. " && " .. support.sh_quote(BIN)
      .. " --variant ./mine.lua </dev/null")
    row = doc:match("\n| `(%./mine%.lua: the file has base[^`]*)`")
    assert.truthy(row)
    assert.truthy(support.has(out, row), out)
    os.execute("rm -rf " .. support.sh_quote(d))
  end)
end)

describe("an option a designer got wrong", function()
  it("given on the command line: the option it is close to", function()
    local f = support.write(tmp("dock9.lua"), [[
return { variant = true, name = "dock9", base = "sea_merchants",
  options = { price = { default = 9, type = "integer", min = 0, doc = "what a dock costs" } },
  apply = function(R, opts) R.data.price.dock = opts.price end }
]])
    local out, e, code = run("sim --variant " .. f .. ":prise=5 --games 2")
    assert.are.equal(2, code)
    assert.are.equal("", out)
    assert.are.equal("kontor: sim: unknown option 'prise' for dock9 (options: price): did you mean 'price'?\n"
      .. "Try 'kontor --help'.\n", e)
  end)

  it("declared with a type the engine does not know: said, not 'its default is not a string'", function()
    local f = support.write(tmp("badtype.lua"), [[
return { variant = true, name = "mine", base = "sea_merchants",
  options = { price = { default = 3, type = "int" } },
  apply = function(R, opts) R.data.price.dock = opts.price end }
]])
    local out, e, code = run("sim --variant " .. f .. " --games 2")
    assert.are.equal(1, code)
    assert.are.equal("", out)
    local doc = support.read("docs/designing-variants.md")
    local row = doc:match("\n| `(%./mine%.lua:2: option price of mine: type 'int'[^`]*)`")
    assert.are.equal("kontor: sim: " .. row:gsub("^%./mine%.lua", f) .. "\n", e)
    assert.are.equal("./mine.lua:2: option price of mine: type 'int' is not one of boolean, integer, list, string: "
      .. "did you mean 'integer'?", row)
  end)
end)

describe("a reload that stops at a move a rule now fails", function()
  it("says what was kept on the first line, before the script's traceback", function()
    local f = tmp("ee.lua")
    local function variant(ret)
      support.write(f, [[
return { variant = true, name = "ee", base = "sea_merchants",
  apply = function(R)
    local old = R.rules.extra_exchanges
    R.rules.extra_exchanges = function(g, seat)
      return ]] .. ret .. [[

    end
  end }
]])
    end
    variant("old(g, seat)")
    local g = kontor.new_game { rules = "sea_merchants", variants = { f }, players = 2, seed = 3 }
    for _ = 1, 4 do g:apply(g:options()[1]) end
    g:apply("pass")
    variant("old(g, seat) + nil")
    local ok, msg = g:reload()
    assert.is_nil(ok)
    local lines = support.lines(msg)
    assert.are.equal("reloaded; stopped before move 5 '1: pass': " .. f .. ":5: attempt to perform arithmetic "
      .. "on a nil value (1 move from there on kept: put the rule back and reload, or redo)", lines[1])
    assert.are.equal("stack traceback:", lines[2])
    assert.are.equal("\t" .. f .. ":5: in field 'extra_exchanges'", lines[3])
    assert.are.same({ 4, 1 }, { #g:moves(), #g:held_moves() })
    variant("old(g, seat)")
    assert.are.same({ true, 5 }, { g:reload() })
    assert.are.equal("1: pass", g:moves()[5])
  end)
end)

describe("a variant that sets a misspelt rule", function()
  it("is refused with the rule it is close to, in the doc's words", function()
    local d = support.tmpdir()
    support.write(d .. "/mine.lua", [[
return { variant = true, base = "sea_merchants",
  apply = function(R) R.rules.payout = function() return 5 end end }
]])
    local out, code = support.run("cd " .. support.sh_quote(d) .. " && " .. support.sh_quote(BIN)
      .. " sim --variant ./mine.lua --games 2")
    local row = support.read("docs/designing-variants.md"):match("\n| `(%./mine%.lua:2: R%.rules%.payout[^`]*)`")
    assert.are.equal(1, code)
    assert.are.equal("kontor: sim: " .. row .. "\n", out)
    -- Caribbean's too; a rule of a name of its own is no mistake
    support.write(d .. "/c.lua", [[
return { variant = true, base = "caribbean",
  apply = function(R) R.rules.tax_winner = function() return {} end end }
]])
    out, code = support.run("cd " .. support.sh_quote(d) .. " && " .. support.sh_quote(BIN) .. " sim --variant ./c.lua --games 2")
    assert.are.equal(1, code)
    assert.are.equal("kontor: sim: ./c.lua:2: R.rules.tax_winner is not a rule of caribbean (nothing would call it): "
      .. "did you mean 'tax_winners'? (rules: busts, can_win, game_end, tax_winners)\n", out)
    out, code = support.run(support.sh_quote(BIN) .. " sim --players 2 --variant tests/balance/mutiny.lua --games 2 --no-moves")
    assert.are.equal(0, code, out)
    os.execute("rm -rf " .. support.sh_quote(d))
  end)
end)

describe("a variant whose base is misspelt", function()
  it("names the rule set it is close to", function()
    local f = support.write(tmp("badbase.lua"), 'return { variant = true, base = "seamerchants", apply = function() end }\n')
    local out, e, code = run("sim --variant " .. f .. " --games 2")
    assert.are.equal(1, code)
    assert.are.equal("", out)
    assert.are.equal("kontor: sim: " .. f .. ": base = 'seamerchants' names no rule set (rule sets: caribbean, "
      .. "old_world, sea_merchants): did you mean 'sea_merchants'?\n", e)
  end)
end)

describe("a ladder where the first bot never beat one", function()
  it("says that bot's rating is a bound, not only where it won every game", function()
    local out, e, code = run("ladder --deals 6 random greedy 'greedy:avoid=buy dock'")
    assert.are.equal(0, code, e)
    local lines = support.lines(out)
    assert.are.equal("  greedy:avoid=buy dock   1876  [1844, 1966]  random never beat it: a bound, not a measure "
      .. "(more deals move it)", lines[3])
    assert.are.equal("  greedy                  1817  [1773, 1844]  random never beat it: a bound, not a measure "
      .. "(more deals move it)", lines[4])
    assert.are.equal("  random                     0  (the anchor)", lines[5])
    assert.are.equal("  greedy vs greedy:avoid=buy dock: 41.7% of 12 games", lines[9])
    out = run("ladder --deals 4 greedy random:prefer=pass random:avoid=pass")
    assert.truthy(support.has(out, "  random:prefer=pass   -726  [-751, -715]  it never beat greedy: a bound, "
      .. "not a measure (more deals move it)\n"), out)
  end)
end)

describe("the lab's sim summary", function()
  it("says '1 game shared', not '1 games shared'", function()
    local f = support.write(tmp("low_tax.lua"), [[
return { variant = true, name = "low_tax", base = "caribbean",
  options = { threshold = { default = 9, type = "integer", min = 1, doc = "coins at which tax bites" } },
  apply = function(R, opts) R.data.tax_threshold = opts.threshold end }
]])
    local out, e, code = run("sim --variant " .. f .. " --games 200")
    assert.are.equal(0, code, e)
    assert.truthy(support.has(out, "\nwins         1: 52  2: 48  3: 43  4: 58 (1 game shared)\n"), out)
  end)
end)

describe("the REPL's new with a misspelt word of its own", function()
  it("names the word of new it is close to, not only the rule options", function()
    local out, _, code = run("--seed 1 --players 2", "new plyers=3\nnew start_coin=4\nmoves\n")
    assert.are.equal(0, code)
    assert.truthy(support.has("\n" .. out, "\nunknown option 'plyers' for sea_merchants (options: dock_at_once, "
      .. "exchange_new_ship, first_player, start_coins): did you mean 'players='? (new also takes names=, "
      .. "players=, rules=, seed=, variant=)\n"), out)
    -- a rule option it is close to is said as before, once
    assert.truthy(support.has(out, "\nunknown option 'start_coin' for sea_merchants (options: dock_at_once, "
      .. "exchange_new_ship, first_player, start_coins): did you mean 'start_coins'?\nNo moves yet.\n"), out)
  end)
end)

describe("a misspelt bot", function()
  it("names the bot it is close to, in sim, ladder and the REPL", function()
    local out, e, code = run("sim --bot 1=gready --games 2")
    assert.are.same({ "", 2 }, { out, code })
    assert.are.equal("kontor: sim: --bot 1=gready: unknown bot 'gready' (bots: random, greedy, mcts): "
      .. "did you mean 'greedy'?\nTry 'kontor --help'.\n", e)
    out, e, code = run("ladder randm greedy")
    assert.are.same({ "", 2 }, { out, code })
    assert.are.equal("kontor: ladder: unknown bot 'randm' (bots: random, greedy, mcts): did you mean 'random'?\n"
      .. "Try 'kontor --help'.\n", e)
    out = run("--seed 1 --players 2", "bot 2=gredy\nbots\n")
    assert.truthy(support.has(out, "unknown bot 'gredy' (bots: random, greedy, mcts): did you mean 'greedy'?\n"
      .. "1  Player 1: person\n2  Player 2: person\n"), out)
    out, e = run("--bot 2=genius")
    assert.are.equal("", out)
    assert.are.equal("kontor: --bot 2=genius: unknown bot 'genius' (bots: random, greedy, mcts)\n"
      .. "Try 'kontor --help'.\n", e)
  end)
end)

describe("compare of two player counts", function()
  it("explains its '-' rows and that the pairs are not the same deals, as docs/balance.md says", function()
    local out, e, code = run("compare --a '--players 3' --b '--players 4' --games 200 --no-moves")
    assert.are.equal(0, code, e)
    local lines = support.lines(out)
    assert.are.equal("win rate, seat 1                      0.3858    0.3100         -  -", lines[6])
    local note = support.read("docs/balance.md"):match("the text says so under the table: `(A plays 3%s+players[^`]*)`")
    note = note:gsub("%s+", " ")
    assert.truthy(support.has(out, "\n\n" .. note .. "\nverdicts: 2 of 7 rows; Holm's correction for the 7 rows "
      .. "compared keeps 1 (the others could be chance: --report marks them)\nbots A: random on seats 1-3"), out)
    out = run("compare --a '' --b '--variant hand_limit' --games 20 --no-moves")
    assert.falsy(support.has(out, "player counts"), out)
  end)
end)

describe("a designer's first commands", function()
  it("kontor sim --help prints sim's help (exit 0), as kontor help sim does", function()
    local help = run("help sim")
    for _, args in ipairs { "sim --help", "compare --games 3 -h", "ladder --help" } do
      local out, e, code = run(args)
      assert.are.equal(0, code, e)
      assert.truthy(out:find("^usage: kontor " .. args:match("^%a+") .. " "), out)
      if args == "sim --help" then assert.are.equal(help, out) end
    end
  end)

  it("a misspelt flag or command names the one it is close to", function()
    local cases = {
      { "sim --gams 10", "kontor: sim: unknown option '--gams': did you mean '--games'?" },
      { "simm", "kontor: unknown command 'simm': did you mean 'sim'?" },
      { "compare --a '' --b '--varient x'", "kontor: compare: --b '--varient x': unknown option '--varient': "
        .. "did you mean '--variant'?" },
      { "ladder --deal 3 random greedy", "kontor: ladder: unknown option '--deal': did you mean '--deals'?" },
      { "--variant hand_limit --player 3", "kontor: unknown option '--player': did you mean '--players'?" },
      -- nothing close: what the ladder counts instead
      { "ladder --games 5 random greedy",
        "kontor: ladder: unknown option '--games' (the ladder counts --deals: each pair of bots plays each deal twice)" },
    }
    for _, c in ipairs(cases) do
      local out, e, code = run(c[1])
      assert.are.same({ "", 2 }, { out, code }, c[1])
      assert.are.equal(c[2] .. "\nTry 'kontor --help'.\n", e)
    end
  end)
end)

describe("a variant that reads an option it does not declare", function()
  it("fails at that line with the options it has, in the doc's words; a declared one without a value is nil", function()
    local d = support.tmpdir()
    support.write(d .. "/mine.lua", [[
return {
  variant = true,
  name = "mine",
  base = "sea_merchants",
  options = { price = { default = 9, type = "integer", min = 0 },
              spare = { type = "integer" } },
  apply = function(R, opts)
    assert(opts.spare == nil and opts.price == 9)
    R.data.price.dock = opts.prise
  end,
}
]])
    local out, code = support.run("cd " .. support.sh_quote(d) .. " && " .. support.sh_quote(BIN)
      .. " sim --variant ./mine.lua --games 2")
    local row = support.read("docs/designing-variants.md"):match("\n| `(%./mine%.lua:9: opts%.prise[^`]*)`")
    assert.are.equal(1, code)
    assert.are.equal("kontor: sim: " .. row:gsub("%(options: price%)", "(options: price, spare)") .. "\n", out)
    os.execute("rm -rf " .. support.sh_quote(d))
  end)
end)

describe("a variant file given the wrong way", function()
  it("says how to give it: with --variant, by its whole name, by its path", function()
    local d = support.tmpdir()
    support.write(d .. "/dock9.lua", [[
return { variant = true, name = "dock9", base = "sea_merchants", apply = function(R) R.data.price.dock = 9 end }
]])
    local function here(args)
      return support.run_split("cd " .. support.sh_quote(d) .. " && " .. support.sh_quote(BIN) .. " " .. args)
    end
    local out, e, code = here("sim --rules ./dock9.lua --games 2")
    assert.are.same({ "", 2 }, { out, code })
    assert.are.equal("kontor: sim: ./dock9.lua is a variant (of sea_merchants), not a rule set: give it with "
      .. "--variant ./dock9.lua\nTry 'kontor --help'.\n", e)
    out, e, code = here("sim --variant ./dock9 --games 2")
    assert.are.same({ "", 1 }, { out, code })
    assert.are.equal("kontor: sim: ./dock9: no such file (./dock9.lua is: give its whole name)\n", e)
    out, e, code = here("sim --variant dock9 --games 2")
    assert.are.same({ "", 2 }, { out, code })
    assert.are.equal("kontor: sim: unknown rule set or variant 'dock9' (available: caribbean, delivered_payout, "
      .. "hand_limit, house, house_specials, old_world, port_royal, sea_merchants, snake_draft) (./dock9.lua is a "
      .. "file here: give its path, ./dock9.lua)\nTry 'kontor --help'.\n", e)
    out, e, code = here("sim --variant ./dock9.lua --games 2 --no-moves")
    assert.are.equal(0, code, e)
    assert.truthy(support.has(out, "rules        sea_merchants + ./dock9.lua\n"), out)
    os.execute("rm -rf " .. support.sh_quote(d))
  end)
end)

describe("the REPL's reload and new with a variant that cannot start a game", function()
  it("say it in one line with the file:line, a limit's too, and keep the game", function()
    local f = tmp("hot.lua")
    local function variant(body)
      support.write(f, 'return { variant = true, name = "hot", base = "sea_merchants",\n'
        .. '  apply = function(R)\n    ' .. body .. '\n  end }\n')
    end
    variant("R.data.price.dock = 9")
    local w = function(body)
      return string.format("os.execute(%q)\n", "cat > " .. f .. " <<'X'\nreturn { variant = true, name = \"hot\", "
        .. "base = \"sea_merchants\",\n  apply = function(R)\n    " .. body .. "\n  end }\nX")
    end
    local out = run("--variant " .. f .. " --seed 1 --players 2",
      "1\n" .. w("local x = nil; x.y = 1") .. "reload\n" .. w("while true do end") .. "reload\n"
      .. w("R.data.price.dock = 7") .. "reload\nmoves\nnew variant=" .. tmp("none.lua") .. "\n"
      .. w("while true do end") .. "new\nmoves\n")
    local want = {
      "reload failed, the game is as it was: variant hot: " .. f .. ":3: attempt to index a nil value (local 'x')",
      "reload failed, the game is as it was: variant hot: time limit reached (0.5 s of CPU per step), in " .. f .. ":3",
      "Reloaded sea_merchants (variants/sea_merchants.lua) with the variant hot (" .. f .. "); replayed 1 move.",
      "1  Player 1: load grain on ship 1",
      tmp("none.lua") .. ": no such file",
      "variant hot: time limit reached (0.5 s of CPU per step), in " .. f .. ":3",
      "1  Player 1: load grain on ship 1",
    }
    local got = {}
    for _, l in ipairs(support.lines(out)) do
      if not l:find("^Player 2") and not l:find("^true\texit") and l ~= "Player 1 loads grain on ship 1" and l ~= "" then
        got[#got + 1] = l
      end
    end
    assert.are.same(want, got)
  end)
end)

describe("a restriction of several words the shell split", function()
  it("says to quote it, where the next word is taken for an argument or a bot", function()
    local cases = {
      { "sim --bot 1=greedy:avoid=buy contract --games 2", "kontor: sim: unexpected argument 'contract' "
        .. "(a value with spaces needs quotes: --bot '1=greedy:avoid=buy contract')" },
      { "worth --bot random:avoid=buy contract --games 2", "kontor: worth: unexpected argument 'contract' "
        .. "(a value with spaces needs quotes: --bot 'random:avoid=buy contract')" },
      { "ladder random greedy:avoid=buy contract --deals 1", "kontor: ladder: unknown bot 'contract' "
        .. "(bots: random, greedy, mcts) (a bot with spaces needs quotes: 'greedy:avoid=buy contract')" },
      { "--variant hand_limit:overflow=stop extra", "kontor: unexpected argument 'extra'" },
    }
    for _, c in ipairs(cases) do
      local out, e, code = run(c[1])
      assert.are.same({ "", 2 }, { out, code }, c[1])
      assert.are.equal(c[2] .. "\nTry 'kontor --help'.\n", e)
    end
  end)
end)

describe("a variant that sets a misspelt number in R.data", function()
  it("is refused with the name it is close to, in the doc's words; new names of their own are fine", function()
    local d = support.tmpdir()
    support.write(d .. "/mine.lua", [[
return { variant = true, base = "sea_merchants",
  apply = function(R) R.data.price.dok = 9 end }
]])
    local function here(args) return support.run("cd " .. support.sh_quote(d) .. " && " .. support.sh_quote(BIN) .. " " .. args) end
    local out, code = here("sim --variant ./mine.lua --games 2")
    local row = support.read("docs/designing-variants.md"):match("\n| `(%./mine%.lua:2: R%.data%.price%.dok[^`]*)`")
    assert.are.equal(1, code)
    assert.are.equal("kontor: sim: " .. row .. "\n", out)
    support.write(d .. "/c.lua", 'return { variant = true, base = "caribbean", apply = function(R) R.data.tax_treshold = 9 end }\n')
    out, code = here("sim --variant ./c.lua --games 2")
    assert.are.equal(1, code)
    assert.truthy(out:find("^kontor: sim: %./c%.lua:1: R%.data%.tax_treshold is not in the data of caribbean %(nothing "
      .. "would read it%): did you mean 'tax_threshold'%? %(R%.data: admiral_min_harbour, "), out)
    out, code = here("sim --variant house --games 2 --no-moves")
    assert.are.equal(0, code, out)
    os.execute("rm -rf " .. support.sh_quote(d))
  end)
end)

describe("kontor.sim given variants as a string", function()
  it("raises as new_game does, instead of playing the base game", function()
    local ok, e = pcall(kontor.sim, { rules = "sea_merchants", variants = "hand_limit", games = 2 })
    assert.is_false(ok)
    assert.are.equal("usage", kontor.errors.kind(e))
    assert.are.equal('variants must be a list ({ "house" }), not a string', e.message)
    local s = kontor.sim { rules = "sea_merchants", variants = { "hand_limit" }, games = 2 }
    assert.are.same({ "hand_limit" }, s.variants)
  end)
end)

describe("a variant a preset already includes, given again", function()
  it("is refused, with the preset and how to set its options, not applied twice", function()
    local row = support.read("docs/designing-variants.md"):match("\n| `(variant hand_limit is used twice[^`]*)`")
    local out, e, code = run("sim --variant house --variant hand_limit:size=5 --games 2")
    assert.are.same({ "", 2 }, { out, code })
    assert.are.equal("kontor: sim: " .. row .. "\nTry 'kontor --help'.\n", e)
    -- a variant of one's own, without `replaces`: its payout was doubled twice
    local dp = support.write(tmp("double_pay.lua"), [[
return { variant = true, name = "double_pay", base = "sea_merchants",
  apply = function(R)
    local old = R.rules.payout_count
    R.rules.payout_count = function(g, product, slots) return 2 * old(g, product, slots) end
  end }
]])
    local preset = support.write(tmp("preset.lua"), string.format(
      'return { variant = true, name = "preset", base = "sea_merchants", includes = { %q } }\n', dp))
    out, e, code = run("sim --variant " .. preset .. " --variant " .. dp .. " --games 2")
    assert.are.same({ "", 2 }, { out, code })
    assert.are.equal("kontor: sim: variant double_pay is used twice: preset includes it already (set its options "
      .. "through preset: --variant preset:double_pay.OPTION=VALUE)\nTry 'kontor --help'.\n", e)
    out = run("sim --variant " .. preset .. " --games 200")
    assert.truthy(support.has(out, "\nmean score   1: 12.45  2: 12.45  3: 14.47  4: 12.49\n"), out)
  end)
end)

describe("a variant's options or includes written the wrong way", function()
  it("is refused with the form expected, not an engine error or a silent nothing", function()
    local cases = {
      { 'includes = "hand_limit"', 'includes must be a list (includes = { "hand_limit" }), not a string' },
      { "options = { price = 9 }, apply = function(R, o) end",
        "option price must be { default = ..., type = ... }, not a number (options = { price = { default = 9 } })" },
      { 'options = { price = { default = 9, typ = "integer" } }, apply = function(R, o) end',
        "option price has no field 'typ' (fields: default, doc, max, min, type, values): did you mean 'type'?" },
    }
    for i, c in ipairs(cases) do
      local f = support.write(tmp("form" .. i .. ".lua"),
        'return { variant = true, name = "v", base = "sea_merchants", ' .. c[1] .. " }\n")
      local out, e, code = run("sim --variant " .. f .. " --games 2")
      assert.are.same({ "", 1 }, { out, code }, c[1])
      assert.are.equal("kontor: sim: " .. f .. ": " .. c[2] .. "\n", e)
    end
  end)
end)

describe("compare's text", function()
  it("says under its tables how many verdicts there are and how many Holm's correction keeps #slow", function()
    local dp = support.write(tmp("double_pay.lua"), [[
return { variant = true, name = "double_pay", base = "sea_merchants",
  apply = function(R)
    local old = R.rules.payout_count
    R.rules.payout_count = function(g, product, slots) return 2 * old(g, product, slots) end
  end }
]])
    local out, e, code = run("compare --a '' --b '--variant " .. dp .. "' --games 500 --no-moves")
    assert.are.equal(0, code, e)
    local lines = support.lines(out)
    assert.are.equal("verdicts: 8 of 13 rows, all kept by Holm's correction for the 13 rows compared", lines[#lines - 2])
    assert.are.equal("bots: random on seats 1-4 (ladder: 0, the floor)", lines[#lines - 1])
    local d9 = support.write(tmp("dock9.lua"), [[
return { variant = true, name = "dock9", base = "sea_merchants",
  options = { price = { default = 9, type = "integer", min = 0, doc = "what a dock costs" } },
  apply = function(R, opts) R.data.price.dock = opts.price end }
]])
    out = run("compare --a '' --b '--variant " .. d9 .. "' --games 500")
    assert.truthy(support.has(out, "\nverdicts: 31 of 107 rows; Holm's correction for the 107 rows compared keeps 20 "
      .. "(the others could be chance: --report marks them)\nbots: "), out)
    out = run("compare --a '' --b '' --games 50 --no-moves")
    assert.falsy(support.has(out, "verdicts:"), out)
  end)
end)

describe("sweep's text", function()
  it("says how many of its differences have a verdict and how many Holm's correction keeps #slow", function()
    local d9 = support.write(tmp("dock9.lua"), [[
return { variant = true, name = "dock9", base = "sea_merchants",
  options = { price = { default = 9, type = "integer", min = 0, doc = "what a dock costs" } },
  apply = function(R, opts) R.data.price.dock = opts.price end }
]])
    local out, e, code = run("sweep --variant " .. d9 .. " --over dock9.price=6..12 --games 200")
    assert.are.equal(0, code, e)
    local lines = support.lines(out)
    assert.are.equal("verdicts: 127 of 642 differences; Holm's correction for the 642 compared keeps 73 (the others "
      .. "could be chance: --report marks them)", lines[#lines - 2])
    assert.truthy(support.has(support.read("docs/balance.md"):gsub("%s+", " "), lines[#lines - 2]))
    out = run("sweep --variant " .. d9 .. " --over dock9.price=6..12 --games 200 --no-moves")
    assert.truthy(support.has(out, "\nverdicts: 16 of 78 differences; Holm's correction for the 78 compared keeps 2 "), out)
  end)
end)
