-- result_names_spec.lua: the final scores line up whatever letters the
-- names have (a QA pass of hot-seat play, players naming themselves).
-- The names were padded by bytes: "Zoë" (4 bytes) set the column one
-- wider than it is, and Bob's score sat one column right of hers.
local support = require "tests.lua.support"

describe("the final scores", function()
  it("pad the names by letters", function()
    local out = support.kontor_rc("--players 2 --names Zoë,Bob --seed 4 --bot 1=random --bot 2=random", "result\n")
    assert.truthy(support.has(out, "Game over. Final scores:\n  Zoë     4  winner\n  Bob     3\nWinner: Zoë\n"), out)
  end)
end)
