#!/usr/bin/env python3
"""A small Botzone Chinese-Standard-Mahjong bot, written from Botzone's description of the game's
requests and of a bot's input and output (docs/book/src/botzone.md says both).

    python3 botzone_mahjong.py [--io json|simple] [--keep] [--seed N] [--fault WHAT --at N]

Each turn it reads the whole history (the simple interaction: the turn number, then the requests
and its own responses interleaved, then its `data` line; or one JSON line), follows its hand
through the requests (its deal, its draws, its own discards and sets), and answers: on its draw,
`PLAY` of a tile it holds (a lone honour first, else one at random); on another's discard, `PENG`
when it holds a pair of it (then discards as above), else `PASS`. It never declares a win. Its
random choices are seeded by --seed and the turn number, so a turn's answer depends on nothing
else. It saves `turn <n>` as its `data` and checks, the next turn, that it got it back (else it
exits with code 3).

--keep: after its first answer it prints >>>BOTZONE_REQUEST_KEEP_RUNNING<<< and stays, reading one
request a turn (a bare line; a JSON string or object with --io json).

--fault is for testing a host, from turn --at on: `malformed` answers `PLAY` with no tile,
`wrong-turn` answers `PLAY W1` (whatever the request), `stall` stops answering, `false-win`
answers `HU` to its next draw, `crash` exits with code 1.
"""

import json
import random
import sys

KEEP = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"


class Table:
    """What the bot knows: its id, its hand, the last discard."""

    def __init__(self):
        self.me = None
        self.hand = []
        self.last = None  # (player, tile) of the last discard

    def see(self, request):
        words = request.split()
        if words[0] == "0":
            self.me = int(words[1])
        elif words[0] == "1":
            self.hand = words[5:18]
        elif words[0] == "2":
            self.hand.append(words[1])
        elif words[0] == "3":
            who, what = int(words[1]), words[2]
            mine = who == self.me
            if what == "PLAY":
                if mine:
                    self.hand.remove(words[3])
                self.last = (who, words[3])
            elif what == "PENG":
                if mine:
                    for _ in range(2):
                        self.hand.remove(self.last[1])
                    self.hand.remove(words[3])
                self.last = (who, words[3])
            elif what == "CHI":
                if mine:
                    mid = words[3]
                    run = [mid[0] + str(int(mid[1]) + d) for d in (-1, 0, 1)]
                    run.remove(self.last[1])
                    for t in run:
                        self.hand.remove(t)
                    self.hand.remove(words[4])
                self.last = (who, words[4])

    def discard(self, rng, without=()):
        hand = list(self.hand)
        for t in without:
            hand.remove(t)
        lone = sorted(t for t in set(hand) if t[0] in "FJ" and hand.count(t) == 1)
        return lone[0] if lone else rng.choice(sorted(hand))

    def answer(self, request, rng):
        words = request.split()
        if words[0] == "2":
            return "PLAY " + self.discard(rng)
        if words[0] == "3" and int(words[1]) != self.me and words[2] in ("PLAY", "PENG", "CHI"):
            tile = self.last[1]
            if self.hand.count(tile) >= 2:
                return "PENG " + self.discard(rng, without=(tile, tile))
        return "PASS"


def fault_answer(args, turn, request):
    """The answer a --fault gives at this turn, or None."""
    if args["fault"] is None or turn < args["at"]:
        return None
    kind = args["fault"]
    if kind == "malformed":
        return "PLAY"
    if kind == "wrong-turn":
        return "PLAY W1"
    if kind == "stall":
        sys.stdout.flush()
        sys.stdin.read()  # never returns while the host keeps the pipe open
        sys.exit(0)
    if kind == "crash":
        sys.exit(1)
    if kind == "false-win" and request.startswith("2 "):
        return "HU"
    return None


def respond(table, args, turn, request):
    table.see(request)
    rng = random.Random(args["seed"] * 1_000_003 + turn)
    return fault_answer(args, turn, request) or table.answer(request, rng)


def write(args, response, turn, keep):
    if args["io"] == "json":
        out = json.dumps({"response": response, "debug": "turn %d" % turn, "data": "turn %d" % turn})
    else:
        out = "%s\nturn %d\nturn %d" % (response, turn, turn)
    sys.stdout.write(out + "\n")
    if keep:
        sys.stdout.write(KEEP + "\n")
    sys.stdout.flush()


def read_history(args):
    """The first turn's input: every request so far, the responses, the saved data."""
    if args["io"] == "json":
        doc = json.loads(sys.stdin.readline())
        return doc["requests"], doc.get("data", "")
    n = int(sys.stdin.readline())
    lines = [sys.stdin.readline().rstrip("\n") for _ in range(2 * n - 1)]
    # The host writes a data line only when there is data; this bot saves some every turn.
    data = sys.stdin.readline().rstrip("\n") if n > 1 else ""
    return lines[0::2], data


def main():
    argv = sys.argv[1:]
    args = {"io": "json", "keep": False, "seed": 0, "fault": None, "at": 1}
    i = 0
    while i < len(argv):
        flag = argv[i]
        if flag == "--keep":
            args["keep"] = True
            i += 1
            continue
        args[flag[2:]] = argv[i + 1] if flag in ("--io", "--fault") else int(argv[i + 1])
        i += 2
    requests, data = read_history(args)
    turn = len(requests)
    if turn > 1 and not args["keep"] and data != "turn %d" % (turn - 1):
        sys.stderr.write("data not kept: got %r on turn %d\n" % (data, turn))
        sys.exit(3)
    table = Table()
    for request in requests[:-1]:
        table.see(request)
    write(args, respond(table, args, turn, requests[-1]), turn, args["keep"])
    if not args["keep"]:
        return
    while True:
        line = sys.stdin.readline()
        if not line:
            return
        line = line.strip()
        if not line:
            continue
        if args["io"] == "json":
            value = json.loads(line)
            line = value["requests"][-1] if isinstance(value, dict) else value
        turn += 1
        write(args, respond(table, args, turn, line), turn, True)


if __name__ == "__main__":
    main()
