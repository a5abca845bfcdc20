-- A variant that makes every decision slow (tests/lua/repl_spec.lua: Ctrl-C
-- during `auto 1000` must land somewhere inside the engine or the script).
return {
  variant = true, base = "sea_merchants", name = "slow",
  apply = function(R)
    R.constraints[#R.constraints + 1] = function()
      local x = 0
      for i = 1, 1000000 do x = x + i end   -- a few ms a check: auto 1000 takes seconds
      return nil
    end
  end,
}
