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
