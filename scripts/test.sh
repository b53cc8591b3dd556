#!/usr/bin/env bash
# Every test of the project, in one command: the Swift suites (core, ingest, store, report, CLI),
# the Android recorder's JUnit tests, then the Python suites that drive real components (Chromium
# through Selenium, Spark, PostgreSQL, the Android recorder's gesture driver) against the binaries
# the Swift build just made, then a short run of the line decoder's fuzzer. Ends with each phase's
# wall time.
set -euo pipefail
cd "$(dirname "$0")/.."

# Each phase's wall time, printed last (also when a phase fails).
PHASES=()
START=$SECONDS
phase_start=$SECONDS
phase_done() {
  PHASES+=("$(printf '  %-44s %5d s' "$1" $((SECONDS - phase_start)))")
  phase_start=$SECONDS
}
print_phases() {
  echo "scripts/test.sh phases (wall time):"
  printf '%s\n' "${PHASES[@]}"
  printf '  %-44s %5d s\n' "total" $((SECONDS - START))
}
trap print_phases EXIT

# Formatting drift fails fast, before the long build (rules in .swift-format).
swift format lint --strict --recursive Sources Tests Package.swift
phase_done "swift format lint"
# Package.resolved is committed: every build uses exactly its versions, and a Package.swift whose
# dependencies changed without it fails here ("an out-of-date resolved file was detected").
swift package resolve --only-use-versions-from-resolved-file
if git rev-parse --is-inside-work-tree >/dev/null 2>&1 && ! git diff --quiet -- Package.resolved; then
  echo "scripts/test.sh: Package.resolved differs from the committed one: commit it with Package.swift" >&2
  exit 1
fi
phase_done "Package.resolved in step"
swift build --build-tests
phase_done "swift build --build-tests (debug)"

# The Android recorder (clients/android) on the JVM, side by side with the Swift suites (kotlinc
# and JUnit leave a core free for most of their run): compiled once with Debian's kotlinc, then
# its JUnit tests, ending with "JUnit: N passed, N failed", printed once the Swift suites end.
# The pytest suite below reuses that build.
mkdir -p .build
clients/android/build.sh test >.build/junit.log 2>&1 &
JUNIT=$!
# The tests were built just above: not planned and checked again.
swift test --skip-build "$@"
phase_done "swift test"
JUNIT_STATUS=0
wait "$JUNIT" || JUNIT_STATUS=$?
cat .build/junit.log
[ "$JUNIT_STATUS" -eq 0 ] || exit "$JUNIT_STATUS"
phase_done "JUnit (what was left after swift test)"

# The Python suites run the debug binaries built above (`pullparity collect` runs the
# `pullparity-collect` beside `pullparity`); PULLPARITY_BIN overrides it.
export PULLPARITY_BIN="${PULLPARITY_BIN:-$(swift build --show-bin-path)/pullparity}"
# The binary a stock Spark cluster runs (static Swift runtime and C libraries): its verbs are
# tested in a root that holds only glibc (spark/tests/test_deployable.py).
# (Assigned before it is exported, so that a failed build stops the script.)
PULLPARITY_DEPLOYABLE="${PULLPARITY_DEPLOYABLE:-$(scripts/build-deployable.sh | tail -n 1)}"
export PULLPARITY_DEPLOYABLE
phase_done "deployable binary (scripts/build-deployable.sh)"
# The official Spark image's PySpark, in a venv of its own, for the cluster recipe's test
# (spark/tests/test_stock_image.py); made once, again when its pins change.
STOCK_SPARK=.build/stock-spark
if ! cmp -s spark/requirements-stock-image.txt "$STOCK_SPARK/requirements.txt"; then
  rm -rf "$STOCK_SPARK" && python3 -m venv "$STOCK_SPARK"
  "$STOCK_SPARK/bin/pip" install -q -r spark/requirements-stock-image.txt
  cp spark/requirements-stock-image.txt "$STOCK_SPARK/requirements.txt"
fi
export PULLPARITY_STOCK_SPARK="$PWD/$STOCK_SPARK"
phase_done "stock PySpark venv"
python3 -m pytest -q
phase_done "pytest"

# The fuzzer (scripts/fuzz.sh) compiles the decoder's files by name, outside SwiftPM: building it
# here keeps that list from going stale, and its run makes both parsers agree on every line of
# the sample logs and a few thousand mutations of them.
scripts/fuzz.sh -runs=20000
phase_done "fuzzer (build and 20000 runs)"
