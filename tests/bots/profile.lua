-- tests/bots/profile.lua: where a greedy game's work goes (docs/bots.md,
-- "What it costs"). A benchmark, not a test:
--   build/kontor run tests/bots/profile.lua RULES PLAYERS SPEC GAMES [TOP] [CHAIN]
-- Plays games of seeds 1..GAMES with SPEC on every seat (as
-- tests/bots/cost.lua), with a count hook on every thread (one sample every
-- 97 VM instructions: Lua only, C functions are not sampled, callgrind
-- counts those). Each sample is counted for the chain of phases it is in:
-- the engine's and the bot's functions below are wrapped, each pushes its
-- name while it runs (`game>decide>sample>copy>restart` is the R.play
-- restart of a line's copy). Prints each chain's samples, CPU time (the
-- wrappers' own cost included: rough) and calls a game; with CHAIN
-- (`game>decide>base`, or `game>decide>base*` for it and all below it),
-- that chain's samples by source line too.
local core = require "kontor.core"
local fork = require "kontor.fork"
local gamemod = require "kontor.game"
local bots = require "kontor.bots"
local seatmod = require "kontor.seat"

local rules, players, spec, games = arg[1], tonumber(arg[2]), arg[3], tonumber(arg[4])
local top = tonumber(arg[5] or 40)
local focus = arg[6]                   -- a chain whose samples are counted by line too (CHAIN* all below it)

local stack, path = {}, "game"
local tally, calls = {}, {}
local lines = {}
local function hook()
  tally[path] = (tally[path] or 0) + 1
  if focus then                        -- (the same work at every sample: no chain is favoured)
    local info = debug.getinfo(2, "Sl")
    local k = info.short_src:gsub("^.*/lua/", "") .. ":" .. (info.currentline or 0)
    if path == focus or (focus:sub(-1) == "*" and path:sub(1, #focus - 1) == focus:sub(1, -2)) then
      lines[k] = (lines[k] or 0) + 1
    end
  end
end
local clock, t_last, spent = os.clock, os.clock(), {}
local function switch(to)             -- the CPU time since the last switch goes to `path`
  local now = clock()
  spent[path] = (spent[path] or 0) + (now - t_last)
  t_last = now
  path = to
end
local function wrap(name, f)
  return function(...)
    local was = path
    switch(path .. ">" .. name)
    stack[#stack + 1] = was
    calls[path] = (calls[path] or 0) + 1
    local r = table.pack(f(...))
    switch(table.remove(stack))
    return table.unpack(r, 1, r.n)
  end
end
-- the upvalue `name` of f, replaced by its wrapped self (every closure
-- sharing that local sees the wrapper)
local function wrap_up(f, name, label)
  for i = 1, 255 do
    local n, v = debug.getupvalue(f, i)
    if not n then break end
    if n == name then debug.setupvalue(f, i, wrap(label or name, v)); return end
  end
  error("no upvalue " .. name)
end

local csb = core.sandbox
local thread = csb.thread
csb.thread = function(...)
  local co = thread(...)
  debug.sethook(co, hook, "", 97)
  return co
end
csb.call = wrap("call", csb.call)
local copy_at = fork.copy                 -- (the function that copies, M.copy's or its helper's)
for i = 1, 255 do
  local n, v = debug.getupvalue(fork.copy, i)
  if not n then break end
  if n == "copy_at" then copy_at = v end
end
wrap_up(copy_at, "fill", "state")          -- (the state copied into the restart's new g)
wrap_up(copy_at, "copy_by", "state")
wrap_up(copy_at, "restore", "restart")
wrap_up(copy_at, "raw_step", "replay")
wrap_up(fork.base, "secret_piles", "secret_piles")
wrap_up(fork.base, "plain_secrets", "plain_secrets")
wrap_up(fork.sample, "redeal", "redeal")
fork.base = wrap("base", fork.base)
fork.copy = wrap("copy", fork.copy)
if copy_at ~= fork.copy then wrap_up(fork.sample, "copy_at", "copy") end
fork.sample = wrap("sample", fork.sample)
fork.step = wrap("step", fork.step)
local Game = gamemod.Game
Game.options = wrap("options", Game.options)
local probe = assert(bots.new(spec, 1, 1))
local decide = probe.decide
wrap_up(decide, "estimates", "estimates")
wrap_up(decide, "next_decider", "next_decider")

debug.sethook(hook, "", 97)
local decisions, steps = 0, 0
for seed = 1, games do
  local g = kontor.new_game { rules = rules, players = players, seed = seed }
  local seats = {}
  for s = 1, players do
    seats[s] = assert(bots.new(spec, s, seed))
    seats[s].decide = wrap("decide", decide)
  end
  while not g:over() do
    local w = g:who()
    local s = type(w) == "table" and w[1] or w
    if s == "chance" then g:step(0, 1)
    else
      decisions = decisions + 1
      g:step(s, seats[s]:choose(seatmod.view(g, s)))
    end
    steps = steps + 1
  end
end
debug.sethook()
switch(path)
local keys, total, ttotal = {}, 0, 0
for k, n in pairs(tally) do keys[#keys + 1] = k; total = total + n end
for k, t in pairs(spent) do ttotal = ttotal + t; if not tally[k] then keys[#keys + 1] = k end end
table.sort(keys, function(a, b) return (spent[a] or 0) > (spent[b] or 0) end)
print(("%s %dp, %s: %d games, %d steps, %d decisions; %d samples (%.0f a game), %.3f s of CPU"):format(rules,
  players, spec, games, steps, decisions, total, total / games, ttotal))
print(" samples    share   CPU share   calls a game  chain")
for i = 1, math.min(top, #keys) do
  local k = keys[i]
  print(("%8d %6.1f%% %8.1f%% %12.1f    %s"):format(tally[k] or 0, 100 * (tally[k] or 0) / total,
    100 * (spent[k] or 0) / ttotal, (calls[k] or 0) / games, k))
end
if focus then
  local ks = {}
  for k in pairs(lines) do ks[#ks + 1] = k end
  table.sort(ks, function(a, b) return lines[a] > lines[b] end)
  print("by line, " .. focus .. ":")
  for i = 1, math.min(top, #ks) do print(("%8d  %s"):format(lines[ks[i]], ks[i])) end
end
