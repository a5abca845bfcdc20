#!/usr/bin/env python3
"""tests/repl/test_tty.py: the REPL and `kontor play` in a pseudo-terminal,
typed at as a terminal types (Enter is "\\r"); prints TAP.

    python3 tests/repl/test_tty.py [KONTOR]

Each case starts the program under `sh -c 'stty MODES; ...'` in a new
pseudo-terminal, so the terminal is in the state a player's may be in
(sane, -icrnl, raw), waits for what the program shows and checks the bytes
the terminal received: no "^M", no carriage return that is not part of a
line end, what is typed shown once, and the terminal as it was after exit.
"""

import os
import pty
import select
import shlex
import signal
import sys
import tempfile
import time
import traceback

KONTOR = sys.argv[1] if len(sys.argv) > 1 else (os.environ.get("KONTOR") or "build/kontor")
HOME = tempfile.mkdtemp(prefix="kontor-tty-")
TESTS = []


def test(fn):
    TESTS.append(fn)
    return fn


def check(cond, msg):
    if not cond:
        raise AssertionError(msg)


class Term:
    """A program in a new pseudo-terminal (sh -c SCRIPT)."""

    def __init__(self, script, env=None):
        e = dict(os.environ, HOME=HOME, TERM="xterm", NO_COLOR="1")
        e.update(env or {})
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            try:
                os.execvpe("sh", ["sh", "-c", script], e)
            finally:
                os._exit(127)
        self.out = b""
        self.ended = False

    def read(self, timeout):
        r, _, _ = select.select([self.fd], [], [], timeout)
        if not r:
            return False
        try:
            data = os.read(self.fd, 65536)
        except OSError:
            data = b""
        if not data:
            self.ended = True
            return False
        self.out += data
        return True

    def wait_for(self, text, timeout=30, start=0):
        """Waits until the output after byte `start` holds `text`."""
        end = time.time() + timeout
        while text not in self.out[start:]:
            if self.ended or time.time() > end:
                raise AssertionError("waited for %r; the terminal shows:\n%s" % (text, self.shown()))
            self.read(0.1)
        return self.out.index(text, start) + len(text)

    def type(self, text):
        os.write(self.fd, text.encode())

    def finish(self, timeout=30):
        end = time.time() + timeout
        while not self.ended and time.time() < end:
            self.read(0.1)
        try:
            os.kill(self.pid, signal.SIGKILL)
        except OSError:
            pass
        os.waitpid(self.pid, 0)
        os.close(self.fd)

    def shown(self):
        return self.out.decode("utf-8", "replace")[-3000:]


def no_stray_cr(out, what):
    """Every carriage return is that of a line end, and no ^M is shown."""
    check(b"^M" not in out, "%s: the terminal shows ^M:\n%s" % (what, out.decode("utf-8", "replace")[-2000:]))
    bare = out.replace(b"\r\n", b"")
    check(b"\r" not in bare, "%s: a carriage return that ends no line:\n%r" % (what, out[-2000:]))


STTY_AFTER = "; echo; echo EXIT $?; stty -a | tr ' ;' '\\n\\n' | grep -xE -- '-?(icrnl|echo|icanon|onlcr)' | tr '\\n' ' '"


def after_exit(t):
    """The terminal's modes once the program has ended (stty -a)."""
    i = t.wait_for(b"EXIT ")
    t.finish()
    return set(t.out[i:].decode().split()[1:])


def repl_typed_at(stty):
    t = Term("stty %s; %s --seed 1%s" % (stty, shlex.quote(KONTOR), STTY_AFTER))
    t.wait_for(b"Player 1 to choose (load).\r\n> ")
    t.type("1\r")
    t.wait_for(b"Player 2 to choose (load).\r\n> ")
    t.type("board\r")
    i = t.wait_for(b"* Player 2: 0 coins")
    t.wait_for(b"Player 2 to choose (load).\r\n> ", start=i)
    t.type("\x04")
    t.wait_for(b"The game is not over: saved 1 move to ")
    return t, after_exit(t)


@test
def repl_sane():
    """REPL, a sane terminal: Enter is a line end, nothing else shows"""
    t, modes = repl_typed_at("sane")
    check(b"> 1\r\nPlayer 1 loads grain on ship 1\r\n" in t.out, t.shown())
    no_stray_cr(t.out.split(b"EXIT")[0], "repl")
    check({"icrnl", "echo", "icanon", "onlcr"} <= modes, modes)


@test
def repl_icrnl_off():
    """REPL, stty -icrnl: no ^M, Ctrl-D leaves, the terminal as it was after"""
    t, modes = repl_typed_at("-icrnl")
    check(b"> 1\r\nPlayer 1 loads grain on ship 1\r\n" in t.out, t.shown())
    no_stray_cr(t.out.split(b"EXIT")[0], "repl -icrnl")
    check("-icrnl" in modes and "echo" in modes, "the terminal's modes after: %s" % modes)


@test
def repl_raw():
    """REPL, a terminal left raw: lines end in CR LF (no staircase), raw again after"""
    t, modes = repl_typed_at("raw")
    check(b"Player 1 loads grain on ship 1\r\nPlayer 2 to choose (load).\r\n" in t.out, t.shown())
    no_stray_cr(t.out.split(b"EXIT")[0], "repl raw")
    check("-icanon" in modes and "-icrnl" in modes, "the terminal's modes after: %s" % modes)


@test
def repl_output_piped_icrnl_off():
    """REPL with its output piped (| cat), stty -icrnl: no ^M, Ctrl-D leaves"""
    t = Term("stty -icrnl; %s --seed 1 | cat%s" % (shlex.quote(KONTOR), STTY_AFTER))
    time.sleep(1)   # no prompt when the output is no terminal: wait for the program
    t.type("1\r")
    t.wait_for(b"Player 1 loads grain on ship 1\r\n")
    t.type("board\r")
    t.wait_for(b"* Player 2: 0 coins")
    t.type("\x04")
    modes = after_exit(t)
    out = t.out.split(b"EXIT")[0]
    check(b"1\r\n" in out and b"board\r\n" in out, "what was typed shows as lines:\n%r" % out)
    no_stray_cr(out, "repl | cat")
    check("-icrnl" in modes, modes)


@test
def repl_lua_reads_with_echo():
    """REPL: io.read() typed at the Lua prompt shows what is typed, as any program's would"""
    t = Term("%s --seed 1%s" % (shlex.quote(KONTOR), STTY_AFTER))
    t.wait_for(b"Player 1 to choose (load).\r\n> ")
    t.type("x = io.read()\r")
    i = t.wait_for(b"x = io.read()\r\n")
    time.sleep(0.3)
    t.type("hello\r")
    t.wait_for(b"hello\r\n", start=i)   # echoed by the terminal, in line mode
    t.wait_for(b"> ", start=i)
    t.type("= x\r")
    t.wait_for(b"hello\r\n> ", start=i + 7)
    t.type("\x04")
    modes = after_exit(t)
    check("echo" in modes and "icanon" in modes, modes)


@test
def play_typed_ahead_shows_once():
    """play: what is typed while a bot thinks shows once, at the prompt, no ^M"""
    t = Term("stty -icrnl; %s play --seed 1 --players 2 --bot 2=mcts:iterations=20000%s"
             % (shlex.quote(KONTOR), STTY_AFTER))
    t.wait_for(b"Player 1> ")
    t.type("1\r")
    t.wait_for(b"Player 1 loads grain on ship 1\r\n")
    t.type("board\r")   # while the bot thinks (or after: the same screen)
    i = t.wait_for(b"Player 2 loads ")
    t.wait_for(b"Player 1> board\r\n", start=i)
    t.wait_for(b"Player 1 to choose (load).\r\nPlayer 1> ")
    t.type("\x04")   # before: after a line typed ahead, lost now and then
    t.wait_for(b"The game is not over: saved 2 moves")
    modes = after_exit(t)
    out = t.out.split(b"EXIT")[0]
    check(out.count(b"board") == 1, "'board' shows %d times:\n%r" % (out.count(b"board"), out[-1500:]))
    no_stray_cr(out, "play")
    check("-icrnl" in modes and "echo" in modes, modes)


@test
def play_bot_thinking_line():
    """play: a line while a bot thinks, erased by ESC [G ESC [K (no carriage return) before its move"""
    # (the bytes are kept however fast the bot: greedy, which thinks for no time)
    t = Term("%s play --seed 1 --players 2 --bot 2=greedy%s" % (shlex.quote(KONTOR), STTY_AFTER))
    t.wait_for(b"Player 1> ")
    t.type("1\r")
    # before: nothing between the move typed and the bot's
    t.wait_for(b"Player 1 loads grain on ship 1\r\nPlayer 2 (bot) is thinking...\x1b[G\x1b[KPlayer 2 loads ")
    t.wait_for(b"Player 1> ")
    t.type("\x04")
    t.wait_for(b"The game is not over: saved 2 moves")
    after_exit(t)
    out = t.out.split(b"EXIT")[0]
    check(out.count(b"thinking") == 1, "the line shows %d times:\n%r" % (out.count(b"thinking"), out[-1500:]))
    no_stray_cr(out, "play")


@test
def play_hand_over_icrnl_off():
    """play hot-seat, stty -icrnl: Enter at the hand-over passes the keyboard"""
    t = Term("stty -icrnl; %s play --seed 1 --players 2%s" % (shlex.quote(KONTOR), STTY_AFTER))
    t.wait_for(b"Pass the keyboard to Player 1 (seat 1) and press Enter.\r\n")
    t.type("\r")
    i = t.wait_for(b"Player 1> ")
    t.type("1\r")   # as the prompt shows: before, now and then shown twice ("1", "1")
    t.wait_for(b"press Enter to hide your hand and pass the keyboard to Player 2. Until then it is yours: undo takes your move back.\r\n")
    check(t.out[i:].startswith(b"1\r\nPlayer 1 loads grain on ship 1\r\n"), "after the prompt: %r" % t.out[i:i + 60])
    t.type("\r")
    t.wait_for(b"Pass the keyboard to Player 2 (seat 2) and press Enter.\r\n")
    t.type("\r")
    t.wait_for(b"Player 2> ")
    t.type("\x04")
    t.wait_for(b"The game is not over: saved 1 move")
    after_exit(t)
    no_stray_cr(t.out.split(b"EXIT")[0], "play hot-seat")


@test
def play_hand_over_screens_take_no_line_silently():
    """play hot-seat: a line at a hand-over screen is said not run; the mover may still undo"""
    t = Term("%s play --seed 1 --players 2%s" % (shlex.quote(KONTOR), STTY_AFTER))
    t.wait_for(b"Pass the keyboard to Player 1 (seat 1) and press Enter.\r\n")
    t.type("1\r")   # before: dropped without a word, and the screen went on
    t.wait_for(b"'1' was not run: here only Enter goes on (or Ctrl-D, to save the game and leave)\r\n")
    t.type("\r")
    t.wait_for(b"Player 1> ")
    t.type("1\r")
    i = t.wait_for(b"Player 1: press Enter to hide your hand and pass the keyboard to Player 2. Until then it is yours: undo takes your move back.\r\n")
    t.type("undo\r")   # before: dropped, and the keyboard went to Player 2
    i = t.wait_for(b"Undid 1 move: Player 1: load grain on ship 1\r\n", start=i)
    t.wait_for(b"Player 1, your move (load):\r\n", start=i)
    t.wait_for(b"Player 1> ", start=i)
    check(b"Pass the keyboard to Player 2" not in t.out[i:], "the keyboard went to Player 2:\n%s" % t.shown())
    t.type("\x04")   # no move left to save
    after_exit(t)


@test
def play_crlf_enter_lets_no_screen_go_by():
    """play hot-seat, a terminal that sends "\\r\\n" for Enter: the "\\n" passes no screen"""
    t = Term("%s play --seed 1 --players 2%s" % (shlex.quote(KONTOR), STTY_AFTER))
    t.wait_for(b"Pass the keyboard to Player 1 (seat 1) and press Enter.\r\n")
    t.type("\r\n")
    t.wait_for(b"Player 1> ")
    t.type("1\r\n")   # before: the "\n" passed the next screen, the cards drawn unseen
    i = t.wait_for(b"press Enter to hide your hand and pass the keyboard to Player 2. Until then it is yours: undo takes your move back.\r\n")
    time.sleep(0.5)
    t.read(0.2)
    check(b"Pass the keyboard to Player 2" not in t.out[i:], "the screen went by:\n%s" % t.shown())
    t.type("\r\n")
    i = t.wait_for(b"Pass the keyboard to Player 2 (seat 2) and press Enter.\r\n", start=i)
    time.sleep(0.5)
    t.read(0.2)
    check(b"Player 2> " not in t.out[i:], "Player 2's screen showed before Enter:\n%s" % t.shown())
    t.type("\r\n")
    t.wait_for(b"Player 2> ", start=i)
    t.type("\x04")
    t.wait_for(b"The game is not over: saved 1 move")
    after_exit(t)


@test
def play_refused_undo_shows_the_board_again():
    """play hot-seat: after a refused undo the cleared screen shows the mover's board again"""
    t = Term("%s play --seed 1 --players 2%s" % (shlex.quote(KONTOR), STTY_AFTER))
    pos = 0
    for prompt, keys in [(b"Pass the keyboard to Player 1 (seat 1) and press Enter.", "\r"), (b"Player 1> ", "1\r"),
                         (b"undo takes your move back.", "\r"), (b"Pass the keyboard to Player 2 (seat 2)", "\r"),
                         (b"Player 2> ", "1\r"), (b"undo takes your move back.", "\r"),
                         (b"Pass the keyboard to Player 1 (seat 1) and press Enter.", "\r"), (b"Player 1> ", "undo\r"),
                         (b"asks to take back a move of yours.", "\r"), (b"do you agree? (yes/no) ", "no\r"),
                         (b"back to you.", "\r")]:
        # each screen after the last: an Enter typed before a screen shows passes nothing
        i = pos = t.wait_for(prompt, start=pos)
        t.type(keys)
    i = t.wait_for(b"Not undone: Player 2 did not agree.")
    # before: the prompt alone on a cleared screen
    t.wait_for(b"* Player 1: 0 coins; ships grain, empty; no special cards; hand 3 cards: grain, porcelain, spices", start=i)
    t.wait_for(b"Player 1> ", start=i)
    t.type("quit\r")
    after_exit(t)


@test
def repl_c_locale_keeps_non_ascii_input():
    """REPL under LC_ALL=C: a letter that is not ASCII reaches the game, not dropped"""
    t = Term("%s --seed 1%s" % (shlex.quote(KONTOR), STTY_AFTER), env={"LC_ALL": "C"})
    t.wait_for(b"Player 1 to choose (load).\r\n> ")
    t.type("1\r")
    t.wait_for(b"Player 2 to choose (load).\r\n> ")
    t.type("undo \u00e9\r")   # before: "undo " reached the game, and undid the move
    i = t.wait_for("undo N: N must be a whole number above 0, not '\u00e9'\r\n".encode())
    t.type("quit\r")
    t.wait_for(b"The game is not over: saved 1 move to ", start=i)
    after_exit(t)
    check(b"Undid" not in t.out, t.shown())


@test
def play_output_piped_still_hands_over():
    """play | cat with people at the keyboard: the hand-over screens stay, no hand shown to the next"""
    t = Term("%s play --players 2 --seed 1 | cat%s" % (shlex.quote(KONTOR), STTY_AFTER))
    # before: no hand-over at all, each hand after the other on one screen
    t.wait_for(b"Pass the keyboard to Player 1 (seat 1) and press Enter.\r\n")
    t.type("\r")
    t.wait_for(b"hand 3 cards: grain, porcelain, spices")
    t.type("1\r")
    i = t.wait_for(b"press Enter to hide your hand and pass the keyboard to Player 2.")
    t.type("\r")
    t.wait_for(b"\x1b[H\x1b[2J\x1b[3JPass the keyboard to Player 2 (seat 2) and press Enter.\r\n", start=i)
    time.sleep(0.5)
    t.read(0.2)
    check(b"porcelain, spices, spices" not in t.out[i:], "Player 2's hand before Enter:\n%s" % t.shown())
    t.type("\r")
    t.wait_for(b"hand 3 cards: porcelain, spices, spices", start=i)
    t.type("\x04")
    t.wait_for(b"The game is not over: saved 1 move")
    after_exit(t)


def main():
    print("1..%d" % len(TESTS))
    failed = 0
    for i, fn in enumerate(TESTS, 1):
        try:
            fn()
            print("ok %d - %s" % (i, fn.__doc__))
        except Exception:
            failed += 1
            print("not ok %d - %s" % (i, fn.__doc__))
            for line in traceback.format_exc().splitlines():
                print("# " + line)
        sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
