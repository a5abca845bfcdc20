-- A Lua-level sampling profile of `kontor sim`'s games (docs/performance.md).
--
--   build/kontor run tests/bench/profile.lua RULES[+VARIANT...] PLAYERS GAMES [line] [TOP]
--
-- Plays games 1..GAMES of `kontor sim --rules RULES --players PLAYERS
-- --seed 1` as the simulation does, with a count hook on each game's
-- thread: one sample every 97 VM instructions, counted by function (or by
-- line with `line`). Rule code and the engine's Lua on the game's thread
-- are sampled; C functions are not (callgrind counts those). Prints the
-- TOP (default 40) places with their share of the samples.
local core = require "kontor.core"
local gamemod = require "kontor.game"
local rules = require "kontor.rules"

local name, players, games = arg[1], tonumber(arg[2]), tonumber(arg[3])
local by_line, top = arg[4] == "line", tonumber(arg[5] or arg[4]) or 40
if not (name and players and games) then
  io.stderr:write("usage: kontor run tests/bench/profile.lua RULES[+VARIANT...] PLAYERS GAMES [line] [TOP]\n")
  os.exit(2)
end
local base, variants = name:match("^[^+]+"), {}
for v in name:gmatch("%+([^+]+)") do variants[#variants + 1] = v end
local R = assert(rules.load(base, variants))
local options = rules.resolve_options(R, {})
local names = {}
for i = 1, players do names[i] = "Player " .. i end

local tally, total, steps = {}, 0, 0
local getinfo = debug.getinfo
local function hook()
  local info = getinfo(2, "Sln")
  local key = info.short_src .. ":" .. (by_line and (info.currentline or 0)
    or ((info.linedefined or 0) .. " " .. tostring(info.name)))
  tally[key] = (tally[key] or 0) + 1
  total = total + 1
end
for i = 1, games do
  local gseed = core.derive_seed(1, i)
  local params = { rules = R.name, players = players, names = names, seed = gseed, options = options }
  local game = gamemod.new(R, params, true)
  debug.sethook(game.co, hook, "", 97)
  game:play_random(core.rng(core.derive_seed(gseed, 0)))
  steps = steps + game:step_count()
end
local keys = {}
for k in pairs(tally) do keys[#keys + 1] = k end
table.sort(keys, function(a, b) return tally[a] > tally[b] or (tally[a] == tally[b] and a < b) end)
print(("%d samples, %d steps, %.2f samples a step"):format(total, steps, total / steps))
for i = 1, math.min(top, #keys) do
  print(("%7d %5.1f%%  %s"):format(tally[keys[i]], 100 * tally[keys[i]] / total, keys[i]))
end
