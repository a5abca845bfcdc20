-- json_spec.lua - kontor.core.json: canonical encoding, strict decoding.
local json = kontor.core.json

local function nested_arrays(levels)
  local root = {}
  local cur = root
  for _ = 2, levels do
    cur[1] = {}
    cur = cur[1]
  end
  return root
end

describe("json.encode", function()
  it("sorts object keys bytewise at every level", function()
    assert.are.equal('{"a":2,"b":1,"c":{"y":2,"z":1}}',
      json.encode({ b = 1, a = 2, c = { z = 1, y = 2 } }))
    assert.are.equal('{"B":1,"_":2,"a":3,"aa":4,"é":5}',
      json.encode({ ["é"] = 5, aa = 4, a = 3, _ = 2, B = 1 }))
  end)

  it("gives the same bytes for the same data built in any order", function()
    local t1, t2 = {}, {}
    for i = 1, 50 do t1["k" .. i] = i end
    for i = 50, 1, -1 do t2["k" .. i] = i end
    t1.k7, t2.k7 = nil, nil
    assert.are.equal(json.encode(t1), json.encode(t2))
  end)

  it("indents with opts.indent and ends with a newline only if asked", function()
    local v = { b = { 1, 2 }, a = "x" }
    assert.are.equal('{"a":"x","b":[1,2]}', json.encode(v))
    assert.are.equal('{\n  "a": "x",\n  "b": [\n    1,\n    2\n  ]\n}',
      json.encode(v, { indent = 2 }))
    assert.are.equal('{\n  "a": "x",\n  "b": [\n    1,\n    2\n  ]\n}\n',
      json.encode(v, { indent = 2, newline = true }))
    assert.are.equal('[1]\n', json.encode({ 1 }, { newline = true }))
  end)

  it("encodes sequences as arrays, empty tables as [] unless json.object", function()
    assert.are.equal('[1,"two",true,false,null]',
      json.encode({ 1, "two", true, false, json.null }))
    assert.are.equal('[]', json.encode({}))
    assert.are.equal('{}', json.encode(setmetatable({}, json.object)))
    assert.are.equal('{"a":[],"b":{}}',
      json.encode({ a = {}, b = setmetatable({}, json.object) }))
  end)

  it("encodes scalars at the top level", function()
    assert.are.equal('null', json.encode(json.null))
    assert.are.equal('true', json.encode(true))
    assert.are.equal('"x"', json.encode("x"))
    assert.are.equal('42', json.encode(42))
  end)

  it("keeps integers and floats apart", function()
    assert.are.equal('[3,3.0,-7,0.5,-0.0]', json.encode({ 3, 3.0, -7, 0.5, -0.0 }))
    assert.are.equal('[9223372036854775807,-9223372036854775808]',
      json.encode({ math.maxinteger, math.mininteger }))
  end)

  it("escapes what JSON requires and writes UTF-8 as is", function()
    assert.are.equal([["a\"b\\c\nd\u0001"]], json.encode('a"b\\c\nd\1'))
    assert.are.equal('"héllo ß €"', json.encode("héllo ß €"))
  end)

  it("names the path of a cycle", function()
    local t = { a = {} }
    t.a.b = t
    assert.has_error(function() json.encode(t) end, "json.encode: cycle at $.a.b")
    local list = { 1, 2 }
    list[3] = list
    assert.has_error(function() json.encode({ x = list }) end,
      "json.encode: cycle at $.x[3]")
  end)

  it("allows the same table twice when it is not a cycle", function()
    local shared = { 1 }
    assert.are.equal('{"a":[1],"b":[1]}', json.encode({ a = shared, b = shared }))
  end)

  it("rejects mixed or non-string keys, naming the key", function()
    assert.has_error(function() json.encode({ a = { b = { a = 1, [5] = 2 } } }) end,
      "json.encode: mixed or non-string keys at $.a.b[5]")
    assert.has_error(function() json.encode({ [true] = 1 }) end,
      "json.encode: mixed or non-string keys at $[true]")
    assert.has_error(function() json.encode({ [1.5] = 1 }) end,
      "json.encode: mixed or non-string keys at $[1.5]")
    assert.has_error(function() json.encode({ list = { [2] = "hole" } }) end,
      "json.encode: mixed or non-string keys at $.list[2]")
  end)

  it("rejects NaN and infinities", function()
    assert.has_error(function() json.encode({ x = { 1, 0 / 0 } }) end,
      "json.encode: cannot encode NaN at $.x[2]")
    assert.has_error(function() json.encode({ x = math.huge }) end,
      "json.encode: cannot encode inf at $.x")
    assert.has_error(function() json.encode(-math.huge) end,
      "json.encode: cannot encode -inf at $")
  end)

  it("rejects invalid UTF-8 in strings and keys", function()
    assert.has_error(function() json.encode({ ["a b"] = { s = "ok\xff" } }) end,
      'json.encode: invalid UTF-8 in string at $["a b"].s')
    assert.has_error(function() json.encode({ "\xc0\xaf" }) end, -- overlong '/'
      "json.encode: invalid UTF-8 in string at $[1]")
    assert.has_error(function() json.encode({ "\xed\xa0\x80" }) end, -- surrogate
      "json.encode: invalid UTF-8 in string at $[1]")
    assert.has_error(function() json.encode({ ["k\xff"] = 1 }) end,
      'json.encode: invalid UTF-8 in key at $["k\\xFF"]')
  end)

  it("rejects functions, userdata and nil, naming the path", function()
    assert.has_error(function() json.encode({ f = print }) end,
      "json.encode: cannot encode a function at $.f")
    assert.has_error(function() json.encode({ { io.stdout } }) end,
      "json.encode: cannot encode a userdata at $[1][1]")
    assert.has_error(function() json.encode(nil) end,
      "json.encode: cannot encode nil at $")
  end)

  it("accepts 200 levels of nesting and rejects 201", function()
    assert.are.equal(string.rep("[", 200) .. string.rep("]", 200),
      json.encode(nested_arrays(200)))
    assert.has_error(function() json.encode(nested_arrays(201)) end,
      "json.encode: nesting deeper than 200 at $" .. string.rep("[1]", 6)
        .. "..." .. string.rep("[1]", 8))
  end)

  it("raises on a bad opts.indent", function()
    assert.has_error(function() json.encode({}, { indent = 99 }) end)
    assert.has_error(function() json.encode({}, { indent = "2" }) end)
  end)
end)

describe("json.decode", function()
  it("decodes objects, arrays, null and both number kinds", function()
    local v = json.decode('{"a":[1,2.5,"x",null,true,false],"b":{},"c":[]}')
    assert.are.same({ 1, 2.5, "x", json.null, true, false }, v.a)
    assert.are.equal("integer", math.type(v.a[1]))
    assert.are.equal("float", math.type(v.a[2]))
    assert.are.equal(json.null, v.a[4])
    assert.are.same({}, v.c)
    assert.are.equal(json.object, getmetatable(v.b))
    assert.are.equal(3.0, json.decode("3.0"))
    assert.are.equal("float", math.type(json.decode("3.0")))
    assert.are.equal(math.maxinteger, json.decode("9223372036854775807"))
  end)

  it("decodes top-level scalars", function()
    assert.are.equal(3, json.decode("3"))
    assert.are.equal("s", json.decode('"s"'))
    assert.are.equal(json.null, json.decode("null"))
    assert.are.equal(false, json.decode(" false "))
  end)

  it("round-trips nested data", function()
    local data = {
      name = "Sea merchants", seed = 7, ratio = 0.25, over = false,
      players = { { name = "Ann", hand = { 3, 1, 2 } }, { name = "Bø", hand = {} } },
      log = { "a\nb", "tab\there", "quote\"" },
      none = json.null,
      empty = setmetatable({}, json.object),
      deep = { x = { y = { z = { 1, { 2, { 3 } } } } } },
    }
    local text = json.encode(data, { indent = 2 })
    assert.are.same(data, json.decode(text))
    assert.are.equal(text, json.encode(json.decode(text), { indent = 2 }))
  end)

  it("round-trips floats exactly", function()
    for _, x in ipairs({ 0.1, 1 / 3, 1e300, 5e-324, -2.5, 2 ^ 53 }) do
      local back = json.decode(json.encode(x))
      assert.are.equal(x, back)
      assert.are.equal("float", math.type(back))
    end
  end)

  it("reports line and column of syntax errors", function()
    local function err(s) return select(2, json.decode(s)) end
    assert.is_nil((json.decode('{"a":1')))
    assert.are.equal("line 1, column 6: '}' expected near end of file", err('{"a":1'))
    assert.are.equal("line 2, column 5: invalid token near 'tru'", err('{"a":\n  tru}'))
    assert.are.equal("line 1, column 6: unexpected token near ']'", err("[1,2,]"))
    assert.are.equal("line 1, column 5: end of file expected near 'x'", err("[1] x"))
    assert.are.equal("line 1, column 0: unexpected token near end of file", err(""))
  end)

  it("rejects truncated input", function()
    local text = json.encode({ a = { 1, 2, 3 }, b = "text" })
    for n = 1, #text - 1 do
      local v, msg = json.decode(text:sub(1, n))
      assert.is_nil(v)
      assert.matches("^line 1, column %d+: ", msg)
    end
  end)

  it("rejects duplicate keys", function()
    local v, msg = json.decode('{"a":1,"a":2}')
    assert.is_nil(v)
    assert.are.equal([[line 1, column 10: duplicate object key near '"a"']], msg)
  end)

  it("rejects NUL in strings, invalid UTF-8 and out-of-range numbers", function()
    local v, msg = json.decode('["a\\u0000b"]')
    assert.is_nil(v)
    assert.matches("^line 1, column %d+: .*JSON_ALLOW_NUL", msg)
    v, msg = json.decode('["\xff"]')
    assert.is_nil(v)
    assert.matches("^line 1, column %d+: unable to decode byte 0xff", msg)
    assert.are.equal("line 1, column 30: too big integer",
      select(2, json.decode("123456789012345678901234567890")))
    assert.is_nil((json.decode("1e999")))
  end)

  it("accepts 200 levels of nesting and rejects 201 with a position", function()
    local ok = json.decode(string.rep("[", 200) .. string.rep("]", 200))
    assert.are.equal("table", type(ok))
    local v, msg = json.decode(string.rep("[", 201) .. string.rep("]", 201))
    assert.is_nil(v)
    assert.are.equal("line 1, column 201: nesting deeper than 200", msg)
    v, msg = json.decode("\n  " .. string.rep('{"k":', 201) .. "1" .. string.rep("}", 201))
    assert.is_nil(v)
    assert.are.equal("line 2, column 1003: nesting deeper than 200", msg)
  end)

  it("survives absurd nesting without crashing", function()
    local v, msg = json.decode(string.rep("[", 100000))
    assert.is_nil(v)
    assert.matches("^line 1, column %d+: ", msg)
    v, msg = json.decode(string.rep("[", 5000) .. string.rep("]", 5000))
    assert.is_nil(v)
    assert.matches("^line 1, column %d+: ", msg)
  end)

  it("raises when not given a string", function()
    assert.has_error(function() json.decode() end)
    assert.has_error(function() json.decode({}) end)
  end)
end)

describe("json.encode reals", function()
  it("writes the shortest digits that read back exactly", function()
    assert.are.equal("[0.1,1.5,6.83,-2.25]", json.encode({ 0.1, 1.5, 6.83, -2.25 }))
    local third = 1 / 3
    local text = json.encode({ third, 0.1 })
    assert.are.equal(third, json.decode(text)[1])
    assert.are.equal(0.1, json.decode(text)[2])
  end)
end)
