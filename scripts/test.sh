#!/usr/bin/env bash
# Every test of the project, in one command: the Swift suites (core, ingest, store, report, CLI),
# the Android recorder's JUnit tests and the Python suites that drive real components (Chromium
# through Selenium, Spark, PostgreSQL, the Android recorder's gesture driver), the end-to-end ones
# against the release (deployable) binary built beside the debug build, and a short run of the
# line decoder's fuzzer, built and run beside the debug build too. Ends with each phase's wall
# time.
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
  # A phase failed while the deployable build or the fuzzer ran beside it: they go too.
  if [ -n "${DEPLOYABLE_BUILD:-}" ]; then kill -- -"$DEPLOYABLE_BUILD" 2>/dev/null || true; fi
  if [ -n "${FUZZER:-}" ]; then kill -- -"$FUZZER" 2>/dev/null || true; fi
  for pid in "${NICED_PIDS[@]}"; do kill -- -"$pid" 2>/dev/null || true; done
}
NICED_PIDS=()
trap print_phases EXIT
# Runs a command in a session of its own (so that a failed phase stops it with its children) at
# the lowest priority: niced to 19, and so is its session's scheduling group on a kernel with
# autogroups, where a niced process would otherwise still get its group's share of the CPU. It
# gets what the tests in front of it leave. Run in the background (`niced_session … &`): it
# replaces the subshell, so `$!` is the session.
niced_session() {
  exec setsid bash -c 'echo 19 >/proc/self/autogroup 2>/dev/null || true; exec nice -n 19 "$@"' niced "$@"
}

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
# The deployable binary (static Swift runtime and C libraries, release): the binary a stock Spark
# cluster runs, tested in a root that holds only glibc (spark/tests/test_deployable.py), and the
# `pullparity` every Python suite drives (release code: the Spark and PostgreSQL tests' fixtures
# take a quarter to a half less time than with the debug build, docs/development.md), the Swift
# end-to-end suites' too. Built beside the debug build, which it needs no part of: the two keep
# both cores busy where either alone leaves one idle for stretches (one large module compiling
# alone). No `nice`: its own session (setsid) is a scheduling group of its own on a kernel with
# autogroups, where a niced process still gets its group's share. Its output is printed after the
# debug build's; `.build/deployable.path` gets its last line, the binary's path.
mkdir -p .build
if [ -z "${PULLPARITY_DEPLOYABLE:-}" ]; then
  # A process group of its own (setsid), so that a failed phase stops it (print_phases).
  setsid scripts/build-deployable.sh >.build/deployable.path 2>.build/deployable.log &
  DEPLOYABLE_BUILD=$!
fi
# The official Spark 4.0 image's PySpark and PySpark 3.5, each in a venv of its own, for the
# cluster recipe's test (spark/tests/test_stock_image.py); made once, again when their pins
# change. Mostly downloads: made beside the builds too, their output printed after them.
spark_venv() { # FOLDER REQUIREMENTS
  cmp -s "$2" "$1/requirements.txt" && return
  rm -rf "$1" && python3 -m venv "$1"
  "$1/bin/pip" install -q -r "$2"
  cp "$2" "$1/requirements.txt"
}
{ spark_venv .build/stock-spark spark/requirements-stock-image.txt &&
  spark_venv .build/spark-3.5 spark/requirements-spark-3.5.txt; } >.build/stock-spark.log 2>&1 &
STOCK_SPARK_VENV=$!
# The fuzzer (scripts/fuzz.sh) compiles the decoder's files by name, outside SwiftPM: building it
# here keeps that list from going stale, and its run makes both parsers agree on every line of
# the sample logs and a few thousand mutations of them. It needs no other build: built and run
# beside the debug build (about 40 CPU-s), its output printed after the Swift suites'.
setsid scripts/fuzz.sh -runs=20000 >.build/fuzz.log 2>&1 &
FUZZER=$!
swift build --build-tests
phase_done "swift build --build-tests (debug)"
if [ -n "${DEPLOYABLE_BUILD:-}" ]; then
  DEPLOYABLE_STATUS=0
  wait "$DEPLOYABLE_BUILD" || DEPLOYABLE_STATUS=$?
  DEPLOYABLE_BUILD=
  cat .build/deployable.log >&2
  [ "$DEPLOYABLE_STATUS" -eq 0 ] || exit "$DEPLOYABLE_STATUS"
  PULLPARITY_DEPLOYABLE=$(tail -n 1 .build/deployable.path)
fi
export PULLPARITY_DEPLOYABLE
phase_done "deployable binary (what was left)"

# The end-to-end suites, Swift's and Python's, run the deployable binary (PULLPARITY_BIN
# overrides it): release code, on which the Swift suites take 300 CPU-s against 540 with the
# debug build's (docs/development.md). `pullparity collect` runs the `pullparity-collect` beside
# `pullparity`, else on PATH: the debug one built above (the deployable build has only
# `pullparity`; the collector's tests are HTTP-bound). The deployable binary's own test compares
# its output with the debug build's (PULLPARITY_REGULAR_BIN).
DEBUG_BIN=$(swift build --show-bin-path)
export PULLPARITY_BIN="${PULLPARITY_BIN:-$PULLPARITY_DEPLOYABLE}"
export PULLPARITY_REGULAR_BIN="${PULLPARITY_REGULAR_BIN:-$DEBUG_BIN/pullparity}"
mkdir -p .build/collector-path
ln -sf "$DEBUG_BIN/pullparity-collect" .build/collector-path/pullparity-collect
export PATH="$PWD/.build/collector-path:$PATH"

# The Python suites but the clients', beside the Swift suites and then the clients' Python suites,
# in two pytest processes at the lowest priority, each with a temporary folder of its own: the Spark
# job's equivalence, gzip and PostgreSQL tests in one, and in the other the daily runs, the stock
# Sparks' recipe (which needs the venvs made above), the deployable binary's roots, the dashboards
# and the benchmark. Spark runs over a few thousand lines wait more than they compute (a process of
# Spark tests alone kept 0.6 of a core busy: 272 CPU-s in 490 s), so they fill what the suites in
# front of them leave, and get little when those need both cores. Each process with Spark tests
# starts its own Spark session. Their output is printed at the end.
STOCK_SPARK_STATUS=0
wait "$STOCK_SPARK_VENV" || STOCK_SPARK_STATUS=$?
cat .build/stock-spark.log
[ "$STOCK_SPARK_STATUS" -eq 0 ] || exit "$STOCK_SPARK_STATUS"
phase_done "stock PySpark venvs (what was left)"
export PULLPARITY_STOCK_SPARK="$PWD/.build/stock-spark" PULLPARITY_SPARK_35="$PWD/.build/spark-3.5"
PYTEST_TEMP=${TMPDIR:-/tmp}/pullparity-pytest
rm -rf "$PYTEST_TEMP" && mkdir -p "$PYTEST_TEMP"
NICED_TESTS=(
  "spark --ignore=spark/tests/test_daily_runs.py --ignore=spark/tests/test_stock_image.py --ignore=spark/tests/test_deployable.py"
  "spark/tests/test_daily_runs.py spark/tests/test_stock_image.py spark/tests/test_deployable.py dashboards bench"
)
for index in "${!NICED_TESTS[@]}"; do
  # shellcheck disable=SC2086 # each entry is a list of pytest arguments
  niced_session python3 -m pytest -q --durations=5 --basetemp "$PYTEST_TEMP/niced-$index" ${NICED_TESTS[$index]} \
    >".build/pytest-niced-$index.log" 2>&1 &
  NICED_PIDS+=($!)
done

# The Android recorder (clients/android) on the JVM, side by side with the Swift suites (kotlinc
# and JUnit leave a core free for most of their run): compiled once with Debian's kotlinc, then
# its JUnit tests, ending with "JUnit: N passed, N failed", printed once the Swift suites end.
# The clients' pytest suite below reuses that build.
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
# The fuzzer, started before the debug build: its last lines (the runs done, their rate).
FUZZER_STATUS=0
wait "$FUZZER" || FUZZER_STATUS=$?
FUZZER=
tail -n 6 .build/fuzz.log
[ "$FUZZER_STATUS" -eq 0 ] || { cat .build/fuzz.log; exit "$FUZZER_STATUS"; }
phase_done "fuzzer (what was left)"

# The clients' suites (Chromium, the collector, the Android recorder) at the normal priority: the
# browser tests time touch samples (a gap over 100 ms fails the drag tracking, as it once did at
# 101.6 ms with the Spark JVM beside Chromium at the same priority), so Chromium gets the CPU
# first and the Spark JVMs what it leaves.
PYTEST_STATUS=0
python3 -m pytest -q --durations=5 --basetemp "$PYTEST_TEMP/clients" clients || PYTEST_STATUS=$?
phase_done "pytest: clients"
for index in "${!NICED_TESTS[@]}"; do
  NICED_STATUS=0
  wait "${NICED_PIDS[$index]}" || NICED_STATUS=$?
  echo "pytest, beside the suites above (niced): ${NICED_TESTS[$index]}"
  cat ".build/pytest-niced-$index.log"
  [ "$NICED_STATUS" -eq 0 ] || PYTEST_STATUS=$NICED_STATUS
done
NICED_PIDS=()
[ "$PYTEST_STATUS" -eq 0 ] || exit "$PYTEST_STATUS"
phase_done "pytest: Spark, dashboards, benchmark (what was left)"
