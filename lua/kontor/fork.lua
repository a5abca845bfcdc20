-- kontor.fork: copies of a game at a decision, for search (docs/bots.md).
--
-- A game is its step record, so the plain copy is a replay from the start,
-- whose cost grows with the game. A rule set whose R.play picks up from its
-- state at g:begin_turn declares R.resumes_at_turn = true; then a copy is
-- the state saved when the current turn began (rule fields, turn, RNG),
-- restored as data, plus the steps taken since: a few steps' work however
-- long the game is. Other rule sets get the replay.
--
-- A sample is a copy seen from one seat: every card that seat cannot see
-- (hidden piles, the owner-only piles of other seats, the deck order) is
-- dealt again at random among those piles, each keeping its count, and the
-- RNG gets a new seed; other seats' secret choices still open are not in
-- it. What the seat sees is unchanged; what it does not see is drawn from
-- the bot's own RNG and the sorted list of unseen cards, so it does not
-- depend on where the unseen cards really are (tests/lua/bots_spec.lua).

local core = require "kontor.core"
local gamemod = require "kontor.game"
local errors = require "kontor.errors"

local csb = core.sandbox
local dgetmetatable = debug.getmetatable
local PILE_MT = dgetmetatable(core.pile {})
local COUNTER_MT = dgetmetatable(core.counter { n = 1 })
local RNG_MT = dgetmetatable(core.rng(1))
local pile_copy, counter_copy, pile_sorted = core.pile_copy, core.counter_copy, core.pile_sorted
local pile_values = core.pile_values
-- (lua/engine/fork.c)
local rng_same, rng_assign, fork_reach = core.rng_same, core.rng_assign, core.fork_reach
local fork_fields, fork_plan_like = core.fork_fields, core.fork_plan_like
local Ctx = gamemod.Ctx
local format = string.format
-- (the sandbox guards table.unpack for rule scripts: a C closure whose
-- first upvalue is Lua's own, which the engine's copies call directly,
-- outside any rule script, without the guard's protected call)
local unpack = table.unpack
do
  local _, raw = debug.getupvalue(unpack, 1)
  if type(raw) == "function" then unpack = raw end
end
-- The secret piles each game's rule script made, by the game's RNG
-- (lua/kontor/sandbox.lua registers them when they are made).
local SECRET = require("kontor.sandbox").secret_piles
local LOADED = require("kontor.sandbox").loaded_piles
local WEAK_KEYS = { __mode = "k" }
-- (`room`: how many piles it will hold, when the caller knows: made at
-- that size. `sized` is below.)
local sized
local function registry_of(game, room)
  local reg = SECRET[game.rng]
  if not reg then
    reg = setmetatable(room and sized(0, room)() or {}, WEAK_KEYS)
    SECRET[game.rng] = reg
  end
  return reg
end
local raw_step = gamemod.raw_step
local driver = require "kontor.game.driver"
local compile_constraints = require("kontor.game.context").compile_constraints

-- A game restarted from a saved state (game/init.lua's restore), with the
-- rule set's constraints compiled once per rule set, not once per copy
-- (the house preset's hand limit: 5% of a greedy game).
local CONS = setmetatable({}, { __mode = "k" })

-- A function that copies the names and the options of `params` as
-- game/context.lua's deep_copy does for every new `g` (every table new,
-- no metatable, keys as they are), each table made by one constructor at
-- its size, where deep_copy's grow as they fill (11% of a copy). Compiled
-- once per parameters, which never change; nil for parameters it does not
-- take (a table deeper than 8, a cycle): then deep_copy copies them.
local FRESH = setmetatable({}, { __mode = "k" })
local function fresh_params(params)
  local f = FRESH[params]
  if f ~= nil then return f or nil end
  local vals, nv, ok = {}, 0, true
  local function val(x) nv = nv + 1; vals[nv] = x; return "V[" .. nv .. "]" end
  local function expr(v, depth)
    if type(v) ~= "table" then return val(v) end
    if depth > 8 then ok = false; return "nil" end
    local n = 0
    while rawget(v, n + 1) ~= nil do n = n + 1 end
    local parts = {}
    for i = 1, n do parts[i] = expr(rawget(v, i), depth + 1) end
    for k, x in next, v do
      if not (math.type(k) == "integer" and k >= 1 and k <= n) then
        local tk = type(k)
        local key = (tk == "string" and format("[%q]", k))
          or (math.type(k) == "integer" and format("[%d]", k))
          or (tk == "boolean" and (k and "[true]" or "[false]"))
          or "[" .. val(k) .. "]"
        parts[#parts + 1] = key .. " = " .. expr(x, depth + 1)
      end
    end
    return "{ " .. table.concat(parts, ", ") .. " }"
  end
  local src = "local V = ...\nreturn function() return " .. expr(params.names, 1) .. ", "
    .. expr(params.options, 1) .. " end"
  f = ok and assert(load(src, "=(fork params)", "t", {}))(vals) or false
  FRESH[params] = f
  return f or nil
end

local function restore(R, params, ...)
  local c = CONS[R]
  if c == nil then c = compile_constraints(R) or false; CONS[R] = c end
  local game = gamemod.new_copy(R, params)
  game.cons, game.cons_of = c or false, R   -- (false, not nil: a missing field runs Game.__index)
  game.fresh_params = fresh_params(params)
  return driver.restore(game, R, ...)
end

local M = {}

-- Fields of the context that are the engine's, not the rule set's state.
-- (`_skipped`, g:skip's trace, grows all game long: a copy starts it
-- empty, as it starts its log; `_entering` is false between decisions.)
local ENGINE = { players = true, names = true, options = true, rng = true, turn = true,
                 active = true, logging = true, _log = true, _quiet = true, _orders = true,
                 _text = true, _manual_chance = true, _cons = true, _bot = true,
                 _skipped = true, _entering = true }

-- A deep copy of v: tables (metatables kept), piles, counters and RNGs are
-- new; shared references stay shared. memo maps originals to copies.
local function copy_value(v, memo)
  local tv = type(v)
  if tv == "table" then
    local c = memo[v]
    if c then return c end
    c = {}
    memo[v] = c
    for k, x in next, v do
      if type(k) == "table" then k = copy_value(k, memo) end
      local tx = type(x)
      if tx == "table" or tx == "userdata" then x = copy_value(x, memo) end
      c[k] = x
    end
    local mt = dgetmetatable(v)
    if mt then setmetatable(c, mt) end
    return c
  elseif tv == "userdata" then
    local c = memo[v]
    if c then return c end
    local mt = dgetmetatable(v)
    if mt == PILE_MT then
      c = pile_copy(v)
    elseif mt == COUNTER_MT then
      c = counter_copy(v)
    elseif mt == RNG_MT then
      c = v:clone()
    else
      return v
    end
    memo[v] = c
    return c
  end
  return v
end

-- A saved state is copied for every copy of a game made from it, so it is
-- read once into a plan: its objects in a list (the tables, piles,
-- counters and RNGs copy_value would copy, each once), each table's
-- entries split into plain ones and those that refer to another object by
-- its number. A copy then makes the objects and fills the tables from the
-- lists, with no type tests, no memo and no recursion: the same copy as
-- copy_value's. A saved state is never changed, so its plan is kept while
-- it lives.
local TABLE, PILE, COUNTER, RNG = 1, 2, 3, 4
local PLANS = setmetatable({}, { __mode = "k" })

-- A function that makes an empty table with room for na array entries
-- and nh others: a table constructor of that size (its nil fields are not
-- stored), compiled once per size. Filling a table made at its size
-- costs no rehash, where one grown from {} is rehashed at every power of 2.
local SIZED = {}
function sized(na, nh)
  local key = na * 65536 + nh
  local f = SIZED[key]
  if f then return f end
  if na > 64 or nh > 64 then
    f = function() return {} end
  else
    local parts = {}
    for _ = 1, na do parts[#parts + 1] = "nil" end
    for j = 1, nh do parts[#parts + 1] = "_" .. j .. "=nil" end
    f = assert(load("return function() return {" .. table.concat(parts, ",") .. "} end", "=sized", "t", {}))()
  end
  SIZED[key] = f
  return f
end

-- A plan is also compiled: a function that makes every object of the copy
-- with the plan's values, each table by one constructor of its entries (in
-- a fixed order: those it refers to first), which is what a copy costs
-- least as. The source depends only on the state's shape (which tables,
-- which keys, which entries refer to which objects), not on its values
-- (read from a list, plan.vals), so the states saved at each turn of a game
-- share one compiled function while their shape stays. A state too large
-- is copied by the lists alone (copy_planned).
local COMPILED, n_compiled = {}, 0
local LOCALS = 120                     -- (a function has 255 registers; a constructor needs some)
local GEN_ENV = {}
local function compile_plan(plan)
  local n, kinds, ents = plan.n, plan.kinds, plan.ents
  if n > 2000 then return end
  local vals, nv, mts = {}, 0, {}
  -- where each value is read from: table vi[j], key vk[j] (for a state
  -- of the same shape); a key read from the list makes the shape not
  -- reusable (a float key)
  local vi, vk, reusable = {}, {}, true
  local function val(x, i, k) nv = nv + 1; vals[nv], vi[nv], vk[nv] = x, i, k; return "V[" .. nv .. "]" end
  local function key(k)
    local tk = type(k)
    if tk == "string" then return format("[%q]", k) end
    if tk == "boolean" then return k and "[true]" or "[false]" end
    if math.type(k) == "integer" then return format("[%d]", k) end
    reusable = false
    return "[" .. val(k) .. "]"
  end
  -- the objects in locals (m1, m2, ...: registers, not a list's
  -- entries) while they fit in a function's registers, the list of them
  -- made at the end by one constructor; in a list m made first else
  local in_locals = n <= LOCALS
  local function ref(i) return in_locals and ("m" .. i) or ("m[" .. i .. "]") end
  local fills = false
  local out = { "local pc, cc, setmt, unpack = ...\nreturn function(V, O, MT, R1)\n" }
  local function emit(x) out[#out + 1] = x end
  if in_locals then
    local names = {}
    for i = 1, n do names[i] = "m" .. i end
    emit("local " .. table.concat(names, ", ") .. "\n")
  else
    emit(format("local m = { unpack(O, 1, %d) }\n", n))
  end
  for i = 1, n do
    local kind = kinds[i]
    if kind == PILE then emit(format("%s = pc(O[%d])\n", ref(i), i))
    elseif kind == COUNTER then emit(format("%s = cc(O[%d])\n", ref(i), i))
    elseif kind == RNG then emit(format("%s = O[%d]:clone()\n", ref(i), i)) end
  end
  -- the tables, each after those it refers to (but around a cycle)
  local post, seen = {}, {}
  local function visit(i)
    seen[i] = true
    local e = ents[i]
    for j = 1, #e.rv do
      local r = e.rv[j]
      if kinds[r] == TABLE and not seen[r] then visit(r) end
    end
    for j = 1, #e.xk do
      local r = e.xk[j]
      if kinds[r] == TABLE and not seen[r] then visit(r) end
      r = e.xv[j]
      if e.xf[j] and kinds[r] == TABLE and not seen[r] then visit(r) end
    end
    post[#post + 1] = i
  end
  visit(1)
  if #post ~= #plan.order then return end
  local made, later = {}, {}
  for t = 1, #post do
    local i = post[t]
    local e = ents[i]
    if e.plain then
      -- a list of plain values (no metatable): read from the saved table
      -- whatever its length, which then is no part of the shape
      emit(format("%s = #O[%d] == 0 and {} or { unpack(O[%d]) }\n", ref(i), i, i))
      made[i] = true
      goto next_table
    end
    do
    local arr, na, hash = {}, 0, {}
    local function put(k, expr)
      if math.type(k) == "integer" and k >= 1 then arr[k] = expr else hash[#hash + 1] = key(k) .. " = " .. expr end
    end
    -- (vslot[j]: the place of the plain entry j in the list of values,
    -- where plan_like puts a state's value of it as it checks it)
    local vslot = {}
    for j = 1, #e.pk do
      local x = val(e.pv[j], i, e.pk[j])
      vslot[j] = nv
      put(e.pk[j], x)
    end
    e.vslot = vslot
    for j = 1, #e.rk do
      local r = e.rv[j]
      if kinds[r] ~= TABLE or made[r] then
        put(e.rk[j], ref(r))
      else                             -- made later: its place kept, filled then
        put(e.rk[j], "false")
        later[#later + 1] = format("%s%s = %s\n", ref(i), key(e.rk[j]), ref(r))
      end
    end
    while arr[na + 1] do na = na + 1 end
    for k = na + 1, math.huge do       -- integer keys past the array part
      local x = arr[k]
      if x == nil then break end
      hash[#hash + 1] = format("[%d] = %s", k, x)
      arr[k] = nil
    end
    for k, x in next, arr do
      if k > na then hash[#hash + 1] = format("[%d] = %s", k, x) end
    end
    -- the root (the rule fields) is made as a table, or its entries are
    -- set in the table R1 when one is given: the new game's `g` (fill)
    local into = i == 1 and not e.mt
    if into then
      emit("if R1 then\nm1 = R1\n")
      for k = 1, na do emit(format("R1[%d] = %s\n", k, arr[k])) end
      for j = 1, #hash do emit("R1" .. hash[j] .. "\n") end
      emit("else\n")
    end
    emit(ref(i) .. " = { ")
    for k = 1, na do emit(arr[k]); emit(", ") end
    emit(table.concat(hash, ", "))
    emit(" }\n")
    if into then emit("end\n"); fills = true end
    for j = 1, #e.xk do
      local x = e.xv[j]
      reusable = false
      later[#later + 1] = format("%s[%s] = %s\n", ref(i), ref(e.xk[j]), e.xf[j] and ref(x) or val(x))
    end
    if e.mt then mts[i] = e.mt end
    made[i] = true
    end
    ::next_table::
  end
  for j = 1, #later do emit(later[j]) end
  for t = 1, #post do
    local i = post[t]
    if mts[i] then emit(format("setmt(%s, MT[%d])\n", ref(i), i)) end
  end
  if in_locals then
    local names = {}
    for i = 1, n do names[i] = "m" .. i end
    emit("return { " .. table.concat(names, ", ") .. " }\nend\n")
  else
    emit("return m\nend\n")
  end
  local src = table.concat(out)
  local f = COMPILED[src]
  if not f then
    if n_compiled >= 256 then COMPILED, n_compiled = {}, 0 end
    f = assert(load(src, "=(fork copy)", "t", GEN_ENV))(pile_copy, counter_copy, setmetatable, unpack)
    COMPILED[src], n_compiled = f, n_compiled + 1
  end
  plan.fn, plan.vals, plan.mts, plan.fills = f, vals, mts, fills
  if reusable then plan.vi, plan.vk = vi, vk end
end

-- The plan of `root` from the plan `tp` of a state of the same shape (the
-- same tables and keys, each entry a plain value or the same object as
-- there: the state saved at the next turn, mostly), or nil when the shape
-- differs. Its objects are found by tp's entries, its values read by
-- tp's list; the compiled function is tp's.
local function plan_like(tp, root)
  if type(root) ~= "table" then return nil end
  local n, kinds, order = tp.n, tp.kinds, tp.order
  -- the walk in C (lua/engine/fork.c): each table of tp's order, its
  -- metatable or none as there, its entries tp's keys, each plain value
  -- not an object (put in the list of values at its place, vslot), each
  -- reference the same object as the other references to it there, of
  -- its kind; a list of plain values (plain) of any length
  local nvals = tp.nvals
  if not nvals then nvals = #tp.vi; tp.nvals = nvals end
  local objs, index, mts, vals = fork_plan_like(root, order, tp.ents, kinds, tp.mts, n,
    PILE_MT, COUNTER_MT, RNG_MT, nvals)
  if not objs then return nil end
  local secret = {}
  for i = 1, n do
    if kinds[i] == PILE and objs[i]:vis() ~= "public" then secret[#secret + 1] = i end
  end
  return { n = n, objs = objs, kinds = kinds, order = order, index = index, secret = secret,
           fn = tp.fn, fills = tp.fills, vals = vals, mts = mts, template = tp }
end
-- The plan a new state is tried against first: the last one compiled.
-- A rule set whose states change shape from turn to turn (a list that
-- grows) would pay for a source and a compilation at every turn, more
-- than its copies gain: while the last shape has not been used again, a
-- new state is tried against it twice only, and a new plan is compiled
-- only one time in 16 (its copies are made by the lists).
local last_shape
local misses, n_new = 0, 0

-- A new plan of `root` (its walk), not kept: plan_of keeps it.
local function new_plan(root)
  local index, objs, kinds, order, ents = {}, {}, {}, {}, {}
  local n = 0
  local function num(v)
    local i = index[v]
    if i then return i end
    local tv, kind = type(v), nil
    if tv == "table" then
      kind = TABLE
    elseif tv == "userdata" then
      local mt = dgetmetatable(v)
      kind = (mt == PILE_MT and PILE) or (mt == COUNTER_MT and COUNTER) or (mt == RNG_MT and RNG) or nil
    end
    if not kind then return nil end
    n = n + 1
    i = n
    index[v], objs[i], kinds[i] = i, v, kind
    if kind == TABLE then
      -- plain key and value; plain key, an object's value; the rest
      local e = { pk = {}, pv = {}, rk = {}, rv = {}, xk = {}, xv = {}, xf = {}, mt = dgetmetatable(v) }
      order[#order + 1] = i
      for k, x in next, v do
        local ki = type(k) == "table" and num(k) or nil
        local xi = num(x)
        if ki then
          local j = #e.xk + 1
          e.xk[j], e.xv[j], e.xf[j] = ki, xi or x, xi ~= nil
        elseif xi then
          local j = #e.rk + 1
          e.rk[j], e.rv[j] = k, xi
        else
          local j = #e.pk + 1
          e.pk[j], e.pv[j] = k, x
        end
      end
      ents[i] = e
    end
    return i
  end
  num(root)
  -- each table made at its size (no rehash as it is filled): its keys 1..na
  -- in the array part, the others in the hash part
  for t = 1, #order do
    local i = order[t]
    local e, v = ents[i], objs[i]
    local na, all = 0, 0
    while rawget(v, na + 1) ~= nil do na = na + 1 end
    for _ in next, v do all = all + 1 end
    e.new = sized(na, all - na)
    -- a list of plain values, 1..na and nothing else, with no metatable,
    -- empty or of 8 values or more: a list that grows (Caribbean's)
    -- changes no shape (short ones are copied faster by a constructor of
    -- their entries)
    e.plain = na == all and (na == 0 or na >= 8) and #e.rk == 0 and #e.xk == 0 and e.mt == nil
  end
  local secret = {}                    -- the hidden and owner-only piles
  for i = 1, n do
    if kinds[i] == PILE and objs[i]:vis() ~= "public" then secret[#secret + 1] = i end
  end
  local plan = { n = n, objs = objs, kinds = kinds, order = order, ents = ents, index = index, secret = secret }
  n_new = n_new + 1
  if last_shape == nil or last_shape.reused or n_new % 16 == 0 then
    compile_plan(plan)
    if plan.vi then last_shape, misses = plan, 0 end
  end
  return plan
end

local function plan_of(root)
  local plan = PLANS[root]
  if plan then return plan end
  if last_shape and (last_shape.reused or misses < 2) then
    plan = plan_like(last_shape, root)
    if plan then
      last_shape.reused, misses = true, 0
      PLANS[root] = plan
      return plan
    end
    misses = misses + 1
  end
  plan = new_plan(root)
  PLANS[root] = plan
  return plan
end


-- A copy of the saved state `root` by its plan. Returns the copy of root
-- and the list of the copies (by the originals' numbers, plan.index).
local function copy_by(plan)
  if plan.fn then
    local made = plan.fn(plan.vals, plan.objs, plan.mts)
    return made[1], made, plan
  end
  local objs, kinds, order, ents = plan.objs, plan.kinds, plan.order, plan.ents
  -- made at its size (each entry is replaced below)
  local made = plan.n <= 4096 and { unpack(objs, 1, plan.n) } or {}
  for i = 1, plan.n do
    local kind = kinds[i]
    if kind == TABLE then made[i] = ents[i].new()
    elseif kind == PILE then made[i] = pile_copy(objs[i])
    elseif kind == COUNTER then made[i] = counter_copy(objs[i])
    else made[i] = objs[i]:clone() end
  end
  for t = 1, #order do
    local i = order[t]
    local c, e = made[i], ents[i]
    local pk, pv, rk, rv = e.pk, e.pv, e.rk, e.rv
    for j = 1, #pk do c[pk[j]] = pv[j] end
    for j = 1, #rk do c[rk[j]] = made[rv[j]] end
    local xk = e.xk
    if #xk > 0 then
      local xv, xf = e.xv, e.xf
      for j = 1, #xk do
        local x = xv[j]
        if xf[j] then x = made[x] end
        c[made[xk[j]]] = x
      end
    end
    if e.mt then setmetatable(c, e.mt) end
  end
  return made[1], made, plan
end

local function copy_planned(root)
  return copy_by(plan_of(root))
end

-- A deep copy of a live state `root` (copy_value's copy) to be saved:
-- when it has the shape of the last compiled plan, made by that plan's
-- function, with the copy's own plan made from the objects it returns (no
-- walk of the copy).
local function snapshot(root)
  local tp = last_shape
  if tp and (tp.reused or misses < 2) then
    local live = plan_like(tp, root)
    if live then
      local n = live.n
      local made = live.fn(live.vals, live.objs, live.mts)
      local index = sized(0, n)()
      for i = 1, n do index[made[i]] = i end
      PLANS[made[1]] = { n = n, objs = made, kinds = live.kinds, order = live.order, index = index,
                         secret = live.secret, fn = live.fn, fills = live.fills, vals = live.vals, mts = live.mts, template = tp }
      tp.reused, misses = true, 0
      return made[1]
    end
    misses = misses + 1
  end
  -- another shape: copied as it is, planned when a copy is made from it
  -- (many saved states never are: Old World's)
  return copy_value(root, {})
end

-- The rule set's fields of a context (its state), not copied: those
-- whose key is not ENGINE's and whose value is not the method Ctx[key],
-- in a new table with room for 32 (no rehash as it fills), read in C
-- (lua/engine/fork.c).
local function rule_fields(ctx)
  return fork_fields(ctx, ENGINE, Ctx)
end

-- Keys in a fixed order: booleans (false, true), numbers, strings; keys of
-- other types after them (a rule script cannot order those either).
local KEY_RANK = { boolean = 1, number = 2, string = 3 }
local function key_less(a, b)
  local ra, rb = KEY_RANK[type(a)], KEY_RANK[type(b)]
  if ra ~= rb then return ra < rb end
  if ra == 1 then return a == false and b == true end
  return a < b
end

-- (Keys all numbers or all strings sort by table.sort's own `<`, in C:
-- the same order as key_less, which compares them with `<` too.)
local function sorted_keys(t)
  local keys, n, other, kind, mixed = {}, 0, nil, nil, false
  for k in next, t do
    local tk = type(k)
    if KEY_RANK[tk] then
      n = n + 1
      keys[n] = k
      if kind == nil then kind = tk elseif tk ~= kind then mixed = true end
    else
      other = other or {}; other[#other + 1] = k
    end
  end
  if n > 1 then
    if mixed or kind == "boolean" then table.sort(keys, key_less) else table.sort(keys) end
  end
  if other then for i = 1, #other do keys[#keys + 1] = other[i] end end
  return keys
end

-- A pile as an error message names it: never its cards.
local function pile_name(p)
  local vis, n = p:vis(), p:count()
  return format("a pile { vis = %q%s } of %d card%s", vis, vis == "owner" and (", owner = " .. p:owner()) or "",
    n, n == 1 and "" or "s")
end

local function hidden_from(p, seat)
  local vis = p:vis()
  return vis == "hidden" or (vis == "owner" and p:owner() ~= seat)
end

-- Calls visit(pile) for every pile reachable from the values of `roots`
-- (tables through their keys, values and metatables, at any depth), each
-- once. `ordered`: in a fixed order (keys sorted, depth first), for the
-- deal; else in no fixed order, for the checks, which only need to know
-- which piles are reachable (no key sorted, nothing made); then
-- `strings`, if given, gets every text found as a value of a table the
-- walk reaches (a list: a text may come more than once).
local function reach(roots, visit, ordered, strings)
  local seen, ns = {}, strings and #strings or 0
  local function walk(v)
    local tv = type(v)
    if tv == "userdata" then
      if not seen[v] and dgetmetatable(v) == PILE_MT then
        seen[v] = true
        visit(v)
      end
    elseif tv == "table" and not seen[v] then
      seen[v] = true
      if ordered then
        -- (a table with no table or userdata in it visits nothing: its
        -- keys need no order)
        local deeper = false
        for k, x in next, v do
          local tk, tx = type(k), type(x)
          if tk == "table" or tk == "userdata" or tx == "table" or tx == "userdata" then deeper = true; break end
        end
        if deeper then
          local keys = sorted_keys(v)
          for i = 1, #keys do
            local k = keys[i]
            if not KEY_RANK[type(k)] then walk(k) end
            local x = rawget(v, k)
            local tx = type(x)
            if tx == "table" or tx == "userdata" then walk(x) end
          end
        end
      else
        for k, x in next, v do
          local tk, tx = type(k), type(x)
          if tk == "table" or tk == "userdata" then walk(k) end
          if tx == "table" or tx == "userdata" then walk(x)
          elseif strings and tx == "string" then ns = ns + 1; strings[ns] = x end
        end
      end
      local mt = dgetmetatable(v)
      if type(mt) == "table" then walk(mt) end
    end
  end
  for i = 1, #roots do walk(roots[i]) end
end

-- The piles of a plan's state in the order of reach's ordered walk, by
-- their numbers: the same for every state of its shape (the same keys,
-- sorted the same, the same references), so walked once per shape. False
-- when the walk may go where the plan does not (a metatable, a pile as a
-- key): those states are walked each.
local function pile_order(tp)
  local order = tp.pile_order
  if order ~= nil then return order end
  order = false
  if tp.fn and tp.vi and next(tp.mts) == nil then
    local index, list, ok = tp.index, {}, true
    reach({ tp.objs[1] }, function(p)
      local i = index[p]
      if i then list[#list + 1] = i else ok = false end
    end, true)
    order = ok and list
  end
  tp.pile_order = order
  return order
end

-- The piles of `fields` that `seat` cannot see, in a fixed order (sorted
-- keys, depth first), each once. A saved state is never changed, so its
-- list is kept (per seat) while the state lives.
local UNSEEN = setmetatable({}, { __mode = "k" })
local function unseen_piles(fields, seat)
  local by = UNSEEN[fields]
  if not by then
    -- one ordered walk for every seat: the piles not every seat sees
    local closed = {}
    local plan = plan_of(fields)
    local order = pile_order(plan.template or plan)
    if order then                      -- the walk of a state of the same shape
      local objs = plan.objs
      for i = 1, #order do
        local p = objs[order[i]]
        if p:vis() ~= "public" then closed[#closed + 1] = p end
      end
    else
      reach({ fields }, function(p) if p:vis() ~= "public" then closed[#closed + 1] = p end end, true)
    end
    by = { closed = closed }
    UNSEEN[fields] = by
  end
  local out = by[seat]
  if out then return out end
  out = {}
  local closed = by.closed
  for i = 1, #closed do
    local p = closed[i]
    if hidden_from(p, seat) then out[#out + 1] = p end
  end
  by[seat] = out
  return out
end

-- Whether a function on a coroutine's stack is the engine's own.
local function engine_frame(info)
  return info.what == "C" or info.short_src:match("kontor/[%w_/]+%.lua$") ~= nil
end

-- The locals of the rule script's frames on coroutine co, and the
-- upvalues of their functions (the rule script's state that is not in g).
local function stack_values(co, out)
  if type(co) ~= "thread" then return end
  local getinfo, getlocal, getupvalue = debug.getinfo, debug.getlocal, debug.getupvalue
  for level = 0, 250 do
    local info = getinfo(co, level, "Sf")
    if not info then break end
    if not engine_frame(info) then
      for i = 1, 250 do
        local name, v = getlocal(co, level, i)
        if not name then break end
        out[#out + 1] = v
      end
      for i = 1, 255 do
        local name, v = getupvalue(info.func, i)
        if not name then break end
        out[#out + 1] = v
      end
    end
  end
end

-- The cards of every pile `seat` may see, as one text (path: cards): with
-- g:view(seat), what two positions must share to look the same to it.
function M.seen_piles(game, seat)
  local out, seen = {}, {}
  local function walk(v, path, depth)
    local tv = type(v)
    if tv == "userdata" then
      if dgetmetatable(v) == PILE_MT and not seen[v] then
        seen[v] = true
        local vis = v:vis()
        if vis == "public" or (vis == "owner" and v:owner() == seat) then
          out[#out + 1] = path .. ": " .. table.concat(v:cards(), " ")
        else
          out[#out + 1] = path .. ": " .. v:count() .. " unseen"
        end
      end
    elseif tv == "table" and not seen[v] then
      seen[v] = true
      for _, k in ipairs(sorted_keys(v)) do walk(rawget(v, k), path .. "." .. tostring(k), depth + 1) end
    end
  end
  walk(rule_fields(game.ctx), "g", 0)
  return table.concat(out, "\n")
end

-- The piles `seat` cannot see that g's fields reach, in no fixed order
-- (kontor.seat: whether a move took a card out of one).
function M.unseen_of(game, seat)
  local out = {}
  reach({ rule_fields(game.ctx) }, function(p) if hidden_from(p, seat) then out[#out + 1] = p end end, false)
  return out
end

-- The index of the first step that is a secret choice of an open
-- simultaneous decision or a step of a secret order still open (past the
-- end when there is none).
local function secret_from(game)
  if game.kind == "orders" then return game.ostart + 1 end
  if game.kind ~= "all" then return #game.rec + 1 end
  local n = 0
  for _ in pairs(game.chosen) do n = n + 1 end
  return #game.rec - n + 1
end

-- R.resampled(g), if the rule set declares it: the hidden cards were dealt
-- again, so whatever it keeps alongside them must follow.
local function resampled(R, ctx)
  local f = R.resampled
  if not f then return end
  local ok, err = csb.call(f, ctx)
  if not ok then error(errors.context(err, R.name .. ": R.resampled"), 0) end
end

-- A game started from its origin: the parameters (a fresh start), or for a
-- copy the saved state it was restored from. hook and at_start as in
-- game.start_hooked.
local function restart(R, params, origin, hook, at_start)
  if origin then
    local snap = origin.snap
    local game = restore(R, params, copy_value(snap.fields, {}), snap.turn, snap.active,
      snap.rng, hook, origin.dealt and function(ctx) resampled(R, ctx) end)
    game.origin = origin
    return game
  end
  local game = gamemod.new_copy(R, params)
  gamemod.start_hooked(game, hook, at_start)
  return game
end

-- The piles of a game (or a copy) that `seat` cannot see, in a fixed
-- order: every pile reachable from g's fields and from the rule script's
-- frames (R.play's locals and its functions' upvalues, the order
-- entries'), at any depth and under any key. Fails closed
-- (docs/security.md, "Seat views"): a hidden pile the game's rule script
-- made (sandbox.secret_piles) that none of that reaches, or a reachable
-- hidden pile made as the script loaded (shared by every game), is an
-- error that names it.
local function secret_piles(game, seat, check_only)
  local R = game.R
  local out, reached = {}, {}
  local function visit(p)
    reached[p] = true
    if hidden_from(p, seat) then out[#out + 1] = p end
  end
  local function visit_seen(p)         -- (a pile fork_reach marked reached)
    if hidden_from(p, seat) then out[#out + 1] = p end
  end
  local reg = SECRET[game.rng] or {}
  local function missing()
    local m = {}
    for p, where in next, reg do
      if not reached[p] and hidden_from(p, seat) then m[#m + 1] = where .. " (" .. pile_name(p) .. ")" end
    end
    table.sort(m)
    return m
  end
  local fields, strings
  if check_only then
    -- the walk of g's rule fields in C (lua/engine/fork.c: the same walk,
    -- in the same order, with no table of the fields made), or in Lua
    -- for a state nested too deep for it
    strings = {}
    local seen, piles = fork_reach(game.ctx, ENGINE, Ctx, PILE_MT, strings)
    if seen then
      reached = seen
      for i = 1, #piles do visit_seen(piles[i]) end
    else
      strings = {}
      fields = rule_fields(game.ctx)
      reach({ fields }, visit, false, strings)
    end
  else
    fields = rule_fields(game.ctx)
    reach({ fields }, visit, true)
  end
  local in_fields = #out                -- those g's fields reach
  local m = missing()
  if #m > 0 then
    -- not all in g: the rule script's frames, then piles no longer used go
    local roots = {}
    stack_values(rawget(game, "co"), roots)
    if game.kind == "orders" then
      for _, s in ipairs(game.seats) do
        local e = game.entries[s]
        if e then stack_values(e.co, roots) end
      end
    end
    reach(roots, visit, not check_only, strings)
    m = missing()
    if #m > 0 then collectgarbage("collect"); m = missing() end
  end
  if #m > 0 and check_only then return secret_piles(game, seat) end   -- the message, as always
  if #m > 0 then
    error(format("%s: the hidden pile made at %s is kept where the engine cannot deal it again "
      .. "for a bot (not in g's fields or R.play's locals); keep hidden cards where g reaches them",
      R.name, m[1]), 0)
  end
  for i = 1, #out do
    local where = LOADED[out[i]]
    if where and check_only then return secret_piles(game, seat) end  -- the first in order
    if where then
      error(format("%s: the hidden pile made at %s (%s) was made as the rule script loaded: "
        .. "every game shares it, and a bot's imagined deal would change them all; make hidden "
        .. "piles in R.setup or R.play", R.name, where, pile_name(out[i])), 0)
    end
  end
  return out, in_fields, fields, strings
end
M.secret_piles = secret_piles

-- Fails closed on a hidden card kept outside a pile: a text in g's fields
-- (outside every pile) that is a card of a pile `seat` cannot see (its
-- name, R.card_text) and that the seat's view does not show. The
-- determiniser deals piles again, not plain values, so a bot would read
-- such a card where it lies; the error names the value and where it is.
-- (`hidden`, `n`: the piles hidden from the seat that g's fields reach,
-- when the caller has them: hidden[1..n]; `fields`: the rule fields of
-- g, when it has them too; `strings`: every text the check's walk of g
-- found (secret_piles), a list that holds at least those this walk would.)
local function plain_secrets(game, seat, hidden, n, fields, strings)
  local function the_fields()          -- (read from g only when needed)
    fields = fields or rule_fields(game.ctx)
    return fields
  end
  local unseen, any = nil, false
  local card_text = rawget(game.R, "card_text")
  -- the piles hidden from the seat, then their card values, each once (a
  -- deck repeats them), from the smallest up (core.pile_values, in C)
  local closed, nclosed = {}, 0
  local function visit(p)
    if hidden_from(p, seat) then nclosed = nclosed + 1; closed[nclosed] = p end
  end
  if hidden then
    for i = 1, n do visit(hidden[i]) end
  else
    -- g's piles by the walk in C (and its texts, a list that holds those
    -- the look below would find), or in Lua for a state nested too deep
    local texts = {}
    local seen, piles = fork_reach(game.ctx, ENGINE, Ctx, PILE_MT, texts)
    if seen then
      for i = 1, #piles do visit(piles[i]) end
      strings = strings or texts
    else
      reach({ the_fields() }, visit, false)
    end
  end
  local cards_seen = pile_values(closed)
  local nc = #cards_seen
  -- (no text in g's fields: no card's text can be kept there, and none
  -- is asked)
  if strings and #strings == 0 then return end
  if card_text and nc > 0 then
    -- their texts, in one armed call; should it fail, one call a card
    -- (a card whose text fails has none)
    -- (a second list of the values, made at its size: each is replaced
    -- by its text)
    local texts = nc <= 4096 and { unpack(cards_seen, 1, nc) } or pile_values(closed)
    -- (on the game itself, which they may not change: sandbox.inspect)
    local watch = not game.quiet and game.ctx
    local ok, err = csb.inspect("R.card_text", watch, function(ctx)
      for i = 1, nc do texts[i] = card_text(ctx, texts[i]) end
    end, game.ctx)
    if not ok then
      if errors.must_rise(err) then error(err, 0) end       -- Ctrl-C, a limit: not "no text"
      for i = 1, nc do
        local fine, x = csb.inspect("R.card_text", watch, card_text, game.ctx, cards_seen[i])
        if not fine and errors.must_rise(x) then error(x, 0) end
        texts[i] = fine and x or nil
      end
    end
    -- with the texts the walk found in g (strings), only whether one of
    -- them is an unseen card's text matters first: looked up in the set
    -- of those few, not a set of every card's text made
    any = true
    if strings then
      local want = {}
      for i = 1, #strings do want[strings[i]] = true end
      any = false
      for i = 1, nc do
        if want[texts[i]] then any = true; break end
      end
    end
    if any then
      unseen, any = {}, false
      for i = 1, nc do
        local x = texts[i]
        if type(x) == "string" then unseen[x] = true; any = true end
      end
    end
  end
  -- (a card with no text is none: a pile's cards are whole numbers,
  -- core/pile.c)
  if not any then return end
  local shown
  -- first whether any such text is kept and not shown (no paths made);
  -- only then the walk in order that names the first
  local found = false
  if strings then
    for i = 1, #strings do
      local v = strings[i]
      if unseen[v] then
        if shown == nil then shown = core.json.encode(game:view(seat)) end
        if not shown:find(format("%q", v), 1, true) then found = true; break end
      end
    end
  else
    local seen = {}
    local function look(v)
      local tv = type(v)
      if tv == "string" then
        if unseen[v] then
          if shown == nil then shown = core.json.encode(game:view(seat)) end
          if not shown:find(format("%q", v), 1, true) then found = true end
        end
      elseif tv == "table" and not seen[v] then
        seen[v] = true
        for _, x in next, v do
          if found then return end
          look(x)
        end
      end
    end
    for _, v in next, the_fields() do look(v) end
  end
  if not found then return end
  local seen = {}
  local function walk(v, path)
    local tv = type(v)
    if tv == "string" then
      if unseen[v] then
        if shown == nil then shown = core.json.encode(game:view(seat)) end
        if not shown:find(format("%q", v), 1, true) then
          -- (the card's text is not in the message: a seat's `hint` or
          -- bot shows it to that seat, which may not see it)
          error(format("%s: %s holds a card seat %d cannot see, kept outside a pile: the engine "
            .. "deals only hidden piles again for a bot, so keep hidden cards in piles "
            .. "(kontor.pile{ vis = \"hidden\" or \"owner\" })", game.R.name, path, seat), 0)
        end
      end
    elseif tv == "table" and not seen[v] then
      seen[v] = true
      local keys = sorted_keys(v)
      for i = 1, #keys do
        local k = keys[i]
        walk(rawget(v, k), path .. (type(k) == "string" and ("." .. k) or ("[" .. tostring(k) .. "]")))
      end
    end
  end
  local keys = sorted_keys(the_fields())
  for i = 1, #keys do walk(fields[keys[i]], "g." .. tostring(keys[i])) end
end

-- The base of the copies of `game` as `seat` may have them: the state saved
-- when the current turn began and the steps since (or, for a rule set that
-- does not resume at a turn, all the steps). One replay of the game.
-- The engine's replay of each game, kept while the game lives: a bot's
-- next decision replays only the steps taken since its last one.
local REPLAYS = setmetatable({}, { __mode = "k" })

function M.base(game, seat, every)
  local R = game.R
  local rec = game.rec
  local n = #rec
  local first_secret = secret_from(game)
  local origin = game.origin
  local rp = REPLAYS[game]
  local all_seat, all_idx, n0
  -- A step record only grows (undo and rollback make a new one): while no
  -- step is left out, the steps read at the last decision are still the
  -- first ones of the same record, and only those since are read.
  local read = rp and rp.rec == rec and rp.origin == origin and not rp.left_out and first_secret > n
    and rp.n_read <= n
  if read and rp.n_read > 0 then         -- (and the last one read is still there)
    local j = rp.n0 + rp.n_read
    read = rec:seat(rp.n_read) == rp.all_seat[j] and rec:option(rp.n_read) == rp.all_idx[j]
  end
  if read then
    all_seat, all_idx, n0 = rp.all_seat, rp.all_idx, rp.n0
    for i = rp.n_read + 1, n do all_seat[#all_seat + 1], all_idx[#all_idx + 1] = rec:seat(i), rec:option(i) end
  else
    -- all steps from the origin: the origin's own, then the game's
    all_seat, all_idx = {}, {}
    if origin then
      for i = 1, #origin.steps_seat do all_seat[i], all_idx[i] = origin.steps_seat[i], origin.steps_idx[i] end
    end
    n0 = #all_seat
    for i = 1, n do
      local s = rec:seat(i)
      if i < first_secret or s == seat then
        all_seat[#all_seat + 1], all_idx[#all_idx + 1] = s, rec:option(i)
      end
    end
  end
  -- the replay so far, if it is a prefix of these steps (undo, a secret
  -- choice left out or another origin start a new one)
  if read then                           -- luacheck: ignore 542
    -- it is: the steps it took are those read before
  elseif rp and rp.origin == origin and rp.done <= #all_seat then
    local ds, di = rp.seats, rp.idx
    for i = 1, rp.done do
      if ds[i] ~= all_seat[i] or di[i] ~= all_idx[i] then rp = nil; break end
    end
  else
    rp = nil
  end
  -- The state is saved only when the turn the game is in begins (the
  -- turns of the others' steps replayed before it are not needed): the
  -- replay's turns follow the game's. Should a turn begin that was not
  -- saved (the replay's count of turns and the game's differ), the replay
  -- is made again saving every turn.
  local want = every and 0 or (game.ctx and game.ctx.turn or 0)
  if not rp then
    rp = { origin = origin, done = 0, seats = {}, idx = {} }
    local hook, at_start
    if rawget(R, "resumes_at_turn") then
      local function save(ctx)
        rp.snap = { fields = snapshot(rule_fields(ctx)), turn = ctx.turn, active = ctx.active,
                    rng = ctx.rng:state() }
        rp.at, rp.saved = rp.done, ctx.turn
      end
      hook = function(ctx)
        rp.began = ctx.turn
        if ctx.turn + 1 >= rp.want then save(ctx) end
      end
      at_start = function(ctx) rp.began = ctx.turn; save(ctx) end
    end
    -- the state when R.setup is done is saved too: R.play runs from its
    -- start on it, as after any setup, so a decision before the first
    -- turn begins is copied from it as well
    rp.want = want
    rp.copy = restart(R, game.params, origin, hook, at_start)
  end
  rp.want = want
  local copy, ds, di = rp.copy, rp.seats, rp.idx
  for i = rp.done + 1, #all_seat do
    rp.done = i                        -- the hook sees the step being taken
    ds[i], di[i] = all_seat[i], all_idx[i]
    local ok, err = raw_step(copy, all_seat[i], all_idx[i])
    if not ok then REPLAYS[game] = nil; error(err, 0) end
  end
  if rp.began ~= rp.saved then         -- a turn began that was not saved
    REPLAYS[game] = nil
    return M.base(game, seat, true)
  end
  rp.rec, rp.n_read, rp.left_out, rp.all_seat, rp.all_idx, rp.n0 = rec, n, first_secret <= n, all_seat, all_idx, n0
  REPLAYS[game] = rp
  local base = { R = R, params = game.params, seat = seat }
  local from = 0
  if rp.snap then
    base.snap, from = rp.snap, rp.at
  elseif origin then
    base.snap, base.dealt = origin.snap, origin.dealt
  end
  if base.snap then base.unseen = unseen_piles(base.snap.fields, seat) end
  -- fail closed: the game's own secret piles all where a copy finds them,
  -- no hidden card kept outside a pile
  local hidden, nh, fields, strings = secret_piles(game, seat, true)
  if game.kind == "player" or game.kind == "chance" then
    -- no step left out of the replay: its state is the game's, so the
    -- hidden piles the check found are those of its fields
    plain_secrets(game, seat, hidden, nh, fields, strings)
  else
    plain_secrets(rp.copy, seat)
  end
  local ss, si = {}, {}
  for i = from + 1, #all_seat do ss[#ss + 1], si[#si + 1] = all_seat[i], all_idx[i] end
  base.steps_seat, base.steps_idx = ss, si
  base.n0 = n0
  return base
end

-- The copies of a saved state's secret piles (memo: original -> copy) are
-- the new game's own.
local function register_copies(game, memo)
  local reg
  for _, c in next, memo do
    if type(c) == "userdata" and dgetmetatable(c) == PILE_MT and c:vis() ~= "public" then
      reg = reg or registry_of(game)
      reg[c] = "the state saved when the turn began"
    end
  end
end

-- The restart's `before` of a copy whose plan fills `g` (copy_at):
-- makes the saved state's objects with the rule fields set in ctx (the
-- plan's compiled function, given ctx as its root), then R.resampled
-- for a copy of a dealt state. The plan and the rule set are those
-- copy_at gives it just before the restart, which calls it at once.
local NO_FIELDS = setmetatable({}, { __newindex = function() error("fork: NO_FIELDS is read only", 2) end })
local fill_plan, fill_R, fill_rng, fill_made
local function fill(ctx)
  local plan, R = fill_plan, fill_R
  fill_plan, fill_R = nil, nil
  rng_assign(ctx.rng, fill_rng)
  fill_made = plan.fn(plan.vals, plan.objs, plan.mts, ctx)
  if R then resampled(R, ctx) end
end

-- A copy of the game at the base's decision. `register`: the copies of
-- the saved state's secret piles are registered as the new game's own
-- before the turn's steps are replayed (M.sample registers them after,
-- having looked first for piles the steps made).
local function copy_at(base, register)
  local game, made, plan
  local snap = base.snap
  if snap then
    plan = plan_of(snap.fields)
    if plan.fills then
      -- the state's objects made, the rule fields set in the new `g`,
      -- by fill (below) as the restart begins: no table of the fields
      -- made and then copied into `g`
      -- (the turn's RNG state read once, as an RNG; fill sets it)
      local rng = snap.rng_obj
      if not rng then rng = core.rng(snap.rng); snap.rng_obj = rng end
      fill_plan, fill_R, fill_rng, fill_made = plan, base.dealt and base.R or nil, rng, nil
      game = restore(base.R, base.params, NO_FIELDS, snap.turn, snap.active, nil, false, fill)
      made, fill_made = fill_made, nil
    else
      local fields
      fields, made = copy_by(plan)
      game = restore(base.R, base.params, fields, snap.turn,
        snap.active, snap.rng, false, base.dealt and function(ctx) resampled(base.R, ctx) end)
    end
    game.origin = base
    local secret = plan.secret
    if register and #secret > 0 then
      -- the copies of the saved state's secret piles are the new game's own
      local reg = registry_of(game, #secret)
      for i = 1, #secret do reg[made[secret[i]]] = "the state saved when the turn began" end
    end
  else
    game = restart(base.R, base.params, nil, nil)
  end
  local ss, si = base.steps_seat, base.steps_idx
  for i = 1, #ss do
    local ok, err = raw_step(game, ss[i], si[i])
    if not ok then error(err, 0) end
  end
  if snap and #game.rec > 0 then
    -- the copy's own step record starts at its decision (an empty one,
    -- with no step replayed, does already)
    game.rec = core.steps(64)
  end
  return game, made, plan
end

-- A copy of the game at the base's decision (the true game: not for bots).
-- Returns the copy and, when it was made from a saved state, the copies
-- of that state's objects and their plan (plan.index: original -> number).
function M.copy(base)
  return copy_at(base, true)
end

-- A twin of the game at the base's decision for the fairness test: the
-- unseen cards of the turn's saved state swapped at random (`swaps` times,
-- with `rng`), the turn's steps replayed. Returns the twin, or nil when the
-- rule set cannot be copied from a saved state or no unseen card differs.
function M.twin(base, rng, swaps)
  if not base.snap then return nil end
  local memo = {}
  local fields = copy_value(base.snap.fields, memo)
  local piles = {}
  for i, p in ipairs(base.unseen) do piles[i] = memo[p] end
  local slots = {}
  for i, p in ipairs(piles) do for j = 1, p:count() do slots[#slots + 1] = { i, j } end end
  if #slots < 2 then return nil end
  local changed = false
  for _ = 1, swaps or 1 do
    local a, b = slots[rng:below(#slots) + 1], slots[rng:below(#slots) + 1]
    local pa, pb = piles[a[1]], piles[b[1]]
    local ca, cb = pa:get(a[2]), pb:get(b[2])
    if ca ~= cb then
      pa:set(a[2], cb); pb:set(b[2], ca)
      changed = true
    end
  end
  if not changed then return nil end
  local snap = base.snap
  local origin = { snap = { fields = fields, turn = snap.turn, active = snap.active, rng = snap.rng },
                   dealt = true, steps_seat = base.steps_seat, steps_idx = base.steps_idx }
  local tmemo = {}
  local twin = restore(base.R, base.params, copy_value(fields, tmemo), snap.turn, snap.active,
    snap.rng, nil, function(ctx) resampled(base.R, ctx) end)
  register_copies(twin, tmemo)
  for i = 1, #base.steps_seat do
    if not raw_step(twin, base.steps_seat[i], base.steps_idx[i]) then return nil end
  end
  -- the twin's own step record starts at its decision: its origin holds the rest
  twin.rec = core.steps(64)
  twin.origin = origin
  return twin
end

-- What a deal of `piles` needs, made once per base (every sample of a
-- base is the same game before its deal: the same piles in the same
-- order, holding the same cards): the unseen cards are dealt again pool
-- by pool (kontor.pile{ pool = name }; cards never move between piles of
-- different pools, so a bag of workers and a deck of cards stay what they
-- are; piles without a pool share one), pools in the order of their
-- names. Each pool: its piles' places in `piles` and their counts, and
-- its cards sorted (where they were tells nothing), in a pile of their
-- own (core.pile_sorted: gathered and sorted in C).
local function deal_plan(piles)
  local by, names = {}, {}
  for i = 1, #piles do
    local name = piles[i]:pool() or ""
    if not by[name] then by[name] = {}; names[#names + 1] = name end
    local list = by[name]
    list[#list + 1] = i
  end
  if #names > 1 then table.sort(names) end
  local pools = {}
  for t = 1, #names do
    local at = by[names[t]]
    local counts, n = {}, 0
    for k = 1, #at do
      local c = piles[at[k]]:count()
      counts[k] = c
      n = n + c
    end
    -- (gathered and sorted in C, lua/l_pile.c)
    pools[t] = { at = at, counts = counts, n = n, sorted = pile_sorted(piles, at) }
  end
  return { n = #piles, pools = pools }
end

-- Whether `piles` are those `plan` was made for (their number, each one's
-- count: the rest follows, as every sample of a base is the same game).
local function deal_fits(plan, piles)
  if #piles ~= plan.n then return false end
  local pools = plan.pools
  for t = 1, #pools do
    local at, counts = pools[t].at, pools[t].counts
    for k = 1, #at do
      if piles[at[k]]:count() ~= counts[k] then return false end
    end
  end
  return true
end

-- Deals the cards of `piles` again with `rng` by their deal plan, each
-- pile keeping its count: each pool's sorted cards shuffled in a pile
-- (core/rng.c's shuffle is the Fisher-Yates of rng:below, from the last
-- card down, as a loop here would be), then pile 1 of the pool gets the
-- shuffled cards 1..counts[1] in that order, and so on (move_to takes
-- from the top, so the deck is turned over first).
local function redeal(plan, piles, rng)
  local pools = plan.pools
  for t = 1, #pools do
    local pool = pools[t]
    local at, counts = pool.at, pool.counts
    local deck = pile_copy(pool.sorted)
    deck:shuffle(rng)
    local turned = core.pile {}
    deck:move_to(turned, pool.n)
    for k = 1, #at do
      local p = piles[at[k]]
      p:clear()
      turned:move_to(p, counts[k])
    end
  end
end

-- The deal of an earlier sample of the same base with the same RNG (its
-- piles as they were dealt), laid out again: every copy of a base is the
-- same game at the same decision, so the same RNG deals it the same cards
-- (greedy judges all the lines of a decision on one deal). False when the
-- piles' counts differ.
local function deal_again(piles, dealt, counts)
  if #piles ~= #dealt then return false end
  for i = 1, #piles do
    if piles[i]:count() ~= counts[i] then return false end
  end
  for i = 1, #piles do pile_copy(dealt[i], piles[i]) end
  return true
end

-- The parameters of a sample: a copy of the game's, without its seed
-- (which would deal the true cards again). Made once per game's
-- parameters (which never change), kept while they live.
local IMAGINED = setmetatable({}, WEAK_KEYS)
local function imagined_params(params)
  local function copy(v)
    if type(v) ~= "table" then return v end
    local t = {}
    for k, x in next, v do t[k] = copy(x) end
    return t
  end
  local p = copy(params)
  p.seed = 0
  return p
end

-- A copy of the game as base.seat may imagine it, drawn with `rng`.
function M.sample(base, rng)
  local game, made, plan = copy_at(base, false)
  local seat = base.seat
  local piles
  if made then
    -- the copies of the turn's unseen piles, unless the turn's steps made
    -- more (the piles registered so far are those the restart and the
    -- steps made): then the copies of the saved state's secret piles are
    -- registered as the new game's own and everything is looked for
    -- again. (Otherwise they are not: nothing reads a sample's registry.)
    local reg, more = SECRET[game.rng], false
    if reg then
      for p in next, reg do
        if hidden_from(p, seat) then more = true; break end
      end
    end
    if more then
      local secret = plan.secret
      for i = 1, #secret do reg[made[secret[i]]] = "the state saved when the turn began" end
      piles = secret_piles(game, seat)
    else
      -- (the unseen piles' numbers in the plan, once per base)
      local nums = base.unseen_nums
      if not nums or base.unseen_plan ~= plan then
        local unseen, index = base.unseen, plan.index
        nums = {}
        for i = 1, #unseen do nums[i] = index[unseen[i]] end
        base.unseen_nums, base.unseen_plan = nums, plan
      end
      local nu = #nums
      piles = sized(nu, 0)()
      for i = 1, nu do piles[i] = made[nums[i]] end
    end
  else
    piles = secret_piles(game, seat)
  end
  -- the last deal of this base is kept: the same RNG deals it again
  local last = base.last_deal
  if last and rng_same(last.from, rng) and deal_again(piles, last.dealt, last.counts) then
    rng_assign(rng, last.rng_after)
  else
    local from = rng:clone()
    local dp = base.deal_plan
    if not (dp and deal_fits(dp, piles)) then
      dp = deal_plan(piles)
      base.deal_plan = dp
    end
    redeal(dp, piles, rng)
    last = { from = from, dealt = {}, counts = {} }
    for i = 1, #piles do last.dealt[i], last.counts[i] = pile_copy(piles[i]), piles[i]:count() end
    last.game_rng = core.rng(rng:int(1, 0x3fffffffffffffff))
    last.rng_after = rng:clone()
    base.last_deal = last
  end
  resampled(base.R, game.ctx)
  rng_assign(game.ctx.rng, last.game_rng)
  -- nothing in the sample leads back to what the seat cannot see: not the
  -- base (the turn's saved state, the true deal), not the seed
  game.origin = nil
  local imagined = base.imagined or IMAGINED[base.params]
  if not imagined then
    imagined = imagined_params(base.params)
    IMAGINED[base.params] = imagined
  end
  base.imagined = imagined
  game.params = base.imagined
  return game
end

-- Who decides in a copy now, and that seat's options (option values):
-- seat 0 for chance; nil when the game is over. While several seats choose
-- at once (g:choose_all, g:choose_orders), `prefer` if it is one of them,
-- else the first of them.
function M.decider(game, prefer)
  local kind = game.kind
  if kind == "player" or kind == "chance" then return game.seat, game.opts end
  if kind == "all" then
    local seats, chosen, by_seat = game.seats, game.chosen, game.by_seat
    if prefer and by_seat[prefer] and not chosen[prefer] then return prefer, by_seat[prefer] end
    for i = 1, #seats do
      local s = seats[i]
      if not chosen[s] then return s, by_seat[s] end
    end
  elseif kind == "orders" then
    local seats, entries = game.seats, game.entries
    local e = prefer and entries[prefer]
    if e and not e.done then return prefer, e.opts end
    for i = 1, #seats do
      local s = seats[i]
      if not entries[s].done then return s, entries[s].opts end
    end
  end
  return nil
end

-- Takes option k for `seat` in a copy; raises on a rule-script error.
function M.step(game, seat, k)
  local ok, err = raw_step(game, seat, k)
  if not ok then error(err, 0) end
end

M.copy_value = copy_value
M.copy_planned = copy_planned   -- (for tests/lua/fastfork_spec.lua)
return M
