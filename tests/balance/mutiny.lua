-- A test variant of Sea Merchants with a rule that cannot fire: a mutiny
-- when a player holds 1000 coins (no game gets near). The balance lab's
-- coverage must list R.rules.mutiny and its lines as never fired.
return {
  variant = true,
  name = "mutiny",
  base = "sea_merchants",
  summary = "test variant: a rule that never fires",
  apply = function(R)
    -- A mutiny: the crew of a player with 1000 coins takes half of them.
    function R.rules.mutiny(g, seat)
      g.coins:add(seat, -(g.coins:get(seat) // 2))
    end
    local end_of_phase_two = R.rules.end_of_phase_two
    function R.rules.end_of_phase_two(g, seat)
      if g.coins:get(seat) >= 1000 then R.rules.mutiny(g, seat) end
      return end_of_phase_two(g, seat)
    end
  end,
}
