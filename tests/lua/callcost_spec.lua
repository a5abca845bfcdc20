-- callcost_spec.lua - the cheap paths of the pile and counter methods rule
-- scripts call most (issue 25; docs/performance.md, "Per-call costs"):
-- each reads its arguments once, and each error is the one it always was.
-- Run: build/kontor run tests/busted.lua tests/lua/callcost_spec.lua
local core = kontor.core

describe("counter methods", function()
  it("add returns the new value and keeps the bounds", function()
    local c = core.counter { n = 3, min = 0, max = 10, init = 4 }
    assert.equal(7, c:add(2, 3))
    assert.equal(7.0 // 1, c:add(2, 0.0))                         -- a float with an integer value
    assert.same({ 4, 7, 4 }, c:values())
    assert.has_error(function() c:add(2, 4) end, "counter 2: 11 is above the maximum 10")
    assert.has_error(function() c:add(3, -5) end, "counter 3: -1 is below the minimum 0")
    assert.same({ 4, 7, 4 }, c:values())                          -- nothing changed
  end)

  it("add's argument errors read as luaL_checkinteger's", function()
    local c = core.counter { n = 2 }
    assert.has_error(function() c:add(1, 0.5) end,
      "bad argument #2 to 'add' (number has no integer representation)")
    assert.has_error(function() c:add(1, "x") end, "bad argument #2 to 'add' (number expected, got string)")
    assert.has_error(function() c:add(nil, 1) end, "bad argument #1 to 'add' (number expected, got nil)")
    assert.has_error(function() c:add(3, 1) end, "bad argument #1 to 'add' (index 3 out of range 1..2)")
    assert.has_error(function() c.add({}, 1, 1) end,
      "bad argument #1 to 'add' (kontor.Counter expected, got table)")
  end)

  it("add raises on an overflow and changes nothing", function()
    local c = core.counter { n = 1, init = math.maxinteger - 1 }
    assert.has_error(function() c:add(1, 2) end,
      "counter 1: 9223372036854775806 + 2 overflows")
    local d = core.counter { n = 1, init = math.mininteger + 1 }
    assert.has_error(function() d:add(1, -2) end,
      "counter 1: -9223372036854775807 + -2 overflows")
    assert.equal(math.maxinteger - 1, c:get(1))
    assert.equal(math.maxinteger, c:add(1, 1))
  end)

  it("set keeps the bounds", function()
    local c = core.counter { n = 2, min = -1, max = 1 }
    c:set(1, -1)
    assert.has_error(function() c:set(2, 2) end, "counter 2: 2 is above the maximum 1")
    assert.has_error(function() c:set(2, "2") end, "counter 2: 2 is above the maximum 1")   -- a numeral converts
    assert.has_error(function() c:set(2, {}) end, "bad argument #2 to 'set' (number expected, got table)")
    assert.same({ -1, 0 }, c:values())
  end)
end)

describe("pile methods", function()
  it("push and pop, one card at a time, past the pile's room", function()
    local p = core.pile {}
    for i = 1, 100 do p:push(i) end
    p:push(7, nil)
    assert.equal(101, #p)
    assert.equal(7, p:pop())
    for i = 100, 1, -1 do assert.equal(i, p:pop()) end
    assert.is_nil(p:pop())
    assert.has_error(function() p:push(2 ^ 31) end,
      "bad argument #1 to 'push' (card 2147483648 is outside the int32 range)")
    assert.has_error(function() p:push(1.5) end,
      "bad argument #1 to 'push' (number has no integer representation)")
    assert.has_error(function() p:push(1, 1.5) end,
      "bad argument #2 to 'push' (number has no integer representation)")
    assert.equal(0, #p)
  end)

  it("move_to of one card, into a pile with and without room", function()
    local a, b = core.pile {}, core.pile {}
    a:push(1); a:push(2); a:push(3)
    a:move_to(b)
    assert.same({ 1, 2 }, a:cards())
    assert.same({ 3 }, b:cards())
    for i = 1, 40 do b:push(i) end
    a:move_to(b, nil)
    assert.equal(42, #b)
    assert.equal(2, b:top())
    a:move_to(a)                                                 -- onto itself: no change
    assert.same({ 1 }, a:cards())
    a:move_to(b, 1)
    assert.has_error(function() a:move_to(b) end, "pile has 0 cards, cannot move 1")
    assert.has_error(function() a:move_to(b, "x") end, "bad argument #2 to 'move_to' (number expected, got string)")
    assert.has_error(function() a:move_to(b, -1) end, "bad argument #2 to 'move_to' (must not be negative)")
    assert.equal(43, #b)
    assert.equal(1, b:top())
  end)

  it("get reads an index once; out of range is nil", function()
    local p = core.pile {}
    p:push(5, 3)
    assert.equal(5, p:get(3))
    assert.is_nil(p:get(4))
    assert.is_nil(p:get(0))
    assert.has_error(function() p:get("a") end, "bad argument #1 to 'get' (number expected, got string)")
  end)

  it("push_all pushes a list's cards as push would one by one", function()
    local cards = {}
    for i = 1, 119 do cards[i] = i % 17 - 3 end
    local a, b = core.pile {}, core.pile {}
    a:push(99)
    b:push(99)
    a:push_all(cards)
    for i = 1, #cards do b:push(cards[i]) end
    assert.same(b:cards(), a:cards())
    assert.equal(120, #a)
    assert.equal(cards[119], a:pop())
    a:push_all({})
    assert.equal(119, #a)
    a:push_all({ "5", 6.0 })                                   -- as push takes them
    assert.same({ 5, 6 }, { a:get(120), a:get(121) })
  end)

  it("push_all checks every entry before the pile changes", function()
    local p = core.pile {}
    p:push(1)
    local list = {}
    for i = 1, 40 do list[i] = i end
    list[20] = "x"
    assert.has_error(function() p:push_all(list) end,
      "bad argument #1 to 'push_all' (entry 20 must be a card (a whole number), got string)")
    list[20] = 2.5
    assert.has_error(function() p:push_all(list) end,
      "bad argument #1 to 'push_all' (entry 20 must be a card (a whole number), got 2.5)")
    list[20] = {}
    assert.has_error(function() p:push_all(list) end,
      "bad argument #1 to 'push_all' (entry 20 must be a card (a whole number), got table)")
    list[20] = 2 ^ 31
    assert.has_error(function() p:push_all(list) end,
      "bad argument #1 to 'push_all' (entry 20: card 2147483648 is outside the int32 range)")
    assert.has_error(function() p:push_all(7) end, "bad argument #1 to 'push_all' (table expected, got number)")
    assert.same({ 1 }, p:cards())
  end)

  it("push_all charges the list's length to the work limit (docs/security.md)", function()
    local sb = core.sandbox
    local env = require("kontor.sandbox").env(require("kontor.rules").api)
    local charged = require("tests.lua.support").work_charged
    local make = "local t = {} for i = 1, 50000 do t[i] = i end local p = kontor.pile {} p:push(0, 5000) "   -- 5,000 charged by both
    assert.are.equal(50000, charged(make .. "p:push_all(t)") - charged(make))
    local ok, err = sb.call(assert(sb.load(make .. "p:push_all(t)", "=c", env)))
    assert.is_true(ok, err)
  end)
end)
