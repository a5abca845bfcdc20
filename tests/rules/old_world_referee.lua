-- An independent referee for Merchants of the Old World (a variant for
-- tests/rules/old_world_audit_spec.lua): it wraps the rules a variant may
-- replace (R.rules) and recomputes what each did from the rulebook's
-- tables, written out again here (T2-T5, T7), and from the rulings, not
-- from the script's own data or helpers: the token and its gold (O11),
-- the draw (O11, O30), the pick order (O12), the reveal's costs, workers,
-- cargo and ports (O3, O14-O16, T3), the trade (O19-O22), the limit check
-- (O23) and production (O26-O29). Any disagreement is an error naming the
-- check, the value expected and the one found. A referee that checked
-- nothing would pass too, so the audit made it disagree on purpose (a VP
-- too many at the trade, a wool too many) and saw it fail.

local LAND = { sheep_herding = { 1, 5 }, woad_plantation = { 1, 3 }, madder_plantation = { 1, 2 },
  weld_plantation = { 2, 2 }, walnut_plantation = { 2, 2 }, iron_plantation = { 2, 1 } }
local BUILD = { shearing_shed = 1, fulling_mill = 2, machine_shears = 7, back_strap_loom = 1,
  warp_weighted_loom = 3, power_loom = 8, walnut_extract_mill = 4, ironworks = 5, dye_house = 1,
  large_dye_house = 4, mordant_bath = 4, deep_harbor = 3, pier = 7, tavern = 3, trade_house = 8, guild_hall = 7,
  lodge = 5, woad_vat = 2, madder_mill = 3, weld_press = 3, wool_store = 4, dye_cellar = 4, customs_house = 5, lighthouse = 5 }
local SLOTS = { warp_weighted_loom = 3, walnut_extract_mill = 2, ironworks = 2, large_dye_house = 2,
  woad_vat = 2, madder_mill = 2, weld_press = 2 }
local RAW = { wool = 1, cloth = 2, ["dye:blue"] = 1, ["dye:red"] = 1, ["dye:yellow"] = 1, ["dye:brown"] = 2, ["dye:black"] = 2 }
local FG = { ["fg:blue"] = 1, ["fg:red"] = 2, ["fg:yellow"] = 3, ["fg:brown"] = 4, ["fg:black"] = 5 }
local TOKENS = { blue = 6, red = 4, yellow = 4, brown = 4, black = 2 }
local PLANT = { blue = "woad_plantation", red = "madder_plantation", yellow = "weld_plantation",
  brown = "walnut_plantation", black = "iron_plantation" }
local COLOURS = { "blue", "red", "yellow", "brown", "black" }
local SHIPS = { [2] = { 3, 4 }, [3] = { 3, 5 }, [4] = { 3, 4, 4 }, [5] = { 3, 4, 5 }, [6] = { 3, 5, 5 },
  [7] = { 4, 4, 5 }, [8] = { 4, 5, 5 } }

local function crew(card, id) return card.crew[id] or 0 end
local function on(card, id) return crew(card, id) > 0 end
local function fail(fmt, ...) error("referee: " .. string.format(fmt, ...), 0) end
local function copy(t)
  if type(t) ~= "table" then return t end
  local c = {}
  for k, v in pairs(t) do c[k] = copy(v) end
  return c
end
local function check(what, want, got)
  if want ~= got then fail("%s: expected %s, got %s", what, tostring(want), tostring(got)) end
end

local PORTS = { venice = 1, genoa = 2, marseille = 3, barcelona = 4, tunis = 5, alexandria = 6,
  constantinople = 7, athens = 8 }                                        -- O2's order
local function dist(g, a, b)
  local n = #g.ring
  if g.options.map == "fixed" then n, a, b = 8, PORTS[g.ring[a].port], PORTS[g.ring[b].port] end
  local d = math.abs(a - b)
  return math.min(d, n - d)
end

return {
  variant = true, name = "old_world_referee", base = "old_world",
  summary = "checks every phase against the rulebook's tables and the rulings (tests only)",
  apply = function(R)
    local orig = {}
    for k, f in pairs(R.rules) do orig[k] = f end

    R.rules.pick_order = function(g, bids)
      local got = orig.pick_order(g, bids)
      -- O12: higher bid first; ties clockwise from the token
      local seats = {}
      for i = 0, g.players - 1 do seats[#seats + 1] = (g.first - 1 + i) % g.players + 1 end
      local want = {}
      for b = 1000, 0, -1 do
        for _, s in ipairs(seats) do if bids[s] == b then want[#want + 1] = s end end
      end
      for i = 1, g.players do check("pick order " .. i, want[i], got[i]) end
      return got
    end

    R.rules.move_token = function(g)
      local before, first, keep = {}, g.first, g.keep_token
      for s = 1, g.players do before[s] = g.gold:get(s) end
      orig.move_token(g)
      local want = (keep or g.turn == 1) and first or first % g.players + 1
      check("token", want, g.first)
      for s = 1, g.players do check("token gold " .. s, before[s] + (s == want and g.options.first_player_gold or 0), g.gold:get(s)) end
    end

    R.rules.draw = function(g)
      local open = 0
      for s = 1, g.players do
        local c = g.card[s]
        for id, n in pairs(c.own) do open = open + n * (LAND[id] and 1 or (SLOTS[id] or 1)) - crew(c, id) end
        for _, sh in ipairs(c.ships) do open = open + 1 - sh.crew end
      end
      local bag = g.bag.seaman + g.bag.land + g.bag.facility
      local need = open // 2 + g.players
      local line0 = g.line.seaman + g.line.land + g.line.facility
      orig.draw(g)
      local drawn = g.line.seaman + g.line.land + g.line.facility - line0
      check("drawn", math.min(need, bag), drawn)
      if bag < need then check("ending bag", "bag", g.ending) end
    end

    R.rules.reveal = function(g, orders)
      local before = {}
      for s = 1, g.players do
        before[s] = { card = copy(g.card[s]), gold = g.gold:get(s), arrived = g.arriving and g.arriving[s] }
      end
      orig.reveal(g, orders)
      for s = 1, g.players do
        local b, c = before[s].card, g.card[s]
        local cost, acquired = 0, 0
        for id, n in pairs(c.own) do
          local d = n - (b.own[id] or 0)
          if d < 0 then fail("seat %d lost %s", s, id) end
          if d > 0 then
            acquired = acquired + d
            cost = cost + d * (LAND[id] and LAND[id][1] or BUILD[id])
            if LAND[id] and n > LAND[id][2] then fail("seat %d: %d %s", s, n, id) end
            if BUILD[id] and n > 1 then fail("seat %d: %d %s", s, n, id) end
            if g.options.extract_mill_needs == "build" then
              local need = ({ walnut_extract_mill = "walnut_plantation", ironworks = "iron_plantation", woad_vat = "woad_plantation",
                madder_mill = "madder_plantation", weld_press = "weld_plantation" })[id]
              if need and not b.own[need] then fail("seat %d built %s without %s", s, id, need) end
            end
          end
        end
        local new_ships = #c.ships - #b.ships
        for k = #b.ships + 1, #c.ships do
          check("ship size", SHIPS[g.players][k], c.ships[k].size)
          cost = cost + c.ships[k].size
        end
        local arriving = g.arriving and g.arriving[s]
        if arriving == before[s].arrived then arriving = nil end          -- an earlier reveal's (two rounds)
        for _, id in ipairs(arriving or {}) do                            -- placed at the turn's end
          if id == "ship" then
            cost, new_ships = cost + SHIPS[g.players][#c.ships + 1], new_ships + 1
          else
            cost, acquired = cost + (LAND[id] and LAND[id][1] or BUILD[id]), acquired + 1
          end
        end
        if g.options.ship_is_acquisition then
          if acquired + new_ships > 1 then fail("seat %d acquired %d", s, acquired + new_ships) end
        elseif acquired > 1 or new_ships > 1 then fail("seat %d acquired %d + %d ships", s, acquired, new_ships) end
        -- workers: each kind conserved between pool and slots
        local function count(card, kind)
          local n = card.pool[kind]
          if kind == "seaman" then for _, sh in ipairs(card.ships) do n = n + sh.crew end
          else
            for id, w in pairs(card.crew) do
              if (LAND[id] and "land" or "facility") == kind then n = n + w end
            end
          end
          return n
        end
        for _, kind in ipairs { "seaman", "land", "facility" } do check("workers " .. kind, count(b, kind), count(c, kind)) end
        for id, w in pairs(c.crew) do
          if w > (c.own[id] or 0) * (LAND[id] and 1 or (SLOTS[id] or 1)) then fail("overstaffed %s", id) end
        end
        -- ships: loaded only with a seaman, to a port not its own, within size; goods from storage
        local harbor = on(c, "deep_harbor") and 1 or 0
        local moved = {}
        for k, sh in ipairs(c.ships) do
          if #sh.cargo > 0 then
            if sh.crew == 0 then fail("seat %d ship %d loaded without seaman", s, k) end
            if #sh.cargo > sh.size then fail("overloaded") end
            if not sh.port or sh.port == g.home[s] then fail("seat %d ship %d port %s", s, k, tostring(sh.port)) end
            cost = cost + math.max(0, dist(g, g.home[s], sh.port) - 1 - harbor)
            for _, x in ipairs(sh.cargo) do moved[x] = (moved[x] or 0) + 1 end
          elseif sh.port then fail("empty ship sails") end
        end
        for good, n in pairs(b.store) do check("store " .. good, n - (moved[good] or 0), c.store[good]) end
        check("gold paid seat " .. s, before[s].gold - cost, g.gold:get(s))
      end
    end

    R.rules.trade = function(g)
      local vp, gold, pvp = {}, {}, g.pirate_vp
      for s = 1, g.players do vp[s], gold[s] = g.vp:get(s), g.gold:get(s) end
      local sellers = {}
      for s = 1, g.players do
        for _, sh in ipairs(g.card[s].ships) do
          if sh.port then
            sellers[sh.port] = sellers[sh.port] or {}
            for _, x in ipairs(sh.cargo) do
              sellers[sh.port][x] = sellers[sh.port][x] or {}
              sellers[sh.port][x][s] = true
            end
          end
        end
      end
      local function k(port, x) local n = 0; for _ in pairs(sellers[port][x]) do n = n + 1 end; return n end
      local robbed = g.robbed
      local want_vp, want_gold, want_p = {}, {}, pvp
      for s = 1, g.players do want_vp[s], want_gold[s] = vp[s], gold[s] end
      for s = 1, g.players do
        local c = g.card[s]
        for i, sh in ipairs(c.ships) do
          if sh.port then
            local v, gd, single = 0, 0, true
            for _, x in ipairs(sh.cargo) do
              if x ~= sh.cargo[1] then single = false end
              local val = FG[x] or (g.options.raw_gold == "flat" and 1 or RAW[x])
              val = math.max(0, val - (k(sh.port, x) - 1))
              if FG[x] then v = v + val else gd = gd + val + (on(c, "customs_house") and 1 or 0) end
            end
            local bonus = 0
            if single and FG[sh.cargo[1]] and on(c, "guild_hall") then bonus = bonus + #sh.cargo end
            if on(c, "trade_house") then bonus = bonus + 1 end
            if robbed and robbed[1] == s and robbed[2] == i then
              if g.options.pirate_takes == "goods" then want_p = want_p + v; want_vp[s] = want_vp[s] + bonus
              else want_p = want_p + v + bonus end
            else
              want_vp[s], want_gold[s] = want_vp[s] + v + bonus, want_gold[s] + gd
            end
            local owner = g.ring[sh.port].seat
            if owner and on(g.card[owner], "pier") then want_vp[owner] = want_vp[owner] + 1 end
            if owner and on(g.card[owner], "lighthouse") then want_gold[owner] = want_gold[owner] + 1 end
          end
        end
      end
      orig.trade(g)
      for s = 1, g.players do
        check("trade vp " .. s, want_vp[s], g.vp:get(s))
        check("trade gold " .. s, want_gold[s], g.gold:get(s))
        for _, sh in ipairs(g.card[s].ships) do if #sh.cargo > 0 or sh.port then fail("cargo stays") end end
      end
      check("pirate vp", want_p, g.pirate_vp)
      if g.pirate_vp >= 10 * g.players and not g.ending then fail("pirate end missing") end
    end

    R.rules.limit_check = function(g)
      local want = {}
      for s = 1, g.players do
        local c = g.card[s]
        local keep = on(c, "tavern") and 3 or 1
        if on(c, "lodge") then keep = 5 end
        local p = { seaman = c.pool.seaman, land = c.pool.land, facility = c.pool.facility }
        local extra = p.seaman + p.land + p.facility - keep
        for _, kind in ipairs { "seaman", "land", "facility" } do
          local n = math.max(0, math.min(extra, p[kind]))
          p[kind], extra = p[kind] - n, extra - n
        end
        want[s] = p
      end
      orig.limit_check(g)
      for s = 1, g.players do
        for kind, n in pairs(want[s]) do check("pool " .. kind .. " seat " .. s, n, g.card[s].pool[kind]) end
      end
    end

    local function snap(g)
      local t = {}
      for s = 1, g.players do t[s] = copy(g.card[s].store) end
      return t
    end

    R.rules.finished_goods = function(g)
      local b = snap(g)
      orig.finished_goods(g)
      if g.options.production_optional then return end
      for s = 1, g.players do
        local c, st = g.card[s], g.card[s].store
        local cap = 2 * (crew(c, "dye_house") + crew(c, "large_dye_house"))
        if on(c, "mordant_bath") then cap = cap + crew(c, "dye_house") + crew(c, "large_dye_house") end
        local dyes = 0
        for _, col in ipairs(COLOURS) do dyes = dyes + b[s]["dye:" .. col] end
        local n = math.min(cap, b[s].cloth, dyes)
        check("fg cloth " .. s, b[s].cloth - n, st.cloth)
        local made = 0
        for _, col in ipairs(COLOURS) do
          local d = b[s]["dye:" .. col] - st["dye:" .. col]
          check("fg flip " .. col, d, st["fg:" .. col] - b[s]["fg:" .. col])
          made = made + d
        end
        check("fg made " .. s, n, made)
        if g.options.fg_colours == "auto" then
          -- most valuable first
          local left = n
          for i = 5, 1, -1 do
            local col = COLOURS[i]
            local m = math.min(left, b[s]["dye:" .. col])
            check("auto " .. col, b[s]["dye:" .. col] - m, st["dye:" .. col])
            left = left - m
          end
        end
      end
    end

    R.rules.dyes = function(g)
      local b = snap(g)
      orig.dyes(g)
      if g.options.production_optional then return end
      for s = 1, g.players do
        local c, st = g.card[s], g.card[s].store
        for _, col in ipairs(COLOURS) do
          local cap = crew(c, PLANT[col])
          local needs = g.options.extract_mill_needs
          local works = (needs == "staffed" and cap > 0) or (needs == "owned" and (c.own[PLANT[col]] or 0) > 0) or needs == "build"
          if works then
            if col == "brown" then cap = cap + crew(c, "walnut_extract_mill") end
            if col == "black" then cap = cap + crew(c, "ironworks") end
            if col == "blue" then cap = cap + crew(c, "woad_vat") end
            if col == "red" then cap = cap + crew(c, "madder_mill") end
            if col == "yellow" then cap = cap + crew(c, "weld_press") end
          end
          local limit = TOKENS[col] + (on(c, "dye_cellar") and 2 or 0)
          local n = math.max(0, math.min(cap, limit - b[s]["dye:" .. col] - b[s]["fg:" .. col]))
          check("dye " .. col .. " seat " .. s, b[s]["dye:" .. col] + n, st["dye:" .. col])
        end
      end
    end

    R.rules.cloth = function(g)
      local b = snap(g)
      orig.cloth(g)
      if g.options.production_optional then return end
      for s = 1, g.players do
        local c, st = g.card[s], g.card[s].store
        local cap = (on(c, "back_strap_loom") and 1 or 0) + crew(c, "warp_weighted_loom") + (on(c, "power_loom") and 4 or 0)
        local n = math.min(cap, b[s].wool)
        check("cloth " .. s, b[s].cloth + n, st.cloth)
        check("cloth wool " .. s, b[s].wool - n, st.wool)
      end
    end

    R.rules.wool = function(g)
      local b = snap(g)
      orig.wool(g)
      if g.options.production_optional then return end
      for s = 1, g.players do
        local c, st = g.card[s], g.card[s].store
        local sheep = crew(c, "sheep_herding")
        local cap = 0
        if sheep > 0 then
          cap = sheep + (on(c, "shearing_shed") and 1 or 0) + (on(c, "fulling_mill") and 1 or 0)
            + (on(c, "machine_shears") and sheep or 0)
        end
        local limit = 10 + (on(c, "wool_store") and 5 or 0)
        local n = math.max(0, math.min(cap, limit - b[s].wool - b[s].cloth))
        check("wool " .. s, b[s].wool + n, st.wool)
      end
    end
  end,
}
