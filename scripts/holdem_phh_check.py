#!/usr/bin/env python3
"""Replays the arena's hold'em hand histories (PHH) in PokerKit and checks the finishing stacks.

    HOLDEM_PHH_DIR=target/phh cargo test --release -- --ignored write_phh_samples
    python3 -m pip install pokerkit            # 0.7 tested
    python3 scripts/holdem_phh_check.py target/phh

Exit code 0 when every file replays to its own `finishing_stacks`.
"""
import glob
import sys

from pokerkit import HandHistory


def check(path):
    with open(path, 'rb') as f:
        if path.endswith('.phhs'):
            hands = list(HandHistory.load_all(f))
        else:
            hands = [HandHistory.load(f)]
    for i, hh in enumerate(hands):
        problem = check_hand(hh)
        if problem:
            return f'{path} hand {i + 1}: {problem}'
    return None


def check_hand(hh):
    state = None
    for state in hh:
        pass
    got = list(state.stacks)
    if got != list(hh.finishing_stacks):
        return f'PokerKit ends with {got}, file says {hh.finishing_stacks}'
    if state.status:
        return 'PokerKit says the hand is not over'
    return None


def main():
    folder = sys.argv[1] if len(sys.argv) > 1 else 'target/phh'
    files = sorted(glob.glob(f'{folder}/*.phh') + glob.glob(f'{folder}/*.phhs'))
    bad = 0
    for path in files:
        try:
            problem = check(path)
        except Exception as e:  # a refused action or a parse error
            problem = f'{path}: {type(e).__name__}: {e}'
        if problem:
            bad += 1
            if bad <= 10:
                print(problem)
    print(f'{len(files) - bad}/{len(files)} files (.phh: one hand, .phhs: a sit-and-go) replay to the same finishing stacks')
    sys.exit(1 if bad or not files else 0)


if __name__ == '__main__':
    main()
