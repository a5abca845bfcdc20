-- Snake-draft loading (house rules "Merchants", ruling H3).
--
-- The last player picks first, on to the first player; then the first
-- player picks again and the order runs the other way. The rulebook's
-- wording contradicts itself, so the order is an option: any list of seats
-- per round.

local function reverse(list)
  local r = {}
  for i = #list, 1, -1 do r[#r + 1] = list[i] end
  return r
end

-- H3 option: "4,3,2,1/1,2,3,4" -> { {4,3,2,1}, {1,2,3,4} }, read when the
-- variant is applied: each round lists the seats 1..n once, the same n in
-- every round, one round per starting ship (S3). Returns the rounds, or nil
-- and what is wrong.
local function rounds_of(text, ships)
  local rounds = {}
  for round in text:gmatch("[^/]+") do
    local seats, seen = {}, {}
    for seat in round:gmatch("[^,%s]+") do
      local s = math.tointeger(tonumber(seat))
      if not s then
        return nil, ("order '%s': '%s' is not a seat: expected snake, forward, or rounds of seats "
          .. "such as '4 3 2 1/1 2 3 4'"):format(text, seat)
      end
      if s < 1 or seen[s] then
        return nil, ("order '%s': round %d must list each seat once, from 1"):format(text, #rounds + 1)
      end
      seen[s], seats[#seats + 1] = true, s
    end
    for s = 1, #seats do
      if not seen[s] then
        return nil, ("order '%s': round %d must list each seat once, from 1 (it has no seat %d)"):format(
          text, #rounds + 1, s)
      end
    end
    if #rounds > 0 and #seats ~= #rounds[1] then
      return nil, ("order '%s': round %d lists %d seats, round 1 lists %d"):format(text, #rounds + 1, #seats, #rounds[1])
    end
    rounds[#rounds + 1] = seats
  end
  if #rounds ~= ships then
    return nil, ("order '%s' has %d rounds; each player loads %d ships (S3)"):format(text, #rounds, ships)
  end
  return rounds
end

return {
  variant = true,
  name = "snake_draft",
  title = "Snake draft",
  base = "sea_merchants",
  summary = "snake-draft loading: the last player loads first, then back from the first (H3)",
  replaces = { "the loading order" },
  options = {
    order = { default = "snake", type = "string",
              doc = "'snake' (H3: round 1 last player to first, round 2 first to last), "
                 .. "'forward' (the base rule S4), or rounds of seats such as '4,3,2,1/1,2,3,4' "
                 .. "(on the command line, seats separated by spaces: '4 3 2 1/1 2 3 4')" },
  },
  apply = function(R, opts)
    -- H3 option: rounds of seats are read now; they list the seats of one
    -- player count, the only one the game can then be played with.
    local rounds
    if opts.order ~= "snake" and opts.order ~= "forward" then
      local why
      rounds, why = rounds_of(opts.order, R.data.ships_at_start)
      -- (kontor.bad_option: an order given that is no order is a bad
      -- value, as the command line's exit status 2 says, not a failing script)
      if not rounds then kontor.bad_option(why) end
      local n, p = #rounds[1], R.players
      if n < p.min or n > p.max then           -- S1: 2 to 4 players
        kontor.bad_option(("order '%s' lists %d %s a round; %s is for %d to %d players"):format(
          opts.order, n, n == 1 and "seat" or "seats", R.name, p.min, p.max))
      end
      R.players = { min = n, max = n, default = n }
    end
    -- H3: round 1 in reverse turn order, round 2 in turn order.
    function R.rules.loading_order(g)
      local order = g:turn_order(g.first)
      if opts.order == "snake" then return { reverse(order), order } end
      if opts.order == "forward" then return { order, order } end
      if #rounds ~= R.data.ships_at_start then   -- a variant applied after this one changed S3
        error(("order '%s' has %d rounds; each player loads %d ships (S3)"):format(
          opts.order, #rounds, R.data.ships_at_start), 0)
      end
      return rounds
    end
  end,
}
