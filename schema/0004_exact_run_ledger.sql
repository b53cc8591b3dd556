-- PullParity schema, version 4: an exact run ledger and one quarantine row per bad line.
-- Frozen once shipped.

-- What each run accounted for beyond the counters of version 1, so that a run's counters add
-- up to its lines (lines_read = events_stored + duplicates + conflicts + quarantined
-- + already_quarantined + blank_lines) and the sum over runs equals one clean run.
ALTER TABLE ingest_runs ADD COLUMN blank_lines INTEGER NOT NULL DEFAULT 0;
-- Lines of chunks that a run which did not complete had committed: read again, not counted again.
ALTER TABLE ingest_runs ADD COLUMN lines_resumed INTEGER NOT NULL DEFAULT 0;
-- Bad lines (conflicts included) that already had their quarantine row.
ALTER TABLE ingest_runs ADD COLUMN already_quarantined INTEGER NOT NULL DEFAULT 0;
-- When a later open found this run dead (killed) and marked it `interrupted`.
ALTER TABLE ingest_runs ADD COLUMN recovered_at TEXT;

-- The run whose transaction wrote (or last resumed) the chunk; NULL for chunks written before
-- version 4, which count as written by a completed run.
ALTER TABLE ingested_chunks ADD COLUMN run_id INTEGER;

-- A quarantined line is its bytes and why they were refused: the same line under another file
-- name, at another offset, or in another file is the same row. Keep the first of each.
DELETE FROM quarantine
WHERE quarantine_id NOT IN (SELECT min(quarantine_id) FROM quarantine GROUP BY raw_hash, category);
CREATE UNIQUE INDEX quarantine_by_content ON quarantine(raw_hash, category);
