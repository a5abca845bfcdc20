-- owtable_screen_spec.lua: what `kontor play --rules old_world` (and the
-- REPL) shows a player at a 40-row terminal: the bids in a few lines, not
-- one a gold (at 23 gold: 24 lines, pushing the board off the screen).
local support = require "tests.lua.support"

local has = support.has
local run = support.kontor_rc   -- the output, then "rc=" and the exit status

-- A 2-player game where Ann has 23 gold and Bob 24 (he holds the token).
local RICH = "--rules old_world --players 2 --names Ann,Bob --seed 7 --option start_gold=23"

describe("Old World's bids at the terminal", function()
  it("play: a range line, the numbers it takes, and the texts parse as before", function()
    local out = run("play " .. RICH, "bid 17\n19\nmoves\n")
    assert.truthy(has(out, "\nAnn, your move (bid):\n"
      .. "1-24  bid 0-23  (bid N: pay N gold, lost; higher bids pick first (O12); you have 23)\n"
      .. "      type bid 0 to bid 23, or the option's number: 1 to 24\n--- Bob's turn"), out)
    assert.falsy(has(out, "  bid 5  ("), out)
    -- the option's number and the canonical text still do what they did
    assert.truthy(has(out, "\n1  Ann: bid 17\n2  Bob: bid 18\n"), out)
  end)

  it("the REPL's options: the same line", function()
    local out = run(RICH, "options\n")
    assert.truthy(has(out, "1-24  bid 0-23  (bid N: pay N gold, lost; higher bids pick first (O12); you have 23)\n"
      .. "      type bid 0 to bid 23, or the option's number: 1 to 24\n"), out)
  end)

  it("at 3 gold too; a run whose descriptions differ otherwise, or shorter, stays one a line", function()
    local out = run("play --rules old_world --players 2 --names Ann,Bob --seed 7", "bid 1\nbid 0\nmoves\n")
    assert.truthy(has(out, "\n1-4  bid 0-3  (bid N: pay N gold, lost; higher bids pick first (O12); you have 3)\n"), out)
    local lines = {}
    local sess = { say = function(_, ...)
      local t = {}
      for i, p in ipairs { ... } do t[i] = require("kontor.text").piece(p) end
      lines[#lines + 1] = table.concat(t)
    end, c = function(_, _, text) return text end }
    local costs = { ["sail 1"] = "1 gold", ["sail 2"] = "2 gold", ["sail 3"] = "3 gold, a storm", ["sail 4"] = "4 gold" }
    require("ui").print_options(sess, { "sail 1", "sail 2", "sail 3", "sail 4", "wait 1", "wait 2", "wait 3" }, nil,
      function(o) return costs[o] end)
    assert.are.same({ "  1  sail 1  (1 gold)", "  2  sail 2  (2 gold)", "  3  sail 3  (3 gold, a storm)",
      "  4  sail 4  (4 gold)", "  5  wait 1", "  6  wait 2", "  7  wait 3" }, lines)
  end)
end)
