#!/usr/bin/env bash
# PullParity benchmark (issues #5, #13 and #27): one command, deterministic input, ratios printed.
#
#   scripts/bench.sh [--events N] [--keep DIR] [--big] [--big-files K] [--ids v7|v4]
#                    [--history D] [--overlap D] [--repeat R] [--pp PATH | --no-build]
#
# Generates an N-event log (seed 1), builds the floor (bench/floor.cpp) and a release
# pullparity, then times: the floors (a row per line; zstd blocks), `pullparity ingest` into
# a fresh DB, the same ingest again (all duplicates), the DuckDB peer doing the same job into a
# DuckDB file (bench/duckdb_peer.py, 2 threads; pip install -r bench/requirements.txt) with its
# wall, CPU and bytes against ingest's, and `report` and `qa`. --big adds the cost of history: K days of
# 1,000,000 events (default K=10) in ONE ingest run, `report` and `qa` on them, and day K+1
# into that database against the same day into an empty one. --ids v4 gives random event ids
# instead of the recorders' UUIDv7. --history D ingests D consecutive days of 1,000,000 events,
# one run per day as a daily job would, into one growing database (each day generated just
# before its run, so only one day's log is on disk), times `report` and `qa` on all of them,
# then day D+1 into an empty database and into the history, back to back. --overlap D
# ingests D logs of 1,000,000 events dated the same day as the benchmark's log (other seeds),
# one run each, into one database, then the benchmark's log into an empty database and into
# those D runs, back to back, R times (best of each; issue 41: a day into a history whose days
# overlap it).
# Exits 1 when a measured goal is missed (or DuckDB, needed for the #27 goals, is missing),
# 2 on an error, 0 when every goal printed is met.
# See bench/README.md.
set -euo pipefail

usage() {
  sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'
  exit "${1:-64}"
}

EVENTS=1000000
KEEP=""
BIG=0
BIG_FILES=10
HISTORY=0
OVERLAP=0
IDS=v7
REPEAT=1
PP=""
BUILD=1
while [ $# -gt 0 ]; do
  case "$1" in
    --events) EVENTS=${2:?}; shift 2 ;;
    --keep) KEEP=${2:?}; shift 2 ;;
    --big) BIG=1; shift ;;
    --big-files) BIG=1; BIG_FILES=${2:?}; shift 2 ;;
    --ids) IDS=${2:?}; shift 2 ;;
    --history) HISTORY=${2:?}; shift 2 ;;
    --overlap) OVERLAP=${2:?}; shift 2 ;;
    --repeat) REPEAT=${2:?}; shift 2 ;;
    --pp) PP=${2:?}; BUILD=0; shift 2 ;;
    --no-build) BUILD=0; shift ;;
    -h|--help) usage 0 ;;
    *) echo "bench.sh: unknown argument: $1" >&2; usage ;;
  esac
done
case "$EVENTS$BIG_FILES$REPEAT$HISTORY$OVERLAP" in *[!0-9]*) echo "bench.sh: --events, --big-files, --history, --overlap and --repeat take whole numbers" >&2; exit 64 ;; esac
case "$IDS" in v7|v4) ;; *) echo "bench.sh: --ids is v7 or v4" >&2; exit 64 ;; esac
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
size_mb() { awk -v b="$(stat -L -c %s "$1")" 'BEGIN { printf "%.1f MB", b / 1e6 }'; }
# db_bytes DB: bytes of a database file with its write-ahead log (SQLite's -wal, DuckDB's .wal).
db_bytes() { local f t=0; for f in "$1" "$1-wal" "$1.wal"; do if [ -f "$f" ]; then t=$((t + $(stat -L -c %s "$f"))); fi; done; echo "$t"; }

# timed LOG CMD...: run CMD under /usr/bin/time, output to LOG; sets WALL (s), RSS (KiB) and
# CPU (s: user + system of CMD and every child it waited for).
timed() {
  local log=$1; shift
  local user sys
  sync
  if ! "$TIME" -f '%e %M %U %S' -o "$DIR/.time" "$@" >"$log" 2>&1; then
    say "bench.sh: failed: $*"; sed 's/^/  | /' "$log" | tail -n 20 >&2; exit 2
  fi
  read -r WALL RSS user sys < <(tail -n 1 "$DIR/.time")
  CPU=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
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
# gen OUT N SEED DAY: a deterministic log, generated once (reused when its line count fits).
gen() {
  if [ "$(lines_of "$1")" != "$2" ]; then
    say "== generating $(thousands "$2") events (seed $3, day $4, $IDS ids) -> $1"
    python3 "$ROOT/scripts/generate_events.py" bench --events "$2" --seed "$3" --day "$4" --ids "$IDS" --out "$1" >&2
    [ "$(lines_of "$1")" = "$2" ] || fail "generator wrote $(lines_of "$1") lines to $1, expected $2"
  else
    say "== reusing $1 ($(thousands "$2") lines)"
  fi
}
LOG="$DIR/bench-$IDS.jsonl"
gen "$LOG" "$EVENTS" 1 0

# 2. the floor ----------------------------------------------------------------
FLOOR="$DIR/floor"
if [ ! -x "$FLOOR" ] || [ "$ROOT/bench/floor.cpp" -nt "$FLOOR" ]; then
  say "== building the floor"
  [ -f /usr/include/zstd.h ] || fail "the floor needs zstd's header: apt-get install libzstd-dev"
  g++ -O2 -std=c++17 "$ROOT/bench/floor.cpp" -lsimdjson -lsqlite3 -lzstd -pthread -o "$FLOOR"
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
# The lean floors: the raw lines as zstd blocks instead of rows, compressed and written on the
# second core, with the events' keys as a row each, then as a sorted array per block. What a
# store that is not a row per event could reach.
LEAN=(--layout blocks --zstd 1 --threads 2)
say "== floor ${LEAN[*]} --keys rows"
PRE="rm_db '$FDB'" best "$DIR/leanrows.out" "$FLOOR" "${LEAN[@]}" --keys rows "$FDB" "$LOG"
LR_WALL=$WALL LR_RSS=$RSS
say "== floor ${LEAN[*]} --keys blocks"
PRE="rm_db '$FDB'" best "$DIR/leanblocks.out" "$FLOOR" "${LEAN[@]}" --keys blocks "$FDB" "$LOG"
LB_WALL=$WALL LB_RSS=$RSS
rm_db "$FDB"

# The DuckDB peer (issue #27): the same job as ingest, into a DuckDB file (bench/duckdb_peer.py).
DDB="$DIR/peer.duckdb"
PEER=0
if python3 -c 'import duckdb' 2>/dev/null; then
  PEER=1
else
  say "bench.sh: DuckDB is not installed (pip install -r bench/requirements.txt): the peer's ratios are not measured"
fi

# Fresh ingest, re-ingest and the peer alternate, so each re-ingest sees the DB of one fresh
# ingest and each peer run the machine of the ingest just before it. Each keeps its fastest run
# (the CPU of that run; peak RSS the highest seen).
say "== pullparity ingest (fresh DB, then again: all duplicates)$([ "$PEER" = 1 ] && echo ', then the DuckDB peer')"
I_WALL="" I_RSS=0 R_WALL="" R_RSS=0 D_WALL="" D_RSS=0
LOADS=""
for ((rep = 1; rep <= REPEAT; rep++)); do
  LOADS="$LOADS $(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')"
  rm_db "$PDB"
  timed "$DIR/ingest.out.$rep" "$PP" ingest --db "$PDB" --quiet "${STATS[@]}" "$LOG"
  if [ -z "$I_WALL" ] || awk -v a="$WALL" -v b="$I_WALL" 'BEGIN { exit !(a < b) }'; then I_WALL=$WALL I_CPU=$CPU; cp "$DIR/ingest.out.$rep" "$DIR/ingest.out"; fi
  if [ "$RSS" -gt "$I_RSS" ]; then I_RSS=$RSS; fi
  # The file as the fresh ingest left it (the re-ingest below writes its run to the ledger).
  I_BYTES=$(db_bytes "$PDB")
  timed "$DIR/reingest.out.$rep" "$PP" ingest --db "$PDB" --quiet "${STATS[@]}" "$LOG"
  if [ -z "$R_WALL" ] || awk -v a="$WALL" -v b="$R_WALL" 'BEGIN { exit !(a < b) }'; then R_WALL=$WALL; cp "$DIR/reingest.out.$rep" "$DIR/reingest.out"; fi
  if [ "$RSS" -gt "$R_RSS" ]; then R_RSS=$RSS; fi
  if [ "$PEER" = 1 ]; then
    timed "$DIR/peer.out.$rep" python3 "$ROOT/bench/duckdb_peer.py" ingest --db "$DDB" --threads 2 "$LOG"
    if [ -z "$D_WALL" ] || awk -v a="$WALL" -v b="$D_WALL" 'BEGIN { exit !(a < b) }'; then D_WALL=$WALL D_CPU=$CPU; cp "$DIR/peer.out.$rep" "$DIR/peer.out"; fi
    if [ "$RSS" -gt "$D_RSS" ]; then D_RSS=$RSS; fi
    D_BYTES=$(db_bytes "$DDB")
  fi
  rm -f "$DIR/ingest.out.$rep" "$DIR/reingest.out.$rep" "$DIR/peer.out.$rep"
done
LOADS="$LOADS $(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')"
# Do the peer's sessions agree with pullparity's? (Not timed.)
if [ "$PEER" = 1 ]; then
  python3 "$ROOT/bench/duckdb_peer.py" check --db "$DDB" --pp "$PDB" >"$DIR/peer-check.out" || fail "the peer's check failed"
fi
STORED=""
if command -v sqlite3 >/dev/null; then STORED=$(sqlite3 "$PDB" 'SELECT count(*) FROM event_keys'); fi

# read_cmd LOG KIND DB: best-of-R time of `pullparity KIND` (report or qa) on DB. A verdict is
# an exit code (0 pass, 1 fail): either is a finished run.
read_cmd() { PRE="" best "$1" sh -c '"$1" "$2" --db "$3" >/dev/null; [ $? -le 1 ]' sh "$PP" "$2" "$3"; }

say "== pullparity report and qa ($(thousands "$EVENTS") events)"
read_cmd "$DIR/report.out" report "$PDB"
P_WALL=$WALL P_RSS=$RSS
read_cmd "$DIR/qa.out" qa "$PDB"
Q_WALL=$WALL
PDB_SIZE=$(size_mb "$PDB")
# Bytes on disk per event (issue #27): the whole file, and by table with its indexes.
PDB_BPE=$(awk -v b="$(stat -L -c %s "$PDB")" -v n="$EVENTS" 'BEGIN { printf "%.1f", b / n }')
PDB_TABLES=""
if command -v sqlite3 >/dev/null; then
  PDB_TABLES=$(sqlite3 "$PDB" "SELECT group_concat(t || ' ' || printf('%.1f', b * 1.0 / $EVENTS), ', ') FROM (
      SELECT coalesce(i.tbl_name, d.name) AS t, sum(d.pgsize) AS b FROM dbstat d
      LEFT JOIN sqlite_master i ON i.name = d.name GROUP BY t ORDER BY b DESC LIMIT 6)" 2>/dev/null || true)
fi

if [ "$BIG" = 1 ]; then
  BDB="$DIR/big.sqlite"
  NDB="$DIR/newday.sqlite"
  BIG_EVENTS=$((BIG_FILES * 1000000))
  BIGLOGS=()
  for ((d = 0; d < BIG_FILES; d++)); do
    f="$DIR/day-$d-$IDS.jsonl"
    if [ "$d" = 0 ] && [ "$EVENTS" = 1000000 ]; then f=$LOG; fi
    gen "$f" 1000000 $((d + 1)) "$d"
    BIGLOGS+=("$f")
  done
  NEWDAY="$DIR/day-$BIG_FILES-$IDS.jsonl"
  gen "$NEWDAY" 1000000 $((BIG_FILES + 1)) "$BIG_FILES"

  say "== $BIG_FILES days, $(thousands "$BIG_EVENTS") events, in one run -> $BDB"
  rm_db "$BDB"
  timed "$DIR/bigingest.out" "$PP" ingest --db "$BDB" --quiet "${STATS[@]}" "${BIGLOGS[@]}"
  B_WALL=$WALL B_RSS=$RSS
  say "== pullparity report and qa ($(thousands "$BIG_EVENTS") events)"
  read_cmd "$DIR/bigreport.out" report "$BDB"
  BP_WALL=$WALL
  read_cmd "$DIR/bigqa.out" qa "$BDB"
  BQ_WALL=$WALL
  # The HTML report (issue 42): charts and the release review from the digests, its peak memory.
  PRE="" best "$DIR/bightml.out" sh -c '"$1" report --db "$2" --format html --output "$3"; [ $? -le 1 ]' \
    sh "$PP" "$BDB" "$DIR/big.html"
  BH_WALL=$WALL BH_RSS=$RSS
  # The same day into an empty database and into the history, one right after the other, so
  # that both see the same machine.
  say "== day $((BIG_FILES + 1)) into an empty database"
  # One run each (the history can take the day only once), so neither gets a best of R.
  rm_db "$NDB"
  timed "$DIR/newday-empty.out" "$PP" ingest --db "$NDB" --quiet "${STATS[@]}" "$NEWDAY"
  NE_WALL=$WALL
  rm_db "$NDB"
  say "== day $((BIG_FILES + 1)) into the database of $BIG_FILES days"
  timed "$DIR/newday-grown.out" "$PP" ingest --db "$BDB" --quiet "${STATS[@]}" "$NEWDAY"
  NG_WALL=$WALL
  if [ -z "$KEEP" ]; then
    for f in "${BIGLOGS[@]}" "$NEWDAY"; do if [ "$f" != "$LOG" ]; then rm -f "$f"; fi; done
    rm_db "$BDB"
  fi
fi

if [ "$HISTORY" -gt 0 ]; then
  HDB="$DIR/history.sqlite"
  HDAY="$DIR/history-day-$IDS.jsonl"
  HIST_EVENTS=$((HISTORY * 1000000))
  rm_db "$HDB"
  : >"$DIR/history.tsv"
  for ((d = 0; d < HISTORY; d++)); do
    # Only one day's log is on disk at a time (a hundred would not fit beside their database).
    # gen reuses a file with the right line count: yesterday's must go first.
    if [ "$d" = 0 ] && [ "$EVENTS" = 1000000 ]; then f=$LOG; else f=$HDAY; rm -f "$f"; gen "$f" 1000000 $((d + 1)) "$d"; fi
    say "== history: day $((d + 1)) of $HISTORY into $HDB"
    # Each day's output (with its per-stage times) is kept, to compare the first days with the last.
    timed "$DIR/history-ingest-$((d + 1)).out" "$PP" ingest --db "$HDB" --quiet "${STATS[@]}" "$f"
    printf '%d\t%s\n' $((d + 1)) "$WALL" >>"$DIR/history.tsv"
  done
  say "== pullparity report and qa ($(thousands "$HIST_EVENTS") events, $HISTORY daily runs)"
  read_cmd "$DIR/histreport.out" report "$HDB"
  HP_WALL=$WALL
  read_cmd "$DIR/histqa.out" qa "$HDB"
  HQ_WALL=$WALL
  H_SIZE=$(size_mb "$HDB")
  # The next day into an empty database and into the history, back to back: the machine's
  # state (page cache, writeback of earlier days) moves single days by a second, which the
  # first and last days of the loop above do not share, and this pair does.
  rm -f "$HDAY"
  gen "$HDAY" 1000000 $((HISTORY + 1)) "$HISTORY"
  say "== history: day $((HISTORY + 1)) into an empty database, then into the $HISTORY days"
  HNDB="$DIR/history-next-empty.sqlite"
  rm_db "$HNDB"
  timed "$DIR/history-next-empty.out" "$PP" ingest --db "$HNDB" --quiet "${STATS[@]}" "$HDAY"
  HNE_WALL=$WALL
  rm_db "$HNDB"
  timed "$DIR/history-next-grown.out" "$PP" ingest --db "$HDB" --quiet "${STATS[@]}" "$HDAY"
  HNG_WALL=$WALL
  rm -f "$HDAY"
  # The median of three days smooths one disturbed run at either end.
  median3() { sed -n "$1" "$DIR/history.tsv" | cut -f2 | sort -n | sed -n 2p; }
  H_FIRST=$(median3 '1,3p')
  H_LAST=$(median3 "$((HISTORY - 2)),${HISTORY}p")
  [ -z "$KEEP" ] && rm_db "$HDB"
fi

if [ "$OVERLAP" -gt 0 ]; then
  ODB="$DIR/overlap.sqlite"
  ODAY="$DIR/overlap-day-$IDS.jsonl"
  rm_db "$ODB"
  for ((d = 0; d < OVERLAP; d++)); do
    # Day 0, as the benchmark's log: every run's sessions and digests share its dates.
    rm -f "$ODAY"
    gen "$ODAY" 1000000 $((101 + d)) 0
    say "== overlapping history: run $((d + 1)) of $OVERLAP into $ODB"
    timed "$DIR/overlap-ingest-$((d + 1)).out" "$PP" ingest --db "$ODB" --quiet "${STATS[@]}" "$ODAY"
  done
  rm -f "$ODAY"
  # The history as the D runs left it, restored before each round: the log goes into it once.
  cp "$ODB" "$ODB.runs"
  say "== the benchmark's log into an empty database, then into the $OVERLAP overlapping runs ($REPEAT rounds)"
  ONDB="$DIR/overlap-next-empty.sqlite"
  ONE_WALL="" ONG_WALL=""
  for ((rep = 1; rep <= REPEAT; rep++)); do
    rm_db "$ONDB"
    timed "$DIR/overlap-next-empty.out.$rep" "$PP" ingest --db "$ONDB" --quiet "${STATS[@]}" "$LOG"
    if [ -z "$ONE_WALL" ] || awk -v a="$WALL" -v b="$ONE_WALL" 'BEGIN { exit !(a < b) }'; then ONE_WALL=$WALL; cp "$DIR/overlap-next-empty.out.$rep" "$DIR/overlap-next-empty.out"; fi
    rm_db "$ONDB"
    rm_db "$ODB" && cp "$ODB.runs" "$ODB"
    timed "$DIR/overlap-next-grown.out.$rep" "$PP" ingest --db "$ODB" --quiet "${STATS[@]}" "$LOG"
    if [ -z "$ONG_WALL" ] || awk -v a="$WALL" -v b="$ONG_WALL" 'BEGIN { exit !(a < b) }'; then ONG_WALL=$WALL; cp "$DIR/overlap-next-grown.out.$rep" "$DIR/overlap-next-grown.out"; fi
    rm -f "$DIR/overlap-next-empty.out.$rep" "$DIR/overlap-next-grown.out.$rep"
  done
  rm -f "$ODB.runs"
  [ -z "$KEEP" ] && rm_db "$ODB"
fi

# 5. summary ------------------------------------------------------------------
F_RATE=$(rate "$EVENTS" "$F_WALL")
FK_RATE=$(rate "$EVENTS" "$FK_WALL")
I_RATE=$(rate "$EVENTS" "$I_WALL")
R_RATE=$(rate "$EVENTS" "$R_WALL")
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }
row() { printf '  %-48s %8s s  %12s  %12s\n' "$1" "$2" "$3" "$4"; }
# goal LABEL VALUE [CONDITION]: prints ok or MISSED (and remembers a miss); no condition: a note.
goal() {
  local v=""
  if [ -n "${3:-}" ]; then
    if awk "BEGIN { exit !($3) }"; then v=ok; else v=MISSED; MISSED=1; fi
  fi
  printf '  %-48s %-28s %s\n' "$1" "$2" "$v"
}
MISSED=0

echo
echo "PullParity benchmark: $(thousands "$EVENTS") events ($IDS event ids), $(size_mb "$LOG") of JSON lines"
echo "  $(nproc) CPUs ($(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1)), SQLite $(sqlite3 --version 2>/dev/null | cut -d' ' -f1), $(cd "$ROOT" && git rev-parse --short HEAD 2>/dev/null || echo '?')$(cd "$ROOT" && git diff --quiet HEAD -- 2>/dev/null || echo '+dirty'), best of $REPEAT, in $DIR"
echo "  load average at start: $LOAD_AT_START, before each ingest/peer round and after the last:$LOADS (busy neighbours slow the two threads of pullparity and DuckDB more than the single-threaded floor: run on a quiet machine, --repeat 3)"
echo
printf '  %-48s %10s  %12s  %12s\n' "" "wall" "events/s" "peak RSS"
row "floor (no index)" "$F_WALL" "$(thousands "$F_RATE")" "$(mib "$F_RSS")"
row "floor --pk (dedup floor, reference)" "$FK_WALL" "$(thousands "$FK_RATE")" "$(mib "$FK_RSS")"
row "lean floor: zstd blocks, a key row per event" "$LR_WALL" "$(thousands "$(rate "$EVENTS" "$LR_WALL")")" "$(mib "$LR_RSS")"
row "lean floor: zstd blocks, keys per block" "$LB_WALL" "$(thousands "$(rate "$EVENTS" "$LB_WALL")")" "$(mib "$LB_RSS")"
row "pullparity ingest (fresh DB)" "$I_WALL" "$(thousands "$I_RATE")" "$(mib "$I_RSS")"
row "pullparity ingest (again: duplicates)" "$R_WALL" "$(thousands "$R_RATE")" "$(mib "$R_RSS")"
if [ -n "$D_WALL" ]; then row "DuckDB peer: the same job (2 threads)" "$D_WALL" "$(thousands "$(rate "$EVENTS" "$D_WALL")")" "$(mib "$D_RSS")"; fi
row "pullparity report ($(thousands "$EVENTS") events)" "$P_WALL" "" "$(mib "$P_RSS")"
row "pullparity qa ($(thousands "$EVENTS") events)" "$Q_WALL" "" ""
if [ "$BIG" = 1 ]; then
  row "day $((BIG_FILES + 1)) into an empty DB" "$NE_WALL" "$(thousands "$(rate 1000000 "$NE_WALL")")" ""
  row "$BIG_FILES days ($(thousands "$BIG_EVENTS") events) in one run" "$B_WALL" "$(thousands "$(rate "$BIG_EVENTS" "$B_WALL")")" "$(mib "$B_RSS")"
  row "pullparity report ($(thousands "$BIG_EVENTS") events)" "$BP_WALL" "" ""
  row "pullparity qa ($(thousands "$BIG_EVENTS") events)" "$BQ_WALL" "" ""
  row "pullparity report --format html ($(thousands "$BIG_EVENTS") events)" "$BH_WALL" "" "$(mib "$BH_RSS")"
  row "day $((BIG_FILES + 1)) into the DB of $BIG_FILES days" "$NG_WALL" "$(thousands "$(rate 1000000 "$NG_WALL")")" ""
fi
if [ "$HISTORY" -gt 0 ]; then
  for d in 1 2 5 10 20 50 100 200 500 "$HISTORY"; do
    [ "$d" -le "$HISTORY" ] || continue
    if [ "$d" = "$HISTORY" ] && [ "${HSHOWN:-}" = "$d" ]; then continue; fi
    w=$(sed -n "${d}p" "$DIR/history.tsv" | cut -f2)
    row "history: day $d (into $(thousands $(((d - 1) * 1000000))) events)" "$w" "$(thousands "$(rate 1000000 "$w")")" ""
    HSHOWN=$d
  done
  row "pullparity report ($(thousands "$HIST_EVENTS") events, $HISTORY runs)" "$HP_WALL" "" ""
  row "pullparity qa ($(thousands "$HIST_EVENTS") events, $HISTORY runs)" "$HQ_WALL" "" ""
  row "history: day $((HISTORY + 1)) into an empty DB" "$HNE_WALL" "$(thousands "$(rate 1000000 "$HNE_WALL")")" ""
  row "history: day $((HISTORY + 1)) into the $HISTORY days" "$HNG_WALL" "$(thousands "$(rate 1000000 "$HNG_WALL")")" ""
fi
if [ "$OVERLAP" -gt 0 ]; then
  row "the log into an empty DB (back to back)" "$ONE_WALL" "$(thousands "$(rate "$EVENTS" "$ONE_WALL")")" ""
  row "the log into $OVERLAP overlapping runs ($(thousands $((OVERLAP * 1000000))) events)" "$ONG_WALL" "$(thousands "$(rate "$EVENTS" "$ONG_WALL")")" ""
fi
echo "  (events/s = lines / wall time of the whole process; DB after the fresh ingest: $PDB_SIZE)"
echo "  bytes per event: $PDB_BPE (by table and its indexes: ${PDB_TABLES:-sqlite3 has no dbstat})"
echo "  $F_SELF"
echo "  ${FK_SELF/floor:/floor --pk:}"
if [ -n "$STORED" ] && [ "$STORED" != "$EVENTS" ]; then echo "  WARNING: pullparity stored $(thousands "$STORED") events, expected $(thousands "$EVENTS")"; fi
per_event() { awk -v b="$1" -v n="$EVENTS" 'BEGIN { printf "%.1f", b / n }'; }
mb() { awk -v b="$1" 'BEGIN { printf "%.1f MB", b / 1e6 }'; }
if [ -n "$D_WALL" ]; then
  echo
  echo "the same job: pullparity ingest against the DuckDB peer (bench/duckdb_peer.py), $(thousands "$EVENTS") events"
  printf '  %-30s %8s  %8s  %12s  %10s\n' "" "wall" "CPU" "file" "per event"
  printf '  %-30s %6s s  %6s s  %12s  %8s B\n' "pullparity ingest (fresh DB)" "$I_WALL" "$I_CPU" "$(mb "$I_BYTES")" "$(per_event "$I_BYTES")"
  printf '  %-30s %6s s  %6s s  %12s  %8s B\n' "DuckDB peer" "$D_WALL" "$D_CPU" "$(mb "$D_BYTES")" "$(per_event "$D_BYTES")"
  printf '  %-30s %8s  %8s  %12s\n' "ingest / peer" "$(ratio "$I_WALL" "$D_WALL")" "$(ratio "$I_CPU" "$D_CPU")" "$(ratio "$I_BYTES" "$D_BYTES")"
  echo "  (CPU: user + system of the process and its children; file: the database with its WAL)"
  echo "  peer: $(cat "$DIR/peer.out")"
  echo "  peer's sessions against pullparity's: $(cat "$DIR/peer-check.out")"
fi

echo
echo "goals"
RATIO=$(ratio "$I_RATE" "$F_RATE")
SPEEDUP=$(ratio "$I_WALL" "$R_WALL")
goal "ingest events/s / floor events/s (#5)" "$RATIO (goal >= 0.6)" "$RATIO >= 0.6"
goal "re-ingest speed-up: fresh wall / again wall (#5)" "${SPEEDUP}x (goal >= 2x)" "$SPEEDUP >= 2"
goal "database bytes per event (#27)" "$PDB_BPE (goal <= 80)" "$PDB_BPE <= 80"
if [ -n "$D_WALL" ]; then
  VS_DUCK=$(ratio "$I_WALL" "$D_WALL")
  BYTES_VS_DUCK=$(ratio "$I_BYTES" "$D_BYTES")
  goal "ingest wall / DuckDB peer wall (#27)" "$VS_DUCK (goal <= 0.5)" "$VS_DUCK <= 0.5"
  goal "  ingest CPU / DuckDB peer CPU" "$(ratio "$I_CPU" "$D_CPU") (no goal)"
  AGREE=$(python3 -c 'import json, sys; c = json.load(sys.stdin); print("%d of %d sessions (%s %%)" % (c["agree_all_five"], c["pullparity_sessions"], c["agree_all_five_pct"]))' <"$DIR/peer-check.out")
  goal "  peer's five metrics agree with ingest's" "$AGREE (no goal)"
  goal "ingest file / DuckDB peer file (#27)" "$BYTES_VS_DUCK (goal <= 0.5)" "$BYTES_VS_DUCK <= 0.5"
  goal "ingest file per event (#27)" "$(per_event "$I_BYTES") B (goal <= 80 B)" "$(per_event "$I_BYTES") <= 80"
  # What storing a row per raw line costs before any of ingest's own work: the bound on the
  # wall ratio above for a row store.
  goal "  the floor alone: floor wall / peer wall" "$(ratio "$F_WALL" "$D_WALL") (no goal: the row store's bound)"
  # The same for stores that keep the raw log compressed, with and without a row per event.
  goal "  lean floor, a key row per event / peer" "$(ratio "$LR_WALL" "$D_WALL") (no goal: a bound)"
  goal "  lean floor, keys per block / peer" "$(ratio "$LB_WALL" "$D_WALL") (no goal: a bound)"
else
  goal "ingest wall / DuckDB peer wall (#27)" "not measured: DuckDB is not installed" "0"
  goal "ingest file / DuckDB peer file (#27)" "not measured: DuckDB is not installed" "0"
fi
goal "report on $(thousands "$EVENTS") events (#13)" "$P_WALL s (goal < 1 s)" "$P_WALL < 1"
goal "qa on $(thousands "$EVENTS") events (#13)" "$Q_WALL s (goal < 1 s)" "$Q_WALL < 1"
if [ "$BIG" = 1 ]; then
  RUN_RATIO=$(ratio "$(rate "$BIG_EVENTS" "$B_WALL")" "$I_RATE")
  DAY_RATIO=$(ratio "$NE_WALL" "$NG_WALL")
  GROWTH=$(ratio "$B_RSS" "$I_RSS")
  goal "$(thousands "$BIG_EVENTS")-event run rate / 1M rate (#13)" "$RUN_RATIO (goal >= 0.85)" "$RUN_RATIO >= 0.85"
  goal "a day into $(thousands "$BIG_EVENTS") / into empty, rate (#13)" "$DAY_RATIO (goal >= 0.85)" "$DAY_RATIO >= 0.85"
  goal "report on $(thousands "$BIG_EVENTS") events (#13)" "$BP_WALL s (goal < 1 s)" "$BP_WALL < 1"
  goal "qa on $(thousands "$BIG_EVENTS") events (#13)" "$BQ_WALL s (goal < 1 s)" "$BQ_WALL < 1"
  goal "HTML report on $(thousands "$BIG_EVENTS") events (#42)" "$BH_WALL s (goal <= 2 s)" "$BH_WALL <= 2"
  goal "its peak memory (#42)" "$(mib "$BH_RSS") (goal <= 100 MB)" "$BH_RSS <= 97656"
  goal "peak RSS, $(thousands "$BIG_EVENTS") vs $(thousands "$EVENTS") events (#5)" "${GROWTH}x (goal <= 1.25x)" "$GROWTH <= 1.25"
else
  goal "history: 10M in one run, a day into 10M (#13)" "not measured: run with --big"
fi

if [ "$HISTORY" -ge 3 ]; then
  H_RATIO=$(ratio "$H_FIRST" "$H_LAST")
  goal "last days into $HISTORY days / first days, rate (#13)" "$H_RATIO (goal >= 0.85)" "$H_RATIO >= 0.85"
  HN_RATIO=$(ratio "$HNE_WALL" "$HNG_WALL")
  goal "day $((HISTORY + 1)): into $HISTORY days / into empty (#13)" "$HN_RATIO (goal >= 0.85)" "$HN_RATIO >= 0.85"
  goal "report on $(thousands "$HIST_EVENTS") events, $H_SIZE (#13)" "$HP_WALL s (goal < 1 s)" "$HP_WALL < 1"
  goal "qa on $(thousands "$HIST_EVENTS") events (#13)" "$HQ_WALL s (goal < 1 s)" "$HQ_WALL < 1"
fi
if [ "$OVERLAP" -gt 0 ]; then
  ON_RATIO=$(ratio "$ONE_WALL" "$ONG_WALL")
  goal "the log into $OVERLAP overlapping runs / into empty (#41)" "$ON_RATIO (goal >= 0.9)" "$ON_RATIO >= 0.9"
fi
echo
echo "pullparity ingest (fresh DB) said:"
sed 's/^/  | /' "$DIR/ingest.out"
echo "pullparity ingest (again) said:"
sed 's/^/  | /' "$DIR/reingest.out"
if [ "$BIG" = 1 ]; then
  echo "pullparity ingest (day $((BIG_FILES + 1)) into the DB of $BIG_FILES days) said:"
  sed 's/^/  | /' "$DIR/newday-grown.out"
fi
if [ "$OVERLAP" -gt 0 ]; then
  echo "pullparity ingest (the log into an empty DB, then into the $OVERLAP overlapping runs) said:"
  sed 's/^/  | /' "$DIR/overlap-next-empty.out"
  sed 's/^/  | /' "$DIR/overlap-next-grown.out"
fi
if [ -n "${STATS_NOTE:-}" ]; then echo "$STATS_NOTE"; fi
exit "$MISSED"
