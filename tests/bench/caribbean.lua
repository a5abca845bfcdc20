-- Merchants of the Caribbean as a plain Lua 5.4 loop: the yardstick of
-- `make bench`.
--
-- It plays the game of variants/caribbean.lua (rulings C1-C9, its default
-- options) with the policy of `kontor sim`: at every decision the rule set
-- asks, each of its options is equally likely. Identical persons in the
-- harbour are one option, as identical option texts are in the rule set;
-- a decision with one option still counts as a step. Coins are cards (C2):
-- a purse is a stack of cards, as in the rule set.
--
-- Returns { caribbean = play }; play(random, players) plays one game and
-- returns its turns, its steps and its scores (influence).

-- The default deck (caribbean_cards.md).
local SHIPS = {   -- swords (0 = skull), coins, count
  { {1,1,3}, {1,2,1}, {2,2,2}, {2,3,1}, {4,3,2}, {4,4,1} },
  { {1,1,3}, {1,2,1}, {2,2,2}, {2,3,1}, {5,3,2}, {5,4,1} },
  { {1,1,3}, {1,2,1}, {3,2,2}, {3,3,1}, {5,3,2}, {5,4,1} },
  { {1,1,3}, {3,2,3}, {6,3,2}, {0,3,1}, {0,4,1} },
  { {2,1,3}, {4,2,3}, {7,3,2}, {0,3,1}, {0,4,1} },
}
local ANCHOR, CROSS, HOUSE, ANY = 1, 2, 3, 4
local PERSONS = {  -- skill, cost, influence, count; trader = ship name index
  { "trader", 3, 1, 1, trader = 1 }, { "trader", 5, 2, 1, trader = 1 },
  { "trader", 3, 1, 1, trader = 2 }, { "trader", 5, 2, 1, trader = 2 },
  { "trader", 3, 1, 2, trader = 3 }, { "trader", 3, 1, 2, trader = 4 },
  { "trader", 3, 1, 2, trader = 5 },
  { "settler", 4, 1, 5, symbol = HOUSE }, { "captain", 4, 1, 5, symbol = ANCHOR },
  { "priest", 4, 1, 5, symbol = CROSS }, { "jack", 6, 1, 3, symbol = ANY },
  { "sailor", 3, 1, 7, swords = 1 }, { "sailor", 5, 2, 2, swords = 1 }, { "sailor", 7, 3, 1, swords = 1 },
  { "pirate", 5, 1, 1, swords = 2 }, { "pirate", 7, 2, 1, swords = 2 }, { "pirate", 9, 3, 1, swords = 2 },
  { "mademoiselle", 7, 2, 2 }, { "mademoiselle", 9, 3, 2 },
  { "jester", 5, 1, 1 }, { "jester", 7, 2, 3 }, { "jester", 9, 3, 1 },
  { "admiral", 5, 1, 1 }, { "admiral", 7, 2, 3 }, { "admiral", 9, 3, 2 },
  { "governor", 8, 0, 4 },
}
local EXPEDITIONS = {  -- anchors, crosses, houses; influence; coins; players needed
  { 2, 0, 0, 4, 2, 2 }, { 0, 0, 2, 4, 2, 2 }, { 0, 2, 0, 4, 2, 2 },
  { 2, 0, 1, 6, 3, 2 }, { 0, 2, 1, 6, 3, 2 }, { 1, 1, 1, 5, 3, 5 },
}

-- One table per card; `kind` is its sort. Persons of one line of PERSONS
-- share `type`: they are one option in the harbour.
local CARDS = {}
for name, list in ipairs(SHIPS) do
  for _, c in ipairs(list) do
    for _ = 1, c[3] do CARDS[#CARDS + 1] = { kind = "ship", name = name, swords = c[1], coins = c[2] } end
  end
end
for t, p in ipairs(PERSONS) do
  for _ = 1, p[4] do
    CARDS[#CARDS + 1] = { kind = "person", type = t, skill = p[1], cost = p[2], influence = p[3],
                          trader = p.trader, symbol = p.symbol, swords = p.swords or 0 }
  end
end
for _, e in ipairs(EXPEDITIONS) do
  CARDS[#CARDS + 1] = { kind = "expedition", needs = { e[1], e[2], e[3] }, influence = e[4],
                        coins = e[5], players = e[6] }
end
for _ = 1, 4 do CARDS[#CARDS + 1] = { kind = "tax" } end

local function play(random, n)
  local steps, turns = 0, 0
  local function choose(k) steps = steps + 1; return random(k) end

  local deck, discard = {}, {}
  for _, c in ipairs(CARDS) do
    if c.kind ~= "expedition" or c.players <= n then deck[#deck + 1] = c end
  end
  local function shuffle(t)
    for i = #t, 2, -1 do
      local j = random(i)
      t[i], t[j] = t[j], t[i]
    end
  end
  shuffle(deck)

  -- C2: the next card; the discard pile is shuffled in when it is needed.
  local function draw()
    local top = #deck
    if top == 0 then
      top = #discard
      if top == 0 then return nil end
      deck, discard = discard, deck
      shuffle(deck)
    end
    local c = deck[top]
    deck[top] = nil
    return c
  end
  local function can_draw() return #deck > 0 or #discard > 0 end

  local purse, display, done, p = {}, {}, {}, {}
  local function gain(q, k)
    local mine = purse[q]
    for _ = 1, k do
      local c = draw()
      if not c then return end
      mine[#mine + 1] = c
    end
  end
  local function pay(q, k)
    local mine = purse[q]
    for _ = 1, k do
      local top = #mine
      discard[#discard + 1] = mine[top]
      mine[top] = nil
    end
  end
  for q = 1, n do
    purse[q], display[q], done[q] = {}, {}, 0
    p[q] = { swords = 0, influence = 0, discount = 0, takes = 0, admiral = 0, jester = 0,
             trader = { 0, 0, 0, 0, 0 }, symbols = { 0, 0, 0, 0 } }
    gain(q, 3)                                                -- C1
  end
  local function count(q, c, d)                               -- a person joins (1) or leaves (-1)
    local s = p[q]
    s.swords = s.swords + d * c.swords
    s.influence = s.influence + d * c.influence
    if c.symbol then s.symbols[c.symbol] = s.symbols[c.symbol] + d end
    if c.trader then s.trader[c.trader] = s.trader[c.trader] + d end
    if c.skill == "mademoiselle" then s.discount = s.discount + d end
    if c.skill == "governor" then s.takes = s.takes + d end
    if c.skill == "admiral" then s.admiral = s.admiral + 2 * d end
    if c.skill == "jester" then s.jester = s.jester + d end
  end

  local harbour, expeditions = {}, {}
  local names_in_harbour = 0

  -- C8: the expeditions seat q can fulfil, in display order.
  local fulfils = {}
  local function can_fulfil(q)
    local m, sym = 0, p[q].symbols
    if sym[1] + sym[2] + sym[3] + sym[4] < 2 then return 0 end   -- every expedition needs 2 or more
    for i, e in ipairs(expeditions) do
      local short = 0
      for s = 1, 3 do
        local d = e.needs[s] - sym[s]
        if d > 0 then short = short + d end
      end
      if short <= sym[ANY] then m = m + 1; fulfils[m] = i end
    end
    return m
  end
  local function fulfil(q, i)
    local e = table.remove(expeditions, i)
    local short = { e.needs[1], e.needs[2], e.needs[3] }
    local jokers = 0
    for s = 1, 3 do
      local d = short[s] - p[q].symbols[s]
      if d > 0 then jokers = jokers + d end
    end
    local disp = display[q]
    for k = #disp, 1, -1 do                                   -- from the top of the display
      local c, use = disp[k], false
      if c.symbol and c.symbol ~= ANY and short[c.symbol] > 0 then
        short[c.symbol] = short[c.symbol] - 1; use = true
      elseif c.symbol == ANY and jokers > 0 then
        jokers = jokers - 1; use = true
      end
      if use then
        table.remove(disp, k)
        count(q, c, -1)
        discard[#discard + 1] = c
      end
    end
    done[q] = done[q] + 1
    p[q].influence = p[q].influence + e.influence
    gain(q, e.coins)
  end
  -- A decision of the active player: `base` options, plus a fulfil for
  -- each expedition they can fulfil (done at once; then asked again).
  local function ask(q, base)
    while true do
      local m = can_fulfil(q)
      local k = choose(base + m)
      if k <= base then return k end
      fulfil(q, fulfils[k - base])
    end
  end

  local function tax(q, card)                                 -- C5
    for i = 0, n - 1 do                                       -- in turn order
      local r = (q + i - 1) % n + 1
      if #purse[r] >= 12 then pay(r, #purse[r] // 2) end
    end
    discard[#discard + 1] = card
    local best = -1
    for r = 1, n do best = math.max(best, p[r].swords) end
    for i = 0, n - 1 do
      local r = (q + i - 1) % n + 1
      if p[r].swords == best then gain(r, 1) end
    end
  end

  local function bust(card)                                   -- C4
    for i = 1, #harbour do discard[#discard + 1] = harbour[i]; harbour[i] = nil end
    discard[#discard + 1] = card
    names_in_harbour = 0
  end

  -- C4: reveal one card; false on a bust.
  local function reveal(q)
    local c = draw()
    if c.kind == "person" then
      harbour[#harbour + 1] = c
    elseif c.kind == "expedition" then
      expeditions[#expeditions + 1] = c
    elseif c.kind == "tax" then
      tax(q, c)
    else
      if c.swords > 0 and p[q].swords >= c.swords and ask(q, 2) == 1 then   -- repel
        discard[#discard + 1] = c
        return true
      end
      for _, h in ipairs(harbour) do
        if h.kind == "ship" and h.name == c.name then bust(c); return false end
      end
      harbour[#harbour + 1] = c
      names_in_harbour = names_in_harbour + 1
    end
    return true
  end

  local function discover(q)
    if not can_draw() then return true end
    if not reveal(q) then return false end
    while true do
      local base = can_draw() and 2 or 1                      -- reveal, stop / stop
      if base == 1 and can_fulfil(q) == 0 then return true end
      if ask(q, base) == base then return true end            -- stop
      if not reveal(q) then return false end
    end
  end

  local function chance_bonus(q)                              -- C7
    if p[q].admiral > 0 and #harbour >= 5 then gain(q, p[q].admiral) end
    if p[q].jester > 0 and #harbour == 0 then gain(q, p[q].jester) end
  end

  -- C6: the cards q may take with `budget` coins for a hire; identical
  -- persons once.
  local takes, seen, stamp = {}, {}, 0
  local function take_options(q, budget)
    local m, discount = 0, p[q].discount
    stamp = stamp + 1
    for i = 1, #harbour do
      local c = harbour[i]
      if c.kind == "ship" then
        m = m + 1; takes[m] = i
      elseif c.cost - discount <= budget and seen[c.type] ~= stamp then
        seen[c.type] = stamp
        m = m + 1; takes[m] = i
      end
    end
    return m
  end
  local function take(q, active, i)
    if q ~= active then                                       -- 1 coin to the active player
      local mine, theirs = purse[q], purse[active]
      theirs[#theirs + 1] = mine[#mine]
      mine[#mine] = nil
    end
    local c = table.remove(harbour, i)
    if c.kind == "ship" then
      names_in_harbour = names_in_harbour - 1
      discard[#discard + 1] = c
      gain(q, c.coins + p[q].trader[c.name])
    else
      pay(q, math.max(0, c.cost - p[q].discount))
      display[q][#display[q] + 1] = c
      count(q, c, 1)
    end
  end

  local ALLOWANCE = { [0] = 1, 1, 1, 1, 2, 3 }
  local function active_takes(q)
    local left = ALLOWANCE[names_in_harbour] + p[q].takes
    while left > 0 and #harbour > 0 do
      local m = take_options(q, #purse[q])
      local f = can_fulfil(q)
      if m == 0 and f == 0 then break end
      local k = choose(m + 1 + f)                             -- takes, take nothing, fulfils
      if k > m + 1 then
        fulfil(q, fulfils[k - m - 1])
      elseif k == m + 1 then
        return                                                -- take nothing
      else
        take(q, q, takes[k])
        left = left - 1
      end
    end
    while can_fulfil(q) > 0 do                                -- C8: after the last take
      if ask(q, 1) == 1 then break end
    end
  end

  local function other_takes(q, active)
    for _ = 1, 1 + p[q].takes do
      if #purse[q] == 0 or #harbour == 0 then return end
      local m = take_options(q, #purse[q] - 1)
      if m == 0 then return end
      local k = choose(m + 1)
      if k > m then return end
      take(q, active, takes[k])
    end
  end

  local function loot_and_hire(q)
    chance_bonus(q)
    active_takes(q)
    for i = 1, n - 1 do                                       -- the others, in turn order
      local r = (q + i - 1) % n + 1
      chance_bonus(r)
      other_takes(r, q)
    end
    for i = 1, #harbour do discard[#discard + 1] = harbour[i]; harbour[i] = nil end
    names_in_harbour = 0
  end

  local q, ending, idle = 1, false, 0
  while true do
    turns = turns + 1
    if not can_draw() and can_fulfil(q) == 0 then            -- nothing can happen
      idle = idle + 1
      if idle >= n then break end
    else
      idle = 0
    end
    if discover(q) then
      loot_and_hire(q)
    else
      for i = 0, n - 1 do chance_bonus((q + i - 1) % n + 1) end   -- C7: Jesters after a bust
    end
    if not ending then                                        -- C9
      for r = 1, n do
        if p[r].influence >= 10 and done[r] > 0 then ending = true end
      end
    end
    q = q % n + 1
    if ending and q == 1 then break end
  end
  local scores = {}
  for r = 1, n do scores[r] = p[r].influence end
  return turns, steps, scores
end

return { caribbean = play }
