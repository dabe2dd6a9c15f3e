"""Ctrl-C during bot_arena.run: KeyboardInterrupt reaches Python within a second or so, the run
folder is left `interrupted` as after SIGINT from the CLI, and resume finishes it with the games an
uninterrupted run plays."""

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import bot_arena
from conftest import BOTS
from hash_bot import choose

CONFIG = {"game": "holdem", "games": 10000, "seed": 8, "paired": True, "bots": ["mine", "rr"]}

CHILD = textwrap.dedent("""
    import sys, time
    sys.path.insert(0, {bots!r})
    import bot_arena
    from hash_bot import choose

    calls = 0

    def slow(message):  # the same choices as `choose`, a millisecond each: a run of seconds
        global calls
        calls += 1
        if calls == 200:
            print("playing", flush=True)
        time.sleep(0.001)
        return choose(message)

    print("started", flush=True)
    try:
        bot_arena.run({config!r}, bots={{"mine": slow}}, out={out!r})
    except KeyboardInterrupt:
        print("KeyboardInterrupt", flush=True)
        sys.exit(42)
    print("finished", flush=True)
""")


def test_ctrl_c_interrupts_run_and_resume_finishes_it(tmp_path):
    out = str(tmp_path / "run")
    script = CHILD.format(bots=BOTS, config=CONFIG, out=out)
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "started"
    assert child.stdout.readline().strip() == "playing", "the run did not start"
    sent = time.perf_counter()
    child.send_signal(signal.SIGINT)
    try:
        said, _ = child.communicate(timeout=30)
    finally:
        child.kill()
    waited = time.perf_counter() - sent
    assert child.returncode == 42 and said.strip() == "KeyboardInterrupt", (child.returncode, said)
    assert waited < 5, f"KeyboardInterrupt came {waited:.2f} s after SIGINT"
    manifest = json.load(open(os.path.join(out, "run.json")))
    assert manifest["status"] == "interrupted" and 0 < manifest["games_played"] < 10000, manifest
    print(f"\nSIGINT after {manifest['games_played']} games: KeyboardInterrupt {waited:.2f} s later")

    resumed = bot_arena.resume(out, bots={"mine": choose})
    assert resumed.status == "complete" and resumed.games_played == 10000
    whole = bot_arena.run(CONFIG, bots={"mine": choose}, out=str(tmp_path / "whole"))
    assert open(os.path.join(out, "games.csv"), "rb").read() == open(os.path.join(whole.dir, "games.csv"), "rb").read()
