-- redteam3: kontor serve's note on an option number sent as a string
-- (repl/serve.lua, protocol_words) comes only where that number would
-- have been legal: not for a game over, another seat's turn, or an
-- option that does not exist (docs/security.md, "Red team 3").
local support = require "tests.lua.support"

local serve = support.serve_lines   -- the responses of `kontor serve` to request lines

local NOTE = "JSON number"

describe("redteam3: kontor serve, a number sent as a string", function()
  it("to a seat whose turn it is not: the refusal says whose turn, no note", function()
    local r = serve { '{"id": 1, "op": "new", "rules": "sea_merchants", "players": 2, "seed": 7}',
                      '{"id": 2, "op": "apply", "game": "g1", "action": "1", "seat": 2}' }
    assert.are.equal([[{"error":{"code":"illegal_action","message":"'1': it is not Player 2's turn to decide ]]
      .. [[(waiting for Player 1: load)"},"id":2,"ok":false}]], r[2])
  end)

  it("in a game that is over: no note, and no giant number echoed as one to send", function()
    local r = serve { '{"id": 1, "op": "new", "rules": "sea_merchants", "players": 2, "seed": 7, '
                        .. '"bots": {"1": "random", "2": "random"}}',
                      '{"id": 2, "op": "apply", "game": "g1", "action": "1"}',
                      '{"id": 3, "op": "why", "game": "g1", "action": "12345678901234567890123"}' }
    assert.are.equal([[{"error":{"code":"illegal_action","message":"the game is over"},"id":2,"ok":false}]], r[2])
    assert.are.equal([[{"id":3,"ok":true,"result":{"legal":false,"message":"the game is over"}}]], r[3])
  end)

  it("beyond the options: no note; a legal number, with blanks, gets it", function()
    local r = serve { '{"id": 1, "op": "new", "rules": "sea_merchants", "players": 2, "seed": 7}',
                      '{"id": 2, "op": "why", "game": "g1", "action": "99"}',
                      '{"id": 3, "op": "apply", "game": "g1", "action": " 12 ", "seat": 1}' }
    assert.truthy(support.has(r[2], "'99' is not a legal action"), r[2])
    assert.falsy(support.has(r[2], NOTE), r[2])
    assert.truthy(support.has(r[3], [[ (an option's number goes as a JSON number: \"action\": 12)"}]]), r[3])
  end)
end)
