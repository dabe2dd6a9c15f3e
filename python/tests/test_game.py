"""The environments (bot_arena.Game) against the Rust engine's own games: the deals, views and
results of a run's games, played again action by action."""

import json

import pytest

import bot_arena
from conftest import GAMES
from hash_bot import choose

SEED = 11


def test_every_registered_game_is_there():
    assert list(bot_arena.games()) == GAMES
    assert bot_arena.games()["mahjong"]["seats"] == (4, 4)


@pytest.mark.parametrize("name", GAMES)
def test_a_run_replays_in_the_environment(name, out):
    """A run's records (deal, every action, payoffs) and the act messages its Python bot was
    handed are what the environment deals, shows and pays on the same seed."""
    seen = []

    def bot(message):
        seen.append(message)
        return choose(message)

    table = {"size": 9} if name == "gomoku" else {}
    config = {"game": name, "games": 3, "seed": SEED, "bots": ["mine"], "table": table}
    bot_arena.run(config, bots={"mine": bot}, out=out, records="moves")
    records = [json.loads(line) for line in open(f"{out}/records.jsonl")]
    assert len(records) == 3
    asked = iter(seen)
    for record in records:
        game = bot_arena.Game(name, seats=len(record["seats"]), seed=SEED, **table).reset(seed=SEED, game=record["game"])
        assert game.deal() == record["deal"]
        for event in record["events"]:
            if isinstance(event, str):
                continue  # a chance event: the environment deals it itself
            seat, action = event
            assert game.to_act == seat
            assert game.observation(seat) == next(asked), "the environment shows what the bot was shown"
            game.step(action)
        assert game.done
        assert game.payoffs() == pytest.approx(record["payoffs"])
        assert game.places() == record["places"]
    assert next(asked, None) is None, "every decision the bot made was replayed"


@pytest.mark.parametrize("name", GAMES)
def test_a_game_plays_to_its_end_and_clones_are_independent(name):
    game = bot_arena.Game(name, seed=3)
    assert game.seats == bot_arena.games()[name]["seats"][0]
    copy = None
    moves = 0
    while not game.done:
        message = game.observation()
        assert message["type"] == "act" and message["legal"] == game.legal_actions()
        if moves == 2:
            copy = game.clone()
        game.step(choose(message))
        moves += 1
    assert len(game.payoffs()) == game.seats and min(game.places()) == 1
    assert game.game_over()["payoffs"] == game.payoffs()
    if copy is not None:
        assert not copy.done, "the copy stayed where it was taken"
        while not copy.done:
            copy.step(choose(copy.observation()))
        assert copy.payoffs() == game.payoffs(), "the same deal and choices, the same result"


def test_an_illegal_action_is_refused_and_changes_nothing():
    game = bot_arena.Game("holdem", seed=7)
    before = game.observation()
    with pytest.raises(bot_arena.IllegalAction, match="legal: fold, call, raise 200, raise 10000"):
        game.step("raise 5")
    with pytest.raises(ValueError):
        game.step("dance")
    assert game.observation() == before
    game.step("raise 350")  # a size inside the range is legal though not listed
    assert game.observation(0)["legal"] == [], "not seat 0's turn: nothing listed"


def test_a_view_hides_the_other_seats_cards():
    game = bot_arena.Game("holdem", seed=7)
    deal = game.deal()
    mine = game.observation(0)["view"]
    assert mine["hole"] == deal["hole"][0]
    assert json.dumps(deal["hole"][1][0]) not in json.dumps(mine)


def test_options_seats_and_bad_input():
    game = bot_arena.Game("holdem", seats=6, seed=1, stack=50, big_blind=200, small_blind=100)
    assert game.seats == 6
    assert game.observation()["view"]["blinds"]["big"] == 200
    with pytest.raises(bot_arena.ArenaError, match="unknown game"):
        bot_arena.Game("chess")
    with pytest.raises(bot_arena.ArenaError):
        bot_arena.Game("holdem", stakc=10)
    with pytest.raises(bot_arena.ArenaError, match="not 5"):
        bot_arena.Game("mahjong", seats=5)
    finished = bot_arena.Game("gomoku", size=5)
    with pytest.raises(ValueError, match="not over"):
        finished.payoffs()


def test_reset_deals_the_seeds_games_in_turn():
    a = bot_arena.Game("stud", seed=5)
    first = a.deal()
    second = a.reset().deal()
    assert first != second
    assert a.reset(seed=5).deal() == first
    assert bot_arena.Game("stud", seed=5).reset(game=1).deal() == second
