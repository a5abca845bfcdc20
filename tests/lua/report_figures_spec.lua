-- report_figures_spec.lua: the HTML report prints each figure as the text
-- report does. Before, a mean that was a whole number (seat 1 won none of
-- 3 games: its win rate an integer 0) showed in the HTML as `0` and its
-- interval as `[0, 0.5615]` where the text said 0.0000 and [0.0000, 0.5615].

local support = require "tests.lua.support"

describe("the HTML report's figures", function()
  it("are the text report's, to the byte, integers too", function()
    local dir = support.tmpdir()
    local out, code = support.run(support.binary() .. " sim --games 3 --seed 1 --no-moves --report "
      .. dir .. "/r.html")
    assert.are.equal(0, code, out)
    local html = support.read(dir .. "/r.html")
    os.execute("rm -rf " .. support.sh_quote(dir))
    -- the case met: 0 wins of 3 games
    assert.truthy(out:find("\nwin rate, seat 1 +0%.0000  %[0%.0000, 0%.5615%]\n"), out)
    assert.truthy(html:find("<tr><td>win rate, seat 1</td><td>0.0000</td><td>[0.0000, 0.5615]</td></tr>", 1, true),
      html)
    -- and every measure of the text's table: the same mean and interval
    local n = 0
    for label, mean, ci in out:gmatch("\n([%w][%w ,:_]-) +(%-?%d+%.%d%d%d%d)  (%[[^\n]-%])") do
      n = n + 1
      local row = string.format("<tr><td>%s</td><td>%s</td><td>%s</td></tr>", label, mean, ci)
      assert.truthy(html:find(row, 1, true), row)
    end
    assert.is_true(n >= 10, out)
    assert.falsy(html:find("<td>%-?%d+</td>"), "a figure without its decimals")
  end)
end)
