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
