"""A bot for bot-arena in a few lines: write act(view, legal) and call run(act).

The host speaks docs/book/src/protocol.md on stdin and stdout; this module does the talking. It answers
`hello`, seeds Python's `random` module from every `new_game` (so a bot that draws only from
`random` plays the same game the same way, whatever the thread count), calls act(view, legal)
for every decision and prints the action it returns. Print nothing else on stdout; what goes to
stderr ends up in the run folder's logs/<bot>.log.

    import random
    from arena_bot import run

    run(lambda view, legal: random.choice(legal))

A bot that can say with which probabilities it acts at any view, for any hand it could hold
there, passes policy(view, legal), which returns {action text: probability}: its `ready` then
says so, and the host may ask it `policy` (local best response, `arena exploit`, does, for every
hand of the range):

    run(lambda view, legal: "call", policy=lambda view, legal: {"call": 1.0})

Every bot on this module takes fault flags, to try the host (and `arena check-bot`) against a
bot that misbehaves in one way: `--fault NAME` with NAME one of `crash` (exits at its first
decision), `hang` (never answers a decision), `stall` (never answers hello), `illegal` (answers
an action the rules refuse), `protocol` (answers a line that is not JSON), `memory` (takes
300 MiB at its first decision), `quit` (ignores quit and keeps running), `policy` (answers
every `policy` with probabilities that sum to 0.5), `policy-late` (the same from a process's
second `policy` on); and `--sleep-ms N`
(sleeps N ms before every answer).

Standard library only. The module keeps what the host said last: `hello` (the game, its table
options, your bot's name and parameters), `game` (the new_game message: your seat, the game's
index, its seed).
"""

import json
import random
import sys
import time

hello = {}
game = {}


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def flags(argv):
    """The fault flags in argv: (fault name or None, milliseconds to sleep before an answer)."""
    fault, sleep_ms = None, 0
    for i, arg in enumerate(argv):
        if arg == "--fault" and i + 1 < len(argv):
            fault = argv[i + 1]
        elif arg == "--sleep-ms" and i + 1 < len(argv):
            sleep_ms = int(argv[i + 1])
    return fault, sleep_ms


def answer(act, message, fault):
    """The answer to an act, or the fault flag's misbehaviour instead."""
    if fault == "crash":
        sys.exit(3)
    if fault == "hang":
        time.sleep(1e6)
    if fault == "illegal":
        return {"action": "no-such-action"}
    if fault == "protocol":
        sys.stdout.write("this is not json\n")
        sys.stdout.flush()
        return None
    if fault == "memory":
        global ballast
        ballast = bytearray(300 << 20)  # zero-filled: resident
    return {"action": act(message["view"], message["legal"])}


ballast = None


def policy_answer(policy, message, fault, asked):
    """The answer to a policy request (the `asked`-th of this process, from 1), or the fault
    flag's misbehaviour instead."""
    said = policy(message["view"], message["legal"])
    if fault == "policy" or (fault == "policy-late" and asked > 1):
        said = {action: p / 2 for action, p in said.items()}
    return {"policy": said}


def run(act, new_game=None, game_over=None, policy=None):
    """Plays until the host says quit. act(view, legal) returns one action text;
    new_game(message) and game_over(message), when given, see those messages;
    policy(view, legal), when given, returns the probabilities act would choose with there."""
    global hello, game
    fault, sleep_ms = flags(sys.argv[1:])
    asked = 0
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            hello = message
            if fault == "stall":
                time.sleep(1e6)
            send({"type": "ready", "policy": True} if policy else {"type": "ready"})
        elif kind == "new_game":
            game = message
            random.seed(message["seed"])
            if new_game:
                new_game(message)
        elif kind == "act":
            if sleep_ms:
                time.sleep(sleep_ms / 1000)
            reply = answer(act, message, fault)
            if reply is not None:
                send(reply)
        elif kind == "policy" and policy:
            asked += 1
            send(policy_answer(policy, message, fault, asked))
        elif kind == "game_over":
            if game_over:
                game_over(message)
        elif kind == "quit":
            if fault == "quit":
                continue
            return
        # Other types come from later versions of the protocol: ignored.
