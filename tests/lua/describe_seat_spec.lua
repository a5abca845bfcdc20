-- describe_seat_spec.lua: an option's description (R.describe_option)
-- tells a seat nothing it may not see, whatever the rule script reads
-- (docs/security.md, "Seat views"). The hostile rule set
-- tests/rulesets/leaky_describe.lua describes every option with the other
-- seats' drafts of an open order, what their entries wrote under g, the
-- deck and every hand; before, seat 1's REPL listing, `kontor play`'s
-- note, serve's decision and the module's seat view showed seat 2's pick
-- and cards.
local kdescribe = require "kontor.describe"
local seatmod = require "kontor.seat"
local serve = require "serve"
local repl = require "repl"
local json = kontor.core.json

local RULES = "tests/rulesets/leaky_describe.lua"

-- A game where seat 1 picked blue and seat 2 entered `pick2` (or nothing),
-- on deal `deal` (what seat 1 cannot see differs between 0 and 1).
local function game(deal, pick2, options)
  local o = { deal = deal }
  for k, v in pairs(options or {}) do o[k] = v end
  local g = kontor.new_game { rules = RULES, players = 2, seed = 3, options = o }
  if pick2 then assert(g:apply(pick2, 2)) end
  assert(g:apply("pick blue", 1))
  return g
end

-- serve's `why` for seat 1's refused text.
local function serve_why(g)
  local sess = serve.new_session(kontor)
  sess:add(g, { game = "w" })
  return sess:handle(json.encode { id = 2, game = "w", op = "why", seat = 1, action = "pick purple" })
end

-- Every description of seat 1's options, and the reason a text of its is
-- refused, through each front end.
local function descriptions(g)
  local out = {}
  for _, o in ipairs(g:options(1)) do
    out[#out + 1] = "describe: " .. tostring(kdescribe.option(g, 1, o))
    out[#out + 1] = "seat view: " .. tostring(seatmod.view(g, 1).note(o))
  end
  local sess = serve.new_session(kontor)
  sess:add(g, { game = "t" })
  out[#out + 1] = "serve: " .. json.encode(sess:handle(json.encode { id = 1, game = "t", op = "decision", seat = 1 }))
  -- why a text of seat 1's is refused: the reason R.explain gives
  out[#out + 1] = "why: " .. tostring(g:why("pick purple", 1))
  out[#out + 1] = "seat view why: " .. tostring(seatmod.view(g, 1).why("pick purple"))
  out[#out + 1] = "serve why: " .. json.encode(serve_why(g))
  -- the REPL's `options` as seat 1: every line it says
  local r = repl.session(kontor, g)
  local said = {}
  r.say = function(_, ...)
    local parts = {}
    for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
    said[#said + 1] = table.concat(parts)
  end
  r:print_options(1)
  out[#out + 1] = "repl: " .. table.concat(said, "\n")
  return out
end

local TWINS = { { 0 }, { 0, "pick red" }, { 0, "pick green" }, { 1, "pick green" }, { 1 } }

describe("an option's description, seen by one seat", function()
  it("is the same whatever another seat entered or holds", function()
    local first = descriptions(game(TWINS[1][1], TWINS[1][2]))
    for i = 2, #TWINS do
      assert.are.same(first, descriptions(game(TWINS[i][1], TWINS[i][2])))
    end
  end)

  it("reads the seat's own draft and hand, and no one else's entry", function()
    local s = kdescribe.option(game(1, "pick green"), 1, "pick red")
    assert.matches("^seat 1, pick, pick red: drafts 1=pick blue 2=; spy 1=pick blue 2=; deck [%d+]+; "
      .. "hands 1=7%+6 2=%d%+%d$", s)
    assert.is_nil(s:find("green", 1, true))
    -- the game itself holds seat 2's pick
    assert.are.same({ "pick green" }, game(1, "pick green"):pending(2))
  end)

  it("follows the game as it moves on", function()
    local g = game(0, "pick red")
    assert(g:apply("pick red", 1))       -- seat 1's order is done: seat 2's still open
    assert.matches("^seat 2, pick, pick red: drafts 1= 2=pick red; spy 1= 2=pick red; ",
      kdescribe.option(g, 2, "pick red"))
    assert(g:apply("pick blue", 2))      -- revealed: the next round's orders
    for s = 1, 2 do
      assert.matches("^seat " .. s .. ", pick, pick red: drafts 1= 2=; spy 1= 2=; ", kdescribe.option(g, s, "pick red"))
    end
  end)

  it("of chance's options, entered by hand, comes from the game; the seats' from their copies", function()
    -- (a copy made for chance, seat 0, left Old World's replays for the
    -- seats broken at steps 125 and 152: "not asked")
    local g = kontor.new_game { rules = "old_world", players = 3, seed = 3, manual_chance = true }
    local asked, chance = 0, 0
    for i = 1, 160 do
      local who = g:who()
      local s = type(who) == "table" and who[1] or who
      local opts = g:options(s)
      for _, o in ipairs(opts) do
        local d = kdescribe.option(g, s, o)
        assert.is_nil(d and d:find("not asked", 1, true), d)
        asked = asked + 1
        if s == "chance" then chance = chance + 1 end
      end
      assert(g:apply(opts[(i * 5) % #opts + 1], s ~= "chance" and s or nil))
    end
    assert.is_true(chance > 0 and asked > chance, asked .. " options, " .. chance .. " of chance")
  end)

  it("lets Ctrl-C through while the copy is made, and makes it again after", function()
    local fork = require "kontor.fork"
    local g = game(0, "pick red")
    local sample = fork.sample
    fork.sample = function() error(kontor.errors.new("interrupt", "interrupted"), 0) end
    local ok, e = pcall(kdescribe.option, g, 1, "pick red")
    fork.sample = sample
    assert.is_false(ok)
    assert.are.equal("interrupt", kontor.errors.kind(e))
    assert.matches("^seat 1, pick, pick red: drafts 1=pick blue 2=; ", kdescribe.option(g, 1, "pick red"))
  end)

  it("is not asked for when the game cannot be copied as the seat sees it", function()
    local a = kdescribe.option(game(0, nil, { peek = true }), 1, "pick red")
    local b = kdescribe.option(game(1, "pick green", { peek = true }), 1, "pick red")
    assert.are.equal("R.describe_option not asked: the game cannot be copied as seat 1 may see it "
      .. "(a bot at that seat fails too, saying why)", a)
    assert.are.equal(a, b)
  end)
end)

describe("a seat's bot, when the game cannot be copied as the seat sees it", function()
  it("says where the rule script keeps the hidden card, not which card it is", function()
    local g = kontor.new_game { rules = RULES, players = 2, seed = 3, options = { peek = true } }
    local card = g.ctx._peek
    assert.matches("^card %d$", card)
    local ok, lines, err = pcall(seatmod.view(g, 1).hint, "greedy")
    local msg = tostring(ok and (lines and table.concat(lines, "\n") or err) or lines)
    assert.truthy(msg:find("g._peek holds a card seat 1 cannot see, kept outside a pile", 1, true), msg)
    assert.falsy(msg:find(card, 1, true), msg)
  end)
end)

