"""Zhajinhua: a random legal action."""

import random

from arena_bot import run

run(lambda view, legal: random.choice(legal))
