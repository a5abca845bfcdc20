#!/usr/bin/env python3
"""tests/repl/test_redteam2_tty.py: the second red-team pass's holes at a
terminal (docs/security.md, "Red team 2"); prints TAP.

    python3 tests/repl/test_redteam2_tty.py [KONTOR]

Uses the pseudo-terminal of tests/repl/test_tty.py.
"""

import os
import shlex
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import test_tty  # noqa: E402
from test_tty import STTY_AFTER, Term, after_exit, check, test  # noqa: E402

KONTOR = test_tty.KONTOR
test_tty.TESTS.clear()


@test
def play_enters_typed_ahead_show_no_hand_to_the_mover():
    """play hot-seat: Enter pressed five times with a move passes neither the mover's screen twice nor the next seat's hand-over"""
    t = Term("%s play --seed 1 --players 2%s" % (shlex.quote(KONTOR), STTY_AFTER))
    t.wait_for(b"Pass the keyboard to Player 1 (seat 1) and press Enter.\r\n")
    t.type("\r")
    i = t.wait_for(b"Player 1> ")
    # Player 1 moves and keeps pressing Enter (before: the mover's screen took
    # two, the hand-over the next two, and Player 2's hand showed to Player 1)
    t.type("1\r\r\r\r\r")
    i = t.wait_for(b"Pass the keyboard to Player 2 (seat 2) and press Enter.\r\n", start=i)
    time.sleep(1.0)
    t.read(0.3)
    check(b"Player 2> " not in t.out[i:], "Player 2's screen showed to Player 1:\n%s" % t.shown())
    t.type("\r")
    t.wait_for(b"Player 2> ", start=i)
    t.type("\x04")
    t.wait_for(b"The game is not over: saved 1 move")
    after_exit(t)


if __name__ == "__main__":
    sys.exit(test_tty.main())
