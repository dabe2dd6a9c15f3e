#!/usr/bin/env python3
"""Which weights of the AIVAT terms take out the most variance (issue 51), offline.

    python3 scripts/luck-fit.py RUN_DIR [RUN_DIR ...]

RUN_DIR is an `arena run` output directory of a two-bot paired run with `estimator = "aivat"`
(configs/luck/*.toml), whose games.csv carries `aivat_terms`: each seat's AIVAT terms summed by
component, `component:sum` pairs (docs/book/src/output.md). A component is
`(value × 2 + kind) × cells + cell`: value 0 the game's check-down value, 1 its stake value (every
chip that can still go in); kind 0 a decision's term, 1 a chance's; the cell the street and pot
bucket (hold'em and stud: `street × 4 + bucket`, 20 cells).

Every term has mean zero given what came before it, so `adjusted = aivat − βᵀx` keeps the mean for
any `β` fitted on other deals than the one it adjusts. For each feature set (a grouping of the
components into features `x`), `β` is fitted by least squares on the deals *before* each block of
500 (the first block keeps today's AIVAT), and the script prints the paired variance ratio,
duplicate ÷ adjusted over every deal, with a 95% bootstrap interval over deals. Pure Python.
"""

import csv
import random
import sys

CELLS = 20
STREETS = 5
BUCKETS = 4
BLOCK = 500
RESAMPLES = 1000


def component(k):
    """(value, kind, street, bucket) of component k."""
    cell = k % CELLS
    vk = k // CELLS
    return vk // 2, vk % 2, cell // BUCKETS, cell % BUCKETS


def read(run):
    """Per deal, in file order: (plain difference, aivat difference, {component: difference}),
    each the mean over the deal's games of the first bot's minus the second's."""
    with open(f"{run}/games.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    bots = []
    for row in rows:
        if row["bot"] not in bots:
            bots.append(row["bot"])
    if len(bots) != 2:
        sys.exit(f"error: {run} has {len(bots)} bots; the fit is for two")
    deals, order = {}, []
    for row in rows:
        sign = 1.0 if row["bot"] == bots[0] else -1.0
        key = row["seed"]
        if key not in deals:
            deals[key] = [set(), 0.0, 0.0, {}]
            order.append(key)
        d = deals[key]
        d[0].add(row["game"])
        d[1] += sign * float(row["payoff"])
        d[2] += sign * float(row["payoff_aivat"])
        for pair in row["aivat_terms"].split():
            k, x = pair.split(":")
            d[3][int(k)] = d[3].get(int(k), 0.0) + sign * float(x)
    out = []
    for key in order:
        games, plain, aivat, terms = deals[key]
        n = len(games)
        out.append((plain / n, aivat / n, {k: v / n for k, v in terms.items()}))
    return out


def solve(a, b, ridge):
    """Least squares by the normal equations (Gaussian elimination, partial pivoting); a column
    with no signal gets zero."""
    d = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for i in range(1, d):  # no ridge on the intercept
        m[i][i] += ridge
    scale = max(max(m[i][i] for i in range(d)), 1e-300)
    piv = []
    r = 0
    for c in range(d):
        best = max(range(r, d), key=lambda i: abs(m[i][c]), default=None)
        if best is None or abs(m[best][c]) <= 1e-9 * scale:
            continue
        m[r], m[best] = m[best], m[r]
        for i in range(d):
            if i != r and m[i][c] != 0.0:
                f = m[i][c] / m[r][c]
                for k in range(c, d + 1):
                    m[i][k] -= f * m[r][k]
        piv.append((c, r))
        r += 1
    beta = [0.0] * d
    for c, r in piv:
        beta[c] = m[r][d] / m[r][c]
    return beta


def adjust(deals, features, ridge=0.0, block=BLOCK):
    """The adjusted deal differences: `aivat − βᵀx`, β fitted on the deals before each block."""
    xs = [features(t) for _, _, t in deals]
    d = len(xs[0]) + 1
    zz = [[0.0] * d for _ in range(d)]
    zy = [0.0] * d
    out = []
    beta = [0.0] * d
    for i, ((_, aivat, _), x) in enumerate(zip(deals, xs)):
        if i % block == 0 and i > 0:
            beta = solve(zz, zy, ridge * i)
        out.append(aivat - sum(b * v for b, v in zip(beta[1:], x)))
        z = [1.0] + x
        for p in range(d):
            zp = z[p]
            if zp == 0.0:
                continue
            row = zz[p]
            for q in range(d):
                row[q] += zp * z[q]
            zy[p] += zp * aivat
    return out


def var(xs):
    n = len(xs)
    m = sum(xs) / n
    return sum((x - m) ** 2 for x in xs) / (n - 1)


def grouped(key):
    """Features: the terms summed by `key(value, kind, street, bucket)` (None leaves a term out)."""

    def features(terms, _keys={}):
        x = {}
        for k, v in terms.items():
            g = key(*component(k))
            if g is not None:
                x[g] = x.get(g, 0.0) + v
        return x

    return features


def dense(fs, deals):
    """Turns grouped features into fixed-length vectors (groups in order of first appearance)."""
    names = []
    for _, _, t in deals:
        for g in fs(t):
            if g not in names:
                names.append(g)
    index = {g: i for i, g in enumerate(names)}

    def features(t):
        x = [0.0] * len(names)
        for g, v in fs(t).items():
            x[index[g]] = v
        return x

    return features, len(names)


SETS = [
    ("one scale: Σ value-0 terms", lambda v, k, s, b: 0 if v == 0 else None),
    ("value 0 by kind", lambda v, k, s, b: k if v == 0 else None),
    ("value 0 by street × kind", lambda v, k, s, b: (k, s) if v == 0 else None),
    ("value 0 by street × kind × pot", lambda v, k, s, b: (k, s, b) if v == 0 else None),
    ("values 0 and 1 by kind", lambda v, k, s, b: (v, k)),
    ("values 0 and 1 by street × kind", lambda v, k, s, b: (v, k, s)),
    ("values 0 and 1 by street × kind × pot", lambda v, k, s, b: (v, k, s, b)),
    ("values 0 and 1 chance by street × pot, decisions by kind", lambda v, k, s, b: (v, k, s, b) if k == 1 else (v, k)),
]


def ratio_ci(dup, adj):
    point = var(dup) / var(adj)
    rng = random.Random(1)
    n = len(dup)
    boot = []
    for _ in range(RESAMPLES):
        idx = [rng.randrange(n) for _ in range(n)]
        boot.append(var([dup[i] for i in idx]) / var([adj[i] for i in idx]))
    boot.sort()
    return point, boot[int(0.025 * RESAMPLES)], boot[int(0.975 * RESAMPLES) - 1]


def main():
    if len(sys.argv) < 2:
        sys.exit("error: give one or more run directories (scripts/luck-fit.py RUN_DIR ...)")
    ridges = [0.0]
    print("run | features | dims | ridge | paired ratio [95% CI] (block 500) | online (block 50)")
    for run in sys.argv[1:]:
        deals = read(run)
        dup = [p for p, _, _ in deals]
        name = run.rstrip("/").split("/")[-1]
        p, lo, hi = ratio_ci(dup, [a for _, a, _ in deals])
        print(f"{name} | today's aivat | 0 | - | {p:.2f} [{lo:.2f}, {hi:.2f}] |")
        for label, key in SETS:
            fs, dims = dense(grouped(key), deals)
            for ridge in ridges:
                adj = adjust(deals, fs, ridge)
                p, lo, hi = ratio_ci(dup, adj)
                online = var(dup) / var(adjust(deals, fs, ridge, block=50))
                print(f"{name} | {label} | {dims} | {ridge} | {p:.2f} [{lo:.2f}, {hi:.2f}] | {online:.2f}")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
