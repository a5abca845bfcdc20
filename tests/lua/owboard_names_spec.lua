-- owboard_names_spec.lua: Old World's board names every player whole and
-- lines up its columns (a QA pass of hot-seat play with 8 players). The
-- name was cut at 10 bytes and padded by bytes: "Anne-Chloé" showed as
-- "Anne-Chlo\xC3" (half a letter), "Zoë" and "Jürgen" pushed their gold
-- one column left, "Christopher" and "Christophe2" read the same, and the
-- ports after constantinople sat 4 columns left of its gold.
local kontor = require "kontor"
local seat = require "kontor.seat"

local function cards(g, s)
  local out = {}
  for line in seat.view(g, s).board():gmatch("[^\n]+") do
    if line:find(" gold +%d+ VP") then out[#out + 1] = line end
  end
  return out
end

describe("Old World's board, the players' names and ports", function()
  it("counts letters, not bytes, and cuts no letter in half", function()
    local g = kontor.new_game { rules = "old_world", players = 4, seed = 7,
      names = { "Anne-Chloé", "Zoë", "Jürgen", "Bob" } }
    assert.are.same({
      "  Anne-Chloé venice       3 gold   0 VP  pool s0 l0 f0",
      "  Zoë        genoa        3 gold   0 VP  pool s0 l0 f0",
      "  Jürgen     marseille    4 gold   0 VP  pool s0 l0 f0  [token]",
      "  Bob        barcelona    3 gold   0 VP  pool s0 l0 f0",
    }, cards(g, 2))
  end)

  it("8 players: the columns as wide as the longest name and port, within 79", function()
    local g = kontor.new_game { rules = "old_world", players = 8, seed = 7,
      names = { "Alexandra", "Bartholomew", "Christopher", "Christophe2", "Ebenezer", "Florentina", "Gwendolyn",
        "Maximilian-Alexander" } }
    assert.are.same({
      "  Alexandra    venice           3 gold   0 VP  pool s0 l0 f0",
      "  Bartholomew  genoa            3 gold   0 VP  pool s0 l0 f0",
      "  Christopher  marseille        3 gold   0 VP  pool s0 l0 f0",
      "  Christophe2  barcelona        3 gold   0 VP  pool s0 l0 f0",
      "  Ebenezer     tunis            3 gold   0 VP  pool s0 l0 f0",
      "  Florentina   alexandria       4 gold   0 VP  pool s0 l0 f0  [token]",
      "  Gwendolyn    constantinople   3 gold   0 VP  pool s0 l0 f0",
      "  Maximilian-~ athens           3 gold   0 VP  pool s0 l0 f0",
    }, cards(g, 1))
    -- the widest a card's line gets: the token and the pirate on it
    local w = #"  Maximilian-~ athens           3 gold   0 VP  pool s0 l0 f0  [token]  [pirate]"
    assert.is_true(w <= 79, tostring(w))
  end)

  it("names of 10 letters or fewer, up to 6 players: as before", function()
    local g = kontor.new_game { rules = "old_world", players = 3, seed = 7, names = { "Ann", "Bob", "Cy" } }
    assert.are.equal("  Ann        venice       3 gold   0 VP  pool s0 l0 f0", cards(g, 1)[1])
  end)
end)
