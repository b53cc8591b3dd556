#!/usr/bin/env python3
"""The DuckDB peer of `pullparity ingest` (issue 27): the same job, written the way an analyst
fluent in DuckDB would write it, with no PullParity code.

    python3 bench/duckdb_peer.py ingest --db OUT.duckdb [--threads 2] LOG [LOG...]
    python3 bench/duckdb_peer.py check --db OUT.duckdb --pp PP.sqlite [--tolerance 0.01]

`ingest` reads JSON-lines logs (plain or .gz) into a fresh DuckDB file:

- `events`: every stored line's exact bytes (`raw`, without its line end) with the typed fields
  pullparity's `events` table has (event_id, session_id, ts_ms, seq, platform, app, type) and
  its source, 1-based line and byte offset in the (decompressed) source;
- duplicates dropped by `event_id`: the same id with the same bytes is a duplicate (counted);
  the same id with other bytes is a conflict, kept aside in `quarantine` (reason `conflict`),
  the first copy (source name order, then line order) being the one stored;
- `quarantine`: every rejected line with source, line, byte offset, reason (pullparity's
  categories: not_json, not_an_object, invalid_utf8, missing_field, wrong_type, invalid_value,
  unknown_type, bad_timestamp, conflict) and its raw bytes (BLOB: a line that is not UTF-8 is
  kept as it came);
- `sessions`: one row per session with time_to_arm_ms, arm_distance, visible_ms, flash and
  premature_hide (docs/events.md section 5), from window functions over the session's events
  ordered by (ts, seq, source, line), not from a state machine.

It prints the run's counts as one JSON object on stdout. `check` compares the peer's
`sessions` with pullparity's (`sessions` of a database written by `pullparity ingest` of the
same logs) and prints how many sessions agree on each metric, within the tolerance for
numbers, and how many quarantined lines both have (same source name, line, byte offset and
reason). Where the two differ by design is in bench/README.md ("The DuckDB peer").

DuckDB reads a plain file itself (read_text); a .gz file, or one that is not valid UTF-8, is
read by Python and handed to the same SQL as text.
"""
import argparse
import csv
import gzip
import json
import os
import sqlite3
import sys
import tempfile
import time

import duckdb

EVENT_TYPES = ["pull_start", "pull_move", "armed", "disarmed", "release", "cancel", "label",
               "refresh_start", "indicator_shown", "indicator_hidden", "reveal", "scroll_to_top",
               "cache_invalidated", "fetch_start", "load_complete", "error_shown",
               "content_cleared"]

# The built-in profiles' numbers that these five metrics need (docs/events.md section 3):
# arming threshold on distance x resistance (NULL: the client's `armed` is trusted) and the
# minimum visible time.
PROFILES_SQL = """
CREATE TEMP TABLE profiles AS
SELECT * FROM (VALUES ('padel', 24.0, 0.72, 1200.0),
                      ('ffci',  NULL, 1.0,  0.0),
                      ('phlock', 80.0, 1.0, 1300.0)) p(profile, threshold, resistance, min_hold_ms)
"""

# One row per physical line of one source: its number, byte offset and bytes without the line
# end (a CRLF line loses its \r). `content` is the source's whole text.
LINES_SQL = """
INSERT INTO lines
SELECT $source, n, sum(strlen(l) + 1) OVER (ORDER BY n) - strlen(l) - 1,
       CASE WHEN ends_with(l, chr(13)) THEN l[:-2] ELSE l END
FROM (SELECT unnest(parts) AS l, generate_subscripts(parts, 1) AS n
      FROM (SELECT string_split(content, chr(10)) AS parts FROM ({content}) t(content)))
"""
# What follows a final newline is not a line.
LAST_SQL = """
DELETE FROM lines WHERE source = $source AND raw = ''
  AND line = (SELECT max(line) FROM lines WHERE source = $source)
"""

PARSE_SQL = """
CREATE TEMP TABLE parsed AS
WITH typed AS (
  SELECT source, line, byte_offset, raw,
         -- one parse for the JSON types of the fields, NULL when the line is not JSON
         try(json_type(raw, ['$', '$.event_id', '$.session_id', '$.ts', '$.platform', '$.app',
                             '$.type', '$.seq', '$.distance', '$.profile'])) AS t
  FROM lines WHERE raw <> ''
),
fields AS (
  SELECT *, CASE WHEN t[1] = 'OBJECT' THEN json_transform(raw, '{
      "event_id": "VARCHAR", "session_id": "VARCHAR", "ts": "VARCHAR", "platform": "VARCHAR",
      "app": "VARCHAR", "type": "VARCHAR", "seq": "BIGINT", "distance": "DOUBLE",
      "profile": "VARCHAR"}') END AS f
  FROM typed
),
judged AS (
  SELECT source, line, byte_offset, raw, f, t,
    CASE WHEN t[4] = 'VARCHAR' THEN
           CASE WHEN regexp_matches(f.ts, '^\\d{4}-\\d\\d-\\d\\d[Tt ]\\d\\d:\\d\\d:\\d\\d(\\.\\d+)?([Zz]|[+-]\\d\\d:\\d\\d)$')
                THEN epoch_us(try_cast(f.ts AS TIMESTAMPTZ)) / 1000.0 END
         ELSE try_cast(f.ts AS DOUBLE) END AS ts_ms
  FROM fields
)
SELECT source, line, byte_offset, raw,
  CASE
    WHEN t IS NULL THEN 'not_json'
    WHEN t[1] <> 'OBJECT' THEN 'not_an_object'
    WHEN t[2] IS NULL OR t[3] IS NULL OR t[4] IS NULL OR t[5] IS NULL OR t[6] IS NULL
         OR t[7] IS NULL THEN 'missing_field'
    WHEN t[2] <> 'VARCHAR' OR t[3] <> 'VARCHAR' OR t[5] <> 'VARCHAR' OR t[6] <> 'VARCHAR'
         OR t[7] <> 'VARCHAR' OR t[4] NOT IN ('VARCHAR', 'BIGINT', 'UBIGINT', 'DOUBLE')
         OR (t[8] IS NOT NULL AND t[8] NOT IN ('BIGINT', 'UBIGINT'))
         OR (t[9] IS NOT NULL AND t[9] NOT IN ('BIGINT', 'UBIGINT', 'DOUBLE'))
         OR (t[10] IS NOT NULL AND t[10] <> 'VARCHAR') THEN 'wrong_type'
    -- DuckDB reads NaN and Infinity, which are not JSON numbers
    WHEN isnan(f.distance) OR isinf(f.distance) THEN 'not_json'
    WHEN length(f.event_id) NOT BETWEEN 1 AND 128 OR length(f.session_id) NOT BETWEEN 1 AND 128
         OR length(f.platform) NOT BETWEEN 1 AND 128 OR length(f.app) NOT BETWEEN 1 AND 128
         THEN 'invalid_value'
    WHEN f.type NOT IN ({types}) THEN 'unknown_type'
    WHEN ts_ms IS NULL OR isnan(ts_ms) OR isinf(ts_ms) THEN 'bad_timestamp'
    WHEN f.type IN ('pull_move', 'armed', 'disarmed', 'release') AND f.distance IS NULL
         THEN 'missing_field'
    WHEN f.distance < 0 THEN 'invalid_value'
  END AS reason,
  f.event_id, f.session_id, ts_ms, f.seq, f.platform, f.app, f.type, f.distance, f.profile
FROM judged
"""

# The first copy of each id is stored; a later copy is a duplicate when its bytes are the
# same, a conflict otherwise.
DEDUP_SQL = """
CREATE TEMP TABLE copies AS
SELECT *, row_number() OVER w AS copy, first_value(raw) OVER w AS first_raw
FROM parsed WHERE reason IS NULL
WINDOW w AS (PARTITION BY event_id ORDER BY source, line)
"""

STORE_SQL = """
CREATE TABLE events AS
SELECT event_id, session_id, ts_ms, seq, platform, app, type, source, line, byte_offset, raw
FROM copies WHERE copy = 1;

CREATE TABLE quarantine AS
SELECT source, line, byte_offset, reason, encode(raw) AS raw FROM parsed WHERE reason IS NOT NULL
UNION ALL
SELECT source, line, byte_offset, 'conflict', encode(raw) FROM copies
WHERE copy > 1 AND raw <> first_raw;
"""

# Per session, the analyst's reading of docs/events.md section 5: events in session order
# (a window), the positions of the events that matter, then the metrics.
SESSIONS_SQL = """
CREATE TABLE sessions AS
WITH ev AS (
  SELECT c.session_id, c.app, c.platform, coalesce(c.profile, c.app) AS profile, c.type,
         c.ts_ms, c.distance, p.threshold, p.resistance, p.min_hold_ms,
         row_number() OVER (PARTITION BY c.session_id
                            ORDER BY c.ts_ms, coalesce(c.seq, 0), c.source, c.line) AS k
  FROM copies c LEFT JOIN profiles p ON p.profile = coalesce(c.profile, c.app)
  WHERE c.copy = 1
),
marked AS (
  SELECT *,
    min(k) FILTER (WHERE type = 'pull_start') OVER s AS k_pull,
    min(k) FILTER (WHERE type = 'refresh_start') OVER s AS k_refresh
  FROM ev WINDOW s AS (PARTITION BY session_id)
),
steps AS (
  SELECT session_id,
    arg_min(app, k) AS app, arg_min(platform, k) AS platform, arg_min(profile, k) AS profile,
    count(*) AS events,
    any_value(min_hold_ms) AS min_hold_ms,
    arg_min(ts_ms, k) FILTER (WHERE type = 'pull_start') AS pull_ts,
    -- arming: the first sample of the pull whose drawn distance reaches the threshold, or the
    -- client's first `armed` for a profile without one
    arg_min(ts_ms, k) FILTER (WHERE k > k_pull AND (
        (threshold IS NOT NULL AND type = 'pull_move' AND distance * resistance >= threshold - 1e-6)
        OR (threshold IS NULL AND type = 'armed'))) AS arm_ts,
    arg_min(distance, k) FILTER (WHERE k > k_pull AND (
        (threshold IS NOT NULL AND type = 'pull_move' AND distance * resistance >= threshold - 1e-6)
        OR (threshold IS NULL AND type = 'armed'))) AS arm_distance,
    arg_min(ts_ms, k) FILTER (WHERE type = 'indicator_shown' AND k > k_refresh) AS shown_ts,
    min(k) FILTER (WHERE type = 'indicator_hidden' AND k > k_refresh) AS k_hidden,
    arg_min(ts_ms, k) FILTER (WHERE type = 'indicator_hidden' AND k > k_refresh) AS hidden_ts,
    min(k) FILTER (WHERE type = 'load_complete' AND k > k_refresh) AS k_load
  FROM marked GROUP BY session_id
)
SELECT session_id, app, platform, profile, events,
  k_hidden IS NOT NULL AS completed,
  arm_ts - pull_ts AS time_to_arm_ms,
  CASE WHEN arm_ts IS NOT NULL THEN arm_distance END AS arm_distance,
  hidden_ts - shown_ts AS visible_ms,
  CASE WHEN k_hidden IS NOT NULL THEN hidden_ts - shown_ts < min_hold_ms - 1e-6 END AS flash,
  CASE WHEN k_hidden IS NOT NULL THEN k_load IS NULL OR k_load > k_hidden END AS premature_hide
FROM steps
"""


def read_source(path):
    """The source's text for the SQL, from Python (gzip, or not UTF-8), and the lines that are
    not UTF-8: {line number: raw bytes}, each replaced in the text by as many spaces (so that
    later byte offsets stay right; quarantine gets its real bytes afterwards)."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as fh:
        data = fh.read()
    try:
        return data.decode("utf-8"), {}
    except UnicodeDecodeError:
        pass
    bad = {}
    lines = data.split(b"\n")
    for i, raw in enumerate(lines):
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            bad[i + 1] = raw[:-1] if raw.endswith(b"\r") else raw
            lines[i] = b" " * len(raw)
    return b"\n".join(lines).decode("utf-8"), bad


def ingest(a):
    start = time.perf_counter()
    for suffix in ("", ".wal"):
        if os.path.exists(a.db + suffix):
            os.remove(a.db + suffix)
    con = duckdb.connect(a.db)
    con.execute("SET threads = %d" % a.threads)
    con.execute("CREATE TEMP TABLE lines (source VARCHAR, line BIGINT, byte_offset BIGINT, raw VARCHAR)")
    con.execute(PROFILES_SQL)
    invalid = []
    sources = sorted(a.logs, key=os.path.basename)  # name order decides which copy is first
    for path in sources:
        name = os.path.basename(path)
        done = False
        if not path.endswith(".gz"):
            try:
                con.execute(LINES_SQL.format(content="SELECT content FROM read_text($path)"),
                            {"source": name, "path": path})
                done = True
            except duckdb.InvalidInputException:
                pass  # not UTF-8: read below
        if not done:
            text, bad = read_source(path)
            con.execute(LINES_SQL.format(content="SELECT $text"), {"source": name, "text": text})
            invalid += [(name, n, raw) for n, raw in bad.items()]
        con.execute(LAST_SQL, {"source": name})
    con.execute(PARSE_SQL.replace("{types}", ", ".join("'%s'" % t for t in EVENT_TYPES)))
    if invalid:
        con.executemany("UPDATE parsed SET reason = 'invalid_utf8' WHERE source = ? AND line = ?",
                        [(s, n) for s, n, _ in invalid])
    con.execute(DEDUP_SQL)
    con.execute(STORE_SQL)
    for s, n, raw in invalid:
        con.execute("UPDATE quarantine SET raw = ? WHERE source = ? AND line = ?", [raw, s, n])
    con.execute(SESSIONS_SQL)
    counts = con.execute("""
        SELECT (SELECT count(*) FROM lines) AS lines_read,
               (SELECT count(*) FROM lines WHERE raw = '') AS blank_lines,
               (SELECT count(*) FROM events) AS events_stored,
               (SELECT count(*) FROM copies WHERE copy > 1 AND raw = first_raw) AS duplicates,
               (SELECT count(*) FROM quarantine WHERE reason = 'conflict') AS conflicts,
               (SELECT count(*) FROM quarantine WHERE reason <> 'conflict') AS quarantined,
               (SELECT count(*) FROM sessions) AS sessions""").fetchone()
    con.close()  # checkpoints: the file on disk is the whole database
    out = dict(zip(["lines_read", "blank_lines", "events_stored", "duplicates", "conflicts",
                    "quarantined", "sessions"], counts))
    out["seconds"] = round(time.perf_counter() - start, 3)
    print(json.dumps(out))


METRICS = ["time_to_arm_ms", "arm_distance", "visible_ms", "flash", "premature_hide"]


def check(a):
    """How many of pullparity's sessions the peer has, and how many agree on each metric."""
    pp = sqlite3.connect("file:%s?mode=ro" % a.pp, uri=True)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "pp_sessions.csv")
        with open(path, "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["session_id", "outcome"] + METRICS)
            for row in pp.execute("SELECT session_id, outcome, %s FROM sessions" % ", ".join(METRICS)):
                w.writerow(["" if v is None else v for v in row])
        qpath = os.path.join(tmp, "pp_quarantine.csv")
        with open(qpath, "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["source", "line", "byte_offset", "reason"])
            for src, line, off, cat in pp.execute(
                    "SELECT source, line, byte_offset, category FROM quarantine"):
                w.writerow([os.path.basename(src), line, off, cat])
        con = duckdb.connect(a.db, read_only=True)
        con.execute("""CREATE TEMP TABLE pp AS SELECT * FROM read_csv($p, header = true,
            columns = {'session_id': 'VARCHAR', 'outcome': 'VARCHAR', 'time_to_arm_ms': 'DOUBLE',
                       'arm_distance': 'DOUBLE', 'visible_ms': 'DOUBLE', 'flash': 'INTEGER',
                       'premature_hide': 'INTEGER'})""", {"p": path})
        q = con.execute("""
            WITH p AS (SELECT * FROM read_csv($p, header = true, columns = {'source': 'VARCHAR',
                         'line': 'BIGINT', 'byte_offset': 'BIGINT', 'reason': 'VARCHAR'}))
            SELECT (SELECT count(*) FROM p), (SELECT count(*) FROM quarantine),
                   (SELECT count(*) FROM p JOIN quarantine d USING (source, line, byte_offset, reason))
        """, {"p": qpath}).fetchone()
        same = []
        for m in METRICS:
            if m in ("flash", "premature_hide"):
                same.append("(p.%s IS NOT DISTINCT FROM d.%s::INTEGER)" % (m, m))
            else:
                # NULL on one side only is a difference, not an unknown
                same.append("coalesce(p.{0} IS NULL AND d.{0} IS NULL OR abs(p.{0} - d.{0}) <= {1}, false)"
                            .format(m, a.tolerance))
        row = con.execute("""
            SELECT count(*) FILTER (WHERE p.session_id IS NOT NULL) AS pp_sessions,
                   count(*) FILTER (WHERE d.session_id IS NOT NULL) AS peer_sessions,
                   count(*) FILTER (WHERE p.session_id IS NOT NULL AND d.session_id IS NOT NULL) AS both,
                   %s,
                   count(*) FILTER (WHERE %s) AS all_five
            FROM pp p FULL JOIN sessions d USING (session_id)""" % (
            ", ".join("count(*) FILTER (WHERE %s)" % s for s in same), " AND ".join(same))).fetchone()
        pp_n, peer_n, both = row[:3]
        result = {"pullparity_sessions": pp_n, "peer_sessions": peer_n, "in_both": both,
                  "agree": {m: row[3 + i] for i, m in enumerate(METRICS)},
                  "agree_all_five": row[-1]}
        result["agree_all_five_pct"] = round(100.0 * row[-1] / pp_n, 2) if pp_n else None
        result["quarantine"] = {"pullparity": q[0], "peer": q[1], "same_line_and_reason": q[2]}
        # Where they differ, by pullparity's outcome: what the state machine saw that SQL did not.
        diff = con.execute("""
            SELECT p.outcome, count(*) FROM pp p JOIN sessions d USING (session_id)
            WHERE NOT (%s) GROUP BY ALL ORDER BY 2 DESC""" % " AND ".join(same)).fetchall()
        result["differ_by_outcome"] = {o: n for o, n in diff}
        if a.examples:
            result["examples"] = [r[0] for r in con.execute("""
                SELECT session_id FROM pp p JOIN sessions d USING (session_id)
                WHERE NOT (%s) ORDER BY session_id LIMIT %d""" % (" AND ".join(same), a.examples)).fetchall()]
    print(json.dumps(result))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    ip = sub.add_parser("ingest", help="the same job as pullparity ingest, into a fresh DuckDB file")
    ip.add_argument("--db", required=True)
    ip.add_argument("--threads", type=int, default=2)
    ip.add_argument("logs", nargs="+")
    cp = sub.add_parser("check", help="compare the peer's sessions with pullparity's")
    cp.add_argument("--db", required=True, help="the peer's DuckDB file")
    cp.add_argument("--pp", required=True, help="pullparity's SQLite file, same logs")
    cp.add_argument("--tolerance", type=float, default=0.01)
    cp.add_argument("--examples", type=int, default=0, help="list this many differing session ids")
    a = ap.parse_args()
    if a.cmd == "ingest":
        ingest(a)
    else:
        check(a)


if __name__ == "__main__":
    sys.exit(main())
