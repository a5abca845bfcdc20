"""tests/protocol/test_feqa.py: `kontor serve` as a front end's author meets
it (docs/protocol.md): every refused request gets one error reply whose
`code` says what went wrong and whose message a player can read as it is.

Run by tests/protocol/test_serve.py with the other protocol tests.
"""

from test_serve import KONTOR, Server, equal, test


@test
def a_request_without_op_names_what_is_missing():
    """a request with an id and no op (or "op": null) is a bad_request that says every request needs an op"""
    # Before: {"id": 1} gave "'nil' needs \"op\"", the Lua nil of the
    # missing op in the text a front end shows.
    want = {"code": "bad_request", "message": "every request needs an \"op\": a string naming the operation"}
    with Server(KONTOR) as s:
        equal(s.send_line('{"id": 1}'), {"id": 1, "ok": False, "error": want}, "no op")
        equal(s.send_line('{"id": "x", "op": null}'), {"id": "x", "ok": False, "error": want}, "op null")
        equal(s.send_line('{"id": 2, "op": 7}')["error"],
              {"code": "bad_request", "message": "\"op\" must be a string"}, "op not a string")
        equal(s.call("hello")["protocol"], 1, "the session goes on")
