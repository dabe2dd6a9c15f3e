#!/bin/sh
# Builds the user's guide (docs/book/, an mdBook) into docs/book/book/, installing mdBook with
# cargo first when it is not on PATH. `mdbook build` fails on a chapter SUMMARY.md lists that is
# not there or an {{#include}} that finds nothing; tests/suite/book.rs checks every internal link
# and tests/suite/readme.rs runs every example of the book.
#   scripts/book.sh          build it
#   scripts/book.sh serve    serve it at http://localhost:3000, rebuilt on every change
set -eu
cd "$(dirname "$0")/.."
if ! command -v mdbook >/dev/null 2>&1; then
    echo "installing mdBook (cargo install mdbook, a few minutes)" >&2
    cargo install mdbook --locked --no-default-features --features search
fi
case "${1:-build}" in
    build) mdbook build docs/book && echo "book: docs/book/book/index.html" ;;
    serve) mdbook serve docs/book ;;
    *) echo "error: scripts/book.sh takes nothing, or \`serve\`, not \`$1\`" >&2; exit 2 ;;
esac
