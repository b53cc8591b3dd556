#!/usr/bin/env bash
# Every test of the project, in one command: the Swift suites (core, ingest, store, report, CLI),
# the Android recorder's JUnit tests, then the Python suites that drive real components (Chromium
# through Selenium, Spark, PostgreSQL, the Android recorder's gesture driver) against the binary
# the Swift build just made, then a short run of the line decoder's fuzzer.
set -euo pipefail
cd "$(dirname "$0")/.."

# Formatting drift fails fast, before the long build (rules in .swift-format).
swift format lint --strict --recursive Sources Tests Package.swift
swift build --build-tests
swift test "$@"

# The Android recorder (clients/android) on the JVM: compiled once with Debian's kotlinc, then its
# JUnit tests, ending with "JUnit: N passed, N failed". The pytest suite below reuses that build.
clients/android/build.sh test

# The Python suites run the debug binary built above; PULLPARITY_BIN overrides it.
export PULLPARITY_BIN="${PULLPARITY_BIN:-$(swift build --show-bin-path)/pullparity}"
# The binary a stock Spark cluster runs (static Swift runtime and C libraries): its verbs are
# tested in a root that holds only glibc (spark/tests/test_deployable.py).
# (Assigned before it is exported, so that a failed build stops the script.)
PULLPARITY_DEPLOYABLE="${PULLPARITY_DEPLOYABLE:-$(scripts/build-deployable.sh | tail -n 1)}"
export PULLPARITY_DEPLOYABLE
# The official Spark image's PySpark, in a venv of its own, for the cluster recipe's test
# (spark/tests/test_stock_image.py); made once, again when its pins change.
STOCK_SPARK=.build/stock-spark
if ! cmp -s spark/requirements-stock-image.txt "$STOCK_SPARK/requirements.txt"; then
  rm -rf "$STOCK_SPARK" && python3 -m venv "$STOCK_SPARK"
  "$STOCK_SPARK/bin/pip" install -q -r spark/requirements-stock-image.txt
  cp spark/requirements-stock-image.txt "$STOCK_SPARK/requirements.txt"
fi
export PULLPARITY_STOCK_SPARK="$PWD/$STOCK_SPARK"
python3 -m pytest -q

# The fuzzer (scripts/fuzz.sh) compiles the decoder's files by name, outside SwiftPM: building it
# here keeps that list from going stale, and its run makes both parsers agree on every line of
# the sample logs and a few thousand mutations of them.
scripts/fuzz.sh -runs=20000
