"""A deterministic bot, in the process or over the protocol: the same choice either way.

It picks the legal action that a hash of the whole `act` message names, so it depends on every
field of the view: two runs give the same games only if both hand it the same messages.
Run as a program, it speaks the JSON-lines protocol on stdin and stdout (standard library only).
"""

import json
import sys
import zlib


def choose(message):
    """The action for an `act` message (a dict)."""
    legal = message["legal"]
    key = json.dumps(message, sort_keys=True).encode()
    return legal[zlib.crc32(key) % len(legal)]


def first_legal(message):
    """The first legal action: the cheapest bot there is, for measuring the harness."""
    return message["legal"][0]


def serve(choose):
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            answer = {"type": "ready"}
        elif kind == "act":
            answer = {"action": choose(message)}
        elif kind == "quit":
            return
        else:
            continue
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    serve(first_legal if sys.argv[1:] == ["--first"] else choose)
