-- designer_variant_option_spec.lua: a variant's option given as the rule
-- set's (--option pay=2 for --variant ./sell_card.lua:pay=2) is told whose
-- it is and how to give it (a QA finding: it said only "unknown option
-- 'pay' for sea_merchants (options: dock_at_once, ...)", which names
-- neither the variant nor the form that works).
local support = require "tests.lua.support"

describe("a variant's option given with --option", function()
  local tmp, cleanup = support.scratch()
  teardown(cleanup)

  local OPTS = "(options: dock_at_once, exchange_new_ship, first_player, start_coins)"

  it("names the variant and the --variant form, in sim and at the REPL's start", function()
    local f = support.write(tmp("sell_card.lua"), 'return { variant = true, name = "sell_card", base = "sea_merchants",\n'
      .. '  options = { pay = { default = 1, type = "integer", min = 0 } },\n'
      .. '  apply = function(R, o) R.data.contract_bonus = o.pay end }\n')
    local out, e, code = support.run_split(support.plain_binary() .. " sim --variant " .. f .. " --option pay=2 --games 2")
    assert.are.equal(2, code)
    assert.are.equal("", out)
    assert.are.equal("kontor: sim: unknown option 'pay' for sea_merchants " .. OPTS .. ": 'pay' is an option of the "
      .. "variant sell_card: --variant " .. f .. ":pay=2\nTry 'kontor --help'.\n", e)
    out = support.run(support.plain_binary() .. " --variant " .. f .. " --players 2", "new pay=3\n")
    assert.are.equal("unknown option 'pay' for sea_merchants " .. OPTS .. ": 'pay' is an option of the variant "
      .. "sell_card: new variant=" .. f .. ":pay=3\n", out)
  end)

  it("of a variant a preset includes: the form through the preset, which works", function()
    local _, e = support.run_split(support.plain_binary() .. " sim --variant house --option size=5 --games 2")
    assert.are.equal("kontor: sim: unknown option 'size' for sea_merchants " .. OPTS .. ": 'size' is an option of "
      .. "the variant hand_limit: --variant house:hand_limit.size=5\nTry 'kontor --help'.\n", e)
    local out, e2, code = support.run_split(support.plain_binary() .. " sim --variant house:hand_limit.size=5 --games 2")
    assert.are.equal(0, code, e2)
    assert.truthy(support.has(out, "rules        sea_merchants + house:hand_limit.size=5"), out)
  end)

  it("of a variant not in the game: names it, and the --variant that adds it (sim, REPL, serve)", function()
    -- was: "unknown option 'size' for sea_merchants (options: ...)" alone,
    -- though the shipped hand_limit variant has that option
    local out, e, code = support.run_split(support.plain_binary() .. " sim --option size=5 --games 2")
    assert.are.equal(2, code)
    assert.are.equal("", out)
    assert.are.equal("kontor: sim: unknown option 'size' for sea_merchants " .. OPTS .. ": 'size' is an option of "
      .. "the variant hand_limit, not in this game: add it with --variant hand_limit:size=5\nTry 'kontor --help'.\n", e)
    out = support.run(support.plain_binary() .. " --players 2", "new size=4\n")
    assert.are.equal("unknown option 'size' for sea_merchants " .. OPTS .. ": 'size' is an option of the variant "
      .. "hand_limit, not in this game: new variant=hand_limit:size=4\n", out)
    local lines = support.serve_lines { '{"id":1,"op":"new","options":{"size":5}}' }
    assert.are.equal('{"error":{"code":"game_setup","message":"unknown option \'size\' for sea_merchants '
      .. OPTS .. ': \'size\' is an option of the variant hand_limit, not in this game: add it to \\"variants\\" '
      .. 'as \\"hand_limit:size=5\\""},"id":1,"ok":false}', lines[1])
    -- and what it says works
    local o2, e2, c2 = support.run_split(support.plain_binary() .. " sim --variant hand_limit:size=5 --games 2")
    assert.are.equal(0, c2, e2)
    assert.truthy(support.has(o2, "rules        sea_merchants + hand_limit:size=5"), o2)
  end)

  it("of several variants not in the game: names them all, in sim, the REPL and serve alike", function()
    -- was: the command line named both, the REPL and serve only the first
    local dir = tmp("path")
    os.execute("mkdir -p " .. dir)
    support.write(dir .. "/deep_hold.lua", 'return { variant = true, name = "deep_hold", base = "sea_merchants",\n'
      .. '  options = { size = { default = 9, type = "integer", min = 1 } },\n'
      .. '  apply = function(R, o) R.data.deep = o.size end }\n')
    local env = "KONTOR_PATH=" .. dir .. " "
    local both = ": 'size' is an option of the variants deep_hold, hand_limit, not in this game: "
    local _, e = support.run_split(env .. support.plain_binary() .. " sim --option size=5 --games 2")
    assert.are.equal("kontor: sim: unknown option 'size' for sea_merchants " .. OPTS .. both
      .. "add it with --variant deep_hold:size=5\nTry 'kontor --help'.\n", e)
    local out = support.run(env .. support.plain_binary() .. " --players 2", "new size=4\n")
    assert.are.equal("unknown option 'size' for sea_merchants " .. OPTS .. both .. "new variant=deep_hold:size=4\n", out)
    out = support.run(env .. support.plain_binary() .. " serve", '{"id":1,"op":"new","options":{"size":5}}\n')
    assert.are.equal('{"error":{"code":"game_setup","message":"unknown option \'size\' for sea_merchants '
      .. OPTS .. both .. 'add it to \\"variants\\" as \\"deep_hold:size=5\\""},"id":1,"ok":false}\n', out)
  end)

  it("given as text, is kept as its option's type: serve's games and a save show 5, not \"5\"", function()
    -- was: {"size":"5"} in games until the game was saved and loaded
    local lines = support.serve_lines {
      '{"id":1,"op":"new","variants":["hand_limit:size=5","house_specials"],"players":2,"seed":1}',
      '{"id":2,"op":"new","variants":["house:hand_limit.size=5"],"players":2,"seed":1}',
      '{"id":3,"op":"games"}', '{"id":4,"op":"save","game":"g2"}' }
    assert.truthy(lines[3]:find('"variants":[{"name":"hand_limit","options":{"size":5}},'
      .. '{"name":"house_specials","options":{}}]', 1, true), lines[3])
    assert.truthy(lines[3]:find('"variants":[{"name":"house","options":{"hand_limit.size":5}}]', 1, true), lines[3])
    assert.truthy(lines[4]:find('"variants":[{"name":"house","options":{"hand_limit.size":5}}]', 1, true), lines[4])
  end)

  it("saved as a number, still loads after the variant made that option a text", function()
    -- (a save records 5 as a number since options keep their type; a
    -- variant edited since to take a text would refuse it: "5 is not a string")
    local f = tmp("tag.lua")
    local function variant(decl)
      support.write(f, 'return { variant = true, name = "tag", base = "sea_merchants",\n'
        .. '  options = { tag = ' .. decl .. ' },\n  apply = function(R, o) R.data.tag_seen = o.tag end }\n')
    end
    variant('{ default = 1, type = "integer" }')
    local g = kontor.new_game { rules = "sea_merchants", players = 2, seed = 1, variants = { f .. ":tag=5" } }
    assert.is_true(g:apply(1))
    local path = tmp("tag.json")
    assert.is_nil(select(2, g:save(path)))
    assert.truthy(support.read(path):find('"tag": 5', 1, true), support.read(path))
    variant('{ default = "x", type = "string" }')
    local back, err = kontor.load_game(path)
    assert.is_nil(err)
    assert.are.equal("5", back.R.applied[1].options.tag)
    assert.are.same({ "1: " .. g:actions()[1]:match(": (.*)$") }, back:actions())
  end)

  it("an option no variant has: as before, with its close word", function()
    local _, e = support.run_split(support.plain_binary() .. " sim --option start_coin=5 --games 2")
    assert.are.equal("kontor: sim: unknown option 'start_coin' for sea_merchants " .. OPTS
      .. ": did you mean 'start_coins'?\nTry 'kontor --help'.\n", e)
  end)
end)
