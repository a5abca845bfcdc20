-- fs_spec.lua - kontor.core.fs: reading, atomic writing, listing.
local fs = kontor.core.fs

local support = require "tests.lua.support"
local sh_quote = support.sh_quote
local make_tmpdir = support.tmpdir   -- a fresh empty folder for each test

local function sh(cmd)
  local ok = os.execute(cmd)
  assert(ok, "command failed: " .. cmd)
end

local function all_bytes()
  local t = {}
  for i = 0, 255 do t[#t + 1] = string.char(i) end
  return table.concat(t)
end

describe("fs", function()
  local dir

  before_each(function()
    dir = make_tmpdir()
  end)

  after_each(function()
    sh("chmod -R u+rwx " .. sh_quote(dir) .. " && rm -rf " .. sh_quote(dir))
  end)

  describe("write_atomic", function()
    it("creates the file with the exact bytes", function()
      local path = dir .. "/save.json"
      local data = all_bytes() .. "\r\n\0end"
      assert.are.equal(true, fs.write_atomic(path, data))
      assert.are.equal(data, fs.read(path))
      local f = assert(io.open(path, "rb"))
      assert.are.equal(data, f:read("a"))
      f:close()
    end)

    it("writes an empty file", function()
      local path = dir .. "/empty"
      assert.are.equal(true, fs.write_atomic(path, ""))
      assert.are.equal("", fs.read(path))
    end)

    it("replaces an existing file and leaves no temp files", function()
      local path = dir .. "/save.json"
      assert.are.equal(true, fs.write_atomic(path, "old contents, quite long"))
      for i = 1, 20 do
        assert.are.equal(true, fs.write_atomic(path, "new " .. i))
      end
      assert.are.equal("new 20", fs.read(path))
      assert.are.same({ "save.json" }, fs.list(dir))
    end)

    it("writes a large file", function()
      local path = dir .. "/big"
      local data = string.rep("0123456789abcdef", 256 * 1024) -- 4 MiB
      assert.are.equal(true, fs.write_atomic(path, data))
      assert.are.equal(data, fs.read(path))
    end)

    it("fails cleanly in a directory that does not exist", function()
      local path = dir .. "/nodir/save.json"
      local ok, msg = fs.write_atomic(path, "x")
      assert.is_nil(ok)
      assert.are.equal(path .. ": cannot create a file in the folder " .. dir .. "/nodir: No such file or directory", msg)
      assert.are.same({}, fs.list(dir))
    end)

    it("fails on a directory without touching it", function()
      local path = dir .. "/sub"
      sh("mkdir " .. sh_quote(path))
      local ok, msg = fs.write_atomic(path, "x")
      assert.is_nil(ok)
      assert.are.equal(path .. ": rename failed: Is a directory", msg)
      assert.are.same({ "sub" }, fs.list(dir))
    end)

    it("refuses a path that names no file", function()
      local ok, msg = fs.write_atomic(dir .. "/", "x")
      assert.is_nil(ok)
      assert.are.equal(dir .. "/: not a file name", msg)
    end)

    it("leaves the old file intact when the directory is read-only", function()
      local path = dir .. "/save.json"
      assert.are.equal(true, fs.write_atomic(path, "old"))
      sh("chmod 555 " .. sh_quote(dir))
      -- root ignores permissions: probe before trusting the test
      local probe = io.open(dir .. "/probe", "w")
      if probe then
        probe:close()
        os.remove(dir .. "/probe")
        pending("running as root: directory permissions are not enforced")
      end
      local ok, msg = fs.write_atomic(path, "new")
      assert.is_nil(ok)
      assert.are.equal(path .. ": cannot create a file in the folder " .. dir .. ": Permission denied", msg)
      assert.are.equal("old", fs.read(path))
      assert.are.same({ "save.json" }, fs.list(dir))
    end)

    it("raises on wrong argument types", function()
      assert.has_error(function() fs.write_atomic(dir .. "/x") end)
      assert.has_error(function() fs.write_atomic(nil, "x") end)
      assert.has_error(function() fs.write_atomic(dir .. "/x\0y", "x") end)
    end)
  end)

  describe("read", function()
    it("gives nil and a message naming a missing file", function()
      local path = dir .. "/missing.json"
      local data, msg = fs.read(path)
      assert.is_nil(data)
      assert.are.equal(path .. ": No such file or directory", msg)
    end)

    it("gives nil and a message for a directory", function()
      local data, msg = fs.read(dir)
      assert.is_nil(data)
      assert.are.equal(dir .. ": Is a directory", msg)
    end)
  end)

  describe("list", function()
    it("lists names sorted bytewise, without . and ..", function()
      for _, name in ipairs({ "b", "a.txt", "C", "a", ".hidden" }) do
        assert(fs.write_atomic(dir .. "/" .. name, name))
      end
      assert.are.same({ ".hidden", "C", "a", "a.txt", "b" }, fs.list(dir))
    end)

    it("gives nil and a message for a missing directory", function()
      local list, msg = fs.list(dir .. "/none")
      assert.is_nil(list)
      assert.are.equal(dir .. "/none: No such file or directory", msg)
    end)
  end)

  describe("exists, realpath, mtime", function()
    it("tell about files that exist and those that do not", function()
      local path = dir .. "/f"
      assert.are.equal(false, fs.exists(path))
      assert(fs.write_atomic(path, "x"))
      assert.are.equal(true, fs.exists(path))
      assert.are.equal(true, fs.exists(dir))

      local real = fs.realpath(dir .. "/./f")
      assert.are.equal(fs.realpath(dir) .. "/f", real)
      local none, msg = fs.realpath(dir .. "/none")
      assert.is_nil(none)
      assert.are.equal(dir .. "/none: No such file or directory", msg)

      local t = fs.mtime(path)
      assert.are.equal("integer", math.type(t))
      assert.is_true(math.abs(t - os.time()) < 3600)
      assert.is_nil((fs.mtime(dir .. "/none")))
    end)
  end)

  describe("dirname and basename", function()
    it("split paths like the POSIX tools", function()
      local cases = {
        -- path,        dirname, basename
        { "a/b/c.json", "a/b", "c.json" },
        { "c.json",     ".",   "c.json" },
        { "/c",         "/",   "c" },
        { "/",          "/",   "/" },
        { "a/b/",       "a",   "b" },
        { "a//b",       "a",   "b" },
        { "a/",         ".",   "a" },
        { "",           ".",   "" },
      }
      for _, c in ipairs(cases) do
        assert.are.equal(c[2], fs.dirname(c[1]), "dirname of " .. c[1])
        assert.are.equal(c[3], fs.basename(c[1]), "basename of " .. c[1])
      end
    end)
  end)
end)
