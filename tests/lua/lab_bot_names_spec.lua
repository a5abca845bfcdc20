-- A --bot the lab refuses is named as the user typed it, in sim,
-- compare, sweep and worth (docs/balance.md, "Options"). Before, `--bot
-- greedy:depth=x` (every seat) was reported as `--bot 1=greedy: ...`, a
-- seat the user never typed, and `--bot gredy` got "expected
-- SEAT=KIND[:k=v,...]" and no "did you mean".
local support = require "tests.lua.support"

local function run(args)
  return support.run_split(support.plain_binary() .. " " .. args)
end

local SETUP = { sim = "", compare = "--a '' --b ''", sweep = "--over players=3..4", worth = "" }

local function refused(cmd, bot, want)
  local out, e, code = run(cmd .. " " .. SETUP[cmd] .. " --bot " .. support.sh_quote(bot) .. " --games 2")
  assert.are.same({ "", 2 }, { out, code })
  assert.are.equal("kontor: " .. cmd .. ": " .. want .. "\nTry 'kontor --help'.\n", e)
end

describe("a refused --bot", function()
  for _, cmd in ipairs { "sim", "compare", "sweep", "worth" } do
    it("is named as typed in " .. cmd, function()
      refused(cmd, "greedy:depth=x", "--bot greedy:depth=x: greedy option depth=x: expected a whole number")
      refused(cmd, "gredy", "--bot gredy: unknown bot 'gredy' (bots: random, greedy, mcts): did you mean 'greedy'?")
      refused(cmd, "greedy:dpth=3", "--bot greedy:dpth=3: the greedy bot has no option 'dpth' (options: avoid, "
        .. "budget, depth, focus, lead, prefer, rounds, samples)")
      if cmd ~= "worth" then
        refused(cmd, "2=greedy:depth=x", "--bot 2=greedy:depth=x: greedy option depth=x: expected a whole number")
        refused(cmd, "2=gredy", "--bot 2=gredy: unknown bot 'gredy' (bots: random, greedy, mcts): did you mean 'greedy'?")
        refused(cmd, "foo", "--bot foo: unknown bot 'foo' (bots: random, greedy, mcts)")
        refused(cmd, "2", "--bot 2: expected SEAT=KIND[:k=v,...], e.g. --bot 2=random (bots: random, greedy, mcts)")
      end
    end)
  end

  it("inside compare's --a or --b, says which", function()
    local out, e, code = run("compare --a '--bot greedy:depth=x' --b '' --games 2")
    assert.are.same({ "", 2 }, { out, code })
    assert.are.equal("kontor: compare: --a: --bot greedy:depth=x: greedy option depth=x: expected a whole number\n"
      .. "Try 'kontor --help'.\n", e)
    out, e = run("compare --a '' --b '--bot 9=random:avoid=buy' --games 2")
    assert.are.equal("", out)
    assert.are.equal("kontor: compare: --b: --bot 9=random:avoid=buy: there is no seat 9 (the game has 4 players)\n"
      .. "Try 'kontor --help'.\n", e)
  end)

  it("warns of a restriction that matches nothing once, as typed, for a bot on every seat", function()
    -- before: one warning a seat, "--bot 1=random: avoid 'exchnge' ...", then 2, 3 and 4
    local out, e, code = run("sim --bot random:avoid=exchnge --games 2 --no-moves")
    assert.are.equal(0, code, e)
    assert.truthy(out:find("^rules"), out)
    local lines = support.text_lines(e)
    assert.are.equal(1, #lines, e)
    assert.are.equal(1, lines[1]:find("kontor: sim: warning: --bot random: avoid 'exchnge' matches no option offered",
      1, true), e)
  end)
end)
