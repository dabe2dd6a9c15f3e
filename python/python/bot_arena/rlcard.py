"""bot-arena's games with RLCard's environment interface (rlcard.envs.Env's shape), for RLCard's
agents and training loops:

    from bot_arena.rlcard import Env
    from rlcard.agents import RandomAgent

    env = Env("zhajinhua", seed=1)
    env.set_agents([RandomAgent(env.num_actions) for _ in range(env.num_players)])
    trajectories, payoffs = env.run()

An action is an integer id from a fixed list (`env.actions`): the games whose actions fit a finite
list. Hold'em's and stud's bets take any size inside a range; they are abstracted to a few sizes
(`raise min`, `raise half pot`, `raise pot`, `raise max` in hold'em, `bet ...` in stud: totals
for the street, the pot sizes counting the call first). Zhajinhua's and gomoku's actions are
listed whole. Mahjong has no adapter: its calls name tiles and melds in too many ways to list.

A state is RLCard's dict: `legal_actions` (an OrderedDict of the legal ids), `obs` and `raw_obs`
(the protocol's view, docs/book/src/protocol.md: a dict, not an encoded array),
`raw_legal_actions` (the names of the legal ids) and `action_record`. RLCard itself is not needed.
"""

from collections import OrderedDict

from bot_arena import Game

__all__ = ["Env", "GAMES"]

# The abstract sizes of a bet: the fraction of the pot (after the call) it adds to the bet to
# match, or the range's ends. A size that lands on an end is the end's alone.
SIZES = (("min", None), ("half pot", 0.5), ("pot", 1.0), ("max", None))


def _poker(verb, first):
    """A poker game's action list: `first` (the fixed actions), then `verb` at each size."""

    def actions(game):
        return list(first) + [f"{verb} {name}" for name, _ in SIZES] + (["showhand"] if verb == "bet" else [])

    return actions


def _zhajinhua(game):
    # The first stake is the one a hand starts at: never a raise.
    stakes = game._options.get("stakes", [1, 2, 5, 10])[1:]
    return (["fold", "look", "call"] + [f"raise {s}" for s in stakes]
            + [f"compare {seat}" for seat in range(game.seats)])


def _gomoku(game):
    size = int(game._options.get("size", 15))
    return [f"{x},{y}" for y in range(size) for x in range(size)]


# Each game's list of actions, made from its table: the games with an adapter.
GAMES = {
    "holdem": _poker("raise", ["fold", "check", "call"]),
    "stud": _poker("bet", ["fold", "check", "call"]),
    "zhajinhua": _zhajinhua,
    "gomoku": _gomoku,
}


def _sized(name, view):
    """The text of an abstract bet (`raise pot`) in this view, or None where it is not a size of its own."""
    verb, _, size = name.partition(" ")
    bounds = view.get(verb)
    if not isinstance(bounds, dict):
        return None
    low, high = bounds["min"], bounds["max"]
    fraction = dict(SIZES).get(size)
    if size == "min":
        return f"{verb} {low}"
    if size == "max":
        return f"{verb} {high}" if high > low else None
    if fraction is None:
        return None
    total = view.get("current_bet", 0) + int(fraction * (view["pot"] + view.get("to_call", 0)))
    return f"{verb} {total}" if low < total < high else None


class Env:
    """A game of bot-arena's with RLCard's Env interface.

    Env("holdem", seats=2, seed=7, **options): reset() deals the seed's games in order (game 0,
    1, ...: the deals a run with that seed plays); options are the game's table options.
    """

    def __init__(self, game, seats=None, seed=0, allow_step_back=False, **options):
        if game not in GAMES:
            raise ValueError(f"no RLCard adapter for {game!r}: one of {', '.join(GAMES)}")
        if allow_step_back:
            raise ValueError("step_back is not supported")
        self.name = game
        self.game = Game(game, seats=seats, seed=seed, **options)
        self.actions = GAMES[game](self.game)
        self.num_players = self.game.seats
        self.num_actions = len(self.actions)
        # RLCard's networks size their inputs from these; the views are dicts, not arrays.
        self.state_shape = [None] * self.num_players
        self.action_shape = [None] * self.num_players
        self.allow_step_back = False
        self.action_recorder = []
        self.timestep = 0
        self.agents = None
        self._dealt = False
        self._last = 0

    def seed(self, seed=None):
        """Starts the deals again from `seed` (the next reset() deals its game 0)."""
        self.game.reset(seed=0 if seed is None else int(seed))
        self._dealt = False
        return seed

    def reset(self):
        """Deals the next game: (the state of the seat to act, that seat)."""
        if self._dealt:
            self.game.reset()
        self._dealt = True
        self.action_recorder = []
        player = self.game.to_act
        self._last = player
        return self.get_state(player), player

    def _legal(self, view, legal):
        """{id: text} of the legal actions, in id order."""
        texts = set(legal)
        ids = OrderedDict()
        for index, name in enumerate(self.actions):
            text = name if name in texts else _sized(name, view)
            legal_now = text is not None and (text in texts or _in_range(text, view))
            if legal_now and text not in ids.values():
                ids[index] = text
        return ids

    def get_state(self, player_id):
        message = self.game.observation(player_id)
        view, legal = message["view"], message["legal"]
        ids = self._legal(view, legal) if legal else OrderedDict()
        return {
            "legal_actions": OrderedDict((index, None) for index in ids),
            "obs": view,
            "raw_obs": view,
            "raw_legal_actions": [self.actions[index] for index in ids],
            "action_record": self.action_recorder,
        }

    def step(self, action, raw_action=False):
        """Plays action id `action` (or, with raw_action, its name or any action text) for the seat
        to act: (the state of the seat to act next, that seat); once the game is over, the state of
        the seat that acted last."""
        player = self.game.to_act
        if player is None:
            raise ValueError("the game is over: reset() deals the next")
        message = self.game.observation(player)
        ids = self._legal(message["view"], message["legal"])
        if raw_action:
            name = str(action)
            by_name = {self.actions[index]: text for index, text in ids.items()}
            text = by_name.get(name, name)
        else:
            if int(action) not in ids:
                legal = ", ".join(f"{i} ({self.actions[i]})" for i in ids)
                raise ValueError(f"action {action} is not legal now: legal are {legal}")
            text = ids[int(action)]
        self.game.step(text)
        self.action_recorder.append((player, text))
        self.timestep += 1
        self._last = player if self.game.done else self.game.to_act
        return self.get_state(self._last), self._last

    def step_back(self):
        raise ValueError("step_back is not supported")

    def is_over(self):
        return self.game.done

    def get_player_id(self):
        """The seat to act (once the game is over, the seat that acted last)."""
        return self._last

    def get_payoffs(self):
        """Each seat's payoff in the game's unit (big blinds in hold'em, chips in stud and
        zhajinhua, +1/0/-1 in gomoku)."""
        payoffs = self.game.payoffs()
        try:
            import numpy

            return numpy.array(payoffs, dtype=float)
        except ImportError:
            return payoffs

    def get_perfect_information(self):
        """Everything chance dealt, hidden cards included."""
        return self.game.deal()

    def set_agents(self, agents):
        self.agents = agents

    def run(self, is_training=False):
        """One game played by the agents (set_agents): (each seat's states and actions, payoffs),
        as RLCard's Env.run gives them."""
        trajectories = [[] for _ in range(self.num_players)]
        state, player = self.reset()
        trajectories[player].append(state)
        while not self.is_over():
            agent = self.agents[player]
            action = agent.step(state) if is_training else agent.eval_step(state)[0]
            state, player = self.step(action, getattr(agent, "use_raw", False))
            trajectories[self.action_recorder[-1][0]].append(action)
            if not self.is_over():
                trajectories[player].append(state)
        for seat in range(self.num_players):
            trajectories[seat].append(self.get_state(seat))
        return trajectories, self.get_payoffs()


def _in_range(text, view):
    """Whether a sized text (`raise 300`) lies inside its view's range."""
    verb, _, amount = text.partition(" ")
    bounds = view.get(verb)
    return isinstance(bounds, dict) and amount.isdigit() and bounds["min"] <= int(amount) <= bounds["max"]
