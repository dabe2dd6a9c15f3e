"""bot-arena from Python: its games as environments, and tournaments with Python bots in them.

    import bot_arena

    game = bot_arena.Game("holdem", seats=2, seed=7)
    while not game.done:
        game.step(game.legal_actions()[0])
    print(game.payoffs())

    def mine(message):            # the protocol's `act` message: {"type", "view", "legal"}
        return message["legal"][0]

    result = bot_arena.run({"game": "holdem", "games": 200, "bots": ["mine", "random"]},
                           bots={"mine": mine}, out="results/mine", force=True)
    print(result.verdict)

A bot is a callable taking the `act` message (a dict) and returning an action text (or the
protocol's answer, a dict with "action" and optionally "policy"), or an object with a method
`act(message)` and optionally `new_game(message)` and `game_over(message)`, or a class, of which
a new object plays every game. The messages are the JSON-lines protocol's
(docs/book/src/protocol.md), as dicts.
"""

import csv
import gzip
import os

from bot_arena._native import ArenaError, IllegalAction, NativeGame, __version__
from bot_arena import _native

__all__ = ["Game", "IllegalAction", "ArenaError", "Result", "run", "resume", "report", "games", "__version__"]


def games():
    """The registered games: {name: {"seats": (fewest, most), "options": {name: default}}}."""
    return {
        name: {"seats": (low, high), "options": {opt: default for opt, default, _help in options}}
        for name, low, high, options in _native.games()
    }


class Game:
    """One game of bot-arena's, played an action at a time.

    Game("holdem", seats=2, seed=7, **options) deals game 0 of seed 7, as a run with seed 7
    deals its first game; options are the game's table options (`arena list GAME`).
    """

    def __init__(self, name, seats=None, seed=0, **options):
        self._options = dict(options)
        self._seed = int(seed)
        self._index = 0
        self._native = NativeGame(name, seats, self._options, self._seed, 0, 0, 1)

    @classmethod
    def _wrap(cls, native, seed, index, options):
        game = cls.__new__(cls)
        game._native, game._seed, game._index, game._options = native, seed, index, options
        return game

    def reset(self, seed=None, game=None, pairing=0, replays=1):
        """Deals a new game: the next of the seed's games, or game `game` of `seed` (the deal a
        run with that seed gives its game `game` of table `pairing`, `replays` seat rotations a
        deal when the run is paired). Returns the game."""
        if seed is not None:
            self._seed = int(seed)
            self._index = 0 if game is None else int(game)
        elif game is not None:
            self._index = int(game)
        else:
            self._index += 1
        self._native.reset(self._seed, int(pairing), self._index, int(replays))
        return self

    @property
    def name(self):
        return self._native.name

    @property
    def seats(self):
        return self._native.seats

    @property
    def to_act(self):
        """The seat to act, or None once the game is over."""
        return self._native.to_act

    @property
    def done(self):
        return self._native.to_act is None

    def observation(self, seat=None):
        """What `seat` (default: the seat to act) sees: the protocol's `act` message, a dict with
        "view" and "legal" (the legal actions, listed on the seat's turn only)."""
        if seat is None:
            seat = self.to_act
            if seat is None:
                raise ValueError("the game is over: name the seat to observe")
        return self._native.observation(int(seat))

    def legal_actions(self):
        """The legal actions of the seat to act, as texts ([] once the game is over)."""
        return self._native.legal_actions()

    def step(self, action):
        """Plays `action` (a text, one of legal_actions() or a size inside a listed range) for
        the seat to act; raises IllegalAction, leaving the game as it was, when the rules refuse it."""
        self._native.step(str(action))
        return self

    def payoffs(self):
        """Each seat's payoff, in the game's unit (big blinds, chips, points; +1/0/-1 for gomoku)."""
        return list(self._outcome()[0])

    def places(self):
        """Each seat's place (1 is first; ties share a place)."""
        return list(self._outcome()[1])

    def _outcome(self):
        outcome = self._native.outcome()
        if outcome is None:
            raise ValueError(f"the game is not over: seat {self.to_act} is to act")
        return outcome

    def game_over(self):
        """The protocol's `game_over` message (payoffs, places, what the rules reveal), or None
        while the game is in play."""
        return self._native.game_over()

    def deal(self):
        """Everything chance decided at the deal, hidden cards included."""
        return self._native.deal()

    def clone(self):
        """An independent copy of the game as it stands."""
        return Game._wrap(self._native.clone(), self._seed, self._index, dict(self._options))

    def __repr__(self):
        state = "over" if self.done else f"seat {self.to_act} to act"
        return f"<bot_arena.Game {self.name}, {self.seats} seats, seed {self._seed} game {self._index}: {state}>"


def _config_text(config):
    """(TOML text, the path it came from) of a config given as a path, TOML text or a dict."""
    if isinstance(config, dict):
        return _native.toml_text(config), "config.toml"
    if isinstance(config, os.PathLike) or ("\n" not in str(config) and str(config).endswith(".toml")):
        path = os.fspath(config)
        with open(path, encoding="utf-8") as f:
            return f.read(), path
    return str(config), "config.toml"


def run(config, bots=None, out=None, games=None, threads=1, seed=None, force=False, records="csv", report=False):
    """Plays a tournament, as `arena run` does, with Python bots in it, and returns its Result.

    config: a config file's path, its TOML text, or a dict of the same keys. A bot named in the
    config's `bots` that is a key of `bots` is the Python bot given there (a `python` bot;
    its parameters, such as move_ms, go in the entry's `params`).
    out: the run folder (default results/<config name>); force=True replaces a run there.
    games, seed: replace the config's; threads: worker threads (the files do not depend on it);
    records: "csv", "gz", "moves" (records.jsonl too), "moves-gz" or "none"; report: also write
    report.html.
    """
    text, path = _config_text(config)
    if out is None:
        stem = os.path.splitext(os.path.basename(path))[0]
        out = os.path.join("results", stem)
    folder, status, played, planned = _native.run(
        text, path, dict(bots or {}), os.fspath(out), games, seed, int(threads), bool(force), records
    )
    if report:
        globals()["report"](folder)
    return Result(folder)


def resume(out, bots=None, threads=1, games=None):
    """Continues an interrupted run in `out` (as `arena resume`), with its Python bots given again;
    games: extend the run to this many games per pairing. A report.html already in the folder is
    written again, final."""
    _native.resume(os.fspath(out), dict(bots or {}), int(threads), None if games is None else int(games))
    if os.path.exists(os.path.join(os.fspath(out), "report.html")):
        report(out)
    return Result(out)


def report(out):
    """Writes report.html into the run folder `out` (as `arena report`); returns its path."""
    _command(["report", os.fspath(out)], {})
    return os.path.join(os.fspath(out), "report.html")


def _command(args, bots):
    code = _native.command(args, dict(bots or {}))
    if code != 0:
        raise ArenaError(f"arena {' '.join(args)} exited with code {code}")


def _number(text):
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _table(path):
    """A CSV file of the run as a pandas DataFrame when pandas is installed, else a list of dicts
    (numbers read as numbers)."""
    opener = gzip.open if path.endswith(".gz") else open
    try:
        import pandas
    except ImportError:
        pandas = None
    if pandas is not None:
        return pandas.read_csv(path, keep_default_na=False, na_values=[""])
    with opener(path, "rt", encoding="utf-8", newline="") as f:
        return [{k: _number(v) for k, v in row.items()} for row in csv.DictReader(f)]


class Result:
    """What a run came to, read from its folder: `verdicts` (one sentence a pair of bots, as the
    terminal says them), `summary`, `matches` and `games` (the folder's CSV files)."""

    def __init__(self, folder):
        self.dir = os.fspath(folder)
        import json

        with open(os.path.join(self.dir, "run.json"), encoding="utf-8") as f:
            self.manifest = json.load(f)
        self.status = self.manifest["status"]
        self.games_played = self.manifest["games_played"]
        self.games_planned = self.manifest["games_planned"]
        self.verdicts = []
        matches = os.path.join(self.dir, "match.csv")
        if os.path.exists(matches):  # a bot alone at its table has no match
            with open(matches, encoding="utf-8", newline="") as f:
                self.verdicts = [row["verdict"] for row in csv.DictReader(f)]

    @property
    def verdict(self):
        """The verdict sentence (the first pair's, when the run has several pairs)."""
        return self.verdicts[0] if self.verdicts else ""

    @property
    def summary(self):
        return _table(os.path.join(self.dir, "summary.csv"))

    @property
    def matches(self):
        return _table(os.path.join(self.dir, "match.csv"))

    @property
    def games(self):
        for name in ("games.csv", "games.csv.gz"):
            path = os.path.join(self.dir, name)
            if os.path.exists(path):
                return _table(path)
        raise FileNotFoundError(f"{self.dir} keeps no games file (records = \"none\")")

    def __repr__(self):
        lines = [f"{self.dir}: {self.status}, {self.games_played} of {self.games_planned} games"]
        lines += self.verdicts
        return "\n".join(lines)
