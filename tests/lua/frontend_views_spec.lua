-- frontend_views_spec.lua: a front end draws a seat's screen from
-- g:view(seat) (serve's "view" data) by the fields the rule set's page
-- documents (docs/rules/<rules>.md, "Views"): every field a view has is
-- documented there, and every documented field comes in some view.

local kontor = require "kontor"

-- engine fields of every view (docs/api.md, g:view)
local ENGINE = { seat = true, turn = true, active = true, to_move = true }

-- The paragraph that starts "`R.view(g, seat)`:" of a rule set's page.
local function views_paragraph(rules)
  local f = assert(io.open("docs/rules/" .. rules .. ".md"))
  local text = f:read("a")
  f:close()
  local at = assert(text:find("## Views\n", 1, true), rules .. ".md has no Views section")
  local start = assert(text:find("`R.view(g, seat)`:", at, true))
  return text:sub(start + #"`R.view(g, seat)`:", (text:find("\n\n", start, true)))
end

-- The fields of `{a, b (words, more), c}`: the first word of each item.
local function fields_of(list)
  local out, depth, item = {}, 0, ""
  local function flush()
    local w = item:match("^%s*([%a_][%w_]*)")
    if w then out[w] = true end
    item = ""
  end
  for c in list:gmatch(".") do
    if c == "(" then depth = depth + 1 elseif c == ")" then depth = depth - 1 end
    if c == "," and depth == 0 then flush() else item = item .. c end
  end
  flush()
  return out
end

-- What the page documents: the top-level fields (names in backticks
-- outside parentheses, in the sentence of `players[i]`), and the fields
-- of each "`name` = `{...}`" (players[i], and Old World's ships[k], order).
local function documented(rules)
  local p = views_paragraph(rules)
  local shapes = {}
  for name, list in p:gmatch("`([%w_]+)%[?%a?%]?` = `{(.-)}`") do shapes[name] = fields_of(list) end
  local pl = assert(p:find("`players[i]`", 1, true))
  local sentence = p:sub(1, (p:find("%.%s", pl)))
  sentence = sentence:gsub("`{.-}`", ""):gsub("%b()", "")
  local top = {}
  for w in sentence:gmatch("`([%a_][%w_]*)`") do top[w] = true end
  top.players = true
  return top, shapes
end

local function keys(t)
  local out = {}
  for k in pairs(t) do out[#out + 1] = k end
  table.sort(out)
  return out
end

-- Plays `games` random games (the same every run) and gathers the keys
-- every seat's view had at every decision.
local function seen_in(rules, variants, players, options, games)
  local top, player, nested = {}, {}, { ships = {}, order = {} }
  for i = 1, games do
    local g = kontor.new_game { rules = rules, variants = variants, players = players, seed = i, options = options,
      quiet = true }
    local n = 0
    while not g:over() and n < 4000 do
      for s = 1, players do
        local v = g:view(s)
        for k in pairs(v) do top[k] = true end
        for _, p in ipairs(v.players) do
          for k in pairs(p) do player[k] = true end
          for _, ship in ipairs(type(p.ships) == "table" and p.ships or {}) do
            if type(ship) == "table" then for k in pairs(ship) do nested.ships[k] = true end end
          end
          for k in pairs(type(p.order) == "table" and p.order or {}) do nested.order[k] = true end
        end
      end
      local who = g:who()
      local s = type(who) == "table" and who[1] or who
      local opts = g:options(s)
      assert(g:apply((n * 7919 + i) % #opts + 1, s))   -- the same choices every run
      n = n + 1
    end
  end
  return top, player, nested
end

local function undocumented(seen, doc)
  local out = {}
  for _, k in ipairs(keys(seen)) do if not doc[k] and not ENGINE[k] then out[#out + 1] = k end end
  return out
end

local function never_seen(doc, seen)
  local out = {}
  for _, k in ipairs(keys(doc)) do if not seen[k] then out[#out + 1] = k end end
  return out
end

describe("a seat's view has the fields its rule set's page documents", function()
  for i, case in ipairs {
    { "sea_merchants", {}, 3, {} }, { "sea_merchants", { "house" }, 4, {} },
    { "caribbean", {}, 3, {} }, { "caribbean", { "port_royal" }, 4, {} },
    { "old_world", {}, 2, {} }, { "old_world", {}, 5, { new_tiles_work_this_turn = false } },
  } do
    local rules, variants, players, options = table.unpack(case)
    local label = rules .. (variants[1] and (" + " .. variants[1]) or "") .. ", " .. players .. " players"
    -- Before: docs/rules/old_world.md had no Views section at all: a front
    -- end had 23 top-level and 12 players[i] fields to guess.
    -- (the quick loop checks the first; make test every one)
    it(label .. ": no field the page leaves out" .. (i > 1 and " #slow" or ""), function()
      local top_doc, shapes = documented(rules)
      local top, player, nested = seen_in(rules, variants, players, options, 2)
      assert.are.same({}, undocumented(top, top_doc))
      assert.are.same({}, undocumented(player, shapes.players))
      if rules == "old_world" then
        assert.are.same({}, undocumented(nested.ships, shapes.ships))
        assert.are.same({}, undocumented(nested.order, shapes.order))
      end
    end)
  end

  it("every field the pages document comes in some view", function()
    for _, rules in ipairs { "sea_merchants", "caribbean", "old_world" } do
      local top_doc, shapes = documented(rules)
      local options = rules == "old_world" and { new_tiles_work_this_turn = false } or {}
      local top, player, nested = seen_in(rules, {}, 3, options, 2)
      assert.are.same({}, never_seen(top_doc, top))
      assert.are.same({}, never_seen(shapes.players, player))
      if rules == "old_world" then
        assert.are.same({}, never_seen(shapes.ships, nested.ships))
        assert.are.same({}, never_seen(shapes.order, nested.order))
      end
    end
  end)
end)
