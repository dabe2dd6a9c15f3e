#!/usr/bin/env python3
"""A test dealer for ACPC agents, written from the ACPC protocol's text (version 2.0.0), not from
bot-arena's code: it plays no-limit hands with one agent and deals for the other seats itself.

    python3 acpc_dealer.py --hands N --players P [--seed S] -- AGENT COMMAND...

It listens on a free port of 127.0.0.1, starts the agent's command with the host and port
appended (as the ACPC server's play_match.pl does), reads VERSION:2.0.0, and plays N hands on the
ACPC no-limit table (blinds 50/100, 20,000 chips reset every hand) with the agent's position
moving round the table hand by hand. The agent is sent the state before every action and at the
end of every hand; it must answer exactly the states where it is to act, with the state echoed
and an action that is legal. The other seats call or raise at random. At the end the dealer
closes the connection, waits for the agent to exit, and prints one line:

    hands N answers A errors E exit X

with each error on a line of its own before it (exit code 1 when there is one).
"""

import os
import random
import socket
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bots", "examples"))
from acpc_agent import choose, moves, walk  # noqa: E402

STACK, SMALL, BIG = 20000, 50, 100
RANKS, SUITS = "23456789TJQKA", "cdhs"


def state_line(position, hand, betting, hole, board, players, show):
    cards = "|".join("".join(hole[p]) if p == position or p in show else "" for p in range(players))
    rounds = betting.count("/")
    dealt = [0, 3, 4, 5][rounds]
    if dealt:
        cards += "/" + "".join(board[:3])
        for card in board[3:dealt]:
            cards += "/" + card
    return "MATCHSTATE:%d:%d:%s:%s" % (position, hand, betting, cards)


def legal(action, me, spent, min_to, folded):
    owed = max(spent) - spent[me]
    if action == "c":
        return None
    if action == "f":
        return None if owed > 0 else "fold with nothing to call"
    if not action.startswith("r") or not action[1:].isdigit():
        return "`%s` is not f, c or r<chips>" % action
    to = int(action[1:])
    others = any(not folded[p] and spent[p] < STACK for p in range(len(spent)) if p != me)
    if not others or max(spent) >= STACK:
        return "a raise with nobody to raise against"
    low = min(min_to, STACK)
    if not low <= to <= STACK:
        return "raise to %d outside %d..%d" % (to, low, STACK)
    return None


def main(argv):
    split = argv.index("--")
    opts, command = argv[:split], argv[split + 1:]
    hands = int(opts[opts.index("--hands") + 1])
    players = int(opts[opts.index("--players") + 1])
    seed = int(opts[opts.index("--seed") + 1]) if "--seed" in opts else 1
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1)
    listener.settimeout(20)
    agent = subprocess.Popen(command + ["127.0.0.1", str(listener.getsockname()[1])])
    conn, _ = listener.accept()
    conn.settimeout(20)
    # Each state goes out as it is written (without this, Nagle's algorithm holds a line back
    # until the agent's delayed acknowledgement of the one before: 40 ms a line).
    conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    reader = conn.makefile("r", newline="\n")
    errors, answers = [], 0
    version = reader.readline().strip()
    if version != "VERSION:2.0.0":
        errors.append("first line %r" % version)
    deck = [r + s for r in RANKS for s in SUITS]
    for hand in range(hands):
        rng = random.Random(seed * 7919 + hand)
        cards = rng.sample(deck, 2 * players + 5)
        hole = [cards[2 * p:2 * p + 2] for p in range(players)]
        board = cards[2 * players:]
        position = hand % players
        betting = ""
        while True:
            to_act, spent, min_to, folded = walk(players, betting, STACK, SMALL, BIG)
            # A closed round: the next one begins (all rounds at once when nobody can bet).
            while to_act is None and sum(not f for f in folded) > 1 and betting.count("/") < 3:
                betting += "/"
                to_act, spent, min_to, folded = walk(players, betting, STACK, SMALL, BIG)
            over = to_act is None
            show = set(p for p in range(players) if not folded[p]) if over and sum(not f for f in folded) > 1 else set()
            line = state_line(position, hand, betting, hole, board, players, show)
            conn.sendall((line + "\r\n").encode())
            if over:
                break
            if to_act == position:
                answer = reader.readline().rstrip("\r\n")
                while answer.startswith(("#", ";")):
                    answer = reader.readline().rstrip("\r\n")
                answers += 1
                if not answer.startswith(line + ":"):
                    errors.append("hand %d: answer %r to %r" % (hand, answer, line))
                    break
                action = answer[len(line) + 1:]
                why = legal(action, to_act, spent, min_to, folded)
                if why:
                    errors.append("hand %d: %s in %r" % (hand, why, answer))
                    break
                action = "c" if action in "kK" else action
            else:
                others_able = any(not folded[p] and spent[p] < STACK for p in range(players) if p != to_act)
                action = choose(rng, to_act, spent, min_to, STACK, False, others_able)
            betting += action if action[0] != "r" else "r%d" % moves(action)[0][1]
    conn.shutdown(socket.SHUT_RDWR)
    reader.close()
    conn.close()
    try:
        code = agent.wait(timeout=10)
    except subprocess.TimeoutExpired:
        agent.kill()
        code = "none: still running"
        errors.append("the agent did not exit when the connection closed")
    for error in errors:
        print(error)
    print("hands %d answers %d errors %d exit %s" % (hands, answers, len(errors), code))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
