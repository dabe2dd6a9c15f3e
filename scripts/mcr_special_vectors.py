#!/usr/bin/env python3
"""Writes tests/data/mcr_fans_special.jsonl: winning hands of every special shape, each scored by
the reference fan calculator (PyPI `pymahjonggb` 1.4.0), in the format of mcr_fans_sample.jsonl.

    python3 -m venv /tmp/mj && /tmp/mj/bin/pip install pymahjonggb==1.4.0
    /tmp/mj/bin/python scripts/mcr_special_vectors.py > tests/data/mcr_fans_special.jsonl

The shapes are the ones whose waits are easy to get wrong: a knitted straight with a set and a pair
(concealed, and with one declared set of every kind), honours and knitted tiles, thirteen orphans,
seven pairs (with four of a kind, and shapes that also split as four sets and a pair), seven
shifted pairs and nine gates. Every hand is tried with every distinct tile of it as the winning
tile (won on a discard or self-drawn, at random); hands the reference refuses are left out. Deterministic:
the same file on every run (fixed seed). CI only reads the file; it never runs this script.
"""

import json
import random
import sys

from MahjongGB import MahjongFanCalculator

SEED = 15
# Kinds as the project numbers them: 1m..9m, 1s..9s, 1p..9p, E S W N, C F P.
NAMES = [f"{r}m" for r in range(1, 10)] + [f"{r}s" for r in range(1, 10)] + [f"{r}p" for r in range(1, 10)]
NAMES += ["E", "S", "W", "N", "C", "F", "P"]
REF = [f"W{r}" for r in range(1, 10)] + [f"T{r}" for r in range(1, 10)] + [f"B{r}" for r in range(1, 10)]
REF += ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]
# Printing order of the vectors: characters, dots, bamboo, honours.
PRINT_ORDER = list(range(0, 9)) + list(range(18, 27)) + list(range(9, 18)) + list(range(27, 34))
WINDS = ["E", "S", "W", "N"]
SUITS = [0, 9, 18]
HONOURS = list(range(27, 34))


def knitted_straights():
    """The six knitted straights: 147 258 369 spread over the three suits."""
    out = []
    for a in range(3):
        for b in range(3):
            for c in range(3):
                if len({a, b, c}) == 3:
                    out.append([SUITS[a] + r for r in (0, 3, 6)] + [SUITS[b] + r for r in (1, 4, 7)]
                               + [SUITS[c] + r for r in (2, 5, 8)])
    return out


def counts(tiles):
    c = [0] * 34
    for t in tiles:
        c[t] += 1
    return c


def legal(tiles):
    return max(counts(tiles)) <= 4


def meld_tiles(kind, t):
    return {"chow": [t, t + 1, t + 2], "pung": [t] * 3, "kong": [t] * 4, "concealed_kong": [t] * 4}[kind]


def ref_pack(kind, t):
    if kind == "chow":
        return ("CHI", REF[t + 1], 1)
    if kind == "pung":
        return ("PENG", REF[t], 1)
    return ("GANG", REF[t], 0 if kind == "concealed_kong" else 1)


def compact(melds, concealed, win):
    parts = []
    for kind, t in melds:
        inner = "".join(NAMES[x] for x in meld_tiles(kind, t))
        parts.append(f"({inner})" if kind == "concealed_kong" else f"[{inner}]")
    c = counts(concealed)
    for t in PRINT_ORDER:
        parts += [NAMES[t]] * c[t]
    return " ".join(parts + ["|", NAMES[win]])


def score(melds, concealed, win, self_drawn, seat, prevalent):
    """The reference's fans, or None when it refuses the hand."""
    try:
        fans = MahjongFanCalculator(
            pack=tuple(ref_pack(k, t) for k, t in melds),
            hand=tuple(REF[t] for t in sorted(concealed)),
            winTile=REF[win],
            flowerCount=0,
            isSelfDrawn=self_drawn,
            is4thTile=False,
            isAboutKong=False,
            isWallLast=False,
            seatWind=seat,
            prevalentWind=prevalent,
            verbose=True,
        )
    except TypeError:
        return None
    return [{"name_en": en, "name_zh": zh, "points": p, "count": n} for p, n, zh, en in fans]


def emit(out, form, melds, tiles, rng):
    """One line per distinct winning tile of the standing `tiles` (14 - 3 x melds of them)."""
    if not legal(tiles + [x for k, t in melds for x in meld_tiles(k, t)]):
        return
    for win in sorted(set(tiles)):
        concealed = list(tiles)
        concealed.remove(win)
        self_drawn = rng.random() < 0.5
        seat, prevalent = rng.randrange(4), rng.randrange(4)
        fans = score(melds, concealed, win, self_drawn, seat, prevalent)
        if fans is None:
            continue
        total = sum(f["points"] * f["count"] for f in fans)
        out.append({
            "id": len(out),
            "form": form,
            "compact": compact(melds, concealed, win),
            "melds": [{"type": k, "tiles": [NAMES[x] for x in meld_tiles(k, t)]} for k, t in melds],
            "concealed": [NAMES[t] for t in sorted(concealed, key=PRINT_ORDER.index)],
            "win_tile": NAMES[win],
            "self_drawn": self_drawn,
            "fourth_tile": False,
            "kong_related": False,
            "last_wall_tile": False,
            "flowers": 0,
            "seat_wind": WINDS[seat],
            "prevalent_wind": WINDS[prevalent],
            "fans": fans,
            "total": total,
            "total_excl_flowers": total,
        })


def random_set(rng):
    """A chow (suited, lowest tile) or a pung (any kind)."""
    if rng.random() < 0.5:
        return "chow", rng.choice(SUITS) + rng.randrange(7)
    return "pung", rng.randrange(34)


def main():
    rng = random.Random(SEED)
    out = []
    ks = knitted_straights()
    # Knitted straight + a standing set + a pair: every straight, sets and pairs chosen so the
    # winning tile falls in the straight, the set, the pair, or a kind shared by two of them.
    for i in range(36):
        k = ks[i % 6]
        kind, t = random_set(rng)
        pair = rng.choice(k) if i % 3 == 0 else rng.randrange(34)
        emit(out, "knitted_straight", [], k + meld_tiles(kind, t) + [pair, pair], rng)
    # Knitted straight + one declared set (chow, pung, kong, concealed kong) + a pair.
    for i in range(16):
        k = ks[i % 6]
        kind = ["chow", "pung", "kong", "concealed_kong"][i % 4]
        t = rng.choice(SUITS) + rng.randrange(7) if kind == "chow" else rng.randrange(34)
        pair = rng.choice(k) if i % 2 == 0 else rng.randrange(34)
        emit(out, "knitted_straight", [(kind, t)], k + [pair, pair], rng)
    # Honours and knitted tiles: 7, 8 or 9 suited tiles of one knitted straight, the rest honours.
    for i in range(9):
        k = ks[rng.randrange(6)]
        n = 7 + i % 3
        emit(out, "honors_and_knitted", [], rng.sample(k, n) + rng.sample(HONOURS, 14 - n), rng)
    # Thirteen orphans with every pair.
    orphans = [0, 8, 9, 17, 18, 26] + HONOURS
    for i in range(3):
        emit(out, "thirteen_orphans", [], orphans + [rng.choice(orphans)], rng)
    # Seven pairs: random pairs, four of a kind, and pairs that also split as sets and a pair.
    for i in range(8):
        kinds = rng.sample(range(34), 6 if i % 2 else 7)
        pairs = kinds + ([kinds[0]] if i % 2 else [])
        emit(out, "seven_pairs", [], [t for p in pairs for t in (p, p)], rng)
    for base in (0, 10, 20):
        emit(out, "seven_pairs", [], [base + r for r in (0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5)] + [27, 27], rng)
        emit(out, "seven_pairs", [], [base + r for r in range(6) for _ in (0, 1)] + [base, base], rng)
    # Seven shifted pairs.
    for start in (0, 1, 2):
        emit(out, "seven_pairs", [], [9 + start + r for r in range(7) for _ in (0, 1)], rng)
    # Nine gates.
    for suit in SUITS:
        gates = [suit + r for r in (0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 8)]
        emit(out, "nine_gates", [], gates + [suit + rng.randrange(9)], rng)
    for line in out:
        sys.stdout.write(json.dumps(line, ensure_ascii=False) + "\n")
    print(f"{len(out)} hands", file=sys.stderr)


if __name__ == "__main__":
    main()
