"""A bot for bot-arena in a few lines: write act(view, legal) and call run(act).

The host speaks docs/book/src/protocol.md on stdin and stdout; this module does the talking. It answers
`hello`, seeds Python's `random` module from every `new_game` (so a bot that draws only from
`random` plays the same game the same way, whatever the thread count), calls act(view, legal)
for every decision and prints the action it returns. Print nothing else on stdout; what goes to
stderr ends up in the run folder's logs/<bot>.log.

    import random
    from arena_bot import run

    run(lambda view, legal: random.choice(legal))

Standard library only. The module keeps what the host said last: `hello` (the game, its table
options, your bot's name and parameters), `game` (the new_game message: your seat, the game's
index, its seed).
"""

import json
import random
import sys

hello = {}
game = {}


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def run(act, new_game=None, game_over=None):
    """Plays until the host says quit. act(view, legal) returns one action text;
    new_game(message) and game_over(message), when given, see those messages."""
    global hello, game
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            hello = message
            send({"type": "ready"})
        elif kind == "new_game":
            game = message
            random.seed(message["seed"])
            if new_game:
                new_game(message)
        elif kind == "act":
            send({"action": act(message["view"], message["legal"])})
        elif kind == "game_over":
            if game_over:
                game_over(message)
        elif kind == "quit":
            return
        # Other types come from later versions of the protocol: ignored.
