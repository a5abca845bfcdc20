-- What a rule set's R.estimate returns and costs (docs/bots.md, "Cheaper
-- again"): 3 games of seeds 1..3 played at random (kontor.rng(seed)),
-- and at every decision R.estimate of every seat called K times in one
-- armed call. Prints the number of calls and a digest of every value
-- (its math.type and %a: bit for bit), so that a cheaper estimate can be
-- shown to return the same numbers; under callgrind, K = 10 less K = 0
-- over the calls is one call's instructions:
--   build/kontor run tests/bench/estimates.lua RULES PLAYERS K [VARIANT]
local csb = kontor.core.sandbox
local rules, players, K, variant = arg[1], tonumber(arg[2]), tonumber(arg[3]), arg[4]
if not (rules and players and K) then
  io.stderr:write("usage: build/kontor run tests/bench/estimates.lua RULES PLAYERS K [VARIANT]\n")
  os.exit(2)
end
local parts, calls = {}, 0
for seed = 1, 3 do
  local g = kontor.new_game { rules = rules, players = players, seed = seed, variants = variant and { variant } or nil }
  local rng = kontor.rng(seed)
  local f = g.R.estimate
  while not g:over() do
    local ctx = g.ctx
    assert(csb.call(function()
      for s = 1, players do
        local v
        for _ = 1, K do v = f(ctx, s) end
        if K > 0 then parts[#parts + 1] = string.format("%s:%a", math.type(v), v) end
      end
    end))
    calls = calls + K * players
    local w = g:who()
    local s = type(w) == "table" and w[1] or w
    if s == "chance" then g:step(0, 1) else g:step(s, rng:below(#g:options(s)) + 1) end
  end
end
local digest, all = 0, table.concat(parts, ",")
for i = 1, #all do digest = (digest * 31 + all:byte(i)) % 4294967291 end
print("calls", calls, "values", #parts, "digest", digest)
