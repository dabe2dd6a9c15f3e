#!/usr/bin/env python3
"""The gap between an adjusted mean and the plain one, pooled over runs (issue 51: stud's all-in
adjusted mean sat +0.07 chips a hand above the plain one over 20 seeds).

    python3 scripts/luck-gap.py RUN_DIR [RUN_DIR ...]

Each RUN_DIR is a two-bot `arena run` with `estimator = "all-in"` or `"aivat"` (e.g.
configs/luck/stud-expert-always-call.toml with `--seed N`). For the first bot of each run and
each adjusted estimator its games.csv carries (`all-in`: `payoff_allin`, from an all-in run
only; `aivat-unfitted`: `payoff_aivat`; `aivat`: the verdict's, the terms weighed as
scripts/luck-ratios.py fits them),
it prints the gap, adjusted − plain, per deal (the mean over the deal's games), its mean over the
deals with its standard error and z, run by run and pooled over every deal of every run; then
the pooled gap per game in the games where the two differ (for `all-in`: the games settled
all-in) by the seat the first bot sat in. An unbiased estimator's gap has mean zero: pooled over
many runs, z stays within ±2 but once in twenty.
"""

import csv
import importlib.util
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("luck_ratios", os.path.join(HERE, "luck-ratios.py"))
ratios = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ratios)


def mean_se(xs):
    n = len(xs)
    m = sum(xs) / n
    v = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, math.sqrt(v / n)


def seats(run):
    """The first bot's seat in each game, keyed by (deal seed, game)."""
    out, first = {}, None
    with open(f"{run}/games.csv", newline="") as f:
        for row in csv.DictReader(f):
            first = first or row["bot"]
            if row["bot"] == first:
                out[(row["seed"], row["game"])] = int(row["seat"])
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit("error: give one or more run directories (scripts/luck-gap.py RUN_DIR ...)")
    pooled = {}  # estimator -> per-deal gaps
    by_seat = {}  # (estimator, seat) -> per-game gaps where adjusted != plain
    print("run | estimator | deals | gap, chips/hand ± s.e. | z")
    for run in sys.argv[1:]:
        deals, (a, _) = ratios.read(run)
        where = seats(run)
        keys = list(where)
        estimators = [e for e in ratios.COLUMNS if all(e in g[a] for d in deals for g in d)]
        with open(f"{run}/summary.csv", newline="") as f:
            own = next(csv.DictReader(f))["estimator"]
        if "aivat-unfitted" in estimators and any(g[a]["terms"] for d in deals for g in d):
            ratios.fitted(deals, a)
            estimators.insert(0, "aivat")
        # An aivat run's payoff_allin is the sampled all-in adjustment, not the estimator's: it
        # is left out. (An all-in run's AIVAT columns differ from an aivat run's only by the
        # last step's value, exact there: unbiased as well.)
        if own != "all-in":
            estimators = [e for e in estimators if e != "all-in"]
        for est in estimators:
            gaps = [sum(g[a][est] - g[a]["plain"] for g in d) / len(d) for d in deals]
            m, se = mean_se(gaps)
            print(f"{os.path.basename(run.rstrip('/'))} | {est} | {len(gaps)} | {m:+.4f} ± {se:.4f} | {m / se:+.2f}")
            pooled.setdefault(est, []).extend(gaps)
            i = 0
            for d in deals:
                for g in d:
                    gap = g[a][est] - g[a]["plain"]
                    if gap != 0.0:
                        by_seat.setdefault((est, where[keys[i]]), []).append(gap)
                    i += 1
    for est, gaps in pooled.items():
        m, se = mean_se(gaps)
        print(f"pooled | {est} | {len(gaps)} | {m:+.4f} ± {se:.4f} | {m / se:+.2f}")
    print("estimator | first bot's seat | games adjusted | gap a game, chips ± s.e. | z | share of the pooled gap")
    for (est, seat), gaps in sorted(by_seat.items()):
        m, se = mean_se(gaps)
        total = sum(pooled[est]) * 2  # per-deal gaps are means of two games
        share = sum(gaps) / total if total else float("nan")
        print(f"{est} | {seat} | {len(gaps)} | {m:+.4f} ± {se:.4f} | {m / se:+.2f} | {share:.2f}")


if __name__ == "__main__":
    main()
