-- PullParity schema, version 11: raw events in compressed blocks. Frozen once shipped.
--
-- Until version 10 every stored event was a row of `events`: its raw line and its typed
-- columns, 458 bytes an event on the 1M-event benchmark log (287 bytes a line). The lines are
-- now kept in zstd-compressed blocks of about 64 KiB, each with a directory of its lines'
-- session, source, line number, byte offset, time and key (about 40 bytes an event all told),
-- and one small row per event says in which block and slot its id is, for exact deduplication.
-- Each ingest transaction writes its lines grouped by session, so a session's events are a few
-- blocks (`session_blocks`). `pullparity export` reads the lines back as JSON lines.
-- The program fills these tables from `events` and then drops it (see the end of this file).

CREATE TABLE event_blocks (
  block_id    INTEGER PRIMARY KEY AUTOINCREMENT, -- write order; never reused (event_keys of
                                        -- dropped blocks still name theirs)
  run_id      INTEGER,                  -- the ingest or load run that wrote it; NULL: converted
  lines       INTEGER NOT NULL,
  first_ts_ms REAL    NOT NULL,         -- its lines' earliest and latest event time
  last_ts_ms  REAL    NOT NULL,
  raw_bytes   INTEGER NOT NULL,         -- the block's size once decompressed
  data        BLOB    NOT NULL          -- one zstd frame (RawBlockBuilder.swift: the layout)
);
-- What `retain --before` drops and `export --since/--until` skips: a few thousand rows per
-- million events.
CREATE INDEX event_blocks_by_last_ts ON event_blocks(last_ts_ms);

-- One row per stored event: its key (EventKey.swift, as events.id_hash was) and where its line
-- is. The key is the rowid, so a new event costs one insert into one B-tree, which is also the
-- duplicate check.
CREATE TABLE event_keys (
  id_hash  INTEGER PRIMARY KEY,
  block_id INTEGER NOT NULL,
  slot     INTEGER NOT NULL             -- the line's index in its block, from 0
);

-- The blocks that hold a session's events (session_spans' successor).
CREATE TABLE session_blocks (
  session_ref INTEGER NOT NULL,
  block_id    INTEGER NOT NULL,
  PRIMARY KEY (session_ref, block_id)
) WITHOUT ROWID;

-- Sessions that logged a `label` event: reports tell "no wrong label" from "no label to check"
-- (SessionRecordColumns.swift), which read the events' types until now.
CREATE TABLE labelled_sessions (
  session_ref INTEGER PRIMARY KEY
);

-- What `pullparity retain` dropped: one row per run of it.
CREATE TABLE retention_runs (
  retention_id INTEGER PRIMARY KEY,
  retained_at  TEXT    NOT NULL,        -- ISO 8601, UTC
  before_ms    REAL    NOT NULL,        -- sessions whose every event is older lost their lines
  blocks       INTEGER NOT NULL,        -- blocks deleted whole
  blocks_rewritten INTEGER NOT NULL,    -- blocks whose kept lines went into new blocks
  events       INTEGER NOT NULL,
  bytes        INTEGER NOT NULL,        -- compressed bytes freed (less the blocks written anew)
  sessions     INTEGER NOT NULL         -- sessions that lost their raw events
);

-- Sessions whose raw events were dropped: their derived rows stay as they were, and
-- replay and `session` say they can no longer be derived again.
CREATE TABLE sessions_without_raw (
  session_ref  INTEGER PRIMARY KEY,
  retention_id INTEGER NOT NULL REFERENCES retention_runs(retention_id)
);

INSERT INTO labelled_sessions SELECT DISTINCT session_ref FROM events WHERE type = 'label';
DROP TABLE session_spans;

-- The rows of `events` are left to the program, which moves them into blocks in batches, each
-- its own transaction that also deletes the rows it moved (RawEventConversion.swift), and drops
-- the table once it is empty (at once when it is). A file that still has `events_to_convert` is
-- half converted: the next write goes on where the last one stopped, and read-only commands
-- refuse it until then. Its id index is not needed for that, and would cost every delete.
DROP INDEX events_by_id_hash;
ALTER TABLE events RENAME TO events_to_convert;
