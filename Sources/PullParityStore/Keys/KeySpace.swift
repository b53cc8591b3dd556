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

  /// Event ids (`event_keys.id_hash`). The open epoch's region of the index takes about 18 bytes a
  /// key, so at 1M keys it is about half this machine's 32 MiB last-level cache: random inserts
  /// into 2M keys (35 MiB) measured about 1 s more CPU per million ids than into the first
  /// million. Smaller epochs make more filters to check and more false positives to look up
  /// (100M random ids make 100 epochs, each one filter check per new id).
  package static let events = KeySpace(
    table: "event_keys", keyColumn: "id_hash", filterTable: "event_key_filters", defaultCapacity: 1_000_000,
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
