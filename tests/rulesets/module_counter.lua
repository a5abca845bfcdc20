-- A rule set with the mistake tests/lua/module_state_spec.lua looks for: a
-- count kept in a module-level variable, not on g. After six points are
-- scored the "score 2" option goes: a replay (undo, a load, a bot's copy)
-- that starts from the count reached plays another game.
local R = {
  name = "module_counter", title = "Module counter",
  summary = "test rule set: game state kept outside g (a mistake)",
  players = { min = 2, max = 4, default = 2 },
}
local scored = 0          -- the mistake: a count kept outside g
local seen_by_view = 0    -- changed by R.view (a view that counts)
local cache               -- nil until first needed: a value made once
local SCRATCH = {}        -- a scratch list, refilled at every call

function R.setup(g) g.points = kontor.counter { n = g.players, min = 0 } end

local function options()
  if cache == nil then cache = "made once" end
  SCRATCH[1] = "score 1"
  if scored < 6 then return { SCRATCH[1], "score 2", "pass" } end
  return { SCRATCH[1], "pass" }
end

function R.play(g)
  while true do
    for _, p in ipairs(g:turn_order(1)) do
      g:begin_turn(p)
      local opts = options()
      local k = g:choose(p, "turn", opts)
      if opts[k] ~= "pass" then
        scored = scored + 1
        if g.points:add(p, k) >= 10 then return end
      end
    end
  end
end

function R.view(g, seat)
  seen_by_view = seen_by_view + 1
  return { points = g.points:get(seat) }
end

function R.scores(g) return g.points:values() end
return R
