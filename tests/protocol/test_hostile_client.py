"""tests/protocol/test_hostile_client.py: `kontor serve` against a hostile or
careless client: lines too long for memory, bad set-ups, undo with bots.

Run by tests/protocol/test_serve.py (which picks up every test_*.py of this
folder and prints one TAP stream); alone:

    python3 tests/protocol/test_serve.py build/kontor build/kontor
"""

import json
import os
import subprocess
import tempfile

from test_serve import KONTOR, REFERENCE, Server, check, equal, fails, test


@test
def a_line_longer_than_memory_is_one_error():
    """a request line longer than the memory cap is a parse_error, and the games of the session go on"""
    # The cap covers the whole program: before, read("l") kept the whole
    # line and a line of 130 MiB under serve's 256 MiB cap ended the session
    # ("kontor: not enough memory", exit 1, every game lost). Here the cap
    # is 16 MiB and the line 24 MiB (tests/protocol/capped_serve.lua).
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        f.write('{"id": 1, "op": "new", "players": 2, "seed": 3}\n')
        long_line = '{"id": 2, "op": "hello", "pad": "' + "x" * (24 << 20) + '"}'
        f.write(long_line + "\n")
        f.write('{"id": 3, "op": "apply", "game": "g1", "action": "load fish on ship 1"}\n')
        f.write('{"id": 4, "op": "moves", "game": "g1"}')   # the last line without its newline
    try:
        out = subprocess.run([REFERENCE, "run", "tests/protocol/capped_serve.lua", f.name, "16"],
                             capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    equal((out.returncode, out.stderr), (0, ""), "exit status and stderr")
    lines = [json.loads(x) for x in out.stdout.splitlines()]
    equal(len(lines), 4, "responses")
    equal(lines[1], {"id": None, "ok": False, "error": {
        "code": "parse_error", "message": "request too long (%d bytes; the limit is 1048576)" % len(long_line)}},
        "the long line's response")
    equal(lines[3]["result"], {"moves": [{"seat": 1, "text": "load fish on ship 1"}]}, "the game after it")


@test
def a_bad_scenario_names_the_field_without_a_traceback():
    """new with a bad scenario: game_setup with the rule set's message, no traceback or server paths"""
    with Server(KONTOR) as s:
        for rules, scenario, want in [
                ("sea_merchants", {"coins": "x"},
                 "setting up sea_merchants failed: scenario: market must list 6 product names, one per slot"),
                ("caribbean", {"x": 1}, "setting up caribbean failed: scenario: unknown field 'x'"),
                ("old_world", {"x": 1}, "setting up old_world failed: scenario: unknown field 'x'")]:
            msg = fails(s, "game_setup", "new", rules=rules, players=2, scenario=scenario)
            equal(msg, want, "the message for %s" % rules)
        equal(s.call("games")["games"], [], "no game was opened")


@test
def undo_leaves_the_bots_moves_before_any_persons():
    """undo with no move of a person to take back takes nothing (it took every bot's move back to the start)"""
    with Server(KONTOR) as s:
        # seat 1 a bot, seat 2 a person who has not moved yet
        started = s.call("new", rules="caribbean", players=2, seed=4, bots={"1": "random"})
        game = started["game"]
        before = s.call("moves", game=game)["moves"]
        equal(before, [{"seat": 1, "text": "reveal"}, {"seat": 1, "text": "stop"}, {"seat": 1, "text": "take nothing"}],
              "the bot's moves")
        u = s.call("undo", game=game)
        equal(u["undone"], [], "undone")
        equal(u["decision"]["seats"], [2], "the person's decision")
        equal(s.call("moves", game=game)["moves"], before, "the moves after undo")
        # the person moves: undo takes that move back, and the bot's stay
        s.call("apply", game=game, action=1)
        u = s.call("undo", game=game, n=3)
        equal([m["seat"] for m in u["undone"]][:1], [2], "the person's move is the first taken back")
        equal(s.call("moves", game=game)["moves"], before, "the bot's moves are kept")
        # a game of bots alone: nothing to undo
        game = s.call("new", rules="caribbean", players=2, seed=3, bots={"1": "random", "2": "random"})["game"]
        n = len(s.call("moves", game=game)["moves"])
        total = s.call("log", game=game)["total"]
        equal(s.call("undo", game=game), {"undone": [], "decision": {"kind": "over", "options": [], "seats": []},
                                          "over": True, "only": 0, "log_total": total}, "undo in a game of bots")
        equal(len(s.call("moves", game=game)["moves"]), n, "the moves")


@test
def bot_in_a_chance_decision_says_why():
    """bot while chance decides (manual_chance): a message naming chance and seat 0, not 'seat ?'"""
    with Server(KONTOR) as s:
        game = s.call("new", rules="old_world", players=2, seed=3, manual_chance=True)["game"]
        d = s.call("decision", game=game)
        equal((d["kind"], d["seats"]), ("chance", [0]), "the decision")
        equal(fails(s, "illegal_action", "bot", game=game),
              'no seat decides now: chance does (manual_chance): apply one of its options with "seat": 0',
              "the message")
        equal(fails(s, "illegal_action", "bot", game=game, seat=2), "seat 2 has no decision now", "with a seat")
        r = s.call("apply", game=game, action=1, seat=0)
        equal(r["steps"], [{"seat": 0, "text": "Player 1", "bot": False}], "chance's step")


@test
def a_nul_in_a_request_is_named_in_plain_words():
    """a \\u0000 in a request: a parse_error in the client's words, not jansson's flag JSON_ALLOW_NUL"""
    with Server(KONTOR) as s:
        resp = s.send_line('{"id": "a\\u0000b", "op": "hello"}')
        s.validate(resp, "error.json")
        equal(resp, {"id": None, "ok": False, "error": {"code": "parse_error", "message":
              "not JSON: line 1, column 17: \\u0000 is not allowed in a request near '\"a\\u0000b\"'"}}, "response")
        equal(s.call("hello")["protocol"], 1, "the session goes on")


@test
def an_option_number_for_several_seats_asks_for_seat():
    """apply or why with an option number while several seats decide: the message says "seat", not g:apply(1, 1)"""
    with Server(KONTOR) as s:
        game = s.call("new", rules="old_world", players=2, seed=5)["game"]
        want = 'several seats choose at once (1, 2): say which with "seat", e.g. {"action": 1, "seat": 1}'
        equal(fails(s, "illegal_action", "apply", game=game, action=1), want, "apply")
        equal(s.call("why", game=game, action=1), {"legal": False, "message": want}, "why")
        # a text gets the text's example, as before
        equal(fails(s, "illegal_action", "apply", game=game, action="bid 0"),
              "'bid 0': several seats choose at once (1, 2): say which, e.g. '1: bid 0'", "a text")
        equal(s.call("moves", game=game)["moves"], [], "nothing was applied")


LOOPING_BOT_STEP = '''-- a rule set whose option "loop" never ends
local R = { name = "loops", title = "Loops", summary = "a step that loops",
  players = { min = 2, max = 2, default = 2 } }
function R.setup(g) g.n = 0 end
function R.play(g)
  while true do
    for p = 1, 2 do
      if g:choose(p, "turn", { "step", "loop" }) == 2 then while true do end end
      g.n = g.n + 1
      if g.n > 50 then return end
    end
  end
end
function R.scores(g) return { g.n, 0 } end
return R
'''


@test
def a_bots_limit_is_named_in_bot_error():
    """a bot's step that reaches the time limit: bot_error has limit "time", as the error of a request has"""
    with tempfile.TemporaryDirectory() as d:
        rules = os.path.join(d, "loops.lua")
        with open(rules, "w") as f:
            f.write(LOOPING_BOT_STEP)
        with Server(KONTOR) as s:
            game = s.call("new", rules=rules, seed=1, bots={"2": "random"})["game"]
            for _ in range(20):   # the random bot takes "loop" sooner or later
                r = s.call("apply", game=game, seat=1, action="step")
                if "bot_error" in r:
                    break
            err = r["bot_error"]
            equal((err["code"], err.get("limit")), ("script_error", "time"), "the bot's error")
            check(err["message"].startswith("time limit reached (0.5 s of CPU per step)"), err["message"])
            equal(r["decision"]["seats"], [2], "the bot's decision, as before its step")
            msg = fails(s, "script_error", "apply", game=game, seat=2, action="loop")
            check(msg.startswith("time limit reached"), msg)


@test
def apply_without_seat_in_secret_orders_lists_its_own_step():
    """apply "1: acquire none" without seat during secret orders: steps lists the step it took (it was [])"""
    with Server(KONTOR) as s:
        game = s.call("new", rules="old_world", players=2, seed=5, bots={"2": "random"})["game"]
        r = s.call("apply", game=game, action="1: bid 0")
        equal(r["decision"]["kind"], "orders", "the decision after the bids")
        r = s.call("apply", game=game, action="1: acquire none")
        equal(r["steps"], [{"seat": 1, "text": "acquire none", "bot": False}], "the steps")
        # the bot's order stays out of the reply until the orders are revealed
        bot_steps = [m for m in s.call("moves", game=game)["moves"] if m["seat"] == 2]
        check(len(bot_steps) > 1, "the bot has entered its order")
        equal(s.call("moves", game=game, seat=1)["moves"][-1], {"seat": 1, "text": "acquire none"}, "seat 1's moves")


@test
def a_misspelt_variant_field_or_an_object_option_is_refused():
    """variants [{"name": ..., "option": ...}] and an option given an object: bad_request naming them"""
    with Server(KONTOR) as s:
        # before: "option" was ignored and the game started with size 6
        equal(fails(s, "bad_request", "new", False, players=2, variants=[{"name": "hand_limit", "option": {"size": 1}}]),
              '"variants"[1]: unknown field "option" (fields: name, options)', "a misspelt field")
        # before: "option start_coins of sea_merchants: 'table: 0x55...' is not a whole number"
        equal(fails(s, "bad_request", "new", False, players=2, options={"start_coins": {"x": 1}}),
              '"options": "start_coins" must be a number, a text, true/false or an array, not an object',
              "an object for an option")
        equal(fails(s, "bad_request", "new", False, variants=[{"name": "hand_limit", "options": {"size": {}}}]),
              '"variants"[1] options: "size" must be a number, a text, true/false or an array, not an object',
              "an object for a variant's option")
        equal(s.call("games")["games"], [], "no game was opened")
        g = s.call("new", players=2, seed=1, variants=[{"name": "hand_limit", "options": {"size": 4}}])
        equal(g["variants"], [{"name": "hand_limit", "options": {"size": 4}}], "a good variant")
