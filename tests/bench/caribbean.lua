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

-- Card kinds.
local SHIP, PERSON, EXPEDITION, TAX = 1, 2, 3, 4
for _, c in ipairs(CARDS) do
  c.k = (c.kind == "ship" and SHIP) or (c.kind == "person" and PERSON)
    or (c.kind == "expedition" and EXPEDITION) or TAX
  c.mademoiselle = c.skill == "mademoiselle" and 1 or 0
  c.governor = c.skill == "governor" and 1 or 0
  c.admiral = c.skill == "admiral" and 2 or 0
  c.jester = c.skill == "jester" and 1 or 0
end
local MAXP = 6

-- The state of one game: made once, reset for each game. Written as a good
-- Lua programmer would (issue 25): no function or table made a game, a
-- seat's counts in integer-indexed arrays, the state in upvalues.
local random
local n, steps = 0, 0
local deck, ndeck, discard, ndiscard = {}, 0, {}, 0
local purse, display, done = {}, {}, {}
local swords, influence, discount, takes_more, admiral, jester = {}, {}, {}, {}, {}, {}
local trader, symbols = {}, {}
for q = 1, MAXP do
  purse[q], display[q] = {}, {}
  trader[q], symbols[q] = { 0, 0, 0, 0, 0 }, { 0, 0, 0, 0 }
end
local harbour, nharbour, expeditions = {}, 0, {}
local names_in_harbour = 0
local fulfils, takes, seen, stamp = {}, {}, {}, 0
local short = { 0, 0, 0 }

local function choose(k) steps = steps + 1; return random(k) end

local function shuffle(t, m)
  for i = m, 2, -1 do
    local j = random(i)
    t[i], t[j] = t[j], t[i]
  end
end

-- C2: the next card; the discard pile is shuffled in when it is needed.
local function draw()
  if ndeck == 0 then
    if ndiscard == 0 then return nil end
    deck, discard = discard, deck
    ndeck, ndiscard = ndiscard, 0
    shuffle(deck, ndeck)
  end
  local c = deck[ndeck]
  deck[ndeck] = nil
  ndeck = ndeck - 1
  return c
end

local function to_discard(c)
  ndiscard = ndiscard + 1
  discard[ndiscard] = c
end

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
    to_discard(mine[top])
    mine[top] = nil
  end
end

local function count(q, c, d)                               -- a person joins (1) or leaves (-1)
  swords[q] = swords[q] + d * c.swords
  influence[q] = influence[q] + d * c.influence
  local sym, tr = c.symbol, c.trader
  if sym then symbols[q][sym] = symbols[q][sym] + d end
  if tr then trader[q][tr] = trader[q][tr] + d end
  discount[q] = discount[q] + d * c.mademoiselle
  takes_more[q] = takes_more[q] + d * c.governor
  admiral[q] = admiral[q] + d * c.admiral
  jester[q] = jester[q] + d * c.jester
end

-- C8: the expeditions seat q can fulfil, in display order.
local function can_fulfil(q)
  local m, sym = 0, symbols[q]
  if sym[1] + sym[2] + sym[3] + sym[4] < 2 then return 0 end   -- every expedition needs 2 or more
  for i = 1, #expeditions do
    local needs, miss = expeditions[i].needs, 0
    for s = 1, 3 do
      local d = needs[s] - sym[s]
      if d > 0 then miss = miss + d end
    end
    if miss <= sym[ANY] then m = m + 1; fulfils[m] = i end
  end
  return m
end

local function fulfil(q, i)
  local e = table.remove(expeditions, i)
  local needs, sym, jokers = e.needs, symbols[q], 0
  for s = 1, 3 do
    short[s] = needs[s]
    local d = needs[s] - sym[s]
    if d > 0 then jokers = jokers + d end
  end
  local disp = display[q]
  for k = #disp, 1, -1 do                                   -- from the top of the display
    local c, use = disp[k], false
    local cs = c.symbol
    if cs and cs ~= ANY and short[cs] > 0 then
      short[cs] = short[cs] - 1; use = true
    elseif cs == ANY and jokers > 0 then
      jokers = jokers - 1; use = true
    end
    if use then
      table.remove(disp, k)
      count(q, c, -1)
      to_discard(c)
    end
  end
  done[q] = done[q] + 1
  influence[q] = influence[q] + e.influence
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
    local held = #purse[r]
    if held >= 12 then pay(r, held // 2) end
  end
  to_discard(card)
  local best = -1
  for r = 1, n do if swords[r] > best then best = swords[r] end end
  for i = 0, n - 1 do
    local r = (q + i - 1) % n + 1
    if swords[r] == best then gain(r, 1) end
  end
end

local function clear_harbour()
  for i = 1, nharbour do to_discard(harbour[i]); harbour[i] = nil end
  nharbour, names_in_harbour = 0, 0
end

-- C4: reveal one card; false on a bust.
local function reveal(q)
  local c = draw()
  local k = c.k
  if k == PERSON then
    nharbour = nharbour + 1
    harbour[nharbour] = c
  elseif k == EXPEDITION then
    expeditions[#expeditions + 1] = c
  elseif k == TAX then
    tax(q, c)
  else
    local cs = c.swords
    if cs > 0 and swords[q] >= cs and ask(q, 2) == 1 then   -- repel
      to_discard(c)
      return true
    end
    local name = c.name
    for i = 1, nharbour do
      local h = harbour[i]
      if h.k == SHIP and h.name == name then               -- C4: a bust
        clear_harbour()
        to_discard(c)
        return false
      end
    end
    nharbour = nharbour + 1
    harbour[nharbour] = c
    names_in_harbour = names_in_harbour + 1
  end
  return true
end

local function discover(q)
  if ndeck + ndiscard == 0 then return true end
  if not reveal(q) then return false end
  while true do
    local base = (ndeck + ndiscard > 0) and 2 or 1          -- reveal, stop / stop
    if base == 1 and can_fulfil(q) == 0 then return true end
    if ask(q, base) == base then return true end            -- stop
    if not reveal(q) then return false end
  end
end

local function chance_bonus(q)                              -- C7
  if admiral[q] > 0 and nharbour >= 5 then gain(q, admiral[q]) end
  if jester[q] > 0 and nharbour == 0 then gain(q, jester[q]) end
end

-- C6: the cards q may take with `budget` coins for a hire; identical
-- persons once.
local function take_options(q, budget)
  local m, off = 0, discount[q]
  stamp = stamp + 1
  for i = 1, nharbour do
    local c = harbour[i]
    if c.k == SHIP then
      m = m + 1; takes[m] = i
    elseif c.cost - off <= budget and seen[c.type] ~= stamp then
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
  nharbour = nharbour - 1
  if c.k == SHIP then
    names_in_harbour = names_in_harbour - 1
    to_discard(c)
    gain(q, c.coins + trader[q][c.name])
  else
    local cost = c.cost - discount[q]
    pay(q, cost > 0 and cost or 0)
    local disp = display[q]
    disp[#disp + 1] = c
    count(q, c, 1)
  end
  return c
end

local ALLOWANCE = { [0] = 1, 1, 1, 1, 2, 3 }
local function active_takes(q)
  local left = ALLOWANCE[names_in_harbour] + takes_more[q]
  while left > 0 and nharbour > 0 do
    local m = take_options(q, #purse[q])
    local f = can_fulfil(q)
    if m == 0 and f == 0 then break end
    local k = choose(m + 1 + f)                             -- takes, take nothing, fulfils
    if k > m + 1 then
      fulfil(q, fulfils[k - m - 1])
    elseif k == m + 1 then
      return                                                -- take nothing
    else
      left = left - 1 + take(q, q, takes[k]).governor         -- C6: a Governor's take at once
    end
  end
  while can_fulfil(q) > 0 do                                -- C8: after the last take
    if ask(q, 1) == 1 then break end
  end
end

local function other_takes(q, active)
  local left = 1 + takes_more[q]
  while left > 0 do
    if #purse[q] == 0 or nharbour == 0 then return end
    local m = take_options(q, #purse[q] - 1)
    if m == 0 then return end
    local k = choose(m + 1)
    if k > m then return end
    left = left - 1 + take(q, active, takes[k]).governor   -- C6: a Governor's take at once
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
  clear_harbour()
end

local function setup()
  for i = ndeck, 1, -1 do deck[i] = nil end
  for i = ndiscard, 1, -1 do discard[i] = nil end
  ndeck, ndiscard = 0, 0
  for i = 1, #CARDS do
    local c = CARDS[i]
    if c.k ~= EXPEDITION or c.players <= n then ndeck = ndeck + 1; deck[ndeck] = c end
  end
  shuffle(deck, ndeck)
  for i = #expeditions, 1, -1 do expeditions[i] = nil end
  for i = nharbour, 1, -1 do harbour[i] = nil end
  nharbour, names_in_harbour = 0, 0
  for q = 1, n do
    local pq, dq = purse[q], display[q]
    for i = #pq, 1, -1 do pq[i] = nil end
    for i = #dq, 1, -1 do dq[i] = nil end
    done[q], swords[q], influence[q], discount[q], takes_more[q], admiral[q], jester[q] = 0, 0, 0, 0, 0, 0, 0
    local t, s = trader[q], symbols[q]
    for i = 1, 5 do t[i] = 0 end
    for i = 1, 4 do s[i] = 0 end
    gain(q, 3)                                              -- C1
  end
end

local function play(rand, players)
  random, n, steps = rand, players, 0
  setup()
  local turns, q, ending, idle = 0, 1, false, 0
  while true do
    turns = turns + 1
    if ndeck + ndiscard == 0 and can_fulfil(q) == 0 then    -- nothing can happen
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
    if not ending then                                      -- C9
      for r = 1, n do
        if influence[r] >= 10 and done[r] > 0 then ending = true end
      end
    end
    q = q % n + 1
    if ending and q == 1 then break end
  end
  local scores = {}
  for r = 1, n do scores[r] = influence[r] end
  return turns, steps, scores
end

return { caribbean = play }
