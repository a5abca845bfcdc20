-- kontor.repl: a Lua prompt with a game loaded (lua.c's conventions).
--
-- A line is first tried as an expression (so `1+1` and `g` print), `=expr`
-- works too, input that ends early (`<eof>`) continues on the next line,
-- errors print a short traceback and the prompt comes back. Ctrl-C stops
-- what is running, Ctrl-D leaves.

local core = require "kontor.core"
local dump = require "kontor.dump"
local term = core.term
local csb = core.sandbox

local M = {}

local HELP = [[
The current game is `g`. Lua works as usual; besides:
  g                  the board            g:options()    the legal options
  g:apply("text")    do an option (by its text or number)
  g:why("text")      why an action is illegal      g:undo()  g:redo()
  g:log()            the event log        g:moves()      the moves so far
  g:view(seat)       what a seat sees     g:state()      the full state
  g:save("f.json")   save                 kontor.load_game("f.json")
  g:reload()         re-read the rule scripts and replay the game
  new{players=3, seed=2, rules="sea_merchants"}  a new game (sets g)
  help               this text]]

local function is_game(v)
  return type(v) == "table" and getmetatable(v) == require("kontor.game").Game
end

local function show(v)
  if is_game(v) then return v:show() end
  return dump.pretty(v)
end

local function incomplete(msg)
  return type(msg) == "string" and msg:sub(-5) == "<eof>"
end

local function compile(src)
  local f = load("return " .. src, "=stdin", "t")
  if f then return f end
  return load(src, "=stdin", "t")
end

local function traceback(m)
  if type(m) ~= "string" then m = "(error object is a " .. type(m) .. " value)" end
  return debug.traceback(m, 2):gsub("\n%s*%[C%]: in %?", "")
end

local function eval(f)
  csb.catch_sigint(true)
  local res = table.pack(xpcall(f, traceback))
  csb.catch_sigint(false)
  return res
end

function M.run(kontor, game)
  local tty = term.isatty(0) and term.isatty(1)
  _G.g = game
  _G.help = setmetatable({}, { __tostring = function() return HELP end })
  _G.new = function(t)
    t = t or {}
    if t.rules == nil then t.rules = _G.g and _G.g.params.rules end
    _G.g = kontor.new_game(t)
    return _G.g
  end
  local hist = (os.getenv("HOME") or ".") .. "/.kontor_history"
  if tty then
    term.load_history(hist)
    io.stdout:write(string.format("Kontor %s - %s, %d players. Type help for help, Ctrl-D to leave.\n",
      kontor.version, game.R.title or game.R.name, game.players))
  end
  local buffer = nil
  while true do
    local line = term.readline(tty and (buffer and ">> " or "> ") or "")
    if line == nil then break end
    if tty and line:match("%S") then term.add_history(line) end
    local src = buffer and (buffer .. "\n" .. line) or line
    if src:sub(1, 1) == "=" then src = "return " .. src:sub(2) end
    if src == "help" then src = "return help" end
    local f, msg = compile(src)
    if not f and incomplete(msg) then
      buffer = src
    else
      buffer = nil
      if not f then
        io.stdout:write(msg, "\n")
      else
        local res = eval(f)
        if not res[1] then
          io.stdout:write(tostring(res[2]), "\n")
        elseif res.n > 1 then
          local parts = {}
          for i = 2, res.n do
            local v = res[i]
            parts[#parts + 1] = (v == _G.help) and HELP or show(v)
          end
          io.stdout:write(table.concat(parts, "\t"), "\n")
        end
      end
    end
    io.stdout:flush()
  end
  if tty then term.save_history(hist); io.stdout:write("\n") end
  return 0
end

return M
