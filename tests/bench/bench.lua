-- make bench: the engine against plain Lua loops of the same games.
--
--   lua5.4 tests/bench/bench.lua [--quick] [--no-callgrind]
--
-- For Sea Merchants 4p, the house preset 4p and Merchants of the Caribbean
-- 2p it runs `kontor sim` (the full engine: rule script in the sandbox,
-- limits armed, decisions, step recording) and the plain loop of
-- tests/bench (plain.lua), three times each, alternating, and keeps the
-- fastest run of each (a burst of load on the machine slows a run, nothing
-- makes one faster); it checks that both play the same game (the mean
-- turns a game agree within 4 standard errors); and, with valgrind, it
-- counts instructions a game with callgrind: the difference between a run
-- of A games and one of B games, divided by B - A, so that start-up does
-- not count. Old World 4p and 8p are measured the same way against their
-- plain loop (tests/bench/old_world.lua). Then the
-- engine's cost a step, the one comparison of rule sets that is alike: the
-- same games played by the engine and by the rule script alone
-- (tests/bench/same_games.lua), with whether Old World's is at or below Sea
-- Merchants' (issue 14). Wall time on a shared machine varies by 20% and
-- more; instruction counts do not depend on the load. docs/performance.md
-- explains every column.

local KONTOR = os.getenv("KONTOR_PLAIN") or "build/kontor"
local ROUNDS = 3           -- runs of each side, alternating; the fastest counts
local LUA = os.getenv("LUA") or "lua5.4"
local quick, callgrind = false, true
for _, a in ipairs(arg) do
  if a == "--quick" then quick = true
  elseif a == "--no-callgrind" then callgrind = false
  else io.stderr:write("usage: lua5.4 tests/bench/bench.lua [--quick] [--no-callgrind]\n"); os.exit(2) end
end

-- name, kontor arguments, players, games (kontor, plain), callgrind games
-- (A, B), and issue 25's targets against loops as tight as a good Lua
-- programmer writes them: `target`, a ratio to meet by time and by
-- instructions alike (item 4); Old World's (item 5) is in instructions
-- only: at most `max_ir` a 4-player game, 2.5x its loop's (a ratio of 0.4).
local CASES = {
  { name = "sea_merchants", args = "--rules sea_merchants", players = 4,
    kontor = 10000, plain = 20000, ir = { 100, 500 }, target = 0.6 },
  { name = "house", args = "--rules sea_merchants --variant house", players = 4,
    kontor = 5000, plain = 10000, ir = { 100, 500 }, target = 0.5 },
  { name = "caribbean", args = "--rules caribbean", players = 2,
    kontor = 5000, plain = 10000, ir = { 100, 500 }, target = 0.65 },
  -- Old World: its plain loop (tests/bench/old_world.lua) plays the rules alone.
  { name = "old_world", args = "--rules old_world", players = 4,
    kontor = 1000, plain = 4000, ir = { 10, 50 }, ir_target = 0.4, max_ir = 5000000 },
  { name = "old_world", args = "--rules old_world", players = 8,
    kontor = 500, plain = 2000, ir = { 5, 25 }, ir_target = 0.4 },
}
if quick then
  for _, c in ipairs(CASES) do
    c.kontor, c.plain, c.ir = c.kontor // 10, c.plain // 10, { 20, 100 }
  end
end

local function run(cmd)
  local f = assert(io.popen(cmd .. " 2>&1"))
  local out = f:read("a")
  local ok, _, code = f:close()
  if not ok then error(("failed (%s): %s\n%s"):format(tostring(code), cmd, out), 0) end
  return out
end

local function field(json, key)
  return tonumber(json:match('"' .. key .. '":(%-?[%d.eE+-]+)'))
end

local function kontor_cmd(c, games, seed)
  return ("%s sim %s --players %d --games %d --seed %d --json"):format(KONTOR, c.args, c.players, games, seed)
end

local function plain_cmd(c, games, seed)
  return ("%s tests/bench/plain.lua %s %d %d %d"):format(LUA, c.name, c.players, games, seed)
end

-- Instructions a game: callgrind's total for B games minus that for A games
-- (`wrap`: what runs valgrind, as the fixed counts below).
local function ir_per_game(cmd_of, a, b, wrap)
  local function total(n)
    local out = run((wrap or "") .. "valgrind --tool=callgrind --callgrind-out-file=/dev/null " .. cmd_of(n))
    return tonumber(out:match("Collected : (%d+)")) or error("no callgrind total in:\n" .. out, 0)
  end
  return (total(b) - total(a)) / (b - a)
end

local function have_valgrind()
  local f = io.popen("command -v valgrind")
  local path = f:read("a")
  f:close()
  return path ~= ""
end
if callgrind and not have_valgrind() then
  print("(valgrind is not installed: no instruction counts)")
  callgrind = false
end

local thousands = dofile("tests/bench/thousands.lua")

print(("== kontor (%s) against plain Lua (%s), the same games with the same random policy"):format(KONTOR, LUA))
print(("   games/s: the fastest of %d runs; Ir: instructions a game (callgrind)"):format(ROUNDS))
print()
local rows, failed = {}, false
for _, c in ipairs(CASES) do
  local k, p = {}, {}
  for round = 1, ROUNDS do
    k[round] = run(kontor_cmd(c, c.kontor, round))
    p[round] = run(plain_cmd(c, c.plain, round))
  end
  local function best(runs, name)
    local m = 0
    for i = 1, ROUNDS do m = math.max(m, field(runs[i], name)) end
    return m
  end
  local function mean(runs, name)
    local s = 0
    for i = 1, ROUNDS do s = s + field(runs[i], name) end
    return s / ROUNDS
  end
  local kg, pg = best(k, "games_per_second"), best(p, "games_per_second")
  local kt, pt = mean(k, "mean_turns"), mean(p, "mean_turns")
  local ks, ps = mean(k, "mean_steps"), mean(p, "mean_steps")
  local sd = mean(p, "sd_turns")
  local tol = 4 * sd * math.sqrt(1 / (ROUNDS * c.kontor) + 1 / (ROUNDS * c.plain))
  local same = math.abs(kt - pt) <= tol
  if not same then failed = true end
  local row = { c = c, kg = kg, pg = pg, kt = kt, pt = pt, ks = ks, ps = ps, tol = tol, same = same }
  if callgrind then
    row.kir = ir_per_game(function(n) return kontor_cmd(c, n, 1) end, c.ir[1], c.ir[2])
    row.pir = ir_per_game(function(n) return plain_cmd(c, n, 1) end, c.ir[1], c.ir[2])
  end
  rows[#rows + 1] = row
  print(("%-14s %dp  turns a game: kontor %.2f, plain %.2f (tolerance %.2f): %s; steps %.1f / %.1f"):format(
    c.name, c.players, kt, pt, tol, same and "the same game" or "NOT THE SAME GAME", ks, ps))
end

print()
print(("%-14s %3s %9s %9s %6s %12s %12s %6s %7s"):format("rule set", "p", "kontor/s", "plain/s", "ratio",
  "kontor Ir", "plain Ir", "ratio", "target"))
for _, r in ipairs(rows) do
  local c = r.c
  print(("%-14s %3d %9.0f %9.0f %5.2fx %12s %12s %6s %6.2fx"):format(c.name, c.players, r.kg, r.pg, r.kg / r.pg,
    r.kir and thousands(r.kir) or "-", r.pir and thousands(r.pir) or "-",
    r.kir and ("%5.2fx"):format(r.pir / r.kir) or "-", c.target or c.ir_target))
end
print()
print("ratio = plain-Lua time (or instructions) / kontor's for the same games (1.00x: as fast as plain Lua)")
local function verdict(ratio, target)
  return ("%.3fx, %s %.2fx"):format(ratio, ratio >= target and "meets" or "BELOW", target)
end
for _, r in ipairs(rows) do
  local c, parts = r.c, {}
  if c.target then parts[#parts + 1] = "by time " .. verdict(r.kg / r.pg, c.target) end
  local it = c.target or c.ir_target
  if r.kir then parts[#parts + 1] = "by instructions " .. verdict(r.pir / r.kir, it)
  else parts[#parts + 1] = "by instructions: not counted" end
  if c.max_ir and r.kir then
    parts[#parts + 1] = ("%s a game, %s %s"):format(thousands(r.kir),
      r.kir <= c.max_ir and "within" or "OVER", thousands(c.max_ir))
  end
  print(("%-14s %dp  %s"):format(c.name, c.players, table.concat(parts, "; ")))
end
for _, r in ipairs(rows) do
  if not r.c.target then
    print("   (Old World's targets are in instructions, issue 25 item 5: its time ratio is shown, not judged)")
    break
  end
end

-- The engine's cost a step, measured alike for every rule set: the engine
-- and the stand-in of tests/bench/script.lua (the rule script itself, with
-- the engine's C piles and counters) play the games of `kontor sim --seed 1`
-- in one interpreter (tests/bench/same_games.lua), so the difference is the
-- engine's alone, without the noise of different games or of another
-- interpreter. (Subtracting the separate plain loops of the table above
-- would also count what a rule script does beyond its loop's own, tighter
-- code: it does not compare like with like.) Issue 14: Old World's cost a
-- step must be no higher than Sea Merchants', measured in one run.
--
-- Counted without the noise of Lua's string hash seed (about 400
-- instructions a step for Old World from one count to the next, more than
-- what issue 14 compares): the addresses fixed (setarch -R) and the clock
-- too (tests/bench/fixed_time.c preloaded), as tests/bench/engine_step.sh
-- does; every run of this part then counts the same.
local function fixed_counting()
  local ok = os.execute("command -v setarch >/dev/null && setarch -R true 2>/dev/null"
    .. " && make -s build/fixed_time.so")
  return ok and "FIXED_TIME=1 setarch -R env LD_PRELOAD=build/fixed_time.so " or nil
end
if callgrind then
  local wrap = fixed_counting()
  print()
  print("engine cost a step on the same games (tests/bench/same_games.lua: kontor minus the rule script alone;")
  print(wrap and "   hash seed fixed: every run of this build counts the same)"
    or "   setarch or make missing: one count, which varies by a few hundred a step)")
  local SAME = { { "sea_merchants", 4, 10, 40 }, { "caribbean", 2, 10, 40 }, { "old_world", 4, 5, 20 } }
  local per_step = {}
  for _, c in ipairs(SAME) do
    local name, players, a, b = c[1], c[2], c[3], c[4]
    if quick then a, b = math.max(1, a // 2), b // 2 end
    local function same_cmd(mode)
      return function(n) return ("%s run tests/bench/same_games.lua %s %d %d %s"):format(KONTOR, mode, players, n, name) end
    end
    local ka, kb = run(same_cmd("kontor")(a)), run(same_cmd("kontor")(b))
    local pb = run(same_cmd("plain")(b))
    local function steps_of(out) return tonumber(out:match("(%d+) steps")) end
    if kb:match("checksum (%d+)") ~= pb:match("checksum (%d+)") or steps_of(kb) ~= steps_of(pb) then
      print(("  %s: the engine and the stand-in did not play the same games"):format(name))
      failed = true
    else
      local kir = ir_per_game(same_cmd("kontor"), a, b, wrap)
      local pir = ir_per_game(same_cmd("plain"), a, b, wrap)
      local per_game = (steps_of(kb) - steps_of(ka)) / (b - a)
      per_step[name] = (kir - pir) / per_game
      print(("  %-14s %dp  kontor %11s Ir, script alone %11s Ir a game; engine %7s Ir a step"):format(
        name, players, thousands(kir), thousands(pir), thousands(per_step[name])))
    end
  end
  local ow, sm = per_step.old_world, per_step.sea_merchants
  if ow and sm then
    print(("  old_world 4p: %s Ir a step, %s sea_merchants 4p's %s (issue 14: at or below it): %s"):format(
      thousands(ow), ow <= sm and "at or below" or "above", thousands(sm), ow <= sm and "met" or "NOT MET"))
  end
end

-- The engine's own cost per step: the race rule set (one decision a turn,
-- almost no rule code), 2 players, at the length of a Sea Merchants game.
local race = run(("%s sim --rules tests/rulesets/race.lua --players 2 --option target=91 --games %d --seed 1 --json")
  :format(KONTOR, quick and 2000 or 20000))
print()
print(("race (tests/rulesets/race.lua, target=91): %.1f steps a game, %.0f games/s, %.2f us a step"):format(
  field(race, "mean_steps"), field(race, "games_per_second"),
  1e6 / (field(race, "games_per_second") * field(race, "mean_steps"))))

-- The greedy bot's part (issue 27): the lab with four greedy seats a side,
-- and greedy's cost against random (tests/bench/greedy.lua).
print()
os.execute(("%s tests/bench/greedy.lua%s%s"):format(LUA, quick and " --quick" or "",
  callgrind and "" or " --no-callgrind"))

if failed then
  print("\nA plain loop does not play the game of its rule set: fix tests/bench before reading the ratios.")
  os.exit(1)
end
