-- .luacheckrc - luacheck (Debian's lua-check) over Kontor's Lua.
--
--   luacheck .          (what `make test` runs, as the suite "lint: luacheck")
--
-- Three kinds of Lua file, three sets of globals:
--   * the engine library, the program and tools (lua/, repl/, tests/):
--     standard Lua 5.4;
--   * rule scripts (variants/, tests/rulesets/, the hostile rule sets): only
--     the sandbox's allow list (lua/kontor/sandbox.lua), so a script that
--     reaches for io, os or string.dump is flagged before it is run. The
--     suite checks that this list and sandbox.lua's agree;
--   * specs (tests/**/*_spec.lua) and scripts run by `kontor run`: Lua 5.4,
--     busted's globals, and the global `kontor` the program sets.

std = "lua54"
include_files = { "lua/**/*.lua", "repl/**/*.lua", "variants/**/*.lua", "tests/**/*.lua",
  ".luacheckrc" }
exclude_files = { "build" }
max_line_length = false   -- no line-length rule in this project
-- A function whose signature its caller fixes (R.explain[name](g, seat,
-- text), a REPL command (sess, arg)) names every argument for the reader.
unused_args = false

-- What a rule script sees: keep in step with BASE, LIBS and API_NAMES in
-- lua/kontor/sandbox.lua (tests/lint/sandbox_std.lua compares them).
local function fields(list)
  local t = {}
  for _, k in ipairs(list) do t[k] = { read_only = true } end
  return { fields = t, read_only = true }
end
stds.kontor_sandbox = {
  read_globals = {
    "assert", "error", "ipairs", "next", "pairs", "select", "tonumber", "tostring",
    "type", "rawequal", "rawlen", "rawget", "rawset",
    "pcall", "xpcall", "setmetatable", "getmetatable", "unpack", "print", "load",
    string = fields { "byte", "char", "find", "format", "gmatch", "gsub", "len",
      "lower", "match", "rep", "reverse", "sub", "upper", "pack", "packsize", "unpack" },
    table = fields { "concat", "insert", "move", "pack", "remove", "sort", "unpack" },
    math = fields { "abs", "ceil", "exp", "floor", "fmod", "huge", "log", "max",
      "maxinteger", "min", "mininteger", "modf", "pi", "sqrt", "tointeger", "type", "ult",
      "sin", "cos", "tan", "asin", "acos", "atan", "random", "randomseed" },
    utf8 = fields { "char", "charpattern", "codepoint", "codes", "len", "offset" },
    coroutine = fields { "close", "create", "isyieldable", "running", "status", "yield",
      "resume", "wrap" },
    kontor = fields { "pile", "counter", "options", "family", "format", "bad_option" },
  },
  globals = { "_G" },   -- the script's own environment
}

-- The global the kontor program gives scripts (kontor run, the REPL, specs).
stds.kontor_script = { globals = { "kontor", "arg" } }

local RULE_SCRIPTS = { "variants/", "tests/rulesets/", "tests/fuzz/corpus/rules/",
  "tests/hostile/attack.lua", "tests/hostile/pairs_order.lua", "tests/hostile/tamper.lua" }
for _, f in ipairs(RULE_SCRIPTS) do files[f] = { std = "kontor_sandbox" } end

files["tests/"] = { std = "+kontor_script" }
files["tests/**/*_spec.lua"] = { std = "+busted+kontor_script" }
files["tests/fuzz/"] = { read_globals = { "KONTOR_HOME" } }   -- set by fuzz_main.c
files["repl/"] = { globals = { "kontor", "g" } }              -- what the REPL's user sees

-- The hostile rule sets do on purpose what the sandbox must survive:
-- tamper.lua replaces library functions and keeps a spare `pairs`;
-- attack.lua fills memory with tables it never reads and holds to-be-closed
-- variables only for their __close.
files["tests/hostile/tamper.lua"].ignore = { "122", "211/real_pairs" }
files["tests/hostile/attack.lua"].ignore = { "211", "241" }
