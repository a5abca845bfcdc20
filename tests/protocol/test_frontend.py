"""tests/protocol/test_frontend.py: what a front end's author found missing
or inconsistent in `kontor serve` (docs/protocol.md) while writing a client
that acts for seats.

Run by tests/protocol/test_serve.py with the other protocol tests.
"""

import json
import os

from test_serve import KONTOR, TMP, Server, equal, check, test


@test
def a_seats_save_leaves_out_what_the_seat_may_not_see():
    """save with seat is the seat's record (g:save(path, seat)): no seed while the game is on, no open secret of another"""
    # Before: save took no "seat" ("unknown field \"seat\" for 'save'"): a
    # front end that gave a player its record had to strip the seed (which
    # gives every hand back) and the others' open bids from the whole
    # game's document itself.
    with Server(KONTOR) as s:
        g = s.call("new", rules="old_world", players=2, seed=5)["game"]
        s.call("apply", game=g, seat=1, action="bid 2")
        whole = s.call("save", game=g)["document"]
        equal((whole["seed"], whole["actions"]), (5, ["1: bid 2"]), "the whole game's save")
        two = s.call("save", game=g, seat=2)
        equal(two["document"]["actions"], [], "seat 2's record: seat 1's open bid left out")
        equal((two["document"]["seat"], "seed" in two["document"]), (2, False), "seat 2's record: no seed")
        one = s.call("save", game=g, seat=1)["document"]
        equal((one["seat"], one["actions"], "seed" in one), (1, ["1: bid 2"], False), "seat 1's record: its own bid")
        err = s.request("load", document=two["document"])["error"]
        equal(err["code"], "game_setup", "a seat's record of a game in progress does not load")
        check(err["message"].startswith("document: seat 2's record of a game in progress"), err["message"])
        path = os.path.join(TMP, "frontend_seat2.json")
        equal(s.call("save", game=g, seat=2, path=path), {"moves": 1, "path": path}, "save to a file")
        with open(path) as f:
            equal(json.load(f)["actions"], [], "the file: seat 2's record")
        equal(s.request("save", game=g, seat=3)["error"]["code"], "no_such_seat", "a seat the game does not have")


# A secret order of two steps whose options describe themselves by the
# step's decision name (R.describe_option gets it), to tell the names apart.
TWO_STEPS = '''
local R = { name = "two_steps", title = "Two steps", summary = "test: a secret order of two named steps",
  players = { min = 2, max = 2, default = 2 } }
function R.setup(g) end
local function enter(g, seat)
  local a = g:choose(seat, "pick a colour", { "red", "blue" })
  local b = g:choose(seat, "pick a size", { "small", "large" })
  return { a, b }
end
function R.play(g)
  g:choose_orders({ 1, 2 }, "order", enter)
end
function R.describe_option(g, seat, decision, text) return decision .. ": " .. text end
function R.scores() return { 0, 0 } end
return R
'''


@test
def an_order_says_each_seats_step_and_describes_by_it():
    """orders: the decision names each listed seat's step in "steps", and its options are described by that step, with seat or without"""
    # Before: the step's name (g:decision().steps, v.now().step in the
    # module) was not in the protocol, and asked with "seat" the options
    # were described by the order's name ("order: red"), without seat by
    # the step's ("pick a colour: red").
    path = os.path.join(TMP, "two_steps.lua")
    with open(path, "w") as f:
        f.write(TWO_STEPS)
    with Server(KONTOR) as s:
        g = s.call("new", rules=path, seed=1)["game"]
        d = s.call("decision", game=g)
        equal((d["kind"], d["name"], d["steps"]), ("orders", "order", {"1": "pick a colour", "2": "pick a colour"}),
              "every seat's step")
        equal([o["description"] for o in d["options"]], ["pick a colour: red", "pick a colour: blue"] * 2,
              "described by the step")
        res = s.call("apply", game=g, seat=1, action="red")
        equal(res["decision"]["steps"], {"1": "pick a size"}, "seat 1's own step only, in its reply")
        equal([o["description"] for o in res["decision"]["options"]], ["pick a size: small", "pick a size: large"],
              "seat 1's options, described by its step")
        two = s.call("decision", game=g, seat=2)
        equal((two["steps"], two["options"][0]["description"]), ({"2": "pick a colour"}, "pick a colour: red"),
              "seat 2 asks: its own step, not seat 1's")
        equal(s.call("decision", game=g)["steps"], {"1": "pick a size", "2": "pick a colour"}, "each at its own step")
        check("steps" not in s.call("new", players=2, seed=1)["decision"], "no steps outside secret orders")


@test
def list_gives_the_bot_kinds_and_their_options():
    """list has "bots": each kind new's bots, bot and hint take, with its options, as data"""
    # Before: the kinds were only in an error's text ("unknown bot 'x'
    # (bots: random, greedy, mcts)"): a front end offering to seat a bot
    # had to hard-code them or parse a message.
    with Server(KONTOR) as s:
        kinds = s.call("list")["bots"]
        equal([k["name"] for k in kinds], ["random", "greedy", "mcts"], "the kinds, in docs/bots.md's order")
        mcts = {o["name"]: o for o in kinds[2]["options"]}
        equal(mcts["iterations"], {"name": "iterations", "type": "integer", "default": 1000, "min": 1,
                                   "max": 10000000, "doc": "search iterations per decision (counted, not timed)"},
              "mcts's iterations")
        equal((mcts["c"]["type"], mcts["avoid"]["type"]), ("float", "string"), "option types as the protocol names them")
        equal([o["name"] for o in kinds[0]["options"]], ["avoid", "prefer"], "random takes restrictions only")
        g = s.call("new", players=2, seed=3, bots={"2": kinds[1]["name"]})["game"]
        hint = s.call("hint", game=g, seat=1, kind="%s:iterations=20" % kinds[2]["name"])
        check(hint["lines"][0].startswith("The mcts:iterations=20 bot would play: "), hint["lines"][0])


@test
def undo_says_where_the_log_ends_now():
    """undo's result has log_total: the log lines of the moves taken back are gone, and redo's log goes on from there"""
    # Before: undo said nothing of the log, which lost the lines of the
    # moves taken back; a client keeping the lines progress gave showed
    # them still, and twice after a redo.
    with Server(KONTOR) as s:
        started = s.call("new", players=2, seed=3, bots={"2": "random"})
        g, kept = started["game"], list(started["log"])
        kept += s.call("apply", game=g, action="load grain on ship 1")["log"]
        equal(kept, ["Player 1 loads grain on ship 1", "Player 2 loads porcelain on ship 2"], "two lines kept")
        u = s.call("undo", game=g)
        equal(u["log_total"], 0, "undo: the log is empty again")
        kept = kept[:u["log_total"]]
        kept += s.call("redo", game=g)["log"]
        equal(kept, s.call("log", game=g)["lines"], "the lines kept are the log")
        equal(s.call("undo", game=g, seat=1)["log_total"], 0, "undo with seat too")
        equal(s.call("undo", game=g)["log_total"], 0, "nothing to take back: the log as it is")


@test
def seat_0_is_chance_only_with_manual_chance():
    """seat 0 is no_such_seat in every op unless the game has manual_chance, where apply, why and decision take it"""
    # Before: without manual_chance, apply, why and decision took seat 0
    # ("seat chance has no decision now", {"legal": false, ...}, a decision
    # with no options) while view, moves and undo refused it: the docs say
    # chance is seat 0 only with manual_chance.
    no_seat = {"code": "no_such_seat", "message": "no seat '0' (seats: 1 Player 1, 2 Player 2)"}
    with Server(KONTOR) as s:
        g = s.call("new", players=2, seed=3)["game"]
        for op, fields in (("apply", {"action": 1}), ("why", {"action": "x"}), ("decision", {}), ("view", {}),
                           ("moves", {}), ("undo", {})):
            equal(s.request(op, game=g, seat=0, **fields)["error"], no_seat, op + " with seat 0")
        c = s.call("new", rules="old_world", players=2, seed=3, manual_chance=True)["game"]
        d = s.call("decision", game=c, seat=0)
        equal((d["kind"], d["seats"], d["options"][0]["seat"]), ("chance", [0], 0), "chance's decision")
        equal(s.call("why", game=c, seat=0, action=1), {"legal": True}, "why for chance")
        equal(s.call("apply", game=c, seat=0, action=1)["steps"], [{"seat": 0, "text": "Player 1", "bot": False}],
              "chance's step")


BOOM = '''
local R = { name = "boom", title = "Boom", summary = "test: the first option fails", players = { min = 2, max = 2 } }
function R.setup(g) end
local function fail_now() error("boom on purpose") end
function R.play(g)
  if g:choose(1, "first", { "boom", "fine" }) == 1 then fail_now() end
  g:choose(2, "second", { "end" })
end
function R.scores() return { 1, 0 } end
return R
'''


@test
def a_script_error_is_the_scripts_line_without_a_traceback():
    """script_error: the message is the script's file:line and its words, without a traceback; the game is unchanged"""
    # docs/protocol.md said "with a traceback": a front end that cut the
    # message at "stack traceback:" found none to cut.
    path = os.path.join(TMP, "boom.lua")
    with open(path, "w") as f:
        f.write(BOOM)
    with Server(KONTOR) as s:
        g = s.call("new", rules=path, seed=1)["game"]
        err = s.request("apply", game=g, action="boom")["error"]
        equal(err, {"code": "script_error", "message": path + ":4: boom on purpose"}, "the error")
        equal(s.call("moves", game=g)["moves"], [], "nothing was played")
        equal(s.call("apply", game=g, action="fine")["steps"], [{"seat": 1, "text": "fine", "bot": False}], "then")


@test
def control_characters_stay_in_texts_but_a_refused_name_shows_them_escaped():
    """an action echoed back keeps its ESC (JSON's \\u001b); a refused name shows it as \\e (docs/protocol.md)"""
    with Server(KONTOR) as s:
        err = s.request("new", rules="sea_merchants", players=2, names=["A\x1b[2J", "B"])["error"]
        equal((err["code"], err["message"]),
              ("game_setup", "name 1 must be at most 40 printable characters, not 'A\\e[2J'"), "a refused name")
        g = s.call("new", rules="sea_merchants", players=2, seed=1)["game"]
        err = s.request("apply", game=g, seat=1, action="load\x1b[2J grain")["error"]
        equal(err["code"], "illegal_action", "an action with ESC")
        check(err["message"].startswith("'load\x1b[2J grain' is not a legal action"), err["message"])


@test
def names_that_are_not_texts_are_the_requests_mistake():
    """new with "names": [1, 2] is a bad_request (new.request.json: an array of texts), an empty name the game's"""
    # Before: game_setup "name 1 must be a non-empty string", as for a text
    # the game refuses, though the request broke its schema.
    with Server(KONTOR) as s:
        for names, what in (([1, 2], "name 1 is a number"), (["A", None], "name 2 is null"),
                            (["A", {"x": 1}], "name 2 is an object")):
            err = s.request("new", _valid=False, rules="sea_merchants", players=2, names=names)["error"]
            equal((err["code"], err["message"]),
                  ("bad_request", "\"names\" must be an array of texts: " + what), repr(names))
        err = s.request("new", rules="sea_merchants", players=2, names=["A", ""])["error"]
        equal((err["code"], err["message"]), ("game_setup", "name 2 must be a non-empty string"), "an empty name")
