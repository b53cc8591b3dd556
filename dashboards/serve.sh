#!/usr/bin/env bash
# Serves a PullParity database with Datasette and the dashboard, on loopback.
#
#   dashboards/serve.sh pullparity.sqlite [--port N] [--host ADDR] [--immutable]
#
# The metadata (titles, descriptions, units, hidden internal tables, canned queries, dashboard
# panels) is generated from schema/README.md on every start, so it says what the schema says.
# The dashboard opens on the app with the most sessions; dashboards/static/panel-errors.js
# makes a panel whose query fails say so.
# Datasette opens the file read-only; --immutable (for an archived file nothing writes to any
# more) also skips SQLite's locking. Needs `pip install -r dashboards/requirements.txt`.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"

usage() { echo "usage: $0 DATABASE.sqlite [--port N] [--host ADDR] [--immutable]" >&2; exit 2; }
[ $# -ge 1 ] || usage
DB="$1"; shift
PORT=8001; HOST=127.0.0.1; IMMUTABLE=0
while [ $# -gt 0 ]; do
  case "$1" in
    --port) [ $# -ge 2 ] || usage; PORT="$2"; shift 2 ;;
    --host) [ $# -ge 2 ] || usage; HOST="$2"; shift 2 ;;
    --immutable) IMMUTABLE=1; shift ;;
    *) usage ;;
  esac
done
[ -f "$DB" ] || { echo "$0: no such database file: $DB" >&2; exit 2; }
command -v datasette >/dev/null || { echo "$0: datasette not found: pip install -r $HERE/requirements.txt" >&2; exit 2; }

# Datasette names a database after its file, without the extension; the panels name it too.
NAME="$(basename "$DB")"; NAME="${NAME%.*}"
METADATA="$(mktemp -t pullparity-metadata.XXXXXX.json)"
trap 'rm -f "$METADATA"' EXIT
# The page opens on the app with the most sessions, read from schema 16's verdicts (a few rows).
DEFAULT_APP="$(python3 - "$DB" <<'PY'
import sqlite3, sys
with sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True) as conn:
    try:
        row = conn.execute("SELECT app FROM gate_verdicts GROUP BY app ORDER BY sum(sessions) DESC, app LIMIT 1").fetchone()
    except sqlite3.OperationalError:
        sys.exit(3)  # a file from before schema 16
print(row[0] if row else "", end="")
PY
)" || { echo "$0: $DB has no dashboard verdicts yet (a file from before PullParity's schema 16): any write adds them, e.g. pullparity ingest --db $DB /dev/null" >&2; exit 2; }
python3 "$HERE/generate_metadata.py" --database "$NAME" ${DEFAULT_APP:+--default-app "$DEFAULT_APP"} > "$METADATA"

# Facet suggestions re-run a view once per column (6-10 s for daily_parity on 1M events): off.
# The limit cuts a runaway query from the SQL box before it holds a worker for long.
if [ "$IMMUTABLE" = 1 ]; then FILES=(--immutable "$DB"); else FILES=("$DB"); fi
# Not exec: this shell stays to remove the metadata file when Datasette ends, and passes a
# SIGTERM or SIGINT sent to it alone on to Datasette, which would otherwise be left running.
datasette serve "${FILES[@]}" --host "$HOST" --port "$PORT" --metadata "$METADATA" \
  --static "pullparity-assets:$HERE/static" \
  --setting suggest_facets off --setting sql_time_limit_ms 5000 &
SERVER=$!
trap 'kill -TERM "$SERVER" 2>/dev/null' TERM INT
STATUS=0
wait "$SERVER" || STATUS=$?
# A signal ends the first wait at once (status above 128): wait for Datasette to stop too.
if [ "$STATUS" -gt 128 ] && kill -0 "$SERVER" 2>/dev/null; then STATUS=0; wait "$SERVER" || STATUS=$?; fi
exit "$STATUS"
