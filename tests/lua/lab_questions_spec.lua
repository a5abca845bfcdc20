-- The lab answers a designer's questions (docs/balance.md): what players
-- do (move kinds counted from the decisions, unless --no-moves), is it still a game
-- (lead changes, decisiveness, margin, branching), which value is right
-- (kontor sweep), the report's summary with Holm's correction (headless
-- Chromium), and sums whose memory does not grow with the games.

local support = require "tests.lua.support"
local stats = require "kontor.balance.stats"
local balance = require "kontor.balance"
local moves = require "kontor.balance.moves"
local measures = require "kontor.balance.measures"
local gamemod = require "kontor.game"
local json = kontor.core.json
local core = kontor.core

local q = support.sh_quote
local ROOT = assert(io.popen("pwd")):read("l")
local function abs(p) return p:sub(1, 1) == "/" and p or (ROOT .. "/" .. p) end
local PLAIN = abs(os.getenv("KONTOR_PLAIN") or support.binary())
local tmp, cleanup = support.scratch()

local function kontor_cmd(args, env)
  local errf = tmp("stderr.txt")
  local cmd = string.format("cd %s && %s %s %s 2>%s", q(ROOT), env or "", q(PLAIN), args, q(errf))
  local p = assert(io.popen(cmd))
  local out = p:read("a")
  local _, _, code = p:close()
  return out, support.read(errf), code
end

describe("move kinds", function()
  it("are the words up to the first number, less the counted thing and a joining word", function()
    assert.are.equal("buy contract", moves.kind_of("buy contract"))
    assert.are.equal("exchange", moves.kind_of("exchange ship 2 to fish"))
    assert.are.equal("play fish", moves.kind_of("play fish on slots 1,4"))
    assert.are.equal("load grain", moves.kind_of("load grain on ship 1"))
    assert.are.equal("dock exchange", moves.kind_of("dock exchange ship 3"))
    assert.are.equal("no dock exchange", moves.kind_of("no dock exchange"))
    assert.are.equal("draw", moves.kind_of("draw"))
    assert.are.equal("#", moves.kind_of("2"))
  end)

  it("are counted per seat in a stated game: Sea Merchants, 2 players, seed 3, game 3", function()
    local L = balance.load { rules = "sea_merchants", players = 2, moves = true }
    local v = balance.play_game(L, 3, 3)
    assert.are.equal(1, v["moves.buy_card: buy contract #1"])       -- seat 1 bought one contract
    assert.is_nil(v["moves.buy_card: buy contract #2"])              -- seat 2 none
    assert.are.equal(1, v["moves.buy_card: buy contract"])
    assert.are.equal(1, v["share.buy_card: buy contract"])
    assert.are.equal(2, v["moves.phase1: buy #1"])
    assert.are.equal(1, v["moves.phase1: buy #2"])
    assert.are.equal(47, v.turns)
    assert.are.equal(232, v.steps)
    -- every step counted once: the kinds' counts add up to the steps
    local total = 0
    for k, n in pairs(v) do if k:match("^moves%..* #%d$") then total = total + n end end
    assert.are.equal(232, total)
  end)

  it("match the texts of the step record, on the fast path and step by step", function()
    local L = balance.load { rules = "sea_merchants", players = 3, moves = true }
    for i = 1, 5 do
      local gseed = balance.game_seed(11, i)
      local params = { rules = L.R.name, players = L.players, names = L.names, seed = gseed, options = L.options }
      moves.arm(L.R)
      local g = gamemod.new(L.R, params, true)
      local counts, last, name = {}, 0, nil
      g:play_random(core.rng(core.derive_seed(gseed, 0)), function(game)
        local n = game:step_count()
        if n > last then
          local s, text = game:step_at(n)
          local key = name .. ": " .. moves.kind_of(text)
          counts[key] = counts[key] or {}
          counts[key][s] = (counts[key][s] or 0) + 1
          last = n
        end
        name = game.dname
      end)
      local fast = balance.play_game(L, 11, i)
      local n = 0
      for key, by_seat in pairs(counts) do
        for s, c in pairs(by_seat) do
          assert.are.equal(c, fast["moves." .. key .. " #" .. s], key .. " seat " .. s)
          n = n + c
        end
      end
      assert.are.equal(g:step_count(), n)
      assert.are.equal(g:step_count(), fast.steps)
    end
  end)

  it("count every step once, secret orders and simultaneous choices included", function()
    for _, r in ipairs { { "old_world", 3 }, { "tests/rulesets/secret_orders.lua" }, { "caribbean" },
                         { "sea_merchants", 2, { { "house" } } } } do
      local L = balance.load { rules = r[1], players = r[2], variants = r[3], moves = true }
      for i = 1, 3 do
        local v = balance.play_game(L, 1, i)
        local total = 0
        for k, n in pairs(v) do if k:match("^moves%..* #%d+$") then total = total + n end end
        assert.are.equal(v.steps, total, r[1] .. " game " .. i)
      end
    end
  end)

  it("change no game: the lab's numbers are those of --no-moves; --moves asks for the lab's sim", function()
    local with = json.decode((kontor_cmd("sim --players 3 --games 60 --jobs 1 --json")))
    local without = json.decode((kontor_cmd("sim --players 3 --games 60 --jobs 1 --json --no-moves")))
    assert.are.same(with, json.decode((kontor_cmd("sim --players 3 --games 60 --json --moves"))))
    for _, key in ipairs(without.order) do
      assert.are.same(without.measures[key], with.measures[key], key)
    end
    assert.are.same(without.wins, with.wins)
    assert.is_true(with.measures["moves.phase2: draw"].mean > 0)
    assert.is_nil(without.measures["moves.phase2: draw"])
    assert.is_nil(without.measures.branching)
    local _, err, code = kontor_cmd("sim --games 5 --moves --no-moves")
    assert.are.equal(2, code)
    assert.are.equal("kontor: sim: --moves and --no-moves: give one\nTry 'kontor --help'.\n", err)
  end)

  it("are rows of kontor compare: A, B, B - A, interval", function()
    local out, err, code = kontor_cmd("compare --a '' --b '--variant hand_limit' --games 200 --jobs 1")
    assert.are.equal(0, code, err)
    local row = out:match("\n(phase2: draw per game[^\n]*)")
    assert.truthy(row, out)
    local a, b, d, lo, hi = row:match("game%s+([%d.]+)%s+([%d.]+)%s+([%+%-][%d.]+)%s+%[([%+%-][%d.]+), ([%+%-][%d.]+)%]")
    assert.truthy(a, row)
    assert.is_true(math.abs(tonumber(b) - tonumber(a) - tonumber(d)) < 2e-4, row)
    assert.is_true(tonumber(lo) <= tonumber(d) and tonumber(d) <= tonumber(hi), row)
    assert.truthy(out:find("\nphase2: draw: share of games ", 1, true), out)
    assert.falsy(out:find("phase2: draw, seat 1", 1, true))       -- per seat: in the JSON only
  end)
end)

describe("is it still a game", function()
  it("counts lead changes and when the winner took the lead for good, from a score series", function()
    -- points: tie, 1 leads, 2 leads (a change), 1 leads (a change), tie; final: 1 wins
    local t = measures.of_series({ { 0, 0 }, { 1, 0 }, { 1, 2 }, { 3, 2 }, { 3, 3 } }, { 5, 4 }, { 1 })
    assert.are.equal(2, t.lead_changes)
    assert.are.equal(1, t.decided)          -- only the final scores put seat 1 ahead for good
    assert.are.equal(1, t.margin)
    -- seat 1 leads from the first point on
    t = measures.of_series({ { 1, 0, 0 }, { 2, 0, 1 }, { 2, 1, 1 } }, { 4, 1, 2 }, { 1 })
    assert.are.same({ lead_changes = 0, decided = 0, margin = 2 }, t)
    -- seat 2 takes the lead for good at the third of five points: decided at 2/4
    t = measures.of_series({ { 1, 0 }, { 1, 1 }, { 1, 3 }, { 2, 4 } }, { 2, 6 }, { 2 })
    assert.are.same({ lead_changes = 1, decided = 0.5, margin = 4 }, t)
    -- a shared win: decided at the end, no margin
    t = measures.of_series({ { 1, 0 } }, { 3, 3 }, { 1, 2 })
    assert.are.same({ lead_changes = 0, decided = 1, margin = 0 }, t)
  end)

  it("reports them for every rule set, from R.scores each turn", function()
    for _, setup in ipairs { "--players 3", "--rules tests/balance/dice.lua", "--rules old_world --players 3",
                             "--rules caribbean" } do
      local out, err, code = kontor_cmd("sim " .. setup .. " --games 12 --jobs 1 --json")
      assert.are.equal(0, code, setup .. ": " .. err)
      local s = json.decode(out)
      for _, key in ipairs { "lead_changes", "decided", "margin", "branching", "forced" } do
        local m = s.measures[key]
        assert.truthy(m and m.mean, setup .. " " .. key)
      end
      assert.is_true(s.measures.decided.mean >= 0 and s.measures.decided.mean <= 1, setup)
      assert.is_true(s.measures.branching.mean >= 1, setup)
      assert.is_true(s.measures.forced.mean >= 0 and s.measures.forced.mean <= 1, setup)
    end
  end)
end)

describe("sums in place of games", function()
  it("add up exactly in any order, a shared win of three included", function()
    local vals = {}
    for i = 1, 30 do vals[i] = { x = (i * 7) % 13, w = i % 3 == 0 and 2 or 0 } end   -- w: 1/3 at scale 6
    local one, parts = stats.acc(), { stats.acc(), stats.acc(), stats.acc() }
    for i, v in ipairs(vals) do
      stats.add(one, v)
      stats.add(parts[(i % 3) + 1], v)
    end
    local merged = stats.merge(stats.merge(stats.merge(stats.acc(), parts[3]), parts[1]), parts[2])
    assert.are.same(one.sum, merged.sum)
    assert.are.same(one.sq, merged.sq)
    local r = stats.acc_ci(one, "w", 6)
    local xs = {}
    for i, v in ipairs(vals) do xs[i] = v.w / 6 end
    local ref = stats.mean_ci(xs)
    assert.is_true(math.abs(r.mean - ref.mean) < 1e-12)
    assert.is_true(math.abs(r.ci[1] - ref.ci[1]) < 1e-12 and math.abs(r.ci[2] - ref.ci[2]) < 1e-12)
  end)

  it("keep a job's answer about the same size for ten times the games", function()
    -- (its histograms of scores and lengths gain a few values; games are not kept)
    local small = kontor_cmd("sim --players 3 --games 500 --range 1-50", "KONTOR_LAB_PART=1")
    local large = kontor_cmd("sim --players 3 --games 500 --range 1-500", "KONTOR_LAB_PART=1")
    assert.are.equal("shard", json.decode(small).kontor)
    assert.is_nil(json.decode(large).sides[1].games)
    assert.is_true(#large < #small * 1.5, #small .. " " .. #large)
  end)
end)

describe("kontor sweep", function()
  local sw
  it("plays the same deals for every value and reports each measure per value", function()
    local out, err, code = kontor_cmd("sweep --rules tests/balance/dice.lua --over target=20,30,40 --games 300 --jobs 1 --json")
    assert.are.equal(0, code, err)
    sw = json.decode(out)
    assert.are.equal("sweep", sw.kind)
    assert.are.equal("target", sw.over)
    assert.are.same({ "20", "30", "40" }, sw.values)
    assert.are.equal(300, sw.games)
    local turns = sw.measures.turns.rows
    assert.are.equal(3, #turns)
    assert.are.equal("20", turns[1].value)
    assert.are.equal(json.null, turns[1].diff)
    -- value 20 is kontor sim --option target=20 on the same seed
    local sim = json.decode((kontor_cmd("sim --rules tests/balance/dice.lua --option target=20 --games 300 --jobs 1 --json")))
    assert.are.equal(sim.mean_turns, turns[1].mean)
    assert.are.same(sim.measures.turns.ci, turns[1].ci)
    -- paired: the difference is the difference of the means, and a longer race is longer
    for i = 2, 3 do
      assert.is_true(math.abs(turns[i].diff - (turns[i].mean - turns[1].mean)) < 2e-6)
      assert.are.equal("longer", turns[i].verdict)
    end
    assert.is_true(turns[3].mean > turns[2].mean)
  end)

  it("gives the same with --jobs 2 and from merged shards", function()
    local args = "sweep --rules tests/balance/dice.lua --over target=20,30,40 --games 300"
    assert.are.equal(json.encode(sw), json.encode(json.decode((kontor_cmd(args .. " --jobs 2 --json")))))
    for k = 1, 2 do support.write(tmp("sw" .. k .. ".json"), (kontor_cmd(args .. " --shard " .. k .. "/2"))) end
    local merged, err, code = kontor_cmd(string.format("merge %s %s --json", q(tmp("sw2.json")), q(tmp("sw1.json"))))
    assert.are.equal(0, code, err)
    assert.are.equal(json.encode(sw), json.encode(json.decode(merged)))
  end)

  it("writes an SVG line chart per measure, and says what is wrong with --over", function()
    local dir = tmp("charts")
    local out, err, code = kontor_cmd("sweep --variant hand_limit --over size=4..6 --players 2 --games 40 --jobs 1 --svg " .. q(dir))
    assert.are.equal(0, code, err)
    assert.truthy(out:find("sweep        size over 4, 5, 6: 40 paired games each (seed 1)", 1, true), out)
    assert.truthy(out:find("charts written to " .. dir, 1, true), out)
    local svg = support.read(dir .. "/turns.svg")
    assert.truthy(svg:find('<svg class="chart sweep"', 1, true))
    local n = 0
    for _ in svg:gmatch('<circle class="point"') do n = n + 1 end
    assert.are.equal(3, n)
    local _
    _, err, code = kontor_cmd("sweep --variant hand_limit --over nope.size=4..6 --games 5")
    assert.are.equal(2, code)
    assert.truthy(err:find("--over nope.size: no --variant nope is given (variants: hand_limit)", 1, true), err)
    _, err, code = kontor_cmd("sweep --over first_player=2 --games 5")
    assert.are.equal(2, code)
    assert.truthy(err:find("a sweep needs two values or more", 1, true), err)
  end)
end)

describe("the report a designer can act on", function()
  it("says what the colours of the differences mean: the higher side's, as in its other charts", function()
    local report = tmp("colours.html")
    local _, err, code = kontor_cmd("compare --players 3 --a '' --b '--variant hand_limit:size=4' --games 100 "
      .. "--jobs 1 --report " .. q(report))
    assert.are.equal(0, code, err)
    local html = support.read(report)
    assert.truthy(html:find("where the interval leaves out zero, in the colour of the side that is higher "
      .. "(orange: B, blue: A, as in the charts below).", 1, true))
    -- the colours are those of the sides: a difference B - A > 0 is B's
    assert.truthy(html:find('#3b6fb6', 1, true) and html:find('#e07b39', 1, true))
  end)

  it("opens with what changed, corrects for many rows (Holm) and renders in headless Chromium #chromium", function()
    local chromium = io.popen("command -v chromium"):read("l")
    assert.truthy(chromium, "chromium is missing (Debian package chromium, .ci/deps --test)")
    local report = tmp("q.html")
    local _, err, code = kontor_cmd("compare --players 3 --a '' --b '--variant hand_limit:size=4' --games 300 --jobs 1 --report "
      .. q(report))
    assert.are.equal(0, code, err)
    local html = support.read(report)
    assert.falsy(html:find("<script", 1, true))
    local dom = tmp("qdom.html")
    local flags = "--headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir=" .. q(tmp("chrome"))
    os.execute(string.format("%s %s --dump-dom file://%s > %s 2>/dev/null", chromium, flags, report, q(dom)))
    local d = support.read(dom)
    local summary = d:match('<div class="summary">(.-)</div>')
    assert.truthy(summary, "no summary")
    assert.truthy(summary:find("300 paired games of A and B, 3 players (seat 1 random, seat 2 random, seat 3 random)", 1, true), summary)
    assert.truthy(summary:find("Holm's correction", 1, true), summary)
    -- the results, then the tension measures, then the moves (designer_report_order_spec), and in
    -- each, biggest effect first: the z of each item (B - A over its interval's half-width) falls
    local TENSION = { ["lead changes"] = true, ["decided at (share of game)"] = true, ["winning margin"] = true,
                      ["options per decision"] = true, ["decisions with one option"] = true }
    local zs, groups = {}, {}
    for label, d0, lo, hi in summary:gmatch("<li>([^<]-): %a+ %(A [^;]*; B %- A ([%+%-][%d.]+), 95%% interval "
        .. "%[([%+%-][%d.]+), ([%+%-][%d.]+)%]") do
      zs[#zs + 1] = math.abs(tonumber(d0)) / ((tonumber(hi) - tonumber(lo)) / 2)
      groups[#groups + 1] = label:find("^[%w_]+: ") and 3 or TENSION[label] and 2 or 1
    end
    assert.is_true(#zs >= 3, summary)
    for i = 2, #zs do
      assert.is_true(groups[i] >= groups[i - 1], summary)
      if groups[i] == groups[i - 1] then assert.is_true(zs[i] <= zs[i - 1] * 1.001, summary) end
    end
    assert.truthy(summary:find("game length (turns): longer", 1, true), summary)
    -- the interval chart has an axis and a zero line
    local diff = d:match('<svg class="chart" id="differences".-</svg>')
    assert.truthy(diff:find('class="zero"', 1, true) and diff:find('class="axis"', 1, true))
    assert.truthy(diff:find("in standard errors", 1, true))
    -- the moves have their section: two bars (A, B) per kind
    local mv = d:match('<svg class="chart" id="moves".-</svg>')
    local bars, rows = 0, 0
    for _ in mv:gmatch('<rect class="bar"') do bars = bars + 1 end
    for _ in d:match('<table id="moves">(.-)</table>'):gmatch("<tr><td>[^<]* per game</td>") do rows = rows + 1 end
    assert.is_true(rows > 5)
    assert.are.equal(2 * rows, bars)
    -- a histogram's sides share their bins: two bars per bin
    local h = d:match('<svg class="chart" id="lead%-changes".-</svg>')
    local hb = 0
    for _ in h:gmatch('<rect class="bar"') do hb = hb + 1 end
    assert.is_true(hb > 0 and hb % 2 == 0)
  end)

  it("of a sweep: a line chart per measure #chromium", function()
    local chromium = io.popen("command -v chromium"):read("l")
    local report = tmp("sw.html")
    local _, err, code = kontor_cmd("sweep --rules tests/balance/dice.lua --over target=10..13 --games 50 --jobs 1 --report " .. q(report))
    assert.are.equal(0, code, err)
    local dom = tmp("swdom.html")
    local flags = "--headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir=" .. q(tmp("chrome2"))
    os.execute(string.format("%s %s --dump-dom file://%s > %s 2>/dev/null", chromium, flags, report, q(dom)))
    local d = support.read(dom)
    local charts, points = 0, 0
    for svg in d:gmatch('<svg class="chart sweep".-</svg>') do
      charts = charts + 1
      for _ in svg:gmatch('<circle class="point"') do points = points + 1 end
    end
    -- dice: 2 win rates, 2 scores, turns, first player, 2 stats, 3 tension measures,
    -- options per decision and forced decisions, and what players do: turn: bank and
    -- turn: roll, each per game and its share of games
    assert.are.equal(17, charts)
    assert.are.equal(4 * 17, points)
    assert.truthy(d:find('id="moves_turn_roll"', 1, true) or d:find("turn: roll per game", 1, true))
  end)
end)

teardown(cleanup)
