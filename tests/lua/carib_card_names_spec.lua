-- carib_card_names_spec.lua: a Caribbean card typed as the board and the
-- log name it gets the move that takes it (a QA pass of hot-seat play).
-- The board showed "Frigate 6/3", the log "Ann reveals Frigate 6/3";
-- 'loot Frigate 6/3' was refused with "no such card in the harbour",
-- with the Frigate there (its move is 'loot Frigate 3', by its coins).
local support = require "tests.lua.support"

describe("Caribbean: a card typed by its name on the board", function()
  it("says which move takes it, in play as the player sees it", function()
    local out = support.kontor_rc("play --rules caribbean --players 3 --names Ann,Bob,Cy --seed 5",
      "reveal\nreveal\nreveal\nstop\nloot Frigate 6/3\nloot Governor 8/0\nloot Frigate 9\n")
    assert.truthy(support.has(out, "Harbour: Galleon 2/1 | Governor 8/0 | Skiff 5/3 | Frigate 6/3 (3 ships)"), out)
    local list = "; expected one of: loot Galleon 1, loot Skiff 3, loot Frigate 3, take nothing\n"
    assert.truthy(support.has(out, "\n'loot Frigate 6/3' is not a legal action: the Frigate 6/3 in the harbour is "
      .. "looted with 'loot Frigate 3' (a ship by its name and the coins it gives)" .. list
      .. "'loot Governor 8/0' is not a legal action: the Governor 8/0 is a person: it is hired, with 'hire Governor "
      .. "8/0'" .. list
      .. "'loot Frigate 9' is not a legal action: no such card in the harbour" .. list), out)
  end)
end)
