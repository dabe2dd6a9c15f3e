#!/usr/bin/env python3
"""Reference rating lists from Ordo (https://github.com/michiguel/Ordo) for tests/ratings_reference.rs.

Reads tests/data/ratings/results.csv and decisive.csv (a,b,wins,draws,losses: a's results against
b), writes every game as a PGN game (a with white, so colour plays no part: Ordo's white advantage
is 0 by default) and runs Ordo with the logistic Elo scale (-z 400*log10(0.76/0.24): 76% expected
score at that many points is exactly 400 per factor of 10 in the odds): results.csv anchored at the
pool's mean and at player C, decisive.csv with errors by simulation. The outputs go next to the
results, as committed.

    python3 scripts/ordo_reference.py /path/to/ordo
"""
import csv
import math
import os
import subprocess
import sys
import tempfile

DATA = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "ratings")


def write_pgn(results, path):
    with open(os.path.join(DATA, results)) as f, open(path, "w") as out:
        for row in csv.DictReader(f):
            for result, count in (("1-0", "wins"), ("1/2-1/2", "draws"), ("0-1", "losses")):
                for _ in range(int(row[count])):
                        out.write(f'[White "{row["a"]}"]\n[Black "{row["b"]}"]\n[Result "{result}"]\n\n{result}\n\n')


def main(ordo):
    scale = 400 * math.log10(0.76 / 0.24)
    with tempfile.TemporaryDirectory() as tmp:
        games, decisive = os.path.join(tmp, "games.pgn"), os.path.join(tmp, "decisive.pgn")
        write_pgn("results.csv", games)
        write_pgn("decisive.csv", decisive)
        # The decisive games' run also estimates errors: it replays every game 20,000 times from the
        # fitted ratings without draws (-d 0), giving the 95% error of each rating and of every
        # difference (-e). Ordo seeds its generator with a constant, so they repeat exactly.
        errors = os.path.join(DATA, "ordo-decisive-errors.csv")
        runs = (
            (games, "ordo-mean.csv", []),
            (games, "ordo-anchor-C.csv", ["-A", "C"]),
            (decisive, "ordo-decisive.csv", ["-d", "0", "-s", "20000", "-e", errors]),
        )
        for pgn, name, extra in runs:
            cmd = [ordo, "-q", "-p", pgn, "-a", "0", "-z", f"{scale:.12f}", "-N", "6", "-c", os.path.join(DATA, name)]
            subprocess.run(cmd + extra, check=True, stdout=subprocess.DEVNULL)
            print("ordo", " ".join(os.path.basename(x) if os.path.isabs(x) else x for x in cmd[1:] + extra))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "ordo")
