#!/usr/bin/env python3
"""A small ACPC poker agent (no-limit hold'em), written from the ACPC protocol's text (version 2.0.0).

    python3 acpc_agent.py [--call] [--seed N] [--stack 20000] [--blinds 50,100] [--stall WHAT] HOST PORT

It connects to HOST PORT (the dealer's port for its seat, or bot-arena's `acpc` kind, which appends
them to the command), sends VERSION:2.0.0, and answers every MATCHSTATE in which it is to act:
with a call (--call), or at random (folds a tenth of the time when facing a bet, raises three in
ten, else calls). Its random stream is seeded by --seed and the hand's number, so a hand's choices
depend on nothing else. The table: stacks and blinds as given (the ACPC no-limit games' by
default), heads-up with reversed blinds (position 0 the big blind), three or more with position 0
the small blind.

--stall is for testing a dealer: `half` sends half of an answer and stalls, `wrong` answers for
another hand, `garbage` answers with a line that is not an action, `illegal` raises to 1 chip,
`version` says it speaks version 1.0.0, `never` never connects.
"""

import random
import socket
import sys
import time


def moves(text):
    """The actions of one round: f, c (check or call), r<total chips in the hand>."""
    out, i = [], 0
    while i < len(text):
        if text[i] in "rRbB":
            j = i + 1
            while j < len(text) and text[j].isdigit():
                j += 1
            out.append(("r", int(text[i + 1:j])))
            i = j
        else:
            out.append(("f" if text[i] in "fF" else "c", 0))
            i += 1
    return out


def walk(players, betting, stack, small, big):
    """Plays the betting string through the rules. Returns (who is to act or None, chips each
    position has put in, the smallest raise-to, who has folded)."""
    spent = [0] * players
    sb, bb = (1, 0) if players == 2 else (0, 1)
    spent[sb], spent[bb] = small, big
    folded = [False] * players
    min_to = 2 * big
    rounds = betting.split("/")
    pending = set()
    player = 0
    for r, text in enumerate(rounds):
        def can_act(p):
            return not folded[p] and spent[p] < stack
        if r > 0:
            min_to = max(spent) + big
        able = [p for p in range(players) if can_act(p)]
        # Fewer than two seats able to bet: no betting in this round.
        pending = set(able) if len(able) >= 2 or r == 0 else set()
        if r == 0:
            # Pre-flop the seat after the big blind opens (heads-up: the small blind, position 1).
            player = 1 if players == 2 else 2 % players
        else:
            player = 0
        for kind, to in moves(text):
            while player not in pending:
                player = (player + 1) % players
            if kind == "f":
                folded[player] = True
            elif kind == "c":
                spent[player] = min(max(spent), stack)
            else:
                before = max(spent)
                min_to = max(min_to, to + (to - before))
                spent[player] = to
                pending = {p for p in range(players) if can_act(p)}
            pending.discard(player)
            player = (player + 1) % players
        if sum(not f for f in folded) <= 1:
            return None, spent, min_to, folded
    if not pending:
        return None, spent, min_to, folded
    while player not in pending:
        player = (player + 1) % players
    return player, spent, min_to, folded


def choose(rng, me, spent, min_to, stack, always_call, others_able):
    owed = max(spent) - spent[me]
    if always_call:
        return "c"
    roll = rng.random()
    if owed > 0 and roll < 0.1:
        return "f"
    can_raise = others_able and max(spent) < stack and spent[me] + owed < stack
    if can_raise and roll > 0.7:
        low = min(min_to, stack)
        return "r%d" % rng.randint(low, min(stack, low + 4 * (low - spent[me])))
    return "c"


def main(argv):
    args = list(argv)
    options = {"--seed": "0", "--stack": "20000", "--blinds": "50,100", "--stall": ""}
    always_call = "--call" in args
    args = [a for a in args if a != "--call"]
    for name in options:
        if name in args:
            i = args.index(name)
            options[name] = args[i + 1]
            del args[i:i + 2]
    host, port = args[-2], int(args[-1])
    seed, stack = int(options["--seed"]), int(options["--stack"])
    small, big = (int(x) for x in options["--blinds"].split(","))
    stall = options["--stall"]
    if stall == "never":
        time.sleep(3600)
    conn = socket.create_connection((host, port))
    conn.sendall(b"VERSION:1.0.0\r\n" if stall == "version" else b"VERSION:2.0.0\r\n")
    reader = conn.makefile("r", newline="\n")
    for line in reader:
        state = line.rstrip("\r\n")
        if not state or state[0] in "#;":
            continue
        _, position, hand, betting, cards = state.split(":", 4)
        me, hand = int(position), int(hand)
        players = len(cards.split("/")[0].split("|"))
        to_act, spent, min_to, folded = walk(players, betting, stack, small, big)
        if to_act != me:
            continue
        others_able = any(not folded[p] and spent[p] < stack for p in range(players) if p != me)
        rng = random.Random(seed * 1_000_003 + hand)
        action = choose(rng, me, spent, min_to, stack, always_call, others_able)
        answer = "%s:%s\r\n" % (state, action)
        if stall == "half":
            conn.sendall(answer[: len(answer) // 2].encode())
            time.sleep(3600)
        if stall == "wrong":
            fields = state.split(":")
            fields[2] = str(hand + 1)
            answer = "%s:%s\r\n" % (":".join(fields), action)
        if stall == "garbage":
            answer = "%s:raise please\r\n" % state
        if stall == "illegal":
            answer = "%s:r1\r\n" % state
        conn.sendall(answer.encode())


if __name__ == "__main__":
    main(sys.argv[1:])
