#!/usr/bin/env python3
"""tests/protocol/test_serve.py: `kontor serve` driven from Python; prints TAP.

    python3 tests/protocol/test_serve.py [KONTOR [KONTOR_REFERENCE]]

KONTOR serves (default $KONTOR, else build/kontor); KONTOR_REFERENCE runs
the Lua reference (tests/protocol/replay.lua; default $KONTOR_PLAIN, else
build/kontor). Whole games of every rule set are played through the
protocol with random choices from a fixed seed and compared with the same
moves played in Lua; every message is validated against its schema.
"""

import json
import os
import random
import re
import subprocess
import sys
import tempfile
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from client import ProtocolError, SchemaError, Server, Validator  # noqa: E402

KONTOR = sys.argv[1] if len(sys.argv) > 1 else (os.environ.get("KONTOR") or "build/kontor")
REFERENCE = sys.argv[2] if len(sys.argv) > 2 else (os.environ.get("KONTOR_PLAIN") or "build/kontor")
TMP = tempfile.mkdtemp(prefix="kontor-protocol-")

GAMES = [
    # label, new-game fields, seed of the Python player's choices
    ("sea_merchants", dict(rules="sea_merchants", players=4, seed=101), 1),
    ("the house preset", dict(rules="sea_merchants", variants=["house"], players=3, seed=102), 2),
    ("caribbean", dict(rules="caribbean", players=3, seed=103), 3),
    ("port_royal", dict(rules="caribbean", variants=["port_royal"], players=4, seed=104), 4),
    ("old_world", dict(rules="old_world", players=3, seed=105), 5),
]

TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


def check(cond, msg):
    if not cond:
        raise AssertionError(msg)


def equal(a, b, what):
    if a != b:
        raise AssertionError("%s differ:\n  got      %s\n  expected %s" % (what, json.dumps(a)[:800], json.dumps(b)[:800]))


def fails(server, code, op, _valid=True, **fields):
    """The request fails with `code`; returns the message. _valid=False:
    the request's schema must refuse it too."""
    resp = server.request(op, _valid=_valid, **fields)
    check(not resp["ok"], "%s %r did not fail" % (op, fields))
    equal(resp["error"]["code"], code, "error codes (%s)" % resp["error"]["message"])
    return resp["error"]["message"]


def play_randomly(server, game, rng, seats=None, max_steps=20000):
    """Plays to the end: for each seat to decide (only `seats`, if given)
    an option at random, applied by its number or by its text. Returns the
    number of requests made."""
    requests = 0
    for _ in range(max_steps):
        d = server.call("decision", game=game)
        requests += 1
        if d["kind"] == "over":
            return requests
        check(d["kind"] in ("player", "simultaneous", "orders"), "unexpected decision %r" % d["kind"])
        seat = d["seats"][0]
        if seats is not None:
            check(seat in seats, "seat %d decides but is a bot's" % seat)
        opts = [o for o in d["options"] if o["seat"] == seat]
        check(len(opts) > 0, "no options for seat %d" % seat)
        check([o["n"] for o in opts] == list(range(1, len(opts) + 1)), "options are not numbered 1..n")
        pick = rng.choice(opts)
        action = pick["n"] if rng.random() < 0.5 else pick["text"]
        r = server.call("apply", game=game, action=action, seat=seat)
        requests += 1
        check(len(r["steps"]) >= 1 and r["steps"][0]["seat"] == seat, "the step applied is not reported")
    raise AssertionError("the game did not end within %d steps" % max_steps)


def lua_reference(summary, moves):
    """The same game played in Lua from its moves (tests/protocol/replay.lua)."""
    path = os.path.join(TMP, "game.json")
    with open(path, "w") as f:
        json.dump(dict(rules=summary["rules"], variants=summary["variants"], players=summary["players"],
                       seed=summary["seed"], moves=moves), f)
    out = subprocess.run([REFERENCE, "run", "tests/protocol/replay.lua", path], capture_output=True, text=True)
    check(out.returncode == 0, "replay.lua failed: %s" % (out.stdout + out.stderr)[-800:])
    return json.loads(out.stdout)


def finished_game(server, game):
    moves = server.call("moves", game=game)["moves"]
    result = server.call("result", game=game)
    log = server.call("log", game=game)
    view = server.call("view", game=game, seat=1)
    return moves, result, log, view


def compare_with_lua(server, game, summary):
    moves, result, log, view = finished_game(server, game)
    ref = lua_reference(summary, moves)
    check(ref["over"], "the Lua replay did not end")
    equal(result, ref["result"], "results (serve vs Lua)")
    equal(moves, ref["moves"], "moves (serve vs Lua)")
    equal(log["lines"], ref["log"], "logs (serve vs Lua)")
    equal(log["total"], len(ref["log"]), "log lengths")
    equal(view["view"], ref["view1"], "views of seat 1 (serve vs Lua)")
    return moves, result


FINISHED = {}


def whole_game(label, fields, seed):
    def run():
        with Server(KONTOR) as s:
            started = s.call("new", **fields)
            game = started["game"]
            n = play_randomly(s, game, random.Random(seed))
            moves, result = compare_with_lua(s, game, started)
            check(len(moves) > 20, "a short game: %d moves" % len(moves))
            # The save document loads back to the same game, in the same session.
            doc = s.call("save", game=game)["document"]
            again = s.call("load", document=doc)
            check(again["game"] != game and again["over"], "the loaded game is not over")
            equal(s.call("result", game=again["game"]), result, "results after save and load")
            FINISHED[label] = (fields, seed, moves, result)
            return "%d requests, %d moves, scores %s" % (n, len(moves), result["scores"])
    run.__doc__ = "a whole game of %s through serve equals the same moves played in Lua" % label
    return run


for g in GAMES:
    test(whole_game(*g))


@test
def several_games_at_once():
    """several games in one session, moved in turn, end as they do alone"""
    with Server(KONTOR) as s:
        ids, rngs = [], []
        for label, fields, seed in GAMES:
            ids.append(s.call("new", **fields)["game"])
            rngs.append(random.Random(seed))
        equal([g["game"] for g in s.call("games")["games"]], ids, "open games")
        live = set(range(len(ids)))
        while live:
            for i in sorted(live):
                d = s.call("decision", game=ids[i])
                if d["kind"] == "over":
                    live.discard(i)
                    continue
                seat = d["seats"][0]
                pick = rngs[i].choice([o for o in d["options"] if o["seat"] == seat])
                s.call("apply", game=ids[i], action=pick["n"] if rngs[i].random() < 0.5 else pick["text"], seat=seat)
        for i, (label, _, _) in enumerate(GAMES):
            if label in FINISHED:
                equal(s.call("moves", game=ids[i])["moves"], FINISHED[label][2], "moves of %s" % label)
                equal(s.call("result", game=ids[i]), FINISHED[label][3], "result of %s" % label)
        equal(s.call("close", game=ids[0]), {"closed": ids[0]}, "close")
        msg = fails(s, "unknown_game", "decision", game=ids[0])
        equal(msg, "no game '%s' (games: %s)" % (ids[0], ", ".join(ids[1:])), "the unknown-game message")


@test
def bots_play_their_seats():
    """with bots on seats 2 and 3, the client plays seat 1 only; the bots' steps are marked and replay in Lua"""
    results = []
    for _ in range(2):
        with Server(KONTOR) as s:
            started = s.call("new", rules="sea_merchants", players=3, seed=7, bots={"2": "random", "3": "random"})
            equal(started["bots"], {"2": "random", "3": "random"}, "bots")
            game = started["game"]
            rng = random.Random(5)
            bot_steps = 0
            while True:
                d = s.call("decision", game=game)
                if d["kind"] == "over":
                    break
                equal(d["seats"], [1], "the seat to decide")
                r = s.call("apply", game=game, action=rng.choice(d["options"])["n"])
                check(r["steps"][0]["bot"] is False, "the client's step is marked as a bot's")
                bot_steps += sum(1 for st in r["steps"] if st["bot"])
                check(all(st["bot"] for st in r["steps"] if st["seat"] != 1), "a bot's step is not marked")
            check(bot_steps > 20, "the bots played %d steps" % bot_steps)
            results.append(compare_with_lua(s, game, started))
    equal(results[0], results[1], "two sessions with the same requests")


@test
def secret_bids():
    """a simultaneous decision: bots' pending bids read (secret) until revealed; per-seat decisions and moves"""
    with Server(KONTOR) as s:
        started = s.call("new", rules="tests/rulesets/sealed_bid.lua", players=3, seed=4,
                         bots={"2": "random", "3": "random"})
        game = started["game"]
        equal([(st["seat"], st["text"]) for st in started["steps"]], [(2, "(secret)"), (3, "(secret)")],
              "the bots' bids before seat 1 has bid")
        d = s.call("decision", game=game, seat=1)
        equal((d["kind"], d["seats"], d["chosen"]), ("simultaneous", [1], [2, 3]), "the decision")
        check(all(o["seat"] == 1 for o in d["options"]), "another seat's options shown")
        equal(s.call("moves", game=game, seat=1)["moves"], [{"seat": 2, "text": "(secret)"},
                                                          {"seat": 3, "text": "(secret)"}], "moves seen by seat 1")
        check("(secret)" not in [m["text"] for m in s.call("moves", game=game)["moves"]], "moves seen by all")
        rng = random.Random(4)
        while True:
            d = s.call("decision", game=game, seat=1)
            if d["kind"] == "over":
                break
            s.call("apply", game=game, action=rng.choice(d["options"])["text"], seat=1)
        compare_with_lua(s, game, started)


@test
def secret_orders_move_count():
    """the move count every seat sees leaves out steps of secret orders not yet revealed"""
    with Server(KONTOR) as s:
        started = s.call("new", rules="tests/rulesets/secret_orders.lua", players=2, seed=1)
        game = started["game"]
        d = s.call("decision", game=game, seat=1)
        equal(d["kind"], "orders", "an order is open")
        before = s.call("save", game=game)["moves"]
        s.call("apply", game=game, action=d["options"][0]["text"], seat=1)
        equal(s.call("save", game=game)["moves"], before, "seat 1's unrevealed step is not counted")
        check(len(s.call("moves", game=game, seat=1)["moves"]) == before + 1, "seat 1 sees its own step")
        equal(len(s.call("moves", game=game, seat=2)["moves"]), before, "seat 2 does not")


@test
def bot_op_moves_for_a_seat():
    """'bot' makes one whole move for the seat to decide; a game of bots alone ends"""
    with Server(KONTOR) as s:
        started = s.call("new", rules="caribbean", players=2, seed=3)
        game = started["game"]
        r = s.call("bot", game=game)
        check(len(r["steps"]) >= 1 and all(st["bot"] for st in r["steps"]), "the bot's steps")
        for _ in range(5000):
            if s.call("bot", game=game)["over"]:
                break
        compare_with_lua(s, game, started)
        equal(fails(s, "illegal_action", "bot", game=game), "the game is over", "message")


@test
def undo_redo_why():
    """undo takes back a move, redo does it again, why explains"""
    with Server(KONTOR) as s:
        game = s.call("new", players=3, seed=5)["game"]
        before = s.call("decision", game=game)
        r = s.call("apply", game=game, action="load fish on ship 1")
        equal([st["text"] for st in r["steps"]], ["load", "load fish", "load fish on ship 1"][-len(r["steps"]):],
              "steps")
        after = s.call("decision", game=game)
        u = s.call("undo", game=game)
        equal(u["undone"], [{"seat": 1, "text": "load fish on ship 1"}], "undone")
        equal(u["decision"], before, "the decision after undo")
        rd = s.call("redo", game=game)
        equal(rd["decision"], after, "the decision after redo")
        equal(s.call("undo", game=game, n=5)["undone"], [{"seat": 1, "text": "load fish on ship 1"}], "undo 5")
        equal(s.call("undo", game=game)["undone"], [], "nothing to undo")
        equal(s.call("why", game=game, action="load fish on ship 1"), {"legal": True}, "a legal action")
        w = s.call("why", game=game, action="buy dock")
        check(not w["legal"] and w["message"].startswith("'buy dock' is not a legal action"), w["message"])
        equal(s.call("moves", game=game)["moves"], [], "why changed nothing")


@test
def save_and_load_files():
    """save to a file and load it; a missing file is an io_error"""
    with Server(KONTOR) as s:
        game = s.call("new", rules="sea_merchants", variants=["hand_limit:size=4"], players=3, seed=9)["game"]
        rng = random.Random(9)
        for _ in range(12):
            d = s.call("decision", game=game)
            s.call("apply", game=game, action=rng.choice(d["options"])["text"], seat=d["seats"][0])
        path = os.path.join(TMP, "save.json")
        saved = s.call("save", game=game, path=path)
        equal(saved["path"], path, "path")
        loaded = s.call("load", path=path, game="again")
        equal(loaded["game"], "again", "the game id asked for")
        equal([(v["name"], str(v["options"]["size"])) for v in loaded["variants"]], [("hand_limit", "4")],
              "variants")
        equal(s.call("moves", game="again"), s.call("moves", game=game), "moves after load")
        equal(s.call("view", game="again", seat=2), s.call("view", game=game, seat=2), "views after load")
        missing = os.path.join(TMP, "missing.json")
        fails(s, "io_error", "load", path=missing)
        fails(s, "bad_request", "load", path=path, game="again")



@test
def the_engine_keeps_the_bounds():
    """documents pass the save file's checks; log's from, bot seats; a fresh seed"""
    outside = os.path.join(TMP, "outside.lua")
    with open(outside, "w") as f:
        f.write("return {}\n")
    with Server(KONTOR) as s:
        for rules, why in [("/etc/passwd", "document: rule set /etc/passwd: a save may name only .lua rule files"),
                           ("/dev/stdin", "document: rule set /dev/stdin: a save may name only .lua rule files"),
                           (outside, "document: rule set %s: refused: outside the folders a save may name" % outside)]:
            doc = {"format": "kontor-save", "version": 1, "rules": rules, "players": 2, "seed": 1, "actions": []}
            msg = fails(s, "game_setup", "load", document=doc)
            check(msg.startswith(why), msg)
        game = s.call("new", players=2, seed=1)["game"]
        log = s.call("log", game=game, **{"from": 2 ** 63 - 1})
        equal(log["lines"], [], "log from the largest integer")
        equal(log["total"], len(s.call("log", game=game)["lines"]), "total")
        for key, seat in [("01", 1), ("0x2", 2), ("+1", 1), ("1.0", 1)]:
            msg = fails(s, "bad_request", "new", players=2, seed=1, bots={key: "random"})
            equal(msg, '"bots": a seat is written as a plain number in a string: "%d", not "%s"' % (seat, key),
                  "message")
        msg = fails(s, "bad_request", "new", players=2, seed=1, bots={"03": "random"})
        equal(msg, '"bots": there is no seat 03 (the game has 2 players)', "no such seat, however written")
        seeds = [s.call("new", players=2)["seed"] for _ in range(2)]
        check(all(isinstance(x, int) and 1 <= x < 2 ** 53 for x in seeds), seeds)
        check(seeds[0] != seeds[1], "two games without a seed got the same seed %d" % seeds[0])

def repl_says(args, commands):
    """What the REPL prints for `commands`, read from a pipe."""
    out = subprocess.run([REFERENCE] + args, input="\n".join(commands) + "\n", capture_output=True, text=True)
    return out.stdout.splitlines()


@test
def errors_carry_the_repls_messages():
    """illegal actions, unknown rule sets and seats: the REPL's messages, with codes"""
    with Server(KONTOR) as s:
        game = s.call("new", players=3, seed=5)["game"]
        said = repl_says(["--players", "3", "--seed", "5"],
                         ["do exchange ship 5", "new rules=nosuch", "view 9", "new players=9"])
        equal(fails(s, "illegal_action", "apply", game=game, action="exchange ship 5"), said[0], "illegal action")
        equal(fails(s, "game_setup", "new", rules="nosuch"), said[1], "unknown rule set")
        equal(fails(s, "no_such_seat", "view", game=game, seat=9), said[2], "unknown seat")
        equal(fails(s, "game_setup", "new", players=9), said[3], "player count")
        fails(s, "illegal_action", "apply", game=game, action=99)
        fails(s, "game_setup", "new", variants=["hand_limit:size"])
        fails(s, "not_over", "result", game=game)
        fails(s, "unknown_game", "apply", game="nope", action=1)
        fails(s, "bad_request", "apply", False, game=game)
        fails(s, "bad_request", "apply", False, game=game, action=1.5)
        fails(s, "bad_request", "undo", False, game=game, n=0)
        fails(s, "bad_request", "new", False, players=3, colour="red")


@test
def rule_script_errors_and_limits():
    """a rule script's error or an endless loop is a script_error, and the game is unchanged"""
    with Server(KONTOR) as s:
        game = s.call("new", rules="tests/hostile/attack.lua", seed=5)["game"]
        s.call("apply", game=game, action="safe")
        before = s.call("view", game=game)
        msg = fails(s, "script_error", "apply", game=game, action="loop in __index")
        check(re.match(r"\w+ limit reached", msg), msg)
        msg = fails(s, "script_error", "apply", game=game, action="error nil")
        check(msg.startswith("(error object is a nil value)"), msg)
        equal(s.call("view", game=game), before, "the game after the failed steps")
        s.call("apply", game=game, action="safe")
        equal(s.call("log", game=game)["total"], 2, "log lines")
        # A bot's failing step: the request stands, the failure is reported.
        started = s.call("new", rules="tests/hostile/attack.lua", seed=3, bots={"1": "random"})
        check("bot_error" in started, "no bot_error")
        equal(started["bot_error"]["code"], "script_error", "the bot's error code")
        equal(s.call("moves", game=started["game"])["moves"],
              [{"seat": st["seat"], "text": st["text"]} for st in started["steps"]],
              "the moves kept: the bot's steps before the failing one")


@test
def malformed_lines():
    """a line that is not a request gets an error, and the session goes on"""
    with Server(KONTOR) as s:
        cases = [
            ("garbage", None, "parse_error"),
            ('{"id": 1, "op": "hello"', None, "parse_error"),
            ('[1, 2]', None, "bad_request"),
            ('"hello"', None, "bad_request"),
            ('{"op": "hello"}', None, "bad_request"),
            ('{"id": 1.5, "op": "hello"}', None, "bad_request"),
            ('{"id": [1], "op": "hello"}', None, "bad_request"),
            ('{"id": 3}', 3, "bad_request"),
            ('{"id": 4, "op": 5}', 4, "bad_request"),
            ('{"id": "x", "op": "fly"}', "x", "unknown_op"),
            ('{"id": 6, "op": "new", "player": 3}', 6, "bad_request"),
            ('{"id": 7, "op": "new", "players": "3"}', 7, "bad_request"),
            ('{"id": 8, "op": "new", "variants": [3]}', 8, "bad_request"),
            ('{"id": 9, "op": "hello", "id": 9}', None, "parse_error"),
            ('{"id": 10, "op": "new", "bots": {"9": "random"}}', 10, "bad_request"),
            ('{"id": 11, "op": "new", "bots": {"2": "genius"}}', 11, "bad_request"),
            ("{" * 100000, None, "parse_error"),
            ('{"id": 12, "op": "hello", "pad": "' + "x" * (1 << 20) + '"}', None, "parse_error"),
        ]
        for line, rid, code in cases:
            resp = s.send_line(line)
            s.validate(resp, "error.json")
            equal((resp["id"], resp["error"]["code"]), (rid, code), "id and code for %r" % line[:60])
        equal(s.send_line('{"id":"x","op":"fly"}')["error"]["message"].split(" (")[0], "unknown op 'fly'", "message")
        # Blank lines are skipped; the session still answers.
        s.proc.stdin.write("\n   \n")
        equal(s.call("hello")["protocol"], 1, "protocol after the bad lines")
        check(s.close() == 0, "serve did not exit 0 at the end of its input")


@test
def lists_rule_sets_and_variants():
    """list: the rule sets with their players and options, the variants with their base and options"""
    with Server(KONTOR) as s:
        hello = s.call("hello")
        check({"new", "apply", "undo", "redo", "why", "save", "load", "bot", "view", "decision"} <= set(hello["ops"]),
              hello["ops"])
        lst = s.call("list")
        rules = {r["name"]: r for r in lst["rule_sets"]}
        variants = {v["name"]: v for v in lst["variants"]}
        check({"sea_merchants", "caribbean"} <= set(rules), sorted(rules))
        equal(variants["port_royal"]["base"], "caribbean", "port_royal's base")
        equal(variants["house"]["includes"], ["snake_draft", "hand_limit", "house_specials", "delivered_payout"],
              "the house preset")
        size = [o for o in variants["hand_limit"]["options"] if o["name"] == "size"][0]
        equal((size["type"], size["default"]), ("integer", 6), "hand_limit's size option")
        equal(lst["broken"], [], "broken rule sets")


@test
def list_gives_each_variant_its_title():
    """list: a variant has a title as a rule set has, from its own declaration (title =), else its name"""
    # Before: a variant had only its name and summary ("port_royal"), so a
    # front end showed rule sets by title and variants by file name.
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "untitled_twist.lua"), "w") as f:
            f.write('return { variant = true, base = "sea_merchants", summary = "no title of its own" }\n')
        with Server(KONTOR, env=dict(os.environ, KONTOR_PATH=d)) as s:
            variants = {v["name"]: v for v in s.call("list")["variants"]}
    equal({n: v["title"] for n, v in variants.items()},
          {"delivered_payout": "Delivered payout", "hand_limit": "Hand limit", "house": "House rules",
           "house_specials": "House special cards", "port_royal": "Port Royal", "snake_draft": "Snake draft",
           "untitled_twist": "untitled_twist"}, "the variants' titles")


@test
def the_docs_session():
    """the session in docs/protocol.md gives the responses shown there"""
    with open("docs/protocol.md") as f:
        doc = f.read()
    blocks = re.findall(r"```jsonl\n(.*?)```", doc, re.S)
    check(len(blocks) > 0, "no ```jsonl block in docs/protocol.md")
    lines = 0
    for block in blocks:
        with Server(KONTOR) as s:
            for line in block.splitlines():
                if line.startswith("> "):
                    got = s.send_line(line[2:])
                    s.validate(got, "error.json" if not got["ok"] else
                               json.loads(line[2:])["op"] + ".response.json")
                    text = json.dumps(got, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
                elif line.startswith("< "):
                    want = line[2:]
                    if want.endswith(" ..."):
                        check(text.startswith(want[:-4]), "docs say\n  %s\ngot\n  %s" % (want, text[:len(want) + 80]))
                    else:
                        equal(text, want, "the response to line %d" % lines)
                    lines += 1
    return "%d responses" % lines


@test
def command_line():
    """kontor serve takes no arguments; --help lists it"""
    out = subprocess.run([KONTOR, "serve", "--port", "80"], capture_output=True, text=True, input="")
    equal((out.returncode, out.stderr), (2, "kontor: serve: unexpected argument '--port'\nTry 'kontor --help'.\n"),
          "a usage error")
    out = subprocess.run([KONTOR, "--help"], capture_output=True, text=True)
    check("kontor serve" in out.stdout, "--help does not list serve")
    out = subprocess.run([KONTOR, "serve"], capture_output=True, text=True, input="")
    equal((out.returncode, out.stdout), (0, ""), "an empty session")


@test
def options_describe_themselves():
    """options carry their description; the result says why the winner won (issue 26)"""
    with Server(KONTOR) as s:
        scenario = {"market": ["fish", "wood", "grain", "cloth", "spices", "porcelain"], "deck": ["wood", "grain"],
                    "ships": [["fish", "fish"], ["fish", "cloth"]], "coins": [12, 0], "phase": "phase1", "active": 1}
        game = s.call("new", players=2, seed=1, scenario=scenario)["game"]
        d = s.call("decision", game=game)
        equal([(o["text"], o.get("description")) for o in d["options"]],
              [("exchange", "swap the cube on one of your ships for another product from the pool (S6)"),
               ("buy", "a special card (ship 10, contract 11, office 8, dock 12); you have 12 coins"),
               ("pass", "no phase I action")], "phase I options")
        d = s.call("apply", game=game, action="buy")["decision"]
        equal(d["options"][3], {"seat": 1, "n": 4, "text": "buy dock",
                                "description": "12 coins: one extra exchange after your phase I action, every turn (S5)"},
              "buy dock")
        err = fails(s, "illegal_action", "apply", game=game, action="draw")
        check("it is phase I: exchange, buy or pass" in err, err)
        game = s.call("new", rules="caribbean", players=3, seed=6, bots={"1": "random", "2": "random", "3": "random"})
        r = s.call("result", game=game["game"])
        check(r["why"].endswith("wins with %d influence and a fulfilled expedition (C9)" % max(r["scores"]))
              or "cannot win (C9)" in r["why"], r["why"])


@test
def the_validator_is_jsonschemas():
    """messages are checked by jsonschema (draft 2020-12), which refuses what the schemas refuse"""
    v = Validator()
    v.validate({"id": 1, "ok": True, "result": {"scores": [3, 1], "winners": [1], "turns": 4, "why": "x"}},
               "result.response.json")
    for bad, where in [({"id": 1, "ok": True, "result": {"scores": [3], "winners": [-1], "turns": 4}}, "$.result.winners[0]"),
                       ({"id": 1, "ok": True, "result": {"scores": [3], "winners": [1], "turns": True}}, "$.result.turns"),
                       ({"id": 1, "ok": 1, "result": {"scores": [3], "winners": [1], "turns": 4}}, "$.ok"),
                       ({"id": 1, "ok": True, "result": {"scores": [3], "winners": [1], "turns": 4, "x": 1}}, "$.result")]:
        try:
            v.validate(bad, "result.response.json")
        except SchemaError as e:
            check(str(e).startswith(where + " (result.response.json): "), str(e))
        else:
            raise AssertionError("accepted %r" % bad)


def load_other_tests():
    """The tests of the other test_*.py files of this folder, which import
    test, check, ... from this one (as the module test_serve, here too)."""
    import importlib
    sys.modules.setdefault("test_serve", sys.modules[__name__])
    here = os.path.dirname(os.path.abspath(__file__))
    for name in sorted(os.listdir(here)):
        if name.startswith("test_") and name.endswith(".py") and name != "test_serve.py":
            importlib.import_module(name[:-3])


def main():
    load_other_tests()
    print("1..%d" % len(TESTS))
    failed = 0
    for i, fn in enumerate(TESTS, 1):
        try:
            note = fn()
            print("ok %d - %s%s" % (i, fn.__doc__, (" (%s)" % note) if note else ""))
        except Exception:
            failed += 1
            print("not ok %d - %s" % (i, fn.__doc__))
            for line in traceback.format_exc().splitlines():
                print("# " + line)
        sys.stdout.flush()
    subprocess.run(["rm", "-rf", TMP])
    print("# %d messages checked against their schemas" % Server.total_checked)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
