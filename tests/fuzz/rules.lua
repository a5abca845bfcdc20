-- rules.lua - libFuzzer driver: rule-script loading.
-- Input: the source of a rule script, loaded the way a user's file is
-- (kontor.new_game{rules = path}); a rule set that loads is played a few
-- random steps. Errors are expected; crashes, sanitizer reports and
-- unprotected errors are findings.
local kontor = require "kontor"
kontor.set_home(KONTOR_HOME)
kontor.core.sandbox.limits { time = 0.01, replay_time = 0.05, work = 100000, memory = 96 << 20 }

local path = os.tmpname() .. ".lua"

return function(data)
  local f = assert(io.open(path, "wb"))
  f:write(data)
  f:close()
  local ok, g = pcall(kontor.new_game, { rules = path, seed = 1, quiet = true })
  if not ok then
    -- an error value (kontor.errors) with a kind and a message
    assert(kontor.errors.kind(g) and type(g.message) == "string", "new_game raised a " .. type(g))
    return
  end
  local bot = kontor.core.rng(1)
  for _ = 1, 20 do
    if g:over() then break end
    local opts = g:options()
    if type(opts) ~= "table" or #opts == 0 then break end
    local sok, serr = pcall(g.apply, g, bot:int(1, #opts))
    if not sok then
      -- the script's own error: its message; a limit it reached: an error
      -- value of kind "limit" (docs/api.md, "Errors")
      assert(type(serr) == "string" or (kontor.errors.kind(serr) == "limit" and type(serr.message) == "string"),
        "apply raised a " .. type(serr))
      break
    end
  end
  pcall(function() return kontor.json.encode(g:state()) end)
end
