#!/usr/bin/env python3
"""Scores winning hands with Botzone's fan calculator (the MahjongGB module of
ailab-pku/Chinese-Standard-Mahjong, built by hand: docs/book/src/rules/mahjong.md) and compares the totals
with bot-arena's, which the input carries.

    python3 mahjong_gb_check.py HANDS.jsonl

Each input line: {"pack": [[kind, tile, offer], ...], "hand": [13 or fewer tiles], "win": tile,
"flowers": n, "self": b, "fourth": b, "kong": b, "last": b, "seat": 0-3, "prevalent": 0-3,
"ours": total, "fans": "our fans"} in Botzone's tile names. Prints one line per hand whose totals
differ, then `hands N same S differ D`; exit 1 when a hand differs. Exit 3 when MahjongGB is not
installed.
"""

import json
import sys

try:
    from MahjongGB import MahjongFanCalculator
except ImportError:
    print("MahjongGB is not installed")
    sys.exit(3)


def main(path):
    same = differ = 0
    for line in open(path):
        h = json.loads(line)
        try:
            fans = MahjongFanCalculator(
                pack=tuple((k, t, o) for k, t, o in h["pack"]),
                hand=tuple(h["hand"]),
                winTile=h["win"],
                flowerCount=h["flowers"],
                isSelfDrawn=h["self"],
                is4thTile=h["fourth"],
                isAboutKong=h["kong"],
                isWallLast=h["last"],
                seatWind=h["seat"],
                prevalentWind=h["prevalent"],
            )
            theirs = sum(count for count, _ in fans)
            named = ", ".join("%s %d" % (name, count) for count, name in fans)
        except Exception as e:  # the calculator throws a string for a hand it cannot score
            theirs, named = None, "error: %s" % e
        if theirs == h["ours"]:
            same += 1
        else:
            differ += 1
            print("differ: ours %s (%s), MahjongGB %s (%s): %s" % (h["ours"], h["fans"], theirs, named, line.strip()))
    print("hands %d same %d differ %d" % (same + differ, same, differ))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
