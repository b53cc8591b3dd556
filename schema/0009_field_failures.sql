-- PullParity schema, version 9: the failures users file (contract v1.1). Frozen once shipped.
--
-- Sessions gain the v1.1 rules' flags (0/1, NULL where the rule does not apply or cannot be
-- judged yet), the install that sent them, and what the rules that look past one session need:
-- when its refresh started and ended, and from when a judgement still open can be made.
-- Existing rows get NULLs; `pullparity replay` derives them again with the new rules.
ALTER TABLE sessions ADD COLUMN install_id            TEXT;    -- the first install_id its events carry
ALTER TABLE sessions ADD COLUMN gesture_observed      INTEGER; -- pull refreshes: 0 when only onRefresh was recorded
ALTER TABLE sessions ADD COLUMN stuck_refresh         INTEGER; -- indicator still up stuck_after_ms after refresh_start
ALTER TABLE sessions ADD COLUMN dropped_refresh       INTEGER; -- armed release, no refresh_start within refresh_within_ms
ALTER TABLE sessions ADD COLUMN repeated_refresh      INTEGER; -- refresh within repeat_within_ms of the last one's end
ALTER TABLE sessions ADD COLUMN near_miss             INTEGER; -- cancelled pull that reached 80 % of the threshold
ALTER TABLE sessions ADD COLUMN refresh_started_at_ms REAL;
ALTER TABLE sessions ADD COLUMN refresh_ended_at_ms   REAL;    -- its indicator_hidden
ALTER TABLE sessions ADD COLUMN judge_again_at_ms     REAL;    -- a stuck or dropped refresh is decided once the data passes this

-- How far each app and platform's data has moved: the newest session end, found at the end of
-- this index. A stuck or dropped refresh is judged only once it passes the rule's time, so a
-- session at the edge of a log is not judged yet. An index rather than a table kept by a
-- trigger: measured on 1M events, the trigger's upsert per session cost 0.3 s of the writer's
-- time, the index a fraction of it.
CREATE INDEX sessions_by_app_platform_end ON sessions(app, platform, ended_at_ms);

-- Installs whose sessions were written since their repeated refreshes were last judged: the
-- program judges them again and empties the table, as it does stale_digest_days.
CREATE TABLE installs_to_judge (install_id TEXT PRIMARY KEY) WITHOUT ROWID;

CREATE TRIGGER sessions_install_on_insert AFTER INSERT ON sessions WHEN NEW.install_id IS NOT NULL BEGIN
  INSERT OR IGNORE INTO installs_to_judge VALUES (NEW.install_id);
END;
CREATE TRIGGER sessions_install_on_update AFTER UPDATE OF refresh_started_at_ms, refresh_ended_at_ms, install_id,
  screen ON sessions WHEN NEW.install_id IS NOT NULL OR OLD.install_id IS NOT NULL BEGIN
  INSERT OR IGNORE INTO installs_to_judge SELECT NEW.install_id WHERE NEW.install_id IS NOT NULL;
  INSERT OR IGNORE INTO installs_to_judge SELECT OLD.install_id WHERE OLD.install_id IS NOT NULL;
END;

-- One install's refreshes on one screen in order, for the repeated refresh rule.
CREATE INDEX sessions_by_install ON sessions(install_id, screen, refresh_started_at_ms)
  WHERE install_id IS NOT NULL;
-- The sessions whose judgement waits for their data to move on.
CREATE INDEX sessions_awaiting_judgement ON sessions(app, platform, judge_again_at_ms)
  WHERE judge_again_at_ms IS NOT NULL;

-- The dashboard's daily view, with the v1.1 rules' rates after the columns it had.
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
  1.0 * sum(near_miss) / count(near_miss)            AS near_miss_rate
FROM sessions
GROUP BY day, app, platform, "trigger";
