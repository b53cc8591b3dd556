-- The behaviour profiles sessions were derived with, so that reports judge and label sessions
-- with the rules they were derived by, not with whatever profiles the reporting command has.
-- One row per profile name and version in use; `pullparity replay` rewrites the table.
CREATE TABLE profiles (
  name         TEXT    NOT NULL,             -- sessions.profile
  version      INTEGER NOT NULL,             -- sessions.profile_version (0: no profile, no app rules)
  content_hash TEXT    NOT NULL,             -- 16 hex digits: FNV-1a of `definition`
  definition   TEXT    NOT NULL,             -- the profile as JSON, keys sorted (the profile file format)
  stored_at    TEXT    NOT NULL,             -- ISO 8601, UTC: when an ingest or replay first used it
  PRIMARY KEY (name, version)
);
