-- The lab at its edges. A game may end with no winner (Merchants of the Caribbean, ruling C9:
-- nobody fulfilled an expedition). The lab counts it as a game no seat won,
-- in sim, merge and compare, and says how many there were.

local support = require "tests.lua.support"
local json = kontor.core.json

local K = support.binary()
local CMD = K .. " sim --rules caribbean --players 4 --games 100 --seed 1"

describe("a game without a winner in the lab", function()
  it("sim with the lab's flags counts it and adds it to the wins line", function()
    local out, code = support.run(CMD .. " --jobs 1")
    assert.are.equal(0, code, out)
    assert.truthy(support.has(out, "wins         1: 24  2: 18  3: 27  4: 30 (0 games shared, 1 without a winner)\n"), out)
    local js = json.decode((support.run(CMD .. " --jobs 2 --json")))
    assert.are.equal(1, js.no_winner)
    assert.are.same({ 24, 18, 27, 30 }, js.wins)
  end)

  it("its shards merge: the wins and the games without one add up to the games", function()
    local d = support.tmpdir()
    support.write(d .. "/a.json", (support.run(CMD .. " --shard 1/2")))
    support.write(d .. "/b.json", (support.run(CMD .. " --shard 2/2")))
    local out, code = support.run(K .. " merge " .. d .. "/a.json " .. d .. "/b.json")
    assert.are.equal(0, code, out)
    assert.truthy(support.has(out, "(0 games shared, 1 without a winner)"), out)
    os.execute("rm -rf " .. d)
  end)

  it("a game every seat can win shows no count of games without a winner", function()
    local out = support.run(K .. " sim --rules sea_merchants --players 3 --games 20 --seed 1 --jobs 1")
    assert.falsy(support.has(out, "without a winner"), out)
    assert.truthy(support.has(out, "1 game shared)\n"), out)
  end)
end)

describe("sweep's flags", function()
  it("refuses --until-width and --coverage, which it would ignore", function()
    for _, flag in ipairs({ "--until-width 5", "--coverage" }) do
      local out, code = support.run(K .. " sweep --variant hand_limit --over size=4,6 --games 3 " .. flag .. " 2>&1")
      assert.are.equal(2, code, out)
      assert.truthy(support.has(out, "kontor: sweep: " .. flag:match("^%S+") .. " is for sim and compare; a sweep plays --games at every value\n"), out)
    end
  end)
end)

describe("the lab's bots line", function()
  it("reaches the terminal through the text sink: a bot's text with control codes is escaped", function()
    local out, code = support.run(K .. " sim --games 1 --jobs 1 --bot '1=greedy:avoid=\27]0;pwn\7x'")
    assert.are.equal(0, code, out)
    assert.falsy(out:find("\27", 1, true), out)
    assert.truthy(support.has(out, "bots: greedy:avoid=\\e]0;pwn\\ax on seat 1 (not on the ladder); random on seats 2-4"), out)
  end)
end)
