-- What Lua 5.4 (Debian's lua5.4) spends on the operations a plainly
-- written rule script is made of: run by tests/bench/unit_costs.sh under
-- callgrind, N and 2N times, so the difference divided by N is one
-- operation's instructions (docs/performance.md, "Where the instructions go").
--   lua5.4 tests/bench/unit_costs.lua OPERATION N
local op, n = arg[1], tonumber(arg[2])
local D = { cards_per_product = 10 }
local function product_of(card) return (card - 1) // D.cards_per_product + 1 end
local list = { 1, 2, 3, 4, 5, 6 }
local g = { ships = { { 1, 2 } } }
local sink -- luacheck: ignore (written, never read: the work measured)
local OPS = {
  ["loop step"] = function() for i = 1, n do sink = i end end,
  ["a short function called"] = function() for i = 1, n do sink = product_of(i) end end,
  ["an empty table made"] = function() for _ = 1, n do sink = {} end end,
  ["an option { \"load\", name, \"on ship\", k } made"] = function()
    for i = 1, n do sink = { "load", "fish", "on ship", i } end
  end,
  ["g.ships[1][2] read"] = function() for _ = 1, n do sink = g.ships[1][2] end end,
  ["6 entries read with ipairs"] = function() for _ = 1, n do for _, x in ipairs(list) do sink = x end end end,
  ["6 entries read with a numeric for"] = function() for _ = 1, n do for k = 1, #list do sink = list[k] end end end,
}
if op == "list" then
  local names = {}
  for name in pairs(OPS) do names[#names + 1] = name end
  table.sort(names)
  print(table.concat(names, "\n"))
else
  assert(OPS[op], "unknown operation")()
end
