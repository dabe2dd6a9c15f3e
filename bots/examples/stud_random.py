"""Five-card stud: a random legal action; a bet of a random size in the legal range."""

import random

from arena_bot import run


def act(view, legal):
    action = random.choice(legal)
    if action.startswith("bet"):
        return "bet %d" % random.randint(view["bet"]["min"], view["bet"]["max"])
    return action


run(act)
