-- restriction_typos_spec.lua: a bot's restriction (avoid=, prefer=) that no
-- option of the setup matches is said before a lab run, with a close word
-- and what there was (a QA finding: `greedy:avoid=exchnge` changed nothing,
-- silently).
local support = require "tests.lua.support"
local balance = require "kontor.balance"
local restrictions = require "kontor.balance.restrictions"

local function setup(options)
  return balance.load { rules = "sea_merchants", players = 4,
                        bots = { [2] = { kind = "greedy", options = options } } }
end

describe("a restriction that matches no option", function()
  it("is found, with the word it is close to", function()
    local u = restrictions.unmatched(setup { avoid = "exchnge;buy contract;buy_crd:buy;play fsh" })
    assert.are.equal(3, #u)
    assert.are.same({ "exchnge", "buy_crd:buy", "play fsh" }, { u[1].item, u[2].item, u[3].item })
    assert.truthy(support.has(u[1].message, "--bot 2=greedy: avoid 'exchnge' matches no option offered in 20 "
      .. "random games of this setup, so it changes nothing: did you mean 'exchange'? (decisions: buy_card, dock,"),
      u[1].message)
    assert.truthy(support.has(u[1].message, "options begin with: buy, dock, draw, exchange, load, no, office, pass, play)"))
    assert.truthy(support.has(u[2].message, "no decision is named 'buy_crd' (did you mean 'buy_card'?)"), u[2].message)
    assert.truthy(support.has(u[3].message, "did you mean 'play fish'?"), u[3].message)
  end)

  it("is not found where every restriction matches, and no game is played without one", function()
    assert.are.same({}, restrictions.unmatched(setup { avoid = "exchange;phase1:buy", prefer = "load fish" }))
    assert.are.same({}, restrictions.unmatched(balance.load { rules = "sea_merchants", players = 2 }))
  end)

  it("is said once on stderr by kontor sim, with --jobs 2, and the run goes on", function()
    local out, e, code = support.run_split(support.plain_binary()
      .. " sim --players 4 --games 6 --seed 1 --jobs 2 --json --bot '2=random:avoid=exchnge'")
    assert.are.equal(0, code)
    local lines = support.lines(e)
    assert.are.equal(2, #lines, e)   -- the warning, then ""
    assert.truthy(lines[1]:find("^kontor: sim: warning: %-%-bot 2=random: avoid 'exchnge' matches no option"), e)
    assert.truthy(support.has(out, '"games":6'), out)
  end)

  it("is said by kontor worth for a kind of --kinds that matches no option, two letters swapped found", function()
    local _, e, code = support.run_split(support.plain_binary()
      .. " worth --rules old_world --players 2 --games 2 --bot random --kinds 'bid: bdi;bid: bid'")
    assert.are.equal(0, code)
    assert.truthy(support.has(e, "kontor: worth: warning: --kinds: kind 'bid: bdi' matches no option offered in 20 "
      .. "random games of this setup, so it changes nothing: did you mean 'bid:bid'? (decisions: acquire, assign, bid,"), e)
    assert.falsy(support.has(e, "kind 'bid: bid'"), e)
  end)

  it("is said by kontor ladder for a bot it rates, and not for one that matches", function()
    local _, e, code = support.run_split(support.plain_binary()
      .. " ladder --deals 1 random random:avoid=pas random:avoid=pass")
    assert.are.equal(0, code)
    assert.truthy(support.has(e, "kontor: ladder: warning: bot random:avoid=pas: avoid 'pas' matches no option "
      .. "offered in 20 random games of this setup, so it changes nothing: did you mean 'pass'?"), e)
    assert.falsy(support.has(e, "avoid=pass:"), e)
  end)
end)
