-- hotseat_as_spec.lua: the REPL's `as N` shows nothing of another seat's
-- secret order (a QA pass of hot-seat play, Old World, 3 players). With
-- `as 2` shown, a move typed for Ann while she entered her build order
-- was refused with her options ("expected one of: assign
-- woad_plantation, done": the land she had bought in secret), `why 1:`
-- said the same, TAB after `do assign ` completed to `woad_plantation`,
-- and once Bob had finished, a move typed without a seat went to Ann's
-- order, its refusal listing her options too.
local support = require "tests.lua.support"
local tmux = dofile("tests/repl/tmux.lua")

local BIN = support.binary()
local has = support.has
local ARGS = "--rules old_world --players 3 --names Ann,Bob,Cy --seed 7"

-- Bids and picks of turn 1, then Ann (seen `as 2`) buys a Woad Plantation
-- in her secret order and ends its releases.
local START = "1: bid 2\n2: bid 0\n3: bid 3\n3: pick facility worker\n1: pick land worker\n"
  .. "as 2\n1: acquire land:woad_plantation\n1: done\n"

local HIDDEN = "'%s' is not a legal action for Ann (seat 1); shown as Bob, the reason is not: it would tell what "
  .. "Bob may not see (`as 1` or `as all` shows it)\n"

describe("the REPL's `as N` during secret orders", function()
  it("a refused move of another seat, and why, do not list its options", function()
    local out = support.kontor_rc(ARGS, START .. "1: bogus\nwhy 1: acquire none\n")
    assert.truthy(has(out, HIDDEN:format("bogus") .. HIDDEN:format("acquire none")), out)
    assert.falsy(has(out, "woad_plantation, done"), out)
  end)

  it("`as all` still gives the referee the reason", function()
    local out = support.kontor_rc(ARGS, START .. "as all\n1: bogus\n")
    assert.truthy(has(out, "\n'bogus' is not a legal action: now: your build order's assignments (O14): 'assign ...' "
      .. "or 'done'; expected one of: assign woad_plantation, done\n"), out)
  end)

  it("a move without a seat is the shown seat's, refused with whose turn it is", function()
    local out = support.kontor_rc(ARGS, START .. "2: acquire none\n2: done\nacquire bogus\ndone\nhint\n")
    assert.truthy(has(out, "\n'acquire bogus': it is not Bob's turn to decide (waiting for Ann, Cy: build order)\n"
      .. "'done': it is not Bob's turn to decide (waiting for Ann, Cy: build order)\n"
      .. "Bob (seat 2) has no decision now. Ann, Cy to enter their secret orders (build order). (`as 1` or `as all` "
      .. "shows those options.)\n"), out)
    -- Ann's order is as she left it: the `done` above was not hers
    local all = support.kontor_rc(ARGS, START .. "2: acquire none\n2: done\ndone\nas all\nmoves\n")
    assert.truthy(has(all, "\n6  Ann: acquire land:woad_plantation\n7  Ann: done\n8  Bob: acquire none\n"
      .. "9  Bob: done\n"), all)
    assert.falsy(has(all, "\n10  "), all)
  end)

  it("TAB completes the shown seat's options only", function()
    if not tmux.available() then return pending("tmux is not installed") end
    local t = tmux.start(BIN .. " " .. ARGS, { NO_COLOR = "1", HOME = support.tmpdir() })
    finally(function() t:stop() end)
    assert.truthy(t:wait_for("\n>$"))
    for line in START:gmatch("[^\n]+") do t:send(line, "Enter") end
    assert.truthy(t:wait_for("Bob's order so far: nothing; next: acquire%.\n>$"))
    -- what the screen shows from the line being typed on
    local function typed(from)
      os.execute("sleep 0.5")
      local s = t:screen()
      local at
      for i in s:gmatch("()> " .. from) do at = i end
      return at and s:sub(at) or s
    end
    t:send("do assign", "Tab", "Tab")
    local s = typed("do assign")
    assert.truthy(s:match("^> do assign ?$"), s)
    t:send("C-u", "do 1: ", "Tab", "Tab")
    s = typed("do 1:")
    assert.truthy(s:match("^> do 1: ?$"), s)
    -- Bob's own options complete
    t:send("C-u", "do acquire land:wo", "Tab")
    assert.truthy(t:wait_for("> do acquire land:woad_plantation"), t:screen())
  end)
end)
