-- kontor worth says, on a terminal, what it will play and (after 5 s)
-- how long the whole run is likely to take, on stderr; stdout is the same
-- terminal or not (docs/balance.md, section 2). Before, `kontor worth
-- --bot random --rules old_world --players 4 --games 100` measured 72
-- kinds of move, 7300 games, with no word of it until the table.
local support = require "tests.lua.support"
local worth = require "kontor.balance.worth"

describe("worth's plan", function()
  it("counts the kinds, the games a kind and the games in all", function()
    assert.are.equal("72 kinds of move (those made in the first 20 games; --kinds 'DECISION: KIND;...' measures "
      .. "fewer), 100 games a kind and 100 unrestricted on the same deals: 7300 games",
      worth.plan(setmetatable({}, { __len = function() return 72 end, __index = function(_, i)
        if i <= 72 then return "d: k" .. i end end }), 100, 20))
    assert.are.equal("2 kinds of move, 1 game a kind and 1 unrestricted on the same deals: 3 games",
      worth.plan({ "phase1: buy", "phase1: pass" }, 1))
  end)

  it("says a time as a person reads it", function()
    assert.are.same({ "0 s", "59 s", "1 min 44 s", "1 h 0 min", "2 h 5 min" },
      { worth.duration(0.2), worth.duration(59), worth.duration(104), worth.duration(3600), worth.duration(7500) })
  end)
end)

describe("kontor worth on a terminal", function()
  local bin = support.plain_binary()
  if bin:sub(1, 1) ~= "/" then bin = os.getenv("PWD") .. "/" .. bin end
  local has_script = os.execute("command -v script >/dev/null 2>&1")

  it("says what it will play on stderr, and nothing when stderr is no terminal", function()
    local args = " worth --bot random --games 2 --jobs 1"
    local out, e, code = support.run_split(bin .. args)
    assert.are.same({ "", 0 }, { e, code })
    assert.truthy(out:find("^What a move is worth: random, 4 players, 2 games a kind"), out)
    if not has_script then return end
    local tty = support.run("script -qc " .. support.sh_quote(bin .. args) .. " /dev/null"):gsub("\r", "")
    assert.truthy(support.has(tty, "kontor: worth: no --kinds: finding the kinds of move random makes in the first "
      .. "2 games\n"), tty)
    assert.truthy(tty:find("kontor: worth: %d+ kinds of move %(those made in the first 2 games; %-%-kinds "
      .. "'DECISION: KIND;%.%.%.' measures fewer%), 2 games a kind and 2 unrestricted on the same deals: %d+ games\n"), tty)
    -- the table as it is without a terminal
    assert.are.equal(out, tty:sub((tty:find("What a move is worth", 1, true))), tty)
  end)
end)
