-- Merchants of the Old World as a plain Lua 5.4 loop: the yardstick of
-- `make bench`.
--
-- It plays the game of variants/old_world.lua (rulings O1-O34, tables
-- T1-T9, its default options) with the policy of `kontor sim`: at every
-- decision the rule set asks, each of its options is equally likely. As in
-- the rule set, a decision with one option is not asked (O32) and is no
-- step; the bag's draws and the first player are chance, no step. No
-- engine, no sandbox, no option texts, no secret copies of the cards (a
-- seat's order changes only its own card, so it is entered on the card
-- itself): the state is integer-indexed tables made once and reset for
-- each game, a decision is a count of options and `random(n)`.
--
-- Returns { old_world = play }; play(random, players) plays one game and
-- returns its turns, its steps and its scores (VP).

-- Tiles (T4, T5), in the rule set's order: cost, count, slots, kind
-- (LAND or FACILITY).
local LAND, FACILITY, SEAMAN = 2, 3, 1              -- worker kinds: the pool's indices
local TILES = {
  { 1, 5, 1, LAND }, { 1, 3, 1, LAND }, { 1, 2, 1, LAND },     -- sheep herding, woad, madder
  { 2, 2, 1, LAND }, { 2, 2, 1, LAND }, { 2, 1, 1, LAND },     -- weld, walnut, iron
  { 1, 1, 1, FACILITY }, { 2, 1, 1, FACILITY }, { 7, 1, 1, FACILITY },   -- shed, fulling mill, shears
  { 1, 1, 1, FACILITY }, { 3, 1, 3, FACILITY }, { 8, 1, 1, FACILITY },   -- back strap, warp weighted, power loom
  { 4, 1, 2, FACILITY }, { 5, 1, 2, FACILITY },                          -- walnut extract mill, ironworks
  { 1, 1, 1, FACILITY }, { 4, 1, 2, FACILITY }, { 4, 1, 1, FACILITY },   -- dye house, large dye house, mordant bath
  { 3, 1, 1, FACILITY }, { 7, 1, 1, FACILITY }, { 3, 1, 1, FACILITY },   -- deep harbor, pier, tavern
  { 8, 1, 1, FACILITY }, { 7, 1, 1, FACILITY },                          -- trade house, guild hall
}
local NT = #TILES
local COST, COUNT, SLOTS, KIND = {}, {}, {}, {}
for t, d in ipairs(TILES) do COST[t], COUNT[t], SLOTS[t], KIND[t] = d[1], d[2], d[3], d[4] end
local BY_COST = {}                                  -- the tiles, cheapest first
for t = 1, NT do BY_COST[t] = t end
table.sort(BY_COST, function(a, b) return COST[a] < COST[b] or (COST[a] == COST[b] and a < b) end)
local SHEEP, SHED, FULLING, SHEARS, STRAP, WARP, POWER = 1, 7, 8, 9, 10, 11, 12
local DYE_HOUSE, LARGE_DYE_HOUSE, MORDANT, HARBOR, PIER, TAVERN, TRADE_HOUSE, GUILD = 15, 16, 17, 18, 19, 20, 21, 22
-- Colours 1..5 (blue, red, yellow, brown, black): the plantation, the
-- extract building (0: none), the dye tokens (O5, T6), the values (T2).
local PLANTATION = { 2, 3, 4, 5, 6 }
local EXTRACT = { 0, 0, 0, 13, 14 }
local DYE_TOKENS = { 6, 4, 4, 4, 2 }
-- Goods 1..12: wool, cloth, the dyes (2 + c), the finished goods (7 + c).
local WOOL, CLOTH, NG = 1, 2, 12
local RAW_VALUE = { 1, 2, 1, 1, 1, 2, 2 }            -- wool, cloth, dyes (gold)
local FG_VP = { [8] = 1, [9] = 2, [10] = 3, [11] = 4, [12] = 5 }
local WOOL_TOKENS = 10
local SHIP_SIZES = { [2] = { 3, 4 }, [3] = { 3, 5 }, [4] = { 3, 4, 4 }, [5] = { 3, 4, 5 },
                     [6] = { 3, 5, 5 }, [7] = { 4, 4, 5 }, [8] = { 4, 5, 5 } }          -- T3
local PIRATE_EVERY = { [2] = 4, [3] = 3, [4] = 3, [5] = 3, [6] = 2, [7] = 2, [8] = 2 }  -- T9
local BAG = { 3, 11, 15 }                           -- seamen, land, facility workers a player (T8)
local TURN_CAP = 60

-- The state, made once, reset by each game (seat s, tile t, good i, ship k).
local gold, vp, own, crew, pool, store = {}, {}, {}, {}, {}, {}
local tiles, ntiles = {}, {}                        -- tiles[s]: the kinds of tile seat s owns
local nships, mans, cargo, load_n, port = {}, {}, {}, {}, {}
local bag, line, removed = { 0, 0, 0 }, { 0, 0, 0 }, { 0, 0, 0 }
local ring_seat, home = {}, {}                      -- ring_seat[i]: the port's owner, 0 for a trading post
for s = 1, 8 do
  own[s], crew[s], pool[s], store[s], tiles[s] = {}, {}, {}, {}, {}
  mans[s], cargo[s], load_n[s], port[s] = {}, {}, {}, {}
  for k = 1, 3 do cargo[s][k] = {} end
end
local bids, order, pos, left, scratch, scratch2 = {}, {}, {}, {}, {}, {}
local sellers = {}                                  -- sellers[(port - 1) * NG + good]
local last, stamp = {}, {}                          -- the last seat counted there (O19); its trade
local trades = 0                                    -- trades so far, in every game: the stamps

local function play(random, n)
  local steps, turns = 0, 0
  local function choose(k) steps = steps + 1; return random(k) end

  -- O9: a sheep herding and ship 1, both staffed; 3 gold (O6).
  local sizes = SHIP_SIZES[n]
  for s = 1, n do
    gold[s], vp[s] = 3, 0
    local o, c, p, st = own[s], crew[s], pool[s], store[s]
    for t = 1, NT do o[t], c[t] = 0, 0 end
    o[SHEEP], c[SHEEP] = 1, 1
    tiles[s][1], ntiles[s] = SHEEP, 1
    p[1], p[2], p[3] = 0, 0, 0
    for i = 1, NG do st[i] = 0 end
    nships[s] = 1
    for k = 1, 3 do mans[s][k], load_n[s][k], port[s][k] = 0, 0, 0 end
    mans[s][1] = 1
  end
  local nring
  if n == 2 then                                    -- O2, T1: two trading posts
    nring = 4
    ring_seat[1], ring_seat[2], ring_seat[3], ring_seat[4] = 1, 0, 2, 0
    home[1], home[2] = 1, 3
  else
    nring = n
    for s = 1, n do ring_seat[s], home[s] = s, s end
  end
  for k = 1, 3 do bag[k], line[k], removed[k] = BAG[k] * n, 0, 0 end
  local pirate_line, pirate_holder, pirate_vp, vp_given = false, 0, 0, 0
  local vp_bank, pirate_target, every = 30 * n, 10 * n, PIRATE_EVERY[n]
  local first, keep_token = random(n), true
  local ending = false

  local function give_vp(s, m)                      -- s = 0: the pirate (O24)
    if m <= 0 then return end
    if s == 0 then pirate_vp = pirate_vp + m else vp[s] = vp[s] + m end
    vp_given = vp_given + m
  end

  local function shipping_cost(s, to)               -- O3
    local d = home[s] - to
    if d < 0 then d = -d end
    if nring - d < d then d = nring - d end
    d = d - 1 - crew[s][HARBOR]                     -- one slot: a building's crew is 0 or 1
    return d > 0 and d or 0
  end

  while true do
    -- O11: the token moves, its holder takes 1 gold; the draw.
    turns = turns + 1
    if keep_token then keep_token = false elseif turns > 1 then first = first % n + 1 end
    gold[first] = gold[first] + 1
    local open = 0
    for s = 1, n do
      local o, c, ts = own[s], crew[s], tiles[s]
      for i = 1, ntiles[s] do
        local t = ts[i]
        open = open + o[t] * SLOTS[t] - c[t]
      end
      for k = 1, nships[s] do open = open + 1 - mans[s][k] end
    end
    local need, inbag = open // 2 + n, bag[1] + bag[2] + bag[3]
    if inbag < need then need = inbag; ending = true end      -- O30 (1)
    for _ = 1, need do
      local r = random(bag[1] + bag[2] + bag[3]) - 1            -- weighted by the bag's counts
      local k = 1
      while r >= bag[k] do r = r - bag[k]; k = k + 1 end
      bag[k], line[k] = bag[k] - 1, line[k] + 1
    end
    if turns % every == 0 then pirate_line = true end
    if turns >= TURN_CAP then ending = true end

    -- O12, O13: bids, then picks round the order until the line is empty.
    local items = line[1] + line[2] + line[3] + (pirate_line and 1 or 0)
    if items > 0 then
      for i = 1, n do
        local s = (first + i - 2) % n + 1
        order[i], pos[s] = s, i
        local b = 0
        if gold[s] > 0 then b = choose(gold[s] + 1) - 1 end       -- O32: with 0 gold, not asked
        bids[s] = b
        gold[s] = gold[s] - b
      end
      for i = 2, n do                               -- higher bid first, ties in seat order
        local s, j = order[i], i - 1
        while j >= 1 and (bids[order[j]] < bids[s] or (bids[order[j]] == bids[s] and pos[order[j]] > pos[s])) do
          order[j + 1] = order[j]; j = j - 1
        end
        order[j + 1] = s
      end
      while items > 0 do
        for i = 1, n do
          if items == 0 then break end
          local s = order[i]
          local m = 0
          for k = 1, 3 do if line[k] > 0 then m = m + 1; scratch[m] = k end end
          if pirate_line then m = m + 1; scratch[m] = 0 end
          local k = scratch[m == 1 and 1 or choose(m)]
          if k == 0 then pirate_line, pirate_holder = false, s
          else line[k], pool[s][k] = line[k] - 1, pool[s][k] + 1 end
          items = items - 1
        end
      end
    end

    -- O14: each seat's build order, on its own card.
    for s = 1, n do
      local o, c, p, st, mn, ts = own[s], crew[s], pool[s], store[s], mans[s], tiles[s]
      local g = gold[s]
      -- the acquisition: none, a tile it can pay for and may still hold, the next ship
      local m = 1
      scratch[1] = 0
      for i = 1, NT do
        local t = BY_COST[i]
        if COST[t] > g then break end
        if o[t] < COUNT[t] then m = m + 1; scratch[m] = t end
      end
      local size = sizes[nships[s] + 1]
      if size and size <= g then m = m + 1; scratch[m] = -1 end
      local a = scratch[m == 1 and 1 or choose(m)]
      if a == -1 then
        local k = nships[s] + 1
        nships[s], mn[k], load_n[s][k], port[s][k] = k, 0, 0, 0
        g = g - size
      elseif a > 0 then
        if o[a] == 0 then ntiles[s] = ntiles[s] + 1; ts[ntiles[s]] = a end
        o[a] = o[a] + 1
        g = g - COST[a]
      end
      -- releases: a worker off a staffed tile or ship, or done
      while true do
        m = 0
        for i = 1, ntiles[s] do
          local t = ts[i]
          if c[t] > 0 then m = m + 1; scratch[m] = t end
        end
        for k = 1, nships[s] do if mn[k] > 0 then m = m + 1; scratch[m] = -k end end
        if m == 0 then break end
        local x = choose(m + 1)
        if x > m then break end
        x = scratch[x]
        if x < 0 then mn[-x], p[SEAMAN] = 0, p[SEAMAN] + 1
        else c[x], p[KIND[x]] = c[x] - 1, p[KIND[x]] + 1 end
      end
      -- assignments: a worker onto a tile of his kind with room, a seaman onto a ship
      while true do
        m = 0
        for i = 1, ntiles[s] do
          local t = ts[i]
          if p[KIND[t]] > 0 and c[t] < o[t] * SLOTS[t] then m = m + 1; scratch[m] = t end
        end
        if p[SEAMAN] > 0 then
          for k = 1, nships[s] do if mn[k] == 0 then m = m + 1; scratch[m] = -k end end
        end
        if m == 0 then break end
        local x = choose(m + 1)
        if x > m then break end
        x = scratch[x]
        if x < 0 then mn[-x], p[SEAMAN] = 1, p[SEAMAN] - 1
        else c[x], p[KIND[x]] = c[x] + 1, p[KIND[x]] - 1 end
      end
      -- each manned ship: load goods one at a time, then sail if loaded
      for k = 1, nships[s] do
        if mn[k] > 0 then
          local hold, ld = cargo[s][k], 0
          while ld < sizes[k] do
            m = 0
            for i = 1, NG do if st[i] > 0 then m = m + 1; scratch[m] = i end end
            if m == 0 then break end
            local x = choose(m + 1)
            if x > m then break end
            x = scratch[x]
            st[x], ld = st[x] - 1, ld + 1
            hold[ld] = x
          end
          load_n[s][k] = ld
          if ld > 0 then
            m = 0
            for i = 1, nring - 1 do                 -- O32: from the clockwise neighbour
              local to = (home[s] + i - 1) % nring + 1
              if shipping_cost(s, to) <= g then m = m + 1; scratch2[m] = to end
            end
            local to = scratch2[m == 1 and 1 or choose(m)]
            port[s][k] = to
            g = g - shipping_cost(s, to)
          end
        end
      end
      gold[s] = g
    end

    -- O17: the pirate robs one loaded ship of another seat, or none.
    local robbed_s, robbed_k = 0, 0
    if pirate_holder > 0 then
      local m = 0
      for s = 1, n do
        if s ~= pirate_holder then
          for k = 1, nships[s] do
            if load_n[s][k] > 0 then m = m + 1; scratch[m] = s; scratch2[m] = k end
          end
        end
      end
      local x = m == 0 and 1 or choose(m + 1)
      if x <= m then robbed_s, robbed_k = scratch[x], scratch2[x] end
    end

    -- O18-O22: trade. sellers: the seats selling a good at a port.
    trades = trades + 1
    local now = trades                              -- counts stamped earlier are stale
    for s = 1, n do
      for k = 1, nships[s] do
        local to = port[s][k]
        if to > 0 then
          local hold, base = cargo[s][k], (to - 1) * NG
          for j = 1, load_n[s][k] do
            local i = base + hold[j]
            if stamp[i] ~= now then stamp[i], sellers[i], last[i] = now, 0, 0 end
            if last[i] ~= s then last[i], sellers[i] = s, sellers[i] + 1 end
          end
        end
      end
    end
    for s = 1, n do
      for k = 1, nships[s] do
        local to = port[s][k]
        if to > 0 then
          local hold, base, ld = cargo[s][k], (to - 1) * NG, load_n[s][k]
          local gvp, ggold, single = 0, 0, true
          for j = 1, ld do
            local i = hold[j]
            if i ~= hold[1] then single = false end
            local fg = FG_VP[i]
            if fg then                              -- O19: 1 less for each other seller
              local v = fg - sellers[base + i] + 1
              if v > 0 then gvp = gvp + v end
            else
              local v = RAW_VALUE[i] - sellers[base + i] + 1
              if v > 0 then ggold = ggold + v end
            end
          end
          local bonus = crew[s][TRADE_HOUSE]
          if single and FG_VP[hold[1]] then bonus = bonus + crew[s][GUILD] * ld end
          local owner_vp, owner_gold = gvp + bonus, ggold
          if s == robbed_s and k == robbed_k then   -- O21: the whole yield
            give_vp(0, gvp + bonus)
            owner_vp, owner_gold = 0, 0
          end
          give_vp(s, owner_vp)
          gold[s] = gold[s] + owner_gold
          local owner = ring_seat[to]
          if owner > 0 then give_vp(owner, crew[owner][PIER]) end   -- O22
          port[s][k], load_n[s][k] = 0, 0
        end
        load_n[s][k] = 0
      end
    end
    pirate_holder = 0
    if pirate_vp >= pirate_target or vp_given >= vp_bank then ending = true end   -- O30 (2), (3)

    -- O23: the limit check; seamen go first, then land, then facility workers.
    for s = 1, n do
      local p = pool[s]
      local extra = p[1] + p[2] + p[3] - (crew[s][TAVERN] > 0 and 3 or 1)
      for k = 1, 3 do
        if extra <= 0 then break end
        local x = extra < p[k] and extra or p[k]
        if x > 0 then p[k], removed[k], extra = p[k] - x, removed[k] + x, extra - x end
      end
    end

    -- O25-O29: production, finished goods first.
    for s = 1, n do
      local c, st = crew[s], store[s]
      local houses = c[DYE_HOUSE] + c[LARGE_DYE_HOUSE]
      local cap = 2 * houses + (c[MORDANT] > 0 and houses or 0)
      local dyes = st[3] + st[4] + st[5] + st[6] + st[7]
      local make = cap
      if st[CLOTH] < make then make = st[CLOTH] end
      if dyes < make then make = dyes end
      left[s] = make
    end
    local function flip(st, col)
      st[2 + col], st[7 + col], st[CLOTH] = st[2 + col] - 1, st[7 + col] + 1, st[CLOTH] - 1
    end
    while true do                                   -- O33: the colours, a round at a time
      local asked = false
      for s = 1, n do
        local st = store[s]
        while left[s] > 0 do
          local m = 0
          for col = 1, 5 do if st[2 + col] > 0 then m = m + 1; scratch[m] = col end end
          if left[s] < st[3] + st[4] + st[5] + st[6] + st[7] and m > 1 then
            flip(st, scratch[choose(m)])              -- a real choice: one a round
            left[s] = left[s] - 1
            asked = true
            break
          end
          flip(st, scratch[m])                      -- forced: the most valuable first
          left[s] = left[s] - 1
        end
      end
      if not asked then break end
    end
    for col = 1, 5 do                               -- O27: dyes
      local plant, mill = PLANTATION[col], EXTRACT[col]
      for s = 1, n do
        local c = crew[s]
        local cap = c[plant]
        if cap > 0 then
          if mill > 0 then cap = cap + c[mill] end
          local st = store[s]
          local room = DYE_TOKENS[col] - st[2 + col] - st[7 + col]
          if room < cap then cap = room end
          if cap > 0 then st[2 + col] = st[2 + col] + cap end
        end
      end
    end
    for s = 1, n do                                 -- O28: cloth, O29: wool
      local c, st = crew[s], store[s]
      local cap = c[STRAP] + 4 * c[POWER] + c[WARP]
      if st[WOOL] < cap then cap = st[WOOL] end
      st[WOOL], st[CLOTH] = st[WOOL] - cap, st[CLOTH] + cap
      local sheep = c[SHEEP]
      if sheep > 0 then
        cap = sheep + c[SHED] + c[FULLING] + c[SHEARS] * sheep
        local room = WOOL_TOKENS - st[WOOL] - st[CLOTH]
        if room < cap then cap = room end
        if cap > 0 then st[WOOL] = st[WOOL] + cap end
      end
    end
    pirate_line = false
    if ending then break end
  end
  local scores = {}
  for s = 1, n do scores[s] = vp[s] end
  return turns, steps, scores
end

return { old_world = play }
