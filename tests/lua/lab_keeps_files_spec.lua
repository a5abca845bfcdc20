-- lab_keeps_files_spec.lua - the balance lab's outputs (--report,
-- --games-out, sweep --svg) replace a file already there only when it is
-- one of their kind or empty (kontor.files.ours): a mistyped name does
-- not destroy what a user wrote (docs/security.md, the one file policy).

local support = require "tests.lua.support"
local BIN = support.sh_quote(kontor.core.fs.realpath(support.binary()))
local q = support.sh_quote
local tmp, cleanup = support.scratch()
teardown(cleanup)

local function lab(dir, args)
  return support.run_split(string.format("cd %s && %s %s", q(dir), BIN, args))
end

describe("the lab's outputs onto a file already there", function()
  it("keep a file of another kind, before any game, exit 1", function()
    local d = tmp("keep/")
    os.execute("mkdir -p " .. q(d))
    support.write(d .. "notes.txt", "my notes\n")
    for _, c in ipairs {
      { "sim --games 5 --report notes.txt", "kontor: sim: notes.txt: the file exists and is not a Kontor report: "
        .. "not replaced (give another name)\n" },
      { "sim --games 5 --games-out notes.txt", "kontor: sim: notes.txt: the file exists and is not a Kontor games "
        .. "file: not replaced (give another name)\n" },
      { "compare --a '' --b '--variant house' --games 5 --games-out notes.txt", "kontor: compare: notes.txt: the "
        .. "file exists and is not a Kontor games file: not replaced (give another name)\n" },
      { "sweep --variant hand_limit --over size=4..5 --games 5 --report notes.txt", "kontor: sweep: notes.txt: "
        .. "the file exists and is not a Kontor report: not replaced (give another name)\n" },
    } do
      local out, err, code = lab(d, c[1])
      assert.are.same({ "", c[2], 1 }, { out, err, code }, c[1])
      assert.equal("my notes\n", support.read(d .. "notes.txt"))
    end
  end)

  it("replace one of their kind, and an empty file", function()
    local d = tmp("mine/")
    os.execute("mkdir -p " .. q(d))
    support.write(d .. "empty.html", "")
    for _, args in ipairs { "sim --games 5 --report r.html --games-out g.jsonl",
                            "sim --games 6 --report r.html --games-out g.jsonl --report empty.html" } do
      local _, err, code = lab(d, args)
      assert.are.same({ "", 0 }, { err, code }, args)
    end
    assert.truthy(support.read(d .. "r.html"):find("<h1>Kontor balance report</h1>", 1, true))
    assert.truthy(support.read(d .. "empty.html"):find("<h1>Kontor balance report</h1>", 1, true))
    local n = 0
    for _ in support.read(d .. "g.jsonl"):gmatch('{"game":') do n = n + 1 end
    assert.equal(6, n)
  end)

  it("sweep --svg: a file of the folder that is no chart keeps every chart out; the run's text is printed", function()
    local d = tmp("svg/")
    os.execute("mkdir -p " .. q(d .. "charts"))
    support.write(d .. "charts/turns.svg", "hi\n")
    local out, err, code = lab(d, "sweep --variant hand_limit --over size=4..5 --games 5 --svg charts")
    assert.equal(1, code)
    assert.equal("kontor: sweep: charts/turns.svg: the file exists and is not a Kontor chart: not replaced "
      .. "(give another name) (no chart written)\n", err)
    assert.truthy(out:find("sweep        size over 4, 5: 5 paired games each (seed 1)", 1, true), out)
    assert.same({ "turns.svg" }, kontor.core.fs.list(d .. "charts"))
    assert.equal("hi\n", support.read(d .. "charts/turns.svg"))
  end)
end)
