"""tests/protocol/test_seat_undo.py: undo and redo for one seat (`seat`,
`agree`): a front end that acts for a seat takes back its own moves
without touching, or showing, the others'.

Run by tests/protocol/test_serve.py with the other protocol tests.
"""

from test_serve import KONTOR, Server, check, equal, fails, test


def bid_then_order(s, game):
    """Old World, 2 seats: both bid, then seat 1 enters the first step of
    its secret order. Returns (seat 1's decision before its step, the step)."""
    for seat in (1, 2):
        d = s.call("decision", game=game, seat=seat)
        s.call("apply", game=game, seat=seat, action=d["options"][0]["n"])
    before = s.call("decision", game=game, seat=1)
    equal(before["kind"], "orders", "the decision after the bids")
    step = before["options"][0]["text"]
    s.call("apply", game=game, seat=1, action=step)
    return before, step


@test
def a_seat_undoes_only_its_own_order():
    """undo with seat during secret orders: only that seat's steps; another seat's undo neither takes nor shows them"""
    with Server(KONTOR) as s:
        game = s.call("new", rules="old_world", players=2, seed=5)["game"]
        before, step = bid_then_order(s, game)
        mine = s.call("moves", game=game, seat=1)["moves"]
        equal(mine[-1], {"seat": 1, "text": step}, "seat 1's step")
        # Seat 2 asks to undo: refused, and seat 1's secret step stays. (The
        # undo without seat would take seat 1's step back and answer with
        # every seat's options, seat 1's order so far included.)
        msg = fails(s, "illegal_action", "undo", game=game, seat=2)
        equal(msg, "nothing of your order to take back: the moves before the secret orders can be taken back "
                   "once the orders are revealed", "seat 2's undo")
        equal(s.call("moves", game=game, seat=1)["moves"], mine, "seat 1's moves after seat 2's undo")
        # Seat 1 takes its own step back; the reply is seat 1's.
        u = s.call("undo", game=game, seat=1)
        equal(u["undone"], [{"seat": 1, "text": step}], "undone")
        equal(u["decision"], before, "seat 1's decision after its undo")
        check(all(o["seat"] == 1 for o in u["decision"]["options"]), "another seat's options in the reply")
        r = s.call("redo", game=game, seat=1)
        equal([(st["seat"], st["text"]) for st in r["steps"]], [(1, step)], "redo: seat 1's step again")
        equal(s.call("moves", game=game, seat=1)["moves"], mine, "the moves after redo")


@test
def a_seat_undoes_the_others_moves_only_with_their_yes():
    """undo with seat takes another person's move too only when that seat is in agree; bots agree to moves that showed no hidden card"""
    with Server(KONTOR) as s:
        game = s.call("new", players=2, seed=3)["game"]
        s.call("apply", game=game, seat=1, action="load grain on ship 1")
        s.call("apply", game=game, seat=2, action="load fish on ship 2")
        moves = s.call("moves", game=game)["moves"]
        msg = fails(s, "illegal_action", "undo", game=game, seat=1)
        equal(msg, "seat 2 did not agree: a move goes back without the others' consent only when none of theirs goes with it", "message")
        equal(s.call("moves", game=game)["moves"], moves, "the game after the refused undo")
        fails(s, "bad_request", "undo", game=game, seat=1, agree=[3])
        fails(s, "bad_request", "undo", game=game, agree=[2])
        u = s.call("undo", game=game, seat=1, agree=[2])
        equal(u["undone"], [{"seat": 1, "text": "load grain on ship 1"}, {"seat": 2, "text": "load fish on ship 2"}],
              "undone")
        equal(u["decision"]["seats"], [1], "seat 1 decides again")
        # redo for seat 1 does its own move, not seat 2's
        r = s.call("redo", game=game, seat=1)
        equal([(st["seat"], st["text"]) for st in r["steps"]], [(1, "load grain on ship 1")], "redo")
        equal(r["decision"]["options"], [], "seat 2 decides: nothing for seat 1")

        # the game's bots agree: seat 1's undo takes their moves after it
        game = s.call("new", players=3, seed=3, bots={"2": "random", "3": "random"})["game"]
        s.call("apply", game=game, seat=1, action="load grain on ship 1")
        moves = s.call("moves", game=game)["moves"]
        equal([m["seat"] for m in moves], [1, 2, 3], "the moves")
        u = s.call("undo", game=game, seat=1)
        equal(u["undone"], moves, "undone: seat 1's move and the bots'")
        r = s.call("redo", game=game, seat=1)
        equal([(st["seat"], st["text"], st["bot"]) for st in r["steps"]],
              [(m["seat"], m["text"], m["seat"] != 1) for m in moves], "redo: seat 1's move and the bots' again")
