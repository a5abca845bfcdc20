-- kontor.sim: random playouts and their summary.
--
-- Game i (1-based) of a run with seed S is played with seed
-- derive_seed(S, i); its bot picks uniformly among the options with an RNG
-- seeded from derive_seed(that seed, 0). So the same seed gives the same
-- games and the same summary, whatever the machine (only the timing varies).

local core = require "kontor.core"
local gamemod = require "kontor.game"
local errors = require "kontor.errors"
local rules = require "kontor.rules"

local format = string.format

local M = {}

-- The most games one run plays: kontor.sim, kontor sim and the lab's
-- runs (sim, compare, sweep, worth) refuse more, as kontor merge refuses
-- a shard of a longer run (kontor.balance.run). 2^31: a whole number of
-- at most this squares within 2^62, where the lab's sums stay exact.
M.MAX_GAMES = 1 << 31

local derive = core.derive_seed

-- A count a run is given (kontor.sim's games, seed and only; the command
-- line's --games): the whole number it is, or nil and the message both
-- front ends give, "games must be a whole number from 1 to 2147483648, not
-- 3.5" (`name` as the front end names the field: "games", "--games"). A
-- float that is a whole number (3.0, 1e12) counts as that integer, as
-- `--games 3.0` does on the command line; a text is not a number (the
-- command line gives tonumber of its text, or the text when it is none).
function M.count(v, name, min, max)
  local n = math.type(v) == "float" and math.tointeger(v) or v
  if math.type(n) == "integer" and not (min and n < min) and not (max and n > max) then return n end
  return nil, format("%s must be a whole number%s, not %s", name,
    max and format(" from %d to %d", min, max) or min and format(" of %d or more", min) or "",
    type(v) == "string" and ("'" .. v .. "'") or tostring(n))
end

-- Plays one game to the end with random choices; returns the game.
-- `check(game)` (optional) is called after setup and after every step.
-- The steps' texts are made only if something reads them.
function M.playout(R, params, bot, check, quiet)
  if not check then return gamemod.playout(R, params, bot, params.max_steps, false, quiet) end
  local game = gamemod.new(R, params, quiet)
  return game:play_random(bot, check, params.max_steps, false)
end

-- The variants of R as given, in the command line's form with their
-- options: "hand_limit:size=5" (keys sorted).
local function variant_texts(R)
  local out = {}
  for i, v in ipairs(rules.given_variants(R)) do
    local keys = {}
    for k in pairs(v.options or {}) do keys[#keys + 1] = tostring(k) end
    table.sort(keys)
    local kv = {}
    for j, k in ipairs(keys) do kv[j] = k .. "=" .. tostring(v.options[k]) end
    out[i] = v[1] .. (#kv > 0 and (":" .. table.concat(kv, ",")) or "")
  end
  return out
end

-- opts: { rules = name|R, variants, players, games, seed, options, check,
-- only } (only: play game `only` of the run alone, to reproduce it).
-- Returns the summary table. A game that fails raises "game I (seed S):
-- message".
function M.run(opts)
  local R = opts.rules
  if type(R) ~= "table" then
    local err
    R, err = rules.load(R, opts.variants)
    if not R then error(err, 0) end
  end
  local players = gamemod.players_for(R, opts.players)
  local games = opts.games or 100
  local seed = opts.seed or 1
  local options, oerr = rules.resolve_options(R, opts.options)
  if not options then error(oerr, 0) end
  local names = {}
  for i = 1, players do names[i] = "Player " .. i end
  local wins, score_sum = {}, {}
  for s = 1, players do wins[s], score_sum[s] = 0, 0 end
  local turns, steps, shared, none = 0, 0, 0, 0
  local clock = os.clock
  local t0 = clock()
  local first, last = opts.only or 1, opts.only or games
  local mstate
  for i = first, last do
    local gseed = derive(seed, i)
    local params = { rules = R.name, players = players, names = names, seed = gseed,
                     options = options }
    local bot = core.rng(derive(gseed, 0))
    local pok, game = pcall(M.playout, R, params, bot, opts.check, true)
    if not pok then
      if errors.kind(game) == "interrupt" then error(game, 0) end   -- Ctrl-C: as it is
      errors.raise(errors.of_script(game), string.format("game %d (seed %d): %s", i, gseed, tostring(game)),
        -- why: the script's message for people, one line, without the
        -- frames (in the error's traceback): a limit's with the script's place
        { game = i, seed = gseed, why = require("kontor.text").error_place(game),
          limit = errors.is(game) and rawget(game, "limit") or nil }, 0)
    end
    -- (the rule script's module-level variables after the first game:
    -- a run whose games change them plays each game from where the games
    -- before left them, and `--game I` alone plays another game)
    if i == first and last > first then mstate = require("kontor.game.module_state").snapshot(R) end
    local res = game:result()
    turns = turns + res.turns
    steps = steps + game:step_count()
    for s = 1, players do score_sum[s] = score_sum[s] + res.scores[s] end
    for _, w in ipairs(res.winners) do wins[w] = wins[w] + 1 end
    if #res.winners > 1 then shared = shared + 1 end
    if #res.winners == 0 then none = none + 1 end   -- Caribbean's C9: nobody may win
  end
  local elapsed = clock() - t0
  local warnings = mstate and require("kontor.game.module_state").changes(R, mstate, {},
    format("between game %d and game %d of the run", first, last))
  for i, m in ipairs(warnings or {}) do warnings[i] = m.text end
  -- Statistics to 4 decimals, speed to 1: the JSON stays readable.
  local function round(x, places)
    local f = 10 ^ places
    return math.floor(x * f + 0.5) / f
  end
  local played = last - first + 1
  local mean_score = {}
  for s = 1, players do mean_score[s] = round(score_sum[s] / played, 4) end
  local opt_keys, given = {}, {}
  for k in pairs(opts.options or {}) do opt_keys[#opt_keys + 1] = k end
  table.sort(opt_keys)
  for _, k in ipairs(opt_keys) do given[k] = options[k] end
  return {
    rules = R.name,
    variants = variant_texts(R),
    options = next(given) and given or setmetatable({}, core.json.object),
    players = players,
    games = played,
    only = opts.only,
    seed = seed,
    mean_turns = round(turns / played, 4),
    mean_steps = round(steps / played, 4),
    wins = wins,
    shared_wins = shared,
    no_winner = none > 0 and none or nil,   -- only where a game had none: other summaries stay as they were
    mean_score = mean_score,
    seconds = round(elapsed, 3),
    games_per_second = elapsed > 0 and round(played / elapsed, 1) or 0,
    warnings = warnings,                   -- only where there are some (kontor.game.module_state)
  }
end

function M.format(s)
  local lines = {}
  local function add(...) lines[#lines + 1] = string.format(...) end
  local rules_name = s.rules
  if #s.variants > 0 then rules_name = rules_name .. " + " .. table.concat(s.variants, " + ") end
  add("rules        %s", rules_name)
  local keys = {}
  for k in pairs(s.options or {}) do keys[#keys + 1] = k end
  table.sort(keys)
  if #keys > 0 then
    local kv = {}
    for i, k in ipairs(keys) do kv[i] = k .. "=" .. tostring(s.options[k]) end
    add("options      %s", table.concat(kv, ", "))
  end
  add("players      %d", s.players)
  if s.only then add("game         %d of the run with seed %d", s.only, s.seed)
  else add("games        %d (seed %d)", s.games, s.seed) end
  add("mean turns   %.2f (%.1f steps)", s.mean_turns, s.mean_steps)
  local w, m = {}, {}
  for i = 1, s.players do
    w[i] = string.format("%d: %d", i, s.wins[i])
    m[i] = string.format("%d: %.2f", i, s.mean_score[i])
  end
  add("wins         %s (%d %s shared%s)", table.concat(w, "  "), s.shared_wins, s.shared_wins == 1 and "game" or "games",
    (s.no_winner or 0) > 0 and string.format(", %d without a winner", s.no_winner) or "")
  add("mean score   %s", table.concat(m, "  "))
  -- (a short run in milliseconds, not "0.00 s"; the time is kept to the
  -- millisecond, so a run under one has no speed to tell)
  if s.seconds <= 0 then
    add("speed        under 1 ms in all: too quick to time")
  elseif s.seconds < 0.1 then
    add("speed        %.0f games/s (%d ms)", s.games_per_second, math.floor(s.seconds * 1000 + 0.5))
  else
    add("speed        %.0f games/s (%.2f s)", s.games_per_second, s.seconds)
  end
  return table.concat(lines, "\n")
end

return M
