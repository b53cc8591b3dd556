#!/usr/bin/env python3
"""The DuckDB peer of the ingest benchmark: five pull-to-refresh metrics per app and platform,
computed from the raw JSON lines the way an analyst fluent in DuckDB would, with no PullParity
code. It deduplicates by event_id, reads both kinds of `ts` and skips lines it cannot read;
it keeps nothing (no raw log, no quarantine, no state machine): the floor for "five numbers
from a log".

    python3 bench/duckdb_metrics.py LOG [--threads N] [--print]

Prints the wall time in seconds (and, with --print, the metric rows) on stdout.
"""
import argparse
import time

import duckdb

SQL = """
WITH raw AS (
  SELECT event_id, session_id, platform, app, type,
         CASE WHEN ts LIKE '%T%' THEN epoch_ms(ts::TIMESTAMPTZ)::DOUBLE ELSE ts::DOUBLE END AS ts_ms
  FROM read_json(?, format = 'newline_delimited', ignore_errors = true,
                 columns = {event_id: 'VARCHAR', session_id: 'VARCHAR', ts: 'VARCHAR',
                            platform: 'VARCHAR', app: 'VARCHAR', type: 'VARCHAR'})
  WHERE event_id IS NOT NULL AND session_id IS NOT NULL
),
events AS (SELECT DISTINCT ON (event_id) * FROM raw),
sessions AS (
  SELECT session_id, any_value(app) AS app, any_value(platform) AS platform,
         min(ts_ms) FILTER (WHERE type = 'pull_start')       AS pull_at,
         min(ts_ms) FILTER (WHERE type = 'armed')            AS armed_at,
         min(ts_ms) FILTER (WHERE type = 'refresh_start')    AS refresh_at,
         min(ts_ms) FILTER (WHERE type = 'load_complete')    AS loaded_at,
         min(ts_ms) FILTER (WHERE type = 'indicator_shown')  AS shown_at,
         max(ts_ms) FILTER (WHERE type = 'indicator_hidden') AS hidden_at
  FROM events GROUP BY session_id
)
SELECT app, platform,
       count(*)                                       AS sessions,
       avg((hidden_at IS NOT NULL)::INT)              AS completed_share,
       median(armed_at - pull_at)                     AS median_time_to_arm_ms,
       median(loaded_at - refresh_at)                 AS median_load_ms,
       median(hidden_at - shown_at)                   AS median_visible_ms
FROM sessions GROUP BY app, platform ORDER BY app, platform
"""


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("log")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--print", action="store_true", help="print the metric rows too")
    a = ap.parse_args()
    con = duckdb.connect(config={"threads": a.threads})
    start = time.perf_counter()
    rows = con.execute(SQL, [a.log]).fetchall()
    elapsed = time.perf_counter() - start
    print("%.3f" % elapsed)
    if a.print:
        for row in rows:
            print("\t".join(str(v) for v in row))


if __name__ == "__main__":
    main()
