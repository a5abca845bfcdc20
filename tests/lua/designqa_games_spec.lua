-- designqa_games_spec.lua: what a game designer meets writing house
-- variants of Merchants of the Caribbean and Merchants of the Old World
-- from the docs alone (a QA pass after designqa_spec.lua's of Sea
-- Merchants): each mistake gives one clear message, each hook a variant
-- needs is there.
local support = require "tests.lua.support"

local tmp, cleanup = support.scratch()
teardown(cleanup)

-- the program, by a path that works from another folder
local BIN = io.popen("realpath " .. support.sh_quote(support.plain_binary())):read("l")

-- kontor ARGS: stdout, stderr, exit status.
local function run(args, stdin)
  return support.run_split(support.plain_binary() .. " " .. args, stdin)
end

describe("a variant that sets a misspelt field in an entry of a list in R.data", function()
  it("is refused at its line with the field it is close to, not played as the base game", function()
    local f = support.write(tmp("guild.lua"), [[
return { variant = true, base = "old_world",
  apply = function(R)
    for _, b in ipairs(R.data.buildings) do
      if b.id == "guild_hall" then b.guild_vpp = 2 end
    end
  end }
]])
    local dir = f:match("^(.*)/[^/]*$")
    local out, e, code = support.run_split("cd " .. support.sh_quote(dir) .. " && " .. support.sh_quote(BIN)
      .. " sim --rules old_world --variant ./guild.lua --games 2")
    assert.are.same({ "", 1 }, { out, code })
    -- the message docs/designing-variants.md gives for it
    local doc = support.read("docs/designing-variants.md"):match("gives `(%./guild%.lua:4: R%.data%.buildings[^`]*)`")
    assert.truthy(doc)
    assert.are.equal("kontor: sim: " .. doc .. "\n", e)
    -- a field no entry has, far from every name, is the variant's own: fine
    local own = support.write(tmp("own.lua"), [[
return { variant = true, base = "old_world",
  apply = function(R)
    for _, b in ipairs(R.data.buildings) do b.designer_note = "x" end
  end }
]])
    out, e, code = run("sim --rules old_world --variant " .. own .. " --games 2 --no-moves")
    assert.are.equal(0, code, e)
    assert.truthy(out:find("^rules        old_world %+ "), out)
    -- a field of another entry given to this one (a Pier's VP for the Guild
    -- Hall), misspelt, is near that entry's field too
    local pier = support.write(tmp("pier.lua"), [[
return { variant = true, base = "old_world",
  apply = function(R)
    for _, b in ipairs(R.data.buildings) do
      if b.id == "guild_hall" then b.pier_pv = 1 end
    end
  end }
]])
    out, e, code = run("sim --rules old_world --variant " .. pier .. " --games 2")
    assert.are.same({ "", 1 }, { out, code })
    assert.truthy(e:find("guild_hall%.pier_pv") or e:find("%[16%]%.pier_pv is not in the data of old_world .*did you mean 'pier_vp'"), e)
    -- Caribbean's skills, a table of tables: a misspelt skill number
    local c = support.write(tmp("trader.lua"), [[
return { variant = true, base = "caribbean",
  apply = function(R) local s = R.data.skills.Trader; s.tradr = 2 end }
]])
    out, e, code = run("sim --rules caribbean --variant " .. c .. " --games 2")
    assert.are.same({ "", 1 }, { out, code })
    assert.truthy(e:find(":2: R%.data%.skills%.Trader%.tradr is not in the data of caribbean %(nothing would read it%): "
      .. "did you mean 'trader'%? %(R%.data%.skills%.Trader: trader%)"), e)
  end)
end)

describe("a variant that gives an Old World tile's number another type", function()
  it("is refused when the game is made, with the tile and the field, not in the game that staffs it", function()
    local f = support.write(tmp("two.lua"), [[
return { variant = true, base = "old_world",
  apply = function(R)
    for _, b in ipairs(R.data.buildings) do
      if b.id == "guild_hall" then b.guild_vp = "two" end
    end
  end }
]])
    local out, e, code = run("sim --rules old_world --variant " .. f .. " --games 2")
    assert.are.same({ "", 1 }, { out, code })
    assert.truthy(e:find("R.prepare failed after the variants: R.data.buildings[16] (guild_hall): guild_vp must be "
      .. "a whole number >= 0, not 'two'\n", 1, true), e)
    -- (before, `sim` played on, exit 0: a guild hall on a ship of one good is rare among random seats)
    local ok, err = pcall(kontor.new_game, { rules = "old_world", variants = { f }, players = 3, seed = 1 })
    assert.is_false(ok)
    assert.truthy(tostring(err.message or err):find("guild_vp must be a whole number >= 0, not 'two'", 1, true))
    local cost = support.write(tmp("cost.lua"), [[
return { variant = true, base = "old_world",
  apply = function(R) R.data.lands[1].cost = 1.5 end }
]])
    out, e, code = run("sim --rules old_world --variant " .. cost .. " --games 2")
    assert.are.same({ "", 1 }, { out, code })
    assert.truthy(e:find("R.data.lands[1] (sheep_herding): cost must be a whole number >= 0, not 1.5\n", 1, true), e)
  end)
end)
