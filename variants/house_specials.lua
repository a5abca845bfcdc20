-- The house special cards (house rules "Merchants", rulings H2, H4, H6, H7).
--
-- They replace the base set: ship 10 (14 cards), office 8 (2), warehouse 15
-- (2), forklift 15 (2), crane 12 (2); no contract, no dock.

local FORKLIFT, NO_FORKLIFT = kontor.options{ "forklift draw", "no forklift draw" }, kontor.options{ "no forklift draw" }
-- counter:add, looked up once: an office pays at every delivery (H4), and a
-- method call looks its method up through the counter's metatable each time.
local add = kontor.counter{ n = 1 }.add

return {
  variant = true,
  name = "house_specials",
  title = "House special cards",
  base = "sea_merchants",
  summary = "the house special cards: ship, office (pays on delivery), warehouse, forklift, crane (H2, H4, H6, H7)",
  replaces = { "the special cards" },
  options = {
    office_bonus = { default = 2, type = "integer", min = 0,
                     doc = "coins per office its owner earns with every delivery (H4: 2)" },
  },
  apply = function(R, opts)
    -- H2: the cards, their prices and supply.
    local d = R.data
    d.specials = { "ship", "office", "warehouse", "forklift", "crane" }
    d.price = { ship = 10, office = 8, warehouse = 15, forklift = 15, crane = 12 }
    d.supply = { ship = 14, office = 2, warehouse = 2, forklift = 2, crane = 2 }
    d.article = { ship = "a", office = "an", warehouse = "a", forklift = "a", crane = "a" }

    -- H7: a crane works exactly like the base dock (S5, S6): the dock's
    -- decisions, under the crane's name for the players.
    d.exchange_card = "crane"
    R.decision_words = R.decision_words or {}
    R.decision_words.dock, R.decision_words.dock_product = "crane", "crane product"

    -- The office's coins in the delivery's log line: with what the seat
    -- earned from its ships when it did ("Ann earns 3 (+2 office)"), else
    -- alone ("Ann earns 2 (office)").
    local function office_report(report, name, bonus)
      local prefix = name .. " earns "
      for i, line in ipairs(report) do
        local n, tail = line:sub(#prefix + 1):match("^(%d+)(.*)$")
        if line:sub(1, #prefix) == prefix and n then
          tail = tail == "" and (" (+%d office)"):format(bonus) or tail:gsub("%)$", (", +%d office)"):format(bonus))
          report[i] = prefix .. (tonumber(n) + bonus) .. tail
          return
        end
      end
      report[#report + 1] = ("%s earns %d (office)"):format(name, bonus)
    end

    -- H4: the house office draws nothing at the end of phase II (S10) ...
    d.office_draw = 0
    -- ... it pays its owner 2 coins with every delivery, product or not.
    local trade, office_bonus = R.rules.trade, opts.office_bonus
    function R.rules.trade(g, seat, p, slots)
      local shows, report = trade(g, seat, p, slots)
      local bonus = office_bonus * g.specials[seat].office
      if bonus > 0 then
        add(g.coins, seat, bonus)
        if report then office_report(report, g.names[seat], bonus) end
      end
      return shows, report
    end

    -- H6: with the draw action, 1 extra card per forklift owned, if wanted.
    local draw_action = R.rules.draw_action
    function R.rules.draw_action(g, seat)
      draw_action(g, seat)
      for _ = 1, g.specials[seat].forklift do
        local options = R.rules.no_draw(g, seat) and NO_FORKLIFT or FORKLIFT   -- a hand limit (H5)
        if options[g:choose(seat, "forklift", options)] ~= "forklift draw" then return end
        R.rules.draw_cards(g, seat, 1, " (forklift)")
      end
    end
    -- Warehouses only raise the hand limit (H5): see hand_limit.

    -- Option descriptions (docs/rules/house.md): the cards' effects, read
    -- with the prices from R.data when asked.
    local fx = R.card_effects
    fx.contract, fx.dock = nil, nil
    fx.office = function()
      return ("+%d %s with every delivery of yours (H4)"):format(opts.office_bonus, opts.office_bonus == 1 and "coin" or "coins")
    end
    -- H5: only the hand_limit variant gives a warehouse something to raise
    -- (it sets its own text, applied before or after this one).
    fx.warehouse = fx.warehouse
      or function() return "no effect: there is no hand limit (S9; the hand_limit variant adds one, H5)" end
    fx.forklift = function() return "after the draw action you may draw 1 card more (H6)" end
    fx.crane = function() return "one extra exchange after your phase I action, every turn (H7)" end
    local describe = R.describe_option
    function R.describe_option(g, seat, decision, text)
      local said = describe(g, seat, decision, text)
      if text == "forklift draw" then                  -- and how full the hand is (hand_limit, H5)
        return "draw 1 card more (H6)" .. (said and ("; " .. said) or "")
      end
      -- H4: a play is a delivery: the mover's offices pay with it
      local bonus = opts.office_bonus * g.specials[seat].office
      if said and bonus > 0 and text:match("^play %a+ on slots? [%d,]+$") then
        said = ("%s; your offices +%d (H4)"):format(said, bonus)
      end
      return said
    end
    R.explain.forklift = function(g, seat, text)
      return text == "forklift draw" and R.rules.no_draw(g, seat)
        or "your forklift: 'forklift draw' or 'no forklift draw'"
    end
    R.move_words[#R.move_words + 1] = "forklift"
    R.move_words[#R.move_words + 1] = "crane"
  end,
}
