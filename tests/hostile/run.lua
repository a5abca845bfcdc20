-- run.lua - runs one attack of attack.lua (or any rule set and action) on a
-- fresh game and reports what happened, for tests/lua/hostile_spec.lua.
-- As a module: run(file, action) -> { ok =, err =, same = } . As a script
-- (`kontor run tests/hostile/run.lua FILE ACTION`, so that a case which
-- would hang or crash without its protection fails the test instead of
-- the test run) it prints the result as JSON.
local json = kontor.json
-- A loop ends by the time limit: a short one keeps the suite quick. W, if
-- set, is the work limit (units per step).
kontor.core.sandbox.limits { time = tonumber(os.getenv("T") or 0.5), work = tonumber(os.getenv("W") or nil) }

local function snapshot(g)
  return json.encode(g:state()) .. "\n" .. table.concat(g:log(), "\n") .. "\n"
    .. table.concat(g:actions(), "\n")
end

local function run(file, action)
  local g = kontor.new_game { rules = file, seed = 5 }
  assert(g:apply("safe"))
  local before = snapshot(g)
  local ok, err = pcall(g.apply, g, action)
  local out = { ok = ok, err = type(err) == "string" and (#err > 4000 and err:sub(1, 2000) .. err:sub(-2000) or err)
      or tostring(err),
    err_type = type(err), err_kind = kontor.errors.kind(err), err_limit = type(err) == "table" and err.limit or nil,
    same = snapshot(g) == before }
  -- The game goes on, and the host still works.
  assert(g:apply("safe"))
  out.after = #g:log()
  out.host = ("abc"):upper() .. string.rep("x", 2) .. json.encode({ 1 })
  return out
end

if arg and arg[1] and arg[0] and arg[0]:match("run%.lua$") then
  io.write(json.encode(run(arg[1], arg[2])), "\n")
  return
end
return run
