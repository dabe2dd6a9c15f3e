#!/bin/sh
# Installs Debian's Chromium (needs root) and runs the test that renders three reports in it
# headless (tests/suite/report.rs): every section present, every plot drawn, no console message, and a
# screenshot of each in target/tmp/report-screenshots/.
#   scripts/chromium-check.sh
set -eu
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null 2>&1; then
    apt-get update
    apt-get install -y chromium
fi
cargo test --release --test suite report:: -- --nocapture
