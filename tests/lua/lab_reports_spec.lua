-- The reports of kontor worth and kontor sweep (docs/balance.md, "Open the
-- report"), rendered in headless Chromium: what the page shows, not only
-- what was written. worth: the plain-words summary first (players, bot,
-- games, Holm's correction, the lone verdict that could be chance), the
-- chart of each kind's win rate and interval against the fair share line
-- with its axis, ticks and labels, the table. sweep: its summary and a
-- section of line charts per kind of measure. Both one file, no script,
-- nothing fetched.

local support = require "tests.lua.support"

local q = support.sh_quote
local runner = support.lab()
local tmp, kontor_cmd = runner.tmp, runner.run
teardown(runner.cleanup)

-- The page as headless Chromium built it (its DOM), and a screenshot's size.
local function render(report, name)
  local chromium = io.popen("command -v chromium"):read("l")
  assert.truthy(chromium, "chromium is missing (Debian package chromium, .ci/deps --test)")
  local flags = "--headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1000,2000 --user-data-dir="
    .. q(tmp("chrome-" .. name))
  local png, dom = tmp(name .. ".png"), tmp(name .. ".dom.html")
  assert.is_true(os.execute(string.format("%s %s --screenshot=%s file://%s > /dev/null 2>&1", chromium, flags, q(png), report)))
  local img = support.read(png)
  assert.are.equal("\137PNG", img:sub(1, 4))
  os.execute(string.format("%s %s --dump-dom file://%s > %s 2>/dev/null", chromium, flags, report, q(dom)))
  return support.read(dom), #img
end

local function self_contained(html)
  assert.falsy(html:find("<script", 1, true))
  assert.falsy(html:gsub('xmlns="http://www.w3.org/2000/svg"', ""):find("https?://"))
end

local function count(s, pat)
  local n = 0
  for _ in s:gmatch(pat) do n = n + 1 end
  return n
end

describe("the worth report", function()
  local KINDS = "'phase1: buy;phase1: pass;buy_card: buy contract;exchange_product: exchange'"

  it("opens with what the moves are worth in plain words, then the chart of the differences from unrestricted #chromium", function()
    local report = tmp("worth.html")
    local out, err, code = kontor_cmd("worth --bot random --games 200 --jobs 1 --kinds " .. KINDS .. " --report " .. q(report))
    assert.are.equal(0, code, err)
    assert.truthy(out:find("\nreport written to " .. report .. "\n", 1, true), out)
    local html = support.read(report)
    self_contained(html)
    local d, png = render(report, "worth")
    assert.is_true(png > 20000, tostring(png))
    assert.truthy(d:find("<h1>Kontor worth report</h1>", 1, true))
    -- the summary comes first, before any chart
    local summary = d:match('<div class="summary">(.-)</div>'):gsub("\n", "")
    assert.is_true(d:find('<div class="summary">', 1, true) < d:find("<svg", 1, true))
    assert.truthy(summary:find("200 games for each kind of move of sea_merchants (<code>--rules sea_merchants</code>), "
      .. "4 players, every seat random, seed 1.", 1, true), summary)
    assert.truthy(summary:find("its fair share of the wins is 0.2500 (1/4). Every deal is also played with no seat "
      .. "restricted, where the same seats win 0.3200 [0.2580, 0.3820]", 1, true), summary)
    -- the docs' numbers: phase1: buy +0.3275 [+0.2637, +0.3913] costs games (random bots buy at random),
    -- phase1: pass -0.1592 [-0.2391, -0.0792] helps win, both after Holm over the 3 kinds kept from
    assert.truthy(summary:find("Holm's correction for the 3 kinds compared", 1, true), summary)
    assert.truthy(summary:find('<ol id="costs"><li>phase1: buy: +0.3275 [+0.2637, +0.3913] against the same seat '
      .. "unrestricted (the seat without it wins 0.6475)</li></ol>", 1, true), summary)
    assert.truthy(summary:find('<ol id="helps"><li>phase1: pass: -0.1592 [-0.2391, -0.0792] against the same seat '
      .. "unrestricted (the seat without it wins 0.1608)</li></ol>", 1, true), summary)
    assert.truthy(summary:find("No one needs, as far as 200 games a kind tell (the interval of the difference holds 0): "
      .. "buy_card: buy contract.", 1, true), summary)
    assert.truthy(summary:find("Tell nothing (the seat never had a move of the kind and another at once): "
      .. "exchange_product: exchange.", 1, true), summary)
    -- the chart: a row per kind, its difference's dot and interval; the axis round 0, its ticks, the 0 line
    local svg = d:match('<svg class="chart" id="worth".-</svg>')
    assert.truthy(svg, "no worth chart")
    assert.are.equal(4, count(svg, '<circle class="point"'))
    assert.are.equal(4, count(svg, '<path class="interval"'))
    local ax1, ax2 = svg:match('<line class="axis" x1="([%d.]+)" x2="([%d.]+)"')
    local zero = tonumber(svg:match('<line class="zero" x1="([%d.]+)"'))
    ax1, ax2 = tonumber(ax1), tonumber(ax2)
    local ticks = {}
    for t in svg:gmatch('<text class="tick"[^>]*>([^<]*)</text>') do ticks[#ticks + 1] = t end
    assert.are.same({ "-0.5", "-0.25", "0", "+0.25", "+0.5" }, ticks)
    -- 0 half way along the axis from -0.5 to +0.5
    assert.is_true(math.abs((zero - ax1) / (ax2 - ax1) - 0.5) < 0.01)
    assert.truthy(svg:find(">as unrestricted<", 1, true))
    assert.truthy(svg:find("win without the move less the win unrestricted, deal by deal", 1, true))
    assert.truthy(svg:find("exchange_product: exchange (never kept from it)", 1, true))
    -- the dot of phase1: buy at +0.3275, orange (costs games); pass blue (helps win)
    local cx, fill = svg:match('<circle class="point" cx="([%d.]+)" cy="[%d.]+" r="4" fill="(#%x+)"><title>phase1: buy:')
    assert.is_true(math.abs((tonumber(cx) - ax1) / (ax2 - ax1) - (0.5 + 0.3275)) < 0.01)
    assert.are.equal("#e07b39", fill)
    assert.truthy(svg:find('fill="#3b6fb6"><title>phase1: pass: -0.1592', 1, true))
    -- the table: a row per kind, its verdict after Holm
    local tbl = d:match('<table id="worth%-table">(.-)</table>')
    assert.are.equal(4, count(tbl, "<tr><td>"))
    assert.truthy(tbl:find('<td>phase1: buy</td><td>0.6475</td><td>[0.5831, 0.7119]</td><td>+0.3275</td>'
      .. '<td>[+0.2637, +0.3913]</td><td class="verdict">costs games</td>', 1, true), tbl)
  end)

  it("says when a lone kind's difference leaving out 0 could be chance #chromium", function()
    -- seed 1: phase1: pass's difference -0.2333 [-0.4339, -0.0328] leaves out 0 (p 0.0226), but among
    -- the 4 kinds kept from, Holm's correction wants p <= 0.0125 for the first: it could be chance
    local report = tmp("worth2.html")
    local _, err, code = kontor_cmd("worth --bot random --players 3 --games 30 --seed 1 --jobs 1 --kinds "
      .. "'buy_card: buy contract;phase2: draw;phase1: pass;phase2: play;load: load' --report " .. q(report))
    assert.are.equal(0, code, err)
    local d = render(report, "worth2")
    local summary = d:match('<div class="summary">(.-)</div>'):gsub("\n", "")
    assert.truthy(summary:find("<p>No move measurably decides games: no difference from the same seat unrestricted of "
      .. "the 4 kinds compared holds after Holm's correction for 4 comparisons.</p>", 1, true), summary)
    assert.truthy(summary:find('<p class="chance">1 more kind has a difference whose interval leaves out 0, but among 4 '
      .. "comparisons that can be chance (Holm's correction does not hold it): phase1: pass.</p>", 1, true), summary)
    assert.are.equal("could be chance", d:match('<td>phase1: pass</td>.-<td class="verdict">([^<]*)</td>'))
    -- grey in the chart: no verdict holds
    local svg = d:match('<svg class="chart" id="worth".-</svg>')
    assert.falsy(svg:find('fill="#e07b39"', 1, true) or svg:find('fill="#3b6fb6"', 1, true))
  end)
end)

describe("the sweep report", function()
  it("opens with what changes, then a section of line charts per kind of measure #chromium", function()
    local report = tmp("sweep.html")
    local _, err, code = kontor_cmd("sweep --players 2 --variant hand_limit --over size=3..5 --games 300 --jobs 1 --moves --report "
      .. q(report))
    assert.are.equal(0, code, err)
    self_contained(support.read(report))
    local d, png = render(report, "sweep")
    assert.is_true(png > 20000, tostring(png))
    local summary = d:match('<div class="summary">(.-)</div>')
    assert.truthy(summary:find("<h2>What changes with size</h2>", 1, true), summary)
    assert.truthy(summary:find("size over 3, 4, 5: 300 paired games each of sea_merchants, 2 players "
      .. "(seat 1 random, seat 2 random), seed 1.", 1, true), summary)
    assert.truthy(summary:find("Holm's correction for the", 1, true), summary)
    -- a smaller hand makes longer games (docs/balance.md, section 4): the first item, the biggest effect
    local items = {}
    for li in summary:match('<ol id="changed">(.-)</ol>'):gmatch("<li>(.-)</li>") do items[#items + 1] = li end
    assert.is_true(#items >= 2)
    assert.truthy(summary:find("game length (turns): shorter at 4 (", 1, true), summary)
    -- the sections, in order, each with its charts
    local r = d:find('<section id="sweep-results">', 1, true)
    local t = d:find('<section id="sweep-tension">', 1, true)
    local m = d:find('<section id="sweep-moves">', 1, true)
    assert.truthy(r and t and m)
    assert.is_true(r < t and t < m)
    local function charts(id)
      local sec = d:match('<section id="' .. id .. '">(.-)</section>')
      local n, points = 0, 0
      for svg in sec:gmatch('<svg class="chart sweep".-</svg>') do
        n = n + 1
        points = points + count(svg, '<circle class="point"')
        assert.truthy(svg:find('<line class="axis"', 1, true))
      end
      return n, points
    end
    -- results: the win rate and mean score of each seat, game length, first-player advantage;
    -- tension: lead changes, decided at, margin, options per decision, decisions with one option
    local n, points = charts("sweep%-results")
    assert.are.equal(6, n)
    assert.are.equal(6 * 3, points)
    n = charts("sweep%-tension")
    assert.are.equal(5, n)
    n = charts("sweep%-moves")
    assert.is_true(n > 10)
    assert.truthy(d:find("<h2>What players do</h2>", 1, true))
  end)
end)
