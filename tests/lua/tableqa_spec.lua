-- tableqa_spec.lua: Kontor played as its players play it, at the REPL and
-- in `kontor play` (a QA pass): what a player typed and what they saw.
-- The terminal itself (a pseudo-terminal in its states) is
-- tests/repl/test_tty.py.
local support = require "tests.lua.support"

local K = support.plain_binary()

describe("typed input, piped", function()
  it("ends a line at a lone carriage return too, as at \\n and \\r\\n", function()
    -- before: "board\rundo" was one line, the board shown and the undo lost
    local out, code = support.run(K .. " --seed 1", "1\rboard\rundo\r\nundo\n")
    assert.are.equal(0, code)
    assert.truthy(support.has(out, "Player 1 loads grain on ship 1\n"), out)
    assert.truthy(support.has(out, "* Player 2: 0 coins"), out)
    assert.truthy(support.has(out, "Undid 1 move: Player 1: load grain on ship 1\n"), out)
    assert.truthy(support.has(out, "Nothing to undo.\n"), out)
    assert.falsy(out:find("\r", 1, true), out)
  end)

  it("in play too", function()
    local out, code = support.run(K .. " play --seed 1 --players 2", "1\r\r\n2\roptions\r")
    assert.are.equal(0, code)
    assert.truthy(support.has(out, "Player 1 loads grain on ship 1\n"), out)
    assert.truthy(support.has(out, "Player 2 loads grain on ship 2\n"), out)
    assert.falsy(out:find("\r", 1, true), out)
  end)
end)

describe("a restricted bot whose restriction matches no option (a typo)", function()
  local TYPO = "avoid 'by contract' matches no option offered in 20 random games of this setup, so it changes "
    .. "nothing: did you mean 'buy contract'? (decisions: buy_card, dock,"

  it("is said by kontor play before the game, and the bot plays all the same", function()
    -- before: nothing said, the bot ignored avoid= silently
    local out, code = support.run(K .. " play --seed 1 --players 2 --bot '2=greedy:avoid=by contract'", "1\nquit\n")
    assert.are.equal(0, code)
    local first = support.lines(out)[1]
    assert.are.equal(1, first:find("warning: --bot 2=greedy: " .. TYPO, 1, true), out)
    assert.truthy(support.has(out, "Player 2 loads "), out)
    local clean = support.run(K .. " play --seed 1 --players 2 --bot '2=greedy:avoid=buy contract'", "1\nquit\n")
    assert.falsy(support.has(clean, "warning"), clean)
  end)

  it("is said by the REPL for --bot, for bot N=KIND, and for a new game the bots go on in", function()
    local out, code = support.run(K .. " --seed 1 --bot '2=random:prefer=lod grain'",
      "bot 3=greedy:avoid=by contract\nbot 3=greedy:avoid=buy contract\nnew rules=caribbean\n")
    assert.are.equal(0, code)
    local lines = support.lines(out)
    assert.are.equal(1, lines[1]:find("warning: --bot 2=random: prefer 'lod grain' matches no option offered in "
      .. "20 random games of this setup, so it changes nothing: did you mean 'load grain'?", 1, true), out)
    assert.are.equal("Player 3 is played by the greedy:avoid=by contract bot.", lines[2])
    assert.are.equal(1, lines[3]:find("warning: bot 3=greedy: " .. TYPO, 1, true), out)
    assert.are.equal("Player 3 is played by the greedy:avoid=buy contract bot.", lines[4])
    -- the Caribbean has no contract to buy and no grain to load: both said
    assert.are.equal(1, lines[5]:find("warning: bot 2=random: prefer 'lod grain' matches no option", 1, true), out)
    assert.are.equal(1, lines[6]:find("warning: bot 3=greedy: avoid 'buy contract' matches no option offered in "
      .. "20 random games of this setup, so it changes nothing: no option offered begins with those words "
      .. "(decisions: discover,", 1, true), out)
    assert.truthy(lines[7]:find("^New game: Merchants of the Caribbean"), out)
  end)
end)

describe("a word that is no command", function()
  it("gets a suggestion for two letters swapped, in play and the REPL alike", function()
    -- before: 'baord', 'hlep' and 'laod 1' got no suggestion (a swap counted two slips)
    local input = "baord\nhlep\nlaod 1\n"
    local repl = support.lines(support.run(K .. " --players 2 --seed 1", input))
    assert.are.same({ "unknown command or name 'baord': did you mean `board`?",
                      "unknown command or name 'hlep': did you mean `help`?",
                      "unknown command or name 'laod': did you mean `load`?", "" }, repl)
    local play = support.lines(support.run(K .. " play --players 2 --seed 1", input))
    assert.are.same({ "'baord' is not a command or a move here: did you mean `board`?",
                      "'hlep' is not a command or a move here: did you mean `help`?",
                      "'laod 1' is not a command or a move here: did you mean `load`?", "" },
                    { table.unpack(play, #play - 3) })
  end)

  it("is quoted in the REPL as typed, to its first space, and a pasted line cut short", function()
    -- before: 'löad fish' was "unknown command or name 'lo'"; 5000 x's came back whole
    local out = support.run(K .. " --players 2 --seed 1", "lo\204\136ad fish\n" .. string.rep("x", 5000) .. "\n")
    assert.are.same({ "unknown command or name 'lo\204\136ad' (help lists the commands)",
                      "unknown command or name '" .. string.rep("x", 40) .. "...' (help lists the commands)", "" },
                    support.lines(out))
  end)
end)

describe("save with an empty file name", function()
  it("says what was wrong, in play and the REPL", function()
    -- before: ": not a file name"
    local input = "save \"\"\nsave '' as 2\n"
    local repl = support.lines(support.run(K .. " --players 2 --seed 1", input))
    assert.are.same({ "save FILE: \"\" is no file name (an empty one)",
                      "save FILE: '' is no file name (an empty one)", "" }, repl)
    local play = support.lines(support.run(K .. " play --players 2 --seed 1 --bot 2=random", "save \"\"\n"))
    assert.are.equal("save FILE: \"\" is no file name (an empty one)", play[#play - 1])
  end)
end)

describe("do alone at the REPL", function()
  it("says it began a Lua block when a move follows, and the game is as it was", function()
    -- before: only "stdin:2: unexpected symbol near '1'"
    local out = support.run(K .. " --players 2 --seed 1", "do\n1\nmoves\ndo\nprint('in a block')\nend\n")
    assert.are.same({ "stdin:2: unexpected symbol near '1'",
                      "(`do` alone began a Lua block, do ... end; a move is do N or do TEXT on one line)",
                      "No moves yet.", "in a block", "" }, support.lines(out))
  end)
end)

describe("play's consent question without a terminal", function()
  it("is a line of its own, and an empty answer is asked again plainly", function()
    -- before: no question at all, then "'': answer yes or no"
    local out = support.run(K .. " play --players 2 --seed 1", "1\n2\nundo 2\n\nredo\nyes\n")
    local lines = support.lines(out)
    local at
    for i, l in ipairs(lines) do if l == "Undo takes back Player 2's move too." then at = i end end
    assert.truthy(at, out)
    assert.are.same({ "Player 2, do you agree? (yes/no)", "answer yes or no", "'redo': answer yes or no",
                      "Undid 2 moves (only 1 of your moves was there to undo): Player 1: load grain on ship 1; "
                        .. "Player 2: load grain on ship 2" },
                    { table.unpack(lines, at + 1, at + 4) })
  end)
end)

describe("a bot whose move fails in the rule set, in play", function()
  it("is named, with what happens next", function()
    -- before: the script's message alone, then "no seat of yours decides now"
    local dir = support.tmpdir()
    local src = support.read("tests/rulesets/race.lua"):gsub('g:log%("%%s scores %%d"',
      'if k == 2 then error("broken on purpose", 0) end\n        g:log("%%s scores %%d"')
    local rules = support.write(dir .. "/broken.lua", src)
    local out, code = support.run(K .. " play --rules " .. rules .. " --players 2 --seed 1 --bot 2=greedy", "1\nquit\n")
    os.execute("rm -rf " .. support.sh_quote(dir))
    assert.are.equal(0, code)
    assert.truthy(support.has(out, "Player 1 scores 1\nbroken on purpose\nPlayer 2 (bot) could not move: the rule "
      .. "set failed on its move (above); it tries again after each line you type, and quit leaves.\n"), out)
  end)
end)
