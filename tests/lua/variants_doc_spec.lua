-- Every code block of docs/designing-variants.md, run in order in an empty
-- folder, as a reader would: `-- file: NAME` blocks are saved as NAME,
-- `-- example` blocks run (their `--> value` comments are what print must
-- show), and `$ kontor ...` lines of sh blocks are run with the output that
-- follows them checked (all but the machine-dependent speed line).

local BIN = os.getenv("KONTOR") or "build/kontor"

local HARNESS = [==[
local doc, bin = arg[1], arg[2]
local text = assert(io.open(doc)):read("a")
local env = setmetatable({}, { __index = _G })
local blocks = 0

local function fail(fmt, ...)
  io.stderr:write("FAIL: ", string.format(fmt, ...), "\n")
  os.exit(1)
end

local function lines(s)
  local t = {}
  for l in (s .. "\n"):gmatch("(.-)\n") do t[#t + 1] = l end
  while t[#t] == "" do t[#t] = nil end
  return t
end

local function run_lua(body)
  local out = {}
  env.print = function(...)
    local t = table.pack(...)
    for i = 1, t.n do t[i] = tostring(t[i]) end
    out[#out + 1] = table.concat(t, "\t")
  end
  local f, err = load(body, "=docs/designing-variants.md block " .. blocks, "t", env)
  if not f then fail("%s", err) end
  local ok, rerr = pcall(f)
  if not ok then fail("block %d: %s", blocks, tostring(rerr)) end
  local expected = {}
  for _, l in ipairs(lines(body)) do
    local e = l:match("%-%-> (.*)$")
    if e then expected[#expected + 1] = e end
  end
  for i = 1, math.max(#out, #expected) do
    if out[i] ~= expected[i] then
      fail("block %d, line %d printed %q, the doc says %q", blocks, i, tostring(out[i]), tostring(expected[i]))
    end
  end
end

local function run_sh(body)
  local cmd, want = nil, {}
  local function finish()
    if not cmd then return end
    local p = assert(io.popen(bin .. cmd:sub(#"kontor" + 1) .. " 2>&1"))
    local got = {}
    for _, l in ipairs(lines(p:read("a"))) do
      if not l:match("^speed ") then got[#got + 1] = l end
    end
    local ok, how, code = p:close()
    if not ok then fail("'%s' exited with %s %s", cmd, tostring(how), tostring(code)) end
    for i = 1, math.max(#got, #want) do
      if got[i] ~= want[i] then
        fail("'%s' line %d: got %q, the doc says %q", cmd, i, tostring(got[i]), tostring(want[i]))
      end
    end
  end
  for _, l in ipairs(lines(body)) do
    local c = l:match("^%$ (.*)$")
    if c then
      finish()
      if not c:match("^kontor") then fail("sh block %d: '%s' does not start with kontor", blocks, c) end
      cmd, want = c, {}
    else
      want[#want + 1] = l
    end
  end
  finish()
end

for lang, body in text:gmatch("```(%w+)\n(.-)```") do
  blocks = blocks + 1
  if lang == "lua" then
    local name = body:match("^%-%- file: (%S+)\n")
    if name then
      local f = assert(io.open(name, "w")); f:write(body); f:close()
    elseif body:match("^%-%- example\n") then
      run_lua(body)
    end
  elseif lang == "sh" then
    run_sh(body)
  end
end
print("OK " .. blocks)
]==]

describe("docs/designing-variants.md", function()
  it("every code block runs as written, in order, in an empty folder", function()
    local dir = os.tmpname()
    os.remove(dir)
    assert(os.execute("mkdir -p " .. dir))
    local harness = dir .. "/harness.lua"
    local f = assert(io.open(harness, "w")); f:write(HARNESS); f:close()
    local root = assert(io.popen("pwd")):read("l")
    local bin = BIN:sub(1, 1) == "/" and BIN or (root .. "/" .. BIN)
    local p = assert(io.popen(string.format("cd %s && KONTOR_PATH= %s run harness.lua %s/docs/designing-variants.md %s 2>&1",
      dir, bin, root, bin)))
    local out = p:read("a")
    p:close()
    os.execute("rm -rf " .. dir)
    assert.truthy(out:match("OK %d+"), out)
    assert.truthy(tonumber(out:match("OK (%d+)")) >= 8, out)
  end)
end)
