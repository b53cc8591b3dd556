#!/usr/bin/env bash
# Every test of the project, in one command: the Swift suites (core, ingest, store, report, CLI),
# then the Python suites that drive real components (Chromium through Selenium, Spark, PostgreSQL)
# against the binary the Swift build just made.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build --build-tests
swift test "$@"

# The Python suites run the debug binary built above; PULLPARITY_BIN overrides it.
export PULLPARITY_BIN="${PULLPARITY_BIN:-$(swift build --show-bin-path)/pullparity}"
python3 -m pytest -q
