"""tests/protocol/test_redteam4.py: red team 4's hostile pass on what
serve gained on 2026-11-28 (docs/security.md, "Red team 4"): save with
"seat", undo's log_total, the orders decision's steps, list's bots, seat 0.

Run by tests/protocol/test_serve.py with the other protocol tests.
"""

import os

from test_serve import KONTOR, Server, equal, check, test

HERE = os.path.dirname(os.path.abspath(__file__))
RULESETS = os.path.join(os.path.dirname(HERE), "rulesets")


def play_to_the_end(s, g, seat):
    """Seat `seat` takes its first option until the game is over (the
    bots move after each request); returns how many moves it made."""
    n = 0
    while True:
        d = s.call("decision", game=g, seat=seat)
        if d["kind"] == "over":
            return n
        s.call("apply", game=g, seat=seat, action=1)
        n += 1


@test
def a_seat_cannot_undo_a_finished_game_back_into_play():
    """undo with seat refuses to take a finished game back into play: the seat's record then holds the seed, which gives the deck"""
    # Before: against a bot, seat 1 played to the end, took its record
    # (save with seat: the seed is in it once the game is over, as
    # v.seed() gives it), then undid with seat 1 and n 1000: the bot
    # agrees, the game was back at its first move, and seat 1 knew the
    # seed, so every card of the deck to come.
    deck = os.path.join(RULESETS, "take_one_each.lua")
    with Server(KONTOR) as s:
        g = s.call("new", rules=deck, players=2, seed=123456789, bots={"2": "random"})["game"]
        check(play_to_the_end(s, g, 1) > 0, "seat 1 moved")
        doc = s.call("save", game=g, seat=1)["document"]
        equal((doc["seat"], doc["seed"]), (1, 123456789), "seat 1's record of the finished game: the seed")
        moves = s.call("moves", game=g)["moves"]
        err = s.request("undo", game=g, seat=1, n=1000)["error"]
        equal(err["code"], "illegal_action", "undo with seat after the end")
        equal(err["message"], "the game is over, and its seed (in the result and each seat's save) gives every "
              "card dealt: a seat cannot take it back into play (the referee can: undo without \"seat\")",
              "the message")
        equal(s.call("moves", game=g)["moves"], moves, "the moves, as they were")
        equal(s.call("decision", game=g, seat=1)["kind"], "over", "still over")
        # the referee still can (the front end, which holds the seed anyway)
        res = s.call("undo", game=g)
        equal((res["over"], len(res["undone"]) >= 1), (False, True), "undo without seat")


def to_orders(s, g):
    """The referee takes the first option until the secret orders open."""
    while True:
        d = s.call("decision", game=g)
        if d["kind"] == "orders":
            return d
        o = d["options"][0]
        s.call("apply", game=g, seat=o["seat"], action=o["n"])


def seat_sees(s, g, seat):
    """Everything serve tells `seat` now: its decision, moves, record
    (save with seat), and what its undo of one step answers (then redone)."""
    out = {
        "decision": s.call("decision", game=g, seat=seat),
        "moves": s.call("moves", game=g, seat=seat),
        "record": s.call("save", game=g, seat=seat)["document"],
        "view": s.call("view", game=g, seat=seat),
    }
    undo = s.request("undo", game=g, seat=seat, n=1)
    undo.pop("id")
    out["undo"] = undo
    if undo["ok"] and undo["result"]["undone"]:
        s.call("redo", game=g, seat=seat, n=1)
    out["record"].pop("kontor", None)
    return out


@test
def what_a_seat_is_told_during_orders_does_not_depend_on_the_others_steps():
    """Old World and secret_orders: seat 1's decision (steps, descriptions), moves, record, view and undo's log_total are the same whatever seat 2 has entered"""
    for rules, players in (("old_world", 2), (os.path.join(RULESETS, "secret_orders.lua"), 3)):
        with Server(KONTOR) as s:
            games = [s.call("new", rules=rules, players=players, seed=5)["game"] for _ in range(3)]
            for g in games:
                to_orders(s, g)
            # twin 0: seat 2 enters nothing; twin 1: its first option twice;
            # twin 2: its last option once (another step, another path)
            for _ in range(2):
                s.call("apply", game=games[1], seat=2, action=1)
            last = s.call("decision", game=games[2], seat=2)["options"][-1]["n"]
            s.call("apply", game=games[2], seat=2, action=last)
            for step in range(3):
                seen = [seat_sees(s, g, 1) for g in games]
                for k in (1, 2):
                    for what in seen[0]:
                        equal(seen[k][what], seen[0][what], "%s: seat 1's %s at its step %d, twin %d" % (rules, what, step, k))
                d = seen[0]["decision"]
                check(set(d.get("steps", {})) <= {"1"}, "only seat 1's step: %r" % d.get("steps"))
                if d["kind"] != "orders" or not d["options"]:
                    break
                for g in games:
                    s.call("apply", game=g, seat=1, action=1)
            u = seen[0]["undo"]
            check(not u["ok"] or "log_total" in u["result"], "undo's reply: %r" % u)


@test
def a_seats_record_during_sealed_bids_leaves_out_the_others_bids():
    """sealed_bid: seat 1's record, moves and undo's reply are the same whether seat 2 bid 0 or 5, until the bids are revealed"""
    rules = os.path.join(RULESETS, "sealed_bid.lua")
    with Server(KONTOR) as s:
        games = [s.call("new", rules=rules, players=3, seed=9)["game"] for _ in range(2)]
        for g in games:
            while s.call("decision", game=g)["kind"] != "simultaneous":
                s.call("apply", game=g, action=1)
        s.call("apply", game=games[0], seat=2, action="bid 0")
        s.call("apply", game=games[1], seat=2, action="bid 5")
        seen = [seat_sees(s, g, 1) for g in games]
        for what in seen[0]:
            equal(seen[1][what], seen[0][what], "seat 1's %s" % what)
        # seat 3 bids: seat 1's own bid still open, the others' stay out of its record
        for g in games:
            s.call("apply", game=g, seat=3, action="bid 1")
            s.call("apply", game=g, seat=1, action="bid 2")
        records = [s.call("save", game=g, seat=3)["document"]["actions"] for g in games]
        check(records[0] != records[1], "revealed: the bids differ now")
        check("2: bid 5" in records[1], "seat 2's bid, revealed: %r" % records[1])


@test
def chance_seat_0_is_told_nothing_of_a_seats_secret():
    """seat 0 (manual_chance): no save, view, moves or undo; its decision during orders names no seat's step and lists no option"""
    with Server(KONTOR) as s:
        g = s.call("new", rules="old_world", players=2, seed=5, manual_chance=True)["game"]
        for _ in range(200):
            d = s.call("decision", game=g)
            if d["kind"] == "orders":
                break
            o = d["options"][0]
            s.call("apply", game=g, seat=o["seat"], action=o["n"])
        equal(d["kind"], "orders", "the orders are open")
        s.call("apply", game=g, seat=2, action=1)
        zero = s.call("decision", game=g, seat=0)
        equal((zero["kind"], zero["options"], zero.get("steps", {})), ("orders", [], {}), "seat 0's decision")
        for op in ("save", "view", "moves", "undo"):
            equal(s.request(op, game=g, seat=0)["error"]["code"], "no_such_seat", op + " with seat 0")


@test
def list_names_the_bots_and_nothing_of_a_game():
    """list's bots are the same before and after games are open (nothing of a game in them)"""
    with Server(KONTOR) as s:
        before = s.call("list")["bots"]
        g = s.call("new", rules="old_world", players=2, seed=5, bots={"2": "greedy"})["game"]
        check(g, "a game")
        equal(s.call("list")["bots"], before, "list's bots")
        equal([b["name"] for b in before], ["random", "greedy", "mcts"], "the kinds")


@test
def a_seats_record_after_load_with_bots_and_a_variant_leaves_out_the_bots_open_bid():
    """save with seat after a load, with a bot seated: the bot's open bid and the seed stay out of the seat's record"""
    rules = os.path.join(RULESETS, "sealed_bid.lua")
    with Server(KONTOR) as s:
        g = s.call("new", rules=rules, players=2, seed=77, options={"coins": 9})["game"]
        whole = s.call("save", game=g)["document"]
        h = s.call("load", document=whole, bots={"2": "random"})["game"]
        while s.call("decision", game=h, seat=1)["kind"] != "simultaneous":
            s.call("apply", game=h, action=1)
        # the bot has bid (bots move after each request); seat 1 has not
        seen = s.call("decision", game=h)
        check(2 in seen["chosen"], "the bot bid: %r" % seen)
        rec = s.call("save", game=h, seat=1)["document"]
        check(not any(a.startswith("2: bid") for a in rec["actions"]), "the bot's open bid: %r" % rec["actions"])
        equal(("seed" in rec, rec["options"]), (False, {"coins": 9}), "no seed; the options")
        # (moves shows that the bot has chosen, as "chosen" does, not what)
        equal(s.call("moves", game=h, seat=1)["moves"], [{"seat": 2, "text": "(secret)"}], "seat 1's moves")
