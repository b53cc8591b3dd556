#!/usr/bin/env bash
# Where a day of random event ids costs (issue #13): SQLite alone, no pullparity.
#
#   bench/random_keys.sh [--history N] [--day M] [--keep DIR]
#
# Stores a day of M rows (default 1,000,000) with random 64-bit keys and a 250-byte payload,
# in five transactions as `pullparity ingest` commits them, into an empty database and into
# one that already holds N rows (default 10,000,000), for two layouts of the duplicate key:
#
#   index   what pullparity does: the rows' table with a UNIQUE index on the key, so every
#           insert descends the whole index (the same with the day in one transaction);
#   tiered  the rows' table without it, a key table for the history and a small one for
#           recent keys: each transaction probes the history (in key order) and adds its keys
#           to the small table, which is merged into the history at the end of the day; also
#           timed without the probes, which is what a filter in front of the history saves.
#
# Prints each time and the ratio "into empty / into history" (1.00 = the history costs
# nothing). Needs the sqlite3 shell (apt-get install sqlite3) and about 3.5 GB of disk per
# 10M rows and layout. See bench/README.md, "Random ids".
set -euo pipefail

HISTORY=10000000
DAY=1000000
KEEP=""
while [ $# -gt 0 ]; do
  case "$1" in
    --history) HISTORY=${2:?}; shift 2 ;;
    --day) DAY=${2:?}; shift 2 ;;
    --keep) KEEP=${2:?}; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "random_keys.sh: unknown argument: $1" >&2; exit 64 ;;
  esac
done
case "$HISTORY$DAY" in *[!0-9]*) echo "random_keys.sh: --history and --day take whole numbers" >&2; exit 64 ;; esac
[ "$DAY" -ge 5 ] || { echo "random_keys.sh: --day >= 5" >&2; exit 64; }
command -v sqlite3 >/dev/null || { echo "random_keys.sh: the sqlite3 shell is missing (apt-get install sqlite3)" >&2; exit 2; }

if [ -n "$KEEP" ]; then
  mkdir -p "$KEEP"
  DIR=$(cd "$KEEP" && pwd)
else
  DIR=$(mktemp -d "${TMPDIR:-/tmp}/pullparity-keys.XXXXXX")
  trap 'rm -rf "$DIR"' EXIT
fi

# pullparity's writer settings (PullParityDatabase.writerConfiguration).
PRAGMAS="PRAGMA page_size = 32768; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL;
PRAGMA cache_size = -262144; PRAGMA mmap_size = 1073741824; PRAGMA wal_autocheckpoint = 4000;"
ROWS="SELECT random(), randomblob(250) FROM generate_series(1, %d)"

index_schema() {
  echo "CREATE TABLE events (pk INTEGER PRIMARY KEY, k INTEGER NOT NULL, raw BLOB);"
  echo "CREATE UNIQUE INDEX events_by_k ON events (k);"
}

tiered_schema() {
  echo "CREATE TABLE events (pk INTEGER PRIMARY KEY, k INTEGER NOT NULL, raw BLOB);"
  echo "CREATE TABLE history_keys (k INTEGER PRIMARY KEY, pk INTEGER NOT NULL);"
  echo "CREATE TABLE recent_keys (k INTEGER PRIMARY KEY, pk INTEGER NOT NULL);"
}

# index_day TRANSACTIONS: the day's rows in that many transactions.
index_day() {
  local per=$((DAY / $1)) i
  for ((i = 0; i < $1; i++)); do
    printf "BEGIN; INSERT INTO events (k, raw) $ROWS; COMMIT;\n" "$per"
  done
}

# tiered_day PROBE MERGE: five transactions, each probing the history (PROBE=1) and adding its
# keys to recent_keys, then (MERGE=1) recent_keys merged into history_keys.
tiered_day() {
  local per=$((DAY / 5)) i
  for ((i = 0; i < 5; i++)); do
    echo "BEGIN; CREATE TEMP TABLE IF NOT EXISTS mark (pk); DELETE FROM mark;"
    echo "INSERT INTO mark SELECT coalesce(max(pk), 0) FROM events;"
    printf "INSERT INTO events (k, raw) $ROWS;\n" "$per"
    [ "$1" = 1 ] && echo "SELECT count(*) FROM (SELECT k FROM events WHERE pk > (SELECT pk FROM mark) ORDER BY k) AS day
      WHERE EXISTS (SELECT 1 FROM history_keys AS h WHERE h.k = day.k);"
    echo "INSERT INTO recent_keys SELECT k, pk FROM events WHERE pk > (SELECT pk FROM mark) ORDER BY k; COMMIT;"
  done
  [ "$2" = 1 ] && echo "BEGIN; INSERT INTO history_keys SELECT k, pk FROM recent_keys; DELETE FROM recent_keys; COMMIT;"
  return 0
}

fill() {
  printf "BEGIN; INSERT INTO events (k, raw) $ROWS; COMMIT;\n" "$HISTORY"
  [ "$1" = tiered ] && echo "BEGIN; INSERT INTO history_keys SELECT k, pk FROM events ORDER BY k; COMMIT;"
  return 0
}

# run DB SQL...: feeds the settings and the SQL to one sqlite3 process; sets SECONDS_TAKEN.
run() {
  local db=$1; shift
  sync
  local start end
  start=$(date +%s.%N)
  { echo "$PRAGMAS"; "$@"; } | sqlite3 "$db" >/dev/null
  end=$(date +%s.%N)
  SECONDS_TAKEN=$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f", e - s }')
}

fresh() { rm -f "$DIR/$1" "$DIR/$1-wal" "$DIR/$1-shm"; }

# measure LABEL LAYOUT DAY-ARGS...: the same day into an empty database and into the history.
measure() {
  local label=$1 layout=$2; shift 2
  fresh empty.db
  run "$DIR/empty.db" "${layout}_schema"
  run "$DIR/empty.db" "$@"
  local empty=$SECONDS_TAKEN
  run "$DIR/$layout.db" "$@"
  printf '%-44s %8s s %8s s   %.2f ×\n' "$label" "$empty" "$SECONDS_TAKEN" \
    "$(awk -v a="$empty" -v b="$SECONDS_TAKEN" 'BEGIN { print a / b }')"
}

for layout in index tiered; do
  if [ ! -s "$DIR/$layout.db" ]; then
    echo "building a history of $HISTORY rows for the $layout layout (not timed)..." >&2
    fresh "$layout.db"
    { echo "$PRAGMAS"; "${layout}_schema"; fill "$layout"; } | sqlite3 "$DIR/$layout.db" >/dev/null
  fi
done

printf '%-44s %10s %10s   %s\n' "a day of $DAY rows" "into empty" "into hist." "ratio"
measure "index, five transactions" index index_day 5
measure "index, one transaction" index index_day 1
measure "tiered, probes and merge" tiered tiered_day 1 1
measure "tiered, no probes, merge" tiered tiered_day 0 1
measure "tiered, no probes, no merge" tiered tiered_day 0 0
echo "(each line adds a day: the history grows by $DAY rows per line and layout)"
