-- PullParity schema, version 5: event keys that follow time. Frozen once shipped.
--
-- events.id_hash is the unique key every insert's duplicate check descends. It was a 64-bit
-- hash of event_id: new keys landed at random all over the index, so each transaction
-- rewrote pages across all of it and a day's ingest slowed down as the history grew. A
-- UUIDv7 (what the recorders write) is now keyed by its milliseconds first, then 16 bits of
-- the hash (EventKey.swift), so a day's keys land at the end of the index; any other id keeps
-- its hash. The column keeps its name: columns are never renamed.
DROP INDEX events_by_id_hash;
-- pullparity_event_key is EventKey.of, registered by the program for this migration.
UPDATE events SET id_hash = pullparity_event_key(event_id);
-- The program then recreates the unique index, after moving the rare ids whose keys coincide
-- to the next free value in event_pk order (what their inserts would have done):
--   CREATE UNIQUE INDEX events_by_id_hash ON events(id_hash);
