-- tests/repl/tmux.lua: drive a program in a pseudo-terminal through tmux.
--
--   local tmux = dofile("tests/repl/tmux.lua")
--   if not tmux.available() then ... skip ... end
--   local t = tmux.start("build/kontor --players 3", { HOME = dir, NO_COLOR = nil })
--   t:send("g:op", "Tab")           -- tmux key names: Tab, Enter, C-c, C-d, Up
--   t:wait_for("g:options%(")       -- polls the screen (a Lua pattern) up to 5 s
--   t:list_with_tab("cloth")        -- Tab, Tab (again if need be): the list shown
--   t:screen(true)                  -- the screen, with escape codes when true
--   t:history()                     -- the screen and the scrollback above it
--   t:signal("STOP")                -- hold the program (and "CONT" to go on)
--   t:wait_cpu(t:cpu(), 0.2)        -- until the program has run 0.2 s of CPU more
--   t:stop()
--
-- Each session runs on its own tmux server socket, so tests never touch a
-- user's tmux.

local M = {}

local function q(s) return "'" .. tostring(s):gsub("'", "'\\''") .. "'" end

local function run(cmd)
  local p = assert(io.popen(cmd .. " 2>&1"))
  local out = p:read("a")
  p:close()
  return out
end

function M.available()
  return os.execute("command -v tmux >/dev/null 2>&1") == true
end

local T = {}
T.__index = T

local counter = 0

-- Starts `cmd` (run by sh in the current directory) with `env` added.
function M.start(cmd, env, width, height)
  counter = counter + 1
  -- a name no other process takes: busted seeds math.random with the time
  -- in seconds, so two suites started in the same second drew the same
  -- number, and the second's tmux said "duplicate session: k"
  local uniq = os.tmpname()
  os.remove(uniq)
  local id = string.format("kontor-test-%s-%d", uniq:match("([^/]+)$"):gsub("[^%w_]", "_"), counter)
  local envs = {}
  for k, v in pairs(env or {}) do envs[#envs + 1] = k .. "=" .. q(v) end
  local cwd = run("pwd"):gsub("%s+$", "")
  -- keep the pane open after the program ends, to read its last screen
  local full = string.format("cd %s && env %s TERM=xterm-256color %s; echo '[exit '$?']'; sleep 30",
    q(cwd), table.concat(envs, " "), cmd)
  local t = setmetatable({ sock = id, name = "k" }, T)
  os.execute(string.format("tmux -L %s -f /dev/null new-session -d -s k -x %d -y %d %s",
    id, width or 120, height or 40, q(full)))
  return t
end

function T:tmux(args) return run("tmux -L " .. self.sock .. " " .. args) end

-- Sends keys: each argument is a tmux key name (Enter, Tab, C-c) or, when it
-- has a space or is longer than a key name, literal text.
function T:send(...)
  for _, k in ipairs({ ... }) do
    local is_key = k:match("^[CM]%-.$") or k == "Enter" or k == "Tab" or k == "Up"
      or k == "Down" or k == "BSpace" or k == "Escape"
    if is_key then self:tmux("send-keys -t k " .. k)
    else self:tmux("send-keys -t k -l " .. q(k)) end
  end
end

-- The visible screen, without the blank lines at its end (capture-pane also
-- drops the spaces at the end of each line: a prompt "> " reads ">").
function T:screen(escapes)
  local s = self:tmux("capture-pane -p " .. (escapes and "-e " or "") .. "-t k")
  return (s:gsub("%s+$", ""))
end

-- The screen and all the scrollback above it (capture-pane -S -).
function T:history()
  local s = self:tmux("capture-pane -p -S - -t k")
  return (s:gsub("%s+$", ""))
end

-- Waits until the screen matches `pattern` (plain text when plain); returns
-- the screen, or nil and the last screen after `timeout` seconds.
--
-- The limit is wall-clock time, not a count of polls: on a loaded machine
-- each poll (a tmux process) can take longer than its sleep, and a count
-- of 100 polls once ran out before a prompt came (a CI run, "no prompt").
-- At least `tries` polls are made however slow each is.
function T:wait_for(pattern, timeout, plain, escapes)
  local deadline = os.time() + (timeout or 5) + 1
  local s
  local polls = 0
  repeat
    s = self:screen(escapes)
    if s:find(pattern, 1, plain) then return s end
    polls = polls + 1
    os.execute("sleep 0.05")
  until polls >= 20 and os.time() > deadline
  return nil, s
end

-- Presses Tab until the screen matches `pattern` (a list of completions,
-- which the second Tab of a row shows), at most `tries` more times, each
-- waiting up to `timeout` seconds; returns what wait_for returns. The
-- first Tab only completes what it can (and beeps). Once, in a CI run on
-- a loaded machine, the list had not shown 3 s after the second Tab (the
-- screen still read "> g."); pressing Tab again shows it, as it would for
-- a person, so a list not shown yet is asked for again before the test
-- fails.
function T:list_with_tab(pattern, plain, tries, timeout)
  self:send("Tab")
  local s, last
  for _ = 1, tries or 3 do
    self:send("Tab")
    s, last = self:wait_for(pattern, timeout or 3, plain)
    if s then return s end
  end
  return nil, last
end

-- The process id of the program the pane runs (the child of its shell).
function T:pid()
  local sh = self:tmux("display -p -t k '#{pane_pid}'"):match("%d+")
  local pid = sh and run("ps -o pid= --ppid " .. sh):match("%d+")
  assert(pid, "no program in the pane")
  return pid
end

-- Sends signal `sig` ("STOP", "CONT") to the program the pane runs: a
-- test holds the program to read the screen as it is before the program
-- answers.
function T:signal(sig)
  os.execute("kill -" .. sig .. " " .. self:pid())
end

local ticks   -- clock ticks a second, of /proc's times (getconf CLK_TCK)

-- The CPU time, in seconds, the program the pane runs has used so far
-- (user and system, /proc/PID/stat).
function T:cpu()
  ticks = ticks or tonumber(run("getconf CLK_TCK"):match("%d+")) or 100
  local f = assert(io.open("/proc/" .. self:pid() .. "/stat"))
  local stat = f:read("a")
  f:close()
  -- the fields after the command's name, which is in parentheses: state,
  -- then 10 more, then utime and stime (fields 14 and 15)
  local rest = stat:match("%) (.*)$")
  local fields = {}
  for w in rest:gmatch("%S+") do fields[#fields + 1] = w end
  return (tonumber(fields[12]) + tonumber(fields[13])) / ticks
end

-- Waits until the program has used `secs` seconds of CPU more than `from`
-- (what T:cpu() gave before): a command is running, well inside it, not
-- only typed. Not a fixed sleep: on a loaded machine a command can take
-- seconds of wall clock before it has run that long. True, or nil after
-- `timeout` seconds of wall clock (default 20).
function T:wait_cpu(from, secs, timeout)
  local deadline = os.time() + (timeout or 20) + 1
  repeat
    if self:cpu() - from >= secs then return true end
    os.execute("sleep 0.05")
  until os.time() > deadline
  return nil
end

function T:stop()
  self:tmux("kill-server")
end

return M
