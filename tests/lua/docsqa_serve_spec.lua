-- docsqa_serve_spec.lua - docs/protocol.md as a newcomer types it: `apply`
-- and `why` take an option's number (`n`) as `action`; one sent as a
-- string ("1") is text, and the refusal says how to send the number.
-- Run: build/kontor run tests/busted.lua tests/lua/docsqa_serve_spec.lua
local support = require "tests.lua.support"

local serve = support.serve_lines   -- the responses of `kontor serve` to request lines

describe("kontor serve, an option's number sent as a string", function()
  local NEW = '{"id": 1, "op": "new", "players": 3, "seed": 3}'

  it("apply is refused, saying to send it as a JSON number; the game is unchanged", function()
    local r = serve { NEW, '{"id": 2, "op": "apply", "game": "g1", "action": "1"}',
                      '{"id": 3, "op": "moves", "game": "g1"}',
                      '{"id": 4, "op": "apply", "game": "g1", "action": 1}' }
    assert.truthy(support.has(r[2], '"code":"illegal_action"'), r[2])
    assert.truthy(support.has(r[2], "'1' is not a legal action: now: load a cube on an empty ship"), r[2])
    assert.truthy(support.has(r[2], [[ (an option's number goes as a JSON number: \"action\": 1)"}]]), r[2])
    assert.are.equal('{"id":3,"ok":true,"result":{"moves":[]}}', r[3])
    assert.truthy(support.has(r[4], '"steps":[{"bot":false,"seat":1,"text":"load grain on ship 1"}]'), r[4])
  end)

  it("why says the same; a text that is no number gets no such note", function()
    local r = serve { NEW, '{"id": 2, "op": "why", "game": "g1", "action": "12"}',
                      '{"id": 3, "op": "why", "game": "g1", "action": "exchange ship 5"}' }
    assert.truthy(support.has(r[2], [[ (an option's number goes as a JSON number: \"action\": 12)"}]]), r[2])
    assert.falsy(support.has(r[3], "JSON number"), r[3])
  end)
end)

describe("docs/protocol.md's list", function()
  it("shows hand_limit's size option as serve's list gives it", function()
    local r = serve { '{"id": 1, "op": "list"}' }
    local size = r[1]:match('{"default":6,"doc":"([^"]*)","min":3,"name":"size","type":"integer"}')
    assert.truthy(size, r[1])
    local doc = support.read("docs/protocol.md")
    assert.truthy(support.has(doc, '{"name": "size", "type": "integer", "default": 6, "min": 3,\n'
      .. '                            "doc": "' .. size .. '"}]'), size)
    -- and hand_limit's options in serve's order
    local names = {}
    for name in r[1]:match('"name":"hand_limit".-"options":(%b[])'):gmatch('"name":"([%w_]+)"') do
      names[#names + 1] = '{"name": "' .. name .. '"'
    end
    local shown = doc:match('"name": "hand_limit".-"options": (%b[])')
    local order = {}
    for o in shown:gmatch('{"name": "[%w_]+"') do order[#order + 1] = o end
    assert.are.same(names, order)
  end)
end)
