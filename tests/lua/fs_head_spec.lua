-- fs_head_spec.lua - fs.read(path, max, true): the first max bytes of a
-- regular file of any size (lua/l_fs.c), what kontor.files.ours reads.

local support = require "tests.lua.support"
local fs = kontor.core.fs
local tmp, cleanup = support.scratch()
teardown(cleanup)

describe("fs.read's head", function()
  it("is the first max bytes of a larger file, the whole of a smaller one", function()
    local p = tmp("ten")
    support.write(p, "0123456789")
    assert.equal("01234", fs.read(p, 5, true))
    assert.equal("0123456789", fs.read(p, 10, true))
    assert.equal("0123456789", fs.read(p, 64, true))
    assert.equal("", fs.read(p, 0, true))
    -- without head, a larger file is refused as before
    local none, why = fs.read(p, 5)
    assert.is_nil(none)
    assert.equal(p .. ": file too large (over 5 bytes)", why)
  end)

  it("refuses what is not a regular file, as a whole read does", function()
    local d = tmp("dir")
    os.execute("mkdir -p " .. support.sh_quote(d))
    local none, why = fs.read(d, 5, true)
    assert.is_nil(none)
    assert.equal(d .. ": Is a directory", why)
    none, why = fs.read("/dev/zero", 5, true)
    assert.is_nil(none)
    assert.equal("/dev/zero: not a regular file", why)
  end)
end)
