-- kontor.bots: players the program plays for (`--bot 2=random`, `bot 2=random`).
--
-- A bot is { kind =, seat =, choose = function(self, game, seat) -> k }.
-- Each bot has its own kontor.rng, seeded from the game's seed and its seat,
-- so the same game with the same bots plays the same way.

local core = require "kontor.core"

local M = {}

M.KINDS = {
  random = "picks one of the legal options uniformly at random",
}

M.ORDER = { "random" }

function M.list()
  local parts = {}
  for _, k in ipairs(M.ORDER) do parts[#parts + 1] = k end
  return table.concat(parts, ", ")
end

local Random = {}
Random.__index = Random

function Random:choose(game, seat)
  local n = #game:options(seat)
  return self.rng:below(n) + 1
end

-- A bot of `kind` for `seat` in a game with `seed`; or nil, message.
function M.new(kind, seat, seed)
  if kind == "random" then
    local s = ((seed or 1) * 1000003 + seat * 7919) & 0x7fffffffffffffff
    return setmetatable({ kind = kind, seat = seat, rng = core.rng(s) }, Random)
  end
  return nil, string.format("unknown bot '%s' (bots: %s)", tostring(kind), M.list())
end

return M
