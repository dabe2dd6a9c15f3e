import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
BOTS = os.path.join(HERE, "bots")
sys.path.insert(0, BOTS)

GAMES = ["holdem", "stud", "zhajinhua", "gomoku", "mahjong"]


def protocol_bot(name, *args, **params):
    """A config entry for hash_bot.py run as a program over the JSON-lines protocol."""
    command = [sys.executable, os.path.join(BOTS, "hash_bot.py"), *args]
    return {"name": name, "kind": "external", "params": {"command": command, **params}}


@pytest.fixture
def out(tmp_path):
    return str(tmp_path / "run")
