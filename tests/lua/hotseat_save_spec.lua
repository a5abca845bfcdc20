-- hotseat_save_spec.lua: `save FILE` in play says how many moves the file
-- holds (a QA pass of Old World hot-seat play, 3 people). Bob, while Ann's
-- bid was still secret, saved: "Saved 1 move to b.json (what Bob sees)",
-- and the file held none (Ann's bid is left out of what Bob may see).
local support = require "tests.lua.support"
local json = require "kontor.core".json

describe("play: save during secret bids", function()
  local dir
  before_each(function() dir = support.tmpdir() end)
  after_each(function() os.execute("rm -rf " .. support.sh_quote(dir)) end)

  it("counts the moves the file holds, not the others' secret bids", function()
    local bin = support.binary()
    bin = bin:sub(1, 1) == "/" and bin or (os.getenv("PWD") .. "/" .. bin)
    local out = support.run("cd " .. support.sh_quote(dir) .. " && " .. support.sh_quote(bin)
      .. " play --rules old_world --players 3 --names Ann,Bob,Cy --seed 7",
      "bid 2\nsave b.json\nbid 1\nsave c.json\n")
    local note = " It holds no deal, which that seat may not see yet: a record of the moves, not a game to go on with.\n"
    assert.truthy(support.has(out, "\nSaved 0 moves to b.json (what Bob sees)." .. note), out)
    assert.truthy(support.has(out, "\nSaved 0 moves to c.json (what Cy sees)." .. note), out)
    for _, f in ipairs { "b.json", "c.json" } do
      assert.are.same({}, json.decode(support.read(dir .. "/" .. f)).actions)
    end
  end)
end)
