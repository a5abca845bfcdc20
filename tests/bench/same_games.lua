-- The same games played by the engine and by the stand-in of
-- tests/bench/script.lua, in one interpreter (make bench counts the
-- instructions of both with callgrind: their difference is the engine's).
--
--   build/kontor run tests/bench/same_games.lua kontor|plain PLAYERS GAMES [RULES]
--
-- RULES: old_world (the default), sea_merchants or caribbean. Game i is
-- game i of `kontor sim --rules RULES --seed 1`: the stand-in uses the
-- engine's own piles and counters, draws its choices from the simulation
-- bot's RNG and its shuffles and chance from the game's RNG, exactly as the
-- engine does, so both play the same steps; each prints the steps taken
-- and a checksum of the turns and scores, which must agree.
local core = require "kontor.core"
local gamemod = require "kontor.game"
local rules = require "kontor.rules"

local mode, players, games, name = arg[1], tonumber(arg[2]), tonumber(arg[3]), arg[4] or "old_world"
if (mode ~= "kontor" and mode ~= "plain") or not players or not games then
  io.stderr:write("usage: kontor run tests/bench/same_games.lua kontor|plain PLAYERS GAMES [RULES]\n")
  os.exit(2)
end
local here = debug.getinfo(1, "S").source:match("^@(.*/)") or "tests/bench/"
local plain = dofile(here .. "script.lua").player(name,
  { pile = core.pile, counter = core.counter, family_draw = core.options.family_draw })
local R = assert(rules.load(name))
local options = rules.resolve_options(R, {})
local names = {}
for i = 1, players do names[i] = "Player " .. i end

local steps, check = 0, 0
for i = 1, games do
  local gseed = core.derive_seed(1, i)
  local bot = core.rng(core.derive_seed(gseed, 0))
  local turns, scores
  if mode == "kontor" then
    local params = { rules = R.name, players = players, names = names, seed = gseed, options = options }
    local game = gamemod.playout(R, params, bot, nil, false, true)   -- as kontor sim: no step texts
    local res = game:result()
    steps, turns, scores = steps + game:step_count(), res.turns, res.scores
  else
    local n
    turns, n, scores = plain(function(m) return bot:below(m) + 1 end, players, core.rng(gseed))
    steps = steps + n
  end
  check = (check * 31 + turns) % 1000000007
  for _, v in ipairs(scores) do check = (check * 31 + v) % 1000000007 end
end
print(("%s %d steps, scores checksum %d"):format(mode, steps, check))
