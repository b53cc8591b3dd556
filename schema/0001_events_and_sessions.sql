-- PullParity schema, version 1: the raw event log and what is derived from it.
-- Frozen once shipped: later versions add files, they never edit this one.
--
-- The raw log (events, quarantine) is the truth; sessions and violations are projections that
-- `pullparity replay` can rebuild at any time. Times are epoch milliseconds (REAL) unless the
-- column name says otherwise; flags are 0/1, NULL where they do not apply.

CREATE TABLE sources (
  source_id INTEGER PRIMARY KEY,
  name      TEXT NOT NULL UNIQUE          -- path as given on the command line, '-' for stdin
);

CREATE TABLE events (
  event_pk     INTEGER PRIMARY KEY,       -- insertion order: batch by batch, by session within one
  event_id     TEXT    NOT NULL,
  id_hash      INTEGER NOT NULL,          -- 64-bit FNV-1a of event_id (+1, +2… past a collision)
  session_id   TEXT    NOT NULL,
  session_ref  INTEGER NOT NULL,          -- sessions.session_ref of its session
  ts_ms        REAL    NOT NULL,
  seq          INTEGER,
  platform     TEXT    NOT NULL,
  app          TEXT    NOT NULL,
  type         TEXT    NOT NULL,
  source_id    INTEGER NOT NULL REFERENCES sources(source_id),
  line         INTEGER NOT NULL,          -- 1-based
  byte_offset  INTEGER NOT NULL,          -- of the line's first byte in its (decompressed) source
  raw          TEXT    NOT NULL           -- the line as received, without its line end
);
-- Integer keys instead of text ones: random 36-character ids would make every insert a
-- random walk through a text B-tree. id_hash is unique: the insert itself is the duplicate
-- check; the rare id whose hash is taken by another id moves on to the next free value.
CREATE UNIQUE INDEX events_by_id_hash ON events(id_hash);
-- Where a session's events are: ingest writes each batch's events grouped by session, so a
-- session's events in one batch are one run of consecutive event_pk values. A few spans per
-- session replace an index entry per event (measured: the index cost a tenth of ingest time).
CREATE TABLE session_spans (
  session_ref    INTEGER NOT NULL,
  first_event_pk INTEGER NOT NULL,
  last_event_pk  INTEGER NOT NULL,
  PRIMARY KEY (session_ref, first_event_pk)
) WITHOUT ROWID;

-- Chunks of input already written, so that a re-sent file is recognised chunk by chunk and
-- skipped without storing or even parsing its lines again. A chunk is known by where it
-- starts, its lines and a hash of their bytes, under one version of the line rules (a release
-- that reads lines differently ingests them afresh). The counts say what its lines were.
CREATE TABLE ingested_chunks (
  source        TEXT    NOT NULL,         -- source of the chunk's first line
  first_line    INTEGER NOT NULL,
  line_count    INTEGER NOT NULL,
  byte_count    INTEGER NOT NULL,
  content_hash  INTEGER NOT NULL,         -- 64-bit FNV-1a over the lines' bytes
  rules_version INTEGER NOT NULL,
  events        INTEGER NOT NULL,         -- lines that were events, stored or duplicates
  conflicts     INTEGER NOT NULL,
  rejected      INTEGER NOT NULL,
  blank         INTEGER NOT NULL,
  PRIMARY KEY (source, first_line, line_count, byte_count, content_hash, rules_version)
) WITHOUT ROWID;

CREATE TABLE sessions (
  session_ref         INTEGER PRIMARY KEY,   -- first-seen order; events.session_ref points here
  session_id          TEXT    NOT NULL UNIQUE,
  app                 TEXT    NOT NULL,
  profile             TEXT    NOT NULL,
  profile_version     INTEGER NOT NULL,   -- 0: no such profile, derived with no app rules
  platform            TEXT    NOT NULL,
  app_version         TEXT,
  os_version          TEXT,
  device              TEXT,
  screen              TEXT,
  empty               INTEGER NOT NULL,   -- an event said the screen had no content
  outcome             TEXT    NOT NULL,   -- completed | cancelled | incomplete
  final_state         TEXT    NOT NULL,   -- the state machine's last state
  "trigger"           TEXT,               -- pull | tab_reselect | programmatic
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
  arm_mismatch        INTEGER,            -- client armed away from the profile's point
  load_ok             INTEGER,
  max_sample_gap_ms   REAL,               -- longest gap between pull samples
  max_offset_error    REAL,               -- largest |offset − distance × resistance|
  violation_count     INTEGER NOT NULL,
  event_count         INTEGER NOT NULL,
  started_at_ms       REAL    NOT NULL,
  ended_at_ms         REAL    NOT NULL
);

CREATE TABLE violations (
  session_id TEXT    NOT NULL REFERENCES sessions(session_id),
  ordinal    INTEGER NOT NULL,            -- order of finding within the session
  kind       TEXT    NOT NULL,
  ts_ms      REAL    NOT NULL,
  expected   TEXT,
  actual     TEXT,
  PRIMARY KEY (session_id, ordinal)
) WITHOUT ROWID;

CREATE TABLE quarantine (
  quarantine_id INTEGER PRIMARY KEY,
  source        TEXT    NOT NULL,
  line          INTEGER NOT NULL,
  byte_offset   INTEGER NOT NULL,
  category      TEXT    NOT NULL,         -- not_json, missing_field, ..., conflict
  reason        TEXT    NOT NULL,         -- names the field and what was wrong
  raw           TEXT    NOT NULL,         -- the line whole; a BLOB when it is not valid UTF-8
  event_id      TEXT,                     -- for conflicts: the id whose stored version won
  run_id        INTEGER NOT NULL,
  raw_hash      INTEGER NOT NULL,
  -- Re-ingesting the same file must not quarantine the same line twice.
  UNIQUE (source, byte_offset, raw_hash)
);

CREATE TABLE ingest_runs (
  run_id           INTEGER PRIMARY KEY,
  started_at       TEXT    NOT NULL,      -- ISO 8601, UTC
  finished_at      TEXT,
  status           TEXT    NOT NULL,      -- running | completed | interrupted | failed
  sources          TEXT    NOT NULL,      -- JSON array of the sources read
  lines_read       INTEGER NOT NULL DEFAULT 0,
  events_stored    INTEGER NOT NULL DEFAULT 0,
  duplicates       INTEGER NOT NULL DEFAULT 0,
  conflicts        INTEGER NOT NULL DEFAULT 0,
  quarantined      INTEGER NOT NULL DEFAULT 0,
  sessions_derived INTEGER NOT NULL DEFAULT 0,
  duration_ms      REAL,
  tool_version     TEXT    NOT NULL,
  profile_versions TEXT    NOT NULL,      -- JSON object: profile name → version
  parser           TEXT    NOT NULL
);
