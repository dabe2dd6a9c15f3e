"""bot-arena's games as PettingZoo AEC environments (needs `pip install pettingzoo`).

    from bot_arena.pettingzoo import env
    e = env("holdem", seats=2)
    e.reset(seed=7)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        mask = observation["action_mask"]
        e.step(None if termination or truncation else int(mask.nonzero()[0][0]))

Any registered game, generically: agent `player_k` is seat k. An action is an index into the
legal actions of the seat to act (the protocol's `legal` list, in its order), so the action space
is Discrete(max_actions) with `action_mask` marking the legal indexes, as PettingZoo's classic
environments mask theirs. The observation's "observation" is the seat's `act` message (its view,
and its legal actions on its turn) as the bytes of its JSON text, padded with zeros to
`observation_bytes` (a uint8 array, as PettingZoo's checks want an array): `decode(observation)`
gives the message back as a dict, to encode as a learner needs. Rewards are the game's payoffs (big blinds, chips, points; +1/0/-1 in gomoku), given
when the game ends.
"""

import json

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import bot_arena

# The most legal actions a decision of each game can list: gomoku lists every empty cell of its
# board (size x size); the card games and mahjong list far fewer than this default.
DEFAULT_MAX_ACTIONS = 64
# The longest JSON text of an `act` message kept (a 15x15 gomoku board late in a game is about
# 4 KB); a longer one is refused, never cut.
DEFAULT_OBSERVATION_BYTES = 16384


def decode(observation):
    """The `act` message (a dict) an observation holds (the observation dict or its array)."""
    array = observation["observation"] if isinstance(observation, dict) else observation
    return json.loads(bytes(array).rstrip(b"\0").decode())


def env(game, **kwargs):
    """The AEC environment of `game` (see ArenaEnv)."""
    return ArenaEnv(game, **kwargs)


class ArenaEnv(AECEnv):
    """A bot-arena game as an AEC environment: ArenaEnv(game, seats=None, seed=0,
    max_actions=None, render_mode=None, **table_options)."""

    metadata = {"render_modes": ["human"], "name": "bot_arena_v0", "is_parallelizable": False}

    def __init__(self, game, seats=None, seed=0, max_actions=None, observation_bytes=DEFAULT_OBSERVATION_BYTES,
                 render_mode=None, **options):
        super().__init__()
        self.game = bot_arena.Game(game, seats=seats, seed=seed, **options)
        self.metadata = dict(self.metadata, name=f"bot_arena_{game}_v0")
        self.render_mode = render_mode
        if max_actions is None:
            size = self.game.observation(self.game.to_act)["view"].get("size") if game == "gomoku" else None
            max_actions = size * size if size else DEFAULT_MAX_ACTIONS
        self.max_actions = max_actions
        self.possible_agents = [f"player_{seat}" for seat in range(self.game.seats)]
        self.observation_bytes = observation_bytes
        text = spaces.Box(0, 255, shape=(observation_bytes,), dtype=np.uint8)
        self.observation_spaces = {
            agent: spaces.Dict(
                {"observation": text, "action_mask": spaces.Box(0, 1, shape=(max_actions,), dtype=np.int8)}
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(max_actions) for agent in self.possible_agents}
        self._fresh = True

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def _agent(self, seat):
        return self.possible_agents[seat]

    def reset(self, seed=None, options=None):
        # The first reset plays the deal the game was made with; later ones the seed's next deals.
        if seed is not None:
            self.game.reset(seed=seed)
        elif not self._fresh:
            self.game.reset()
        self._fresh = False
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self._agent(self.game.to_act)

    def observe(self, agent):
        seat = self.possible_agents.index(agent)
        message = self.game.observation(seat)
        mask = np.zeros(self.max_actions, dtype=np.int8)
        if len(message["legal"]) > self.max_actions:
            raise ValueError(f"{len(message['legal'])} legal actions, more than max_actions={self.max_actions}")
        mask[: len(message["legal"])] = 1
        text = json.dumps(message).encode()
        if len(text) > self.observation_bytes:
            raise ValueError(f"an observation of {len(text)} bytes, more than observation_bytes={self.observation_bytes}")
        array = np.zeros(self.observation_bytes, dtype=np.uint8)
        array[: len(text)] = np.frombuffer(text, dtype=np.uint8)
        return {"observation": array, "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        legal = self.game.legal_actions()
        if action is None or not 0 <= int(action) < len(legal):
            raise ValueError(f"action {action} is not one of the {len(legal)} legal indexes")
        self._cumulative_rewards[agent] = 0.0
        self.game.step(legal[int(action)])
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if self.game.done:
            for seat, payoff in enumerate(self.game.payoffs()):
                self.rewards[self._agent(seat)] = float(payoff)
            self.terminations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self._agent(self.game.to_act)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.game.done:
            print(json.dumps(self.game.game_over()))
        else:
            print(json.dumps(self.game.observation()))

    def close(self):
        pass
