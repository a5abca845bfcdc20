-- kontor.bots: players the program plays for (`--bot 2=greedy`,
-- `bot 2=mcts:iterations=2000`, `hint`). docs/bots.md.
--
-- A bot is { kind =, seat =, options =, choose = function(self, view)
-- -> k }. choose is the engine's side: it takes a seat view
-- (kontor.seat.view(game, seat), lua/kontor/seat.lua), never the game, and
-- hands it to the bot's own decide(self, view), so a bot sees what its
-- seat sees and nothing else. Each bot has its own
-- kontor.rng, seeded from the game's seed, its seat and its kind, so the
-- same game with the same bots plays the same way.

local core = require "kontor.core"
local fork = require "kontor.fork"
local texts_of = require("kontor.game.driver").texts_of
local seatmod = require "kontor.seat"
local errors = require "kontor.errors"

local csb = core.sandbox
local format = string.format
local sqrt, log = math.sqrt, math.log
-- (the sandbox guards table.unpack for rule scripts: a C closure whose
-- first upvalue is Lua's own, which the bots call directly, outside any
-- rule script, without the guard's protected call)
local unpack = table.unpack
do
  local _, raw = debug.getupvalue(unpack, 1)
  if type(raw) == "function" then unpack = raw end
end

local M = {}

M.KINDS = {
  random = "picks one of the legal options uniformly at random",
  greedy = "one step ahead: the option after which the rule set's estimate (R.estimate) is best for it",
  mcts = "information-set Monte Carlo tree search over what its seat may see",
}

M.ORDER = { "random", "greedy", "mcts" }

-- The options each kind takes (`mcts:iterations=500,c=0.7`).
M.OPTIONS = {
  random = {},
  greedy = {
    samples = { default = 1, type = "integer", min = 1, max = 64,
                doc = "imagined deals of the unseen cards each option is judged on" },
    depth = { default = 8, type = "integer", min = 1, max = 50,
              doc = "own decisions a line of a move still open follows at most" },
    budget = { default = 12, type = "integer", min = 0, max = 100000,
               doc = "lines tried beyond one per option, for options whose move stays open" },
    focus = { default = 0, type = "number", min = 0, max = 1, quiet = true,
              doc = "the share of the lines beyond one per option that go to the best option so far "
                 .. "(the others go round the options in turn)" },
    lead = { default = 1, type = "integer", min = 0, max = 1, quiet = true,
             doc = "what a line is worth where it ends: 1, the seat's estimate less the best other seat's; "
                .. "0, the seat's own estimate alone (at the end, its score, and the win)" },
    rounds = { default = 1, type = "integer", min = 0, max = 1, quiet = true,
               doc = "1: a line ends where its seat's choice of a simultaneous decision (g:choose_all) "
                  .. "is in and the round revealed; 0: it goes on while the seat's estimate is unchanged" },
  },
  mcts = {
    iterations = { default = 1000, type = "integer", min = 1, max = 10000000,
                   doc = "search iterations per decision (counted, not timed)" },
    c = { default = 0.7, type = "number", min = 0, max = 100,
          doc = "exploration constant of the tree policy (UCB1)" },
    rollout = { default = 30, type = "integer", min = 0, max = 100000,
                doc = "random steps after the tree before the position is scored (R.score)" },
    margin = { default = 0, type = "number", min = 0, max = 1e9, quiet = true,
               doc = "0: where a rollout stops before the end, the seat with the best R.score "
                  .. "wins it; x > 0: each seat gets 1/(1+e^(-lead/x)), its lead over the best other" },
    center = { default = 0, type = "integer", min = 0, max = 1, quiet = true,
               doc = "1 (with margin x > 0): each seat's lead is taken less its lead at the decision, "
                  .. "so a seat far ahead or far behind still tells a better way from a worse" },
    best = { default = 0, type = "number", min = 0, max = 1, quiet = true,
             doc = "where the same seat decides again at once (a move of several steps), the share of "
                .. "a node's worth that is its best next option's worth (the rest: the mean of all it tried)" },
    estimate = { default = 0, type = "integer", min = 0, max = 1, quiet = true,
                 doc = "1: a rollout that stops before the end is judged by the rule set's "
                    .. "R.estimate (as greedy plays), 0: by R.score" },
    step_cost = { default = 0.001, type = "number", min = 0, max = 1,
                  doc = "what each step of an iteration costs, in wins: between equal outcomes "
                     .. "the shorter way is preferred, so a bot never stalls forever" },
  },
}

-- Restricted play (Jaffe et al. 2012), for every kind: moves the bot never
-- takes while another is legal, or always takes when legal.
local RESTRICT = {
  avoid = { default = "", type = "moves", quiet = true,
            doc = "moves never taken while another is legal: [DECISION:]TEXT;..." },
  prefer = { default = "", type = "moves", quiet = true,
             doc = "moves always taken when legal: [DECISION:]TEXT;..." },
}
for _, decl in pairs(M.OPTIONS) do
  for k, d in pairs(RESTRICT) do decl[k] = d end
end

function M.list()
  return table.concat(M.ORDER, ", ")
end

-- "unknown bot 'gredy' (bots: ...): did you mean 'greedy'?"
function M.unknown(name)
  local near = type(name) == "string" and require("kontor.rules").near(name, M.ORDER)
  return format("unknown bot '%s' (bots: %s)%s", tostring(name), M.list(),
    near and (": did you mean '" .. near .. "'?") or "")
end

---------------------------------------------------------------------------
-- What a bot is given: its seat's view of the game
---------------------------------------------------------------------------

-- The seat view (lua/kontor/seat.lua): its seat, the rule set's name,
-- the number of players, the decision's name, the seat's options (texts),
-- its view (g:view(seat)), the public record (g:actions(seat)), and
-- sample(rng): a copy of the game in which everything the seat cannot see
-- was drawn again with rng (lua/kontor/fork.lua). The game itself stays
-- out of reach.
M.seat_view = seatmod.view

-- A value a rule function returned, for a message: a number as it is,
-- anything else by its type, never by its own __tostring (which would run
-- outside the limits: docs/security.md, "Red team").
local function shown(v)
  if type(v) == "number" or v == nil then return tostring(v) end
  return "a " .. type(v)
end

-- What a winner gets at the end of a game, beyond its score: more than any
-- score, so that a line that wins is worth more than any that does not.
local WIN = 1000

-- The value of a position (a sampled copy) for `seat`: R.score(g, seat) if
-- the rule set declares one, else its R.scores; at the end, the result.
local function score_of(game, seat)
  local R = game.R
  local f = R.score
  local ok, v
  if game.kind == "over" then
    local res = game:result()
    v = res.scores[seat]
    for _, w in ipairs(res.winners) do if w == seat then v = v + WIN end end
    return v
  end
  if f then
    ok, v = csb.inspect("R.score", not game.quiet and game.ctx, f, game.ctx, seat)
  else
    ok, v = csb.inspect("R.scores", not game.quiet and game.ctx, function(ctx) return R.scores(ctx)[seat] end,
      game.ctx)
  end
  if not ok then error(errors.context(v, R.name .. ": R.score"), 0) end
  if type(v) ~= "number" or v ~= v then
    error(format("%s: R.score returned %s for seat %d, not a number", R.name, shown(v), seat), 0)
  end
  return v
end

---------------------------------------------------------------------------
-- random
---------------------------------------------------------------------------

local Random = {}

function Random:decide(view)
  if not self.restricted then return self.rng:below(#view.options()) + 1 end
  local allowed = self:allowed(view.decision, view.options())
  return allowed[self.rng:below(#allowed) + 1]
end

---------------------------------------------------------------------------
-- greedy: one ply on the rule set's estimate (R.estimate, docs/bots.md).
-- Each option is taken in a copy of the game as the seat may imagine it
-- and the position after it judged by the estimate: the seat's estimated
-- final score less the best other seat's. An option after which the
-- seat's move is still open (the "play" of "play fish on slots 1,4":
-- its own estimate unchanged, and it decides again in the same turn) is
-- walked on, on the same copy, to where the move changes something; then
-- `budget` more such lines go to the options whose move stayed open: a
-- share `focus` of them to the option whose best line is best so far, the
-- others to each in turn. The best line is the plan for the rest of the
-- move, taken without a new search while the game follows it. No
-- rollouts.
---------------------------------------------------------------------------

local Greedy = {}

-- The estimates of every seat in a copy, as one list: R.estimate(g, seat),
-- else R.score, else R.scores; at the end, the result (winners + 1000).
local EST = setmetatable({}, { __mode = "k" })   -- R -> its sandboxed estimator

local function estimator(R)
  local e = EST[R]
  if e then return e end
  local f = rawget(R, "estimate") and R.estimate or R.score
  local what = (f == nil and "R.scores") or (f == R.score and "R.score") or "R.estimate"
  local out, first, last, skip = {}, 1, 0, nil
  local run
  if f then
    run = function(ctx) for s = first, last do if s ~= skip then out[s] = f(ctx, s) end end end
  else
    run = function(ctx)
      local sc = R.scores(ctx)
      for s = first, last do if s ~= skip then out[s] = sc[s] end end
    end
  end
  -- every seat's estimate, or (only = seat) that seat's; `known` = seat
  -- `known_v`: that seat's, already asked for in this position. The list
  -- is the estimator's own, read at once and never kept (the next call
  -- writes it again; with `only`, the other seats' entries are old).
  e = function(game, only, known, known_v)
    first, last, skip = only or 1, only or game.players, known
    -- (a copy for search is quiet, and thrown away: only its piles,
    -- counters, RNG and log are watched there, not its tables, whose
    -- walk would cost more than the estimate: lua/engine/inspect.c)
    local ok, err = csb.inspect(what, not game.quiet and game.ctx, run, game.ctx)
    if not ok then error(errors.context(err, R.name .. ": " .. what), 0) end
    if known then out[known] = known_v end
    for s = first, last do
      local v = out[s]
      if type(v) ~= "number" or v ~= v then
        error(format("%s: %s returned %s for seat %d, not a number", R.name, what, shown(v), s), 0)
      end
    end
    return out
  end
  EST[R] = e
  return e
end

local function estimates(game, only, known, known_v)
  if game.kind == "over" then
    local res, out = game:result(), {}
    for s = 1, game.players do out[s] = res.scores[s] or 0 end
    for _, w in ipairs(res.winners) do out[w] = out[w] + WIN end
    return out
  end
  return estimator(game.R)(game, only, known, known_v)
end
M.estimates = function(g, only)
  local est, out = estimates(g, only), {}
  for s = only or 1, only or g.players do out[s] = est[s] end
  return out
end

-- The seat's estimate less the best other seat's (of seats 1..n).
local function lead(est, seat, n)
  local best
  for s = 1, n do
    if s ~= seat and (best == nil or est[s] > best) then best = est[s] end
  end
  return est[seat] - (best or 0)
end

-- Who decides next in a copy, and that seat's options. Its own choice in a
-- simultaneous decision counts once all are in: the others' choices still
-- open are taken as their first options.
local function next_decider(g, seat)
  local kind = g.kind
  if kind == "player" or kind == "chance" then return g.seat, g.opts end   -- (fork.decider's first case)
  local s, sopts = fork.decider(g, seat)
  while s and s ~= seat and g.kind == "all" and g.chosen[seat] do
    fork.step(g, s, 1)
    s, sopts = fork.decider(g, seat)
  end
  return s, sopts
end

-- Whether the game's decision now (its name, the seat's option texts) is
-- the one a plan step was made for: the same name and the same texts.
local function same_decision(name, texts, step_name, step_texts)
  if (name or "") ~= (step_name or "") or #texts ~= #step_texts then return false end
  for i = 1, #texts do
    if texts[i] ~= step_texts[i] then return false end
  end
  return true
end

function Greedy:decide(view)
  local opts = view.options()
  local allowed = self:allowed(view.decision, opts)
  if #allowed == 1 then self.last = { { opts[allowed[1]], value = 0 } }; return allowed[1] end
  local seat, o, rng = self.seat, self.options, self.rng
  -- the plan of an earlier search of this move, while the game follows it
  local plan = self.plan
  self.plan = nil
  if plan then
    local at, step = plan.at, plan[plan.at]
    if same_decision(view.decision, opts, step.dname, step.t) then
      local text = step.text
      for _, k in ipairs(allowed) do
        if opts[k] == text then
          plan.at = at + 1
          if plan.at <= #plan then self.plan = plan end
          self.last = { { text, value = plan.value } }
          return k
        end
      end
    end
  end
  local seeds = {}
  for i = 1, o.samples do seeds[i] = rng:int(1, 0x3fffffffffffffff) end
  local sample = view.sample            -- (the view's bound method, the same at every access)
  local v0, turn0                    -- the seat's estimate now, and the turn, from the first copy
  local top_all                      -- whether this decision is a simultaneous one (g:choose_all)
  -- What a line is worth where it ends (`own`: the seat's estimate
  -- there, when already asked): its lead over the best other seat, or
  -- with lead=0 its own estimate alone (at the end: its score, and the win).
  local by_lead = o.lead ~= 0
  local function worth(g, own)
    if by_lead then return lead(estimates(g, nil, own and seat, own), seat, g.players) end
    return own or estimates(g, seat)[seat]
  end
  -- The same line on deal i: its texts while they are offered; its worth
  -- where it ends.
  local function again(i, texts)
    local g = sample(core.rng(seeds[i]))
    for j = 1, #texts do
      local t = texts_of(g, seat)
      local x
      for y = 1, t and #t or 0 do if t[y] == texts[j] then x = y; break end end
      if not x then break end
      fork.step(g, seat, x)
      if next_decider(g, seat) ~= seat then break end
    end
    return worth(g)
  end
  -- A line: option k of the decision, then (while the move stays open:
  -- the seat's own estimate has not changed, and it decides again in the
  -- same turn) options drawn among those its lines have not taken yet.
  -- One copy of the game walks the whole line. Returns its value (its
  -- worth where it ends, averaged over the deals), texts, the positions
  -- along it, and whether it took an option not taken before.
  -- Every line starts from the same deal, so the position a line reaches
  -- is a function of its texts: what a position showed (the seat's
  -- options there, or the line's value where it ends) is kept in a tree
  -- by texts (`kids[text]` of the position before; the decision's own
  -- options in `top`), and a line makes its copy only when it reaches a
  -- position not seen yet (the deal, then the line's steps so far).
  local top = {}
  local function line(k)
    local text = opts[k]
    local texts, steps, new = { text }, {}, false
    local path, g, gs = { k }, nil, nil     -- option numbers taken; the copy, who decides in it
    if v0 == nil then
      g = sample(core.rng(seeds[1]))
      v0, turn0, top_all = estimates(g, seat)[seat], g.ctx.turn, o.rounds == 1 and g.kind == "all"
      fork.step(g, seat, k)
      gs = next_decider(g, seat)
    end
    local kids, after_all = top, top_all    -- after_all: the step just taken was a choose_all choice
    while true do
      local pos = kids[text]
      if not pos then
        if not g then
          g = sample(core.rng(seeds[1]))
          for j = 1, #path do
            fork.step(g, seat, path[j])
            gs = next_decider(g, seat)
          end
        end
        local own                                 -- the seat's estimate here, when asked
        -- a simultaneous round ends the line once it is revealed (next_decider
        -- took the others' choices): what the seat learns there is the same
        -- for each of its options, so none goes on into its next decisions
        local ends = after_all or gs ~= seat or g.ctx.turn ~= turn0 or #texts >= o.depth
        if not ends then
          own = estimates(g, seat)[seat]
          ends = math.abs(own - v0) > 1e-9
        end
        if ends then
          local v = worth(g, own)              -- chance and unseen cards: averaged
          for i = 2, #seeds do v = v + again(i, texts) end
          pos = { value = v / #seeds }
        else
          local t, dname = texts_of(g, seat), g.dname   -- (the copy's own list: only read)
          pos = { t = t, ks = self:allowed(dname, t), dname = dname, kids = {},
                  all = o.rounds == 1 and g.kind == "all" }
        end
        kids[text] = pos
      end
      if pos.value then return pos.value, texts, steps, new end
      local t, ks = pos.t, pos.ks
      -- the options whose text no line has taken here yet, in their order
      local fresh = pos.fresh
      if not fresh then
        local nk = #ks          -- (a copy of ks made at its size, not by the guarded table.move)
        if nk <= 4096 then fresh = { unpack(ks, 1, nk) }
        else fresh = {}; for j = 1, nk do fresh[j] = ks[j] end end
        pos.fresh = fresh
      end
      local nf = #fresh
      local pool = nf > 0 and fresh or ks
      new = new or nf > 0
      local x = pool[rng:below(#pool) + 1]
      text = t[x]
      if nf > 0 then                   -- every option of its text goes (texts may repeat)
        local n = 0
        for i = 1, nf do
          local f = fresh[i]
          if t[f] ~= text then n = n + 1; fresh[n] = f end
        end
        for i = n + 1, nf do fresh[i] = nil end
      end
      steps[#steps + 1] = pos
      texts[#texts + 1] = text
      path[#path + 1] = x
      kids, after_all = pos.kids, pos.all
      if g then
        fork.step(g, seat, x)
        gs = next_decider(g, seat)
      end
    end
  end
  -- every option once; then more lines for those whose move stayed open
  local best_of, open = {}, {}
  for _, k in ipairs(allowed) do
    local v, texts, steps = line(k)
    best_of[k] = { value = v, texts = texts, steps = steps }
    if #texts > 1 then open[#open + 1] = k end
  end
  local extra, i, credit = o.budget, 0, 0
  while extra > 0 and #open > 0 do
    credit = credit + o.focus
    if credit >= 1 - 1e-9 then               -- a share `focus` of them: the best option so far
      credit = credit - 1
      local bi = 1
      for j = 2, #open do
        if best_of[open[j]].value > best_of[open[bi]].value + 1e-9 then bi = j end
      end
      i = bi
    else
      i = i % #open + 1
    end
    local k = open[i]
    local v, texts, steps, new = line(k)
    if v > best_of[k].value then best_of[k] = { value = v, texts = texts, steps = steps } end
    extra = extra - 1
    if not new then table.remove(open, i); i = i - 1 end   -- its lines are all taken
  end
  local scored, best, bests = {}, nil, {}
  for _, k in ipairs(allowed) do
    local v = best_of[k].value
    scored[#scored + 1] = { opts[k], value = v }
    if best == nil or v > best + 1e-9 then best, bests = v, { k }
    elseif math.abs(v - best) <= 1e-9 then bests[#bests + 1] = k end
  end
  table.sort(scored, function(x, y) return x.value > y.value end)
  self.last = scored
  local pick = bests[rng:below(#bests) + 1]
  -- the plan: the rest of the best line, each step with the decision it
  -- was made for (the game must show the same to follow it)
  local b = best_of[pick]
  if #b.texts > 1 then
    local rest = { at = 1, value = b.value }
    for j = 2, #b.texts do
      local pos = b.steps[j - 1]                -- the decision of that step, as the game names it
      rest[j - 1] = { text = b.texts[j], dname = pos.dname, t = pos.t }
    end
    self.plan = rest
  end
  return pick
end

---------------------------------------------------------------------------
-- mcts: single-observer information-set MCTS (Cowling, Powley and
-- Whitehouse 2012). Each iteration samples a deal of what the seat cannot
-- see, descends the one tree (nodes are decisions reached by option texts;
-- a child counts how often it was available), expands one option, plays
-- `rollout` random steps and scores the position: 1 for the best margin,
-- shared on a tie, else 0 (at the end: the winners).
---------------------------------------------------------------------------

local Mcts = {}

local function new_node(seat)
  return { seat = seat, visits = 0, avail = 0, total = 0, kids = {} }
end

-- Rewards per seat at the end of an iteration.
local function rewards(g, players, scale, by_estimate, base)
  local r = {}
  if g.kind == "over" then
    local res = g:result()
    for s = 1, players do r[s] = 0 end
    for _, w in ipairs(res.winners) do r[w] = 1 / #res.winners end
    return r
  end
  local vals, best, nbest, second = {}, nil, 0, nil
  local est = by_estimate and estimates(g)
  for s = 1, players do
    local v = est and est[s] or score_of(g, s)
    vals[s] = v
    if best == nil or v > best then best, nbest, second = v, 1, best
    elseif v == best then nbest = nbest + 1
    elseif second == nil or v > second then second = v end
  end
  if scale > 0 then
    for s = 1, players do      -- the lead over the best other seat
      local other = (vals[s] == best and nbest == 1) and second or best
      r[s] = 1 / (1 + math.exp(-(vals[s] - (other or 0) - (base and base[s] or 0)) / scale))
    end
    return r
  end
  for s = 1, players do r[s] = vals[s] == best and 1 / nbest or 0 end
  return r
end

local function texts(g, seat)
  return texts_of(g, seat)          -- (the copy's own list: only read)
end

function Mcts:decide(view)
  local opts = view.options()
  local n = #opts
  local ok_at_root
  if self.restricted then                  -- restricted play: the root's options only
    local allowed = self:allowed(view.decision, opts)
    if #allowed == 1 then self.last = { { opts[allowed[1]], visits = 0, value = 0 } }; return allowed[1] end
    ok_at_root = {}
    for _, k in ipairs(allowed) do ok_at_root[opts[k]] = true end
  end
  if n == 1 then self.last = { { opts[1], visits = 0, value = 0 } }; return 1 end
  local rng, o, players = self.rng, self.options, view.players
  local c = o.c
  local root = new_node(self.seat)
  local base                               -- center=1: each seat's lead now
  for it = 1, o.iterations do
    local g = view.sample(core.rng(rng:int(1, 0x3fffffffffffffff)))
    if it == 1 and o.center == 1 and o.margin > 0 then
      local est, vals = o.estimate == 1 and estimates(g), {}
      for s = 1, players do vals[s] = est and est[s] or score_of(g, s) end
      base = {}
      for s = 1, players do base[s] = lead(vals, s, players) end
    end
    local node, path, steps = root, {}, 0
    local chanced = false                      -- a chance step since the node
    while true do
      local s, sopts = fork.decider(g, self.seat)
      if s == nil then break end
      steps = steps + 1
      if s == 0 then                           -- chance: not part of the tree
        fork.step(g, 0, rng:below(#sopts) + 1)
        chanced = true
      else
        local t = texts(g, s)
        local kids, untried = node.kids, nil
        local bestk, bestv
        local only = node == root and s == self.seat and ok_at_root
        for k = 1, #t do
          local kid = kids[t[k]]
          if only and not only[t[k]] then              -- luacheck: ignore 542
            -- never taken: not in the tree
          elseif kid then
            kid.avail = kid.avail + 1
          else
            untried = untried or {}
            untried[#untried + 1] = k
          end
        end
        if untried then
          local k = untried[rng:below(#untried) + 1]
          local kid = new_node(s)
          kid.cont = s == node.seat and not chanced      -- the same seat's move goes on
          kids[t[k]] = kid
          fork.step(g, s, k)
          path[#path + 1] = kid
          break
        end
        for k = 1, #t do
          local kid = kids[t[k]]
          if kid and not (only and not only[t[k]]) then
            local v = (kid.q or kid.total / kid.visits) + c * sqrt(log(kid.avail) / kid.visits)
            if bestv == nil or v > bestv then bestv, bestk = v, k end
          end
        end
        node = kids[t[bestk]]
        path[#path + 1] = node
        fork.step(g, s, bestk)
        chanced = false
      end
    end
    for _ = 1, o.rollout do
      local s, sopts = fork.decider(g)
      if s == nil then break end
      steps = steps + 1
      fork.step(g, s, rng:below(#sopts) + 1)
    end
    -- Every step costs a little: a way that ends the game (or the turn)
    -- sooner beats an equal one that goes round in circles, such as
    -- revealing and repelling ships for ever in Merchants of the Caribbean
    -- when the outcome is settled either way.
    local r, cost = rewards(g, players, o.margin, o.estimate == 1, base), o.step_cost * steps
    for i = 1, #path do
      local nd = path[i]
      nd.visits = nd.visits + 1
      nd.total = nd.total + r[nd.seat] - cost
    end
    -- best > 0: a move of several steps is judged by its best line more
    -- than by the mean of the lines tried (random next steps of one's own
    -- move, such as loading a dye on a ship, would drag a good first step
    -- down): deepest first, a node whose seat decides again at once is
    -- worth `best` of its best such option's worth, the rest its mean.
    local w = o.best
    if w > 0 then
      for i = #path, 1, -1 do
        local nd, top = path[i], nil
        for _, kid in pairs(nd.kids) do
          if kid.cont and kid.visits > 0 then
            local v = kid.q or kid.total / kid.visits
            if top == nil or v > top then top = v end
          end
        end
        if top then nd.q = w * top + (1 - w) * nd.total / nd.visits end
      end
    end
  end
  local stats, bestk, bestn = {}, 1, -1
  for k = 1, n do
    local kid = (not ok_at_root or ok_at_root[opts[k]]) and root.kids[opts[k]]
    local visits = kid and kid.visits or 0
    stats[#stats + 1] = { opts[k], visits = visits, value = kid and visits > 0 and kid.total / visits or 0 }
    if visits > bestn then bestn, bestk = visits, k end
  end
  table.sort(stats, function(a, b) return a.visits > b.visits end)
  self.last = stats
  return bestk
end

---------------------------------------------------------------------------
-- Making bots
---------------------------------------------------------------------------

local CLASSES = { random = Random, greedy = Greedy, mcts = Mcts }
local SALT = { random = 0, greedy = 101, mcts = 202 }

local resolve                            -- the options of a kind, checked (below)

local Bot = {}
Bot.__index = function(t, k)
  local m = Bot[k]
  if m ~= nil then return m end
  return CLASSES[rawget(t, "kind")][k]
end

-- A rule set may tune its bots: R.bot_options = { mcts = { margin = 3 } }
-- sets the defaults of the options the bot's name leaves out. A bot made
-- before it sees a game takes them at its first decision; a front end that
-- seats it calls bot:tune(game.R), so that its name shows them at once.
function Bot:tune(R)
  local mine = R.bot_options and R.bot_options[self.kind]
  self.tuned = true
  if type(mine) ~= "table" then return end
  local given = {}
  for k, v in pairs(mine) do given[k] = v end
  for k, v in pairs(self.given) do given[k] = v end
  local opts, err = resolve(self.kind, given)
  if not opts then error(format("%s: R.bot_options: %s", R.name, err), 0) end
  self.options = opts
  self.house = resolve(self.kind, mine)     -- the rule set's defaults alone (Bot:spec)
  self:restrict()
end

-- The engine's side of a decision: the bot is given its seat's view
-- (kontor.seat.view(game, s)) and nothing else; it returns an option
-- number of that seat's options.
function Bot:choose(view)
  if not seatmod.is_view(view) then
    error(format("Bot:choose takes a seat view (kontor.seat.view(game, seat)), not a %s", type(view)), 2)
  end
  if not self.tuned then self:tune({ name = view.rules, bot_options = view.bot_options }) end
  return self:decide(view)
end

-- What the bot would play for its view's seat now and why: k, and its top
-- options as { {text, visits =, value =}, ... } (best first).
function Bot:explain(view)
  local k = self:choose(view)
  return k, self.last or {}
end

-- Whether the bot at `seat` agrees to take back the moves of `plan` (a
-- seat view's undo_plan), as a fair opponent would: yes, unless they
-- showed the mover a hidden card or luck (plan.unseen: a card of the
-- deck, a chance draw, a roll), which the mover would know once they are
-- taken back, or take back a secret choice of the bot's that the reveal
-- showed the mover (plan.revealed[seat]: Old World's bid, O34), which the
-- mover would choose against. `free`: the table lets bots agree to every
-- undo (kontor play --free-undo, serve's "free_undo"), for practice. No
-- plan (it could not be worked out): no.
function M.agrees(plan, free, seat)
  if free == true then return true end
  if type(plan) ~= "table" or plan.unseen then return false end
  return not (type(plan.revealed) == "table" and plan.revealed[seat])
end

-- `hint`: what a bot of `spec` (default mcts) would play for the seat of
-- `view` (a seat view) now and why, as lines of text; or nil, message.
-- The bot's seed is `seed` (the seat view's hint gives the game's) and
-- the number of steps the seat sees.
function M.hint(view, spec, seed)
  if not seatmod.is_view(view) then
    error(format("bots.hint takes a seat view (kontor.seat.view(game, seat)), not a %s", type(view)), 2)
  end
  if view.over() then return nil, "the game is over" end
  local s = view.seat
  local opts = view.options()
  if not opts then return nil, format("seat %d has no decision now", s) end
  local b, err = M.new(spec ~= nil and spec ~= "" and spec or "mcts", s, (seed or 1) + view.mark())
  if not b then return nil, err end
  local k, top = b:explain(view)
  -- the option the bot plays is listed first: on a tie (greedy draws among
  -- the options of the best value) it may be another than the one sorted
  -- first, and the hint would name one option and list another above it
  -- (the bot's own list is left as it is)
  local played = opts[k]
  for i = 2, #top do
    if top[i][1] == played then
      local listed = { top[i] }
      for j = 1, #top do if j ~= i then listed[#listed + 1] = top[j] end end
      top = listed
      break
    end
  end
  -- the bot as it was asked for ("mcts", "greedy:budget=0"): its settings
  -- in full are what `bots` and Bot:spec() give
  local lines = { format("The %s bot would play: %s", b.name, played) }
  for i = 1, math.min(5, #top) do
    local t = top[i]
    if t.visits then
      -- a node's worth is its share of wins less what its steps cost
      -- (step_cost): below 0 where it found none, which as a share of wins
      -- ("wins -1%") means nothing to a person
      lines[#lines + 1] = format("  %-32s %6d visits, wins %.0f%%", t[1], t.visits, 100 * math.max(0, t.value))
    elseif t.value >= WIN / 2 or t.value <= -WIN / 2 then
      -- the line ends the game: the value holds the winners' bonus (WIN),
      -- a number that means nothing to a person; say the outcome and the
      -- margin over the best other seat (greedy:lead=0 judges by its own
      -- score alone: that score)
      if b.options.lead == 0 then
        lines[#lines + 1] = format("  %-32s wins the game, scoring %.2f", t[1], t.value - WIN)
      else
        lines[#lines + 1] = format("  %-32s %s the game, by %.2f", t[1], t.value > 0 and "wins" or "loses",
          math.abs(t.value) - WIN)
      end
    else
      lines[#lines + 1] = format("  %-32s value %.2f", t[1], t.value)
    end
  end
  if #top > 5 then lines[#lines + 1] = format("  (%d options in all)", #top) end
  return lines, k
end

-- The bot's name with its options in force, as given on a command line
-- (docs/bots.md, "What a bot's text shows"): the options of its effort and
-- pace always; a quiet one, a switch that is off at its default (margin,
-- center, best, estimate, focus, a restriction), only where it is on: where
-- it differs from its kind's default or from the rule set's own
-- (R.bot_options), so that the text, given back, makes the same bot.
function Bot:spec()
  local decl = M.OPTIONS[self.kind]
  local keys = {}
  for key in pairs(decl) do keys[#keys + 1] = key end
  table.sort(keys)
  local kv, house = {}, self.house
  for _, key in ipairs(keys) do
    local v = self.options[key]
    local off = v == decl[key].default and (not house or house[key] == v)
    if not (decl[key].quiet and off) then kv[#kv + 1] = key .. "=" .. tostring(v) end
  end
  if #kv == 0 then return self.kind end
  return self.kind .. ":" .. table.concat(kv, ",")
end

-- How much a bot's text may hold: its whole text, and the moves of one
-- restriction (avoid=, prefer=). The bot checks each option it is offered
-- against each move, and a front end seating it plays M.GAMES random games
-- to check each (kontor.balance.restrictions); a rule set's R.bot_options
-- are read here too.
M.MAX_SPEC, M.MAX_MOVES = 4096, 64

-- `s` without the spaces around it, in one pass (the pattern
-- "^%s*(.-)%s*$" goes back over a run of spaces once a character: a
-- 20,000-space restriction took 4.5 s to read).
local function trim(s)
  if not s:find("%S") then return "" end
  return s:match("^%s*(.*%S)")
end

-- "mcts:iterations=500,c=0.7" -> "mcts", { iterations = "500", c = "0.7" };
-- or nil, message. A value runs to the next comma that starts another
-- k=, so a restriction may name an option with a comma in it
-- ("greedy:avoid=play fish on slots 1,4").
function M.parse(spec)
  if type(spec) ~= "string" then return nil, "a bot is named by a text such as 'mcts:iterations=500'" end
  if #spec > M.MAX_SPEC then
    return nil, format("a bot's text is at most %d bytes (this one has %d: '%s...')", M.MAX_SPEC, #spec,
      spec:sub(1, 30))
  end
  local kind, rest = spec:match("^%s*([%w_]+)(.*)$")
  rest = kind and trim(rest)
  if not kind then return nil, format("'%s': expected KIND[:k=v,...] (bots: %s)", spec, M.list()) end
  local opts = {}
  if rest ~= "" then
    local body = rest:match("^:(.*)$")
    if not body then return nil, format("'%s': expected KIND[:k=v,...] (bots: %s)", spec, M.list()) end
    local items, from = {}, 1
    while true do
      local at = body:find(",%s*[%w_]+%s*=", from)
      if not at then items[#items + 1] = body:sub(from); break end
      items[#items + 1] = body:sub(from, at - 1)
      from = at + 1
    end
    for _, item in ipairs(items) do
      local k, v = item:match("^%s*([%w_]+)%s*=(.*)$")
      v = v and trim(v)
      if not k or v == "" then
        return nil, format("'%s': expected k=v, got '%s'", spec, item)
      end
      if opts[k] and RESTRICT[k] then v = opts[k] .. ";" .. v end   -- repeated: both
      opts[k] = v
    end
  end
  return kind, opts
end

-- "buy_card:buy contract; play fish" -> { { name = "buy_card", text =
-- "buy contract" }, { text = "play fish" } }; or nil, message. Each keeps
-- its name and text with letters of either case alike (fname, ftext:
-- kontor.game.parse's fold), for matches.
local function parse_moves(v)
  local out = {}
  local fold = require("kontor.game.parse").fold
  for item in (v .. ";"):gmatch("([^;]*);") do
    item = trim(item)
    if item ~= "" then
      local name, text = item:match("^([%w_]+):%s*(.*)$")
      text = name and text or item
      out[#out + 1] = { name = name, text = text, fname = name and fold(name), ftext = fold(text) }
    end
  end
  return out
end

-- Whether option `text` of decision `name` is one of `moves`: the
-- decision's name is the one given (if one is), and the text given is the
-- option's text or its beginning up to a space or a comma; as spelt, or
-- with letters of either case alike, as an action is taken
-- (kontor.game.parse): `avoid=Buy Contract` is buy contract. (The
-- restriction is matched one option at a time: where a rule set has
-- options that differ only in case, it matches each of them that it names
-- in either case; the lab's check of a bot's restrictions says so.)
local fold_of, fold_cache, fold_n = nil, {}, 0
local function matches(moves, name, text)
  local fname, ftext
  fold_of = fold_of or require("kontor.game.parse").fold
  for i = 1, #moves do
    local m = moves[i]
    if m.name == nil or m.name == name then
      local t = m.text
      if t == "" or text == t then return true end
      if text:sub(1, #t) == t then
        local c = text:sub(#t + 1, #t + 1)
        if c == " " or c == "," then return true end
      end
    end
    -- as spelt, nothing: the same with letters of either case alike
    if not ftext then
      ftext = fold_cache[text]
      if not ftext then
        if fold_n >= 4096 then fold_cache, fold_n = {}, 0 end   -- (texts with numbers are many)
        ftext = fold_of(text)
        fold_cache[text], fold_n = ftext, fold_n + 1
      end
      fname = name and fold_of(name)
    end
    if m.name == nil or m.fname == fname then
      local t = m.ftext
      if ftext == t then return true end
      if ftext:sub(1, #t) == t then
        local c = ftext:sub(#t + 1, #t + 1)
        if c == " " or c == "," then return true end
      end
    end
  end
  return false
end
M.matches = function(spec, name, text) return matches(parse_moves(spec), name, text) end
M.parse_moves, M.match_moves = parse_moves, matches

-- The restrictions of its options (avoid=, prefer=), read.
function Bot:restrict()
  self.avoid, self.prefer = parse_moves(self.options.avoid), parse_moves(self.options.prefer)
  self.restricted = #self.avoid + #self.prefer > 0
end

-- The options (indices) the bot may take at decision `name` with options
-- `texts`: those it prefers, if any is legal, else all; less those it
-- avoids, unless that leaves none.
local ALL = {}                           -- n -> { 1, ..., n }, shared: read only
local ALL_MAX = 256                      -- (kept for n up to this: a rule set whose decisions offer
                                         -- 1, 2, ..., 2,000 options left 41 MB here for the process)
function Bot:allowed(name, opts)
  local n = #opts
  local all = ALL[n]
  if not all then
    all = {}
    for k = 1, n do all[k] = k end
    if n <= ALL_MAX then ALL[n] = all end
  end
  if not self.restricted then return all end
  local list = all
  if #self.prefer > 0 then
    local p = {}
    for k = 1, #opts do if matches(self.prefer, name, opts[k]) then p[#p + 1] = k end end
    if #p > 0 then list = p end
  end
  if #self.avoid > 0 then
    local a = {}
    for _, k in ipairs(list) do if not matches(self.avoid, name, opts[k]) then a[#a + 1] = k end end
    if #a > 0 then list = a end
  end
  return list
end

-- The options of `kind` from given values (texts or numbers), checked
-- against M.OPTIONS; or nil, message.
function resolve(kind, given)
  local decl = M.OPTIONS[kind]
  local out = {}
  for k, d in pairs(decl) do out[k] = d.default end
  local names = {}
  for k in pairs(given or {}) do names[#names + 1] = k end
  table.sort(names)
  for _, k in ipairs(names) do
    local d = decl[k]
    if not d then
      local known = {}
      for n in pairs(decl) do known[#known + 1] = n end
      table.sort(known)
      return nil, format("the %s bot has no option '%s' (options: %s)", kind, k,
        #known > 0 and table.concat(known, ", ") or "none")
    end
    local v = given[k]
    if d.type == "moves" then
      if type(v) ~= "string" then
        return nil, format("%s option %s: expected moves as text, [DECISION:]TEXT;...", kind, k)
      end
      local n = select(2, v:gsub(";", ";")) + 1
      if #v > M.MAX_SPEC or n > M.MAX_MOVES then
        return nil, format("%s option %s: at most %d moves of %d bytes in all (this one: %d moves, %d bytes)",
          kind, k, M.MAX_MOVES, M.MAX_SPEC, n, #v)
      end
      out[k] = v
    else
      local x = tonumber(v)
      if d.type == "integer" then x = x and math.tointeger(x) end
      if x == nil then
        return nil, format("%s option %s=%s: expected %s", kind, k, tostring(v),
          d.type == "integer" and "a whole number" or "a number")
      end
      if (d.min and x < d.min) or (d.max and x > d.max) then
        return nil, format("%s option %s=%s: expected %s..%s", kind, k, tostring(v),
          tostring(d.min), tostring(d.max))
      end
      out[k] = x
    end
  end
  return out
end

-- A bot of `kind` (a name, or "kind:k=v,...") for `seat` in a game with
-- `seed`, with `options` ({ k = v }, added to those in the name); or nil,
-- message.
function M.new(kind, seat, seed, options)
  -- (a game given where the seed goes: said, not an arithmetic error inside)
  if math.type(seat) ~= "integer" or seat < 1 then
    return nil, string.format("bots.new: the seat (argument 2) must be a seat number, not %s", shown(seat))
  end
  if seed ~= nil and math.type(seed) ~= "integer" then
    return nil, string.format("bots.new: the seed (argument 3) must be a whole number, not %s", shown(seed))
  end
  if options ~= nil and type(options) ~= "table" then
    return nil, string.format("bots.new: the options (argument 4) must be a table, not %s", shown(options))
  end
  local name, given = M.parse(kind)
  if not name then return nil, given end
  if not CLASSES[name] then
    return nil, M.unknown(name)
  end
  for k, v in pairs(options or {}) do given[k] = v end
  local opts, err = resolve(name, given)
  if not opts then return nil, err end
  local s = ((seed or 1) * 1000003 + seat * 7919 + SALT[name]) & 0x7fffffffffffffff
  -- (`name`: the text as given, without the spaces around it)
  local b = setmetatable({ kind = name, name = trim(kind), seat = seat, options = opts, given = given,
                          rng = core.rng(s) }, Bot)
  b:restrict()
  return b
end

return M
