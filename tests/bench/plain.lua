-- Runs the plain Lua loops of tests/bench (no engine, no sandbox).
--
--   lua5.4 tests/bench/plain.lua NAME PLAYERS GAMES SEED
--
-- NAME: sea_merchants, house, caribbean or old_world. Prints one line of JSON with the
-- same fields as `kontor sim --json` (mean_turns, mean_steps, mean_score,
-- games_per_second) plus the standard deviations of turns and steps a game,
-- which tests/bench/bench.lua uses to judge whether the loop plays the same
-- game as the rule set. The random policy is math.random seeded with SEED:
-- uniform over the options at every decision.
--
-- As a module (dofile): M.run(name, players, games, random) with random(n)
-- returning 1..n; tests/lua/bench_spec.lua runs it inside kontor.

local M = {}

local here = (debug and debug.getinfo and debug.getinfo(1, "S").source:match("^@(.*/)")) or "tests/bench/"
local LOOPS = { sea_merchants = "sea_merchants", house = "sea_merchants", caribbean = "caribbean",
                old_world = "old_world",
                -- the rule scripts alone under a stand-in (tests/bench/script.lua)
                sea_merchants_script = "script", caribbean_script = "script", old_world_script = "script" }

function M.loop(name)
  local file = LOOPS[name] or error("no plain loop named " .. tostring(name), 0)
  return dofile(here .. file .. ".lua")[name]
end

function M.run(name, players, games, random)
  local play = M.loop(name)
  local turns, turns2, steps, steps2, score = 0, 0, 0, 0, {}
  for q = 1, players do score[q] = 0 end
  local t0 = os.clock()
  for _ = 1, games do
    local t, s, scores = play(random, players)
    turns, turns2 = turns + t, turns2 + t * t
    steps, steps2 = steps + s, steps2 + s * s
    for q = 1, players do score[q] = score[q] + scores[q] end
  end
  local seconds = os.clock() - t0
  local function mean(x) return x / games end
  local function sd(x, x2) return math.sqrt(math.max(0, x2 / games - (x / games) ^ 2)) end
  for q = 1, players do score[q] = mean(score[q]) end
  return {
    rules = name, players = players, games = games,
    mean_turns = mean(turns), sd_turns = sd(turns, turns2),
    mean_steps = mean(steps), sd_steps = sd(steps, steps2),
    mean_score = score, seconds = seconds,
    games_per_second = seconds > 0 and games / seconds or 0,
  }
end

local function json(s)
  local out = {}
  for _, k in ipairs { "rules", "players", "games", "mean_turns", "sd_turns", "mean_steps",
                       "sd_steps", "seconds", "games_per_second" } do
    local v = s[k]
    out[#out + 1] = ('"%s":%s'):format(k, type(v) == "string" and ('"' .. v .. '"') or
      (math.type(v) == "integer" and tostring(v) or ("%.6g"):format(v)))
  end
  local sc = {}
  for q, v in ipairs(s.mean_score) do sc[q] = ("%.4f"):format(v) end
  out[#out + 1] = '"mean_score":[' .. table.concat(sc, ",") .. "]"
  return "{" .. table.concat(out, ",") .. "}"
end

if arg and arg[0] and arg[0]:match("plain%.lua$") then
  local name, players, games, seed = arg[1], tonumber(arg[2]), tonumber(arg[3]), tonumber(arg[4] or 1)
  if not (name and players and games) then
    io.stderr:write("usage: lua5.4 tests/bench/plain.lua sea_merchants|house|caribbean|old_world PLAYERS GAMES [SEED]\n")
    os.exit(2)
  end
  math.randomseed(seed)
  print(json(M.run(name, math.tointeger(players), math.tointeger(games), math.random)))
end

return M
