#!/usr/bin/env python3
"""Reads Piskvork .psq files, written here from Piskvork's own reading of them (openPsq in
Piskvork's game.cpp): a header `Piskvorky WxH, L1:L2, F`, then one `x,y[,ms]` line a stone with
x, y from 1 (x the column), then the two players' names (the first moved first when F is 0) and
an end code. Prints one JSON object: file name -> {size, moves ("x,y" from 0, as the arena's
records write them), times, names, code}. Exits 1 naming the file and line of anything else.

    python3 tests/tools/psq_read.py FILE_OR_DIR...
"""
import json
import os
import re
import sys

HEADER = re.compile(r"Piskvorky (\d+)x(\d+), (-?\d+):(-?\d+), ([01])")
MOVE = re.compile(r"(\d+),(\d+)(?:,(-?\d+))?")


def fail(path, line, why):
    sys.exit(f"{path}:{line}: {why}")


def read(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    header = HEADER.fullmatch(lines[0]) if lines else None
    if not header:
        fail(path, 1, f"not a psq header: {lines[:1]}")
    width, height, first = int(header[1]), int(header[2]), int(header[5])
    if width != height:
        fail(path, 1, "the arena's boards are square")
    moves, times, seen = [], [], set()
    i = 1
    while i < len(lines) and (m := MOVE.fullmatch(lines[i])):
        x, y = int(m[1]), int(m[2])
        if not (1 <= x <= width and 1 <= y <= height):
            fail(path, i + 1, f"{x},{y} is off the {width}x{height} board")
        if (x, y) in seen:
            fail(path, i + 1, f"{x},{y} is taken")
        seen.add((x, y))
        moves.append(f"{x - 1},{y - 1}")
        times.append(int(m[3]) if m[3] is not None else 0)
        i += 1
    rest = lines[i:]
    if len(rest) != 3:
        fail(path, i + 1, f"expected two names and an end code after the moves, got {rest}")
    try:
        code = int(rest[2])
    except ValueError:
        fail(path, i + 3, f"the end code {rest[2]!r} is not a number")
    names = rest[:2] if first == 0 else rest[1::-1]
    return {"size": width, "moves": moves, "times": times, "names": names, "code": code}


def main():
    out = {}
    for arg in sys.argv[1:]:
        paths = [os.path.join(arg, n) for n in sorted(os.listdir(arg)) if n.endswith(".psq")] if os.path.isdir(arg) else [arg]
        for path in paths:
            out[os.path.basename(path)] = read(path)
    json.dump(out, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
