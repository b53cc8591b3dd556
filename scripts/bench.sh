#!/usr/bin/env bash
# PullParity ingest benchmark (issue #5): one command, deterministic input.
#
#   scripts/bench.sh [--events N] [--keep DIR] [--big] [--big-files K]
#                    [--repeat R] [--pp PATH | --no-build]
#
# Generates an N-event log (seed 1), builds the floor (bench/floor.cpp) and a
# release pullparity, then times: the floor, the floor with a PRIMARY KEY on
# event_id (reference only), `pullparity ingest` into a fresh DB, the same
# ingest again (all duplicates), and `pullparity report`. --big also builds a
# K x 1,000,000-event DB in ONE ingest run (seeds 1..K, default K=10) and
# times `report` on it. Prints events/s, peak RSS and the goals of issue #5;
# exits 1 when a measured goal is missed, 2 on an error. See bench/README.md.
set -euo pipefail

usage() {
  sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
  exit "${1:-64}"
}

EVENTS=1000000
KEEP=""
BIG=0
BIG_FILES=10
REPEAT=1
PP=""
BUILD=1
while [ $# -gt 0 ]; do
  case "$1" in
    --events) EVENTS=${2:?}; shift 2 ;;
    --keep) KEEP=${2:?}; shift 2 ;;
    --big) BIG=1; shift ;;
    --big-files) BIG=1; BIG_FILES=${2:?}; shift 2 ;;
    --repeat) REPEAT=${2:?}; shift 2 ;;
    --pp) PP=${2:?}; BUILD=0; shift 2 ;;
    --no-build) BUILD=0; shift ;;
    -h|--help) usage 0 ;;
    *) echo "bench.sh: unknown argument: $1" >&2; usage ;;
  esac
done
case "$EVENTS$BIG_FILES$REPEAT" in *[!0-9]*) echo "bench.sh: --events, --big-files and --repeat take whole numbers" >&2; exit 64 ;; esac
[ "$EVENTS" -ge 10 ] && [ "$REPEAT" -ge 1 ] && [ "$BIG_FILES" -ge 1 ] || { echo "bench.sh: --events >= 10, --repeat >= 1, --big-files >= 1" >&2; exit 64; }

ROOT=$(cd "$(dirname "$0")/.." && pwd)
if [ -n "$KEEP" ]; then
  mkdir -p "$KEEP"
  DIR=$(cd "$KEEP" && pwd)
else
  DIR=$(mktemp -d "${TMPDIR:-/tmp}/pullparity-bench.XXXXXX")
  trap 'rm -rf "$DIR"' EXIT
fi
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "bench.sh: $TIME is missing (apt-get install time)" >&2; exit 2; }

say() { printf '%s\n' "$*" >&2; }
fail() { say "bench.sh: $*"; exit 2; }
thousands() { printf '%s' "$1" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta'; }
lines_of() { if [ -f "$1" ]; then wc -l <"$1" | tr -d ' '; else echo -1; fi; }
rm_db() { rm -f "$1" "$1-wal" "$1-shm" "$1-journal"; }
mib() { awk -v k="$1" 'BEGIN { printf "%.1f MiB", k / 1024 }'; }
size_mb() { awk -v b="$(stat -c %s "$1")" 'BEGIN { printf "%.1f MB", b / 1e6 }'; }

# timed LOG CMD...: run CMD under /usr/bin/time, output to LOG; sets WALL (s) and RSS (KiB).
timed() {
  local log=$1; shift
  sync
  if ! "$TIME" -f '%e %M' -o "$DIR/.time" "$@" >"$log" 2>&1; then
    say "bench.sh: failed: $*"; sed 's/^/  | /' "$log" | tail -n 20 >&2; exit 2
  fi
  read -r WALL RSS < <(tail -n 1 "$DIR/.time")
}
# best R CMD...: fastest of REPEAT runs (peak RSS: the highest seen); PRE is run before each.
best() {
  local log=$1; shift
  local bw="" br=0 i
  for ((i = 1; i <= REPEAT; i++)); do
    if [ -n "${PRE:-}" ]; then eval "$PRE"; fi
    timed "$log.$i" "$@"
    if [ -z "$bw" ] || awk -v a="$WALL" -v b="$bw" 'BEGIN { exit !(a < b) }'; then bw=$WALL; cp "$log.$i" "$log"; fi
    if [ "$RSS" -gt "$br" ]; then br=$RSS; fi
    rm -f "$log.$i"
  done
  WALL=$bw; RSS=$br
}
rate() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%d", (s > 0 ? n / s : 0) }'; }

LOAD_AT_START=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')

# 1. the log ------------------------------------------------------------------
LOG="$DIR/bench.jsonl"
if [ "$(lines_of "$LOG")" != "$EVENTS" ]; then
  say "== generating $EVENTS events (seed 1) -> $LOG"
  python3 "$ROOT/scripts/generate_events.py" bench --events "$EVENTS" --seed 1 --out "$LOG" >&2
  [ "$(lines_of "$LOG")" = "$EVENTS" ] || fail "generator wrote $(lines_of "$LOG") lines, expected $EVENTS"
else
  say "== reusing $LOG ($EVENTS lines)"
fi

# 2. the floor ----------------------------------------------------------------
FLOOR="$DIR/floor"
if [ ! -x "$FLOOR" ] || [ "$ROOT/bench/floor.cpp" -nt "$FLOOR" ]; then
  say "== building the floor"
  g++ -O2 -std=c++17 "$ROOT/bench/floor.cpp" -lsimdjson -lsqlite3 -o "$FLOOR"
fi

# 3. pullparity (release) -----------------------------------------------------
if [ "$BUILD" = 1 ]; then
  say "== building pullparity (release, --scratch-path .build-release)"
  (cd "$ROOT" && swift build -c release --product pullparity --scratch-path .build-release >&2)
  PP="$ROOT/.build-release/release/pullparity"
elif [ -z "$PP" ]; then
  PP="$ROOT/.build-release/release/pullparity"
fi
[ -x "$PP" ] || fail "no pullparity binary at $PP (build it, or pass --pp PATH)"
STATS=()
if "$PP" ingest --help 2>&1 | grep -q -- '--stats'; then
  STATS=(--stats)
else
  STATS_NOTE="note: this pullparity has no 'ingest --stats' yet: per-stage times not shown"
fi

# 4. runs ---------------------------------------------------------------------
FDB="$DIR/floor.sqlite"
PDB="$DIR/pp.sqlite"

say "== floor"
PRE="rm_db '$FDB'" best "$DIR/floor.out" "$FLOOR" "$FDB" "$LOG"
F_WALL=$WALL F_RSS=$RSS F_SELF=$(grep ' events in ' "$DIR/floor.out")
say "== floor --pk"
PRE="rm_db '$FDB'" best "$DIR/floorpk.out" "$FLOOR" --pk "$FDB" "$LOG"
FK_WALL=$WALL FK_RSS=$RSS FK_SELF=$(grep ' events in ' "$DIR/floorpk.out")
rm_db "$FDB"

# Fresh ingest and re-ingest alternate, so each re-ingest sees the DB of one fresh ingest.
say "== pullparity ingest (fresh DB, then again: all duplicates)"
I_WALL="" I_RSS=0 R_WALL="" R_RSS=0
for ((rep = 1; rep <= REPEAT; rep++)); do
  rm_db "$PDB"
  timed "$DIR/ingest.out.$rep" "$PP" ingest --db "$PDB" --quiet "${STATS[@]}" "$LOG"
  if [ -z "$I_WALL" ] || awk -v a="$WALL" -v b="$I_WALL" 'BEGIN { exit !(a < b) }'; then I_WALL=$WALL; cp "$DIR/ingest.out.$rep" "$DIR/ingest.out"; fi
  if [ "$RSS" -gt "$I_RSS" ]; then I_RSS=$RSS; fi
  timed "$DIR/reingest.out.$rep" "$PP" ingest --db "$PDB" --quiet "${STATS[@]}" "$LOG"
  if [ -z "$R_WALL" ] || awk -v a="$WALL" -v b="$R_WALL" 'BEGIN { exit !(a < b) }'; then R_WALL=$WALL; cp "$DIR/reingest.out.$rep" "$DIR/reingest.out"; fi
  if [ "$RSS" -gt "$R_RSS" ]; then R_RSS=$RSS; fi
  rm -f "$DIR/ingest.out.$rep" "$DIR/reingest.out.$rep"
done
STORED=""
if command -v sqlite3 >/dev/null; then STORED=$(sqlite3 "$PDB" 'SELECT count(*) FROM events'); fi

say "== pullparity report ($EVENTS events)"
PRE="" best "$DIR/report.out" sh -c '"$1" report --db "$2" >/dev/null' report "$PP" "$PDB"
P_WALL=$WALL P_RSS=$RSS
PDB_SIZE=$(size_mb "$PDB")

if [ "$BIG" = 1 ]; then
  BDB="$DIR/big.sqlite"
  BIG_EVENTS=$((BIG_FILES * 1000000))
  HAVE=-1
  if [ -f "$BDB" ] && command -v sqlite3 >/dev/null; then HAVE=$(sqlite3 "$BDB" 'SELECT count(*) FROM events' 2>/dev/null || echo -1); fi
  if [ "$HAVE" = "$BIG_EVENTS" ]; then
    say "== reusing $BDB ($BIG_EVENTS events)"
    B_WALL="" B_RSS=""
  else
    BIGLOGS=()
    for ((s = 1; s <= BIG_FILES; s++)); do
      f="$DIR/big-$s.jsonl"
      if [ "$s" = 1 ] && [ "$EVENTS" = 1000000 ]; then f=$LOG; fi
      if [ "$(lines_of "$f")" != 1000000 ]; then
        say "== generating 1,000,000 events (seed $s) -> $f"
        python3 "$ROOT/scripts/generate_events.py" bench --events 1000000 --seed "$s" --out "$f" >&2
      fi
      BIGLOGS+=("$f")
    done
    say "== pullparity ingest of $BIG_EVENTS events in one run -> $BDB"
    rm_db "$BDB"
    timed "$DIR/bigingest.out" "$PP" ingest --db "$BDB" --quiet "${STATS[@]}" "${BIGLOGS[@]}"
    B_WALL=$WALL B_RSS=$RSS
    if [ -z "$KEEP" ]; then for f in "${BIGLOGS[@]}"; do if [ "$f" != "$LOG" ]; then rm -f "$f"; fi; done; fi
  fi
  say "== pullparity report ($BIG_EVENTS events)"
  PRE="" best "$DIR/bigreport.out" sh -c '"$1" report --db "$2" >/dev/null' report "$PP" "$BDB"
  BP_WALL=$WALL BP_RSS=$RSS
fi

# 5. summary ------------------------------------------------------------------
F_RATE=$(rate "$EVENTS" "$F_WALL")
FK_RATE=$(rate "$EVENTS" "$FK_WALL")
I_RATE=$(rate "$EVENTS" "$I_WALL")
R_RATE=$(rate "$EVENTS" "$R_WALL")
RATIO=$(awk -v a="$I_RATE" -v b="$F_RATE" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
SPEEDUP=$(awk -v a="$I_WALL" -v b="$R_WALL" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
verdict() { if awk "BEGIN { exit !($1) }"; then echo "ok"; else echo "MISSED"; fi; }
row() { printf '  %-44s %8s s  %12s  %12s\n' "$1" "$2" "$3" "$4"; }

echo
echo "PullParity benchmark: $(thousands "$EVENTS") events, $(size_mb "$LOG") of JSON lines"
echo "  $(nproc) CPUs ($(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1)), SQLite $(sqlite3 --version 2>/dev/null | cut -d' ' -f1), $(cd "$ROOT" && git rev-parse --short HEAD 2>/dev/null || echo '?')$(cd "$ROOT" && git diff --quiet HEAD -- 2>/dev/null || echo '+dirty'), best of $REPEAT, in $DIR"
echo "  load average at start: $LOAD_AT_START (other busy processes slow pullparity's reader and writer threads more than the single-threaded floor: run on a quiet machine, --repeat 3)"
echo
printf '  %-44s %10s  %12s  %12s\n' "" "wall" "events/s" "peak RSS"
row "floor (no index)" "$F_WALL" "$(thousands "$F_RATE")" "$(mib "$F_RSS")"
row "floor --pk (dedup floor, reference)" "$FK_WALL" "$(thousands "$FK_RATE")" "$(mib "$FK_RSS")"
row "pullparity ingest (fresh DB)" "$I_WALL" "$(thousands "$I_RATE")" "$(mib "$I_RSS")"
row "pullparity ingest (again: duplicates)" "$R_WALL" "$(thousands "$R_RATE")" "$(mib "$R_RSS")"
row "pullparity report ($(thousands "$EVENTS") events)" "$P_WALL" "" "$(mib "$P_RSS")"
if [ "$BIG" = 1 ]; then
  if [ -n "$B_WALL" ]; then row "pullparity ingest ($(thousands "$BIG_EVENTS") events, 1 run)" "$B_WALL" "$(thousands "$(rate "$BIG_EVENTS" "$B_WALL")")" "$(mib "$B_RSS")"; fi
  row "pullparity report ($(thousands "$BIG_EVENTS") events)" "$BP_WALL" "" "$(mib "$BP_RSS")"
fi
echo "  (events/s = lines / wall time of the whole process; DB after the fresh ingest: $PDB_SIZE)"
echo "  $F_SELF"
echo "  ${FK_SELF/floor:/floor --pk:}"
if [ -n "$STORED" ] && [ "$STORED" != "$EVENTS" ]; then echo "  WARNING: pullparity stored $(thousands "$STORED") events, expected $(thousands "$EVENTS")"; fi

echo
echo "goals (issue #5)"
printf '  %-44s %-26s %s\n' "ingest events/s / floor events/s" "$RATIO (goal >= 0.6)" "$(verdict "$RATIO >= 0.6")"
printf '  %-44s %-26s %s\n' "re-ingest speed-up (fresh wall / again wall)" "${SPEEDUP}x (goal >= 2x)" "$(verdict "$SPEEDUP >= 2")"
if [ "$BIG" = 1 ]; then
  printf '  %-44s %-26s %s\n' "report on $(thousands "$BIG_EVENTS") events" "$BP_WALL s (goal < 1 s)" "$(verdict "$BP_WALL < 1")"
  if [ -n "$B_WALL" ]; then
    GROWTH=$(awk -v a="$B_RSS" -v b="$I_RSS" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
    printf '  %-44s %-26s %s\n' "peak RSS, $(thousands "$BIG_EVENTS") vs $(thousands "$EVENTS") events" "${GROWTH}x (goal <= 1.25x)" "$(verdict "$GROWTH <= 1.25")"
  else
    printf '  %-44s %s\n' "peak RSS vs input size" "not measured (big DB reused; delete $DIR/big.sqlite)"
  fi
else
  printf '  %-44s %s\n' "report on 10,000,000 events (< 1 s)" "not measured: run with --big"
  printf '  %-44s %s\n' "peak RSS bounded by batch, not input" "not measured: run with --big"
fi
# exit status: 1 when a measured goal is missed
MISSED=0
awk "BEGIN { exit !($RATIO >= 0.6 && $SPEEDUP >= 2) }" || MISSED=1
if [ "$BIG" = 1 ]; then
  awk "BEGIN { exit !($BP_WALL < 1) }" || MISSED=1
  if [ -n "$B_WALL" ]; then awk "BEGIN { exit !($GROWTH <= 1.25) }" || MISSED=1; fi
fi

echo
echo "pullparity ingest (fresh DB) said:"
sed 's/^/  | /' "$DIR/ingest.out"
echo "pullparity ingest (again) said:"
sed 's/^/  | /' "$DIR/reingest.out"
if [ "$BIG" = 1 ] && [ -n "${B_WALL:-}" ]; then
  echo "pullparity ingest ($(thousands "$BIG_EVENTS") events) said:"
  sed 's/^/  | /' "$DIR/bigingest.out"
fi
if [ -n "${STATS_NOTE:-}" ]; then echo "$STATS_NOTE"; fi
exit "$MISSED"
