-- PullParity schema, version 12: runs loaded with their raw events left in the run directory.
-- Frozen once shipped.
--
-- At a billion events a day the compressed raw lines are about 30 GB of SQLite a day, which a
-- distributed run already keeps in its own output. `pullparity load --leave-events DIR` stores
-- the run's sessions, violations, quarantine, profiles and counts, and only where the events
-- are: `session` and `replay` read them back from DIR when asked (`--read-events`).

CREATE TABLE left_event_runs (
  run_id    INTEGER PRIMARY KEY,        -- ingest_runs.run_id of the load
  directory TEXT    NOT NULL,           -- the run directory's absolute path when it was loaded
  events    INTEGER NOT NULL,           -- the run's event rows, left there
  files     TEXT    NOT NULL            -- JSON array: the part files of json/events, name order
);
-- A load of the same directory again replaces the sessions of the loads before.
CREATE INDEX left_event_runs_by_directory ON left_event_runs(directory);

-- Sessions whose events are in a run directory, not in event_blocks: which run, and which of
-- its part files (indices into `files`, both included) hold their rows.
CREATE TABLE left_event_sessions (
  session_ref INTEGER PRIMARY KEY,
  run_id      INTEGER NOT NULL REFERENCES left_event_runs(run_id),
  first_file  INTEGER NOT NULL,
  last_file   INTEGER NOT NULL
);
