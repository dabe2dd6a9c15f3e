"""A message a Python bot is handed is read from its JSON text in Rust, not by json.loads: the same
values, of the same types, for every kind of JSON value and for every message of real games."""

import json

import pytest

import bot_arena
from bot_arena import _native
from conftest import GAMES

TEXTS = [
    '{"type":"act","view":{"seat":0,"hole":["4s","5s"],"raise":{"min":200,"max":10000}},"legal":["fold","call"]}',
    '{"a":null,"b":true,"c":false,"d":[],"e":{},"f":[[1,[2,{"g":[]}]]],"h":"","i":"fold","j":"fold"}',
    # Integers past 64 bits' signed range, the extremes of floats, a float json.loads rounds exactly.
    '{"k":18446744073709551615,"l":-9223372036854775808,"m":-0.0,"n":1e300,"o":0.1,"p":5e-324,'
    '"q":2.2250738585072014e-308,"r":1.7976931348623157e308,"s":123456789.123456789,"t":1E5,"u":-3}',
    # Escapes, a text past the cache's length, a key seen as a value before.
    '{"v":"x\\u00e9\\n\\"y\\\\","w":"\\ud83d\\ude00","x":"' + "long text " * 10 + '","fold":1}',
    ' [1 , 2 ,\n{"a" : "b"}] ', '"just text"', "3", "null",
]


@pytest.mark.parametrize("text", TEXTS)
def test_a_message_is_what_json_loads_makes_of_it(text):
    read, loaded = _native.read_message(text), json.loads(text)
    assert repr(read) == repr(loaded) and read == loaded


@pytest.mark.parametrize("text", ['{"a":1', '{"a":1} x', "", "NaN", '{"a":"\\x"}'])
def test_a_text_that_is_not_json_is_refused(text):
    with pytest.raises(ValueError, match="a message that is not JSON"):
        _native.read_message(text)


@pytest.mark.parametrize("game", GAMES)
def test_every_message_of_a_game_is_what_json_loads_makes(game, out):
    """Each message a bot is handed is made of json's own types, in its key order: json.dumps and
    json.loads give it back unchanged. (test_determinism.py compares the games of a bot that hashes
    every message in the process and over the protocol.)"""
    told = []

    class Recording:
        def new_game(self, message):
            told.append(message)

        def act(self, message):
            told.append(message)
            return message["legal"][-1]

        def game_over(self, message):
            told.append(message)

    config = {"game": game, "games": 10, "seed": 11, "bots": ["mine", "random"]}
    if game == "mahjong":
        config["seats"] = 4
    bot_arena.run(config, bots={"mine": Recording}, out=out)
    assert len(told) >= 30 and sum(m["type"] == "act" for m in told) >= 10
    for message in told:
        text = json.dumps(message, separators=(",", ":"), ensure_ascii=False)
        assert repr(message) == repr(json.loads(text)), text
