-- PullParity schema, version 7: keys of random event ids by epoch. Frozen once shipped.
--
-- An id that is not a UUIDv7 (a random UUIDv4, a counter, anything another emitter writes)
-- was keyed by its 64-bit hash alone: its key landed anywhere in events_by_id_hash, so once the
-- history outgrew the page cache every transaction rewrote pages across the whole index and a
-- day cost twice as much into ten days of history as into none. Such an id is now keyed in
-- the open key epoch: an epoch's keys share their top 20 bits (the epoch number, from
-- -2^63 up), its low 44 bits are the hash's, so a transaction's random keys land in one
-- region of the index that stays cached. Once an epoch holds KeyEpochs.capacity keys it is
-- closed: its keys go into a Bloom filter (a row here) and a new epoch opens. A random id is
-- looked up in a closed epoch only when that epoch's filter may hold it.
--
-- Epoch 0 is every key stored before this version, wherever it lies: the program fills its
-- filter once, when it applies this migration to a file that has events.
CREATE TABLE event_key_filters (
  epoch  INTEGER PRIMARY KEY,   -- 0: keys stored before version 7; 1, 2, ...: closed epochs
  keys   INTEGER NOT NULL,      -- the keys the filter was built from
  filter BLOB    NOT NULL       -- KeyFilter's bytes: split-block Bloom filter, little-endian words
);
