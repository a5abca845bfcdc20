-- Every ruling of RULINGS.md is stated in docs/rules/, next to its rule
-- (the guide: "state every ruling you implement in docs/"). The ids and
-- their ranges are RULINGS.md's: S1-S12 (Sea Merchants), H1-H10 (the
-- house variants), C1-C10 (Caribbean), O1-O34 and the tables T1-T11 (Old
-- World). RULINGS.md itself lies outside the repository, so the ranges
-- are written here.
local support = dofile("tests/lua/support.lua")

local RANGES = {
  { "S", 12, "sea_merchants.md" }, { "H", 10, "house.md" }, { "C", 10, "caribbean.md" },
  { "O", 34, "old_world.md" }, { "T", 11, "old_world.md" },
}

describe("docs/rules", function()
  it("states every ruling id of RULINGS.md in the doc of its rule set", function()
    local missing = {}
    for _, r in ipairs(RANGES) do
      local text = support.read("docs/rules/" .. r[3])
      for i = 1, r[2] do
        local id = r[1] .. i
        -- the id as a word: O1 is not found inside O12 or "O1-O34"'s O34
        if not (" " .. text .. " "):find("%f[%w]" .. id .. "%f[^%w]") then
          missing[#missing + 1] = id .. " (" .. r[3] .. ")"
        end
      end
    end
    assert.are.same({}, missing)
  end)
end)
