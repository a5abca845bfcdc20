-- caribbean_coins_face_down_spec.lua - C2: paid coins lie face down on the
-- discard pile. A bot's copy of the game deals the discard pile again with
-- the other cards it cannot see, so no bot learns which cards another
-- player paid (before, the pile was public, and a bot's hint changed with
-- the face of a coin a player paid); a seat's view shows the pile's count.

local fork = require "kontor.fork"
local seat = require "kontor.seat"
local support = require "tests.lua.support"
local decider = support.decider

-- A 2-player Caribbean game played by random steps until the discard pile
-- holds `n` cards or more and seat `s` decides.
local function game_with_discard(seed, n, s)
  local g = kontor.new_game { rules = "caribbean", players = 2, seed = seed }
  local rng = kontor.rng(seed)
  while not g:over() do
    local d = decider(g)
    if d == s and #g.ctx.discard >= n then return g end
    local opts = g:options(d ~= "chance" and d or nil)
    g:step(d == "chance" and 0 or d, rng:below(#opts) + 1)
  end
  error("the game ended before the discard pile held " .. n .. " cards")
end

describe("Caribbean's discard pile (C2: coins paid face down)", function()
  it("is a hidden pile: a seat's view shows how many cards it holds, not which", function()
    local g = game_with_discard(3, 4, 1)
    assert.equal("hidden", g.ctx.discard:vis())
    local v = seat.view(g, 1).view()
    assert.equal(#g.ctx.discard, v.discard)
  end)

  it("is dealt again in a bot's copy, with the deck and the purses it cannot see", function()
    local g = game_with_discard(3, 6, 1)
    local real = g.ctx.discard:cards()
    local base = fork.base(g, 1)
    local differ = 0
    for k = 1, 20 do
      local copy = fork.sample(base, kontor.rng(100 + k))
      local cards = copy.ctx.discard:cards()
      assert.equal(#real, #cards)
      if table.concat(cards, ",") ~= table.concat(real, ",") then differ = differ + 1 end
    end
    -- before: the copy kept the real pile, 0 of 20
    assert.is_true(differ >= 15, differ .. " of 20 samples dealt the pile again")
  end)
end)
