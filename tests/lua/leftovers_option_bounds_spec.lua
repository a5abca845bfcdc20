-- leftovers_option_bounds_spec.lua - an option's declared bounds are what
-- its rule takes: every whole-number option of every rule set and variant
-- starts a game at its declared min and at its declared max (what `kontor
-- serve`'s list and the options' help offer), and hand_limit's size starts
-- at the 3 cards dealt (S3), with the rule's own message kept for a base
-- that deals more (docs/rules/house.md, H5).
local kontor = require "kontor"
local rules = require "kontor.rules"
local support = require "tests.lua.support"

-- Every rule set and variant: { name, R (loaded file), base }.
local function all_files()
  local out = {}
  for _, e in ipairs(rules.list()) do
    if e.kind ~= "broken" then
      local R = assert(rules.load_file(e.file))
      out[#out + 1] = { name = e.name, R = R, base = R.variant and R.base or e.name }
    end
  end
  return out
end

-- A game of `f` with option k = v (its own, or its variant's), at the most
-- seats its base takes (first_player may be any of them).
local function start(f, k, v)
  local base = assert(rules.load_file(assert(rules.find(f.base))))
  local players = base.players.max
  if f.R.variant then
    return kontor.new_game { rules = f.base, variants = { { f.name, options = { [k] = v } } },
                             players = players, seed = 1 }
  end
  return kontor.new_game { rules = f.base, options = { [k] = v }, players = players, seed = 1 }
end

describe("declared option bounds", function()
  it("every whole-number option starts a game at its declared min and max", function()
    local tried = {}
    for _, f in ipairs(all_files()) do
      local names = {}
      for k in pairs(f.R.options or {}) do names[#names + 1] = k end
      table.sort(names)
      for _, k in ipairs(names) do
        local d = f.R.options[k]
        for _, edge in ipairs { "min", "max" } do
          if d[edge] and (d.type == "integer" or math.type(d.default) == "integer") then
            local ok, err = pcall(start, f, k, d[edge])
            assert(ok, string.format("%s option %s=%d (its %s): %s", f.name, k, d[edge], edge, tostring(err)))
            tried[#tried + 1] = string.format("%s.%s=%d", f.name, k, d[edge])
          end
        end
      end
    end
    assert.truthy(#tried >= 14, table.concat(tried, " "))
    assert.truthy(support.has(table.concat(tried, " "), "hand_limit.size=3"), table.concat(tried, " "))
  end)

  it("hand_limit's size declares the 3 cards dealt (S3) as its min", function()
    local V = assert(rules.load_file(assert(rules.find("hand_limit"))))
    local base = kontor.load_rules("sea_merchants")
    assert.are.equal(3, V.options.size.min)
    assert.are.equal(base.data.hand_at_start, V.options.size.min)
    support.fails(function()
      kontor.new_game { rules = "sea_merchants", variants = { "hand_limit:size=2" }, players = 2, seed = 1 }
    end, "option size of hand_limit: 2 is below the minimum 3")
  end)

  it("and keeps its own message for a base that deals more", function()
    local dir = support.tmpdir()
    support.write(dir .. "/deal_five.lua", [[
return { variant = true, name = "deal_five", base = "sea_merchants", summary = "5 cards dealt",
         apply = function(R) R.data.hand_at_start = 5 end }
]])
    local function game(size)
      return kontor.new_game { rules = "sea_merchants", players = 2, seed = 1,
                               variants = { dir .. "/deal_five.lua", "hand_limit:size=" .. size } }
    end
    local ok, err = pcall(game, 4)
    local g5 = game(5)
    os.execute("rm -rf " .. support.sh_quote(dir))
    assert.is_false(ok)
    assert.truthy(support.has(tostring(err),
      "variant hand_limit: option size of hand_limit: 4 is below the 5 cards each player is dealt (S3)"), tostring(err))
    assert.are.equal(5, g5.hands[1]:count())
  end)

  it("kontor serve's list offers hand_limit's size from 3", function()
    local out = support.run(support.binary() .. " serve", '{"op":"list","id":1}\n')
    local reply = kontor.json.decode(out:match("^[^\n]*"))
    local size
    for _, v in ipairs(reply.result.variants) do
      if v.name == "hand_limit" then
        for _, o in ipairs(v.options) do if o.name == "size" then size = o end end
      end
    end
    assert.are.same({ 3, 6 }, { size.min, size.default })
  end)
end)
