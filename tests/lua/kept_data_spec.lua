-- The data the rule scripts keep between decisions (issue 25 item 4):
-- Sea Merchants' option families kept by the sets they offer, the ships
-- exchanged cleared in place, Caribbean's take lists. A copy of a game
-- for search (lua/kontor/fork.lua) must play on exactly as the game does:
-- here a copy is made every few decisions and both are played to the end
-- with the same choices; their states, scores and options must be equal.

local fork = require "kontor.fork"
local json = kontor.core.json

local function decider(g)
  local w = g:who()
  if type(w) == "table" then return w[1] end
  return w
end

-- Plays `g` and `copy` on with the same random choices; returns the steps.
local function play_both(g, copy, seed)
  local rng, n = kontor.rng(seed), 0
  while not g:over() do
    local s = decider(g)
    assert.are.same(g:options(s), copy:options(s))
    local k = rng:below(#g:options(s)) + 1
    g:step(s, k)
    fork.step(copy, s, k)
    n = n + 1
  end
  assert.is_true(copy:over())
  assert.are.equal(json.encode(g:state()), json.encode(copy:state()))
  return n
end

local SETS = {
  { rules = "sea_merchants", players = 4 },
  { rules = "sea_merchants", players = 3, variants = { "house" } },
  { rules = "caribbean", players = 2 },
  { rules = "caribbean", players = 3, variants = { "port_royal" } },
}

for _, c in ipairs(SETS) do
  local label = c.rules .. (c.variants and ("+" .. c.variants[1]) or "") .. " " .. c.players .. "p"
  it("a copy at a decision plays on as the game does: " .. label, function()
    local played = 0
    for at = 3, 120, 13 do
      local g = kontor.new_game { rules = c.rules, players = c.players, seed = at, variants = c.variants }
      local rng = kontor.rng(at)
      for _ = 1, at do
        if g:over() then break end
        local s = decider(g)
        g:step(s, rng:below(#g:options(s)) + 1)
      end
      if not g:over() then
        local s = decider(g)
        local copy = fork.copy(fork.base(g, s))
        played = played + play_both(g, copy, at + 1)
      end
    end
    assert.is_true(played > 200, "the copies played on: " .. played .. " steps")
  end)
end
