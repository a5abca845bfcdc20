-- reads_spec.lua - issue 25, item 4: reads of piles and counters that make
-- no table (docs/api.md): pile:counts(n, into) and counter:values(into)
-- write into a table the script keeps, and return it.
-- Run: build/kontor run tests/busted.lua tests/lua/reads_spec.lua
local core = kontor.core

describe("pile:counts(n, into)", function()
  it("writes the counts of cards 1..n into the table given and returns it", function()
    local p = core.pile{}
    p:push(2, 3); p:push(1); p:push(7)             -- 7 is outside 1..3: not counted
    local t = { 9, 9, 9, 9, x = "kept" }
    assert.are.equal(t, p:counts(3, t))
    assert.are.same({ 1, 3, 0, 9, x = "kept" }, t)  -- entries past n and other keys untouched
    p:take(2)
    assert.are.equal(t, p:counts(3, t))
    assert.are.same({ 1, 2, 0, 9, x = "kept" }, t)
  end)

  it("gives the same counts as a new list", function()
    local p = core.pile{}
    for c = 1, 6 do p:push(c, c) end
    assert.are.same(p:counts(6), p:counts(6, {}))
  end)

  it("writes raw: a metatable's __newindex does not run", function()
    local p = core.pile{}
    p:push(1, 2)
    local called = false
    local t = setmetatable({}, { __newindex = function() called = true end })
    p:counts(2, t)
    assert.is_false(called)
    assert.are.equal(2, rawget(t, 1))
    assert.are.equal(0, rawget(t, 2))
  end)

  it("refuses anything but a table", function()
    local p = core.pile{}
    local ok, err = pcall(function() return p:counts(3, "list") end)
    assert.is_false(ok)
    assert.truthy(err:find("bad argument #2 to 'counts' (table expected, got string)", 1, true), err)
  end)
end)

describe("counter:values(into)", function()
  it("writes the values into the table given and returns it", function()
    local c = core.counter{ n = 3, init = 4 }
    c:add(2, 1)
    local t = { 0, 0, 0, 0 }
    assert.are.equal(t, c:values(t))
    assert.are.same({ 4, 5, 4, 0 }, t)
    c:set(3, -1)
    assert.are.same({ 4, 5, -1, 0 }, c:values(t))
    assert.are.same(c:values(), { 4, 5, -1 })
  end)

  it("refuses anything but a table", function()
    local c = core.counter{ n = 2 }
    local ok, err = pcall(function() return c:values(5) end)
    assert.is_false(ok)
    assert.truthy(err:find("bad argument #1 to 'values' (table expected, got number)", 1, true), err)
  end)
end)
