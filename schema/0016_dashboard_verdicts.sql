-- PullParity schema, version 16: what the dashboard shows that SQL cannot compute, or not fast
-- enough, stored by the writer when it brings the digests up to date. Frozen once shipped.
--
-- Issue 42: the dashboard had no verdict at all (a verdict is an interval with false alarms
-- controlled across the whole report, which is `pullparity report`'s code, not a query), its
-- percentile panels sorted every session per request (3.0 s at 10M events for all apps), and
-- its per-day panels grouped every session (0.6-1.0 s at 10M): past Datasette's 5 s limit at
-- 100M. Verdicts and percentiles are now a few rows per app and platform, written from the
-- report the writer builds from its digests: the same code and numbers as `pullparity report
-- --check` on the whole file. Per-day counts are kept per day like the digests: a stale day's
-- rows are counted again in the transaction that counts its digests. All four are derived,
-- and only the dashboard reads them: a read-only command never needs them
-- (Schema.notNeededToRead), and a file from before this version gets them at its next write,
-- which counts every day once (`DashboardTablesWriter`).

-- One row per app and platform: its gate verdict over every group its sessions fell in.
CREATE TABLE gate_verdicts (
  app       TEXT NOT NULL,
  platform  TEXT NOT NULL,
  verdict   TEXT NOT NULL CHECK (verdict IN ('fail', 'pass', 'too_few')),
  sessions  INTEGER NOT NULL,
  failing   INTEGER NOT NULL,  -- figures that failed
  figures   TEXT NOT NULL,     -- those figures in words, '; ' between them ('' when none failed)
  PRIMARY KEY (app, platform)
) WITHOUT ROWID;

-- One row per app, profile and version, platform, trigger and metric: the report's percentiles
-- (interpolated between the closest ranks). An app whose sessions were derived with two
-- versions of its profile has rows for each, as the report has a section for each. NULL
-- percentiles: no session had the value.
CREATE TABLE metric_percentiles (
  app             TEXT NOT NULL,
  profile         TEXT NOT NULL,
  profile_version INTEGER NOT NULL,
  platform        TEXT NOT NULL,
  "trigger"       TEXT NOT NULL,
  metric          TEXT NOT NULL,
  sessions        INTEGER NOT NULL,  -- sessions with a value
  p50             REAL,
  p90             REAL,
  p95             REAL,
  PRIMARY KEY (app, profile, profile_version, platform, "trigger", metric)
) WITHOUT ROWID;

-- One row per UTC day, app, platform, trigger and app version: what `daily_parity` counts,
-- kept so that the dashboard's per-day and per-version panels add up a few rows per day
-- instead of grouping every session. Columns as in `daily_parity`; sums over rows are exact.
CREATE TABLE daily_counts (
  day                               INTEGER NOT NULL,  -- as in session_digests
  app                               TEXT NOT NULL,
  platform                          TEXT NOT NULL,
  "trigger"                         TEXT,
  app_version                       TEXT,
  sessions                          INTEGER NOT NULL,
  first_started_at_ms               REAL NOT NULL,
  completed                         INTEGER NOT NULL,
  cancelled                         INTEGER NOT NULL,
  incomplete                        INTEGER NOT NULL,
  abandoned                         INTEGER NOT NULL,
  flash_sessions                    INTEGER NOT NULL,
  flash_judged                      INTEGER NOT NULL,
  premature_hide_sessions           INTEGER NOT NULL,
  premature_hide_judged             INTEGER NOT NULL,
  late_hide_sessions                INTEGER NOT NULL,
  late_hide_judged                  INTEGER NOT NULL,
  hold_compliant_sessions           INTEGER NOT NULL,
  hold_compliant_judged             INTEGER NOT NULL,
  label_violation_sessions          INTEGER NOT NULL,
  label_judged                      INTEGER NOT NULL,
  arm_mismatch_sessions             INTEGER NOT NULL,
  arm_judged                        INTEGER NOT NULL,
  stuck_refresh_sessions            INTEGER NOT NULL,
  stuck_refresh_judged              INTEGER NOT NULL,
  dropped_refresh_sessions          INTEGER NOT NULL,
  dropped_refresh_judged            INTEGER NOT NULL,
  repeated_refresh_sessions         INTEGER NOT NULL,
  repeated_refresh_judged           INTEGER NOT NULL,
  near_miss_cancels                 INTEGER NOT NULL,
  near_miss_judged                  INTEGER NOT NULL,
  abandoned_during_refresh_sessions INTEGER NOT NULL,
  abandoned_during_refresh_judged   INTEGER NOT NULL,
  pending_sessions                  INTEGER NOT NULL,
  pending_until_ms                  REAL
);
CREATE INDEX daily_counts_by_day ON daily_counts(day);

-- One row per UTC day, app, platform and violation kind: what `violation_counts` counts, by
-- the day its sessions started (a session's findings are all in its day).
CREATE TABLE daily_violations (
  day               INTEGER NOT NULL,
  app               TEXT NOT NULL,
  platform          TEXT NOT NULL,
  kind              TEXT NOT NULL,
  violations        INTEGER NOT NULL,
  sessions_affected INTEGER NOT NULL
);
CREATE INDEX daily_violations_by_day ON daily_violations(day);
