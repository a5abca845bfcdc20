-- A tiny rule set for the engine's tests: out-of-turn responses, after the
-- market of Merchants of the Caribbean.
--
-- Rules. 20 cards: 5 colours, values 1 to 4, shuffled face down. Every
-- player starts with 3 coins. On a turn, the active player:
--   1. Reveals cards from the deck one at a time into the row, stopping when
--      they like (at least one card). A card of a colour already in the row
--      busts: the row is discarded and the turn ends.
--   2. Takes one card of the row.
--   3. Then every other player, in turn order, may take one card of the row
--      by paying 1 coin to the active player; a player without coins cannot.
--   4. The cards left are discarded.
-- The game ends after the turn in which the deck runs out. Score: the values
-- of your cards plus your coins.
local R = {
  name = "take_one_each",
  title = "Take one each",
  summary = "test rule set: push your luck, then every player may take a card",
  players = { min = 2, max = 5, default = 3 },
}

local COLOURS = { "red", "blue", "green", "yellow", "black" }
local VALUES = 4
local CARDS = #COLOURS * VALUES
local COINS = 3
local NAME = {}                                  -- card id -> "red 2"
for c, colour in ipairs(COLOURS) do
  for v = 1, VALUES do NAME[(c - 1) * VALUES + v] = colour .. " " .. v end
end
local function colour(card) return (card - 1) // VALUES + 1 end
local function value(card) return (card - 1) % VALUES + 1 end

function R.setup(g)
  g.deck = kontor.pile { vis = "hidden" }
  for card = 1, CARDS do g.deck:push(card) end
  g.deck:shuffle(g.rng)
  g.row = kontor.pile { vis = "public" }
  g.discard = kontor.pile { vis = "public" }
  g.hands = {}
  for s = 1, g.players do g.hands[s] = kontor.pile { vis = "public", owner = s } end
  g.coins = kontor.counter { n = g.players, min = 0, init = COINS }
end

-- 1. Push your luck. Returns false on a bust.
local REVEAL, STOP, REVEAL_OR_STOP = { "reveal" }, { "stop" }, { "reveal", "stop" }
local function reveal(g, p)
  while true do
    local opts = g.row:count() == 0 and REVEAL or g.deck:count() == 0 and STOP or REVEAL_OR_STOP
    if opts[g:choose(p, "reveal", opts)] == "stop" then return true end
    local card = g.deck:pop()
    for i = 1, g.row:count() do
      if colour(g.row:get(i)) == colour(card) then
        g:log("%s reveals %s: bust", g.names[p], NAME[card])
        g.discard:push(card)
        g.row:move_to(g.discard, g.row:count())
        return false
      end
    end
    g.row:push(card)
    g:log("%s reveals %s", g.names[p], NAME[card])
  end
end

-- The cards of the row as options, in card order.
local function take_options(g, nothing)
  local cards = g.row:cards()
  table.sort(cards)
  local opts = {}
  for i, card in ipairs(cards) do opts[i] = "take " .. NAME[card] end
  if nothing then opts[#opts + 1] = "take nothing" end
  return opts, cards
end

local function take(g, q, card)
  g.row:take(card)
  g.hands[q]:push(card)
  g:log("%s takes %s", g.names[q], NAME[card])
end

local NOTHING = { "take nothing" }

function R.play(g)
  local p = 1
  while g.deck:count() > 0 do
    g:begin_turn(p)
    if reveal(g, p) then
      local opts, cards = take_options(g, false)          -- 2.
      take(g, p, cards[g:choose(p, "take", opts)])
      for i = 2, g.players do                               -- 3.
        if g.row:count() == 0 then break end
        local q = g:turn_order(p)[i]
        if g.coins:get(q) > 0 then
          opts, cards = take_options(g, true)
        else
          opts, cards = NOTHING, {}
        end
        local k = g:choose(q, "take", opts)
        if cards[k] then
          g.coins:add(q, -1)
          g.coins:add(p, 1)
          take(g, q, cards[k])
        end
      end
      g.row:move_to(g.discard, g.row:count())              -- 4.
    end
    p = g:next_seat(p)
  end
end

function R.scores(g)
  local t = {}
  for s = 1, g.players do
    local n = g.coins:get(s)
    for _, card in ipairs(g.hands[s]:cards()) do n = n + value(card) end
    t[s] = n
  end
  return t
end

function R.card_text(_, card) return NAME[card] end

function R.invariants(g)
  local seen, n = {}, 0
  local function count(pile)
    for _, card in ipairs(pile:cards()) do
      if seen[card] then return "card " .. NAME[card] .. " is in two places" end
      seen[card], n = true, n + 1
    end
  end
  local err = count(g.deck) or count(g.row) or count(g.discard)
  for s = 1, g.players do err = err or count(g.hands[s]) end
  if err then return err end
  if n ~= CARDS then return n .. " cards in play, expected " .. CARDS end
  local coins = 0
  for _, v in ipairs(g.coins:values()) do coins = coins + v end
  if coins ~= COINS * g.players then return coins .. " coins in play" end
  local colours = {}
  for _, card in ipairs(g.row:cards()) do
    if colours[colour(card)] then return "two " .. COLOURS[colour(card)] .. " cards in the row" end
    colours[colour(card)] = true
  end
end

R.explain = {}
function R.explain.take(g, seat, text)
  local name = text:match("^take (.+)$")
  if not name then return nil end
  if name ~= "nothing" and seat ~= g.active and g.coins:get(seat) == 0 then
    return g.names[seat] .. " has no coin to pay for a card"
  end
  if name ~= "nothing" then return "there is no " .. name .. " in the row" end
  return "the active player must take a card"
end

return R
