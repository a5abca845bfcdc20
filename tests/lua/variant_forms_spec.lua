-- variant_forms_spec.lua: a variant with options may be named in the
-- command-line form "name:k=v,..." wherever a variant is named (issue 12).
local support = require "tests.lua.support"
local rules = require "kontor.rules"
local tmp, cleanup_tmp = support.scratch()
teardown(cleanup_tmp)

local function size_of(g)
  for _, v in ipairs(g.R.applied) do
    if v.name == "hand_limit" then return v.options.size end
  end
end

describe("a variant named as 'name:k=v'", function()
  it("works in kontor.new_game, like { name, options = {...} }", function()
    local g = kontor.new_game { variants = { "hand_limit:size=5" } }
    assert.are.equal(5, size_of(g))
    local h = kontor.new_game { variants = { { "hand_limit", options = { size = 5 } } } }
    assert.are.same(h:options(), g:options())
    assert.are.equal(5, size_of(h))
  end)

  it("takes several options, spaces around them, and a preset's member.option", function()
    local g = kontor.new_game { variants = { "hand_limit: size = 4 , overflow=discard" } }
    local o = g.R.applied[1].options
    assert.are.same({ 4, "discard", 2 }, { o.size, o.overflow, o.per_warehouse })
    local house = kontor.new_game { variants = { "house:hand_limit.size=3" } }
    assert.are.equal(3, size_of(house))
  end)

  it("works in kontor.load_rules and kontor.sim", function()
    local R = kontor.load_rules("sea_merchants", { "hand_limit:size=7" })
    assert.are.equal(7, R.applied[1].options.size)
    local s = kontor.sim { variants = { "hand_limit:size=7" }, players = 3, games = 2, seed = 1 }
    assert.are.same({ "hand_limit:size=7" }, s.variants)   -- the summary names it as given
  end)

  it("works in a preset's includes", function()
    local preset = support.write(tmp("small_hands.lua"), [[
      return { variant = true, base = "sea_merchants", summary = "small hands",
               includes = { "snake_draft", "hand_limit:size=3" } }]])
    local g = kontor.new_game { variants = { preset } }
    assert.are.equal(3, size_of(g))
    -- an option given to the preset still wins over the included text
    local g2 = kontor.new_game { variants = { preset .. ":hand_limit.size=9" } }
    assert.are.equal(9, size_of(g2))
  end)

  it("options given in a table win over those in the text", function()
    local g = kontor.new_game { variants = { { "hand_limit:size=4", options = { size = 8 } } } }
    assert.are.equal(8, size_of(g))
  end)

  it("is kept by save files: a loaded game has the same options", function()
    local g = kontor.new_game { players = 3, variants = { "hand_limit:size=4" } }
    for _ = 1, 5 do assert(g:apply(1)) end
    local path = tmp("limit.json")
    assert.is_true(g:save(path))
    local doc = kontor.json.decode(support.read(path))
    assert.are.equal(1, #doc.variants)
    assert.are.equal("hand_limit", doc.variants[1].name)
    assert.are.equal("4", tostring(doc.variants[1].options.size))   -- as typed, or as the text gave it
    local back = assert(kontor.load_game(path))
    assert.are.equal(4, size_of(back))
    assert.are.same(g:actions(), back:actions())
  end)

  it("gives the command line's messages for a bad form", function()
    support.fails(function() kontor.new_game { variants = { "hand_limit:size" } } end,
      "bad variant option 'size' in 'hand_limit:size' (expected k=v)")
    support.fails(function() kontor.new_game { variants = { "hand_limit:size=x" } } end,
      "option size of hand_limit: 'x' is not a whole number")
    support.fails(function() kontor.new_game { variants = { "hand_limit:sise=3" } } end,
      "unknown option 'sise' for hand_limit (options: overflow, per_warehouse, size)")
    support.fails(function() kontor.new_game { variants = { 5 } } end,
      "a variant is a name, a file or { name, options = {...} }, not a number")
  end)

  it("is parsed by rules.parse_variant", function()
    assert.are.same({ "hand_limit", { size = "5", overflow = "stop" } },
      { rules.parse_variant("hand_limit:size=5,overflow=stop") })
    assert.are.same({ "snake_draft" }, { rules.parse_variant("snake_draft") })
  end)
end)
