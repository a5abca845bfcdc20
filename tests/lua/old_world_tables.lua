-- tests/lua/old_world_tables.lua: the tables of docs/rules/old_world.md,
-- made from the rule set's own data (R.data, R.tile_effect, R.rules.price):
-- describe_spec checks that the doc holds exactly this text, so every
-- number there is one the game uses.
--   local text = dofile("tests/lua/old_world_tables.lua")(kontor.load_rules("old_world"))

return function(R)
  local d = R.data
  local out = {}
  local function add(s) out[#out + 1] = s end
  local function row(cells) add("| " .. table.concat(cells, " | ") .. " |") end

  add("### T4: lands (`acquire land:ID`, a land worker each)")
  add("")
  row { "land", "id", "board", "cost", "most a player owns", "while staffed" }
  row { "---", "---", "---", "---", "---", "---" }
  for _, t in ipairs(d.lands) do
    row { t.name, "`" .. t.id .. "`", "`" .. R.board_abbrev(t.id) .. "`", t.cost .. " gold", tostring(t.count), R.tile_effect(t.id) }
  end
  for _, part in ipairs { { "T5: buildings (`acquire building:ID`, facility workers)", d.buildings },
      { "T7: the invented buildings (option `buildings_24`)", d.buildings_24 } } do
    add("")
    add("### " .. part[1])
    add("")
    row { "building", "id", "board", "cost", "slots", "while staffed" }
    row { "---", "---", "---", "---", "---", "---" }
    for _, t in ipairs(part[2]) do
      row { t.name, "`" .. t.id .. "`", "`" .. R.board_abbrev(t.id) .. "`", t.cost .. " gold", tostring(t.slots), R.tile_effect(t.id) }
    end
  end
  add("")
  add("### T3: ships (`acquire ship`: the next one, " .. d.ship_cost_per_slot .. " gold per slot of its hold)")
  add("")
  row { "players", "ship 1", "ship 2", "ship 3" }
  row { "---", "---", "---", "---" }
  for n = 2, 8 do
    local c = { tostring(n) }
    for k = 1, 3 do
      local size = d.ships[n][k]
      c[k + 1] = size and ("holds %d, %d gold"):format(size, size * d.ship_cost_per_slot) or "-"
    end
    row(c)
  end
  add("")
  add("Ship 1 comes with the setup (O9), manned.")
  add("")
  add("### T1: ports")
  add("")
  add("With N players (3 to 8) the ring is the first N ports, seat i at the i-th: "
    .. table.concat(d.ports, ", ") .. ". With 2 players: ")
  local two = {}
  for _, e in ipairs(d.two_player_ring) do
    two[#two + 1] = e[2] and ("%s (seat %d)"):format(e[1], e[2]) or (e[1] .. " (trading post)")
  end
  out[#out] = out[#out] .. table.concat(two, ", ") .. "."
  add("Sailing to a port at ring distance d (the shorter way round) costs d - 1 gold (O3), 1 less")
  add("with a staffed Deep Harbor, never below 0. A port's owner gains the Pier's VP (O22) and the")
  add("Lighthouse's gold (T7) for every ship that sells there.")
  add("")
  add("### T2: what a unit sells for at a port (O19, O20)")
  add("")
  add("A unit is worth its value less 1 for each other player selling the same good at the same port.")
  add("")
  row { "good", "pays", "sold there by 1 player", "2 players", "3 players" }
  row { "---", "---", "---", "---", "---" }
  local goods = { { "wool", d.wool_value, "gold" }, { "cloth", d.cloth_value, "gold" } }
  for _, c in ipairs(d.colours) do goods[#goods + 1] = { "dye:" .. c, d.dye_value[c], "gold" } end
  for _, c in ipairs(d.colours) do goods[#goods + 1] = { "fg:" .. c, d.fg_value[c], "VP" } end
  for _, gd in ipairs(goods) do
    row { "`" .. gd[1] .. "`", gd[3], tostring(R.rules.price(gd[2], 1)), tostring(R.rules.price(gd[2], 2)),
          tostring(R.rules.price(gd[2], 3)) }
  end
  add("")
  add("### T6, T8, T9: tokens, the worker bag, the pirate")
  add("")
  local dyes = {}
  for _, c in ipairs(d.colours) do dyes[#dyes + 1] = ("%s %d"):format(c, d.dye_tokens[c]) end
  add(("- Tokens (O5): wool and cloth together %d; each colour's dyes and finished goods together: %s.")
    :format(d.wool_tokens, table.concat(dyes, ", ")))
  local bag = {}
  for _, k in ipairs(d.kinds) do bag[#bag + 1] = ("%d %s"):format(d.bag_per_player[k], (d.kind_words[k] .. "s"):gsub("mans$", "men")) end
  local start = {}
  for _, k in ipairs(d.kinds) do
    if d.start_workers[k] then start[#start + 1] = ("%d %s"):format(d.start_workers[k], d.kind_words[k]) end
  end
  add(("- The bag (O7): per player %s; each player starts with %s besides.")
    :format(table.concat(bag, ", "), table.concat(start, " and ")))
  local every = {}
  for n = 2, 8 do every[#every + 1] = ("%d players every %d"):format(n, d.pirate_every[n]) end
  add(("- The pirate joins the line on turns k, 2k, ... (O11): %s; the game ends once the pirate has %d VP per player (O30).")
    :format(table.concat(every, ", "), d.pirate_target_per_player))
  add(("- Gold: %d each at the start (O6), +%d for the first player token's holder each turn (O11).")
    :format(d.start_gold, d.first_player_gold))
  return table.concat(out, "\n") .. "\n"
end
