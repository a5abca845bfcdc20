-- tests/protocol/replay.lua: the reference for tests/protocol/test_serve.py.
-- Plays a game in Lua from its parameters and its moves, each applied as a
-- whole move text, and prints what the protocol test compares, as JSON.
--   kontor run tests/protocol/replay.lua GAME.json
-- GAME.json: { "rules", "variants", "players", "seed", "moves": [{"seat", "text"}] }
local json = kontor.json
local f = assert(io.open(arg[1]))
local spec = assert(json.decode(f:read("a")))
f:close()
local variants = {}
for i, v in ipairs(spec.variants or {}) do variants[i] = { v.name, options = v.options } end
local g = kontor.new_game { rules = spec.rules, variants = variants, players = spec.players, seed = spec.seed }
for i, m in ipairs(spec.moves) do
  local ok, err = g:apply(m.text, m.seat)
  if not ok then error(string.format("move %d '%d: %s': %s", i, m.seat, m.text, err), 0) end
end
local moves = {}
for i, m in ipairs(g:move_list()) do moves[i] = { seat = m[1], text = m[2] } end
local r = g:over() and g:result() or nil
print(json.encode {
  over = g:over(),
  result = r and { scores = r.scores, winners = r.winners, turns = r.turns, why = require("kontor.describe").why_won(g) } or json.null,
  moves = moves,
  log = g:log(),
  view1 = g:view(1),
})
