#!/bin/sh
# Single-machine `pullparity ingest` vs the Spark job on local[2], on the same deterministic
# 1,000,000-event log (scripts/generate_events.py bench, seed 1). Prints both wall times and the
# Spark job's phases (summary.json "timings"). Needs a release build:
#   swift build -c release --product pullparity && spark/bench.sh [EVENTS] [DIR]
set -eu
EVENTS=${1:-1000000}
DIR=${2:-$(mktemp -d "${TMPDIR:-/tmp}/pullparity-spark-bench.XXXXXX")}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${PULLPARITY_BIN:-$ROOT/.build/release/pullparity}
[ -x "$BIN" ] || { echo "bench.sh: build the release binary first (swift build -c release)" >&2; exit 2; }
cd "$DIR"
[ -f bench.jsonl ] || python3 "$ROOT/scripts/generate_events.py" bench --events "$EVENTS" --out bench.jsonl >/dev/null
rm -rf ingest.sqlite* run spark.sqlite*
start=$(date +%s.%N)
"$BIN" ingest --quiet --db ingest.sqlite bench.jsonl >/dev/null
ingest=$(echo "$(date +%s.%N) - $start" | bc)
start=$(date +%s.%N)
SPARK_LOCAL_IP=127.0.0.1 python3 "$ROOT/spark/pullparity_spark.py" --master 'local[2]' --driver-memory 6g --binary "$BIN" \
  --out run bench.jsonl >spark.log 2>spark.err
spark=$(echo "$(date +%s.%N) - $start" | bc)
start=$(date +%s.%N)
"$BIN" load run --db spark.sqlite >/dev/null
load=$(echo "$(date +%s.%N) - $start" | bc)
echo "events: $EVENTS ($DIR/bench.jsonl)"
echo "pullparity ingest:            ${ingest} s"
echo "spark local[2] (incl. start): ${spark} s"
echo "pullparity load of its output: ${load} s"
python3 -c 'import json,sys; print("spark phases (s):", json.load(open("run/summary.json"))["timings"])'
