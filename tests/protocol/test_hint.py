"""tests/protocol/test_hint.py: the hint op, what a bot would play for a
seat without playing it (a front end's "suggest a move").

Run by tests/protocol/test_serve.py with the other protocol tests.
"""

from test_serve import KONTOR, Server, check, equal, fails, test


@test
def hint_says_what_a_bot_would_play_and_plays_nothing():
    """hint: the option a bot would take for the seat and its reasons; the game is unchanged"""
    with Server(KONTOR) as s:
        game = s.call("new", players=3, seed=3)["game"]
        h = s.call("hint", game=game, seat=1, kind="greedy")
        opts = s.call("decision", game=game, seat=1)["options"]
        check(h["option"] in opts, "the option is not one of seat 1's: %r" % h["option"])
        equal(h["lines"][0], "The greedy bot would play: " + h["option"]["text"],
              "the first line")
        equal(h["seat"], 1, "seat")
        equal(s.call("hint", game=game, seat=1, kind="greedy"), h, "the same hint again")
        equal(s.call("moves", game=game)["moves"], [], "moves after the hints")
        mcts = s.call("hint", game=game, seat=1)   # default: mcts, as the REPL's hint
        check(mcts["lines"][0].startswith("The mcts bot would play: "), mcts["lines"][0])
        equal(fails(s, "illegal_action", "hint", game=game, seat=2), "seat 2 has no decision now", "not seat 2's turn")
        equal(fails(s, "bad_request", "hint", False, game=game), "'hint' needs \"seat\"", "no seat")
        equal(fails(s, "bad_request", "hint", game=game, seat=1, kind="genius"),
              "unknown bot 'genius' (bots: random, greedy, mcts)", "unknown bot")
        fails(s, "no_such_seat", "hint", game=game, seat=4)
        s.call("apply", game=game, seat=1, action=h["option"]["n"])
        equal(s.call("moves", game=game)["moves"], [{"seat": 1, "text": h["option"]["text"]}], "the hint applied")


@test
def hint_during_secret_orders_sees_only_the_seat():
    """hint for seat 2 while seat 1's order is open: seat 2's own option; seat 1's steps untouched"""
    with Server(KONTOR) as s:
        game = s.call("new", rules="old_world", players=2, seed=5)["game"]
        for seat in (1, 2):
            s.call("apply", game=game, seat=seat, action=1)
        s.call("apply", game=game, seat=1, action=1)
        mine = s.call("moves", game=game, seat=1)["moves"]
        h = s.call("hint", game=game, seat=2, kind="random")
        equal(h["option"]["seat"], 2, "the option's seat")
        check(h["option"] in s.call("decision", game=game, seat=2)["options"], "not one of seat 2's options")
        equal(s.call("moves", game=game, seat=1)["moves"], mine, "seat 1's moves after seat 2's hint")
