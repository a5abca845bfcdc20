"""tests/protocol/test_caribqa.py: a front end at a Caribbean table
(a QA pass on `kontor serve --rules caribbean`).

A seat's undo of a reveal took it back unasked, and the seat knew the
next card of the deck; it now needs every other seat in "agree".

Run by tests/protocol/test_serve.py with the other protocol tests.
"""

from test_serve import KONTOR, Server, equal, fails, test


@test
def a_seats_undo_of_a_reveal_needs_every_other_seat():
    """undo with seat of a Caribbean reveal: illegal_action with "agree": [2, 3] until both agree; a bot does not"""
    with Server(KONTOR) as s:
        game = s.call("new", rules="caribbean", players=3, seed=5)["game"]
        r = s.call("apply", game=game, seat=1, action="reveal")
        equal(r["log"], ["Player 1 reveals Governor 8/0"], "the reveal's log")
        e = s.request("undo", game=game, seat=1)["error"]
        equal(e, {"code": "illegal_action", "agree": [2, 3],
                  "message": "seat 2 did not agree: the moves to take back showed a hidden card, and seat 1 would "
                             "know where it lies once they are taken back"}, "nobody agreed")
        fails(s, "illegal_action", "undo", game=game, seat=1, agree=[2])
        equal(s.call("moves", game=game)["moves"], [{"seat": 1, "text": "reveal"}], "the moves after the refusals")
        u = s.call("undo", game=game, seat=1, agree=[2, 3])
        equal(u["undone"], [{"seat": 1, "text": "reveal"}], "undone with both")
        # "stop" shows no card: it goes back without anyone's yes
        s.call("apply", game=game, seat=1, action="stop")
        equal(s.call("undo", game=game, seat=1)["undone"], [{"seat": 1, "text": "stop"}], "stop undone")
        # with bots on seats 2 and 3 the undo of a reveal stays refused: a bot
        # answers as a fair opponent (kontor.bots.agrees); "free_undo" lets it
        game = s.call("new", rules="caribbean", players=3, seed=5, bots={"2": "random", "3": "random"})["game"]
        s.call("apply", game=game, seat=1, action="reveal")
        e = s.request("undo", game=game, seat=1)["error"]
        equal(e, {"code": "illegal_action",
                  "message": "seat 2 is a bot, and a bot does not take back a move that showed a hidden card: seat 1 "
                             "would know where it lies (a game made with \"free_undo\": true has bots agree to every "
                             "undo)"}, "a bot refuses")
        game = s.call("new", rules="caribbean", players=3, seed=5, bots={"2": "random", "3": "random"},
                      free_undo=True)["game"]
        s.call("apply", game=game, seat=1, action="reveal")
        equal(s.call("undo", game=game, seat=1)["undone"], [{"seat": 1, "text": "reveal"}], "undone with free_undo")
