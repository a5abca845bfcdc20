-- save.lua - libFuzzer driver: the save-file loader.
-- Input: the bytes of a save file. json.decode then the save checker run on
-- every input; a document that passes the checker is loaded for real
-- (kontor.load_game: rule set lookup and replay). Each must return a value
-- or nil and a message; raising is a finding.
local kontor = require "kontor"
kontor.set_home(KONTOR_HOME)
kontor.core.sandbox.limits { time = 0.1, work = 1000000 }
local json = kontor.json
local save = require "kontor.save"

local tmp = os.tmpname()

return function(data)
  local doc, err = json.decode(data)
  if doc == nil then
    assert(type(err) == "string", "json.decode: no message")
    return
  end
  local params, moves = save.check(doc, "fuzz.json")
  if not params then
    assert(type(moves) == "string", "save.check: no message")
    return
  end
  if #moves > 200 then return end
  local f = assert(io.open(tmp, "wb"))
  f:write(data)
  f:close()
  local g, lerr = kontor.load_game(tmp)
  assert(g or (kontor.errors.kind(lerr) and type(lerr.message) == "string"), "load_game: no message")
  if g then json.encode(g:state()) end
end
