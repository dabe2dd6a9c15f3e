"""Decisions a second of a Python bot in the process against the same bot as a program over the
JSON-lines protocol, side by side in one run of this script, for hold'em and gomoku: the benchmark
of the book's "From Python", Speed. Run with the Python that has bot_arena installed (the venv of
scripts/python-tests.sh):

    target/python-venv/bin/python scripts/python-bench.py [--rounds 5]

Each shape is run `rounds` times, the shapes taking turns, and its fastest run counts (the
machine's other work only ever slows a run). A rate is the bot's decisions (timing.csv's moves)
over the run's whole time on the wall clock, harness included; the median is timing.csv's, the
host's clock around one decision.
"""

import argparse
import csv
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python", "tests"))
sys.path.insert(0, os.path.join(HERE, "..", "python", "tests", "bots"))

import bot_arena  # noqa: E402
from conftest import protocol_bot  # noqa: E402
from hash_bot import first_legal  # noqa: E402

# The test's shapes (python/tests/test_determinism.py), and gomoku's with more games: the first
# legal move wins a gomoku game in five moves, so 100 games are 513 decisions and the run's fixed
# cost (its folder's files written and synced) is most of the time.
SHAPES = [
    ("holdem", {"game": "holdem", "games": 8000, "seed": 2, "paired": True}),
    ("gomoku", {"game": "gomoku", "games": 100, "seed": 2, "paired": True, "table": {"size": 15}}),
    ("gomoku", {"game": "gomoku", "games": 3000, "seed": 2, "paired": True, "table": {"size": 15}}),
]

# In process with its default limit (5,000 ms a decision: asked on the run's own thread, a
# watchdog raising TimeoutError in a call past its deadline), with `isolate` (each decision handed
# to a worker thread, given up on at the deadline), with no limit, and over the protocol.
SIDES = {
    "in process": ("mine", {"mine": first_legal}),
    "isolate": ({"name": "mine", "params": {"isolate": True}}, {"mine": first_legal}),
    "no limit": ({"name": "mine", "params": {"move_ms": 0}}, {"mine": first_legal}),
    "protocol": (protocol_bot("mine", "--first"), {}),
}


def once(config, bot, bots, folder):
    # A new folder each run, as the package's test has (test_determinism.py): with force=True the
    # run first removed the previous run's files, which waited on their writing-out (about 18 ms
    # of gomoku's 100 games, strace) and is no part of a run.
    started = time.perf_counter()
    bot_arena.run(dict(config, bots=[bot, "random"]), bots=bots, out=folder)
    seconds = time.perf_counter() - started
    rows = {row["bot"]: row for row in csv.DictReader(open(os.path.join(folder, "timing.csv")))}
    return int(rows["mine"]["moves"]), seconds, float(rows["mine"]["median_ms"])


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    rounds = parser.parse_args().rounds
    with tempfile.TemporaryDirectory() as tmp:
        for game, config in SHAPES:
            best = {}
            for _ in range(rounds):
                for side, (bot, bots) in SIDES.items():
                    moves, seconds, median = once(config, bot, bots, os.path.join(tempfile.mkdtemp(dir=tmp), "run"))
                    if side not in best or seconds < best[side][1]:
                        best[side] = (moves, seconds, median)
            rate = {side: moves / seconds for side, (moves, seconds, _) in best.items()}
            print(f"{game}, {config['games']} games, {best['protocol'][0]:,} decisions of the bot:")
            for side, (moves, seconds, median) in best.items():
                print(f"  {side:<10} {rate[side]:>9,.0f} decisions/s ({seconds:.3f} s), median decision {median * 1000:.0f} µs")
            for side in ("in process", "isolate", "no limit"):
                print(f"  {side}: {rate[side] / rate['protocol']:.1f} times the protocol's decisions/s")


if __name__ == "__main__":
    main()
