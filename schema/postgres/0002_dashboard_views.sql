-- The dashboard views of schema/0002_dashboard_views.sql in PostgreSQL SQL: same names, same
-- columns, same rows (spark/tests/test_postgres.py compares them with SQLite's on one run).
-- What had to change, and why:
-- * SQLite's date(x / 1000.0, 'unixepoch') is the UTC date as text: to_char of the UTC time.
-- * sum(outcome = 'completed') sums booleans in SQLite; PostgreSQL counts with FILTER.
-- * 1.0 * sum(f) / count(f) is a double in SQLite and NULL when count(f) is 0 (x / 0 is NULL
--   there); here the double cast and nullif give the same.
-- * sum() of an integer flag is a bigint in both; coalesce keeps "none of them" as 0.

CREATE FUNCTION pullparity_day(ms double precision) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN to_char(to_timestamp(ms / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD');

CREATE VIEW daily_parity AS
SELECT
  pullparity_day(started_at_ms)                                          AS day,
  app,
  platform,
  "trigger",
  count(*)                                                               AS sessions,
  count(*) FILTER (WHERE outcome = 'completed')                          AS completed,
  count(*) FILTER (WHERE outcome = 'cancelled')                          AS cancelled,
  count(*) FILTER (WHERE outcome = 'incomplete')                         AS incomplete,
  coalesce(sum(flash), 0)                                                AS flash_sessions,
  count(flash)                                                           AS flash_judged,
  sum(flash)::double precision / nullif(count(flash), 0)                 AS flash_rate,
  coalesce(sum(premature_hide), 0)                                       AS premature_hide_sessions,
  count(premature_hide)                                                  AS premature_hide_judged,
  sum(premature_hide)::double precision / nullif(count(premature_hide), 0) AS premature_hide_rate,
  coalesce(sum(late_hide), 0)                                            AS late_hide_sessions,
  count(late_hide)                                                       AS late_hide_judged,
  sum(late_hide)::double precision / nullif(count(late_hide), 0)         AS late_hide_rate,
  coalesce(sum(hold_compliant), 0)                                       AS hold_compliant_sessions,
  count(hold_compliant)                                                  AS hold_compliant_judged,
  sum(hold_compliant)::double precision / nullif(count(hold_compliant), 0) AS hold_compliance_rate,
  coalesce(sum(label_violations), 0)                                     AS label_violations,
  count(*) FILTER (WHERE label_violations > 0)                           AS label_violation_sessions,
  count(label_violations)                                                AS label_judged,
  (count(*) FILTER (WHERE label_violations > 0))::double precision
    / nullif(count(label_violations), 0)                                 AS label_violation_rate,
  coalesce(sum(arm_mismatch), 0)                                         AS arm_mismatch_sessions,
  count(arm_mismatch)                                                    AS arm_judged,
  sum(arm_mismatch)::double precision / nullif(count(arm_mismatch), 0)   AS arm_mismatch_rate,
  count(visible_ms)                                                      AS visible_ms_n,
  avg(visible_ms)                                                        AS visible_ms_avg,
  min(visible_ms)                                                        AS visible_ms_min,
  max(visible_ms)                                                        AS visible_ms_max,
  count(arm_distance)                                                    AS arm_distance_n,
  avg(arm_distance)                                                      AS arm_distance_avg,
  min(arm_distance)                                                      AS arm_distance_min,
  max(arm_distance)                                                      AS arm_distance_max
FROM sessions
GROUP BY 1, app, platform, "trigger";

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

CREATE VIEW percentile_inputs AS
SELECT session_id, app, platform, "trigger", pullparity_day(started_at_ms) AS day,
       'arm_distance' AS metric, arm_distance AS value
  FROM sessions WHERE arm_distance IS NOT NULL
UNION ALL
SELECT session_id, app, platform, "trigger", pullparity_day(started_at_ms),
       'client_arm_distance', client_arm_distance
  FROM sessions WHERE client_arm_distance IS NOT NULL
UNION ALL
SELECT session_id, app, platform, "trigger", pullparity_day(started_at_ms),
       'time_to_arm_ms', time_to_arm_ms
  FROM sessions WHERE time_to_arm_ms IS NOT NULL
UNION ALL
SELECT session_id, app, platform, "trigger", pullparity_day(started_at_ms),
       'visible_ms', visible_ms
  FROM sessions WHERE visible_ms IS NOT NULL
UNION ALL
SELECT session_id, app, platform, "trigger", pullparity_day(started_at_ms),
       'load_ms', load_ms
  FROM sessions WHERE load_ms IS NOT NULL;

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
  pullparity_day(s.started_at_ms) AS day
FROM violations v
JOIN sessions s ON s.session_id = v.session_id;

CREATE VIEW quarantine_summary AS
SELECT
  source,
  category,
  count(*) AS lines
FROM quarantine
GROUP BY source, category;
