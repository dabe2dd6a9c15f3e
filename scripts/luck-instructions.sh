#!/bin/sh
# Instructions per game of a run with and without the luck taken out (issue 51): valgrind's
# callgrind counts every instruction of `arena run` (setup included, a few million), a figure
# that does not move with the machine's load (the book: Performance).
#
#   scripts/luck-instructions.sh ARENA [GAMES]    (default 20000 games; needs valgrind)
#
# For hold'em and stud, `always-call` against itself, one thread, duplicate deals: the plain run,
# then `--estimator aivat`; and hold'em `rr` against `rr-tight` the same way. Prints one line a
# case: instructions plain, adjusted, and their ratio.
set -eu
arena=${1:?error: give the arena binary (target/quick/arena)}
games=${2:-20000}
command -v valgrind >/dev/null || { echo "error: valgrind is not on PATH (install valgrind)" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
count() {
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$arena" run "$@" --paired --games "$games" \
        --threads 1 --quiet --force --out "$out/run" 2>&1 | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}
for case in "holdem always-call always-call" "stud always-call always-call" "holdem rr rr-tight"; do
    set -- $case
    plain=$(count --game "$1" --bot "$2" --bot "$3")
    aivat=$(count --game "$1" --bot "$2" --bot "$3" --estimator aivat)
    echo "$1 $2 vs $3, $games games: plain $plain, aivat $aivat instructions" \
        "($(echo "$plain $aivat $games" | awk '{printf "%.0f k / %.0f k instructions a game, %.2fx", $1/$3/1000, $2/$3/1000, $2/$1}'))"
done
