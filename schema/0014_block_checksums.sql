-- PullParity schema, version 14: a checksum on every stored block, and the quarantine's lines
-- in compressed blocks. Frozen once shipped.
--
-- Contract v1.2 (docs/events.md §8): every stored block, raw or quarantined, carries a checksum
-- that every read verifies, so that damage is reported and never returned as data. zstd's own
-- content checksum would miss a flipped bit in the frame header or in the stored row's
-- `raw_bytes`: the checksum is XXH3-64 of the stored blob, `data` as a whole, computed before
-- the row is written and compared before a byte of it is decompressed (BlockChecksum.swift).
-- Blocks written before this version have none (NULL): they are read as before, with one
-- warning on stderr per command, and get one when `retain` rewrites them (docs/upgrading.md);
-- `pullparity verify` reads every block and lists the damage.
ALTER TABLE event_blocks ADD COLUMN checksum INTEGER;

-- Until this version a quarantined line was a row with its whole line, its reason and its
-- source's name, plus two unique indexes over them: about 570 bytes a line for conflicts (a
-- client that resends edited events), 8 times a stored event. The lines are now kept in zstd
-- blocks written per ingest transaction, like the events' (at most 512 KiB or 4,096 lines
-- each), and the row keeps what SQL readers select by: `quarantine` is a view with the
-- columns it had as a table.
CREATE TABLE quarantine_blocks (
  block_id  INTEGER PRIMARY KEY AUTOINCREMENT,
  run_id    INTEGER NOT NULL,           -- the run that wrote it
  lines     INTEGER NOT NULL,
  raw_bytes INTEGER NOT NULL,           -- its size once decompressed
  checksum  INTEGER NOT NULL,           -- XXH3-64 of `data`
  data      BLOB    NOT NULL            -- one zstd frame (QuarantineBlock.swift: the layout)
);

CREATE TABLE quarantined_lines (
  quarantine_id INTEGER PRIMARY KEY,
  source_id     INTEGER NOT NULL REFERENCES sources(source_id),
  line          INTEGER NOT NULL,
  byte_offset   INTEGER NOT NULL,
  category      TEXT    NOT NULL,
  reason        TEXT,                   -- NULL for a conflict: the view says it from event_id
  event_id      TEXT,
  run_id        INTEGER NOT NULL,
  raw_hash      INTEGER NOT NULL,
  block_id      INTEGER,                -- quarantine_blocks: the line is in this block's slot;
  slot          INTEGER,                -- NULL: it is in `raw`
  raw                                   -- rows written before version 14 or through the view;
                                        -- TEXT, or a BLOB when it is not valid UTF-8
);
-- A quarantined line is its bytes and its category (schema version 4).
CREATE UNIQUE INDEX quarantined_lines_by_content ON quarantined_lines(raw_hash, category);

INSERT OR IGNORE INTO sources (name) SELECT DISTINCT source FROM quarantine;
INSERT INTO quarantined_lines (quarantine_id, source_id, line, byte_offset, category, reason, event_id, run_id,
                               raw_hash, raw)
SELECT q.quarantine_id, s.source_id, q.line, q.byte_offset, q.category, q.reason, q.event_id, q.run_id, q.raw_hash,
       q.raw
FROM quarantine q JOIN sources s ON s.name = q.source
ORDER BY q.quarantine_id;

DROP VIEW quarantine_summary;
DROP TABLE quarantine;

-- The table's columns, for dashboards and SQL readers; `raw` is NULL for a line kept in a block
-- (`pullparity quarantine` reads it back, checked), block_id and slot say where it is.
CREATE VIEW quarantine AS
SELECT
  q.quarantine_id,
  s.name AS source,
  q.line,
  q.byte_offset,
  q.category,
  coalesce(q.reason,
           'event_id "' || q.event_id || '" is already stored with other content; the stored version is kept')
    AS reason,
  q.raw,
  q.event_id,
  q.run_id,
  q.raw_hash,
  q.block_id,
  q.slot
FROM quarantined_lines q JOIN sources s ON s.source_id = q.source_id;

-- What inserted a row into the table inserts one into `quarantined_lines`, its line in `raw`.
CREATE TRIGGER quarantine_insert INSTEAD OF INSERT ON quarantine
BEGIN
  INSERT OR IGNORE INTO sources (name) VALUES (NEW.source);
  INSERT OR IGNORE INTO quarantined_lines (quarantine_id, source_id, line, byte_offset, category, reason, event_id,
                                           run_id, raw_hash, raw)
  VALUES (NEW.quarantine_id, (SELECT source_id FROM sources WHERE name = NEW.source), NEW.line, NEW.byte_offset,
          NEW.category, NEW.reason, NEW.event_id, NEW.run_id, NEW.raw_hash, NEW.raw);
END;

-- As in version 2.
CREATE VIEW quarantine_summary AS
SELECT
  source,
  category,
  count(*) AS lines
FROM quarantine
GROUP BY source, category;
