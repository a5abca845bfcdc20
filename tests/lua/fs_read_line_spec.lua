-- fs_read_line_spec.lua - kontor.core.fs.read_line(file, max): the next
-- line of a file handle and its length, at most max + 1 bytes of it kept
-- (kontor serve's requests: lua/l_fs.c).

local support = require "tests.lua.support"
local fs = kontor.core.fs
local tmp, cleanup = support.scratch()
teardown(cleanup)

local function file_with(name, text)
  local path = tmp(name)
  support.write(path, text)
  return assert(io.open(path, "rb"))
end

describe("fs.read_line", function()
  it("gives each line without its newline, its length, then nil", function()
    local f = file_with("lines.txt", "one\n\nthree is longer\nlast")
    assert.same({ "one", 3 }, { fs.read_line(f, 100) })
    assert.same({ "", 0 }, { fs.read_line(f, 100) })
    assert.same({ "three is longer", 15 }, { fs.read_line(f, 100) })
    assert.same({ "last", 4 }, { fs.read_line(f, 100) })   -- a last line without "\n"
    assert.is_nil(fs.read_line(f, 100))
    assert.is_nil(fs.read_line(f, 100))
    f:close()
  end)

  it("keeps max + 1 bytes of a long line and counts the rest, then reads on", function()
    local long = string.rep("x", 10000) .. "y"
    local f = file_with("long.txt", long .. "\nafter\n")
    local line, n = fs.read_line(f, 5)
    assert.equal("xxxxxx", line)
    assert.equal(10001, n)
    assert.same({ "after", 5 }, { fs.read_line(f, 5) })
    f:close()
  end)

  it("reads a line of exactly a chunk's length and one of many chunks whole", function()
    local a, b = string.rep("a", 4096), string.rep("b", 3 * 4096 + 7)
    local f = file_with("chunks.txt", a .. "\n" .. b .. "\n")
    assert.same({ a, 4096 }, { fs.read_line(f, 1 << 20) })
    assert.same({ b, #b }, { fs.read_line(f, 1 << 20) })
    assert.is_nil(fs.read_line(f, 1 << 20))
    f:close()
  end)

  it("refuses what is not an open file or a length", function()
    local f = file_with("x.txt", "x\n")
    assert.has_error(function() fs.read_line(f, -1) end, "bad argument #2 to 'read_line' (a length 0..2^40 expected)")
    f:close()
    assert.has_error(function() fs.read_line(f, 5) end, "bad argument #1 to 'read_line' (a closed file)")
    assert.has_error(function() fs.read_line("x.txt", 5) end)
  end)
end)
