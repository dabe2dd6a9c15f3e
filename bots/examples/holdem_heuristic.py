"""Hold'em: a hand-strength heuristic in a page.

Before the flop it scores the two hole cards (pairs, high cards, suited, connected); after, the
best hand they make with the board (pair, two pair, ..., straight flush), discounted when the
board alone makes it. Strong hands raise about the pot, fair hands call when the price is right,
weak hands check or fold.
"""

from arena_bot import run

RANKS = "23456789TJQKA"
# Strength by category: high card, pair, two pair, trips, straight, flush, full house, quads, straight flush.
CATEGORY_STRENGTH = [0.1, 0.45, 0.7, 0.8, 0.85, 0.9, 0.95, 0.99, 1.0]


def ranks(cards):
    return [RANKS.index(c[0]) for c in cards]


def is_straight(rank_set):
    wheel = {12, 0, 1, 2, 3}
    return wheel <= rank_set or any(all(r + i in rank_set for i in range(5)) for r in range(9))


def category(cards):
    """The poker category (0 high card .. 8 straight flush) of the best five of `cards`."""
    counts = sorted((ranks(cards).count(r) for r in set(ranks(cards))), reverse=True)
    suits = [c[1] for c in cards]
    flush_suit = next((s for s in "cdhs" if suits.count(s) >= 5), None)
    if flush_suit and is_straight({RANKS.index(c[0]) for c in cards if c[1] == flush_suit}):
        return 8
    if counts[0] == 4:
        return 7
    if counts[0] == 3 and len(counts) > 1 and counts[1] >= 2:
        return 6
    if flush_suit:
        return 5
    if is_straight(set(ranks(cards))):
        return 4
    if counts[0] == 3:
        return 3
    if counts[0] == 2 and len(counts) > 1 and counts[1] == 2:
        return 2
    return 1 if counts[0] == 2 else 0


def strength(hole, board):
    if not board:
        high, low = sorted(ranks(hole), reverse=True)
        if high == low:
            return 0.5 + high / 24
        suited = 0.05 if hole[0][1] == hole[1][1] else 0.0
        connected = 0.03 if high - low == 1 else 0.0
        return (high + low) / 24 * 0.6 + suited + connected
    mine = category(hole + board)
    if len(board) >= 5 and category(board) >= mine:
        return 0.2  # the board plays: everyone has it
    return CATEGORY_STRENGTH[mine]


def act(view, legal):
    s = strength(view["hole"], view["board"])
    to_call, pot = view["to_call"], view["pot"]
    if s > 0.75 and view["raise"]:
        low, high = view["raise"]["min"], view["raise"]["max"]
        return "raise %d" % max(low, min(high, view["current_bet"] + pot))
    if to_call == 0:
        return "check"
    if s > 0.45 and to_call <= pot * s:
        return "call"
    if to_call * 10 <= pot:
        return "call"
    return "fold"


run(act)
