-- api_doc_spec.lua - runs the examples of docs/api.md: every ```lua block
-- whose first line is `-- example`. A line `print(...)  --> value` must print
-- `value` (the text after `-->` up to two spaces or the end of the line; the
-- print's values are joined by tabs, as print does).
-- Run: build/kontor run tests/busted.lua tests/lua/api_doc_spec.lua

local function examples()
  local f = assert(io.open("docs/api.md", "rb"))
  local doc = f:read("a")
  f:close()
  local out = {}
  local line_no
  local pos = 1
  while true do
    local s, e, body = doc:find("```lua\n(.-)```", pos)
    if not s then break end
    local _, before = doc:sub(1, s):gsub("\n", "")
    line_no = before + 1
    if body:match("^%-%- example\n") then out[#out + 1] = { body = body, line = line_no } end
    pos = e + 1
  end
  return out
end

-- The block with each `print(...) --> value` turned into a check.
local function instrument(body)
  local lines, expected = {}, {}
  for line in (body .. "\n"):gmatch("(.-)\n") do
    local indent, args, want = line:match("^(%s*)print(%b())%s*%-%->%s*(.-)%s*$")
    if indent then
      want = want:match("^(.-)%s%s") or want
      expected[#expected + 1] = want
      line = ("%s__check(%d, %s)"):format(indent, #expected, args:sub(2, -2))
    end
    lines[#lines + 1] = line
  end
  return table.concat(lines, "\n"), expected
end

describe("docs/api.md examples", function()
  local list = examples()

  it("there are examples to run", function()
    assert.is_true(#list >= 1)
  end)

  for _, ex in ipairs(list) do
    it("the example at line " .. ex.line .. " runs and prints what it says", function()
      local src, expected = instrument(ex.body)
      local got = {}
      local env = setmetatable({
        print = function() end,
        __check = function(n, ...)
          local parts = table.pack(...)
          for i = 1, parts.n do parts[i] = tostring(parts[i]) end
          got[n] = table.concat(parts, "\t", 1, parts.n)
        end,
      }, { __index = _G })
      local f = assert(load(src, "=docs/api.md:" .. ex.line, "t", env))
      f()
      assert.are.same(expected, got)
    end)
  end
end)
