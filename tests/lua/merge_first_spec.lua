-- merge_first_spec.lua: kontor merge refuses shards that measure the
-- first player otherwise: Old World's first-player advantage is of the
-- seat that took the first turn (O9), a shard made before that measured
-- seat 1, and summing the two gave a number of neither.
local support = require "tests.lua.support"
local tmp, cleanup_tmp = support.scratch()
teardown(cleanup_tmp)

local BIN = support.plain_binary()

local function shard(k, rules)
  local path = tmp(rules .. "_" .. k .. ".json")
  local out, _, code = support.run_split(BIN .. " sim --rules " .. rules .. " --players 2 --games 10 --seed 3 --shard "
    .. k .. "/2")
  assert.are.equal(0, code)
  support.write(path, out)
  return path
end

describe("kontor merge", function()
  it("refuses an Old World shard without the drawn first player beside one with it", function()
    local a, b = shard(1, "old_world"), shard(2, "old_world")
    local text = support.read(a)
    assert.truthy(text:find('"drawn_first":true', 1, true))
    -- as a kontor before the measure wrote it
    support.write(a, (text:gsub('"drawn_first":true,', ""):gsub(',"drawn_first":true', "")))
    local out, e, code = support.run_split(BIN .. " merge " .. support.sh_quote(a) .. " " .. support.sh_quote(b))
    assert.are.equal("", out)
    assert.are.equal(1, code)   -- as for shards of another run
    assert.truthy(support.has(e, "kontor: merge: shard 2 (games 6-10) measures the first player otherwise than "
      .. "shard 1 (by a fixed seat, or by who took the first turn where the rule set draws it): one was made by "
      .. "another version of kontor; make them again with one"), e)
  end)

  it("merges shards that measure it alike, Old World's and Sea Merchants'", function()
    for _, rules in ipairs { "old_world", "sea_merchants" } do
      local out = support.kontor_rc("merge " .. shard(1, rules) .. " " .. shard(2, rules))
      assert.truthy(support.has(out, "games        10 (seed 3)"), out)
      assert.truthy(support.has(out, "rc=0\n"), out)
    end
  end)
end)
