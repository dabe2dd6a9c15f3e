"""The RLCard adapter: RLCard's Env interface over bot-arena's games, played to the end by our
own engine; with RLCard's RandomAgent too where RLCard is installed."""

import random
from collections import OrderedDict

import pytest

import bot_arena
from bot_arena.rlcard import GAMES, Env


class Uniform:
    """An agent of RLCard's shape (step, eval_step, use_raw) picking among the legal ids."""

    use_raw = False

    def __init__(self, seed):
        self.rng = random.Random(seed)

    def step(self, state):
        return self.rng.choice(list(state["legal_actions"]))

    def eval_step(self, state):
        return self.step(state), {}


@pytest.mark.parametrize("game", list(GAMES))
def test_the_interface_and_whole_games(game):
    env = Env(game, seed=4, **({"size": 9} if game == "gomoku" else {}))
    assert env.num_players == 2 and env.num_actions == len(env.actions) == len(set(env.actions))
    for _ in range(20):
        state, player = env.reset()
        assert player == env.get_player_id() and not env.is_over()
        while not env.is_over():
            assert isinstance(state["legal_actions"], OrderedDict) and state["legal_actions"]
            assert list(state["legal_actions"]) == sorted(state["legal_actions"])
            assert state["raw_legal_actions"] == [env.actions[i] for i in state["legal_actions"]]
            assert state["raw_obs"] is state["obs"] and "seat" in state["raw_obs"] or game == "gomoku"
            action = random.Random(env.timestep).choice(list(state["legal_actions"]))
            state, player = env.step(action)
        payoffs = env.get_payoffs()
        assert len(payoffs) == 2 and abs(sum(payoffs)) < 1e-9, payoffs
        assert env.get_state(0)["legal_actions"] == OrderedDict()


def test_the_bets_are_abstracted_to_sizes_that_the_engine_takes():
    env = Env("holdem", seed=1)
    state, player = env.reset()
    view = state["raw_obs"]
    assert (view["current_bet"], view["to_call"], view["pot"]) == (100, 50, 150)
    assert state["raw_legal_actions"] == ["fold", "call", "raise min", "raise pot", "raise max"]
    # The pot raise: the call (50) makes the pot 200, raised by that to 300 in total.
    state, player = env.step(env.actions.index("raise pot"))
    assert env.action_recorder == [(0, "raise 300")]
    assert state["raw_obs"]["current_bet"] == 300


def test_an_illegal_id_is_refused_and_the_game_is_unchanged():
    env = Env("zhajinhua", seed=2)
    state, player = env.reset()
    illegal = next(i for i in range(env.num_actions) if i not in state["legal_actions"])
    with pytest.raises(ValueError, match="is not legal now"):
        env.step(illegal)
    assert env.action_recorder == [] and env.get_player_id() == player


def test_raw_actions_and_the_game_as_the_engine_plays_it():
    """Stepping by names gives the game bot_arena.Game plays with the same texts: the same payoffs."""
    env = Env("stud", seed=9)
    state, _ = env.reset()
    game = bot_arena.Game("stud", seed=9)
    while not env.is_over():
        name = state["raw_legal_actions"][-1]
        state, _ = env.step(name, raw_action=True)
        game.step(env.action_recorder[-1][1])
    assert game.done and list(env.get_payoffs()) == game.payoffs()


def test_the_same_seed_deals_the_same_games():
    def play(env):
        env.set_agents([Uniform(1), Uniform(2)])
        return [list(env.run()[1]) for _ in range(10)]

    assert play(Env("holdem", seed=5)) == play(Env("holdem", seed=5))
    assert play(Env("holdem", seed=5)) != play(Env("holdem", seed=6))


def test_run_with_rlcards_random_agent():
    agents = pytest.importorskip("rlcard.agents")
    env = Env("zhajinhua", seats=3, seed=3)
    env.set_agents([agents.RandomAgent(num_actions=env.num_actions) for _ in range(env.num_players)])
    for _ in range(20):
        trajectories, payoffs = env.run(is_training=False)
        assert len(trajectories) == 3 and abs(sum(payoffs)) < 1e-9
        for seat, trajectory in enumerate(trajectories):
            # states and actions alternate, ending with the final state
            assert isinstance(trajectory[-1], dict) and "legal_actions" in trajectory[-1]


def test_mahjong_has_no_adapter():
    with pytest.raises(ValueError, match="no RLCard adapter for 'mahjong'"):
        Env("mahjong")
