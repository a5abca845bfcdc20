"""tests/protocol/test_feqa.py: `kontor serve` as a front end's author meets
it (docs/protocol.md): every refused request gets one error reply whose
`code` says what went wrong and whose message a player can read as it is.

Run by tests/protocol/test_serve.py with the other protocol tests.
"""

import json
import os
import tempfile

from test_serve import KONTOR, Server, equal, test


@test
def a_request_without_op_names_what_is_missing():
    """a request with an id and no op (or "op": null) is a bad_request that says every request needs an op"""
    # Before: {"id": 1} gave "'nil' needs \"op\"", the Lua nil of the
    # missing op in the text a front end shows.
    want = {"code": "bad_request", "message": "every request needs an \"op\": a string naming the operation"}
    with Server(KONTOR) as s:
        equal(s.send_line('{"id": 1}'), {"id": 1, "ok": False, "error": want}, "no op")
        equal(s.send_line('{"id": "x", "op": null}'), {"id": "x", "ok": False, "error": want}, "op null")
        equal(s.send_line('{"id": 2, "op": 7}')["error"],
              {"code": "bad_request", "message": "\"op\" must be a string"}, "op not a string")
        equal(s.call("hello")["protocol"], 1, "the session goes on")


@test
def an_undo_that_needs_consent_says_whose_as_data():
    """undo with seat that would take back other people's moves: the illegal_action error lists them in "agree" """
    # Before: only the text said so, one seat at a time ("seat 2 did not
    # agree: ..."): a front end had to parse the message to know whom to ask.
    consent = "did not agree: a move goes back without the others' consent only when none of theirs goes with it"
    with Server(KONTOR) as s:
        g = s.call("new", players=3, seed=7)["game"]
        for seat, action in ((1, "load fish on ship 1"), (2, "load grain on ship 1"), (3, "load wood on ship 1")):
            s.call("apply", game=g, seat=seat, action=action)
        before = s.call("save", game=g)["document"]
        equal(s.request("undo", game=g, seat=1)["error"],
              {"code": "illegal_action", "agree": [2, 3], "message": "seat 2 " + consent}, "seat 1, nobody agreed")
        equal(s.request("undo", game=g, seat=1, agree=[2])["error"],
              {"code": "illegal_action", "agree": [2, 3], "message": "seat 3 " + consent}, "seat 1, seat 2 agreed")
        equal(s.request("undo", game=g, seat=2)["error"],
              {"code": "illegal_action", "agree": [3], "message": "seat 3 " + consent}, "seat 2")
        equal(s.call("save", game=g)["document"], before, "the game after the refusals")
        r = s.call("undo", game=g, seat=1, agree=[3, 2])
        equal(r["undone"], [{"seat": 1, "text": "load fish on ship 1"}, {"seat": 2, "text": "load grain on ship 1"},
                            {"seat": 3, "text": "load wood on ship 1"}], "undone with both agreeing")
        # a bot always agrees: only the person is asked for
        g = s.call("new", players=3, seed=7, bots={"3": "random"})["game"]
        s.call("apply", game=g, seat=1, action="load fish on ship 1")
        s.call("apply", game=g, seat=2, action="load grain on ship 1")
        equal(s.request("undo", game=g, seat=1)["error"],
              {"code": "illegal_action", "agree": [2], "message": "seat 2 " + consent}, "with a bot at seat 3")
        # other refusals have no "agree"
        g = s.call("new", rules="old_world", players=2, seed=5)["game"]
        s.call("apply", game=g, seat=1, action="bid 2")
        s.call("apply", game=g, seat=2, action="bid 1")
        equal(s.request("undo", game=g, seat=2)["error"],
              {"code": "illegal_action", "message": "nothing of your order to take back: the moves before the secret "
               "orders can be taken back once the orders are revealed"}, "no order of its own")


@test
def a_bad_save_file_is_game_setup_as_the_same_document_is():
    """load: a save file that is read but is no save, names an unknown rule set or does not replay is game_setup, as its document; io_error only for a file that cannot be read"""
    # Before: by path these were io_error ("a file cannot be read or
    # written"), by document game_setup: the same save, two codes.
    with Server(KONTOR) as s, tempfile.TemporaryDirectory() as d:
        g = s.call("new", rules="old_world", players=2, seed=5)["game"]
        s.call("apply", game=g, seat=1, action="bid 2")
        doc = s.call("save", game=g)["document"]
        cases = {
            "notsave": ({"x": 1}, 'not a Kontor save file ("format" is missing, expected "kontor-save")'),
            "rules": (dict(doc, rules="nosuch"), "unknown rule set or variant 'nosuch' (available: caribbean, "
                      "delivered_payout, hand_limit, house, house_specials, old_world, port_royal, sea_merchants, "
                      "snake_draft)"),
            "move": (dict(doc, actions=["1: bid 99"]), "action 1 '1: bid 99' cannot be replayed: 'bid 99' is not a "
                     "legal action: you have 4 gold; expected one of: bid 0-4"),
        }
        for name, (content, why) in sorted(cases.items()):
            path = os.path.join(d, name + ".json")
            with open(path, "w") as f:
                json.dump(content, f)
            equal(s.request("load", path=path)["error"], {"code": "game_setup", "message": path + ": " + why},
                  "load path " + name)
            equal(s.request("load", document=content)["error"], {"code": "game_setup", "message": "document: " + why},
                  "load document " + name)
        with open(os.path.join(d, "garbage.json"), "w") as f:
            f.write("garbage\n")
        equal(s.request("load", path=os.path.join(d, "garbage.json"))["error"],
              {"code": "game_setup", "message": os.path.join(d, "garbage.json") +
               ": not valid JSON: line 1, column 7: invalid token near 'garbage'"}, "not JSON")
        for path, why in ((os.path.join(d, "none.json"), "No such file or directory"), (d, "Is a directory"),
                          ("/dev/zero", "not a regular file")):
            equal(s.request("load", path=path)["error"], {"code": "io_error", "message": path + ": " + why},
                  "load " + path)
        equal([x["game"] for x in s.call("games")["games"]], [g], "no game was added")


@test
def a_bot_playing_for_a_seat_shows_that_seat_its_own_secret_choice():
    """bot with seat in a simultaneous decision still open: the reply is the seat's, its own bid in clear; others' (secret)"""
    # Before: steps read [{"bot": true, "seat": 1, "text": "(secret)"}]: the
    # player whose bot bid for them was not told their own bid.
    with Server(KONTOR) as s:
        g = s.call("new", rules="old_world", players=3, seed=5)["game"]
        s.call("apply", game=g, seat=2, action="bid 1")
        r = s.call("bot", game=g, seat=1)
        equal(r["steps"], [{"bot": True, "seat": 1, "text": "bid 4"}], "seat 1's bot's step, to seat 1")
        equal(r["decision"], {"chosen": [1, 2], "kind": "simultaneous", "name": "bid", "options": [], "seats": [3]},
              "seat 1's decision")
        equal(r["log"], [], "nothing revealed")
        equal(s.call("moves", game=g, seat=1)["moves"], [{"seat": 1, "text": "bid 4"}, {"seat": 2, "text": "(secret)"}],
              "seat 1's moves")
        equal(s.call("moves", game=g, seat=3)["moves"], [{"seat": 1, "text": "(secret)"}, {"seat": 2, "text": "(secret)"}],
              "seat 3's moves")
        # without seat the reply is nobody's: a bot's open choice stays secret
        g = s.call("new", rules="old_world", players=3, seed=5)["game"]
        equal(s.call("bot", game=g)["steps"], [{"bot": True, "seat": 1, "text": "(secret)"}], "bot without seat")


@test
def what_json_allows_and_serve_refuses_is_one_parse_error():
    """a NUL in a string and a whole number beyond 64 bits: one parse_error each (id null), as docs/protocol.md says"""
    with Server(KONTOR) as s:
        equal(s.send_line('{"id": 1, "op": "new", "players": 2, "names": ["a\\u0000b", "c"]}'),
              {"id": None, "ok": False, "error": {"code": "parse_error", "message":
               "not JSON: line 1, column 57: \\u0000 is not allowed in a request near '\"a\\u0000b\"'"}}, "NUL")
        equal(s.send_line('{"id": 2, "op": "new", "seed": 12345678901234567890}'),
              {"id": None, "ok": False, "error": {"code": "parse_error", "message":
               "not JSON: line 1, column 51: too big integer near '12345678901234567890'"}}, "64 bits")
        for v in ("3.0", "3e0"):
            equal(s.send_line('{"id": 3, "op": "new", "players": %s}' % v)["error"],
                  {"code": "bad_request", "message": "\"players\" must be a whole number"}, v)
        equal(s.call("games")["games"], [], "no game made")


@test
def a_seat_that_bid_last_may_take_its_bid_back_before_the_reveal():
    """undo with seat in an open simultaneous decision: its own choice, taken after the bots', goes; theirs stay secret"""
    # Before: the bots bid at "new", so a person's undo of their own bid was
    # always refused ("the others have chosen in secret: ...").
    with Server(KONTOR) as s:
        g = s.call("new", rules="old_world", players=4, seed=5, bots={"2": "random", "3": "random"})["game"]
        s.call("apply", game=g, seat=1, action="bid 2")
        r = s.call("undo", game=g, seat=1)
        equal(r["undone"], [{"seat": 1, "text": "bid 2"}], "undone")
        equal((r["decision"]["kind"], r["decision"]["chosen"], r["decision"]["seats"]),
              ("simultaneous", [2, 3], [1, 4]), "seat 1 bids again")
        equal(s.call("moves", game=g, seat=1)["moves"], [{"seat": 2, "text": "(secret)"}, {"seat": 3, "text": "(secret)"}],
              "seat 1's moves: the bots' bids still secret")
        s.call("apply", game=g, seat=1, action="bid 0")
        equal(s.request("undo", game=g, seat=4)["error"],
              {"code": "illegal_action", "message": "the others have chosen in secret: what they chose cannot be "
               "taken back before it is revealed"}, "seat 4 has not bid")
        r = s.call("apply", game=g, seat=4, action="bid 1")
        equal(r["log"][0], "bids: Player 1 0, Player 2 4, Player 3 1, Player 4 1", "the bids revealed")


@test
def an_empty_map_in_view_data_comes_as_an_empty_list():
    """view data: Old World's storage is [] with no goods, an object once it has some (docs/protocol.md, Views)"""
    with Server(KONTOR) as s:
        g = s.call("new", rules="old_world", players=2, seed=5, bots={"2": "random"})["game"]
        first = s.call("view", game=g, seat=1)["view"]["players"][0]
        equal((first["storage"], first["staffed"]), ([], {"sheep_herding": 1}), "at the start")
        for action in ("bid 0", "acquire none", "release sheep_herding", "release ship 1", "assign sheep_herding",
                       "assign ship 1"):
            s.call("apply", game=g, seat=1, action=action)
        equal(s.call("view", game=g, seat=1)["view"]["players"][0]["storage"], {"wool": 1}, "after a production")
