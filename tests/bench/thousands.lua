-- A whole number with its thousands separated by commas ("-1,234,567"),
-- rounded to the nearest: the bench's figures as docs/performance.md shows
-- them. Loaded by tests/bench/bench.lua and greedy.lua with dofile.
return function(x)
  local n = math.floor(x + 0.5)
  local s = ("%d"):format(n < 0 and -n or n)
  s = s:reverse():gsub("(%d%d%d)", "%1,"):reverse():gsub("^,", "")
  return (n < 0 and "-" or "") .. s
end
