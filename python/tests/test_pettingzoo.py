"""The PettingZoo adapter passes PettingZoo's own API test for every game."""

import pytest

pettingzoo = pytest.importorskip("pettingzoo")
from pettingzoo.test import api_test  # noqa: E402

from bot_arena.pettingzoo import decode, env  # noqa: E402
from conftest import GAMES  # noqa: E402

TABLES = {"gomoku": {"size": 9}}


@pytest.mark.parametrize("game", GAMES)
def test_api_test_passes(game, capsys):
    api_test(env(game, **TABLES.get(game, {})), num_cycles=200)
    assert "Passed API test" in capsys.readouterr().out


@pytest.mark.parametrize("game", GAMES)
def test_a_game_played_through_the_adapter_pays_the_engines_payoffs(game):
    e = env(game, seed=4, **TABLES.get(game, {}))
    e.reset(seed=4)
    import bot_arena

    same = bot_arena.Game(game, seed=4, **TABLES.get(game, {}))
    total = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, _ = e.last()
        total[agent] += reward
        if termination or truncation:
            e.step(None)
            continue
        message = decode(observation)
        assert message == same.observation(), "the observation is the seat's act message"
        choice = int(observation["action_mask"].nonzero()[0][-1])
        same.step(message["legal"][choice])
        e.step(choice)
    assert same.done and [total[a] for a in e.possible_agents] == pytest.approx(same.payoffs())
