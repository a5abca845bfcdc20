"""tests/protocol/test_frontend2.py: what a front-end author met writing a
client from docs/protocol.md alone (a terminal client playing every rule
set with bots, people's undo with "agree", errors as they come).

Run by tests/protocol/test_serve.py with the other protocol tests.
"""

from test_serve import KONTOR, Server, check, equal, test


@test
def a_bot_among_the_seats_refuses_a_reveals_undo_at_once():
    """undo of a reveal with a person and a bot to agree: the bot's refusal, without an "agree" no yes can satisfy"""
    with Server(KONTOR) as s:
        game = s.call("new", rules="caribbean", players=3, seed=4, bots={"3": "random"})["game"]
        s.call("apply", game=game, seat=1, action="reveal")
        moves = s.call("moves", game=game)["moves"]
        bot_says = ("seat 3 is a bot, and a bot does not take back a move that showed a hidden card: seat 1 "
                    "would know where it lies (a game made with \"free_undo\": true has bots agree to every undo)")
        # The docs: ask the seats in "agree", then send them. Seat 2 says
        # yes: the bot still says no, and no "agree" asks seat 2 again (a
        # client doing what the error says would loop).
        for agree in (None, [2]):
            fields = dict(game=game, seat=1)
            if agree:
                fields["agree"] = agree
            r = s.request("undo", **fields)
            equal(r["ok"], False, "undo with agree %r" % agree)
            equal(r["error"], {"code": "illegal_action", "message": bot_says}, "undo with agree %r" % agree)
        equal(s.call("moves", game=game)["moves"], moves, "the game after the refused undos")
        # free_undo: the bot agrees, and seat 2 is asked as a person is
        game = s.call("new", rules="caribbean", players=3, seed=4, bots={"3": "random"}, free_undo=True)["game"]
        s.call("apply", game=game, seat=1, action="reveal")
        r = s.request("undo", game=game, seat=1)
        equal(r["error"].get("agree"), [2], "the consent free_undo still needs")
        u = s.call("undo", game=game, seat=1, agree=[2])
        equal(u["undone"], [{"seat": 1, "text": "reveal"}], "undone with seat 2's yes and free_undo")


@test
def a_variant_of_another_rule_set_says_what_fits_without_the_servers_paths():
    """new with a variant of another rule set: the variants that fit and the rule set it is for, not the variant file's place on the server"""
    with Server(KONTOR) as s:
        r = s.request("new", rules="caribbean", variants=["hand_limit"])
        equal(r["error"], {"code": "game_setup", "message": "variant hand_limit is for sea_merchants, not caribbean "
                           "(variants of caribbean: port_royal; \"rules\": \"sea_merchants\" for hand_limit)"},
              "the refusal")
        r = s.request("new", rules="old_world", variants=[{"name": "house"}])
        equal(r["error"]["message"], "variant house is for sea_merchants, not old_world "
              "(\"rules\": \"sea_merchants\" for house)", "a rule set with no variant")
        # a variant given as the rule set: "variants", not --variant and the server's path of its file
        r = s.request("new", rules="hand_limit")
        equal(r["error"], {"code": "game_setup", "message": "hand_limit is a variant (of sea_merchants), not a rule "
                           "set: give it in \"variants\" ([\"hand_limit\"]), with \"rules\": \"sea_merchants\""},
              "a variant as the rule set")
        equal(s.call("new", variants=["hand_limit"], players=2, seed=1)["rules"], "sea_merchants", "as the message says")


@test
def a_seats_record_in_progress_says_what_loads_in_the_protocols_words():
    """load of a seat's record of a game in progress: what to load instead is a save without "seat", not the REPL's `save FILE` or kontor play"""
    import os
    from test_serve import TMP
    with Server(KONTOR) as s:
        game = s.call("new", rules="caribbean", players=2, seed=1)["game"]
        said = ("seat 2's record of a game in progress: it leaves out the deal (the seed), which that seat may not "
                "see, so it does not replay; a game goes on from a save of the whole game (\"save\" without \"seat\")")
        doc = s.call("save", game=game, seat=2)["document"]
        equal(s.request("load", document=doc)["error"], {"code": "game_setup", "message": "document: " + said},
              "loading the document")
        path = os.path.join(TMP, "seat2-record.json")
        s.call("save", game=game, seat=2, path=path)
        equal(s.request("load", path=path)["error"], {"code": "game_setup", "message": path + ": " + said},
              "loading the file")
        # what the message says to do loads
        whole = s.call("save", game=game)["document"]
        equal(s.call("load", document=whole)["seed"], 1, "the whole game's save")


@test
def a_game_says_whether_its_bots_agree_to_every_undo():
    """free_undo is in the started game and in games, so a front end that did not make the game knows whether a bot will refuse a reveal's undo"""
    with Server(KONTOR) as s:
        plain = s.call("new", rules="caribbean", players=2, seed=4, bots={"2": "random"})
        free = s.call("new", rules="caribbean", players=2, seed=4, bots={"2": "random"}, free_undo=True)
        equal((plain["free_undo"], free["free_undo"]), (False, True), "the started games")
        equal([(g["game"], g["free_undo"]) for g in s.call("games")["games"]],
              [(plain["game"], False), (free["game"], True)], "games")
        doc = s.call("save", game=free["game"])["document"]
        equal(s.call("load", document=doc)["free_undo"], False, "a save does not keep it")
        equal(s.call("load", document=doc, free_undo=True)["free_undo"], True, "load's own")


LOOP = """local R = { name = "loop", title = "Loop", players = { min = 2, max = 2, default = 2 } }
function R.setup(g) g.n = 0 end
function R.play(g)
  while true do
    local k = g:choose(1, "turn", { "go", "spin", "boom" })
    if k == 2 then local x = 0; while true do x = x + 1 end end
    if k == 3 then error("boom") end
  end
end
function R.scores(g) return { 1, 0 } end
return R
"""


@test
def a_limit_in_a_rule_script_says_where_as_the_repl_does():
    """script_error for a limit reached in a rule script: the script's file:line after the message, as the REPL prints it"""
    import os
    from test_serve import TMP
    path = os.path.join(TMP, "fe2_loop.lua")
    with open(path, "w") as f:
        f.write(LOOP)
    with Server(KONTOR) as s:
        game = s.call("new", rules=path, seed=1)["game"]
        r = s.request("apply", game=game, action="spin")
        equal(r["error"], {"code": "script_error", "limit": "time",
                           "message": "time limit reached (0.5 s of CPU per step), in %s:6" % path}, "the limit")
        r = s.request("apply", game=game, action="boom")
        equal(r["error"], {"code": "script_error", "message": "%s:7: boom" % path}, "the script's own error")
        equal(s.call("moves", game=game)["moves"], [], "the game as it was")
