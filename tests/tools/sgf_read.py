#!/usr/bin/env python3
"""Reads SGF collections with sgfmill (pip install sgfmill) and prints one JSON object: file name
-> a list of games, each {size, gm, pb, pw, re, moves}, the moves as "x,y" from 0 from the
top-left (x the column), as the arena's records write them. sgfmill counts rows from the bottom,
so y is size - 1 - row. Exits 1 on anything sgfmill refuses, or on moves that do not alternate
black, white from black.

    python3 tests/tools/sgf_read.py FILE_OR_DIR...
"""
import json
import os
import sys

from sgfmill import sgf, sgf_grammar


def read(path):
    with open(path, "rb") as f:
        data = f.read()
    games = []
    for tree in sgf_grammar.parse_sgf_collection(data):
        game = sgf.Sgf_game.from_coarse_game_tree(tree)
        root = game.get_root()
        size = game.get_size()
        moves = []
        for i, node in enumerate(game.get_main_sequence()[1:]):
            colour, point = node.get_move()
            if colour != ("b" if i % 2 == 0 else "w") or point is None:
                sys.exit(f"{path}: move {i + 1} is {colour} {point}")
            row, col = point
            moves.append(f"{col},{size - 1 - row}")
        get = lambda p: root.get(p) if root.has_property(p) else None
        games.append({"size": size, "gm": get("GM"), "pb": get("PB"), "pw": get("PW"), "re": get("RE"), "moves": moves})
    return games


def main():
    out = {}
    for arg in sys.argv[1:]:
        paths = [os.path.join(arg, n) for n in sorted(os.listdir(arg)) if n.endswith(".sgf")] if os.path.isdir(arg) else [arg]
        for path in paths:
            out[os.path.basename(path)] = read(path)
    json.dump(out, sys.stdout, indent=1)


if __name__ == "__main__":
    main()
