-- tests/protocol/capped_serve.lua: `kontor serve` on the requests in a
-- file, with the memory cap lowered to MIB MiB (the cap covers the whole
-- program, as in `kontor serve`), so that a test can send a line longer
-- than the cap without a line of hundreds of MiB:
--   kontor run tests/protocol/capped_serve.lua REQUESTS MIB
local core = require "kontor.core"
local kontor = require "kontor"
local path, mib = arg[1], math.tointeger(tonumber(arg[2]))
local input = assert(io.open(path, "rb"))
core.sandbox.limits { memory = mib << 20 }
os.exit(require("serve").run(kontor, input, io.stdout))
