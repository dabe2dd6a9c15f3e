"""Gomoku: win when it can, block when it must, else the cell with the best line score.

Every empty cell next to a stone is scored by the rows it would make in the four directions,
for itself and (a little less) for the opponent: five wins outright, an open four is next to a
win, and so on down. Ties go to the first cell in row order, so the bot needs no randomness.
"""

from arena_bot import run

DIRECTIONS = [(1, 0), (0, 1), (1, 1), (1, -1)]
# SCORE[length][open ends] for a row through the cell (length 1..4).
SCORE = [None, [0, 2, 10], [0, 50, 200], [0, 500, 5000], [0, 10000, 100000]]
FIVE = 10**9


def act(view, legal):
    n = view["size"]
    board = "".join(view["board"])
    me = "xo"[view["to_move"]]
    them = "ox"[view["to_move"]]
    if not view["moves"]:
        return "%d,%d" % (n // 2, n // 2)

    def line_score(x, y, colour):
        total = 0
        for dx, dy in DIRECTIONS:
            length, opens = 1, 0
            for sign in (1, -1):
                cx, cy = x + sign * dx, y + sign * dy
                while 0 <= cx < n and 0 <= cy < n and board[cy * n + cx] == colour:
                    length += 1
                    cx, cy = cx + sign * dx, cy + sign * dy
                if 0 <= cx < n and 0 <= cy < n and board[cy * n + cx] == ".":
                    opens += 1
            if length >= 5:
                return FIVE
            total += SCORE[length][opens]
        return total

    best, best_move = -1, legal[0]
    for y in range(n):
        for x in range(n):
            if board[y * n + x] != ".":
                continue
            near = any(
                board[yy * n + xx] != "."
                for yy in range(max(0, y - 1), min(n, y + 2))
                for xx in range(max(0, x - 1), min(n, x + 2))
            )
            if not near:
                continue
            mine = line_score(x, y, me)
            if mine >= FIVE:
                return "%d,%d" % (x, y)
            score = mine + 0.9 * line_score(x, y, them)
            if score > best:
                best, best_move = score, "%d,%d" % (x, y)
    return best_move


run(act)
