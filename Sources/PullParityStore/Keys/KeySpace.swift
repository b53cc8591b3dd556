/// A table whose rows are found by a key that follows time (`EventKey`) or, for a random id,
/// by its epoch (`KeyEpochs`): where the keys are, and where the closed epochs' filters are.
package struct KeySpace: Sendable, Equatable {
  let table: String
  let keyColumn: String
  let filterTable: String
  /// Keys per epoch unless told otherwise: see each space.
  let defaultCapacity: Int
  /// The schema version whose migration fills epoch 0 (the random keys stored before it).
  let migrationName: String

  /// Event ids (`event_keys.id_hash`). The open epoch's region of the index takes about 21 bytes
  /// a key, and every transaction that stores random ids rewrites most of its pages (into the
  /// WAL, then the file): at 1M keys a million-id ingest spent 0.28–0.36 s committing, at 512K
  /// 0.06–0.10 s, as for UUIDv7 ids. Smaller epochs make more filters to check for each new id,
  /// side by side (`KeyFilterMatrix`: 32 bytes an epoch): at 256K, a day into five days of
  /// random ids spent 0.3–0.7 s more on them than at 512K. 100M random ids make 190 epochs.
  package static let events = KeySpace(
    table: "event_keys", keyColumn: "id_hash", filterTable: "event_key_filters", defaultCapacity: 524_288,
    migrationName: "0007_key_epochs")

  /// Event ids as schema versions 7 to 10 kept them, for the migration that fills epoch 0.
  static let eventsUntilVersion11 = KeySpace(
    table: "events", keyColumn: "id_hash", filterTable: "event_key_filters", defaultCapacity: 1_000_000,
    migrationName: "0007_key_epochs")

  /// Session ids (`sessions.session_key`). An entry of `sessions_by_key` takes about 55 bytes
  /// (the key and the id's text): 64K keys make a region of about 110 pages of 32 KiB, which a
  /// transaction's new sessions rewrite, where a day of 1M events brings about 27,000 sessions.
  /// A session is looked up once per transaction, so filters are checked far less often than
  /// for events.
  package static let sessions = KeySpace(
    table: "sessions", keyColumn: "session_key", filterTable: "session_key_filters", defaultCapacity: 65_536,
    migrationName: "0008_session_keys")
}
