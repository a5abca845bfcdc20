-- frontend_describe_spec.lua: docs/protocol.md tells a front end that
-- every rule set that comes with Kontor describes its options (each
-- option's "description"): every option offered in games of each rule set,
-- variant and option that changes the decisions has one.

local kontor = require "kontor"
local notes_of = require "kontor.describe"

-- The options without a description met in `games` games (the same
-- choices every run), as "decision: option" with numbers as N.
local function undescribed(rules, variants, options, games)
  local missing, list = {}, {}
  for i = 1, games do
    local g = kontor.new_game { rules = rules, variants = variants, players = 3, seed = i, options = options }
    local n = 0
    while not g:over() and n < 3000 do
      local who = g:who()
      local s = type(who) == "table" and who[1] or who
      local opts = g:options(s)
      local notes = notes_of.options(g, s)
      for k, o in ipairs(opts) do
        local key = notes_of.decision_name(g, s) .. ": " .. o:gsub("%d+", "N")
        if not notes[k] and not missing[key] then missing[key] = true; list[#list + 1] = key end
      end
      assert(g:apply((n * 7919 + i) % #opts + 1, s))
      n = n + 1
    end
  end
  table.sort(list)
  return list
end

describe("every option of the rule sets that come with Kontor has a description", function()
  -- Before: Sea Merchants' "exchange ship N" (which ship: not what it
  -- carries) and "no dock exchange", Old World's "done" at each step of
  -- the build order and, with production_optional, every "make N ...".
  for i, case in ipairs {
    { "sea_merchants", {} }, { "sea_merchants", { "house" } },
    { "sea_merchants", { "snake_draft", "house_specials", "delivered_payout" } },
    { "caribbean", {} }, { "caribbean", { "port_royal" } },
    { "old_world", {} }, { "old_world", {}, { ship_is_acquisition = false, forced_placement = true } },
    { "old_world", {}, { production_optional = true, secret_build = "two_rounds", buildings_24 = true } },
  } do
    local rules, variants, options = table.unpack(case)
    local label = rules .. (variants[1] and (" + " .. table.concat(variants, " + ")) or "")
    for k, v in pairs(options or {}) do label = label .. " " .. k .. "=" .. tostring(v) end
    -- (the quick loop checks the first; make test every one)
    it(label .. (i > 1 and " #slow" or ""), function()
      assert.are.same({}, undescribed(rules, variants, options, 2))
    end)
  end

  it("the words: which ship an exchange takes, what done ends, how much may be made", function()
    local g = kontor.new_game { rules = "sea_merchants", players = 2, seed = 3 }
    for _ = 1, 4 do assert(g:apply(1)) end
    assert(g:apply("exchange"))
    assert.are.same({ "ship 1 carries grain: it goes back to the pool for another product (S6)",
      "ship 2 carries grain: it goes back to the pool for another product (S6)" }, notes_of.options(g, 1))
    local ow = kontor.new_game { rules = "old_world", players = 2, seed = 5 }
    assert(ow:apply("bid 2", 1)); assert(ow:apply("bid 1", 2)); assert(ow:apply("acquire none", 1))
    assert.are.same({ "release sheep_herding", "release ship 1", "done" }, ow:options(1))
    assert.are.equal("release no more workers (O14b)", notes_of.options(ow, 1)[3])
  end)
end)
