-- tests/repl/tour.lua: runs the console transcripts of docs/repl.md.
--
-- A transcript is a ```console block. A line "$ kontor ARGS" starts the
-- program; each following line "> TEXT" is typed, and the lines after it,
-- up to the next "> ", are what it prints. A block that starts with "> "
-- goes on with the program of the block before. Lines between "$ kontor"
-- and the first "> " are the banner (printed on a terminal only: the tmux
-- test checks it). Other "$ " lines are shell commands, run as they are. A
-- board row "> Name: 3 coins; ..." (the seat to move) is output, not typing.
--
-- The doc's scratch folder is /tmp/tour; the tests run it in a fresh
-- folder of their own (other tests may run at the same time), written
-- wherever the doc says /tmp/tour.
--
--   local tour = dofile("tests/repl/tour.lua")
--   local dir = tour.tempdir()
--   local steps, blocks = tour.parse(tour.localize(text, dir))
--   tour.run(bin, args, { "board", "1" }) -> { output1, output2 }

local M = {}

M.MARK = "@@kontor-tour@@"
M.DIR = "/tmp/tour"

-- A fresh, empty folder.
function M.tempdir()
  local p = assert(io.popen("mktemp -d"))
  local d = p:read("l")
  p:close()
  return d
end

local function plain(s) return (s:gsub("%p", "%%%0")) end

-- The doc with its scratch folder M.DIR moved to `dir`.
function M.localize(doc, dir)
  return (doc:gsub(plain(M.DIR), (dir:gsub("%%", "%%%%"))))
end

-- steps: { kind = "shell", cmd = } or { kind = "kontor", args =, banner = {lines},
-- cmds = {texts}, outs = {texts}, block_of = {block index per command} };
-- blocks: the number of console blocks.
function M.parse(doc)
  local steps = {}
  local cur
  local bi = 0
  for block in doc:gmatch("```console\n(.-)```") do
    bi = bi + 1
    local first = true
    for line in block:gmatch("([^\n]*)\n") do
      local args = line:match("^%$ kontor ?(.*)$")
      local shell = line:match("^%$ (.*)$")
      local typed = line:match("^> (.*)$")
      if typed and typed:match("^[%w ]+: %-?%d+ coins;") then typed = nil end
      if first and not typed then cur = nil end
      first = false
      if args then
        cur = { kind = "kontor", args = args, banner = {}, cmds = {}, outs = {}, block_of = {},
                banner_block = bi }
        steps[#steps + 1] = cur
      elseif shell then
        steps[#steps + 1] = { kind = "shell", cmd = shell, block = bi }
        cur = nil
      elseif typed and cur then
        cur.cmds[#cur.cmds + 1] = typed
        cur.outs[#cur.outs + 1] = {}
        cur.block_of[#cur.cmds] = bi
      elseif cur then
        if #cur.cmds == 0 then cur.banner[#cur.banner + 1] = line
        else table.insert(cur.outs[#cur.outs], line) end
      end
    end
  end
  for _, s in ipairs(steps) do
    if s.kind == "kontor" then
      for i, o in ipairs(s.outs) do s.outs[i] = table.concat(o, "\n") end
    end
  end
  return steps, bi
end

-- Runs the program with `cmds` on stdin; returns what each command printed.
function M.run(bin, args, cmds)
  local inp = os.tmpname()
  local f = assert(io.open(inp, "w"))
  for _, c in ipairs(cmds) do
    f:write(c, "\n", 'do io.stdout:write("', M.MARK, '\\n") end\n')
  end
  f:close()
  local p = assert(io.popen(string.format("%s %s <%s 2>&1", bin, args, inp)))
  local out = p:read("a")
  p:close()
  os.remove(inp)
  local outs = {}
  local mark = M.MARK:gsub("%p", "%%%0") .. "\n"
  for chunk in (out):gmatch("(.-)" .. mark) do
    outs[#outs + 1] = (chunk:gsub("\n$", ""))
  end
  -- after `quit` no mark comes: what is left is the last command's output
  if #outs < #cmds then
    local rest = out:match(".*" .. mark .. "(.*)$") or out
    outs[#outs + 1] = (rest:gsub("\n$", ""))
  end
  return outs, out
end

-- Runs every step of `doc` in `dir` (the doc's /tmp/tour; default: a fresh
-- folder); returns the steps with `got` (outputs) filled, and the folder.
function M.run_all(bin, doc, dir)
  dir = dir or M.tempdir()
  local steps, nblocks = M.parse(M.localize(doc, dir))
  for _, s in ipairs(steps) do
    if s.kind == "shell" then
      s.ok = os.execute(s.cmd)
    else
      s.got = M.run(bin, s.args, s.cmds)
    end
  end
  return steps, nblocks, dir
end

-- The doc with every console block's outputs replaced by what the program printed.
function M.render(bin, doc)
  local steps, _, dir = M.run_all(bin, doc)
  local back = function(x) return (x:gsub(plain(dir), M.DIR)) end
  for _, s in ipairs(steps) do
    if s.cmd then s.cmd = back(s.cmd) end
    if s.args then s.args = back(s.args) end
    for i, c in ipairs(s.cmds or {}) do s.cmds[i] = back(c) end
    for i, o in ipairs(s.got or {}) do s.got[i] = back(o) end
  end
  os.execute("rm -rf '" .. dir .. "'")
  local blocks = {}
  local function add(b, line) blocks[b] = blocks[b] or {}; table.insert(blocks[b], line) end
  for _, s in ipairs(steps) do
    if s.kind == "shell" then add(s.block, "$ " .. s.cmd)
    else
      add(s.banner_block, "$ kontor " .. s.args)
      for _, l in ipairs(s.banner) do add(s.banner_block, l) end
      for i, c in ipairs(s.cmds) do
        add(s.block_of[i], "> " .. c)
        if s.got[i] and s.got[i] ~= "" then add(s.block_of[i], s.got[i]) end
      end
    end
  end
  local bi = 0
  return (doc:gsub("```console\n(.-)```", function()
    bi = bi + 1
    return "```console\n" .. table.concat(blocks[bi] or {}, "\n") .. "\n```"
  end))
end

return M
