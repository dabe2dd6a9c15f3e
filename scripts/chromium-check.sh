#!/bin/sh
# Installs Debian's Chromium (needs root) and runs the tests that render reports in it headless:
# tests/suite/report.rs (every section present, every plot drawn, no console message, and a
# screenshot of each in target/tmp/report-screenshots/), tests/suite/plots.rs (no plot legend
# overlaps a plotted point or line, every plot fills its column), tests/suite/live_report.rs (the
# page `arena run --report` writes while it plays, read at three moments: the game counts grow) and
# tests/suite/viewer.rs (the game viewer opened at a few steps of a game of each of the five games,
# checked against the record), and tests/suite/league.rs's league page (`arena league report`:
# every plot drawn, no legend over a mark, every plot as wide as its column).
#   scripts/chromium-check.sh
set -eu
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null 2>&1; then
    apt-get update
    apt-get install -y chromium
fi
cargo test --release --test suite -- --nocapture report:: plots:: live_report:: viewer:: league::the_league_page_draws
