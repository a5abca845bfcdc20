-- A hostile rule set for the engine's tests: its R.describe_option and
-- R.explain tell whatever the real game holds that the seat asking may
-- not see (descriptions, why a text is refused, and seat views:
-- docs/security.md, "Seat views").
--
-- Rules. 9 cards, 1 to 9, shuffled face down; each player is dealt 2 of
-- them, the rest is the deck. Each round, all at once and in secret,
-- every player writes an order of two picks (red, blue or green), then
-- the orders are revealed and logged. After `rounds` rounds the player
-- with the highest card in hand wins.
--
-- The descriptions read, besides the option: every seat's draft
-- (g:draft), a scratch field the entries write (g._spy), the deck and
-- every hand. Option `deal` (0 or 1) swaps, after the shuffle, the deck's
-- top with seat 2's first card and the deck's two bottom cards: what
-- seat 1 sees does not change. Option `peek` keeps the deck's top card as
-- a text outside any pile, where no copy can deal it again.
local R = {
  name = "leaky_describe",
  title = "Leaky descriptions",
  summary = "test rule set: option descriptions that read what the seat asking may not see",
  players = { min = 2, max = 3, default = 2 },
  options = {
    rounds = { default = 2, type = "integer", min = 1, max = 3, doc = "rounds played" },
    deal = { default = 0, type = "integer", min = 0, max = 1, doc = "1: another deal of what seat 1 cannot see" },
    peek = { default = false, type = "boolean", doc = "keep the deck's top card as text outside a pile (g._peek)" },
  },
}

local PICKS = { "pick red", "pick blue", "pick green" }

function R.setup(g)
  g.deck = kontor.pile { vis = "hidden" }
  for card = 1, 9 do g.deck:push(card) end
  g.deck:shuffle(g.rng)
  g.hands = {}
  for s = 1, g.players do
    g.hands[s] = kontor.pile { vis = "owner", owner = s }
    g.deck:move_to(g.hands[s], 2)
  end
  if g.options.deal == 1 then
    local h, n = g.hands[2], g.deck:count()
    local top, mine = g.deck:get(n), h:get(1)
    g.deck:set(n, mine); h:set(1, top)
    local a, b = g.deck:get(1), g.deck:get(2)
    g.deck:set(1, b); g.deck:set(2, a)
  end
  g.round = 0
  g.orders = {}
  g._spy = {}
  if g.options.peek then g._peek = R.card_text(g, g.deck:top()) end
end

local function enter(g, seat, draft)
  draft.picks = {}
  g._spy[seat] = draft.picks                -- hostile: the entry's work where every call sees it
  for _ = 1, 2 do
    local k = g:choose(seat, "pick", PICKS)
    draft.picks[#draft.picks + 1] = PICKS[k]
  end
  return draft.picks
end

function R.play(g)
  for round = 1, g.options.rounds do
    g.round = round
    g:begin_turn(1)
    local orders = g:choose_orders(g:turn_order(1), "order", enter)
    for s = 1, g.players do
      g.orders[s] = table.concat(orders[s], ", ")
      g:log("%s: %s", g.names[s], g.orders[s])
    end
  end
end

function R.scores(g)
  local t = {}
  for s = 1, g.players do
    local best = 0
    for _, c in ipairs(g.hands[s]:cards()) do if c > best then best = c end end
    t[s] = best
  end
  return t
end

function R.view(g, seat)
  local d = g:draft(seat)
  return { round = g.round, orders = g.orders, hand = g.hands[seat]:cards(), deck = g.deck:count(),
           my_order = d and d.picks or false }
end

function R.card_text(_, card) return "card " .. card end

-- Everything the real game holds, whoever asks.
function R.describe_option(g, seat, decision, text)
  local drafts, spy, hands = {}, {}, {}
  for s = 1, g.players do
    local d = g:draft(s)
    drafts[s] = s .. "=" .. (d and d.picks and table.concat(d.picks, "+") or "-")
    spy[s] = s .. "=" .. (g._spy[s] and table.concat(g._spy[s], "+") or "-")
    hands[s] = s .. "=" .. table.concat(g.hands[s]:cards(), "+")
  end
  return ("seat %d, %s, %s: drafts %s; spy %s; deck %s; hands %s%s"):format(seat, decision, text,
    table.concat(drafts, " "), table.concat(spy, " "), table.concat(g.deck:cards(), "+"), table.concat(hands, " "),
    g._peek and ("; peek " .. g._peek) or "")
end

-- Why a pick is refused: the same, whoever asks.
R.explain = {
  pick = function(g, seat, text)
    return "no such pick; " .. R.describe_option(g, seat, "pick", text)
  end,
}

return R
