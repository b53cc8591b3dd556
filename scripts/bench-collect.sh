#!/usr/bin/env bash
# Load on `pullparity collect` from loopback (issue #26), and a kill -9 in the middle of a load.
#
#   scripts/bench-collect.sh [--seconds S] [--connections C] [--pp PATH | --no-build]
#
# Builds release pullparity and pullparity-collect, starts the collector on a free port, runs
# Debian's wrk for S seconds (default 20) on C connections (default 32), each request a 20-line
# body of valid events (bench/collect_post.lua), and prints requests/s and latency p50/p90/p99.
# Then it stops the collector (SIGTERM) and checks that the spool holds exactly 20 lines for
# every body the collector stored: the bodies wrk saw acknowledged, plus those still in flight
# when wrk stopped (written and synced, their answer unread), which /health's body count
# includes. Also prints what one fdatasync costs on this disk and how many bodies each sync
# acknowledged.
# Then the same load with the scheduled ingest (--db, --ingest-every 2): its p99 against the first.
# The crash run: the same load, the collector killed with SIGKILL after S/2 seconds, restarted
# on the same spool and stopped; every line of every acknowledged body must be there.
# Not part of the test suite. Needs wrk (apt-get install wrk). Exits 1 when a check fails.
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_RUN=20
CONNECTIONS=32
PP=""
BUILD=1
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) SECONDS_RUN=${2:?}; shift 2 ;;
    --connections) CONNECTIONS=${2:?}; shift 2 ;;
    --pp) PP=${2:?}; BUILD=0; shift 2 ;;
    --no-build) BUILD=0; shift ;;
    *) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 64 ;;
  esac
done
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 2; }
# `pullparity collect` runs the `pullparity-collect` beside it: both are built.
if [ "$BUILD" = 1 ]; then
  swift build -c release --product pullparity >/dev/null
  swift build -c release --product pullparity-collect >/dev/null
fi
PP=${PP:-$(swift build -c release --show-bin-path)/pullparity}

WORK=$(mktemp -d)
COLLECTOR_PID=""
cleanup() {
  if [ -n "$COLLECTOR_PID" ]; then kill "$COLLECTOR_PID" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT
export BODY_FILE=$WORK/body.jsonl
head -n 20 sample-events/padel-ios-1.jsonl >"$BODY_FILE"

# Starts the collector on $1 (a spool directory), with the options that follow; sets
# COLLECTOR_PID and PORT.
start_collector() {
  local spool=$1
  shift
  "$PP" collect --listen 127.0.0.1:0 --spool "$spool" "$@" >"$WORK/collector.out" 2>"$WORK/collector.err" &
  COLLECTOR_PID=$!
  for _ in $(seq 100); do
    PORT=$(sed -n 's|.*http://127.0.0.1:\([0-9]*\)/events.*|\1|p' "$WORK/collector.out")
    [ -n "$PORT" ] && return
    sleep 0.1
  done
  echo "the collector did not start" >&2; cat "$WORK/collector.err" >&2; exit 2
}

stop_collector() {
  kill -TERM "$COLLECTOR_PID"
  wait "$COLLECTOR_PID"
  COLLECTOR_PID=""
}

# Lines in the closed spool files of $1 (ingest's view: the open file is hidden).
spool_lines() {
  find "$1" -maxdepth 1 -name '*.jsonl' ! -name '.*' -exec cat {} + | wc -l
}

value() { sed -n "s/^$1 //p" "$2"; }

echo "fdatasync on this disk (1 KiB appends, 200 syncs):"
python3 - "$WORK" <<'PY'
import os, sys, time
path = os.path.join(sys.argv[1], "sync-probe")
fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
times = []
for _ in range(200):
    os.write(fd, b"x" * 1023 + b"\n")
    started = time.perf_counter()
    os.fdatasync(fd)
    times.append(time.perf_counter() - started)
os.close(fd)
times.sort()
print(f"  median {times[100] * 1000:.3f} ms, p99 {times[198] * 1000:.3f} ms")
PY

echo "Load: wrk, $CONNECTIONS connections, 2 threads, ${SECONDS_RUN} s, 20-line bodies of $(wc -c <"$BODY_FILE") bytes"
start_collector "$WORK/spool"
URL="http://127.0.0.1:$PORT/events"
wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_RUN}s" -s bench/collect_post.lua "$URL" >"$WORK/wrk.out"
HEALTH=$(python3 -c "import json,urllib.request; h=json.load(urllib.request.urlopen('http://127.0.0.1:$PORT/health')); print(h['bodies'], h['syncs'])")
stop_collector
read -r STORED SYNCS <<<"$HEALTH"
ACKED=$(value acknowledged "$WORK/wrk.out")
LINES=$(spool_lines "$WORK/spool")
echo "  requests/s $(value requests_per_second "$WORK/wrk.out")"
echo "  latency p50 $(value latency_p50_ms "$WORK/wrk.out") ms, p90 $(value latency_p90_ms "$WORK/wrk.out") ms, p99 $(value latency_p99_ms "$WORK/wrk.out") ms"
echo "  acknowledged to wrk: $ACKED bodies; stored: $STORED bodies in $SYNCS fdatasyncs ($(python3 -c "print(f'{$STORED / max($SYNCS, 1):.1f}')") bodies per sync)"
echo "  in flight when wrk stopped (stored, answer unread): $((STORED - ACKED))"
echo "  spool: $LINES lines; 20 x stored = $((20 * STORED))"
FAILED=0
if [ "$LINES" != "$((20 * STORED))" ] || [ "$STORED" -lt "$ACKED" ] || [ "$((STORED - ACKED))" -gt "$CONNECTIONS" ]; then
  echo "FAIL: the spool does not hold exactly the stored bodies' lines" >&2
  FAILED=1
fi

# The same load with the collector's scheduled ingest (issue #42): a round every 2 s into a
# database, on a thread of its own, beside the server. What it costs the requests is the p99
# against the run above.
echo "Load with scheduled ingest: the same load, --db --ingest-every 2"
start_collector "$WORK/ingest-spool" --db "$WORK/ingest.sqlite" --ingest-every 2
URL="http://127.0.0.1:$PORT/events"
wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_RUN}s" -s bench/collect_post.lua "$URL" >"$WORK/ingest.out"
stop_collector
ROUNDS=$(cat "$WORK/collector.out" "$WORK/collector.err" | grep -c "ingested .* spool files" || true)
echo "  requests/s $(value requests_per_second "$WORK/ingest.out")"
echo "  latency p50 $(value latency_p50_ms "$WORK/ingest.out") ms, p90 $(value latency_p90_ms "$WORK/ingest.out") ms, p99 $(value latency_p99_ms "$WORK/ingest.out") ms"
echo "  ingest rounds that stored something: $ROUNDS"
if [ "$ROUNDS" -lt 2 ]; then
  echo "FAIL: the scheduled ingest did not run during the load" >&2
  FAILED=1
fi

echo "Crash: the same load, kill -9 after $((SECONDS_RUN / 2)) s, restart on the spool, stop"
start_collector "$WORK/crash-spool"
URL="http://127.0.0.1:$PORT/events"
wrk -t2 -c"$CONNECTIONS" -d"${SECONDS_RUN}s" -s bench/collect_post.lua "$URL" >"$WORK/crash.out" 2>&1 &
WRK_PID=$!
sleep $((SECONDS_RUN / 2))
kill -KILL "$COLLECTOR_PID"
wait "$COLLECTOR_PID" 2>/dev/null || true
COLLECTOR_PID=""
wait "$WRK_PID" || true
start_collector "$WORK/crash-spool"
stop_collector
ACKED=$(value acknowledged "$WORK/crash.out")
LINES=$(spool_lines "$WORK/crash-spool")
# Recovery cuts a torn body back to its last complete line, so a body may be kept in part; but
# every line kept must be one of the body's lines, whole.
FOREIGN=$(find "$WORK/crash-spool" -maxdepth 1 -name '*.jsonl' ! -name '.*' -exec cat {} + | grep -cvxF -f "$BODY_FILE" || true)
echo "  acknowledged before the kill: $ACKED bodies ($((20 * ACKED)) lines); found after the restart: $LINES lines"
grep -h "left open" "$WORK/collector.err" | sed 's/^/  /' || true
if [ "$LINES" -lt "$((20 * ACKED))" ] || [ "$FOREIGN" != 0 ]; then
  echo "FAIL: acknowledged lines are missing, or a body is torn" >&2
  FAILED=1
fi
exit "$FAILED"
