-- kontor compare says in how many pairs A and B played the same game (the
-- same steps, seat and option text, and the same measures, the options
-- per decision apart), in its text and --json (docs/balance.md, section
-- 6). Before, a bid cap of 1 that Old World's greedy seats never reached
-- printed every difference 0 with narrow intervals, and nothing said the
-- two sides had played the very same games.
local support = require "tests.lua.support"
local json = require("kontor").core.json

local BID_CAP = [[
return {
  variant = true, name = "bid_cap", base = "old_world",
  options = { cap = { default = 2, type = "integer", min = 0, doc = "the highest bid" } },
  apply = function(R, opts)
    R.constraints = R.constraints or {}
    R.constraints[#R.constraints + 1] = { decisions = { "bid" },
      check = function(g, seat, decision, text)
        local n = tonumber(text:match("(%d+)"))
        if n and n > opts.cap then return "no bid above " .. opts.cap end
      end }
  end,
}
]]

local dir
local function kontor(args)
  local bin = support.binary()
  if bin:sub(1, 1) ~= "/" then bin = os.getenv("PWD") .. "/" .. bin end
  return support.run("cd " .. support.sh_quote(dir) .. " && " .. bin .. " " .. args)
end

describe("kontor compare of a change that never came into play", function()
  setup(function()
    dir = support.tmpdir()
    support.write(dir .. "/bid_cap.lua", BID_CAP)
  end)
  teardown(function() os.execute("rm -rf " .. support.sh_quote(dir)) end)

  it("says the sides played the same games, though B's menus were shorter", function()
    local args = "compare --bot greedy:depth=1 --a '' --b '--variant ./bid_cap.lua:cap=1' --rules old_world"
      .. " --players 2 --games 6 --jobs 1"
    local out, rc = kontor(args)
    assert.are.equal(0, rc, out)
    local l = support.lines(out)
    assert.are.equal("A and B played the same games in 6 of 6 pairs: the change never came into play with these "
      .. "players", l[4], out)
    local a, b = out:match("\noptions per decision +(%d+%.%d+) +(%d+%.%d+)")
    assert.are_not.equal(a, b)            -- the menus differ; the games do not
  end)

  it("counts the pairs that were the same where the change came into play in others, with any --jobs", function()
    local args = "compare --a '' --b '--variant hand_limit:size=9' --games 40"
    local line = "A and B played the same game in 5 of 40 pairs: the change came into play in the other 35"
    assert.are.equal(line, support.lines((kontor(args .. " --jobs 1")))[4])
    assert.are.equal(line, support.lines((kontor(args .. " --jobs 2")))[4])
    assert.are.equal(5, json.decode((kontor(args .. " --jobs 1 --json --no-moves"))).same_games)
    -- and the report, under its first line
    kontor(args .. " --jobs 1 --no-moves --report r.html")
    assert.truthy(support.has(support.read(dir .. "/r.html"), '<p id="same-games">A and B played the same game in 5 '
      .. 'of 40 pairs: the change came into play in the other 35.</p>'))
  end)

  it("says nothing where no pair was the same, and has no count unpaired", function()
    local out = kontor("compare --a '' --b '--variant ./bid_cap.lua' --rules old_world --players 4 --games 30 --jobs 1")
    assert.is_nil(out:find("same game", 1, true), out)
    assert.are.equal("", support.lines(out)[4])
    local j = json.decode((kontor("compare --a '' --b '--variant ./bid_cap.lua' --rules old_world --players 4"
      .. " --games 30 --jobs 1 --json --no-moves")))
    assert.are.equal(0, j.same_games)
    j = json.decode((kontor("compare --a '' --b '' --games 30 --jobs 1 --json --no-moves --unpaired")))
    assert.is_nil(j.same_games)
  end)

  it("is said per value in a sweep, against the first value", function()
    local args = "sweep --variant hand_limit --over size=9,5,30 --games 40 --jobs 1 --no-moves"
    local l = support.lines((kontor(args)))
    assert.are.equal("first        --rules sea_merchants --variant hand_limit:size=9", l[2])
    assert.are.equal("size=30 played the same games as size=9 in 5 of 40 pairs", l[3])
    assert.are.equal("", l[4])
    assert.are.same({ 0, 5 }, json.decode((kontor(args .. " --json"))).same_games)
  end)
end)
