"""tests/protocol/test_polish.py: undo and redo that ask for more than
there is say how many there were (`only`); an undo for a bot's seat is
refused, so no undo leaves the game at a bot's turn with nobody to act.

Run by tests/protocol/test_serve.py with the other protocol tests.
"""

from test_serve import KONTOR, Server, check, equal, fails, test


@test
def undo_and_redo_say_only_when_fewer_were_there():
    """undo n and redo n beyond what there is: the moves there were, and `only` says how many"""
    with Server(KONTOR) as s:
        game = s.call("new", players=2, seed=3)["game"]
        s.call("apply", game=game, action=1)
        s.call("apply", game=game, action=1)
        u = s.call("undo", game=game, n=2)
        equal(len(u["undone"]), 2, "undone")
        check("only" not in u, "only with all n undone: %r" % u)
        r = s.call("redo", game=game, n=5)
        equal(len(r["steps"]), 2, "steps redone")
        equal(r["only"], 2, "redo's only")
        u = s.call("undo", game=game, n=9)
        equal(u["only"], 2, "undo's only")
        r = s.call("redo", game=game, n=1)
        check("only" not in r, "only with all n redone: %r" % r)
        # with seat: the seat's own moves
        u = s.call("undo", game=game, seat=1, n=3, agree=[2])
        equal([m["seat"] for m in u["undone"]], [1], "seat 1's undo")
        equal(u["only"], 1, "seat 1's only")
        u = s.call("undo", game=game, n=1)
        equal((u["undone"], u["only"]), ([], 0), "nothing to undo")


@test
def undo_with_a_bots_seat_is_refused():
    """undo with seat of a bot: illegal_action, nothing changes, and a person is still to act"""
    with Server(KONTOR) as s:
        game = s.call("new", players=2, seed=3, bots={"2": "random"})["game"]
        s.call("apply", game=game, action=1)
        moves = s.call("moves", game=game)["moves"]
        equal([m["seat"] for m in moves], [1, 2], "the person's move and the bot's")
        msg = fails(s, "illegal_action", "undo", game=game, seat=2)
        equal(msg, "seat 2 is played by a bot: its moves go back with a person's (undo with that person's seat, "
                   "or without \"seat\")", "message")
        equal(s.call("moves", game=game)["moves"], moves, "the moves after the refused undo")
        equal(s.call("decision", game=game)["seats"], [1], "who acts")
        # the person's undo takes the bot's move with it: the person acts
        u = s.call("undo", game=game, seat=1)
        equal([m["seat"] for m in u["undone"]], [1, 2], "seat 1's undo")
        equal(u["decision"]["seats"], [1], "who acts after seat 1's undo")
