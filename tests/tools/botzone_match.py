#!/usr/bin/env python3
"""Plays games of Botzone's Chinese-Standard-Mahjong under Botzone's own judge, offline: a small
controller written from Botzone's description of how the platform drives a judge and its bots.

    python3 tests/tools/botzone_match.py JUDGE --games N [--seed S] [--simple 0,2] [--keep 1,3] \
        -- BOT0 -- BOT1 -- BOT2 -- BOT3

Each BOTi is a command line (split on spaces). Every turn the judge (judge/main.cpp built with
-D_BOTZONE_ONLINE, docs/book/src/botzone.md) is run on the whole log and prints the four requests, or the
scores; each bot gets its request: afresh, the whole history (JSON, or the simple interaction for
the seats in --simple) with its stdin closed; or, for the seats in --keep, kept running once it
prints >>>BOTZONE_REQUEST_KEEP_RUNNING<<< and then given the request alone. A bot's answer goes
into the log with verdict OK; a bot that exits without an answer, or takes more than 10 seconds,
gets RE or TLE as Botzone gives them. The wall is 144 tiles (with the flowers, as Botzone's game
page says) shuffled from the seed and the game's number.

Prints one line a game (its scores and how it ended) and a summary: games, how each ended (HU,
HUANG, or the judge's error verdicts WA, RE, TLE, ...), and each seat's total score. Exits 1 if any
game ended in an error verdict.
"""

import json
import os
import random
import subprocess
import sys
from collections import Counter

KEEP = ">>>BOTZONE_REQUEST_KEEP_RUNNING<<<"
TILES = [s + str(n) for s in "WBT" for n in range(1, 10)] + ["F%d" % n for n in range(1, 5)] + ["J%d" % n for n in range(1, 4)]


class Seat:
    def __init__(self, command, simple, keep):
        self.command, self.simple, self.keep = command, simple, keep
        self.requests, self.responses = [], []
        self.process = None

    def reset(self):
        self.stop()
        self.requests, self.responses = [], []

    def stop(self):
        if self.process:
            self.process.kill()
            self.process.wait()
            self.process = None

    def history(self):
        if self.simple:
            lines = [str(len(self.requests))]
            for i, request in enumerate(self.requests):
                lines.append(request)
                if i < len(self.responses):
                    lines.append(self.responses[i])
            return "\n".join(lines) + "\n"
        return json.dumps({"requests": self.requests, "responses": self.responses}) + "\n"

    def read_answer(self):
        """Lines until the keep-running line or the end of the output: (text, kept)."""
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                return "".join(lines), False
            if line.strip() == KEEP:
                return "".join(lines), True
            lines.append(line)

    def ask(self, request):
        self.requests.append(request)
        try:
            if self.process is None:
                self.process = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                                stderr=subprocess.DEVNULL, text=True)
                self.process.stdin.write(self.history())
                self.process.stdin.flush()
                if not self.keep:
                    self.process.stdin.close()
            else:
                self.process.stdin.write((request if self.simple else json.dumps(request)) + "\n")
                self.process.stdin.flush()
            text, kept = self.read_answer()
        except (BrokenPipeError, OSError):
            text, kept = "", False
        if not (kept and self.keep):
            self.stop()
        if not text.strip():
            self.responses.append("")
            return {"verdict": "RE"}
        if self.simple:
            response = text.split("\n")[0].strip()
        else:
            try:
                value = json.loads(text)
            except ValueError:
                self.responses.append("")
                return {"verdict": "OK", "response": text.strip()}
            response = value["response"] if isinstance(value, dict) and "response" in value else value
        self.responses.append(response)
        return {"verdict": "OK", "response": response}


def judge_step(judge, log, initdata):
    out = subprocess.run([judge], input=json.dumps({"log": log, "initdata": initdata}), capture_output=True,
                         text=True, timeout=30).stdout
    return json.loads(out)


def play(judge, seats, seed, game):  # noqa: C901 (one game, told in order)
    rng = random.Random(seed * 1_000_003 + game)
    wall = [t for t in TILES for _ in range(4)] + ["H%d" % n for n in range(1, 9)]
    rng.shuffle(wall)
    initdata = {"walltiles": " ".join(wall), "quan": game % 4, "srand": game}
    for seat in seats:
        seat.reset()
    log = []
    while True:
        out = judge_step(judge, log, initdata)
        log.append({"verdict": "OK", "output": out})
        if out["command"] == "finish":
            for seat in seats:
                seat.stop()
            scores = [out["content"][str(p)] for p in range(4)]
            action = out["display"].get("action", "?")
            if action not in ("HU", "HUANG"):
                # An error verdict: what the judge said, and the last turns of the player at fault.
                print("game %d: the judge's verdict %s" % (game, json.dumps(out["display"])), file=sys.stderr)
                player = out["display"].get("player")
                if isinstance(player, int):
                    seat = seats[player]
                    for request, response in list(zip(seats[player].requests, seat.responses))[-4:]:
                        print("  player %d: %s -> %s" % (player, request, response), file=sys.stderr)
            return action, scores
        answers = {}
        for p, seat in enumerate(seats):
            answers[str(p)] = seat.ask(out["content"][str(p)])
        log.append(answers)


def main():
    argv = sys.argv[1:]
    split = argv.index("--")
    head, bots = argv[:split], " ".join(argv[split + 1:]).split(" -- ")
    judge, games, seed, simple, keep = head[0], 1, 1, set(), set()
    i = 1
    while i < len(head):
        flag, value = head[i], head[i + 1]
        if flag == "--games":
            games = int(value)
        elif flag == "--seed":
            seed = int(value)
        elif flag == "--simple":
            simple = {int(x) for x in value.split(",") if x}
        elif flag == "--keep":
            keep = {int(x) for x in value.split(",") if x}
        i += 2
    if len(bots) != 4:
        sys.exit("four bots, each after --")
    seats = [Seat(bots[p].split(), p in simple, p in keep) for p in range(4)]
    ends, totals = Counter(), [0, 0, 0, 0]
    only = [int(x) for x in os.environ.get("ONLY", "").split(",") if x]
    for game in (only or range(games)):
        end, scores = play(judge, seats, seed, game)
        ends[end] += 1
        totals = [t + s for t, s in zip(totals, scores)]
        print("game %d: %s %s" % (game, end, scores), flush=True)
    errors = sum(n for end, n in ends.items() if end not in ("HU", "HUANG"))
    print("%d games: %s; total scores by seat %s; %d ended in an error verdict" % (games, dict(ends), totals, errors))
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
