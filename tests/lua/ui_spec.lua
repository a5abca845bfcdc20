-- repl/ui.lua: the helpers the REPL and play share take plain data (texts,
-- lists, an output session), never a game; what they return and print.

local ui = require "ui"
local ktext = require "kontor.text"

local support = require "tests.lua.support"
local BIN = support.plain_binary()

-- The program's output for `args` with `stdin` as its input.
local function kontor_cmd(args, stdin) return (support.run(BIN .. " " .. args, stdin)) end

-- A session as the helpers see it: its output collected in `out`.
local function fake_session()
  local s = { out = {}, bots = { [3] = {} }, names = { "Ann", "Bob", "Cy" } }
  function s:say(...)
    local parts = table.pack(...)
    local t = {}
    for i = 1, parts.n do t[i] = ktext.piece(parts[i]) end
    self.out[#self.out + 1] = table.concat(t)
  end
  function s:err(msg) self.out[#self.out + 1] = "ERR " .. msg end
  function s:c(name, text) return ui.color(false, name, text) end
  function s:name(seat) return self.names[seat] or ("seat " .. tostring(seat)) end
  function s:decision_words(name) return ui.decision_words(name) end
  function s:status() return "STATUS" end
  return s
end

describe("repl/ui.lua", function()
  it("measures edit distance once, in kontor.text, for both front ends and the API", function()
    assert.are.equal(ktext.distance, ui.distance)
    assert.are.equal(1, ui.distance("optoins", "options"))   -- two letters swapped: one slip
    assert.are.equal(1, ui.distance("bord", "board"))
    assert.are.equal(2, ui.distance("otpinos", "options"))   -- two slips
    assert.are.equal(99, ui.distance("ab", "abcdef"))
  end)

  it("with a limit, gives the distance up to it and limit + 1 past it, as the full table would", function()
    -- (the band and the letters' filter that keep a rule set's load cheap:
    -- every pair of short words over four letters, against the full table)
    local words, letters = {}, { "a", "b", "c", "d" }
    local function grow(w)
      words[#words + 1] = w
      if #w < 5 then for _, l in ipairs(letters) do grow(w .. l) end end
    end
    grow("")
    local bad = 0
    for i = 1, #words, 7 do
      for j = 1, #words, 11 do
        local a, b = words[i], words[j]
        local full = ktext.distance(a, b)
        for limit = 0, 2 do
          local d = ktext.distance(a, b, limit)
          if (full <= limit and d ~= full) or (full > limit and d ~= limit + 1 and full ~= 99) then bad = bad + 1 end
        end
      end
    end
    assert.are.equal(0, bad)
    assert.are.equal(1, ktext.distance("baord", "board", 2))
    assert.are.equal(3, ktext.distance("card_effects", "card_kinds", 2))   -- e, f, t: three letters lacking
  end)

  it("suggests the closest word, the earlier list winning a tie", function()
    assert.are.equal("options", ui.suggest("optoins", { { "load" }, { "options" } }))
    assert.are.equal("board", ui.suggest("bord", { { "board" }, { "boart" } }))
    assert.is_nil(ui.suggest("zz", { { "zzz" } }))
    assert.is_nil(ui.suggest("xyzzy", { { "board", "options" } }))
  end)

  it("parses a seat by number or name, else names the seats", function()
    local names = { "Ann", "Bob" }
    assert.are.equal(2, ui.parse_seat(" 2 ", names, 2))
    assert.are.equal(1, ui.parse_seat("ann", names, 2))
    local n, e = ui.parse_seat("Cy", names, 2)
    assert.is_nil(n)
    assert.are.equal("no seat 'Cy' (seats: 1 Ann, 2 Bob)", e)
  end)

  it("counts N or says what N must be", function()
    local s = fake_session()
    assert.are.equal(1, ui.count_arg(s, "", "undo"))
    assert.are.equal(3, ui.count_arg(s, "3", "undo"))
    assert.is_nil(ui.count_arg(s, "x", "log"))
    assert.is_nil(ui.count_arg(s, "0", "undo"))
    assert.is_nil(ui.count_arg(s, "-2", "redo"))
    assert.are.same({ "ERR log N: N must be a whole number above 0, not 'x'",
      "ERR undo N: N must be a whole number above 0, not '0'",
      "ERR redo N: N must be a whole number above 0, not '-2'" }, s.out)
  end)

  it("gives the number forms of a move's words", function()
    assert.are.same({ "play fish on slots 1" }, ui.number_forms("play fish on slot 1"))
    assert.are.same({ "slots 2 ships 1", "slot 2 ship 1", "slots 2 ship 1" }, ui.number_forms("slot 2 ships 1"))
  end)

  it("marks the option that stops a move only when another goes on", function()
    local acts = { "1: play fish on slot 1" }
    assert.are.equal("play fish on slot 1",
      ui.stop_text(acts, 1, { "play fish on slot 1", "play fish on slot 1,4" }))
    assert.is_nil(ui.stop_text(acts, 2, { "play fish on slot 1", "play fish on slot 1,4" }))
    assert.is_nil(ui.stop_text(acts, 1, { "play fish on slot 1", "pass" }))
    assert.is_true(ui.extends({ "buy dock", "buy dock 2" }, "buy dock"))
    assert.is_false(ui.extends({ "buy dock", "pass" }, "buy dock"))
    assert.is_true(ui.starts_option({ "load fish on ship 1" }, "load"))
    assert.is_false(ui.starts_option({ "loader" }, "load"))
  end)

  it("prints options, moves, undo and the result in the front ends' words", function()
    local s = fake_session()
    ui.print_options(s, { "pass", "buy dock" }, nil, function(o) return o ~= "pass" and "3 coins" or nil end)
    ui.print_moves(s, { "1: pass", "3: buy dock" })
    ui.say_undone(s, { { 2, "pass" } })
    ui.print_result(s, { scores = { 4, 9, 9 }, winners = { 2, 3 } }, 3, nil, 7)
    assert.are.same({
      "  1  pass", "  2  buy dock  (3 coins)",
      "1  Ann: pass", "2  Cy: buy dock",
      "Undid 1 move: Bob: pass", "STATUS",
      "Game over. Final scores:", "  Ann     4", "  Bob     9  winner", "  Cy      9  winner",
      "Winners: Bob, Cy", "Seed 7 (new seed=7 plays this deal again).",
    }, s.out)
  end)

  it("says who decides, with the looking seat's own secret order", function()
    local s = fake_session()
    assert.are.equal("Ann, Cy (bot) to choose (phase 1).",
      ui.status(s, { 1, 3 }, { kind = "player", name = "phase1" }))
    assert.are.equal("Bob to enter a secret order (bid). Bob's order so far: 2; next: bid more.",
      ui.status(s, { 2 }, { kind = "orders", name = "bid" }, { seat = 2, pending = { "2" }, step = "bid_more" }))
  end)

  it("completes option words and command names", function()
    local out, add = ui.adder()
    ui.complete_options(add, { "load fish on ship 1", "load cloth", "pass" }, "load f", "f")
    ui.complete_commands(add, { "board", "bots", "undo" }, "bo")
    add("board")
    assert.are.same({ "fish", "board", "bots" }, out)
  end)

  it("a bad N refuses the command: undo 0 takes nothing back, in the REPL and in play", function()
    for _, front in ipairs { "repl", "play" } do
      local out = kontor_cmd(front .. " --players 2 --seed 4", "1\nundo 0\nundo -1\nmoves\n")
      assert.truthy(out:find("undo N: N must be a whole number above 0, not '0'\n", 1, true))
      assert.truthy(out:find("undo N: N must be a whole number above 0, not '-1'\n", 1, true))
      assert.falsy(out:find("Undid", 1, true))
      assert.falsy(out:find("count above 0", 1, true))
      assert.truthy(out:find("\n1  Player 1: ", 1, true))
    end
  end)
end)
