-- Runs busted (Debian's lua-busted) inside the kontor binary, so specs test
-- the real engine, sandbox and bindings:
--   build/kontor run tests/busted.lua [busted options] SPEC...
-- The global `kontor` is the engine's API.
arg[0] = "busted"
require("busted.runner")({ standalone = false })
