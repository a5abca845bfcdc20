-- polish_errors_spec.lua: an error at the REPL prints one line (file:line:
-- message), the rule file's place where the message names none; `trace`
-- shows the last error's traceback (in help and TAB completion too).
local support = require "tests.lua.support"
local tmux = dofile("tests/repl/tmux.lua")

local BIN = support.plain_binary()
local has, write = support.has, support.write
local run = support.kontor_rc

describe("an error at the REPL", function()
  it("is one line; trace shows it again with its traceback", function()
    local out = run("--players 2", 'trace\nerror("x")\nlocal t = {} ; t.x.y = 1\ntrace\n'
      .. 'function f() error("deep") end\nf()\ntrace\nundo\ntrace\n')
    assert.are.equal("No error yet.\n"
      .. "stdin:1: x\n"
      .. "stdin:1: attempt to index a nil value (field 'x')\n"
      .. "stdin:1: attempt to index a nil value (field 'x')\nstack traceback:\n\tstdin:1: in main chunk\n"
      .. "stdin:1: deep\n"
      .. "stdin:1: deep\nstack traceback:\n\t[C]: in function 'error'\n\tstdin:1: in function 'f'\n"
      .. "Nothing to undo.\n"
      .. "stdin:1: deep\nstack traceback:\n\t[C]: in function 'error'\n\tstdin:1: in function 'f'\nrc=0\n", out)
  end)

  it("from a rule file keeps its file:line, also where Lua's message names no place", function()
    local dir = support.tmpdir()
    write(dir .. "/crash.lua", [[return { variant = true, base = "sea_merchants", apply = function(R)
  R.constraints[#R.constraints + 1] = function(g, seat, name, text)
    if name == "phase1" then for _ in ipairs(nil) do end end
  end
end }
]])
    local out = run("--players 2 --variant " .. dir .. "/crash.lua", "1\n1\n1\n1\n=#g:moves()\ntrace\n")
    local first = "attempt to index a nil value, in " .. dir .. "/crash.lua:3\n"
    assert.truthy(has(out, "\n" .. first .. "3\n" .. first .. "stack traceback:\n"), out)
    assert.truthy(has(out, "\t" .. dir .. "/crash.lua:3: in function <" .. dir .. "/crash.lua:2>\n"), out)
    assert.falsy(has(out, "kontor/"), out)
    os.execute("rm -rf " .. support.sh_quote(dir))
  end)

  it("a command that fails says one message, and trace says it has no traceback", function()
    local out = run("--players 2", "view 9\ntrace\n")
    assert.are.equal("no seat '9' (seats: 1 Player 1, 2 Player 2)\nno seat '9' (seats: 1 Player 1, 2 Player 2)\n"
      .. "(no traceback through a rule script or a line typed)\nrc=0\n", out)
  end)

  it("help lists trace", function()
    assert.truthy(has(run("", "help\n"), "\n  trace              the last error again, with its traceback\n"))
  end)
end)

local pty = tmux.available() and describe or pending

pty("trace in a terminal", function()
  local session = support.terminals(before_each, after_each)
  it("TAB completes it", function()
    local t = session(BIN .. " --players 2 --seed 3", { NO_COLOR = "1" })
    assert.truthy(t:wait_for("\n>$"), "no prompt")
    t:send("trac", "Tab")
    assert.truthy(t:wait_for("\n> trace$"), t:screen())
    t:stop()
  end)
end)
