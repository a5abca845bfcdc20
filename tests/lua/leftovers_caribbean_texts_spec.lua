-- leftovers_caribbean_texts_spec.lua - Caribbean's (and Port Royal's)
-- board and option texts read as English for 0, 1 and many: the harbour
-- line counts its ships ("Harbour: Flute 2/2 | Priest 4/1 (1 ship)", not
-- "Harbour (1 ship name): ..."), a player has "1 coin", "1 sword", a skill
-- "+1 take each turn" (docs/rules/caribbean.md, "Views").
local kontor = require "kontor"
local describe_ = require "kontor.describe"

local NAMES = { "Alex", "Bea" }
local FILLER = { "Pinnace 1/1", "Flute 1/1", "Skiff 1/1", "Frigate 1/1", "Galleon 2/1" }

local function board(harbour, variants)
  local g = kontor.new_game { rules = "caribbean", variants = variants, players = 2, seed = 1, names = NAMES,
    scenario = { phase = "discover", revealing = #harbour == 0 or nil, harbour = harbour, deck = FILLER,
                 coins = { 1, 2 }, displays = { { "Sailor 3/1" } } } }
  return g:show()
end

-- "1 cards", "1 ships", "2 card", "0 coin": a count and a noun that disagree.
local NOUNS = { "card", "coin", "ship", "sword", "take", "name" }
local function slips(text)
  local out = {}
  text = text:gsub("Player %d+", "Player")       -- a seat's name, not a count ("Player 1 takes nothing")
  for n, w in text:gmatch("%f[%w](%d+) (%a+)") do
    for _, noun in ipairs(NOUNS) do
      if (n == "1" and w == noun .. "s") or (n ~= "1" and w == noun) then out[#out + 1] = n .. " " .. w end
    end
  end
  return out
end

describe("Caribbean's board", function()
  it("counts the harbour's ships for none, one and more", function()
    assert.truthy(board({}):find("\nHarbour: empty\n", 1, true))
    assert.truthy(board({ "Priest 4/1" }):find("\nHarbour: Priest 4/1 (no ship)\n", 1, true))
    assert.truthy(board({ "Flute 2/2", "Priest 4/1" }):find("\nHarbour: Flute 2/2 | Priest 4/1 (1 ship)\n", 1, true))
    assert.truthy(board({ "Pinnace 4/3", "Skiff 1/1" }, { "port_royal" })
      :find("\nHarbour: Pinnace 4/3 | Skiff 1/1 (2 ships)\n", 1, true))
  end)

  it("says 1 coin and 1 sword", function()
    local b = board({ "Priest 4/1" })
    assert.truthy(b:find("* Alex: 1 coin, 1 influence, 1 sword; persons: Sailor 3/1", 1, true), b)
    assert.truthy(b:find("  Bea: 2 coins, 0 influence, 0 swords; persons: none", 1, true), b)
  end)

  it("a person's skill, a refusal and a skipped repel agree with their counts", function()
    local g = kontor.new_game { rules = "caribbean", players = 2, seed = 1, names = NAMES,
      scenario = { phase = "loot", harbour = { "Governor 8/0", "Jester 7/2", "Admiral 9/3", "Flute 1/1" },
                   deck = FILLER, coins = { 9, 1 } } }
    local notes = {}
    for i, text in ipairs(g:options(1)) do notes[text] = describe_.options(g, 1)[i] end
    assert.are.equal("costs 8; +0 influence; +1 take each turn", notes["hire Governor 8/0"])
    assert.are.equal("costs 7; +2 influence; +1 coin when your take comes with the harbour empty",
      notes["hire Jester 7/2"])
    assert.are.equal("costs 9; +3 influence; +2 coins when your take comes with 5 or more cards in the harbour",
      notes["hire Admiral 9/3"])
    local t = kontor.new_game { rules = "caribbean", players = 2, seed = 1, names = NAMES,
      scenario = { phase = "loot", harbour = { "Flute 1/1", "Pinnace 1/1", "Sailor 3/1" }, deck = FILLER,
                   coins = { 0, 1 } } }
    assert(t:apply("take nothing"))
    assert.are.equal(2, t:who())
    assert.truthy(t:why("hire Sailor 3/1"):find("the Sailor 3/1 costs 3 plus 1 for the active player and you have "
      .. "1 coin;", 1, true), t:why("hire Sailor 3/1"))
    local r = kontor.new_game { rules = "caribbean", players = 2, seed = 1, names = NAMES,
      scenario = { phase = "discover", deck = { "Pinnace 1/1", "Flute 1/1", "Skiff 1/1" } } }
    r:apply("reveal")
    assert.are.equal("strength 0 is below the Pinnace 1/1's 1 sword", r:skipped()[1].why)
  end)

  it("the log says when a player takes nothing, or no more, from the harbour", function()
    -- at the table a bot's "take nothing" once left no line: "Bea stops"
    -- and then the next player's take, as if Bea's takes were skipped
    local g = kontor.new_game { rules = "caribbean", players = 2, seed = 1, names = NAMES,
      scenario = { phase = "loot", harbour = { "Flute 1/1", "Pinnace 1/1", "Skiff 1/1", "Frigate 1/1" },
                   deck = FILLER, coins = { 3, 3 } } }
    assert(g:apply("loot Flute 1"))
    assert(g:apply("take nothing"))
    assert(g:apply("take nothing", 2))
    local log, at = g:log(), nil
    for i, l in ipairs(log) do if l == "Alex loots the Flute 1/1: 1 coin" then at = i end end
    assert.truthy(at, table.concat(log, "\n"))
    assert.are.same({ "Alex loots the Flute 1/1: 1 coin", "Alex takes no more", "Bea takes nothing" },
      { table.unpack(log, at, at + 2) })
  end)

  it("random games' boards, options and logs have no count that disagrees with its noun #slow", function()
    for _, v in ipairs { {}, { "port_royal" } } do
      for seed = 1, 12 do
        local g = kontor.new_game { rules = "caribbean", variants = v, players = 2 + seed % 4, seed = seed }
        local found, x = {}, seed
        local function scan(t) for _, s in ipairs(slips(t or "")) do found[#found + 1] = s .. " in: " .. t end end
        while not g:over() do
          scan(g:show())
          local who = g:who()
          local seat = type(who) == "table" and who[1] or who
          local opts = g:options(seat)
          for _, d in pairs(describe_.options(g, seat) or {}) do scan(d) end
          x = (x * 1103515245 + 12345) % 2147483648
          assert(g:apply(opts[x % #opts + 1], seat))
        end
        for _, l in ipairs(g:log()) do scan(l) end
        for _, s in ipairs(g:skipped()) do scan(s.why) end
        scan(describe_.why_won(g))
        -- "2 ship names" is right: C6 counts names
        local real = {}
        for _, f in ipairs(found) do if not f:find("ship names", 1, true) then real[#real + 1] = f end end
        assert.are.same({}, real)
      end
    end
  end)
end)
