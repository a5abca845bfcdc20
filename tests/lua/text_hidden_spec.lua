-- text_hidden_spec.lua - the format characters that reorder or hide text
-- (bidirectional overrides and isolates, direction marks, zero-width
-- spaces, the byte-order mark) reach a terminal as visible escapes, and a
-- player name with one is refused (lua/kontor/text.lua, docs/security.md).

local text = require "kontor.text"
local support = require "tests.lua.support"

describe("text.escape of hidden format characters", function()
  it("shows the bidirectional overrides and isolates as \\u{...}", function()
    assert.equal("Ann\\u{202E}exe.txt", text.escape("Ann\u{202E}exe.txt"))
    assert.equal("\\u{2066}x\\u{2069}", text.escape("\u{2066}x\u{2069}"))
    assert.equal("a\\u{200F}b\\u{061C}c", text.escape("a\u{200F}b\u{061C}c"))
  end)

  it("shows zero-width spaces and the byte-order mark", function()
    assert.equal("Ann\\u{200B}", text.escape("Ann\u{200B}"))
    assert.equal("\\u{FEFF}Bob", text.escape("\u{FEFF}Bob"))
    assert.equal("a\\u{2060}b", text.escape("a\u{2060}b"))
  end)

  it("keeps letters, emoji and the joiners they need", function()
    for _, s in ipairs { "Zoë", "Ünal", "日本", "👨\u{200D}👩\u{200D}👧", "می\u{200C}خواهم" } do
      assert.equal(s, text.escape(s))
    end
  end)

  it("escapes what follows an invalid byte as before", function()
    assert.equal("\\xFF\\u{202E}", text.escape("\255\u{202E}"))
  end)
end)

describe("player names", function()
  it("with a hidden format character are refused, by the API and the command line", function()
    local ok, e = pcall(kontor.new_game, { players = 2, names = { "Ann\u{202E}", "Bob" } })
    assert.is_false(ok)
    assert.equal("usage", e.kind)
    assert.truthy(tostring(e.message):find("name 1 must be at most 40 printable characters, not 'Ann\\u{202E}'", 1,
      true), tostring(e.message))
    local out = support.run(support.binary() .. " --names 'Ann\u{200B},Ann' 2>&1", "")
    assert.truthy(out:find("not 'Ann\\u{200B}'", 1, true), out)
  end)
end)
