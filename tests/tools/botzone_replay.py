#!/usr/bin/env python3
"""Replays our mahjong games through Botzone's judge and checks its verdicts against ours.

    python3 tests/tools/botzone_replay.py JUDGE DIR

DIR holds the files of `arena replay RUN --export botzone` (one JSON line a game: the judge's
input, `initdata` and `log`, and our results under `bot_arena`). Each game the judge can be told
(`replayable` is not false) is given to JUDGE (Botzone's judge/main.cpp, built with
-D_BOTZONE_ONLINE as docs/book/src/botzone.md says) in one call: it replays the whole hand and must finish
with a win, the same fans (`display.fanCnt`) and the same scores (`content`) as ours. Prints one
line per disagreement and a summary; exits 1 on any disagreement.
"""

import json
import os
import subprocess
import sys
from collections import Counter


def main():
    judge, folder = sys.argv[1], sys.argv[2]
    told, same, refused, bad = 0, 0, Counter(), 0
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(folder, name)) as f:
            doc = json.loads(f.readline())
        if doc.get("replayable") is False:
            why = doc["why"]
            refused["a player took a whole quarter" if " took " in why else why] += 1
            continue
        told += 1
        run = subprocess.run([judge], input=json.dumps({"log": doc["log"], "initdata": doc["initdata"]}),
                             capture_output=True, text=True, timeout=30)
        out = json.loads(run.stdout)
        ours = doc["bot_arena"]
        scores = [out["content"].get(str(p)) for p in range(4)] if out.get("command") == "finish" else None
        fans = out.get("display", {}).get("fanCnt")
        action = out.get("display", {}).get("action")
        if action == "HU" and scores == ours["scores"] and fans == ours["fans"]:
            same += 1
        else:
            bad += 1
            print("%s: judge %s scores %s fans %s; ours scores %s fans %s" % (
                name, action, scores, fans, ours["scores"], ours["fans"]))
    print("%d games told to the judge, %d with the same win, fans and scores, %d not; not told: %s" % (
        told, same, bad, dict(refused)))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
