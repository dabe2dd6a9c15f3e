#!/bin/sh
# The peers bench (benches/peers.rs) in instructions: each side's loop of a contest counted by
# valgrind's callgrind, a figure that does not move with the machine's load (the book:
# Performance, Against other projects). Only contests whose sides are functions of their own
# (`peers::ours_CONTEST`, `peers::theirs_CONTEST`; today eval7) are counted apart.
#
#   scripts/peers-instructions.sh [CONTEST]     (default eval7; needs valgrind)
set -eu
contest=${1:-eval7}
command -v valgrind >/dev/null || { echo "error: valgrind is not on PATH (install valgrind)" >&2; exit 2; }
# `--no-run` prints the bench's path, target/release/deps/peers-….
bench=$(cargo bench --features peers --bench peers --no-run 2>&1 | sed -n 's/.*Executable .*(\(.*\))$/\1/p' | tail -n 1)
[ -x "$bench" ] || { echo "error: cargo did not name the peers bench's executable" >&2; exit 2; }
out=$(mktemp)
trap 'rm -f "$out"' EXIT
valgrind --tool=callgrind --callgrind-out-file="$out" "$bench" --bench "$contest" >/dev/null 2>&1
echo "instructions, each side's whole loop (callgrind_annotate --inclusive=yes):"
callgrind_annotate --inclusive=yes "$out" | grep -E "peers::(ours|theirs)_$contest" || {
    echo "error: no function peers::ours_$contest or peers::theirs_$contest was counted" >&2
    exit 2
}
