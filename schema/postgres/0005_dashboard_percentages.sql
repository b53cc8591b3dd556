-- Schema 10 of the SQLite file (schema/0010_dashboard_percentages.sql): every rate of
-- daily_parity also as a percentage with two decimals, after the columns the view had.
-- numeric, not double precision, so that the rounding is decimal as SQLite's round() is.
CREATE FUNCTION pullparity_pct(part bigint, whole bigint) RETURNS double precision
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN round(100 * part::numeric / nullif(whole, 0), 2)::double precision;

CREATE OR REPLACE VIEW daily_parity AS
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
  max(arm_distance)                                                      AS arm_distance_max,
  coalesce(sum(stuck_refresh), 0)                                        AS stuck_refresh_sessions,
  count(stuck_refresh)                                                   AS stuck_refresh_judged,
  sum(stuck_refresh)::double precision / nullif(count(stuck_refresh), 0) AS stuck_refresh_rate,
  coalesce(sum(dropped_refresh), 0)                                      AS dropped_refresh_sessions,
  count(dropped_refresh)                                                 AS dropped_refresh_judged,
  sum(dropped_refresh)::double precision / nullif(count(dropped_refresh), 0) AS dropped_refresh_rate,
  coalesce(sum(repeated_refresh), 0)                                     AS repeated_refresh_sessions,
  count(repeated_refresh)                                                AS repeated_refresh_judged,
  sum(repeated_refresh)::double precision / nullif(count(repeated_refresh), 0) AS repeated_refresh_rate,
  coalesce(sum(near_miss), 0)                                            AS near_miss_cancels,
  count(near_miss)                                                       AS near_miss_judged,
  sum(near_miss)::double precision / nullif(count(near_miss), 0)         AS near_miss_rate,
  pullparity_pct(sum(flash), count(flash)) AS flash_pct,
  pullparity_pct(sum(premature_hide), count(premature_hide)) AS premature_hide_pct,
  pullparity_pct(sum(late_hide), count(late_hide)) AS late_hide_pct,
  pullparity_pct(sum(hold_compliant), count(hold_compliant)) AS hold_compliance_pct,
  pullparity_pct(count(*) FILTER (WHERE label_violations > 0), count(label_violations)) AS label_violation_pct,
  pullparity_pct(sum(arm_mismatch), count(arm_mismatch)) AS arm_mismatch_pct,
  pullparity_pct(sum(stuck_refresh), count(stuck_refresh)) AS stuck_refresh_pct,
  pullparity_pct(sum(dropped_refresh), count(dropped_refresh)) AS dropped_refresh_pct,
  pullparity_pct(sum(repeated_refresh), count(repeated_refresh)) AS repeated_refresh_pct,
  pullparity_pct(sum(near_miss), count(near_miss)) AS near_miss_pct
FROM sessions
GROUP BY 1, app, platform, "trigger";
