-- PullParity schema, version 2: views for the common dashboard panels.
-- Frozen once shipped, like 0001: a change to a view is a new file that drops and recreates it.
--
-- Views only, no tables or indexes: they cost nothing on ingest, and they always agree with the
-- tables because they are computed from them at read time. schema/README.md documents every
-- column for dashboard authors.
--
-- Conventions shared by the views:
-- * `day` is the UTC date (YYYY-MM-DD) of the session's start. A session that crosses midnight
--   counts on the day it began, so a day's numbers never change once the day's log is in.
-- * Rates come with their numerator (`<flag>_sessions`) and denominator (`<flag>_judged`, the
--   sessions where the flag is not NULL). A rate over several rows must be recomputed as
--   sum(numerator) / sum(denominator); averaging rates weights a quiet day like a busy one.
-- * Rates are fractions 0..1, NULL when nothing was judged (SQLite's x / 0 is NULL).
-- * `trigger` is NULL for a session that had neither a pull_start nor a refresh_start; GROUP BY
--   keeps such sessions together in one NULL group instead of dropping them.

-- One row per day, app, platform and trigger: the numbers of a parity panel over time.
-- Percentiles are not here because SQLite has no percentile aggregate and percentiles cannot be
-- combined across days; percentile_inputs gives the per-session values instead.
CREATE VIEW daily_parity AS
SELECT
  date(started_at_ms / 1000.0, 'unixepoch')          AS day,
  app,
  platform,
  "trigger",
  count(*)                                           AS sessions,
  sum(outcome = 'completed')                         AS completed,
  sum(outcome = 'cancelled')                         AS cancelled,
  sum(outcome = 'incomplete')                        AS incomplete,
  -- coalesce: sum() over only NULLs is NULL, but "none of them" is 0 sessions.
  coalesce(sum(flash), 0)                            AS flash_sessions,
  count(flash)                                       AS flash_judged,
  1.0 * sum(flash) / count(flash)                    AS flash_rate,
  coalesce(sum(premature_hide), 0)                   AS premature_hide_sessions,
  count(premature_hide)                              AS premature_hide_judged,
  1.0 * sum(premature_hide) / count(premature_hide)  AS premature_hide_rate,
  coalesce(sum(late_hide), 0)                        AS late_hide_sessions,
  count(late_hide)                                   AS late_hide_judged,
  1.0 * sum(late_hide) / count(late_hide)            AS late_hide_rate,
  coalesce(sum(hold_compliant), 0)                   AS hold_compliant_sessions,
  count(hold_compliant)                              AS hold_compliant_judged,
  1.0 * sum(hold_compliant) / count(hold_compliant)  AS hold_compliance_rate,
  -- label_violations is a per-session count; NULL for profiles without label copy.
  coalesce(sum(label_violations), 0)                 AS label_violations,
  coalesce(sum(label_violations > 0), 0)             AS label_violation_sessions,
  count(label_violations)                            AS label_judged,
  1.0 * sum(label_violations > 0) / count(label_violations) AS label_violation_rate,
  coalesce(sum(arm_mismatch), 0)                     AS arm_mismatch_sessions,
  count(arm_mismatch)                                AS arm_judged,
  1.0 * sum(arm_mismatch) / count(arm_mismatch)      AS arm_mismatch_rate,
  -- The value counts let a panel re-weight the averages when it merges rows.
  count(visible_ms)                                  AS visible_ms_n,
  avg(visible_ms)                                    AS visible_ms_avg,
  min(visible_ms)                                    AS visible_ms_min,
  max(visible_ms)                                    AS visible_ms_max,
  count(arm_distance)                                AS arm_distance_n,
  avg(arm_distance)                                  AS arm_distance_avg,
  min(arm_distance)                                  AS arm_distance_min,
  max(arm_distance)                                  AS arm_distance_max
FROM sessions
GROUP BY day, app, platform, "trigger";

-- One row per app, platform and violation kind: the "what is broken where" panel.
CREATE VIEW violation_counts AS
SELECT
  s.app,
  s.platform,
  v.kind,
  count(*)                     AS violations,
  count(DISTINCT v.session_id) AS sessions_affected,
  min(v.ts_ms)                 AS first_ts_ms,
  max(v.ts_ms)                 AS last_ts_ms
FROM violations v
JOIN sessions s ON s.session_id = v.session_id
GROUP BY s.app, s.platform, v.kind;

-- One row per session and metric that has a value, in long format, so that a dashboard (or a
-- window function, see the README) can compute percentiles of any slice itself. UNION ALL
-- rather than one scan with CASE: SQLite pushes a `WHERE metric = ...` into each branch, where
-- it is tested once before the branch's loop, so a panel asking for one metric reads one branch.
CREATE VIEW percentile_inputs AS
SELECT session_id, app, platform, "trigger", date(started_at_ms / 1000.0, 'unixepoch') AS day,
       'arm_distance' AS metric, arm_distance AS value
  FROM sessions WHERE arm_distance IS NOT NULL
UNION ALL
SELECT session_id, app, platform, "trigger", date(started_at_ms / 1000.0, 'unixepoch'),
       'client_arm_distance', client_arm_distance
  FROM sessions WHERE client_arm_distance IS NOT NULL
UNION ALL
SELECT session_id, app, platform, "trigger", date(started_at_ms / 1000.0, 'unixepoch'),
       'time_to_arm_ms', time_to_arm_ms
  FROM sessions WHERE time_to_arm_ms IS NOT NULL
UNION ALL
SELECT session_id, app, platform, "trigger", date(started_at_ms / 1000.0, 'unixepoch'),
       'visible_ms', visible_ms
  FROM sessions WHERE visible_ms IS NOT NULL
UNION ALL
SELECT session_id, app, platform, "trigger", date(started_at_ms / 1000.0, 'unixepoch'),
       'load_ms', load_ms
  FROM sessions WHERE load_ms IS NOT NULL;

-- One row per violation with the session's dimensions, so a panel can slice findings by version
-- or screen without writing the join. `day` is the session's, to line up with daily_parity.
CREATE VIEW session_violations AS
SELECT
  v.session_id,
  v.ordinal,
  v.kind,
  v.ts_ms,
  v.expected,
  v.actual,
  s.app,
  s.profile,
  s.platform,
  s.app_version,
  s.screen,
  s."trigger",
  date(s.started_at_ms / 1000.0, 'unixepoch') AS day
FROM violations v
JOIN sessions s ON s.session_id = v.session_id;

-- One row per source file and rejection category: where bad lines come from. Conflicts are a
-- category here too (a later copy of an event id with other content), although the run summary
-- counts them apart from malformed lines.
CREATE VIEW quarantine_summary AS
SELECT
  source,
  category,
  count(*) AS lines
FROM quarantine
GROUP BY source, category;
