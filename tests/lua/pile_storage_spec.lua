-- pile_storage_spec.lua - issue 25 item 4: a pile keeps its cards, and a
-- counter its values, in memory Lua manages (lua/l_pile.c, l_counter.c):
-- up to 16 cards inside the pile's userdata, more in a block of its own
-- that doubles as the pile grows. No finalizer frees them; the collector
-- does, and the interpreter's memory count (the sandbox's limit) holds
-- them.
-- Run: build/kontor run tests/busted.lua tests/lua/pile_storage_spec.lua
local core = kontor.core

local function list(a, b)
  local t = {}
  for i = a, b do t[#t + 1] = i end
  return t
end

-- KiB the interpreter holds after a full collection.
local function held()
  collectgarbage("collect")
  collectgarbage("collect")
  return collectgarbage("count")
end

describe("a pile's storage", function()
  it("keeps its cards in order as it grows past the cards it holds inside", function()
    local p = core.pile {}
    for i = 1, 16 do p:push(i) end
    assert.are.same(list(1, 16), p:cards())
    p:push(17)                                  -- the first block of its own
    assert.are.same(list(1, 17), p:cards())
    p:push_all(list(18, 1000))
    assert.are.equal(1000, #p)
    assert.are.equal(1, p:get(1))
    assert.are.equal(1000, p:top())
    p:insert(1, 0)
    assert.are.equal(0, p:get(1))
    assert.are.equal(1001, #p)
    p:push(7, 3000)
    assert.are.equal(4001, #p)
    assert.are.equal(7, p:top())
    assert.are.equal(3001, p:count_of(7))
  end)

  it("moves cards onto a pile that must grow, in the order move_to gives", function()
    local from, to = core.pile {}, core.pile {}
    from:push_all(list(1, 100))
    to:push_all(list(101, 110))
    from:move_to(to, 40)
    assert.are.equal(60, #from)
    assert.are.equal(50, #to)
    assert.are.equal(100, to:get(11))           -- the top of `from` first
    assert.are.equal(61, to:top())
    local err = select(2, pcall(from.move_to, from, to, 61))
    assert.are.equal("pile has 60 cards, cannot move 61", err:match("pile has.*"))
    assert.are.equal(60, #from)
    assert.are.equal(50, #to)
  end)

  it("copies a large pile into a new one and into a small one", function()
    local big = core.pile { vis = "owner", owner = 2, pool = "cards" }
    big:push_all(list(1, 500))
    local copy = core.pile_copy(big)
    assert.are.same(big:cards(), copy:cards())
    assert.are.equal("owner", copy:vis())
    assert.are.equal(2, copy:owner())
    assert.are.equal("cards", copy:pool())
    local small = core.pile { vis = "hidden" }
    small:push(9)
    core.pile_copy(big, small)
    assert.are.same(list(1, 500), small:cards())
    assert.are.equal("hidden", small:vis())     -- into's visibility stays
    big:push(501)                               -- the copies are apart
    assert.are.equal(500, #copy)
    assert.are.equal(500, #small)
  end)

  it("is counted in the interpreter's memory, and given back by the collector", function()
    local before = held()
    local p = core.pile {}
    p:push(3, 1000000)                          -- 4 MB of cards
    local with = held()
    assert.is_true(with - before >= 3900, string.format("%.0f KiB counted for 4 MB of cards", with - before))
    assert.are.equal(1000000, #p)
    p = nil                                     -- luacheck: ignore
    local after = held()
    assert.is_true(after - before < 100, string.format("%.0f KiB still held", after - before))
  end)

  it("holds a counter's values, counted as memory, its bounds kept", function()
    local before = held()
    local c = core.counter { n = 100000, min = 0, max = 9, init = 4 }
    local with = held()
    assert.is_true(with - before >= 780, string.format("%.0f KiB counted for 800 kB of values", with - before))
    assert.are.equal(4, c:get(100000))
    assert.are.equal(400000, c:sum())
    local copy = core.counter_copy(c)
    c:set(1, 9)
    assert.are.equal(4, copy:get(1))
    assert.are.equal(9, copy:max())
    local err = select(2, pcall(c.add, c, 2, 6))
    assert.are.equal("counter 2: 10 is above the maximum 9", err:match("counter 2.*"))
    assert.are.equal(4, c:get(2))
  end)

  it("pile_place names the line a function stands at, as the secret piles' registry notes it", function()
    local function here() return core.pile_place(2) end      -- 2: here's caller
    local where, line = here(), debug.getinfo(1, "l").currentline
    assert.are.equal("tests/lua/pile_storage_spec.lua:" .. line, where:match("tests/lua/.*$"))
    local texts = {}
    for i = 1, 2 do texts[i] = here() end                     -- one line, twice: the same text
    assert.are.equal(texts[1], texts[2])
    assert.are.equal("tests/lua/pile_storage_spec.lua:" .. (line + 3), texts[1]:match("tests/lua/.*$"))
    assert.are.equal("?", core.pile_place(100000))
    local err = select(2, pcall(core.pile_place, "x"))
    assert.truthy(err:find("bad argument #1 to 'kontor.core.pile_place' (number expected, got string)", 1, true), err)
  end)
end)
