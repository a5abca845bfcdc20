-- docsqa_play_spec.lua - a command of the REPL typed in kontor play is
-- refused with what to do instead, each its own (docs/repl.md, "Hot-seat
-- play"): not "a saved game goes on with kontor play --load FILE" for a
-- bot or a new game.
-- Run: build/kontor run tests/busted.lua tests/lua/docsqa_play_spec.lua
local support = require "tests.lua.support"
local BIN = support.plain_binary()

describe("kontor play, a command of the REPL", function()
  local home, cleanup = support.scratch()
  teardown(cleanup)

  it("is refused with what to do instead", function()
    local dir = home("home")
    os.execute("mkdir -p " .. support.sh_quote(dir))
    local out = support.run("HOME=" .. support.sh_quote(dir) .. " " .. BIN
      .. " play --players 2 --seed 3 --names Ann,Bob", "new\nbot 2=random\nreload\nreplay x.json\nnext\nprev\nmoves\n")
    local got = {}
    for l in out:gmatch("[^\n]+") do if l:find(": not in play", 1, true) then got[#got + 1] = l end end
    assert.are.same({
      "new: not in play (a new game: quit, then kontor play again)",
      "bot: not in play (bots are seated when play starts: kontor play --bot SEAT=KIND)",
      "reload: not in play (the REPL's, where all is visible: kontor)",
      "replay: not in play (the REPL's: kontor, then replay FILE)",
      "next: not in play (the REPL's: kontor, then replay FILE)",
      "prev: not in play (the REPL's: kontor, then replay FILE)",
    }, got)
    assert.truthy(support.has(out, "\nNo moves yet.\n"), out)   -- and nothing was played
  end)
end)
