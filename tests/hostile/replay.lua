-- replay.lua - plays one game with a seeded bot and prints its log, then
-- saves it, for the determinism test of tests/lua/hostile_spec.lua: two
-- fresh processes given the same arguments must print the same bytes and
-- write the same save file.
--   kontor run tests/hostile/replay.lua RULES VARIANT|- STEPS SAVE
local spec, variant, steps, path = arg[1], arg[2], tonumber(arg[3]), arg[4]
local g = kontor.new_game { rules = spec, variants = variant ~= "-" and { variant } or nil, seed = 3 }
local bot = kontor.core.rng(5)
local n = 0
while not g:over() and n < steps do
  local w = g:who()
  local seat = type(w) == "table" and w[bot:below(#w) + 1] or w
  local opts = g:options(seat)
  if #opts == 0 then break end
  assert(g:apply(bot:below(#opts) + 1, seat))
  n = n + 1
end
assert(g:save(path))
-- The reloaded game must be the same game in this process too.
local again = assert(kontor.load_game(path))
assert(kontor.json.encode(again:state()) == kontor.json.encode(g:state()), "reload differs")
io.write(table.concat(g:log(), "\n"), "\n", kontor.json.encode(g:state()), "\n")
