-- kontor.files: the one file policy (docs/security.md, "The boundary:
-- files, text, work").
--
-- Every file a game or a document names passes `check` before anything
-- opens it: a save file (`load`, `replay`, serve's `load` with a path),
-- the rule and variant files a save or a save document names (`resolve`),
-- and those a rule file names (`named_in`: a preset's includes).
-- Every file the program writes goes through `write` or `writer`: written
-- beside the target, synced and renamed onto it, so a full disk, an I/O
-- error or a kill leaves the old file or the new one, whole, never a part;
-- a failure is one message naming the file and the step.

local core = require "kontor.core"
local fs = core.fs

local M = {}

M.MAX_SAVE = 16 * 1024 * 1024    -- bytes of a save file
M.MAX_SCRIPT = 1024 * 1024       -- bytes of a rule or variant file a save names

-- path relative to folder `dir` when it is inside it, else nil.
function M.inside(path, dir)
  if dir == "/" then return path:sub(2) end
  if path:sub(1, #dir + 1) == dir .. "/" then return path:sub(#dir + 2) end
  return nil
end
local inside = M.inside

function M.is_path(spec)
  return spec:find("/", 1, true) ~= nil or spec:match("%.lua$") ~= nil
end

-- The folders a save (or a save document) may take rule and variant files
-- from: its own folder (`dir`; the current folder for a document), the
-- current folder, and the rule search path, each with their subfolders.
function M.allowed_dirs(dir)
  local dirs = { dir, fs.realpath(".") }
  for _, d in ipairs(require("kontor.rules").path()) do dirs[#dirs + 1] = fs.realpath(d) end
  return dirs
end

local OUTSIDE = "outside the folders a save may name (the save's folder, the current folder, "
  .. "KONTOR_PATH and the installed variants): put it next to the save file or add its folder to KONTOR_PATH"

-- The one check. purpose "save": a regular file of at most MAX_SAVE bytes;
-- "script": a regular .lua file of at most MAX_SCRIPT bytes inside one of
-- `dirs`. Nothing is opened (fs.stat opens nothing; fs.read opens with
-- O_NONBLOCK and reads regular files only). Returns the absolute path, or
-- nil and why.
function M.check(path, purpose, dirs)
  if type(path) ~= "string" or path == "" or path:find("\0", 1, true) then
    return nil, "not a file name"
  end
  local st = fs.stat(path)
  if not st then return nil, "no such file" end
  if st.type ~= "file" then return nil, "not a regular file" end
  local max = purpose == "script" and M.MAX_SCRIPT or M.MAX_SAVE
  if st.size > max then
    return nil, string.format("too large (%d bytes; at most %d)", st.size, max)
  end
  local abs = fs.realpath(path)
  if not abs then return nil, "no such file" end
  if purpose ~= "script" then return abs end
  if not abs:match("%.lua$") then return nil, "not a .lua file" end
  for _, d in ipairs(dirs or {}) do
    if d and (inside(abs, d) or abs == d) then return abs end
  end
  return nil, OUTSIDE
end

-- The text of a file that passed `check`: (text) or (nil, "path: why").
-- A save file's checks are fs.read's own (a regular file, opened without
-- blocking, at most MAX_SAVE bytes): its messages are the system's.
function M.read(path, purpose, dirs)
  if purpose == "save" then return fs.read(path, M.MAX_SAVE) end
  local _, why = M.check(path, purpose, dirs)
  if why then return nil, path .. ": " .. why end
  return fs.read(path, purpose == "script" and M.MAX_SCRIPT or M.MAX_SAVE)
end

-- A rule set or variant a save or document names -> the spec to load it
-- by, or nil and a message. Names are looked up on the rule search path;
-- paths are tried relative to `dir` (the save's folder), then as recorded
-- (`entry.path`), then as written, and must pass check(_, "script", dirs).
function M.resolve(spec, entry, dir, dirs)
  if type(spec) ~= "string" or spec == "" then return nil, "a rule set or variant must be a name or a path" end
  if not M.is_path(spec) then
    if not spec:match("^[%w_%-]+$") then
      return nil, string.format("'%s' is not a rule set name (letters, digits, _ and -)", spec)
    end
    return spec
  end
  if not spec:match("%.lua$") then
    return nil, string.format("%s: a save may name only .lua rule files", spec)
  end
  local tried = {}
  local function try(c)
    if c and not tried[c] then tried[#tried + 1] = c; tried[c] = true end
  end
  if spec:sub(1, 1) ~= "/" then try(dir .. "/" .. spec) end
  local rec = entry and entry.path
  if type(rec) == "string" and rec:match("%.lua$") then
    try(rec:sub(1, 1) == "/" and rec or (dir .. "/" .. rec))
  end
  try(spec)
  for _, c in ipairs(tried) do
    if fs.stat(c) then
      local abs, why = M.check(c, "script", dirs)
      if not abs then return nil, string.format("%s: refused: %s", c, why) end
      return abs
    end
  end
  return nil, string.format("%s: no such file (looked next to the save file and where it was saved)", spec)
end

-- A rule or variant file named inside another rule file (a preset's
-- `includes`, a variant's `base`) by `file`: a name as it is, or a path
-- that passes check(_, "script") with the folders of `file` (its own,
-- the current folder, the rule search path), as a save's would. Returns
-- spec, or nil and "spec: refused: why".
function M.named_in(spec, file)
  if type(spec) ~= "string" or not M.is_path(spec) then return spec end
  local dir = type(file) == "string" and file:match("^(.*)/[^/]*$") or "."
  dir = fs.realpath(dir == "" and "/" or dir)
  local abs, why = M.check(spec, "script", M.allowed_dirs(dir))
  if not abs then return nil, string.format("%s: refused: %s", spec, why) end
  return spec
end

-- An existing target that is not a regular file (a device, a FIFO, a
-- folder) is refused: the rename would replace it.
local function target_ok(path)
  if type(path) ~= "string" or path == "" then return nil, tostring(path) .. ": not a file name" end
  local st = fs.stat(path)
  if st and st.type ~= "file" then return nil, path .. ": not a regular file (refused as an output)" end
  return true
end

-- An output of the balance lab (a report, a chart, the games) replaces a
-- file already at `path` only when that file is one of its kind (`mark`
-- in its first 64 KiB) or empty: `--report notes.txt` keeps the notes.
-- `what` names the kind. Returns true, or nil and why.
function M.ours(path, mark, what)
  local st = fs.stat(path)
  if not st or st.type ~= "file" or st.size == 0 then return true end
  local head = fs.read(path, 65536, true)
  if head and head:find(mark, 1, true) then return true end
  return nil, string.format("%s: the file exists and is not %s: not replaced (give another name)", path, what)
end

-- Writes `data` to path atomically: true, or nil and "path: step failed: why".
function M.write(path, data)
  local ok, why = target_ok(path)
  if not ok then return nil, why end
  return fs.write_atomic(path, data)
end

-- A file written in pieces: w:write(...) then w:commit() (true, or nil and
-- a message); until the commit the old file stays, and a writer dropped
-- without a commit (an error in between) leaves no temp file. Raises the
-- message on failure when `raise` is set (the lab's outputs).
function M.writer(path)
  local ok, why = target_ok(path)
  if not ok then return nil, why end
  return fs.atomic(path)
end

-- Writes the file `produce(w)` writes, all or nothing: true, or nil and a
-- message. `produce` may raise; the old file then stays.
function M.write_with(path, produce)
  local w, err = M.writer(path)
  if not w then return nil, err end
  local pok, perr = pcall(produce, function(...)
    local r, e = w:write(...)
    if not r then error(e, 0) end
  end)
  if not pok then w:abort(); return nil, tostring(perr) end
  return w:commit()
end

return M
