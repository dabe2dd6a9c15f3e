"""Tournaments with Python bots in them: the run folder, the verdicts, resume, SPRT, faults."""

import functools
import os
import queue
import threading
import time

import pytest

import bot_arena
from conftest import protocol_bot
from hash_bot import choose, first_legal


def caller(message):
    """Checks or calls whatever it holds."""
    legal = message["legal"]
    return next((a for a in legal if a in ("check", "call")), legal[0])


def test_a_run_writes_the_cli_folder_and_gives_the_verdict(out):
    result = bot_arena.run(
        {"game": "holdem", "games": 300, "seed": 3, "paired": True, "bots": ["caller", "random"]},
        bots={"caller": caller},
        out=out,
        threads=2,
    )
    for name in ("config.toml", "run.json", "games.csv", "summary.csv", "match.csv", "timing.csv"):
        assert os.path.exists(os.path.join(out, name)), name
    assert result.status == "complete" and result.games_played == 300
    assert result.verdict.startswith("caller is stronger than random") or "random" in result.verdict
    assert "bb/100" in result.verdict
    summary = result.summary
    assert list(summary["bot"]) == ["caller", "random"]
    assert list(summary["games"]) == [300, 300]
    assert len(result.games) == 600, "a row a seat a game"
    assert 'kind = "python"' in open(os.path.join(out, "config.toml")).read()


def test_without_pandas_the_tables_are_lists_of_dicts(out, monkeypatch):
    bot_arena.run({"game": "gomoku", "games": 4, "bots": ["mine", "random"], "table": {"size": 9}},
                  bots={"mine": first_legal}, out=out)
    import builtins

    real_import = builtins.__import__

    def no_pandas(name, *args, **kwargs):
        if name == "pandas":
            raise ImportError("no pandas here")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pandas)
    summary = bot_arena.Result(out).summary
    assert isinstance(summary, list) and summary[0]["bot"] == "mine" and summary[0]["games"] == 4


def test_an_object_with_new_game_and_game_over_and_a_class(out):
    class Counting:
        made = 0

        def __init__(self):
            Counting.made += 1
            self.messages = []

        def new_game(self, message):
            assert set(message) == {"type", "seat", "game", "seed"}
            self.messages.append("new_game")

        def act(self, message):
            self.messages.append("act")
            return {"action": message["legal"][0], "policy": {message["legal"][0]: 1.0}}

        def game_over(self, message):
            assert len(message["payoffs"]) == 2
            self.messages.append("game_over")

    one = Counting()
    bot_arena.run({"game": "stud", "games": 5, "bots": ["one", "fresh"]}, bots={"one": one, "fresh": Counting},
                  out=out)
    assert one.messages.count("new_game") == 5 and one.messages.count("game_over") == 5
    assert Counting.made == 1 + 5, "a class plays each game with a new object"


def test_an_sprt_stops_the_run_and_resume_finishes_it(out, tmp_path):
    config = {"game": "holdem", "games": 4000, "seed": 1, "paired": True, "bots": ["caller", "rr"],
              "sprt": {"elo0": 0, "elo1": 150}}
    result = bot_arena.run(config, bots={"caller": caller}, out=out)
    assert result.status == "sprt-stopped" and result.games_played < 4000
    assert result.verdict.startswith("rejected: caller is at least 150 nElo stronger than rr")

    whole = str(tmp_path / "whole")
    small = dict(config, games=60)
    del small["sprt"]
    bot_arena.run(small, bots={"caller": caller}, out=whole)
    part = str(tmp_path / "part")
    bot_arena.run(small, bots={"caller": caller}, out=part, games=30)
    resumed = bot_arena.resume(part, bots={"caller": caller}, games=60)
    assert resumed.games_played == 60
    assert open(f"{part}/games.csv").read() == open(f"{whole}/games.csv").read()


def test_records_and_report(out):
    bot_arena.run({"game": "zhajinhua", "games": 20, "bots": ["mine", "threshold"]}, bots={"mine": choose}, out=out,
                  records="moves", report=True)
    assert sum(1 for _ in open(f"{out}/records.jsonl")) == 20
    assert "<html" in open(f"{out}/report.html").read()


def test_a_config_file_and_bad_input(out, tmp_path):
    path = tmp_path / "mine.toml"
    path.write_text('game = "holdem"\ngames = 10\nbots = ["mine", "random"]\n')
    assert bot_arena.run(str(path), bots={"mine": caller}, out=out).games_played == 10
    with pytest.raises(bot_arena.ArenaError, match="already holds|--force"):
        bot_arena.run(str(path), bots={"mine": caller}, out=out)
    with pytest.raises(bot_arena.ArenaError, match="unknown bot|no bot|mine2"):
        bot_arena.run(str(path), bots={"other": caller}, out=out, force=True)


# ------------------------------------------------------------------ faults


def forfeits(out, bot):
    import csv

    rows = list(csv.DictReader(open(f"{out}/games.csv")))
    return [row["status"] for row in rows if row["bot"] == bot]


def test_an_exception_forfeits_with_the_tracebacks_last_line(out):
    def broken(message):
        return {"a": 1}[message["legal"][0]]

    bot_arena.run({"game": "holdem", "games": 3, "bots": ["broken", "random"]}, bots={"broken": broken}, out=out)
    assert forfeits(out, "broken") == ["forfeit: KeyError: 'fold'"] * 3


def test_an_illegal_action_forfeits(out):
    bot_arena.run({"game": "gomoku", "games": 2, "bots": ["cheat", "random"], "table": {"size": 9}},
                  bots={"cheat": lambda m: "99,99"}, out=out)
    statuses = forfeits(out, "cheat")
    assert len(statuses) == 2 and all(s.startswith("forfeit: illegal action") for s in statuses), statuses


def test_an_answer_that_is_no_action_forfeits(out):
    bot_arena.run({"game": "stud", "games": 2, "bots": ["mute", "random"]}, bots={"mute": lambda m: None},
                  out=out)
    assert forfeits(out, "mute") == ["forfeit: bad answer to act: None is not an action text nor a dict with \"action\""] * 2


def test_a_time_out_forfeits(out):
    def slow(message):
        time.sleep(0.03)
        return message["legal"][0]

    config = {"game": "stud", "games": 2,
              "bots": [{"name": "slow", "params": {"move_ms": 10}}, "random"]}
    bot_arena.run(config, bots={"slow": slow}, out=out)
    statuses = forfeits(out, "slow")
    assert len(statuses) == 2 and all(s.startswith("forfeit: timeout 10 ms") for s in statuses), statuses


def test_a_bot_in_an_endless_loop_is_stopped_at_its_deadline_and_plays_its_next_games(out):
    """A call asked on the run's own thread (the default) still running Python code at its deadline
    is stopped there by the TimeoutError raised inside it: the game is lost on time and the bot,
    free again at once, plays its next games."""
    release = threading.Event()
    stopped = []

    def looping(message):
        if message["view"]["moves"]:  # its first move in time, then a loop that never ends
            try:
                while not release.is_set():
                    pass
            except TimeoutError:
                stopped.append(message["view"]["moves"])
                raise
        return message["legal"][0]

    config = {"game": "gomoku", "games": 3, "table": {"size": 9},
              "bots": [{"name": "looping", "params": {"move_ms": 200}}, "random"]}
    try:
        started = time.perf_counter()
        result = bot_arena.run(config, bots={"looping": looping}, out=out)
        took = time.perf_counter() - started
    finally:
        release.set()
    assert result.status == "complete" and result.games_played == 3
    statuses = forfeits(out, "looping")
    assert len(statuses) == 3 and all(s.startswith("forfeit: timeout 200 ms: no answer (waited 2") for s in statuses), statuses
    assert len(stopped) == 3 and took < 10, (stopped, took)
    print(f"\n3 games in {took:.2f} s with a bot looping from its second move on: {statuses[0]}")


def test_a_bot_that_catches_the_timeout_and_loops_on_is_stopped_again(out):
    release = threading.Event()
    caught = []

    def stubborn(message):
        while not release.is_set():
            try:
                while not release.is_set():
                    pass
            except TimeoutError:
                caught.append(time.perf_counter())
                if len(caught) == 3:
                    raise
        return message["legal"][0]

    config = {"game": "stud", "games": 1, "bots": [{"name": "stubborn", "params": {"move_ms": 100}}, "random"]}
    try:
        bot_arena.run(config, bots={"stubborn": stubborn}, out=out)
    finally:
        release.set()
    [status] = forfeits(out, "stubborn")
    assert status.startswith("forfeit: timeout 100 ms: no answer (waited"), status
    assert len(caught) == 3 and caught[2] - caught[0] < 5, caught


def test_a_call_blocked_in_c_past_its_deadline_leaves_no_exception_behind(out):
    """A call that is in C code at its deadline (a queue's wait, 50 ms under a limit of 20 ms) and
    ends straight from there, with no Python code run after it to raise the TimeoutError in: the
    exception is taken back, not left to stop whatever the thread runs next (here the other
    Python bot's decisions, on the same thread)."""
    # A callable of C alone: waits 50 ms for an item that never comes, then raises queue.Empty.
    blocked = functools.partial(queue.SimpleQueue().get, timeout=0.05)

    config = {"game": "gomoku", "games": 4, "table": {"size": 9},
              "bots": [{"name": "blocked", "params": {"move_ms": 20}}, "next"]}
    bot_arena.run(config, bots={"blocked": blocked, "next": first_legal}, out=out)
    late = forfeits(out, "blocked")
    assert len(late) == 4 and all(s.startswith("forfeit: timeout 20 ms: no answer (waited 5") for s in late), late
    assert not any(s.startswith("forfeit") for s in forfeits(out, "next")), forfeits(out, "next")


def test_a_bot_that_never_returns_forfeits_on_time_and_the_run_goes_on(out, tmp_path):
    """A call stuck past its deadline in C code (a lock's wait), with `isolate` (each decision on a
    worker thread): the host stops waiting, the game is lost on time, and the bot is not asked
    again while the call runs (its later games forfeit at once); once it returns the bot plays
    again."""
    release = threading.Event()
    calls = []

    def stuck(message):
        calls.append(message["view"]["moves"])
        release.wait()  # stands for a bot that never returns: the test lets it go at the end
        return message["legal"][0]

    config = {"game": "gomoku", "games": 4, "table": {"size": 9},
              "bots": [{"name": "stuck", "params": {"move_ms": 200, "isolate": True}}, "random"]}
    try:
        started = time.perf_counter()
        result = bot_arena.run(config, bots={"stuck": stuck}, out=out)
        took = time.perf_counter() - started
        assert result.status == "complete" and result.games_played == 4
        statuses = forfeits(out, "stuck")
        assert statuses[0].startswith("forfeit: timeout 200 ms: no answer (waited 2"), statuses
        not_asked = "forfeit: timeout 200 ms: not asked, its call of game 0 has not returned since its deadline"
        assert statuses[1:] == [not_asked] * 3, statuses
        assert len(calls) == 1 and took < 10, (calls, took)
        print(f"\n4 games in {took:.2f} s with a bot stuck in its first call: {statuses[0]}; then {statuses[1]}")
    finally:
        release.set()
    # Returned: the bot is asked again.
    for _ in range(100):
        bot_arena.run(config, bots={"stuck": stuck}, out=str(tmp_path / "again"), force=True)
        if "not asked" not in open(str(tmp_path / "again" / "games.csv")).read():
            break
        time.sleep(0.05)
    assert not any(s.startswith("forfeit") for s in forfeits(str(tmp_path / "again"), "stuck"))


def test_a_bot_stuck_under_a_clock_loses_on_time(out):
    release = threading.Event()

    def stuck(message):
        release.wait()
        return message["legal"][0]

    config = {"game": "stud", "games": 1,
              "bots": [{"name": "clocked", "params": {"tc": "0.3+0", "isolate": True}}, "random"]}
    try:
        bot_arena.run(config, bots={"clocked": stuck}, out=out)
        [status] = forfeits(out, "clocked")
        assert status.startswith("forfeit: time: lost on time under 0.3+0: no answer (waited 3"), status
    finally:
        release.set()


def test_a_protocol_bot_and_a_python_bot_at_one_table(out):
    result = bot_arena.run({"game": "holdem", "games": 20, "bots": ["mine", protocol_bot("theirs")]},
                           bots={"mine": choose}, out=out)
    assert result.games_played == 20 and "forfeit" not in open(f"{out}/games.csv").read()


def test_a_python_bot_nobody_handed_over_stops_the_run(out):
    config = {"game": "stud", "games": 10, "bots": [{"name": "ghost", "kind": "python"}, "random"]}
    with pytest.raises(bot_arena.ArenaError, match="could not run|no hosted bot named"):
        bot_arena.run(config, bots={}, out=out)
