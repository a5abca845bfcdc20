-- view_guard_spec.lua - a view cannot change the game (docs/security.md,
-- "A call that reads the game changes nothing"). R.view, R.board,
-- R.scores, R.card_text, R.estimate, R.score, R.describe_option,
-- R.why_won, R.explain, R.constraints (outside a step) and R.invariants
-- get the game's own `g`, outside a step: whatever of the game they change
-- is refused with one message and put back (sandbox.inspect,
-- lua/engine/inspect.c), so that the game stays a function of its steps.
-- Run: build/kontor run tests/busted.lua tests/lua/view_guard_spec.lua
local json = kontor.json
local support = require "tests.lua.support"
local bots = require "kontor.bots"
local describe_mod = require "kontor.describe"
local seatmod = require "kontor.seat"
local tmp, cleanup_tmp = support.scratch()

teardown(cleanup_tmp)

local WHY = " (a display function reads the game; a change belongs in a step)"

-- A rule set with every hook; HOOK_<name> in a hook's body is replaced by
-- the change under test (or nothing).
local TEMPLATE = [[
local R = { name = "viewguard", players = { min = 2, max = 2 } }
R.stats = { s = "a stat" }
function R.setup(g)
  g.n = 1
  g.list = { 1, 2 }
  g.hands = { { 3, 1, 2 }, {} }
  g.deck = kontor.pile { vis = "owner", owner = 1 }
  g.deck:push(5)
  g.deck:push(4)
  g.coins = kontor.counter { n = 2 }
  g.stock = kontor.pile { vis = "hidden" }
  g.stock:push(8)
end
function R.play(g)
  for _ = 1, 3 do
    local k = g:choose(1, "pick", { "a", "b" })
    g.n = g.n + k
    g.deck:push(g.rng:int(1, 9))
    g:log("seat 1 took " .. k)
  end
end
function R.view(g, seat)
  HOOK_view
  return { n = g.n, seat = seat }
end
function R.board(g, seat)
  HOOK_board
  return "n = " .. g.n .. " for " .. tostring(seat)
end
function R.card_text(g, c)
  HOOK_card_text
  return "card " .. c
end
function R.scores(g)
  HOOK_scores
  return { g.n, 0 }
end
function R.why_won(g)
  HOOK_why_won
  return "seat 1 has " .. g.n
end
function R.describe_option(g, seat, decision, text)
  HOOK_describe_option
  return text .. " adds to " .. g.n
end
function R.estimate(g, seat)
  HOOK_estimate
  return seat == 1 and g.n or 0
end
R.explain = { pick = function(g, seat, text)
  HOOK_explain
  return "pick a or b, not " .. text
end }
function R.invariants(g)
  HOOK_invariants
  return nil
end
return R
]]

local HOOKS = { "view", "board", "card_text", "scores", "why_won", "describe_option",
                "estimate", "explain", "invariants" }

-- Each kind of change, and what the message says it did.
local CHANGES = {
  { code = "g.n = g.n + 1", says = "it set g.n" },
  { code = "table.insert(g.list, 9)", says = "it set g.list[3]" },
  { code = "table.sort(g.hands[1])", says = "it set g.hands[1][1]" },
  { code = "g.hands[2].x = {}", says = "it set g.hands[2].x" },
  { code = "setmetatable(g.list, {})", says = "it set the metatable of g.list" },
  { code = "g.deck:push(7)", says = "it called pile:push" },
  { code = "g.deck:take(1)", says = "it called pile:take" },
  { code = "g.coins:add(1, 5)", says = "it called counter:add" },
  { code = "g.rng:int(1, 6)", says = "it called rng:int" },
  { code = "g:log('peek')", says = "it called g:log" },
  { code = "g:stat('s')", says = "it called g:stat" },
  { code = "g:skip(1, 'pick', 'none')", says = "it called g:skip" },
}

local serial = 0
-- A rule-set file with `code` in hook `hook`; its path and the line of it.
local function rules_with(hook, code)
  serial = serial + 1
  local path = tmp("vg" .. serial .. ".lua")
  local text, line = TEMPLATE, nil
  local n = 0
  for l in TEMPLATE:gmatch("([^\n]*)\n") do
    n = n + 1
    if l:find("HOOK_" .. hook, 1, true) then line = n end
  end
  text = text:gsub("HOOK_" .. hook, (code:gsub("%%", "%%%%")))
  text = text:gsub("HOOK_[%w_]+", "")
  support.write(path, text)
  return path, line
end

-- Everything a game is: its fields read raw (R.card_text not asked), the
-- RNG's state, the log and the step record; and g:state() where that
-- calls no hook under test.
local function snapshot(g, with_state)
  local ctx = g.ctx
  local hands = { table.unpack(ctx.hands[1]) }
  local parts = {
    tostring(ctx.n), table.concat(ctx.list, ","), table.concat(hands, ","),
    tostring(getmetatable(ctx.list)), tostring(next(ctx.hands[2])),
    table.concat(ctx.deck:cards(), ","), table.concat(ctx.coins:values(), ","),
    ctx.rng:state(), table.concat(g:log(), "|"), table.concat(g:actions(), ","),
    json.encode(g:skipped()),
  }
  if with_state then parts[#parts + 1] = json.encode(g:state()) end
  return table.concat(parts, "\n")
end

-- Calls the hook through what the engine offers for it; returns ok, the
-- first line of the error (or of the value).
local function call_hook(hook, g)
  local function first(ok, v)
    if v == nil then return ok, nil end
    return ok, (tostring(v):match("^[^\n]*"))
  end
  if hook == "view" then return first(pcall(g.view, g, 1))
  elseif hook == "board" then return first(pcall(g.show, g, 1))
  elseif hook == "card_text" then return first(pcall(g.state, g))
  elseif hook == "scores" then return first(pcall(g.result, g))
  elseif hook == "estimate" then return first(pcall(bots.estimates, g))
  elseif hook == "why_won" then return true, describe_mod.why_won(g)
  elseif hook == "describe_option" then return true, describe_mod.option(g, 1, "a", "pick")
  elseif hook == "explain" then return true, g:why("c", 1)
  elseif hook == "invariants" then return true, g:invariants()
  end
end

-- Hooks that need the game over (the scores, why the winner won).
local AT_END = { scores = true, why_won = true }
-- Hooks whose failure the engine turns into "no text" (a description,
-- an explanation) or a message returned: checked by the game unchanged.
-- (g:why then says what any refused text gets.)
local QUIET = { why_won = "nil", describe_option = "R.describe_option failed: ", invariants = "R.invariants failed: ",
                explain = "'c' is not a legal action: R.explain.pick failed: " }

local function game_of(path, hook)
  local g = kontor.new_game { rules = path, players = 2, seed = 7 }
  g:apply("b")
  if AT_END[hook] then g:apply("a"); g:apply("b") end
  return g
end

describe("a call that reads the game", function()
  for _, hook in ipairs(HOOKS) do
    for _, ch in ipairs(CHANGES) do
      it(string.format("R.%s: %s is refused and put back", hook, ch.code), function()
        local path, line = rules_with(hook, ch.code)
        local g = game_of(path, hook)
        local honest = game_of(rules_with(hook, ""), hook)
        local full = hook ~= "card_text"      -- g:state() would call it
        local before = snapshot(g, full)
        assert.are.equal(snapshot(honest, full), before)
        local ok, msg = call_hook(hook, g)
        local name = "R." .. hook
        if hook == "describe_option" and ch.code == "g:log('peek')" then
          -- R.describe_option reads seat 1's copy of the game, a quiet one
          -- as a bot's (docs/security.md, "Seat views"): g:log writes
          -- nothing there, so it has nothing to refuse
          assert.are.equal("a adds to 3", msg)
        elseif hook == "explain" and ch.code == "g:log('peek')" then
          -- R.explain reads the refused seat's copy too: its reason stands
          assert.are.equal("'c' is not a legal action: pick a or b, not c; expected one of: a, b", msg)
        elseif QUIET[hook] == "nil" then
          assert.is_nil(msg)
        elseif hook == "explain" then
          -- the reason says the explanation failed, and where (designer_explain_spec)
          assert.are.equal(QUIET.explain, msg:sub(1, #QUIET.explain))
          local want = string.format("R.explain.pick failed: %s:%d: %s cannot change the game: %s%s; expected one of: a, b",
            path, line, name, ch.says, WHY)
          assert.is_truthy(msg:find(want, 1, true), msg)
        elseif QUIET[hook] then
          assert.are.equal(QUIET[hook], msg and msg:sub(1, #QUIET[hook]))
          local want = string.format("%s cannot change the game: %s%s", name, ch.says, WHY)
          assert.is_truthy(msg:find(want, 1, true), msg)
        else
          assert.is_false(ok)
          local want = string.format("%s cannot change the game: %s%s", name, ch.says, WHY)
          want = path .. ":" .. line .. ": " .. want
          if hook == "scores" then want = "viewguard: " .. want end   -- g:result names the rule set
          if hook == "estimate" then want = "viewguard: R.estimate: " .. want end   -- as the bots say it
          assert.are.equal(want, msg)
        end
        -- the game is as it was, and as the same game never viewed
        assert.are.equal(before, snapshot(g, full))
        -- undo and redo give the same game; so does the next step
        if not g:over() then
          g:undo()
          g:redo()
          honest:undo()
          honest:redo()
          assert.are.equal(snapshot(honest, full), snapshot(g, full))
          g:apply("a")
          honest:apply("a")
          assert.are.equal(snapshot(honest, full), snapshot(g, full))
        else
          assert.are.equal(snapshot(honest, full), snapshot(g, full))
        end
      end)
    end
  end

  it("names the line that made the change, in a helper function too", function()
    local code = "local a = g.n\n  local function bump(t)\n    local b = 1\n    t.n = a + b\n    return b\n  end\n"
      .. "  bump(g)\n  local c = 2"
    local path, line = rules_with("board", code)
    local g = game_of(path, "board")
    local ok, err = pcall(g.show, g, 1)
    assert.is_false(ok)
    assert.are.equal(string.format("%s:%d: R.board cannot change the game: it set g.n%s", path, line + 3, WHY),
      tostring(err):match("^[^\n]*"))
    assert.are.equal(3, g.ctx.n)
  end)

  it("the RNG state, the step record and the piles are as before a refused view", function()
    local path = rules_with("view", "g.rng:int(1, 6); g.deck:push(1)")
    local g = game_of(path, "view")
    local rng, actions, deck = g:state().engine.rng, table.concat(g:actions(), ","), json.encode(g:state().deck)
    assert.is_false((pcall(g.view, g, 1)))
    assert.are.equal(rng, g:state().engine.rng)
    assert.are.equal(actions, table.concat(g:actions(), ","))
    assert.are.equal(deck, json.encode(g:state().deck))
  end)

  it("a change made before an error is put back, and the change is what is reported", function()
    local g = game_of(rules_with("view", "g.n = 100; error('boom')"), "view")
    local n = g:state().n
    local ok, err = pcall(g.view, g, 1)
    assert.is_false(ok)
    assert.is_truthy(tostring(err):match("^[^\n]*"):find(":%d+: R.view cannot change the game: it set g.n"), tostring(err))
    assert.are.equal(n, g:state().n)
  end)

  it("an honest view builds and sorts its own tables and piles", function()
    local code = [[
      local mine = {}
      for i, c in ipairs(g.hands[1]) do mine[i] = c end
      table.sort(mine)
      local p = kontor.pile {}
      for _, c in ipairs(mine) do p:push(c) end
      p:take(1)
      local k = kontor.counter { n = 1 }
      k:add(1, 2)
      local _ = g:text("a", "b") .. g:turn_order(2)[1] .. g.deck:count() .. g.coins:get(1)
      do return { sorted = mine, top = p:top(), k = k:get(1) } end]]
    local g = game_of(rules_with("view", code), "view")
    local before = snapshot(g, true)
    local v = g:view(1)
    assert.are.same({ 1, 2, 3 }, v.sorted)
    assert.are.equal(3, v.top)
    assert.are.equal(2, v.k)
    assert.are.equal(before, snapshot(g, true))
  end)

  it("a view may show a sorted hand by sorting a copy", function()
    local g = game_of(rules_with("board", "do local h = { table.unpack(g.hands[1]) }; table.sort(h); "
      .. "return table.concat(h, ' ') end"), "board")
    assert.are.equal("1 2 3", g:show(1))
    assert.are.same({ 3, 1, 2 }, g:state().hands[1])
  end)

  it("a greedy bot's estimate in its copies may not change their piles, counters or RNG", function()
    local g = game_of(rules_with("estimate", "g.deck:push(7)"), "estimate")
    local view = seatmod.view(g, 1)
    local ok, err = pcall(bots.hint, view, "greedy", 1)
    assert.is_false(ok)
    assert.is_truthy(tostring(err):find("R.estimate cannot change the game: it called pile:push" .. WHY, 1, true),
      tostring(err))
  end)

  it("a bot's look at the unseen cards' texts leaves the game as it was", function()
    -- (lua/kontor/fork.lua asks R.card_text of the hidden cards on the game itself)
    local g = game_of(rules_with("card_text", "g.n = g.n + 1"), "card_text")
    local honest = game_of(rules_with("card_text", ""), "card_text")
    local lines = bots.hint(seatmod.view(g, 1), "greedy", 1)
    assert.are.same(bots.hint(seatmod.view(honest, 1), "greedy", 1), lines)
    assert.are.equal(3, g.ctx.n)
    assert.are.equal(snapshot(honest), snapshot(g))
  end)

  it("a seat's hand made with a card text that changes the game leaves it as it was", function()
    local g = game_of(rules_with("card_text", "g.n = g.n + 1"), "card_text")
    local honest = game_of(rules_with("card_text", ""), "card_text")
    local hand = seatmod.view(g, 1).hand()
    assert.are.same({ "5", "4", "7" }, hand)   -- each card by its number: its text was refused
    assert.are.equal(json.encode(honest:view(1)), json.encode(g:view(1)))
  end)
end)

describe("the shipped rule sets", function()
  for _, spec in ipairs { { "sea_merchants", 4 }, { "caribbean", 2 }, { "old_world", 4 },
                         { "caribbean", 2, "port_royal" }, { "sea_merchants", 3, "delivered_payout" },
                         { "sea_merchants", 2, "hand_limit" }, { "sea_merchants", 4, "house" },
                         { "sea_merchants", 3, "house_specials" }, { "sea_merchants", 4, "snake_draft" } } do
    it(spec[1] .. (spec[3] and " with " .. spec[3] or "") .. ": every view, board, state and result is allowed",
        function()
      local g = kontor.new_game { rules = spec[1], players = spec[2], seed = 1, variants = spec[3] and { spec[3] } }
      local rnd = support.random_of(3)
      for step = 1, 400 do
        if g:over() then break end
        for s = 1, spec[2] do g:view(s); g:show(s) end
        g:state()
        g:invariants()
        local seat = g:who()
        seat = type(seat) == "table" and seat[1] or seat
        local opts = g:options(seat)
        for i = 1, math.min(3, #opts) do describe_mod.option(g, seat, opts[i]) end
        bots.estimates(g)
        seatmod.view(g, seat).hand()
        if step % 40 == 1 then bots.hint(seatmod.view(g, seat), "greedy", 1) end
        g:apply(opts[rnd(#opts)], seat)
      end
      if g:over() then
        assert.is_table(g:result())
        describe_mod.why_won(g)
      end
    end)
  end
end)

describe("sandbox.limits", function()
  local csb = kontor.core and kontor.core.sandbox or require("kontor.core").sandbox
  it("refuses a key it does not know, naming those it does", function()
    local ok, err = pcall(csb.limits, { tme = 1 })
    assert.is_false(ok)
    assert.are.equal("bad argument #1 to 'limits' (no limit 'tme': the limits are "
      .. "memory, replay_time, time, work)", err)
  end)
  it("names itself in the errors of work and memory", function()
    local ok, err = pcall(csb.limits, { work = 10 })
    assert.is_false(ok)
    assert.are.equal("bad argument #1 to 'limits' (work must be at least 1000)", err)
    ok, err = pcall(csb.limits, { memory = "lots" })
    assert.is_false(ok)
    assert.are.equal("bad argument #1 to 'limits' (memory must be an integer, got string)", err)
    ok, err = pcall(csb.limits, { memory = 1024 })
    assert.is_false(ok)
    assert.are.equal("bad argument #1 to 'limits' (memory must be at least 1 MiB)", err)
  end)
end)
