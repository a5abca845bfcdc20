-- kontor.balance.restrictions: a bot's restriction (avoid=, prefer=) that
-- no option of the setup matches, found before a run. A restriction is a
-- text matched against the options as they come, so a typo
-- (`greedy:avoid=exchnge`) would never match and change nothing: the lab
-- plays a few random games of the setup first, with every option offered
-- to any seat checked against every restriction, and says which matched
-- none, with the moves there were.
local bots = require "kontor.bots"
local balance = require "kontor.balance"
local worth = require "kontor.balance.worth"

local M = {}

local cased     -- (below)

-- How many random games are looked at, and from which seed: fixed, so the
-- same setup always gets the same answer.
M.GAMES, M.SEED = 20, 1

-- The restrictions of `players`, a list of { who = "--bot 2=greedy",
-- options = { avoid = ..., prefer = ... }, what = what the messages call
-- them (default "avoid" or "prefer"), shown = the item as typed, where
-- it was typed otherwise }: { who, key, item (as typed),
-- move = { parsed } }.
local function restrictions_of(players)
  local out = {}
  for _, p in ipairs(players) do
    for _, key in ipairs { "avoid", "prefer" } do
      local v = p.options and p.options[key]
      if type(v) == "string" and v ~= "" then
        for _, m in ipairs(bots.parse_moves(v)) do
          out[#out + 1] = { who = p.who, key = p.what or key,
                            item = p.shown or (m.name and (m.name .. ":" .. m.text) or m.text), move = { m } }
        end
      end
    end
  end
  return out
end

-- The bots of setup L (its --bot seats) as restrictions_of takes them.
-- A bot is named as the user typed it, up to its options (the warning
-- quotes the restriction): `--bot 2=random`, or `--bot random` for every
-- seat it sits on, said once; else by its seat.
function M.seats(L)
  local out, seen = {}, {}
  for seat = 1, L.players do
    local b = L.bots and L.bots[seat]
    if b and not seen[b] then
      if b.given then seen[b] = true end
      out[#out + 1] = { who = b.given and ("--bot " .. b.given:match("^[^:]*")) or string.format("--bot %d=%s", seat, b.kind),
                        options = b.options }
    end
  end
  return out
end

-- The edit distance of texts a and b: insertions, deletions, changes and
-- two letters swapped ("bdi" is one from "bid").
local function distance(a, b)
  local before, prev = nil, {}
  for j = 0, #b do prev[j] = j end
  for i = 1, #a do
    local cur = { [0] = i }
    for j = 1, #b do
      local d = math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a:byte(i) == b:byte(j) and 0 or 1))
      if before and i > 1 and j > 1 and a:byte(i) == b:byte(j - 1) and a:byte(i - 1) == b:byte(j) then
        d = math.min(d, before[j - 2] + 1)
      end
      cur[j] = d
    end
    before, prev = prev, cur
  end
  return prev[#b]
end

-- The word of `words` closest to `w` if it is close (a typo: one edit a
-- four letters, at least one), else nil.
local function closest(w, words)
  local best, bd = nil, math.max(1, #w // 4) + 1
  for _, x in ipairs(words) do
    local d = distance(w, x)
    if d < bd then best, bd = x, d end
  end
  return best
end

local function sorted_keys(set)
  local out = {}
  for k in pairs(set) do out[#out + 1] = k end
  table.sort(out)
  return out
end

-- The words of `text` up to its `k`th (a prefix a restriction may name).
local function first_words(text, k)
  local n, at = 0, 0
  while n < k do
    local e = text:find("[ ,]", at + 1)
    n = n + 1
    if not e then return text end
    at = e
  end
  return text:sub(1, at - 1)
end

-- What a restriction that matched nothing is told: a close text that was
-- offered (the beginning of an option, as many words as it has; never a
-- text that was not offered), and what there was. `texts`: decision name -> set of the options offered.
-- Sets r.near (the close text, or nil) and r.told(setups): the message,
-- for a restriction that matched nothing in each of `setups` setups (1:
-- "this setup").
local function message(r, decisions, firsts, texts)
  local m = r.move[1]
  local hint, near
  if m.name and not decisions[m.name] then
    near = closest(m.name, sorted_keys(decisions))
    hint = string.format("no decision is named '%s'%s", m.name, near and (" (did you mean '" .. near .. "'?)") or "")
  else
    local k = select(2, m.text:gsub("[ ,]+", "")) + 1
    local heads = {}
    for name, set in pairs(texts) do
      if not m.name or m.name == name then
        for t in pairs(set) do heads[first_words(t, k)] = true end
      end
    end
    near = closest(m.text, sorted_keys(heads))
    hint = near and string.format("did you mean '%s'?", (m.name and (m.name .. ":") or "") .. near)
      or "no option offered begins with those words"
  end
  local names, heads = table.concat(sorted_keys(decisions), ", "), table.concat(sorted_keys(firsts), ", ")
  r.near = near or nil
  r.told = function(setups)
    return string.format("%s: %s '%s' matches no option offered in %d random games of %s, so it "
      .. "changes nothing: %s (decisions: %s; options begin with: %s)", r.who, r.key, r.item, M.GAMES,
      (setups or 1) > 1 and string.format("each of the %d setups", setups) or "this setup", hint, names, heads)
  end
  return r.told(1)
end

-- The decisions R.constraints names (docs/designing-variants.md), read raw
-- as the engine reads them: { { index = i, name = d, where = "file:line" of
-- its check }, ... }. A name no decision of the game has (`bids` for
-- `bid`) would leave its check uncalled, and the constraint changing
-- nothing, silently.
function M.constraint_names(R)
  local list, out = type(R) == "table" and rawget(R, "constraints"), {}
  if type(list) ~= "table" then return out end
  for i = 1, rawlen(list) do
    local c = rawget(list, i)
    local ds = type(c) == "table" and rawget(c, "decisions")
    local check = type(c) == "table" and rawget(c, "check")
    if type(ds) == "table" then
      local info = type(check) == "function" and debug.getinfo(check, "S")
      local where = info and info.what ~= "C" and string.format("%s:%d", info.short_src, info.linedefined) or nil
      for j = 1, rawlen(ds) do
        local d = rawget(ds, j)
        if type(d) == "string" then out[#out + 1] = { index = i, name = d, where = where } end
      end
    end
  end
  return out
end

-- The constraints' decisions of `cons` (M.constraint_names) that no step
-- of the games asked (`decisions`: the names asked), as entries like a
-- restriction's that matched nothing: { who, key, item, near, told }.
local function unasked(cons, decisions)
  local out, names = {}, nil
  for _, c in ipairs(cons) do
    if not decisions[c.name] then
      names = names or sorted_keys(decisions)
      local near = closest(c.name, names)
      local r = { who = string.format("R.constraints[%d]", c.index), key = "decisions", item = c.name,
                  near = near, constraint = true }
      r.told = function(setups)
        return string.format("%sR.constraints[%d] names the decision '%s', which no step of %d random games of %s "
          .. "asked, so its check is never called and it changes nothing: %s (decisions: %s)",
          c.where and (c.where .. ": ") or "", c.index, c.name, M.GAMES,
          (setups or 1) > 1 and string.format("each of the %d setups", setups) or "this setup",
          near and string.format("did you mean '%s'?", near) or "no decision has a name close to it",
          table.concat(names, ", "))
      end
      r.message = r.told(1)
      out[#out + 1] = r
    end
  end
  return out
end

-- The restrictions that match options of one decision that differ only in
-- case ("Buy x" and "buy x"): a restriction is matched against one option
-- at a time, as spelt or in another case (kontor.bots), so it takes each
-- of them; said as a restriction that matched nothing is, in the same
-- places: { who, key, item, told, message }. `texts`: decision name -> set
-- of the options offered.
function cased(list, texts)
  local fold = require("kontor.game.parse").fold
  local out, names = {}, {}
  for _, name in ipairs(sorted_keys(texts)) do     -- the decisions that have such options
    local seen = {}
    for t in pairs(texts[name]) do
      local f = fold(t)
      if seen[f] then names[#names + 1] = name; break end
      seen[f] = true
    end
  end
  if #names == 0 then return out end
  for _, r in ipairs(list) do
    local said
    for _, name in ipairs(names) do
      local groups = {}
      for _, t in ipairs(sorted_keys(texts[name])) do
        if bots.match_moves(r.move, name, t) then
          local f = fold(t)
          groups[f] = groups[f] or {}
          table.insert(groups[f], t)
        end
      end
      for _, f in ipairs(sorted_keys(groups)) do
        local g = groups[f]
        if #g > 1 and not said then
          said = true
          local e = { who = r.who, key = r.key .. " (case)", item = r.item, cased = true }
          e.told = function(setups)
            return string.format("%s: %s '%s' matches '%s' and '%s' of decision %s, options that differ only in "
              .. "case, in %s: a restriction matches an option in either case, so it takes both (the moves "
              .. "typed are taken as spelt there)", r.who, r.key, r.item, g[1], g[2], name,
              (setups or 1) > 1 and string.format("each of the %d setups", setups) or "this setup")
          end
          e.message = e.told(1)
          out[#out + 1] = e
        end
      end
    end
  end
  return out
end

-- The restrictions of `players` (default: L's --bot seats, M.seats) that
-- matched no option offered in M.GAMES random games of setup L, each with
-- a `message` for people; and, second, every restriction looked at, with
-- `hit` set on those that matched (a comparison warns only of one that
-- matched in none of its setups). Nothing to check: empty lists, no games
-- played.
function M.unmatched(L, players)
  local list = restrictions_of(players or M.seats(L))
  local cons = M.constraint_names(L.R)
  if #list == 0 and #cons == 0 then return {}, list end
  local open, decisions, firsts, texts = #list, {}, {}, {}
  local specs = {}
  for s = 1, L.players do specs[s] = "random" end
  local function offered(_, name, opts)
    decisions[name] = true
    local set = texts[name] or {}
    texts[name] = set
    for k = 1, #opts do
      local text = opts[k]
      firsts[text:match("^%S+") or text] = true
      set[text] = true
      if open > 0 then
        for _, r in ipairs(list) do
          if not r.hit and bots.match_moves(r.move, name, text) then r.hit = true; open = open - 1 end
        end
      end
    end
  end
  for i = 1, M.GAMES do
    worth.walk_game("game " .. i, L, balance.game_seed(M.SEED, i), specs, offered)
  end
  local out = {}
  for _, r in ipairs(list) do
    if not r.hit then r.message = message(r, decisions, firsts, texts); out[#out + 1] = r end
  end
  for _, r in ipairs(cased(list, texts)) do
    list[#list + 1] = r
    out[#out + 1] = r
  end
  for _, r in ipairs(unasked(cons, decisions)) do   -- (said as a restriction is, in the same places)
    list[#list + 1] = r
    out[#out + 1] = r
  end
  return out, list
end

-- The same check where a bot is seated in a game (kontor play --bot, the
-- REPL's --bot and `bot N=KIND`, kontor serve's "bots" and "bot"): a typo
-- (`greedy:avoid=by contract`) would give a bot that ignores it, silently.
-- `game` is the game the bots sit at (its rule set with its variants, its
-- player count and options); `seated` a list of { who = what the message
-- calls the bot ("--bot 2=greedy", "bot 2=greedy"), spec = the bot as
-- given ("greedy:avoid=by contract") }. Returns the messages, one a
-- restriction that matches no option offered in M.GAMES random games of
-- that setup; none (and no game played) when no bot is restricted or the
-- games cannot be played (the game itself says why).
function M.for_game(game, seated)
  local players = {}
  for _, b in ipairs(seated) do
    local kind, opts = bots.parse(b.spec)
    if kind and (opts.avoid or opts.prefer) then players[#players + 1] = { who = b.who, options = opts } end
  end
  if #players == 0 and #M.constraint_names(game.R) == 0 then return {} end
  local L = { R = game.R, players = game.players, names = game.params.names, options = game.params.options }
  local ok, list = pcall(M.unmatched, L, players)
  if not ok then
    if require("kontor.errors").kind(list) == "interrupt" then error(list, 0) end
    return {}
  end
  local out = {}
  for i, r in ipairs(list) do out[i] = r.message end
  return out
end

return M
