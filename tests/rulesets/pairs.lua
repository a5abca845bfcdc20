-- tests/rulesets/pairs.lua: Pairs, a small 2-player set-collection game
-- written from the docs alone (tests/lua/newgame_spec.lua plays it).
-- Deck of ranks 1..6, four of each; hands of 4, each seen by its owner
-- only; one face-up discard. A turn: draw the deck's top card or take
-- the discard's top, then meld a pair (scores twice its rank) or
-- discard a card. The game ends when the deck is empty (or after 60
-- turns, 30 each); with option
-- hand_penalty (default on) the cards left in hand count against you.
local R = {
  name = "pairs",
  title = "Pairs",
  summary = "draw or take the discard, then meld a pair or discard",
  players = { min = 2, max = 2, default = 2 },
  options = {
    hand_penalty = { default = true, type = "boolean",
                     doc = "cards left in hand at the end count against you" },
  },
}

local RANKS, COPIES, HAND = 6, 4, 4
-- Two players who only take the discard would pass a card back and forth
-- for ever (two greedy seats did): the game also ends after 60 turns.
local MAX_TURNS = 60

function R.setup(g, scenario)
  g.deck = kontor.pile{ vis = "hidden" }
  for r = 1, RANKS do g.deck:push(r, COPIES) end
  g.deck:shuffle(g.rng)
  g.discard = kontor.pile{ vis = "public" }
  g.hands = {}
  for s = 1, g.players do
    g.hands[s] = kontor.pile{ vis = "owner", owner = s }
    g.deck:move_to(g.hands[s], HAND)
  end
  g.deck:move_to(g.discard, 1)
  g.points = kontor.counter{ n = g.players, min = 0 }
  g.current = 1                 -- the seat whose turn comes next
end

local function pairs_in(hand)
  local c = hand:counts(RANKS)
  local out = {}
  for r = 1, RANKS do if c[r] >= 2 then out[#out + 1] = r end end
  return out
end

function R.play(g)
  local seat = g.current
  while g.deck:count() > 0 and g.turn < MAX_TURNS do
    g.current = seat
    g:begin_turn(seat)
    local src = { { "draw" } }
    if g.discard:count() > 0 then src[2] = { "take", g.discard:top() } end
    local k = g:choose(seat, "draw", src)
    if k == 1 then
      g.deck:move_to(g.hands[seat], 1)
      g:log("%s draws a card", g.names[seat])
    else
      g:log("%s takes the %d", g.names[seat], g.discard:top())
      g.discard:move_to(g.hands[seat], 1)
    end
    local opts = {}
    for _, r in ipairs(pairs_in(g.hands[seat])) do opts[#opts + 1] = { "meld", r } end
    local c = g.hands[seat]:counts(RANKS)
    for r = 1, RANKS do if c[r] > 0 then opts[#opts + 1] = { "discard", r } end end
    local o = opts[g:choose(seat, "keep", opts)]
    if o[1] == "meld" then
      g.hands[seat]:take(o[2]); g.hands[seat]:take(o[2])
      g.points:add(seat, 2 * o[2])
      g:log("%s melds a pair of %d", g.names[seat], o[2])
    else
      g.hands[seat]:take(o[2]); g.discard:push(o[2])
      g:log("%s discards a %d", g.names[seat], o[2])
    end
    seat = g:next_seat(seat)
  end
end

function R.scores(g)
  local s = {}
  for p = 1, g.players do
    local v = g.points:get(p)
    if g.options.hand_penalty then
      for _, c in ipairs(g.hands[p]:cards()) do v = v - c end
    end
    s[p] = v
  end
  return s
end

function R.view(g, seat)
  return {
    deck = g.deck:count(),
    discard = g.discard:top(),
    hand = g.hands[seat]:cards(),
    hand_sizes = { g.hands[1]:count(), g.hands[2]:count() },
    points = g.points:values(),
  }
end

-- Position evaluation (docs/bots.md)
function R.estimate(g, seat)
  local c = g.hands[seat]:counts(RANKS)
  local v = g.points:get(seat)
  for r = 1, RANKS do
    v = v + (c[r] // 2) * r * (g.options.hand_penalty and 1 or 1.5)  -- a pair melds only on a later turn
    if c[r] % 2 == 1 then
      v = v + r * g.deck:count() / (RANKS * COPIES)   -- a single may pair up
      if g.options.hand_penalty then v = v - r end
    end
  end
  return v
end

R.resumes_at_turn = true       -- R.play starts from g.current (docs/bots.md)

R.move_words = { "draw", "take", "meld", "discard" }

R.explain = {
  draw = function(g, seat, text)
    if text:match("^take") then
      if g.discard:count() == 0 then return "the discard is empty" end
      return ("the discard shows %d"):format(g.discard:top())
    end
    return "draw a card or take the discard's top card first"
  end,
  keep = function(g, seat, text)
    local word, r = text:match("^(%a+) (%d+)$")
    r = tonumber(r)
    if word == "meld" and r then
      return ("you hold %d card(s) of %d; a meld needs two"):format(g.hands[seat]:count_of(r), r)
    elseif word == "discard" and r then
      return ("you hold no %d"):format(r)
    end
  end,
}

return R
