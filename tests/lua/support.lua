-- tests/lua/support.lua - helpers the specs share:
--   local support = require "tests.lua.support"

local M = {}

-- A string quoted for sh.
function M.sh_quote(s) return "'" .. s:gsub("'", "'\\''") .. "'" end

-- The kontor binary the specs drive: $KONTOR, the running binary, or the
-- plain build.
function M.binary()
  local b = os.getenv("KONTOR")
  if b and b ~= "" then return b end
  local self = arg and arg[-1]
  if self and self:match("kontor$") then return self end
  return "build/kontor"
end

-- The plain (not sanitized) build, for the command-line specs: $KONTOR_PLAIN
-- or build/kontor.
function M.plain_binary()
  return os.getenv("KONTOR_PLAIN") or "build/kontor"
end

-- Runs a shell command with `stdin` (a text; without it, /dev/null) as its
-- input. Returns its output, stderr after stdout as they came, and its
-- exit status (128 + N for a signal N).
function M.run(cmd, stdin)
  local out = os.tmpname()
  local inp = stdin and M.write(os.tmpname(), stdin)
  local _, how, code = os.execute(string.format("%s >%s 2>&1 <%s", cmd, out, inp or "/dev/null"))
  local text = M.read(out)
  os.remove(out)
  if inp then os.remove(inp) end
  return text, (how == "exit" and code or 128 + code)
end

-- The kontor program (support.binary()) with `args`: its output, then
-- "rc=" and its exit status, in one text (stdin: the input, or none).
function M.kontor_rc(args, stdin)
  local out, code = M.run(M.binary() .. " " .. args, stdin or "")
  return out .. "rc=" .. code .. "\n"
end

-- The plain kontor program with `args`, stdout and stderr apart: out,
-- err, status (as run_split).
function M.kontor_split(args, stdin)
  return M.run_split(M.plain_binary() .. " " .. args, stdin)
end

-- As run, stdout and stderr apart: out, err, status.
function M.run_split(cmd, stdin)
  local o, e = os.tmpname(), os.tmpname()
  local inp = stdin and M.write(os.tmpname(), stdin)
  local _, how, code = os.execute(string.format("%s >%s 2>%s <%s", cmd, o, e, inp or "/dev/null"))
  local out, err = M.read(o), M.read(e)
  os.remove(o); os.remove(e)
  if inp then os.remove(inp) end
  return out, err, (how == "exit" and code or 128 + code)
end

-- Whether s holds `needle` (plain text, no pattern).
function M.has(s, needle) return s:find(needle, 1, true) ~= nil end

-- The lines of s ("a\nb\n" -> "a", "b", "").
function M.lines(s)
  local t = {}
  for l in s:gmatch("[^\n]*") do t[#t + 1] = l end
  return t
end

-- The lines of s without the empty ones at its end ("a\nb\n\n" -> "a", "b"):
-- a document's or a program's lines, to compare line by line.
function M.text_lines(s)
  local t = {}
  for l in (s .. "\n"):gmatch("(.-)\n") do t[#t + 1] = l end
  while t[#t] == "" do t[#t] = nil end
  return t
end

-- A fresh empty folder (mode 700); the caller removes it.
function M.tmpdir()
  local name = os.tmpname()
  os.remove(name)
  assert(os.execute("mkdir -m 700 " .. M.sh_quote(name)))
  return name
end

-- The temp files fs.write_atomic left in folder `dir`: ".NAME.tmp.PID.N".
function M.temps(dir)
  local out = {}
  for _, f in ipairs(kontor.core.fs.list(dir) or {}) do
    if f:find("%.tmp%.%d+%.%d+$") then out[#out + 1] = f end
  end
  return out
end

function M.write(path, text)
  local f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
  return path
end

-- A variant file of Old World at `path` that sets one building's cost from
-- its option: name, the building's id and title, the option's name and
-- default.
function M.old_world_cost_variant(path, name, building, title, option, cost)
  return M.write(path, ([[
return {
  variant = true, name = %q, base = "old_world",
  options = { %s = { default = %d, type = "integer", min = 0, doc = "what a %s costs" } },
  apply = function(R, opts)
    for _, b in ipairs(R.data.buildings) do
      if b.id == %q then b.cost = opts.%s end
    end
    R.prepare()
  end,
}
]]):format(name, option, cost, title, building, option))
end

function M.read(path)
  local f = assert(io.open(path, "rb"))
  local s = f:read("a")
  f:close()
  return s
end

-- A scratch folder made on first use: returns tmp(name) -> a path in it,
-- and cleanup() that removes it (for busted's teardown).
function M.scratch()
  local dir
  local function tmp(name)
    if not dir then dir = M.tmpdir() end
    return dir .. "/" .. name
  end
  local function cleanup()
    if dir then os.execute("rm -rf " .. M.sh_quote(dir)) end
    dir = nil
  end
  return tmp, cleanup
end

-- Terminal sessions (tests/repl/tmux.lua) for the tests of one describe
-- block, each test with a fresh HOME and its sessions stopped after it
-- (also when it failed). Call it in the block with busted's before_each
-- and after_each; returns start(cmd, env, width, height) -> the session
-- (env.HOME is the test's home unless given) and home() -> that folder.
function M.terminals(before_each, after_each)
  local tmux = dofile("tests/repl/tmux.lua")
  local home, sessions = nil, {}
  before_each(function() home = M.tmpdir() end)
  after_each(function()
    for _, t in ipairs(sessions) do t:stop() end
    sessions = {}
    os.execute("rm -rf " .. M.sh_quote(home))
  end)
  local function start(cmd, env, width, height)
    env = env or {}
    env.HOME = env.HOME or home
    local t = tmux.start(cmd, env, width, height)
    sessions[#sessions + 1] = t
    return t
  end
  return start, function() return home end
end

-- A random policy for the bench's plain loops: n -> 1..n, from a
-- kontor.rng seeded with `seed`.
function M.random_of(seed)
  local rng = kontor.rng(seed)
  return function(n) return rng:below(n) + 1 end
end

-- Raises unless kontor's summary `k` (of `kgames` games) and a plain
-- loop's `p` (of `pgames`) agree on mean turns and steps within 4
-- standard errors, and the turns' tolerance is under 5% of the mean (one
-- that could not tell a different game apart would prove nothing).
-- Returns the tolerances of turns and steps.
function M.same_game(k, p, kgames, pgames)
  local se = math.sqrt(1 / kgames + 1 / pgames)
  local turns_tol, steps_tol = 4 * p.sd_turns * se, 4 * p.sd_steps * se
  assert(math.abs(k.mean_turns - p.mean_turns) <= turns_tol,
    ("mean turns: kontor %.2f, plain %.2f, tolerance %.2f"):format(k.mean_turns, p.mean_turns, turns_tol))
  assert(math.abs(k.mean_steps - p.mean_steps) <= steps_tol,
    ("mean steps: kontor %.2f, plain %.2f, tolerance %.2f"):format(k.mean_steps, p.mean_steps, steps_tol))
  assert(turns_tol < 0.05 * p.mean_turns, "the tolerance of turns is over 5% of the mean")
  return turns_tol, steps_tol
end

-- Writes a small rule set to `path`: named `name`, for `min` (default 2)
-- to 2 players, its R.setup running `setup` (Lua source, default none)
-- and its R.play `play` (from line 4 of the file on), scores { 0, 0 }.
-- Returns path.
function M.rule_set(path, name, play, setup, min)
  return M.write(path, ([[
local R = { name = "%s", players = { min = %d, max = 2 } }
function R.setup(g) %s end
function R.play(g)
%s
end
function R.scores() return { 0, 0 } end
return R]]):format(name, min or 2, setup or "", play))
end

-- The same random game of `rules` for `players` (seed `seed`, its
-- choices from kontor.rng(seed)) played twice: by the simulation's bot
-- inside the game's coroutine, and step by step by the driver (a check
-- after each step forces that path). Returns the two games, over.
function M.playouts(rules, players, seed)
  local inside = kontor.new_game { rules = rules, players = players, seed = seed }
  inside:play_random(kontor.rng(seed))
  local driver = kontor.new_game { rules = rules, players = players, seed = seed }
  driver:play_random(kontor.rng(seed), function() end)
  return inside, driver
end

-- The seat that decides now: g:who()'s, the first of several.
-- The errors (as strings) of the rule set at `path` played out by the
-- simulation's bot inside the game (g:choose and g:choose_all are then
-- the bot's, lua/engine/playout.c) and by the driver (a check function
-- makes it so), seed 1; both must fail.
function M.playout_errors(path, players)
  local assert = require "luassert"
  local inside = kontor.new_game { rules = path, players = players, seed = 1 }
  local ok1, e1 = pcall(inside.play_random, inside, kontor.rng(1))
  local driver = kontor.new_game { rules = path, players = players, seed = 1 }
  local ok2, e2 = pcall(driver.play_random, driver, kontor.rng(1), function() end)
  assert.is_false(ok1)
  assert.is_false(ok2)
  return tostring(e1), tostring(e2)
end

-- A game of `rules` for `players` of seed `seed`, its steps taken at
-- random (kontor.rng(seed)) up to the first decision of turn `turn` that
-- is not chance; returns it and the seat to decide.
function M.game_at(rules, players, seed, turn)
  local g = kontor.new_game { rules = rules, players = players, seed = seed }
  local rng = kontor.rng(seed)
  while not g:over() and (g.turn < turn or M.decider(g) == "chance") do
    local s = M.decider(g)
    g:step(s, rng:below(#g:options(s)) + 1)
  end
  return g, M.decider(g)
end

-- The work a rule-script chunk `src` is charged (docs/security.md, "Work
-- charges"): the least work limit it runs under, found by bisection in
-- the sandbox of the rule sets' API. The work limit is put back after.
function M.work_charged(src)
  local sb = kontor.core.sandbox
  local env = require("kontor.sandbox").env(require("kontor.rules").api)
  local f = assert(sb.load(src, "=c", env))
  local old = sb.limits().work
  local lo, hi = 1000, 1 << 40
  while lo < hi do
    local mid = (lo + hi) // 2
    sb.limits { work = mid }
    if sb.call(f) then hi = mid else lo = mid + 1 end
  end
  sb.limits { work = old }
  return lo
end

function M.decider(g)
  local w = g:who()
  if type(w) == "table" then return w[1] end
  return w
end

-- Raises unless fn() fails with `message` in its error.
function M.fails(fn, message)
  local done, err = pcall(fn)
  assert(not done, "expected an error with: " .. message)
  assert(tostring(err):find(message, 1, true), tostring(err))
end

-- Raises unless the game's rule-set invariants hold.
function M.invariants(g)
  local err = g:invariants()
  assert(err == nil, err)
end

-- Sea Merchants from a stated position, for its specs and its variants'.
-- Defaults: Anna (seat 1) to act in phase I, a market of one card of each
-- product, a 4-card deck, empty hands, 2 players.
M.SM_NAMES = { "Anna", "Bert", "Carl", "Dora" }
M.SM_MARKET = { "grain", "wood", "porcelain", "fish", "spices", "cloth" }

function M.sea_merchants_game(sc, players, options, variants)
  sc = sc or {}
  sc.market = sc.market or M.SM_MARKET
  sc.deck = sc.deck or { "wood", "grain", "cloth", "spices" }
  sc.ships = sc.ships or { { "grain", "wood" }, { "cloth", "spices" } }
  sc.phase = sc.phase or "phase1"
  sc.active = sc.active or 1
  players = players or #sc.ships
  local names = {}
  for i = 1, players do names[i] = M.SM_NAMES[i] end
  return kontor.new_game { rules = "sea_merchants", variants = variants, players = players,
                           names = names, seed = 1, scenario = sc, options = options }
end

-- The program run from the repository's root ($KONTOR_PLAIN or the
-- running binary), with a scratch folder: { root, binary, abs(path),
-- tmp(name), cleanup(), run(args) -> stdout, stderr, status }.
function M.lab()
  local root = assert(io.popen("pwd")):read("l")
  local function abs(p) return p:sub(1, 1) == "/" and p or (root .. "/" .. p) end
  local binary = abs(os.getenv("KONTOR_PLAIN") or M.binary())
  local tmp, cleanup = M.scratch()
  local q = M.sh_quote
  local function run(args)
    local errf = tmp("stderr.txt")
    local p = assert(io.popen(string.format("cd %s && %s %s 2>%s", q(root), q(binary), args, q(errf))))
    local out = p:read("a")
    local _, _, code = p:close()
    return out, M.read(errf), code
  end
  -- Each case { args, message } is a usage error: exit status 2, nothing
  -- on stdout, the message and the hint on stderr.
  local function usage_errors(cases)
    local assert = require "luassert"
    for _, c in ipairs(cases) do
      local out, e, code = run(c[1])
      assert.are.equal(2, code, c[1])
      assert.are.equal("", out)
      assert.are.equal(c[2] .. "\nTry 'kontor --help'.\n", e, c[1])
    end
  end
  return { root = root, binary = binary, abs = abs, tmp = tmp, cleanup = cleanup, run = run,
           usage_errors = usage_errors }
end

-- A move that must be legal: g:apply(text), its refusal as the failure.
function M.ok(g, text)
  local done, err = g:apply(text)
  assert(done, err)
end

-- The response lines of `kontor serve` (the plain build) to request lines.
function M.serve_lines(lines)
  local out = M.run(M.plain_binary() .. " serve", table.concat(lines, "\n") .. "\n")
  local got = {}
  for l in out:gmatch("[^\n]+") do got[#got + 1] = l end
  return got
end

-- A variant of Sea Merchants a designer writes in a few lines (the
-- designer pass's `sell_card`): after phase II a player may sell one card
-- from the hand for `pay` (Lua source of the coins, e.g. "1"; "nil + 1"
-- makes the rule fail). Its source.
function M.sell_card(pay)
  return ([[
return {
  variant = true, name = "sell_card", base = "sea_merchants",
  apply = function(R)
    local end_of_phase_two = R.rules.end_of_phase_two
    function R.rules.end_of_phase_two(g, seat)
      end_of_phase_two(g, seat)
      if g.phase == "over" then return end
      local held, options = R.cards_in_hand(g, seat), { "keep" }
      for p, name in ipairs(R.data.products) do
        if held[p] > 0 then options[#options + 1] = { "sell", name } end
      end
      if #options == 1 then return end
      local choice = options[g:choose(seat, "sell", options)]
      if choice == "keep" then return end
      g.covered:push(R.rules.take_from_hand(g, seat, R.product_number(choice[2])))
      g.coins:add(seat, %s)
    end
  end,
}
]]):format(pay)
end

return M
