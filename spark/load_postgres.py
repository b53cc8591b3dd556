#!/usr/bin/env python3
"""Loads a Spark run's derived tables (OUT/json/{sessions,violations,quarantine,profiles}) into
PostgreSQL with `psql \\copy`, so that a Grafana or Metabase already pointed at PostgreSQL reads
the same tables and dashboard views as the SQLite file has (schema/postgres/).

    python3 spark/load_postgres.py OUT --dsn "host=db.example dbname=parity user=loader" --create

--create applies schema/postgres/*.sql first (tables and views); without it the tables must
exist. Runs add up: a quarantined line or a profile already loaded is kept as it is, and a
session already loaded by another run keeps the derivation from more events (docs/
distributed-formats.md, "Known differences"). Everything runs in one transaction: a failed load
leaves the database as it was. Needs only `psql` (no Python driver).
"""

import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

SCHEMA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "schema", "postgres")
COLUMNS = {
    "sessions": ["session_id", "app", "profile", "profile_version", "platform", "app_version", "os_version",
                 "device", "screen", "empty", "outcome", "final_state", "trigger", "time_to_arm_ms",
                 "arm_distance", "client_arm_distance", "release_distance", "load_ms", "visible_ms", "flash",
                 "premature_hide", "late_hide", "hold_compliant", "label_violations", "arm_mismatch", "load_ok",
                 "max_sample_gap_ms", "max_offset_error", "violation_count", "event_count", "started_at_ms",
                 "ended_at_ms", "install_id", "gesture_observed", "stuck_refresh", "dropped_refresh",
                 "repeated_refresh", "near_miss", "refresh_started_at_ms", "refresh_ended_at_ms",
                 "judge_again_at_ms"],
    "violations": ["session_id", "ordinal", "kind", "ts_ms", "expected", "actual"],
    "quarantine": ["source", "line", "byte_offset", "category", "reason", "raw", "event_id", "raw_hash",
                   "raw_bytes"],
    "profiles": ["name", "version", "content_hash", "definition"],
}
TABLES = ("sessions", "violations", "quarantine", "profiles")  # the order they are merged in
KEYS = {"sessions": ["session_id"], "violations": ["session_id", "ordinal"],
        "quarantine": ["source", "byte_offset", "raw_hash"], "profiles": ["name", "version"]}


def fnv1a64(data):
    """quarantine.raw_hash as SQLite stores it: 64-bit FNV-1a of the raw bytes, signed."""
    h = 0xcbf29ce484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h - (1 << 64) if h >= (1 << 63) else h


def rows(run_dir, table):
    for path in sorted(glob.glob(os.path.join(run_dir, "json", table, "*.json"))):
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                if line.strip():
                    yield json.loads(line)


def quarantine_row(row):
    """`raw` as text where PostgreSQL text can hold it; a line that is not UTF-8, or that holds a
    NUL byte (valid UTF-8, but no PostgreSQL text can hold it: a UTF-16 log is full of them),
    keeps its bytes in `raw_bytes` and a readable `raw` (U+FFFD where text can't hold them: `value`)."""
    text = row.get("raw")
    if text is not None and "\0" not in text:
        data = text.encode("utf-8")
        row["raw_bytes"] = None
    else:
        data = text.encode("utf-8") if text is not None else bytes.fromhex(row.get("raw_hex") or "")
        row["raw"] = data.decode("utf-8", "replace")
        row["raw_bytes"] = "\\x" + data.hex()
    row["raw_hash"] = fnv1a64(data)
    return row


def value(v):
    """A CSV field for COPY: NULL is the only unquoted (empty) field, every value is quoted, so
    that an empty string or a line that reads `\\N` stays the text it is. A NUL, which decode
    lets through in an event's strings (`"device": "a\\u0000b"`), becomes U+FFFD: PostgreSQL
    text cannot hold it, and one such event must not stop the load. Written by hand because
    `csv.writer` cannot quote every value but NULL before Python 3.12 (`QUOTE_NOTNULL`); Debian
    12 has 3.11."""
    if v is None:
        return ""
    if isinstance(v, bool):
        v = "1" if v else "0"
    elif isinstance(v, float):
        v = repr(v)  # shortest text that reads back as the same double
    return '"' + str(v).replace('"', '""').replace("\0", "\ufffd") + '"'


def write_csv(run_dir, table, path):
    with open(path, "w", newline="", encoding="utf-8") as handle:
        for row in rows(run_dir, table):
            if table == "quarantine":
                row = quarantine_row(row)
            handle.write(",".join(value(row.get(column)) for column in COLUMNS[table]) + "\n")


def merge(table):
    """SQL that moves `incoming_<table>` into `table`: derived rows of a session replace the ones
    loaded before (see `script`), a quarantined line or a profile already there is kept as it is
    (ingest's INSERT OR IGNORE)."""
    columns = ", ".join(f'"{c}"' for c in COLUMNS[table])
    keys = ", ".join(KEYS[table])
    if table == "sessions":
        updates = ", ".join(f'"{c}" = EXCLUDED."{c}"' for c in COLUMNS[table] if c not in KEYS[table])
        conflict = f"DO UPDATE SET {updates}"  # an update, not a delete: session_ref stays
    else:
        conflict = "DO NOTHING"
    return (f"INSERT INTO {table} ({columns}) SELECT {columns} FROM incoming_{table} "
            f"ON CONFLICT ({keys}) {conflict};")


# A session another run already loaded (its events span both runs, e.g. per-day runs across
# midnight): each run derived it from its own events only, so the derivation from more events
# is kept with its violations; on a tie, this load's (reloading a run replaces it with itself).
SESSIONS_SQL = """
CREATE TEMP TABLE stored_wins ON COMMIT DROP AS
  SELECT i.session_id FROM incoming_sessions i JOIN sessions s USING (session_id)
  WHERE s.event_count > i.event_count;
DELETE FROM incoming_sessions WHERE session_id IN (SELECT session_id FROM stored_wins);
DELETE FROM incoming_violations WHERE session_id IN (SELECT session_id FROM stored_wins);
DELETE FROM violations WHERE session_id IN (SELECT session_id FROM incoming_sessions);
"""

# A profile's name and version name one set of rules: other rules under them would mix two
# rule sets in one dashboard, and a load cannot re-derive the stored sessions, so it stops.
PROFILES_SQL = """
DO $$
DECLARE clash text;
BEGIN
  SELECT format('profile %s version %s is stored with content_hash %s, this run has %s',
                p.name, p.version, p.content_hash, i.content_hash) INTO clash
    FROM incoming_profiles i JOIN profiles p USING (name, version)
    WHERE p.content_hash <> i.content_hash LIMIT 1;
  IF clash IS NOT NULL THEN RAISE EXCEPTION '%', clash; END IF;
END $$;
"""


def script(run_dir, workdir, create):
    lines = ["\\set ON_ERROR_STOP on", "BEGIN;"]
    if create:
        for path in sorted(glob.glob(os.path.join(SCHEMA_DIR, "*.sql"))):
            lines.append(f"\\i '{os.path.abspath(path)}'")
    for table in TABLES:
        csv_path = os.path.join(workdir, table + ".csv")
        write_csv(run_dir, table, csv_path)
        columns = ", ".join(f'"{c}"' for c in COLUMNS[table])
        lines.append(f"CREATE TEMP TABLE incoming_{table} ON COMMIT DROP AS "
                     f"SELECT {columns} FROM {table} WITH NO DATA;")
        lines.append(f"\\copy incoming_{table} ({columns}) FROM '{csv_path}' WITH (FORMAT csv)")
    lines += [SESSIONS_SQL.strip(), PROFILES_SQL.strip()]
    lines += [merge(table) for table in TABLES]
    lines.append("COMMIT;")
    return "\n".join(lines) + "\n"


def load(run_dir, dsn, create=False, psql="psql"):
    with tempfile.TemporaryDirectory(prefix="pullparity-pg-") as workdir:
        path = os.path.join(workdir, "load.sql")
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(script(run_dir, workdir, create))
        result = subprocess.run([psql, "-X", "-q", "-d", dsn, "-f", path], capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"psql failed ({result.returncode}): {result.stderr.strip()}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run_dir", help="the Spark run's output directory")
    parser.add_argument("--dsn", required=True, help="libpq connection string, e.g. 'host=/run/postgresql dbname=x'")
    parser.add_argument("--create", action="store_true", help="create the tables and views first")
    args = parser.parse_args(argv)
    try:
        load(args.run_dir, args.dsn, args.create)
    except RuntimeError as error:
        print(f"load_postgres: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
