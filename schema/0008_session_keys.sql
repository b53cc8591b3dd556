-- PullParity schema, version 8: sessions and violations found by keys that follow time.
-- Frozen once shipped.
--
-- Measured on daily runs of random (UUIDv4) session ids: the unique index on
-- sessions.session_id and the violations table (keyed by session_id) took a day's new sessions
-- at random places, so every transaction rewrote nearly all their pages. A day of 1M events
-- into 21 days of history wrote 277 MB of WAL for those two alone (21 MB into one day), and
-- the cost of a day grew with the history.
--
-- * sessions.session_key places a session in the unique index (session_key, session_id): a
--   UUIDv7 session id is keyed by its time (EventKey, as events are), any other id in the open
--   session key epoch (KeyEpochs, as random event ids are; closed epochs' Bloom filters are in
--   session_key_filters). A day's new sessions land in one small region of the index.
--   session_id alone is no longer indexed: the program looks sessions up by key.
-- * violations are keyed by (session_ref, ordinal): refs are handed out in first-seen order,
--   so a day's findings are appended. session_id stays, for queries that read it.
--
-- Sessions stored before this version keep the key pullparity_event_key gives their id (the
-- time for a UUIDv7, the 64-bit hash for any other: epoch 0, whose filter the program fills
-- when it applies this file).

CREATE TABLE session_key_filters (
  epoch  INTEGER PRIMARY KEY,   -- 0: random ids stored before version 8; 1, 2, ...: closed epochs
  keys   INTEGER NOT NULL,      -- the keys the filter was built from
  filter BLOB    NOT NULL       -- KeyFilter's bytes, as in event_key_filters
);

-- A table's constraints cannot be dropped in SQLite: both tables are rebuilt. The views that
-- join the two are recreated below; legacy_alter_table keeps the rename from re-checking the
-- views that read sessions alone (daily_parity, percentile_inputs), which read the new table
-- by name unchanged.
DROP VIEW violation_counts;
DROP VIEW session_violations;

-- The key's columns come first: SQLite 3.40's integrity_check reports NULLs in the NOT NULL
-- columns of a WITHOUT ROWID table whose key columns are declared after them.
CREATE TABLE violations_v8 (
  session_ref INTEGER NOT NULL REFERENCES sessions(session_ref),
  ordinal     INTEGER NOT NULL,         -- order of finding within the session
  session_id  TEXT    NOT NULL,
  kind        TEXT    NOT NULL,
  ts_ms       REAL    NOT NULL,
  expected    TEXT,
  actual      TEXT,
  PRIMARY KEY (session_ref, ordinal)
) WITHOUT ROWID;
INSERT INTO violations_v8 (session_ref, ordinal, session_id, kind, ts_ms, expected, actual)
  SELECT s.session_ref, v.ordinal, v.session_id, v.kind, v.ts_ms, v.expected, v.actual
  FROM violations v JOIN sessions s ON s.session_id = v.session_id;

CREATE TABLE sessions_v8 (
  session_ref         INTEGER PRIMARY KEY,   -- first-seen order; events.session_ref points here
  session_id          TEXT    NOT NULL,
  app                 TEXT    NOT NULL,
  profile             TEXT    NOT NULL,
  profile_version     INTEGER NOT NULL,
  platform            TEXT    NOT NULL,
  app_version         TEXT,
  os_version          TEXT,
  device              TEXT,
  screen              TEXT,
  empty               INTEGER NOT NULL,
  outcome             TEXT    NOT NULL,
  final_state         TEXT    NOT NULL,
  "trigger"           TEXT,
  time_to_arm_ms      REAL,
  arm_distance        REAL,
  client_arm_distance REAL,
  release_distance    REAL,
  load_ms             REAL,
  visible_ms          REAL,
  flash               INTEGER,
  premature_hide      INTEGER,
  late_hide           INTEGER,
  hold_compliant      INTEGER,
  label_violations    INTEGER,
  arm_mismatch        INTEGER,
  load_ok             INTEGER,
  max_sample_gap_ms   REAL,
  max_offset_error    REAL,
  violation_count     INTEGER NOT NULL,
  event_count         INTEGER NOT NULL,
  started_at_ms       REAL    NOT NULL,
  ended_at_ms         REAL    NOT NULL,
  session_key         INTEGER NOT NULL    -- where the session is in sessions_by_key
);
-- pullparity_event_key is EventKey.of, registered by the program for this migration.
INSERT INTO sessions_v8 SELECT *, pullparity_event_key(session_id) FROM sessions;

PRAGMA legacy_alter_table = ON;
DROP TABLE violations;
DROP TABLE sessions;
ALTER TABLE violations_v8 RENAME TO violations;
ALTER TABLE sessions_v8 RENAME TO sessions;
PRAGMA legacy_alter_table = OFF;

CREATE UNIQUE INDEX sessions_by_key ON sessions(session_key, session_id);

-- What dropping the old table took with it, as version 6 made it.
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

-- Version 2's views, joined on the ref.
CREATE VIEW violation_counts AS
SELECT
  s.app,
  s.platform,
  v.kind,
  count(*)                      AS violations,
  count(DISTINCT v.session_ref) AS sessions_affected,
  min(v.ts_ms)                  AS first_ts_ms,
  max(v.ts_ms)                  AS last_ts_ms
FROM violations v
JOIN sessions s ON s.session_ref = v.session_ref
GROUP BY s.app, s.platform, v.kind;

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
JOIN sessions s ON s.session_ref = v.session_ref;
