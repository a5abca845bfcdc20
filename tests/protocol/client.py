"""A client of `kontor serve` (docs/protocol.md).

    from client import Server
    with Server("build/kontor") as s:
        game = s.call("new", players=3, seed=7)["game"]
        d = s.call("decision", game=game)
        s.call("apply", game=game, action=d["options"][0]["n"])

Every request sent and every response read is checked against its JSON
Schema (tests/protocol/schemas/, draft 2020-12) with jsonschema (Debian's
python3-jsonschema), a maintained validator of the whole standard, not a
hand-written one: what the schemas say is what is checked.
"""

import json
import os
import subprocess

import jsonschema

SCHEMAS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "schemas")


class SchemaError(Exception):
    pass


class Validator:
    """Validates JSON values against the schema files of one folder, each
    file named by its $id; "common.json#/$defs/seat" refers across files."""

    def __init__(self, folder=SCHEMAS):
        self.schemas = {}
        for name in sorted(os.listdir(folder)):
            if name.endswith(".json"):
                with open(os.path.join(folder, name)) as f:
                    schema = json.load(f)
                jsonschema.Draft202012Validator.check_schema(schema)   # the schemas themselves
                self.schemas[schema.get("$id", name)] = schema
        self.validators = {}
        try:                       # jsonschema >= 4.18: the referencing library
            from referencing import Registry, Resource
            from referencing.jsonschema import DRAFT202012
            registry = Registry().with_resources(
                [(i, Resource.from_contents(s, default_specification=DRAFT202012)) for i, s in self.schemas.items()])
            self.make = lambda s: jsonschema.Draft202012Validator(s, registry=registry)
        except ImportError:        # Debian 12's python3-jsonschema 4.10
            store = dict(self.schemas)
            self.make = lambda s: jsonschema.Draft202012Validator(
                s, resolver=jsonschema.RefResolver(base_uri=s.get("$id", ""), referrer=s, store=store))

    _shared = None

    @classmethod
    def shared(cls):
        """One Validator a process: the schema files are read and checked
        once (0.1 s), not once a server (some 40 in the protocol test)."""
        if cls._shared is None:
            cls._shared = cls()
        return cls._shared

    def validate(self, value, schema_file):
        if schema_file not in self.validators:
            self.validators[schema_file] = self.make(self.schemas[schema_file])
        error = jsonschema.exceptions.best_match(self.validators[schema_file].iter_errors(value))
        if error is not None:
            at = "$" + "".join("[%d]" % p if isinstance(p, int) else ".%s" % p for p in error.absolute_path)
            raise SchemaError("%s (%s): %s" % (at, schema_file, error.message))


def same(a, b):
    """JSON equality: true is not 1."""
    return type(a) is type(b) and a == b if isinstance(a, bool) or isinstance(b, bool) else a == b


class ProtocolError(Exception):
    def __init__(self, response):
        self.response = response
        self.code = response["error"]["code"]
        self.message = response["error"]["message"]
        Exception.__init__(self, "%s: %s" % (self.code, self.message))


class Server:
    """`kontor serve` in a child process; call() sends one request and
    returns its result (or raises ProtocolError); send_line() sends any
    text and returns the raw response."""

    def __init__(self, binary, env=None, validate=True):
        self.proc = subprocess.Popen([binary, "serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     env=env, text=True, encoding="utf-8", bufsize=1)
        self.validator = Validator.shared() if validate else None
        self.next_id = 1
        self.checked = 0   # messages validated against their schemas

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        if self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait(timeout=60)
        self.proc.stdout.close()
        return self.proc.returncode

    total_checked = 0   # over all servers: for the test's summary

    def validate(self, value, schema_file):
        if self.validator:
            self.validator.validate(value, schema_file)
            self.checked += 1
            Server.total_checked += 1

    def send_line(self, line):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        out = self.proc.stdout.readline()
        if not out:
            raise EOFError("kontor serve ended (status %r)" % self.proc.poll())
        return json.loads(out)

    def request(self, op, _valid=True, **fields):
        """Sends {id, op, **fields}; returns the whole response, checked.
        With _valid=False the request must be one its schema refuses."""
        req = dict(fields, op=op, id=self.next_id)
        self.next_id += 1
        if _valid:
            self.validate(req, op + ".request.json")
        elif self.validator:
            try:
                self.validator.validate(req, op + ".request.json")
            except SchemaError:
                self.checked += 1
                Server.total_checked += 1
            else:
                raise SchemaError("the schema of %s accepts %r" % (op, req))
        resp = self.send_line(json.dumps(req))
        if resp.get("id") != req["id"]:
            raise SchemaError("response id %r for request id %r" % (resp.get("id"), req["id"]))
        self.validate(resp, op + ".response.json" if resp.get("ok") else "error.json")
        return resp

    def call(self, op, **fields):
        resp = self.request(op, **fields)
        if not resp["ok"]:
            raise ProtocolError(resp)
        return resp["result"]
