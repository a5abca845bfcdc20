"""tests/protocol/test_redteam2.py: the second red-team pass's holes in
`kontor serve` (docs/security.md, "Red team 2").

Run by tests/protocol/test_serve.py with the other protocol tests.
"""

import os

from test_serve import KONTOR, TMP, Server, check, equal, test

SECRET_RULES = """
local R = { name = "secret_var", title = "T", summary = "hostile",
  players = { min = 2, max = 2, default = 2 } }
local drawn = "nothing"       -- the mistake: a secret kept outside g
function R.setup(g)
  g.points = kontor.counter { n = g.players, min = 0 }
  g.deck = kontor.pile { vis = "hidden" }
  g.deck:push_all { 7, 3 }
end
function R.play(g)
  while true do
    for _, p in ipairs(g:turn_order(1)) do
      g:begin_turn(p)
      local k = g:choose(p, "turn", { "score 1", "pass" })
      drawn = "card " .. g.deck:cards()[1]   -- the card under the deck: no seat may see it
      if k == 1 and g.points:add(p, 1) >= 10 then return end
    end
  end
end
function R.scores(g) return g.points:values() end
return R
"""


@test
def a_seats_warnings_hold_no_secret_value():
    """serve: a module-level variable's warning to a seat (apply with seat) holds no value; the designer's does"""
    path = os.path.join(TMP, "secret_var.lua")
    with open(path, "w") as f:
        f.write(SECRET_RULES)
    with Server(KONTOR) as s:
        game = s.call("new", rules=path, players=2, seed=1)["game"]
        r = s.call("apply", game=game, seat=1, action="pass")
        equal(r.get("warnings"), [path + ":4: 'drawn', a module-level variable of R.play, changed as the game was "
              "played: undo, a saved game, a reload and the bots replay the steps without it and play another "
              "game; keep the game's state on g (docs/api.md)"], "seat 1's warnings")
        check("card 7" not in str(r), "the secret card reached seat 1: %s" % r)
        other = s.call("new", rules=path, players=2, seed=1)["game"]
        r = s.call("apply", game=other, action="pass")
        check("(\"nothing\" to \"card 7\")" in r["warnings"][0], "the designer's warning: %s" % r["warnings"])


ENDLESS_RULES = """
local R = { name = "endless_move", title = "T", summary = "every option asks for another step",
  players = { min = 2, max = 2, default = 2 } }
function R.setup(g) g.points = kontor.counter { n = g.players, min = 0 } end
function R.play(g)
  while true do
    g:begin_turn(1)
    local said = "go"
    while true do                   -- one move: each option's text extends the last
      g:choose(1, "say", { said .. " on" })
      said = said .. " on"
    end
  end
end
function R.scores(g) return g.points:values() end
return R
"""


@test
def a_bots_move_stops_within_its_step_cap():
    """serve: bot on a move that never ends stops at 1,000 steps with bot_error, the steps kept and counted"""
    path = os.path.join(TMP, "endless_move.lua")
    with open(path, "w") as f:
        f.write(ENDLESS_RULES)
    with Server(KONTOR) as s:
        game = s.call("new", rules=path, players=2, seed=1)["game"]
        r = s.call("bot", game=game, seat=1)
        equal(r["bot_error"]["code"], "script_error", "the bot's error")
        equal(r["bot_error"]["message"], "the bot's move did not end within 1000 steps: every option it took asked "
              "for another step (the steps it took stand; undo takes them back)", "its message")
        equal(len(r["steps"]), 1000, "the steps taken, in the reply")
