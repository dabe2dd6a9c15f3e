#!/bin/bash
# Records at scale, by hand (docs/book/src/records.md): 10,000 games of each game with --records moves, on
# 1 and 2 threads, killed and resumed, and in 3 merged shards; the records compared byte for byte,
# each run checked with `arena replay --check`, and one action changed by hand to be caught.
# Usage: cargo build --release && scripts/records-acceptance.sh   (GAMES="holdem gomoku" for some; D=DIR keeps the runs)
A=${A:-$(cd "$(dirname "$0")/.." && pwd)/target/release/arena}
D=${D:-$(mktemp -d)}
cd $D
declare -A CFG
CFG[holdem]='game = "holdem"
games = 10000
paired = true
seats = 3
bots = ["rr", "always-call", "random"]'
CFG[stud]='game = "stud"
games = 10000
paired = true
seats = 3
bots = ["expert", "always-call", "random"]'
CFG[zhajinhua]='game = "zhajinhua"
games = 10000
paired = true
seats = 3
bots = ["ev", "threshold", "random"]'
CFG[mahjong]='game = "mahjong"
games = 10000
paired = true
seats = 4
bots = ["greedy", "random"]'
CFG[gomoku]='game = "gomoku"
games = 10000
paired = true
bots = ["weights", "random-adjacent", "random"]
[table]
size = 15'
for g in ${GAMES:-holdem stud zhajinhua mahjong gomoku}; do
  echo "${CFG[$g]}" > $g.toml
  rm -rf $g-*
  s=$(date +%s.%N)
  $A run $g.toml --records moves --threads 1 -q --out $g-t1 >/dev/null 2>&1
  e=$(date +%s.%N)
  $A run $g.toml --records moves --threads 2 -q --out $g-t2 >/dev/null 2>&1
  len=$(echo "$e - $s" | bc)
  half=$(echo "$len / 3" | bc -l)
  $A run $g.toml --records moves --threads 2 -q --out $g-kill >/dev/null 2>&1 &
  pid=$!; sleep $half; kill -9 $pid; wait $pid 2>/dev/null
  lines_at_kill=$(wc -l < $g-kill/records.jsonl)
  $A resume $g-kill -q --threads 1 >/dev/null 2>&1
  for k in 1 2 3; do $A run $g.toml --records moves --shard $k/3 -q --out $g-s$k >/dev/null 2>&1; done
  $A merge -q --records moves --out $g-merged $g-s1 $g-s2 $g-s3 >/dev/null 2>&1
  games=$(wc -l < $g-t1/records.jsonl); bytes=$(wc -c < $g-t1/records.jsonl)
  echo "== $g: $games games, $bytes bytes of records ($((bytes / games)) a game), one-thread run ${len}s; killed at $lines_at_kill records"
  for v in t2 kill merged; do cmp -s $g-t1/records.jsonl $g-$v/records.jsonl && echo "  $v records.jsonl identical to t1" || echo "  $v records.jsonl DIFFERS"; cmp -s $g-t1/games.csv $g-$v/games.csv || echo "  $v games.csv DIFFERS"; done
  for v in t1 t2 kill merged; do echo "  $v: $($A replay $g-$v --check 2>&1 | tail -1) (exit ${PIPESTATUS[0]})"; done
  # One action changed by hand, at line 5000.
  rm -rf $g-edit; cp -r $g-t1 $g-edit
  python3 - $g-edit/records.jsonl <<'PY'
import json, sys
p = sys.argv[1]
lines = open(p).read().split('\n')
r = json.loads(lines[4999])
acts = [i for i, e in enumerate(r['events']) if isinstance(e, list)]
i = acts[len(acts) // 2]
old = r['events'][i][1]
new = {'call': 'fold', 'check': 'fold', 'fold': 'call', 'pass': 'hu'}.get(old.split()[0], None)
if new is None:
    new = 'raise 1' if old.startswith(('raise', 'bet')) else ('7,7' if ',' in old else 'pass')
r['events'][i][1] = new
print(f"  edit: line 5000 event {i + 1}: {old!r} -> {new!r}")
lines[4999] = json.dumps(r, separators=(',', ':'), ensure_ascii=False)
open(p, 'w').write('\n'.join(lines))
PY
  $A replay $g-edit --check 2>&1 | head -3 | sed 's/^/  edited: /'
done
