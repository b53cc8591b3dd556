-- PullParity schema, version 13: contract v1.2, the screen left during a refresh, and pending
-- judgements. Frozen once shipped.
--
-- `sessions.outcome` may now be `abandoned` (a `screen_left` while refreshing or holding); the
-- column is TEXT and needs no change. The digests count abandoned sessions beside the other
-- outcomes (digests of an older version are rebuilt by the next write, which fills it).
ALTER TABLE session_digests ADD COLUMN abandoned INTEGER NOT NULL DEFAULT 0;

-- daily_parity keeps every column it had, in order, and adds after them: the abandoned
-- sessions; *abandoned during refresh* (abandoned sessions over sessions with a refresh) as
-- sessions / judged / rate / pct like the other rates; and the pending judgements (sessions whose
-- stuck or dropped refresh waits for the data, and the latest time the data must reach, epoch
-- ms). Pending sessions are in no rate: a dashboard shows them beside the rates, never as a pass.
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
  round(100.0 * sum(near_miss) / count(near_miss), 2)                    AS near_miss_pct,
  sum(outcome = 'abandoned')                         AS abandoned,
  sum(outcome = 'abandoned' AND refresh_started_at_ms IS NOT NULL) AS abandoned_during_refresh_sessions,
  count(refresh_started_at_ms)                       AS abandoned_during_refresh_judged,
  1.0 * sum(outcome = 'abandoned' AND refresh_started_at_ms IS NOT NULL) / count(refresh_started_at_ms)
                                                     AS abandoned_during_refresh_rate,
  round(100.0 * sum(outcome = 'abandoned' AND refresh_started_at_ms IS NOT NULL) / count(refresh_started_at_ms), 2)
                                                     AS abandoned_during_refresh_pct,
  count(judge_again_at_ms)                           AS pending_sessions,
  max(judge_again_at_ms)                             AS pending_until_ms
FROM sessions
GROUP BY day, app, platform, "trigger";
