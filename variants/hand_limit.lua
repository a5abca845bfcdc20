-- A hand limit (house rules "Merchants", ruling H5).
--
-- A hand holds at most `size` cards, plus `per_warehouse` for each
-- warehouse its owner has (warehouses come with house_specials). With
-- overflow=stop (H5) a card that would exceed the limit is not drawn and
-- stays in the deck, and no draw is offered to a full hand. With
-- overflow=discard the player draws everything (the draw action, its
-- forklift draws, the office draws), then, at the end of phase II,
-- discards down to the limit one card at a time; discards leave play.

local DRAWS = { phase2 = "draw", office = "office draw", forklift = "forklift draw" }

-- pile:count(), looked up once: the rules below ask it at every draw, and
-- a method call looks its method up through the pile's metatable each time.
local count = kontor.pile{ vis = "public" }.count

return {
  variant = true,
  name = "hand_limit",
  title = "Hand limit",
  base = "sea_merchants",
  summary = "a hand limit of 6, +2 per warehouse; a full hand cannot draw (H5)",
  replaces = { "the hand limit" },
  options = {
    -- min: the base's R.data.hand_at_start, the 3 cards dealt (S3): a file's
    -- option table cannot read its base, so apply checks it again below
    size = { default = 6, type = "integer", min = 3,
             doc = "the cards a hand may hold (H5: 6); at least the 3 dealt at the start (S3)" },
    per_warehouse = { default = 2, type = "integer", min = 0,
                      doc = "extra cards per warehouse owned (H5: 2)" },
    overflow = { default = "stop", type = "string", values = { "stop", "discard" },
                 doc = "'stop': a card that would exceed the limit stays in the deck and a full hand "
                    .. "is offered no draw (H5); 'discard': draw all, then discard down to the limit" },
  },
  apply = function(R, opts)
    -- H5: `size` cards, + `per_warehouse` for each warehouse owned. The two
    -- rules every draw asks (draw_card, no_draw) write this sum out.
    local size, per_warehouse = opts.size, opts.per_warehouse
    -- The deal is not a draw (S3): a limit below it would hold a hand
    -- above the limit from the start. Refused, with the option's name: the
    -- declared min is the base's 3; a variant before this one may deal more.
    -- (kontor.bad_option: a bad value given, as one below the min, not a
    -- failing script: the command line exits 2)
    if size < R.data.hand_at_start then
      kontor.bad_option(("option size of hand_limit: %d is below the %d cards each player is dealt (S3)"):format(
        size, R.data.hand_at_start))
    end
    local function limit(g, seat)
      return size + per_warehouse * (g.specials[seat].warehouse or 0)
    end

    -- Discard down to the limit, one card at a time (overflow=discard).
    local function discard_down(g, seat)
      while g.hands[seat]:count() > limit(g, seat) do
        local held, options = R.cards_in_hand(g, seat), {}
        for p, name in ipairs(R.data.products) do
          if held[p] > 0 then options[#options + 1] = { "discard", name } end
        end
        local name = options[g:choose(seat, "discard", options)][2]
        local p = R.product_number(name)
        g.covered:push(R.rules.take_from_hand(g, seat, p))   -- discards leave play
        if g.logging then g:log("%s discards %s (hand limit %d)", g.names[seat], R.data.products[p], limit(g, seat)) end
      end
    end

    if opts.overflow == "stop" then
      -- H5: a card that would exceed the limit is not drawn: it stays in the deck.
      local draw_card = R.rules.draw_card
      function R.rules.draw_card(g, seat)
        if count(g.hands[seat]) >= size + per_warehouse * (g.specials[seat].warehouse or 0) then return false end
        return draw_card(g, seat)
      end
      -- H5: drawing is not an available action with a full hand (the draw
      -- action, an office draw, a forklift draw: none is offered). The
      -- reason is made once for each limit and hand size (a string made
      -- at every full hand's turn cost more than the rule), kept by both
      -- in one integer.
      local full = {}
      function R.rules.no_draw(g, seat)
        local n, lim = count(g.hands[seat]), size + per_warehouse * (g.specials[seat].warehouse or 0)
        if n < lim then return nil end
        local key = lim << 32 | n
        local why = full[key]
        if not why then
          why = ("your hand is full (%d cards, the limit is %d)"):format(n, lim)
          full[key] = why
        end
        return why
      end
    else
      -- H5 option: draw all, then discard: once every draw of the turn is
      -- done (the draw action with its forklift draws, the office draws).
      local end_of_phase_two = R.rules.end_of_phase_two
      function R.rules.end_of_phase_two(g, seat)
        end_of_phase_two(g, seat)
        discard_down(g, seat)
      end
    end

    -- H5: a stated position holds no hand above its limit, but (with
    -- overflow=discard) the active player's in phase II, before its discard.
    local setup = R.setup
    function R.setup(g, scenario)
      setup(g, scenario)
      if not scenario then return end
      for seat = 1, g.players do
        local n, lim = g.hands[seat]:count(), limit(g, seat)
        local drawing = opts.overflow == "discard" and g.phase == "phase2" and seat == g.current
        if n > lim and not drawing then
          error(("scenario: seat %d holds %d cards, above its hand limit of %d (H5)"):format(seat, n, lim), 0)
        end
      end
    end

    -- Option descriptions (docs/rules/house.md): the draws say how full the
    -- hand is, and the draw action how many cards still fit (H5); a
    -- warehouse (house_specials) says what it adds.
    R.card_effects.warehouse = function()
      return ("your hand limit +%d (H5)"):format(opts.per_warehouse)
    end
    local describe = R.describe_option
    function R.describe_option(g, seat, decision, text)
      local s = describe(g, seat, decision, text)
      if DRAWS[decision] == text then
        local n, lim = g.hands[seat]:count(), limit(g, seat)
        local note = n <= lim and ("your hand holds %d of %d"):format(n, lim)
          or ("your hand holds %d cards, above its limit of %d: you discard down to it (H5)"):format(n, lim)
        if opts.overflow == "stop" and decision == "phase2" and lim - n < R.data.cards_per_draw then
          note = ("%s: only %d %s drawn (H5)"):format(note, lim - n, lim - n == 1 and "card is" or "cards are")
        end
        return s and (s .. "; " .. note) or note
      end
      if decision == "discard" then return ("down to your limit of %d"):format(limit(g, seat)) end
      return s
    end
    R.move_words[#R.move_words + 1] = "discard"
    -- Why a text is not a discard (H5, overflow=discard): the product, the
    -- card held, or what the decision asks.
    R.explain.discard = function(g, seat, text)
      local name = text:match("^discard (%a+)$")
      local p = name and R.product_number(name)
      if name and not p then
        return ("there is no product '%s' (%s)"):format(name, table.concat(R.data.products, ", "))
      end
      if p and R.cards_in_hand(g, seat)[p] == 0 then return ("you hold no %s card"):format(name) end
      return ("your hand holds %d cards, above its limit of %d: discard one card ('discard <product>')"):format(
        g.hands[seat]:count(), limit(g, seat))
    end

    -- The limit is never exceeded, but with overflow=discard by the
    -- active player in phase II (until the discard at its end), or when
    -- the deck's last card ended the game before the discard (S11).
    local invariants = R.invariants
    function R.invariants(g)
      local err = invariants and invariants(g)
      if err then return err end
      if g.phase == "over" and opts.overflow == "discard" then return nil end
      for seat = 1, g.players do
        local n, lim = g.hands[seat]:count(), limit(g, seat)
        local drawing = opts.overflow == "discard" and g.phase == "phase2" and seat == g.current
        if n > lim and not drawing then
          return ("hand %d holds %d cards, above its limit of %d"):format(seat, n, lim)
        end
      end
    end
  end,
}
