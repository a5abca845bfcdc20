-- kontor worth's difference, deal by deal (docs/balance.md, "What is a
-- move worth?"): each deal is played once unrestricted too, and a kind's
-- difference is the restricted seat's win less that same seat's win on
-- the same deal unrestricted. Against the fair share, a kind that seldom
-- binds showed the deals' own noise: 200 random games of Sea Merchants
-- put the rotating seat at 0.3200 unrestricted, so 'buy contract' (in the
-- way in 27% of the games) read +0.0542 from the fair share with an
-- interval 0.12 wide.
local support = require "tests.lua.support"
local json = kontor.core.json

local runner = support.lab()
local kontor_cmd = runner.run
teardown(runner.cleanup)

describe("kontor worth's difference from the same seat unrestricted", function()
  it("is narrower than the win rate's interval where the restriction seldom binds, and holds 0", function()
    local out, e, code = kontor_cmd("worth --bot random --games 200 --kinds 'buy_card: buy contract' --jobs 1 --json")
    assert.are.equal(0, code, e)
    local w = json.decode(out)
    assert.are.same({ games = 200, win_rate = 0.32, ci = { 0.257992, 0.382008 } }, w.unrestricted)
    local r = w.rows[1]
    assert.are.same({ 0.304167, { 0.242551, 0.365783 } }, { r.win_rate, r.ci })
    assert.are.same({ -0.015833, { -0.03885, 0.007183 } }, { r.diff, r.diff_ci })
    -- the win rate less the fair share would have said +0.0542 [-0.0074, +0.1158]
    assert.is_true(r.diff_ci[2] - r.diff_ci[1] < (r.ci[2] - r.ci[1]) / 2)
    assert.are.equal(0.27, r.kept_share)
  end)

  it("is said beside the win rate, the unrestricted seat's rate in the header", function()
    local out = kontor_cmd("worth --bot random --games 200 --kinds 'buy_card: buy contract' --jobs 1")
    local lines = support.lines(out)
    assert.are.equal("fair share 0.2500 (1/4); the same seat unrestricted on the same deals wins 0.3200 "
      .. "[0.2580, 0.3820]", lines[3])
    assert.are.equal("buy_card: buy contract  0.3042 [0.2426, 0.3658]  -0.0158 [-0.0389, +0.0072]  "
      .. "0.27 of games, 0.3 a game", lines[7])
  end)

  it("is not played when no kind can be measured, and the header says so", function()
    local out = kontor_cmd("worth --bot random --games 20 --kinds 'exchange_ship: #' --jobs 1")
    assert.are.equal("fair share 0.2500 (1/4); no deal played unrestricted (no kind measured)", support.lines(out)[3])
    local w = json.decode((kontor_cmd("worth --bot random --games 20 --kinds 'exchange_ship: #' --jobs 1 --json")))
    assert.is_nil(w.unrestricted)
  end)
end)
