-- A rule set whose texts carry terminal control sequences (tests/lua/
-- repl_spec.lua): a window title, an OSC 52 clipboard write, a clear screen
-- with a fake prompt, a bell. Every front end must print them escaped.
local T = "\27]0;pwned\7"                    -- set the window title
local CLIP = "\27]52;c;cm0gLXJmIH4=\7"        -- write the clipboard
local CLEAR = "\27[2J\27[H$ "                 -- clear the screen, fake prompt
local R = {
  name = "hostile_text",
  title = "Hostile" .. T,
  summary = "summary" .. CLEAR,
  players = { min = 2, max = 2, default = 2 },
}

function R.setup(g) g.n = 0 end

function R.play(g)
  g:log("log" .. CLIP)
  local opts = { "take" .. CLEAR, "pass" }
  while g.n < 2 do
    local k = g:choose(1, "pick" .. T, opts)
    g.n = g.n + 1
    g:log("picked %d%s", k, "\7\27[31m")
  end
end

function R.board(g) return "board" .. T .. "\nline 2" end
function R.scores() return { 1, 2 } end

return R
