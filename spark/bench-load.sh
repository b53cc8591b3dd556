#!/bin/sh
# `pullparity load` of a Spark run against `pullparity ingest` of the same log, alternated
# (ingest, load, ingest, load, …) so that a shared machine's load falls on both alike: wall and
# CPU seconds (the process's rusage), events per second, and the load average around each pair.
# DIR holds the log (bench.jsonl) and the job's output over it with --json-for-load (run/), as
# spark/bench.sh leaves them (or spark/bench_run_without_spark.py makes run/ without Spark); BINS are the binaries to compare (default: this checkout's
# release build; give an older build first to see what changed).
#   spark/bench-load.sh DIR [ROUNDS] [BIN…]
set -eu
DIR=$1
ROUNDS=${2:-3}
shift $(($# < 2 ? $# : 2))
ROOT=$(cd "$(dirname "$0")/.." && pwd)
[ $# -gt 0 ] || set -- "${PULLPARITY_BIN:-$ROOT/.build/release/pullparity}"
[ -f "$DIR/bench.jsonl" ] && [ -f "$DIR/run/summary.json" ] && [ -d "$DIR/run/json/events" ] || {
  echo "bench-load.sh: $DIR needs bench.jsonl and run/ (the job's output with --json-for-load)" >&2
  exit 2
}
cd "$DIR"
events=$(python3 -c 'import json; print(json.load(open("run/summary.json"))["events_stored"])')
echo "events: $events   (wall s, CPU s = user + sys, events/s of wall; load average 1 min before each)"
round=1
while [ "$round" -le "$ROUNDS" ]; do
  for bin in "$@"; do
    for verb in ingest load; do
      rm -f bench-load.sqlite bench-load.sqlite-wal bench-load.sqlite-shm
      load=$(cut -d' ' -f1 /proc/loadavg)
      if [ "$verb" = ingest ]; then
        /usr/bin/time -f "%e %U %S" -o time.txt "$bin" ingest --quiet --db bench-load.sqlite bench.jsonl >/dev/null
      else
        /usr/bin/time -f "%e %U %S" -o time.txt "$bin" load run --db bench-load.sqlite >/dev/null
      fi
      awk -v verb="$verb" -v bin="$bin" -v n="$events" -v load="$load" -v round="$round" \
        '{ printf "round %d  %-6s %6.1f s wall %6.1f CPU-s %9.0f events/s  (load %s)  %s\n", round, verb, $1, $2 + $3, n / $1, load, bin }' \
        time.txt
    done
  done
  round=$((round + 1))
done
rm -f bench-load.sqlite bench-load.sqlite-wal bench-load.sqlite-shm time.txt
