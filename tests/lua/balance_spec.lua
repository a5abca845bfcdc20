-- The balance lab (docs/balance.md): statistics, paired comparisons, jobs,
-- shards and merge (also through GNU parallel), coverage, stats, the
-- report in headless Chromium, games-out, and the doc's walkthrough run
-- block by block.
--
-- The in-process parts run in this binary (ASan in make test); the command
-- lines run the plain build ($KONTOR_PLAIN) for speed.

local support = require "tests.lua.support"
local stats = require "kontor.balance.stats"
local balance = require "kontor.balance"
local brun = require "kontor.balance.run"
local json = kontor.core.json

local q = support.sh_quote
local ROOT = assert(io.popen("pwd")):read("l")
local function abs(p) return p:sub(1, 1) == "/" and p or (ROOT .. "/" .. p) end
local PLAIN = abs(os.getenv("KONTOR_PLAIN") or support.binary())
local tmp, cleanup = support.scratch()

-- Runs the plain kontor with `args` (a shell string) in `dir`; returns
-- stdout, stderr and the exit code.
local function kontor_cmd(args, dir, env)
  local errf = tmp("stderr.txt")
  local cmd = string.format("cd %s && %s %s %s 2>%s", q(dir or ROOT), env or "", q(PLAIN), args, q(errf))
  local p = assert(io.popen(cmd))
  local out = p:read("a")
  local _, _, code = p:close()
  return out, support.read(errf), code
end

local function near(x, y, eps) return math.abs(x - y) <= (eps or 1e-4) end

describe("balance statistics", function()
  it("knows Student's t", function()
    assert.are.equal(12.7062, stats.t975(1))
    assert.are.equal(2.2281, stats.t975(10))
    assert.is_true(near(stats.t975(1000), 1.9623, 1e-4))
    assert.is_true(near(stats.t975(120), 1.9799, 1e-4))
    assert.is_nil(stats.t975(0))
  end)

  it("gives the paired interval of the differences", function()
    local r = stats.paired({ 1, 2, 3, 4 }, { 2, 4, 5, 5 })
    -- d = 1, 2, 2, 1: mean 1.5, sd 0.57735, t(3) = 3.1824
    assert.are.equal(1.5, r.diff)
    assert.is_true(near(r.ci[1], 0.58132) and near(r.ci[2], 2.41868), json.encode(r))
  end)

  it("gives Welch's interval for independent lists", function()
    local r = stats.unpaired({ 1, 2, 3, 4 }, { 2, 4, 5, 5 })
    -- se^2 = 5/12 + 1/2, df = 5.9508, t = 2.4520
    assert.are.equal(1.5, r.diff)
    assert.is_true(near(r.ci[1], -0.8477, 1e-3) and near(r.ci[2], 3.8477, 1e-3), json.encode(r))
  end)

  it("says a verdict only where the interval leaves out zero", function()
    assert.are.equal("higher", stats.verdict({ 0.1, 0.3 }, "higher", "lower"))
    assert.are.equal("lower", stats.verdict({ -0.3, -0.1 }, "higher", "lower"))
    assert.is_nil(stats.verdict({ -0.1, 0.3 }, "higher", "lower"))
    assert.is_nil(stats.verdict(nil, "higher", "lower"))
  end)
end)

describe("balance runs in this process", function()
  it("play the same games as kontor.sim", function()
    local L = balance.load { rules = "sea_merchants", players = 3 }
    local d = balance.play(L, 7, 1, 40)
    local s = balance.summary(L.info, d, 7)
    local ref = kontor.sim { rules = "sea_merchants", players = 3, games = 40, seed = 7 }
    assert.are.same(ref.wins, s.wins)
    assert.are.same(ref.mean_score, s.mean_score)
    assert.are.equal(ref.mean_turns, s.mean_turns)
  end)

  it("pair game i of both setups on the same deal", function()
    local A = balance.load { rules = "sea_merchants", players = 2 }
    local B = balance.load { rules = "sea_merchants", players = 2 }
    local da, db = balance.play(A, 3, 1, 30), balance.play(B, 3, 1, 30)
    local c = balance.compare(A.info, da, B.info, db, 3)
    for _, key in ipairs(c.order) do
      local m = c.measures[key]
      assert.are.equal(0, m.diff, key)
      assert.are.same({ 0, 0 }, m.ci, key)
      assert.is_nil(m.verdict, key)
    end
  end)

  it("count the stats a rule set declares, per game", function()
    local L = balance.load { rules = "tests/balance/dice.lua" }
    local d = balance.play(L, 1, 1, 50)
    assert.are.equal(50, #d.stats.busts)
    local total = 0
    for j = 1, 50 do
      assert.are.equal("integer", math.type(d.stats.banked[j]))
      total = total + d.stats.busts[j]
    end
    assert.is_true(total > 0)
    -- every point a player holds at the end was banked
    for j = 1, 50 do
      assert.are.equal(d.scores[1][j] + d.scores[2][j], d.stats.banked[j])
    end
    local s = balance.summary(L.info, d, 1)
    assert.are.equal("busts per game", s.measures["stat.busts"].label)
  end)

  it("stop on a stat the rule set does not declare", function()
    local file = support.write(tmp("undeclared.lua"), support.read("tests/balance/dice.lua")
      :gsub('g:stat%("busts"%)', 'g:stat("bust")'))
    local L = balance.load { rules = file }
    support.fails(function() balance.play(L, 1, 1, 20) end,
      "g:stat counts 'bust', which dice does not declare in R.stats")
  end)

  it("give g:stat's argument errors in the script's terms", function()
    local file = support.write(tmp("badstat.lua"), support.read("tests/balance/dice.lua")
      :gsub('g:stat%("busts"%)', 'g:stat("busts", "two")'))
    local L = balance.load { rules = file }
    support.fails(function() balance.play(L, 1, 1, 20) end,
      "bad argument #2 to 'stat' (a number expected, got two)")
  end)
end)

describe("kontor compare", function()
  it("reports each measure with a, b, diff, ci and verdict (null inside zero)", function()
    local out, err, code = kontor_cmd("compare --a '' --b '--variant hand_limit' --games 300 --jobs 1 --json")
    assert.are.equal(0, code, err)
    local c = json.decode(out)
    assert.are.equal(300, c.games)
    assert.is_true(c.paired)
    assert.are.equal("--rules sea_merchants --variant hand_limit", c.b.setup)
    local t = c.measures.turns
    assert.are.equal("longer", t.verdict)
    assert.is_true(t.ci[1] > 0 and t.diff > 0 and t.b > t.a)
    local nulls = 0
    for _, key in ipairs(c.order) do
      local m = c.measures[key]
      for _, f in ipairs { "a", "b", "diff", "ci", "verdict" } do assert.is_not_nil(m[f], key .. "." .. f) end
      if m.verdict == json.null then
        nulls = nulls + 1
        assert.is_true(m.ci[1] <= 0 and m.ci[2] >= 0, key)
      end
    end
    assert.is_true(nulls >= 1)
  end)

  it("prints the same with --jobs 2 as with --jobs 1, coverage included #slow", function()
    local args = "compare --a '--players 3' --b '--players 3 --variant tests/balance/mutiny.lua' --games 120 --coverage --json"
    local one = kontor_cmd(args .. " --jobs 1")
    local two, err, code = kontor_cmd(args .. " --jobs 2")
    assert.are.equal(0, code, err)
    assert.are.equal(one, two)
    assert.are.equal("", err)   -- no progress bar when stderr is not a terminal
  end)

  it("says why a setup is wrong", function()
    local _, err, code = kontor_cmd("compare --a ''")
    assert.are.equal(2, code)
    assert.truthy(err:find("both --a 'SETUP' and --b 'SETUP' are needed", 1, true), err)
    _, err, code = kontor_cmd("compare --a '--games 5' --b ''")
    assert.are.equal(2, code)
    assert.truthy(err:find("compare: --a '--games 5': unknown option '--games' (it is common to both setups: give it outside --a and --b)", 1, true), err)
    _, err, code = kontor_cmd("compare --a '' --b '--bot 9=random' --games 5")
    assert.are.equal(2, code)
    assert.truthy(err:find("--bot 9=random: there is no seat 9 (the game has 4 players)", 1, true), err)
    _, err, code = kontor_cmd("compare --a '' --b '--bot 1=oracle' --games 5")
    assert.are.equal(2, code)
    assert.truthy(err:find("unknown bot 'oracle' (bots: random, greedy, mcts)", 1, true), err)
    _, err = kontor_cmd("compare --a '' --b '--bot 2=random:depth=3' --games 5")
    assert.truthy(err:find("--bot 2=random:depth=3: the random bot has no option 'depth' (options: avoid, prefer)", 1, true), err)
    _, err, code = kontor_cmd("sim --shard 3/2")
    assert.are.equal(2, code)
    assert.truthy(err:find("--shard must be K/N with 1 <= K <= N, not '3/2'", 1, true), err)
  end)

  it("plays side B on deals of its own with --unpaired (Welch intervals)", function()
    local args = "compare --rules tests/balance/dice.lua --a '' --b '' --games 200 --jobs 1 --json"
    local paired = json.decode((kontor_cmd(args)))
    local unpaired = json.decode((kontor_cmd(args .. " --unpaired")))
    assert.is_true(paired.paired)
    assert.is_false(unpaired.paired)
    assert.are.equal(0, paired.measures.turns.diff)
    assert.are_not.equal(0, unpaired.measures.turns.diff)
    local ci = unpaired.measures.turns.ci
    assert.is_true(ci[1] < ci[2])
    assert.are.equal(paired.measures.turns.a, unpaired.measures.turns.a)
  end)

  it("plays bots given per seat through kontor.bots", function()
    local out, err, code = kontor_cmd("sim --games 50 --players 2 --bot 1=random --bot 2=random --jobs 1 --json")
    assert.are.equal(0, code, err)
    local s = json.decode(out)
    assert.are.same({ "random", "random" }, s.seats)
    assert.are.equal("--rules sea_merchants --players 2 --bot 1=random --bot 2=random", s.setup)
    assert.are.equal(50, s.wins[1] + s.wins[2] - s.shared_wins)
  end)

  it("plays bots in a game of secret orders (Old World), each seat's entry by its own bot #slow", function()
    local out, err, code = kontor_cmd("sim --rules old_world --players 3 --games 4 --seed 5 "
      .. "--bot 1=greedy --bot 2=random --jobs 1 --json")
    assert.are.equal(0, code, err)
    local s = json.decode(out)
    assert.are.same({ "greedy", "random", "random" }, s.seats)
    assert.are.equal(4, s.games)
    assert.is_true(s.mean_turns > 0)
  end)

  it("stops early once every win rate's interval is narrow enough, the same with jobs", function()
    local args = "compare --rules tests/balance/dice.lua --a '' --b '--option target=30' --games 5000 --until-width 0.05 --json"
    local one, err, code = kontor_cmd(args .. " --jobs 1")
    assert.are.equal(0, code, err)
    local c = json.decode(one)
    assert.is_true(c.games < 5000 and c.games % 1000 == 0, tostring(c.games))
    for _, key in ipairs(c.order) do
      local ci = c.measures[key].ci
      if balance.judged(key) then assert.is_true(ci[2] - ci[1] < 0.05, key) end
    end
    assert.are.equal(one, (kontor_cmd(args .. " --jobs 2")))
  end)
end)

describe("kontor sim shards and merge", function()
  local single

  it("merges shards into exactly one run's result", function()
    local err, code
    single, err, code = kontor_cmd("sim --players 3 --games 301 --seed 5 --jobs 1 --json --games-out " .. q(tmp("single.jsonl")))
    assert.are.equal(0, code, err)
    for k = 1, 3 do
      local out
      out, err, code = kontor_cmd(string.format("sim --players 3 --games 301 --seed 5 --shard %d/3", k))
      assert.are.equal(0, code, err)
      local sh = json.decode(out)
      assert.are.equal("shard", sh.kontor)
      support.write(tmp("s" .. k .. ".json"), out)
    end
    -- in any order
    local merged
    merged, err, code = kontor_cmd(string.format("merge %s %s %s --json --games-out %s", q(tmp("s3.json")),
      q(tmp("s1.json")), q(tmp("s2.json")), q(tmp("merged.jsonl"))))
    assert.are.equal(0, code, err)
    assert.are.equal(single, merged)
    assert.are.equal(support.read(tmp("single.jsonl")), support.read(tmp("merged.jsonl")))
  end)

  it("says which games are missing or doubled, and refuses shards of other runs", function()
    local _, err, code = kontor_cmd(string.format("merge %s %s", q(tmp("s1.json")), q(tmp("s3.json"))))
    assert.are.equal(1, code)
    local lo, hi = brun.shard_range(2, 3, 301)
    assert.truthy(err:find(string.format("games %d-%d are missing (no shard has them)", lo, hi), 1, true), err)
    _, err = kontor_cmd(string.format("merge %s %s %s %s", q(tmp("s1.json")), q(tmp("s2.json")),
      q(tmp("s2.json")), q(tmp("s3.json"))))
    assert.truthy(err:find(string.format("games %d-%d are in two shards", lo, hi), 1, true), err)
    local other = kontor_cmd("sim --players 3 --games 301 --seed 6 --shard 2/3")
    support.write(tmp("other.json"), other)
    _, err = kontor_cmd(string.format("merge %s %s %s", q(tmp("s1.json")), q(tmp("other.json")), q(tmp("s3.json"))))
    assert.truthy(err:find("is from another run than shard 1", 1, true), err)
    _, err, code = kontor_cmd("merge " .. q(tmp("single.jsonl")))
    assert.are.equal(1, code)
    assert.truthy(err:find("single.jsonl:1: not a kontor shard", 1, true), err)
  end)

  it("writes one JSON line per game with seed, seats, scores, winners, turns and stats", function()
    local _, err, code = kontor_cmd("compare --rules tests/balance/dice.lua --a '' --b '--option target=30' --games 20 --jobs 1 --games-out "
      .. q(tmp("dice.jsonl")))
    assert.are.equal(0, code, err)
    local lines = {}
    for l in io.lines(tmp("dice.jsonl")) do lines[#lines + 1] = json.decode(l) end
    assert.are.equal(40, #lines)
    local g1 = lines[1]
    assert.are.equal(1, g1.game)
    assert.are.equal("a", g1.side)
    assert.are.equal("b", lines[21].side)
    assert.are.equal(g1.seed, lines[21].seed)   -- paired: the same deal
    assert.are.equal(kontor.core.derive_seed(1, 1), g1.seed)
    assert.are.same({ "random", "random" }, g1.seats)
    assert.is_true(g1.scores[g1.winners[1]] >= 20)
    assert.are.equal("integer", math.type(g1.stats.busts))
    assert.are.equal(g1.scores[1] + g1.scores[2], g1.stats.banked)
  end)

  it("runs the GNU parallel form of docs/balance.md and merges to one run's result", function()
    local par = io.popen("command -v parallel"):read("l")
    assert.truthy(par, "GNU parallel is missing (Debian package parallel, .ci/deps --test)")
    local dir = tmp("par")
    os.execute("mkdir -p " .. q(dir .. "/bin") .. " && ln -sf " .. q(PLAIN) .. " " .. q(dir .. "/bin/kontor"))
    local cmd = string.format("cd %s && PATH=%s:$PATH parallel --will-cite --sshlogin : kontor sim --players 2 --games 400 --shard {}/4 ::: 1 2 3 4 > shards.jsonl",
      q(dir), q(dir .. "/bin"))
    assert.is_true(os.execute(cmd))
    local merged, err, code = kontor_cmd("merge shards.jsonl --json", dir)
    assert.are.equal(0, code, err)
    local one = kontor_cmd("sim --players 2 --games 400 --jobs 1 --json")
    assert.are.equal(one, merged)
  end)
end)

describe("rule coverage", function()
  local c
  it("lists a rule that cannot fire as never fired, first", function()
    local out, err, code = kontor_cmd("sim --players 2 --variant tests/balance/mutiny.lua --games 40 --coverage --jobs 1 --json")
    assert.are.equal(0, code, err)
    c = json.decode(out)
    local cov = c.coverage[1]
    assert.are.equal(0, cov.rules.mutiny)
    assert.is_true(cov.rules.trade > 0 and cov.rules.end_of_phase_two > 0)
    -- the rule's body (line 12) never ran; the wrapper around it (16-17) did
    assert.are.same({ ["12"] = 0, ["16"] = 1, ["17"] = 1 }, cov.lines["tests/balance/mutiny.lua"])
    assert.is_true(cov.decisions.load > 0 and cov.options.play > 0 and cov.cards.grain > 0)
    local text = kontor_cmd("sim --players 2 --variant tests/balance/mutiny.lua --games 40 --coverage --jobs 1")
    assert.truthy(text:find("rules (R.rules): 11, never fired: mutiny\n", 1, true), text)
    assert.truthy(text:find("lines of tests/balance/mutiny.lua: 2 of 3 fired, never: 12\n", 1, true), text)
  end)

  it("changes no game", function()
    local plain = json.decode((kontor_cmd("sim --players 2 --variant tests/balance/mutiny.lua --games 40 --jobs 1 --json")))
    c.coverage = nil
    assert.are.same(plain, c)
  end)

  it("counts the lines of secret order entries, which run in threads of their own", function()
    local out, err, code = kontor_cmd("sim --rules tests/rulesets/secret_orders.lua --games 20 --coverage --jobs 1 --json")
    assert.are.equal(0, code, err)
    local lines = json.decode(out).coverage[1].lines["tests/rulesets/secret_orders.lua"]
    for _, l in ipairs { 50, 51, 52, 59, 62, 63, 65 } do         -- enter_order
      assert.is_true(lines[tostring(l)] > 0, "line " .. l .. " of the entry never fired")
    end
    assert.is_true(lines["75"] > 0)                               -- carry_out
  end)

  it("counts chance events and decisions of a rule set without cards", function()
    local out = kontor_cmd("sim --rules tests/balance/dice.lua --games 30 --coverage --jobs 1 --json")
    local cov = json.decode(out).coverage[1]
    assert.is_true(cov.decisions.die > 0 and cov.decisions.turn > 0)
    assert.is_true(cov.options.roll > 0 and cov.options.bank > 0)
  end)
end)

describe("the progress bar", function()
  local has_script = io.popen("command -v script"):read("l")
  it("shows on a terminal, in colour unless NO_COLOR", function()
    assert.truthy(has_script, "script (util-linux) is missing")
    local function on_tty(env)
      local f = tmp("tty.txt")
      os.execute(string.format("cd %s && %s script -qec %s /dev/null > %s 2>&1 < /dev/null", q(ROOT), env, q(q(PLAIN) .. " sim --games 300 --jobs 2"), q(f)))
      return support.read(f)
    end
    local colour = on_tty("")
    assert.truthy(colour:find("/600 games", 1, true) or colour:find("/300 games", 1, true), colour)
    assert.truthy(colour:find("games/s", 1, true), colour)
    assert.truthy(colour:find("\27[32m", 1, true), colour)
    local plain = on_tty("NO_COLOR=1")
    assert.truthy(plain:find("games/s", 1, true), plain)
    assert.falsy(plain:find("\27[32m", 1, true), plain)
  end)
end)

describe("the HTML report", function()
  it("renders in headless Chromium with the expected charts and bars #chromium", function()
    local chromium = io.popen("command -v chromium"):read("l")
    assert.truthy(chromium, "chromium is missing (Debian package chromium, .ci/deps --test)")
    local report = tmp("report.html")
    local _, err, code = kontor_cmd("compare --players 3 --a '' --b '--variant tests/balance/mutiny.lua' --games 60 --coverage --jobs 1 --report "
      .. q(report))
    assert.are.equal(0, code, err)
    local html = support.read(report)
    -- self-contained: no script, nothing fetched
    assert.falsy(html:find("<script", 1, true))
    assert.falsy(html:gsub('xmlns="http://www.w3.org/2000/svg"', ""):find("https?://"))
    local png = tmp("report.png")
    local dom = tmp("dom.html")
    local flags = "--headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1000,4000 --user-data-dir=" .. q(tmp("chrome"))
    assert.is_true(os.execute(string.format("%s %s --screenshot=%s file://%s > /dev/null 2>&1", chromium, flags, q(png), report)))
    local img = support.read(png)
    assert.are.equal("\137PNG", img:sub(1, 4))
    assert.is_true(#img > 20000, tostring(#img))
    os.execute(string.format("%s %s --dump-dom file://%s > %s 2>/dev/null", chromium, flags, report, q(dom)))
    local d = support.read(dom)
    assert.truthy(d:find("<h1>Kontor balance report</h1>", 1, true))
    local function bars(id)
      local svg = d:match('<svg class="chart" id="' .. id .. '".-</svg>')
      assert.truthy(svg, id)
      local n = 0
      for _ in svg:gmatch('<rect class="bar"') do n = n + 1 end
      return n
    end
    assert.are.equal(3 * 2, bars("winrate"))           -- 3 seats, A and B
    assert.are.equal(10, bars("coverage%-rules%-a"))    -- Sea Merchants' rules
    assert.are.equal(11, bars("coverage%-rules%-b"))   -- and the mutiny
    assert.are.equal(0, (bars("turns")) % 2)
    for seat = 1, 3 do assert.is_true(bars("scores%-" .. seat) > 0) end
    assert.truthy(d:find('id="differences"', 1, true))
  end)
end)

-- Every block of docs/balance.md, in order, in an empty folder: `-- file:`
-- and `# file:` blocks are saved; `$ ` lines of sh blocks run (with the
-- plain kontor first on PATH) and, where the doc shows output, it must
-- match, numbers aside: the engine's speed work may change the games, so
-- each run of digits is compared as a number's place, and the words, the
-- labels and the verdicts exactly. The walkthrough's questions about
-- players run greedy seats (sections 1 to 4: 1,300 greedy games, about 60
-- s of CPU at 699e71b, against about 35 s for every random block), at the
-- game counts the doc gives, so the doc shows exactly what they print.
describe("docs/balance.md", function()
  local function mask(s)
    return (s:gsub("[%+%-]?%d[%d%.,%+%-%s]*", "#"):gsub("%s+$", ""))
  end
  it("runs block by block as written", function()
    local dir = tmp("doc")
    os.execute("mkdir -p " .. q(dir .. "/bin") .. " && ln -sf " .. q(PLAIN) .. " " .. q(dir .. "/bin/kontor"))
    local text = support.read("docs/balance.md")
    local ran = 0
    for lang, body in text:gmatch("```(%w+)\n(.-)```") do
      local name = body:match("^%-%- file: (%S+)\n") or body:match("^# file: (%S+)\n")
      if name then
        support.write(dir .. "/" .. name, body)
      elseif lang == "sh" then
        local lines = {}
        for l in body:gmatch("(.-)\n") do lines[#lines + 1] = l end
        local i = 1
        while i <= #lines do
          local cmd = lines[i]:match("^%$ (.*)$")
          assert.truthy(cmd, "an sh block line outside a command: " .. lines[i])
          local want = {}
          i = i + 1
          while i <= #lines and not lines[i]:match("^%$ ") do want[#want + 1] = lines[i]; i = i + 1 end
          local p = io.popen(string.format("cd %s && export PATH=%s:$PATH KONTOR_PATH= && %s 2>&1", q(dir), q(dir .. "/bin"), cmd))
          local out = p:read("a")
          local ok = p:close()
          assert.is_true(ok, cmd .. "\n" .. out)
          ran = ran + 1
          if #want > 0 then
            local got = {}
            for l in out:gmatch("(.-)\n") do got[#got + 1] = l end
            for k = 1, math.max(#got, #want) do
              assert.are.equal(mask(want[k] or ""), mask(got[k] or ""),
                string.format("'%s' line %d: got %q, the doc says %q", cmd, k, tostring(got[k]), tostring(want[k])))
            end
          end
        end
      end
    end
    assert.is_true(ran >= 9, tostring(ran))
    -- the walkthrough's report and the Slurm shards' merge
    assert.truthy(support.read(dir .. "/report.html"):find('<svg class="chart" id="winrate"', 1, true))
    local merged = kontor_cmd("merge shards.jsonl --json", dir)
    local slurm = kontor_cmd("merge shard-4.json shard-2.json shard-3.json shard-1.json --json", dir)
    assert.are.equal(merged, slurm)
  end)
end)

teardown(cleanup)
