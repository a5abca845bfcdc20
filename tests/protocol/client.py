"""A client of `kontor serve` (docs/protocol.md), Python 3 standard library only.

    from client import Server
    with Server("build/kontor") as s:
        game = s.call("new", players=3, seed=7)["game"]
        d = s.call("decision", game=game)
        s.call("apply", game=game, action=d["options"][0]["n"])

Every request sent and every response read is checked against its JSON
Schema (tests/protocol/schemas/), with the small validator below: it knows
the part of JSON Schema those files use (type, const, enum, properties,
required, additionalProperties, items, oneOf, minimum, pattern, $ref).
"""

import json
import os
import re
import subprocess

SCHEMAS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "schemas")


class SchemaError(Exception):
    pass


class Validator:
    """Validates JSON values against the schema files of one folder."""

    TYPES = {
        "object": lambda v: isinstance(v, dict),
        "array": lambda v: isinstance(v, list),
        "string": lambda v: isinstance(v, str),
        "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
        "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
        "boolean": lambda v: isinstance(v, bool),
        "null": lambda v: v is None,
    }

    def __init__(self, folder=SCHEMAS):
        self.folder = folder
        self.files = {}

    def load(self, name):
        if name not in self.files:
            with open(os.path.join(self.folder, name)) as f:
                self.files[name] = json.load(f)
        return self.files[name]

    def resolve(self, ref, base):
        name, _, pointer = ref.partition("#")
        name = name or base
        node = self.load(name)
        for part in [p for p in pointer.split("/") if p]:
            node = node[part]
        return node, name

    def validate(self, value, schema_file):
        self.check(value, self.load(schema_file), schema_file, "$")

    def check(self, v, s, base, at):
        def bad(msg):
            raise SchemaError("%s (%s): %s" % (at, base, msg))

        if "$ref" in s:
            target, name = self.resolve(s["$ref"], base)
            self.check(v, target, name, at)
        known = {"$schema", "$id", "$ref", "$defs", "title", "description", "type", "const", "enum",
                 "properties", "required", "additionalProperties", "items", "oneOf", "minimum",
                 "pattern"}
        unknown = set(s) - known
        if unknown:
            bad("the validator does not know %s" % ", ".join(sorted(unknown)))
        if "type" in s:
            types = s["type"] if isinstance(s["type"], list) else [s["type"]]
            if not any(self.TYPES[t](v) for t in types):
                bad("%r is not of type %s" % (v, " or ".join(types)))
        if "const" in s and not same(v, s["const"]):
            bad("%r is not %r" % (v, s["const"]))
        if "enum" in s and not any(same(v, e) for e in s["enum"]):
            bad("%r is not one of %r" % (v, s["enum"]))
        if "minimum" in s and self.TYPES["number"](v) and v < s["minimum"]:
            bad("%r is below %r" % (v, s["minimum"]))
        if "pattern" in s and isinstance(v, str) and not re.search(s["pattern"], v):
            bad("%r does not match %r" % (v, s["pattern"]))
        if isinstance(v, dict):
            for k in s.get("required", []):
                if k not in v:
                    bad("%r is missing" % k)
            props = s.get("properties", {})
            extra = s.get("additionalProperties", True)
            for k, x in v.items():
                if k in props:
                    self.check(x, props[k], base, "%s.%s" % (at, k))
                elif extra is False:
                    bad("%r is not allowed" % k)
                elif isinstance(extra, dict):
                    self.check(x, extra, base, "%s.%s" % (at, k))
        if isinstance(v, list) and "items" in s:
            for i, x in enumerate(v):
                self.check(x, s["items"], base, "%s[%d]" % (at, i))
        if "oneOf" in s:
            passed = 0
            for sub in s["oneOf"]:
                try:
                    self.check(v, sub, base, at)
                    passed += 1
                except SchemaError:
                    pass
            if passed != 1:
                bad("%r matches %d of the oneOf schemas, not 1" % (v, passed))


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
        self.validator = Validator() if validate else None
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
