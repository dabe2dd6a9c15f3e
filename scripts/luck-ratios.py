#!/usr/bin/env python3
"""The luck variance ratios of a two-bot run, read from its games.csv (issue 51).

    python3 scripts/luck-ratios.py RUN_DIR [RUN_DIR ...]

RUN_DIR is an `arena run` output directory of a two-bot run with `estimator = "aivat"` or
`"all-in"` (configs/luck/*.toml), heads-up or with a bot in several seats (mahjong's one against
three): a bot's payoff in a game is then the mean over its seats, as the verdicts pool them. The
script reads games.csv's columns `seed` (the deal: the games of one deal share it), `bot`,
`payoff`, `payoff_allin`, `payoff_aivat` and `aivat_terms`, and prints, for each adjusted
estimator, the variance of the first bot's payoff minus the second's:

- paired: per deal (the mean over the deal's seat rotations), duplicate ÷ adjusted: how many
  times fewer deals the adjusted estimate needs for the same interval (the verdict's
  `luck_variance_ratio`, over deals rather than over the mean);
- unpaired: per game, plain ÷ adjusted, every game on its own.

The row `aivat` is what the verdict reports: each game's AIVAT terms (games.csv's `aivat_terms`)
weighed by coefficients fitted on the deals before, as the run's report fits them (src/stats/regress.rs's
TermFit: per deal, from 200 deals on, refitted every 25 deals, pulled towards zero by 30
pseudo-deals); the unpaired ratio applies a deal's coefficients to each of its games. The row
`aivat-unfitted` is `payoff_aivat` as it stands (every term weighed 1, before the fit).

Each ratio has a 95% interval from a bootstrap over deals (2,000 resamples, fixed seed): the
deals are resampled whole, so the games of a deal stay together in both ratios (the fitted
coefficients are not fitted again in a resample). Pure Python (no numpy), under a minute for
10,000 deals.
"""

import csv
import random
import sys

COLUMNS = {"aivat-unfitted": "payoff_aivat", "all-in": "payoff_allin"}
RESAMPLES = 2000
# TermFit's constants (src/stats/regress.rs).
WARM_UP, SHRINK, EVERY = 200, 30.0, 25


def solve(zz, zy, pull):
    """The coefficients of the normal equations `zz β = zy` (intercept first), the diagonal but
    the intercept's times `pull`; a column that is (nearly) dependent gets zero, as in Rust."""
    d = len(zy)
    m = [zz[i][:] + [zy[i]] for i in range(d)]
    for i in range(1, d):
        m[i][i] *= pull
    scale = max(max(zz[i][i] for i in range(d)), 1e-300)
    pivots, row = [], 0
    for c in range(d):
        if row >= d:
            break
        best = max(range(row, d), key=lambda i: abs(m[i][c]))
        if abs(m[best][c]) <= 1e-9 * scale:
            continue
        m[row], m[best] = m[best], m[row]
        for i in range(d):
            if i != row and m[i][c] != 0.0:
                f = m[i][c] / m[row][c]
                for k in range(c, d + 1):
                    m[i][k] -= f * m[row][k]
        pivots.append((c, row))
        row += 1
    beta = [0.0] * d
    for c, r in pivots:
        beta[c] = m[r][d] / m[r][c]
    return beta


def fitted(deals, side):
    """Each game's fitted AIVAT payoff of bot `side`, deal after deal: `aivat − βᵀx`, β fitted on
    the deals before on the bot's deal means of its payoff and terms (a regression a bot, as the
    report fits them)."""
    slots = {}
    zz, zy, beta, n = [[0.0]], [0.0], [0.0], 0
    for d in deals:
        for g in d:
            for k in g[side]["terms"]:
                if k not in slots:
                    slots[k] = len(slots)
                    for row in zz:
                        row.append(0.0)
                    zz.append([0.0] * (len(slots) + 1))
                    zy.append(0.0)
                    beta.append(0.0)
        if n >= WARM_UP and (n - WARM_UP) % EVERY == 0:
            beta = solve(zz, zy, 1.0 + SHRINK / n)
        for g in d:
            x = g[side]["terms"]
            g[side]["aivat"] = g[side]["aivat-unfitted"] - sum(beta[1 + slots[k]] * v for k, v in x.items())
        # The deal's observation: the bot's mean payoff and terms over the deal's games.
        y = sum(g[side]["aivat-unfitted"] for g in d) / len(d)
        z = [1.0] + [0.0] * len(slots)
        for g in d:
            for k, v in g[side]["terms"].items():
                z[1 + slots[k]] += v / len(d)
        nz = [i for i, v in enumerate(z) if v != 0.0]
        for i in nz:
            for j in nz:
                zz[i][j] += z[i] * z[j]
            zy[i] += z[i] * y
        n += 1


def read(run):
    """Deals in file order: for each, the list of its games as {bot: {column: payoff}}."""
    deals, order, bots = {}, [], []
    with open(f"{run}/games.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    games = {}
    for row in rows:
        if row["bot"] not in bots:
            bots.append(row["bot"])
        key = (row["seed"], row["game"])
        if row["seed"] not in deals:
            deals[row["seed"]] = []
            order.append(row["seed"])
        if key not in games:
            games[key] = {}
            deals[row["seed"]].append(games[key])
        game = games[key]
        values = {"plain": float(row["payoff"])}
        for name, column in COLUMNS.items():
            if row.get(column, "") != "":
                values[name] = float(row[column])
        # A bot in several seats of one game (never heads-up): the mean over its seats.
        seat = game.setdefault(row["bot"], {k: 0.0 for k in values})
        seats = game.setdefault("seats", {})
        n = seats[row["bot"]] = seats.get(row["bot"], 0) + 1
        for k, v in values.items():
            seat[k] += (v - seat[k]) / n
        # The terms as the payoffs: the mean over the bot's seats.
        terms = seat.setdefault("terms", {})
        for k in terms:
            terms[k] *= (n - 1) / n
        for pair in row.get("aivat_terms", "").split():
            k, x = pair.split(":")
            terms[int(k)] = terms.get(int(k), 0.0) + float(x) / n
    if len(bots) != 2:
        sys.exit(f"error: {run} has {len(bots)} bots; the ratios are for two")
    return [deals[s] for s in order], bots


def sums(xs):
    """(n, Σx, Σx²) of a list: the pieces a variance is made of, added over resampled deals."""
    return len(xs), sum(xs), sum(x * x for x in xs)


def variance(n, s, q):
    return (q - s * s / n) / (n - 1)


def main():
    if len(sys.argv) < 2:
        sys.exit("error: give one or more run directories (scripts/luck-ratios.py RUN_DIR ...)")
    print("run | estimator | deals | paired ratio [95% CI] | unpaired ratio [95% CI]")
    for run in sys.argv[1:]:
        deals, (a, b) = read(run)
        estimators = [e for e in COLUMNS if all(e in g[a] for d in deals for g in d)]
        if "aivat-unfitted" in estimators and any(g[a]["terms"] for d in deals for g in d):
            fitted(deals, a)
            fitted(deals, b)
            estimators.insert(0, "aivat")
        for est in estimators:
            # Per deal: the sums of the paired and unpaired differences, plain and adjusted.
            per_deal = []
            for d in deals:
                diffs = {k: [g[a][k] - g[b][k] for g in d] for k in ("plain", est)}
                paired = {k: sum(v) / len(v) for k, v in diffs.items()}
                per_deal.append(
                    (
                        paired["plain"],
                        paired[est],
                        sums(diffs["plain"]),
                        sums(diffs[est]),
                    )
                )

            def ratios(sample):
                dp = [x[0] for x in sample]
                da = [x[1] for x in sample]
                paired = variance(*sums(dp)) / variance(*sums(da))
                up = [sum(x[2][i] for x in sample) for i in range(3)]
                ua = [sum(x[3][i] for x in sample) for i in range(3)]
                return paired, variance(*up) / variance(*ua)

            point = ratios(per_deal)
            rng = random.Random(1)
            boot = [ratios([per_deal[rng.randrange(len(per_deal))] for _ in per_deal]) for _ in range(RESAMPLES)]
            cells = []
            for i in range(2):
                xs = sorted(r[i] for r in boot)
                lo, hi = xs[int(0.025 * RESAMPLES)], xs[int(0.975 * RESAMPLES) - 1]
                cells.append(f"{point[i]:.2f} [{lo:.2f}, {hi:.2f}]")
            name = run.rstrip("/").split("/")[-1]
            print(f"{name} | {est} | {len(deals)} | {cells[0]} | {cells[1]}")


if __name__ == "__main__":
    main()
