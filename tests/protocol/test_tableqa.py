"""tests/protocol/test_tableqa.py: a restricted bot (avoid=, prefer=) whose
restriction matches no option of the game (a typo) is said in the reply
that seats it, as `warnings` (docs/protocol.md); one that matches is not.

Run by tests/protocol/test_serve.py with the other protocol tests.
"""

from test_serve import KONTOR, Server, check, equal, test

TYPO = ("seat 2's greedy bot: avoid 'by contract' matches no option offered in 20 random games of this setup, "
        "so it changes nothing: did you mean 'buy contract'? (decisions: buy_card, dock,")


@test
def a_restriction_that_matches_nothing_is_a_warning():
    """new/load/bot: a restriction that matches no option comes back in "warnings"; one that matches does not"""
    with Server(KONTOR) as s:
        r = s.call("new", players=3, seed=1, bots={"2": "greedy:avoid=by contract", "3": "random:prefer=load"})
        equal(len(r["warnings"]), 1, "warnings of new: %r" % r["warnings"])
        check(r["warnings"][0].startswith(TYPO), r["warnings"][0])
        equal(r["bots"], {"2": "greedy", "3": "random"}, "the bots are seated all the same")
        plain = s.call("new", players=3, seed=1, bots={"2": "greedy:avoid=buy contract", "3": "random"})
        check("warnings" not in plain, "a restriction that matches gives no warning: %r" % plain.get("warnings"))
        game = plain["game"]
        b = s.call("bot", game=game, seat=1, kind="random:prefer=lod grain")
        equal(len(b["warnings"]), 1, "warnings of bot")
        check(b["warnings"][0].startswith("seat 1's random bot: prefer 'lod grain' matches no option offered in "
                                          "20 random games of this setup, so it changes nothing: did you mean "
                                          "'load grain'?"), b["warnings"][0])
        check(len(b["steps"]) >= 1, "the bot played all the same")
        s.call("undo", game=game, seat=1)
        again = s.call("bot", game=game, seat=1, kind="random:prefer=lod grain")
        check("warnings" not in again, "said once a bot: %r" % again.get("warnings"))
        saved = s.call("save", game=game)["document"]
        loaded = s.call("load", document=saved, bots={"3": "mcts:prefer=load fsh"})
        check(loaded["warnings"][0].startswith("seat 3's mcts bot: prefer 'load fsh' matches no option"),
              loaded["warnings"])
