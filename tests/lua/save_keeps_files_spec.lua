-- save_keeps_files_spec.lua - `save FILE` (the REPL, play, serve's save
-- with a path) replaces a file already there only when it is a Kontor
-- save or empty: a user's notes named by mistake are not destroyed
-- (lua/kontor/save.lua; docs/security.md, the one file policy).

local support = require "tests.lua.support"
local serve = require "serve"
local json = kontor.core.json
local BIN = support.sh_quote(kontor.core.fs.realpath(support.binary()))
local q = support.sh_quote

local tmp, cleanup = support.scratch()
teardown(cleanup)

describe("save FILE where a file is already", function()
  it("keeps a file that is not a save, and says so", function()
    local notes = tmp("notes.txt")
    support.write(notes, "my notes\n")
    local out = support.run(string.format("cd %s && %s", q(notes:match("^(.*)/")), BIN), "do 1\nsave notes.txt\n")
    assert.truthy(out:find("notes.txt: the file exists and is not a Kontor save: not replaced "
      .. "(save under another name)\n", 1, true), out)
    assert.equal("my notes\n", support.read(notes))
  end)

  it("replaces a save, and an empty file", function()
    local dir = tmp("")
    support.write(dir .. "empty.json", "")
    local out = support.run(string.format("cd %s && %s", q(dir), BIN),
      "do 1\nsave game.json\ndo 1\nsave game.json\nsave empty.json\n")
    assert.truthy(out:find("Saved 1 move to game.json.\n", 1, true), out)
    assert.truthy(out:find("Saved 2 moves to game.json.\n", 1, true), out)
    assert.truthy(out:find("Saved 2 moves to empty.json.\n", 1, true), out)
    for _, f in ipairs { "game.json", "empty.json" } do
      local doc = json.decode(support.read(dir .. f))
      assert.same({ "1: load grain on ship 1", "2: load grain on ship 1" }, doc.actions)
    end
  end)

  it("replaces a save damaged after its format was written", function()
    local dir = tmp("")
    support.run(string.format("cd %s && %s", q(dir), BIN), "do 1\nsave cut.json\n")
    local text = support.read(dir .. "cut.json")
    local at = text:find('"format": "kontor-save"', 1, true)
    support.write(dir .. "cut.json", text:sub(1, at + 40))
    local out = support.run(string.format("cd %s && %s", q(dir), BIN), "do 1\ndo 1\nsave cut.json\n")
    assert.truthy(out:find("Saved 2 moves to cut.json.\n", 1, true), out)
    assert.equal(2, #json.decode(support.read(dir .. "cut.json")).actions)
  end)

  it("in serve: an io_error, and the file as it was", function()
    local notes = tmp("serve-notes.txt")
    support.write(notes, "keep me")
    local sess = serve.new_session(kontor)
    local function ask(req) return sess:handle(json.encode(req)) end
    local made = ask { id = 1, op = "new", rules = "sea_merchants", players = 2 }
    local r = ask { id = 2, op = "save", game = made.result.game, path = notes }
    assert.is_false(r.ok)
    assert.equal("io_error", r.error.code)
    assert.equal(notes .. ": the file exists and is not a Kontor save: not replaced (save under another name)",
      r.error.message)
    assert.equal("keep me", support.read(notes))
  end)
end)
