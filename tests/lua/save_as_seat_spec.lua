-- save_as_seat_spec.lua: `save FILE as SEAT` in the REPL and in play, when
-- the words after "as" name no seat: a message naming them and the seats,
-- and no file (it used to write a file called "game.json as 3").
local support = require "tests.lua.support"

local BIN = support.binary()
local has = support.has

describe("save FILE as SEAT", function()
  local dir
  before_each(function() dir = support.tmpdir() end)
  after_each(function() os.execute("rm -rf " .. support.sh_quote(dir)) end)

  -- Runs kontor in the scratch folder; the output and the files it holds.
  local function run(args, stdin)
    local bin = BIN:sub(1, 1) == "/" and BIN or (os.getenv("PWD") .. "/" .. BIN)
    local out = support.run("cd " .. support.sh_quote(dir) .. " && " .. support.sh_quote(bin) .. " " .. args, stdin)
    local p = io.popen("ls -1 " .. support.sh_quote(dir))
    local files = p:read("a")
    p:close()
    return out, files
  end

  it("the REPL: a seat that does not exist, or a typo, is refused and writes nothing", function()
    local out, files = run("--players 2 --seed 3 --names Ann,Bob",
      "save g.json as 3\nsave g.json as Bbo\nsave g.json as Player 2\n")
    assert.are.equal("save FILE as SEAT: no seat '3' (seats: 1 Ann, 2 Bob); a file name with ' as ' in it "
      .. "goes in quotes\n"
      .. "save FILE as SEAT: no seat 'Bbo' (seats: 1 Ann, 2 Bob); a file name with ' as ' in it goes in quotes\n"
      .. "save FILE as SEAT: no seat 'Player 2' (seats: 1 Ann, 2 Bob); a file name with ' as ' in it goes in "
      .. "quotes\n", out)
    assert.are.equal("", files)
  end)

  it("the REPL: a seat by a name with a space, and a quoted name with ' as ' in it", function()
    local out, files = run("--players 2 --seed 3", "1\nsave g.json as Player 2\nsave 'a as 3.json'\n")
    assert.truthy(has(out, "\nSaved 1 move to g.json (what Player 2 sees). It holds no deal, which that seat may not see yet: "
      .. "a record of the moves, not a game to go on with.\nSaved 1 move to a as 3.json.\n"), out)
    assert.are.equal("a as 3.json\ng.json\n", files)
  end)

  it("play: the same message; another seat's file is still refused", function()
    local out, files = run("play --players 2 --seed 3", "save g.json as 3\nsave g.json as Player 2\n"
      .. "save g.json as Player 1\n")
    assert.truthy(has(out, "\nsave FILE as SEAT: no seat '3' (seats: 1 Player 1, 2 Player 2); a file name with "
      .. "' as ' in it goes in quotes\nsave: in play you see and act only for your own seat (Player 1)\n"
      .. "Saved 0 moves to g.json (what Player 1 sees). It holds no deal, which that seat may not see yet: "
      .. "a record of the moves, not a game to go on with.\n"), out)
    assert.are.equal("g.json\n", files)
  end)
end)
