#!/bin/sh
# Single-machine `pullparity ingest` against the Spark job on local[2], on the same deterministic
# 1,000,000-event log (scripts/generate_events.py bench, seed 1), in one run: both walls and CPU
# times, their ratios against issue 29's goals (job wall <= 8x ingest's, <= 45 CPU-s per 1M
# events), the job's phases from Spark's own metrics (summary.json "timings"), and the pipe
# verbs alone on the log's first 200,000 lines, Spark's own floor for the same log (bench_floor.py:
# read, one shuffle by session, Parquet), and `pullparity load` of the job's output into a
# new SQLite file against ingest's rate (spark/bench-load.sh repeats that pair alone). CPU is the whole process tree's (JVM, Python
# workers, the binary), from a cpuacct cgroup when this runs as root on cgroup v1, else from the
# children's rusage. Needs a release build:
#   swift build -c release --product pullparity && spark/bench.sh [EVENTS] [DIR]
set -eu
EVENTS=${1:-1000000}
DIR=${2:-$(mktemp -d "${TMPDIR:-/tmp}/pullparity-spark-bench.XXXXXX")}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=${PULLPARITY_BIN:-$ROOT/.build/release/pullparity}
[ -x "$BIN" ] || { echo "bench.sh: build the release binary first (swift build -c release)" >&2; exit 2; }
cd "$DIR"
[ -f bench.jsonl ] || python3 "$ROOT/scripts/generate_events.py" bench --events "$EVENTS" --out bench.jsonl >/dev/null
rm -rf ingest.sqlite* load.sqlite* run floor

# measure NAME CMD...: runs CMD, leaves "wall cpu" (seconds) in NAME.time.
CGROUPS=/sys/fs/cgroup/cpuacct
measure() {
  name=$1
  shift
  start=$(date +%s.%N)
  if [ -w "$CGROUPS" ] && mkdir "$CGROUPS/ppbench.$$.$name" 2>/dev/null; then
    group="$CGROUPS/ppbench.$$.$name"
    sh -c 'echo $$ > "$1/cgroup.procs"; shift; exec "$@"' sh "$group" "$@"
    # Spark's Python daemon outlives the job by a moment: its CPU counts, so wait for it.
    tries=0
    while [ -s "$group/cgroup.procs" ] && [ $tries -lt 100 ]; do sleep 0.2; tries=$((tries + 1)); done
    cpu=$(echo "scale=2; $(cat "$group/cpuacct.usage") / 1000000000" | bc)
    rmdir "$group" 2>/dev/null || echo "bench.sh: $group still holds processes; left in place" >&2
  else
    /usr/bin/time -f "%U %S" -o "$name.rusage" "$@"
    cpu=$(awk '{ print $1 + $2 }' "$name.rusage")
  fi
  echo "$(echo "$(date +%s.%N) - $start" | bc) $cpu" >"$name.time"
}

load_before=$(cut -d' ' -f1 /proc/loadavg)
measure ingest "$BIN" ingest --quiet --db ingest.sqlite bench.jsonl >/dev/null
measure spark env SPARK_LOCAL_IP=127.0.0.1 python3 "$ROOT/spark/pullparity_spark.py" --master 'local[2]' \
  --driver-memory 6g --binary "$BIN" --json-for-load --out run bench.jsonl >spark.log 2>spark.err
measure load "$BIN" load run --db load.sqlite >/dev/null
# Spark's own floor on the same master and log: read, one shuffle by session, Parquet (bench_floor.py).
measure floor env SPARK_LOCAL_IP=127.0.0.1 python3 "$ROOT/spark/bench_floor.py" bench.jsonl floor >floor.log 2>&1
load_after=$(cut -d' ' -f1 /proc/loadavg)

# The verbs alone: decode of the first 200,000 lines, derive of the same lines grouped by session.
head -n 200000 bench.jsonl | awk '{ printf "bench.jsonl\t%d\t%d\t%s\n", offset, NR, $0; offset += length($0) + 1 }' \
  >verbs.tsv
measure decode "$BIN" decode <verbs.tsv >verbs.decoded
cut -f2,3,4,6,15 verbs.decoded | sort -t "$(printf '\t')" -s -k4,4 | cut -f1,2,3,5 >verbs.grouped
measure derive "$BIN" derive <verbs.grouped >/dev/null

python3 - "$EVENTS" "$load_before" "$load_after" <<'EOF'
import json, sys
events, load_before, load_after = int(sys.argv[1]), sys.argv[2], sys.argv[3]
def figures(name):
    wall, cpu = open(f"{name}.time").read().split()
    return float(wall), float(cpu)
ingest_wall, ingest_cpu = figures("ingest")
spark_wall, spark_cpu = figures("spark")
per_million = spark_cpu * 1e6 / events
print(f"events: {events}   load average: {load_before} before, {load_after} after")
print(f"pullparity ingest:               {ingest_wall:7.1f} s wall {ingest_cpu:7.1f} CPU-s"
      f" {events / ingest_wall:9.0f} events/s")
print(f"spark local[2] (JVM start incl.): {spark_wall:7.1f} s wall {spark_cpu:7.1f} CPU-s")
print(f"job wall / ingest wall: {spark_wall / ingest_wall:5.1f}x   (goal <= 8x)")
print(f"job CPU per 1M events:  {per_million:5.1f} CPU-s (goal <= 45)")
floor_wall, floor_cpu = figures("floor")
print(f"spark's floor (read, one shuffle by session, Parquet; no verbs): {floor_wall:.1f} s wall"
      f" ({floor_wall / ingest_wall:.1f}x ingest's), {floor_cpu * 1e6 / events:.1f} CPU-s per 1M events")
verbs = sum(figures(name)[1] for name in ("decode", "derive")) * 1e6 / 200000
print(f"verbs alone (decode + derive, first 200,000 lines): {verbs:.1f} CPU-s per 1M events")
print("phases (Spark status store: wall_s on the driver, task_s and jvm_cpu_s of the stages, MB):")
timings = json.load(open("run/summary.json"))["timings"]
columns = ["wall_s", "task_s", "jvm_cpu_s", "input_mb", "shuffle_write_mb", "shuffle_read_mb", "output_mb"]
print(f"  {'phase':24}" + "".join(f"{c:>17}" for c in columns))
order = ["decode", "dedup", "derive", "judge_across_sessions", "write"]
for phase, values in sorted(timings.items(), key=lambda item: order.index(item[0]) if item[0] in order else 99):
    print(f"  {phase:24}" + "".join(f"{values[c]:>17}" for c in columns))
load_wall, load_cpu = figures("load")
print(f"pullparity load of the run:      {load_wall:7.1f} s wall {load_cpu:7.1f} CPU-s"
      f" {events / load_wall:9.0f} events/s ({ingest_wall / load_wall:.2f}x ingest's rate)")
EOF
