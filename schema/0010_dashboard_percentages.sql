-- PullParity schema, version 10: every rate of daily_parity also as a percentage. Frozen once shipped.
--
-- A dashboard shows `5.36` where the rate column holds 0.05356125356125356: `<rate>_pct` is
-- 100 x the rate rounded to two decimals, NULL when nothing was judged, as the report rounds it.
-- The columns go after the ones the view had, which keep their names, order and values, so a
-- query or dashboard written for version 9 reads the view as before. To combine rows, still
-- divide the sums of `..._sessions` by the sums of `..._judged`: percentages do not add up.
DROP VIEW daily_parity;
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
  coalesce(sum(label_violations), 0)                 AS label_violations,
  coalesce(sum(label_violations > 0), 0)             AS label_violation_sessions,
  count(label_violations)                            AS label_judged,
  1.0 * sum(label_violations > 0) / count(label_violations) AS label_violation_rate,
  coalesce(sum(arm_mismatch), 0)                     AS arm_mismatch_sessions,
  count(arm_mismatch)                                AS arm_judged,
  1.0 * sum(arm_mismatch) / count(arm_mismatch)      AS arm_mismatch_rate,
  count(visible_ms)                                  AS visible_ms_n,
  avg(visible_ms)                                    AS visible_ms_avg,
  min(visible_ms)                                    AS visible_ms_min,
  max(visible_ms)                                    AS visible_ms_max,
  count(arm_distance)                                AS arm_distance_n,
  avg(arm_distance)                                  AS arm_distance_avg,
  min(arm_distance)                                  AS arm_distance_min,
  max(arm_distance)                                  AS arm_distance_max,
  coalesce(sum(stuck_refresh), 0)                    AS stuck_refresh_sessions,
  count(stuck_refresh)                               AS stuck_refresh_judged,
  1.0 * sum(stuck_refresh) / count(stuck_refresh)    AS stuck_refresh_rate,
  coalesce(sum(dropped_refresh), 0)                  AS dropped_refresh_sessions,
  count(dropped_refresh)                             AS dropped_refresh_judged,
  1.0 * sum(dropped_refresh) / count(dropped_refresh) AS dropped_refresh_rate,
  coalesce(sum(repeated_refresh), 0)                 AS repeated_refresh_sessions,
  count(repeated_refresh)                            AS repeated_refresh_judged,
  1.0 * sum(repeated_refresh) / count(repeated_refresh) AS repeated_refresh_rate,
  coalesce(sum(near_miss), 0)                        AS near_miss_cancels,
  count(near_miss)                                   AS near_miss_judged,
  1.0 * sum(near_miss) / count(near_miss)            AS near_miss_rate,
  round(100.0 * sum(flash) / count(flash), 2)                            AS flash_pct,
  round(100.0 * sum(premature_hide) / count(premature_hide), 2)          AS premature_hide_pct,
  round(100.0 * sum(late_hide) / count(late_hide), 2)                    AS late_hide_pct,
  round(100.0 * sum(hold_compliant) / count(hold_compliant), 2)          AS hold_compliance_pct,
  round(100.0 * sum(label_violations > 0) / count(label_violations), 2)  AS label_violation_pct,
  round(100.0 * sum(arm_mismatch) / count(arm_mismatch), 2)              AS arm_mismatch_pct,
  round(100.0 * sum(stuck_refresh) / count(stuck_refresh), 2)            AS stuck_refresh_pct,
  round(100.0 * sum(dropped_refresh) / count(dropped_refresh), 2)        AS dropped_refresh_pct,
  round(100.0 * sum(repeated_refresh) / count(repeated_refresh), 2)      AS repeated_refresh_pct,
  round(100.0 * sum(near_miss) / count(near_miss), 2)                    AS near_miss_pct
FROM sessions
GROUP BY day, app, platform, "trigger";
