-- actions.lua - libFuzzer driver: the action-text parser.
-- Input: lines of action text ("text" or "seat: text") applied in order to
-- a Sea Merchants game (or, when the first byte is '#', the test rule sets).
-- g:apply must return true or nil and a message; raising is a finding
-- (these rule sets have no failing scripts), and so is a game whose
-- invariants break.
local kontor = require "kontor"
kontor.set_home(KONTOR_HOME)
-- The rule sets here never loop: the time limit only bounds a hang. It is
-- CPU time, so a tight one (0.1 s) made a step fail now and then when a
-- garbage collection under ASan landed in it: an error here is a finding.
kontor.core.sandbox.limits { time = 5, work = 1000000 }

local specs = { "sea_merchants", KONTOR_HOME .. "/tests/rulesets/race.lua",
  KONTOR_HOME .. "/tests/rulesets/sealed_bid.lua", KONTOR_HOME .. "/tests/rulesets/take_one_each.lua" }
local rulesets = {}
for i, s in ipairs(specs) do rulesets[i] = kontor.load_rules(s) end

return function(data)
  local which = 1
  if data:byte(1) == 35 then  -- '#'
    which = 1 + (data:byte(2) or 0) % #rulesets
    data = data:sub(3)
  end
  local g = kontor.new_game { rules = rulesets[which], players = rulesets[which].players.min, seed = 7, quiet = true }
  local n = 0
  for line in data:gmatch("[^\n]*") do
    n = n + 1
    if n > 64 then break end
    local ok, err = g:apply(line)
    assert(ok == true or (ok == nil and type(err) == "string"), "apply gave an odd result")
    if g.invariants then
      local iok, ierr = g:invariants()
      if iok == false then error("invariants: " .. tostring(ierr)) end
    end
  end
  g:why("1")
  g:undo(2)
  g:redo(1)
end
