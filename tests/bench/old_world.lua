-- Merchants of the Old World for make bench: the rule script itself
-- (variants/old_world.lua) under the stand-in of tests/bench/script.lua.
-- The same rule code runs in both, so kontor's cost minus this one is
-- what the engine costs (decisions, recording, the sandbox).
local here = (debug and debug.getinfo and debug.getinfo(1, "S").source:match("^@(.*/)")) or "tests/bench/"
return { old_world = dofile(here .. "script.lua").old_world }
