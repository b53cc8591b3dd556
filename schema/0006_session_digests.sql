-- PullParity schema, version 6: digests of sessions by day, for reports on a long history.
-- Frozen once shipped.
--
-- A report reads every selected session once; on a history of 100M events that is millions of
-- rows. session_digests holds, per UTC day and per cell (app, profile and version, platform,
-- trigger, screen, app version: everything a report groups or filters on except time), what
-- a report needs of those sessions: counts, every value of the distribution metrics, rates,
-- rule tallies with their first failing ids. Digests are derived like sessions and can be
-- rebuilt from them at any time: the program writes them (PullParityReport's SessionDigest)
-- after every ingest, replay and load, for the days in stale_digest_days.
CREATE TABLE session_digests (
  day             INTEGER NOT NULL,   -- CAST(started_at_ms / 86400000 AS INTEGER): the UTC day
  app             TEXT    NOT NULL,
  profile         TEXT    NOT NULL,
  profile_version INTEGER NOT NULL,
  platform        TEXT    NOT NULL,
  "trigger"       TEXT,
  screen          TEXT,
  app_version     TEXT,
  sessions        INTEGER NOT NULL,   -- sessions in the digest, and of them:
  completed       INTEGER NOT NULL,
  cancelled       INTEGER NOT NULL,
  incomplete      INTEGER NOT NULL,
  digest_version  INTEGER NOT NULL,   -- the encoding and the rules it was counted with
  digest          BLOB    NOT NULL    -- opaque: read through the program
);
CREATE INDEX session_digests_by_day ON session_digests(day);

-- Days whose digests no longer match their sessions. Triggers add a day whenever a session
-- of that day is written by anyone; the program rebuilds those days and empties the table. A
-- report reads the sessions of stale days itself, so it is exact whether or not the digests
-- are up to date. A session's violations are only ever written with its row (violation_count
-- counts them), so no trigger on violations is needed: measured, one cost 0.17 s per million
-- events ingested.
CREATE TABLE stale_digest_days (day INTEGER PRIMARY KEY);
INSERT OR IGNORE INTO stale_digest_days
  SELECT DISTINCT CAST(started_at_ms / 86400000 AS INTEGER) FROM sessions;

-- The sessions of one day, for rebuilding its digests.
CREATE INDEX sessions_by_start ON sessions(started_at_ms);

CREATE TRIGGER sessions_stale_on_insert AFTER INSERT ON sessions BEGIN
  INSERT OR IGNORE INTO stale_digest_days VALUES (CAST(NEW.started_at_ms / 86400000 AS INTEGER));
END;
CREATE TRIGGER sessions_stale_on_update AFTER UPDATE ON sessions BEGIN
  INSERT OR IGNORE INTO stale_digest_days VALUES (CAST(OLD.started_at_ms / 86400000 AS INTEGER));
  INSERT OR IGNORE INTO stale_digest_days VALUES (CAST(NEW.started_at_ms / 86400000 AS INTEGER));
END;
CREATE TRIGGER sessions_stale_on_delete AFTER DELETE ON sessions BEGIN
  INSERT OR IGNORE INTO stale_digest_days VALUES (CAST(OLD.started_at_ms / 86400000 AS INTEGER));
END;
