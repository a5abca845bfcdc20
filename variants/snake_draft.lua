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

-- "4,3,2,1/1,2,3,4" -> { {4,3,2,1}, {1,2,3,4} }, checked against the game.
local function rounds_of(text, g, ships)
  local rounds = {}
  for round in text:gmatch("[^/]+") do
    local seats, seen = {}, {}
    for seat in round:gmatch("[^,%s]+") do
      local s = math.tointeger(tonumber(seat))
      if not s or s < 1 or s > g.players or seen[s] then
        error(("snake_draft: order '%s': round %d must list each seat 1..%d once"):format(text, #rounds + 1, g.players), 0)
      end
      seen[s] = true
      seats[#seats + 1] = s
    end
    if #seats ~= g.players then
      error(("snake_draft: order '%s': round %d must list each seat 1..%d once"):format(text, #rounds + 1, g.players), 0)
    end
    rounds[#rounds + 1] = seats
  end
  if #rounds ~= ships then
    error(("snake_draft: order '%s' has %d rounds; each player loads %d ships"):format(text, #rounds, ships), 0)
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
    -- H3: round 1 in reverse turn order, round 2 in turn order.
    function R.rules.loading_order(g)
      local order = g:turn_order(g.first)
      if opts.order == "snake" then return { reverse(order), order } end
      if opts.order == "forward" then return { order, order } end
      return rounds_of(opts.order, g, R.data.ships_at_start)
    end
  end,
}
