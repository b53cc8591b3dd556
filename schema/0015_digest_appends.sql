-- PullParity schema, version 15: a day's digests extended by the sessions added to it since
-- they were counted, instead of counted again whole. Frozen once shipped.
--
-- Issue 41: a day of events into a history whose days overlap it spent 0.79-0.89 s counting
-- the day's 164,478 sessions into digests again, of which 27,489 were new. Digests merge
-- exactly: the digest of a day's sessions counted up to some session_ref, extended by those
-- after it in session_ref order, is the digest of them all, byte for byte (values are
-- appended in that order, tallies keep the smallest failing ids). That holds while the
-- sessions counted are left as they were, since any stored later has a ref above them (refs
-- are handed out above the largest stored, unless a writer chooses one itself). What breaks
-- it, the triggers below record, and such a day is counted whole. Only writers read this
-- table: a read-only command still reads a file without this version
-- (Schema.notNeededToRead).

-- One row per day whose digests this version counted.
CREATE TABLE digested_days (
  day              INTEGER PRIMARY KEY,  -- as in session_digests
  last_session_ref INTEGER NOT NULL,     -- the largest session_ref counted into the day's digests
  changed          INTEGER NOT NULL      -- 1: a session at or below it was written since
);

DROP TRIGGER sessions_stale_on_insert;
DROP TRIGGER sessions_stale_on_update;
DROP TRIGGER sessions_stale_on_delete;

-- A session written at or below the ref its day was counted through (inserted, updated,
-- deleted, or moved in or out of the day) changes what was counted: only a whole count gets
-- it right. A session stored after the count may change freely (one whose events span an
-- ingest's transactions is inserted, then updated): the extension counts it as it is then.
CREATE TRIGGER sessions_stale_on_insert AFTER INSERT ON sessions BEGIN
  INSERT OR IGNORE INTO stale_digest_days VALUES (CAST(NEW.started_at_ms / 86400000 AS INTEGER));
  UPDATE digested_days SET changed = 1
  WHERE day = CAST(NEW.started_at_ms / 86400000 AS INTEGER) AND last_session_ref >= NEW.session_ref;
END;
CREATE TRIGGER sessions_stale_on_update AFTER UPDATE ON sessions BEGIN
  INSERT OR IGNORE INTO stale_digest_days VALUES (CAST(OLD.started_at_ms / 86400000 AS INTEGER));
  INSERT OR IGNORE INTO stale_digest_days VALUES (CAST(NEW.started_at_ms / 86400000 AS INTEGER));
  UPDATE digested_days SET changed = 1
  WHERE day = CAST(OLD.started_at_ms / 86400000 AS INTEGER) AND last_session_ref >= OLD.session_ref;
  UPDATE digested_days SET changed = 1
  WHERE day = CAST(NEW.started_at_ms / 86400000 AS INTEGER) AND last_session_ref >= NEW.session_ref;
END;
CREATE TRIGGER sessions_stale_on_delete AFTER DELETE ON sessions BEGIN
  INSERT OR IGNORE INTO stale_digest_days VALUES (CAST(OLD.started_at_ms / 86400000 AS INTEGER));
  UPDATE digested_days SET changed = 1
  WHERE day = CAST(OLD.started_at_ms / 86400000 AS INTEGER) AND last_session_ref >= OLD.session_ref;
END;
