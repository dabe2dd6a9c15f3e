"""Hold'em: a random legal action; a raise to a random amount in the legal range."""

import random

from arena_bot import run


def act(view, legal):
    action = random.choice(legal)
    if action.startswith("raise"):
        return "raise %d" % random.randint(view["raise"]["min"], view["raise"]["max"])
    return action


run(act)
