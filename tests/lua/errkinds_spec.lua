-- errkinds_spec.lua - errors carry their kind from where they are raised
-- (issue 25, item 3): kontor.rules' load errors, Ctrl-C's interrupt, and
-- kontor serve's messages, whatever they hold.
-- Run: build/kontor run tests/busted.lua tests/lua/errkinds_spec.lua
local errors = require "kontor.errors"
local rules = require "kontor.rules"
local json = kontor.json
local support = require "tests.lua.support"
local write = support.write
local tmp, cleanup_tmp = support.scratch()
local csb = kontor.core.sandbox

-- A rule set for 1 or 2 players whose R.play runs `body`.
local function rules_with(name, body, setup)
  return support.rule_set(tmp(name .. ".lua"), name, body, setup, 1)
end

-- A variant of sea_merchants whose apply runs `body`.
local function variant_with(name, body)
  return write(tmp(name .. ".lua"), ([[
return { variant = true, name = "%s", base = "sea_merchants",
  apply = function(R, opts) %s end }]]):format(name, body))
end

-- rules.load's failure: its error value.
local function load_error(spec, variants)
  local R, e = rules.load(spec, variants)
  assert.is_nil(R)
  assert.is_true(errors.is(e), tostring(e))
  return e
end

describe("kontor.rules' errors carry their kind from where they are raised", function()
  teardown(cleanup_tmp)

  it("usage: an unknown name (listing the names there are), a bad name, a variant that does not fit", function()
    local e = load_error("no_such_rules")
    assert.are.equal("usage", e.kind)
    assert.is_true(e.lists_available)
    assert.truthy(e.message:find("^unknown rule set or variant 'no_such_rules' %(available: "), e.message)
    e = load_error("bad name!")
    assert.are.equal("usage", e.kind)
    assert.are.equal("'bad name!' is not a rule set name (letters, digits, _ and -)", e.message)
    assert.is_nil(e.lists_available)
    e = load_error("sea_merchants", { "no_such_variant" })
    assert.are.equal("usage", e.kind)
    assert.is_true(e.lists_available)
    e = load_error("caribbean", { "hand_limit" })
    assert.are.equal("usage", e.kind)
    assert.are.equal(require("kontor.rules").find("hand_limit") .. ":21: variant hand_limit is for sea_merchants, "
      .. "not caribbean", e.message)
    e = load_error("sea_merchants", { "hand_limit:size" })
    assert.are.equal("usage", e.kind)
    assert.are.equal("bad variant option 'size' in 'hand_limit:size' (expected k=v)", e.message)
    e = load_error("sea_merchants", { "hand_limit", "hand_limit" })
    assert.are.equal("variant hand_limit is given twice", e.message)
    assert.are.equal("usage", e.kind)
    e = load_error("hand_limit")
    assert.are.equal("usage", e.kind)
    assert.truthy(e.message:find("hand_limit.lua is a variant (of sea_merchants), not a rule set", 1, true), e.message)
    local R = assert(rules.load("sea_merchants"))
    local _, oe = rules.resolve_options(R, { colour = "red" })
    assert.are.equal("usage", errors.kind(oe))
    assert.truthy(oe.message:find("^unknown option 'colour' for sea_merchants %(options: "), oe.message)
  end)

  it("file: a rule set file that is not there", function()
    local e = load_error("tests/rulesets/no_such_file.lua")
    assert.are.equal("file", e.kind)
    assert.are.equal("tests/rulesets/no_such_file.lua: no such file", e.message)
  end)

  it("rules: a broken script, with the line a person reads as `script`", function()
    local syntax = write(tmp("syntax.lua"), "return {\n  name = \n")
    local e = load_error(syntax)
    assert.are.equal("rules", e.kind)
    assert.truthy(e.script:find("^.*syntax%.lua:3: "), e.script)
    local nothing = write(tmp("nothing.lua"), "local x = 1\n")
    e = load_error(nothing)
    assert.are.equal("rules", e.kind)
    assert.are.equal(nothing .. ": the rule script returned nothing", e.message)
    assert.are.equal(e.message, e.script)
    local no_play = write(tmp("no_play.lua"), 'return { name = "x", players = { min = 1, max = 2 } }\n')
    e = load_error(no_play)
    assert.are.equal("rules", e.kind)
    assert.are.equal(no_play .. ": the rule set has no function R.setup", e.message)
    -- a variant whose apply fails: the message names the variant, `script` the line
    local v = variant_with("bad_apply", 'error("no such card")')
    e = load_error("sea_merchants", { v })
    assert.are.equal("rules", e.kind)
    assert.truthy(e.message:find("^variant bad_apply: .*bad_apply%.lua:2: no such card"), e.message)
    assert.truthy(e.script:find("^.*bad_apply%.lua:2: no such card$"), e.script)
  end)

  it("limit: a script that runs out of time while it loads or while a variant applies #slow", function()
    local spin = write(tmp("spin_load.lua"), "while true do end\n")
    local e = load_error(spin)
    assert.are.equal("limit", e.kind)
    assert.truthy(e.message:find("^time limit reached"), e.message)
    e = load_error("sea_merchants", { variant_with("spin_apply", "while true do end") })
    assert.are.equal("limit", e.kind)
    assert.truthy(e.message:find("^variant spin_apply: time limit reached"), e.message)
  end)

  it("what a variant includes keeps its kind; the message says who included it", function()
    local preset = write(tmp("preset.lua"), [[
return { variant = true, name = "preset", base = "sea_merchants", includes = { "no_such_member" } }]])
    local e = load_error("sea_merchants", { preset })
    assert.are.equal("usage", e.kind)
    assert.is_true(e.lists_available)
    assert.truthy(e.message:find("^unknown rule set or variant 'no_such_member' %(available: .*%) %(included by preset%)$"),
      e.message)
    local member = variant_with("member", 'error("broken member")')
    local preset2 = write(tmp("preset2.lua"), ([[
return { variant = true, name = "preset2", base = "sea_merchants", includes = { %q } }]]):format(member))
    e = load_error("sea_merchants", { preset2 })
    assert.are.equal("rules", e.kind)
    assert.truthy(e.script:find("member%.lua:2: broken member"), e.script)
  end)

  it("kontor.load_rules and new_game raise them as they are, led by the caller's line", function()
    local ok, e = pcall(kontor.load_rules, "tests/rulesets/no_such_file.lua")
    assert.is_false(ok)
    assert.are.equal("file", e.kind)
    assert.truthy(e.message:find("tests/rulesets/no_such_file.lua: no such file", 1, true), e.message)
    ok, e = pcall(kontor.new_game, { rules = "sea_merchants", variants = { "hand_limit:size=x" } })
    assert.is_false(ok)
    assert.are.equal("usage", e.kind)
    assert.are.equal("option size of hand_limit: 'x' is not a whole number", e.message)
  end)

  it("kontor --list names a broken file with its message as text", function()
    local dir = support.tmpdir()
    write(dir .. "/broken_one.lua", "return {\n")
    local listed
    local was = rules.path
    rules.path = function() return { dir } end
    local ok, err = pcall(function() listed = rules.list() end)
    rules.path = was
    os.execute("rm -rf " .. support.sh_quote(dir))
    assert(ok, err)
    assert.are.equal(1, #listed)
    assert.are.equal("broken", listed[1].kind)
    assert.are.equal("string", type(listed[1].summary))
    assert.truthy(listed[1].summary:find("broken_one.lua:2:", 1, true), listed[1].summary)
  end)
end)

describe("an error value reached by a rule script", function()
  it("hides its metatable: getmetatable gives false, so rule code cannot change how errors print", function()
    local e = errors.new("usage", "x")
    assert.is_false(getmetatable(e))
    assert.is_true(errors.is(e))
    e.message = setmetatable({}, { __concat = function() error("rule code ran") end })
    assert.are.equal("(an error value without a message)", tostring(e))
    assert.are.equal("a: (an error value without a message)", "a: " .. e)
    assert.is_nil(e.dump)
  end)
end)

-- Ctrl-C (SIGINT to this process) after `delay` seconds, from the shell.
local function ctrl_c_in(delay)
  local f = assert(io.open("/proc/self/stat"))
  local pid = f:read("n")
  f:close()
  os.execute(string.format("(sleep %s; kill -INT %d) >/dev/null 2>&1 &", delay, pid))
end

describe("Ctrl-C raises an error of kind interrupt where the hook raises it", function()
  local limits
  before_each(function()
    limits = csb.limits()
    csb.limits { time = 20 }
  end)
  after_each(function()
    csb.catch_sigint(false)
    csb.limits { time = limits.time }
  end)

  it("in the engine's own Lua: the value given to catch_sigint, as it is", function()
    local e = errors.interrupt()
    csb.catch_sigint(true, e)
    ctrl_c_in(0.2)
    local ok, got = pcall(function() local t0 = os.clock(); while os.clock() - t0 < 10 do end end)
    csb.catch_sigint(false)
    assert.is_false(ok)
    assert.are.equal(e, got)
    assert.are.equal("interrupt", errors.kind(got))
    assert.are.equal("interrupted", tostring(got))
    assert.are.equal("interrupted", require("kontor.text").error_line(got))
  end)

  it("while a rule script loads: load_rules raises the same value, with no position", function()
    local file = write(tmp("spin_top.lua"), "local n = 0; while n < 1e12 do n = n + 1 end\nreturn {}\n")
    local e = errors.interrupt()
    csb.catch_sigint(true, e)
    ctrl_c_in(0.3)
    local ok, got = pcall(kontor.load_rules, file)
    csb.catch_sigint(false)
    assert.is_false(ok)
    assert.are.equal(e, got)
    assert.are.equal("interrupted", got.message)
  end)

  it("inside a rule script's step: the same value comes out, and the game is as it was", function()
    local file = rules_with("spin_on_b", [[
  while true do
    if g:choose(1, "x", { "a", "b" }) == 2 then
      local n = 0; while n < 1e12 do n = n + 1 end   -- until Ctrl-C
    end
  end]])
    local g = kontor.new_game { rules = file, players = 1, seed = 1 }
    assert(g:apply("a"))
    local before = json.encode(g:state())
    local e = errors.interrupt()
    csb.catch_sigint(true, e)
    ctrl_c_in(0.3)
    local ok, got = pcall(g.apply, g, "b")
    csb.catch_sigint(false)
    assert.is_false(ok)
    assert.are.equal(e, got)
    assert.are.equal("interrupt", errors.kind(got))
    assert.are.equal(before, json.encode(g:state()))
    assert.are.same({ "1: a" }, g:actions())
  end)
end)

describe("kontor serve: a message is never a format", function()
  teardown(cleanup_tmp)

  it("a rule script's error with % in it comes back to the letter", function()
    local hostile = "100% sure: %d %s %q %"
    local file = rules_with("pct", ([[
  while true do
    if g:choose(1, "x", { "ok", "boom" }) == 2 then error(%q, 0) end
  end]]):format(hostile))
    local reqs = json.encode { id = 1, op = "new", rules = file, players = 1, seed = 1 } .. "\n"
      .. json.encode { id = 2, op = "apply", game = "g1", action = "boom" } .. "\n"
      .. json.encode { id = 3, op = "apply", game = "g1", action = "ok" } .. "\n"
    local out, code = support.run(support.plain_binary() .. " serve", reqs)
    assert.are.equal(0, code, out)
    local lines = support.lines(out)
    local failed = json.decode(lines[2])
    assert.is_false(failed.ok)
    assert.are.equal("script_error", failed.error.code)
    assert.are.equal(hostile, failed.error.message:match("^[^\n]*"))
    assert.is_true(json.decode(lines[3]).ok)   -- the game goes on
  end)

  it("a failing setup's message with % in it: game_setup, to the letter", function()
    local file = rules_with("pct_setup", "", 'error("50% of %s", 0)')
    local out = support.run(support.plain_binary() .. " serve",
      json.encode { id = 1, op = "new", rules = file, players = 1, seed = 1 } .. "\n")
    local r = json.decode(support.lines(out)[1])
    assert.is_false(r.ok)
    assert.are.equal("game_setup", r.error.code)
    assert.are.equal("setting up pct_setup failed: 50% of %s", r.error.message:match("^[^\n]*"))
  end)
end)

describe("the REPL prints an error value's message", function()
  it("not '(error object is a table value)'", function()
    local out = support.run(support.plain_binary(), "kontor.new_game{players=99}\n")
    assert.truthy(support.has(out, "sea_merchants is for 2 to 4 players, not 99"), out)
    assert.falsy(support.has(out, "error object"), out)
  end)
end)

describe("the lab's flag parser says which option it did not know, as data", function()
  it("compare: a flag of both setups given inside one gets the hint, with or without =", function()
    local t, msg, unknown = require("cli").parse_flags({ "--games=5" }, 1, { ["--bot"] = "list" })
    assert.is_nil(t)
    assert.are.equal("unknown option '--games=5'", msg)
    assert.are.equal("--games", unknown)
    local _, err, code = support.run_split(support.plain_binary() .. " compare --a '--games=5' --b ''")
    assert.are.equal(2, code)
    assert.are.equal("kontor: compare: --a '--games=5': unknown option '--games=5' (it is common to both "
      .. "setups: give it outside --a and --b)\nTry 'kontor --help'.\n", err)
  end)
end)

describe("what front ends act on comes as data, not read back from a message (issue 25, item 3)", function()
  teardown(cleanup_tmp)

  it("an unknown option: the option, whose options, the close name, the variant that has it", function()
    local ok, e = pcall(kontor.new_game, { options = { start_coin = 3 } })
    assert.is_false(ok)
    assert.are.equal("usage", errors.kind(e))
    assert.are.same({ option = "start_coin", of = "sea_merchants", near = "start_coins",
      said = e.unknown_option.said }, e.unknown_option)
    assert.are.equal(e.unknown_option.said .. ": did you mean 'start_coins'?", e.message:gsub("^[^:]+:%d+: ", ""))
    -- a variant's option given as the rule set's: the variant and how to give it
    local v = variant_with("own_opt", "")
    write(v, [[return { variant = true, name = "own_opt", base = "sea_merchants",
      options = { pay = { default = 1, type = "integer", min = 0, max = 9 } },
      apply = function(R, opts) end }]])
    ok, e = pcall(kontor.new_game, { variants = { v }, options = { pay = 2 } })
    assert.is_false(ok)
    assert.are.same({ variant = "own_opt", variants = { "own_opt" }, as = v .. ":pay=2" }, e.unknown_option.owner)
  end)

  it("a variant of another rule set: the variant, its base and the rule set asked for", function()
    local ok, e = pcall(kontor.new_game, { rules = "caribbean", variants = { "house" } })
    assert.is_false(ok)
    assert.are.same({ variant = "house", base = "sea_merchants", rules = "caribbean" }, e.wrong_base)
  end)

  it("a variant given as the rule set: the name given and the rule set the variant is for", function()
    local ok, e = pcall(kontor.new_game, { rules = "port_royal", players = 2 })
    assert.is_false(ok)
    assert.are.equal("usage", e.kind)
    assert.are.same({ rules = "port_royal", base = "caribbean" }, e.variant_as_rules)
  end)

  it("a restriction that matches nothing: its close text and its message for any number of setups", function()
    local balance = require "kontor.balance"
    local restrictions = require "kontor.balance.restrictions"
    local u = restrictions.unmatched(balance.load {
      rules = "sea_merchants", players = 2, bots = { [1] = { kind = "random", options = { avoid = "exchnge" } } } })
    assert.are.equal(1, #u)
    assert.are.equal("exchange", u[1].near)
    assert.truthy(u[1].told(3):find(("in %d random games of each of the 3 setups, so it changes nothing")
      :format(restrictions.GAMES), 1, true), u[1].told(3))
    assert.are.equal(u[1].message, u[1].told(1))
  end)

  it("no front end reads an engine message back to decide what to do", function()
    -- the texts the engine's messages are made of, as patterns front ends once matched
    local patterns = { "unknown option '", "is for ", "is not a legal action", "did you mean", "would play",
      "say which", "random games of this setup" }
    for _, file in ipairs { "repl/repl.lua", "repl/cli.lua", "repl/serve.lua", "repl/lab.lua", "repl/play.lua",
        "lua/kontor/game/history.lua" } do
      local f = assert(io.open(file))
      local n = 0
      for line in f:lines() do
        n = n + 1
        local code = line:gsub("^%s*%-%-.*$", "")
        if code:find(":match(", 1, true) or code:find(":find(", 1, true) or code:find(":gsub(", 1, true) then
          for _, p in ipairs(patterns) do
            assert.falsy(code:find(p, 1, true), file .. ":" .. n .. ": " .. line)
          end
        end
      end
      f:close()
    end
  end)
end)
