internal import GRDB

/// What schema version 5 (`0005_time_ordered_event_keys.sql`) needs from the program: the key
/// function its UPDATE calls, and the unique index rebuilt once keys that coincide are moved.
///
/// Two stored ids may get the same key (a hash collision, or two UUIDv7s of one millisecond
/// whose 16 hash bits agree). Their inserts would have put the later one (by `event_pk`) at
/// the next free value, so that is where it goes: every id stays reachable by probing up from
/// its own key, as `IngestTransaction.store` does.
enum EventKeyMigration {
  static let name = "0005_time_ordered_event_keys"

  static func run(_ db: Database, sql: String) throws {
    try withKeyFunction(db) { try db.execute(sql: sql) }
    do {
      try db.execute(sql: createIndex)
    } catch let error as DatabaseError where error.resultCode == .SQLITE_CONSTRAINT {
      try moveCoincidingKeys(db)
      try db.execute(sql: createIndex)
    }
  }

  /// Runs `body` with `pullparity_event_key(id)` (`EventKey.of`) callable from SQL: schema
  /// versions 5 and 8 key stored rows with it.
  static func withKeyFunction(_ db: Database, _ body: () throws -> Void) throws {
    let keyFunction = DatabaseFunction("pullparity_event_key", argumentCount: 1, pure: true) { values in
      String.fromDatabaseValue(values[0]).map { EventKey.of($0) }
    }
    db.add(function: keyFunction)
    defer { db.remove(function: keyFunction) }
    try body()
  }

  private static let createIndex = "CREATE UNIQUE INDEX events_by_id_hash ON events(id_hash)"

  /// Gives every event after the first (by `event_pk`) of a shared key the next free value.
  private static func moveCoincidingKeys(_ db: Database) throws {
    try db.execute(sql: "CREATE INDEX events_by_id_hash_while_migrating ON events(id_hash)")
    let shared = try Int64.fetchAll(db, sql: "SELECT id_hash FROM events GROUP BY id_hash HAVING count(*) > 1")
    for key in shared {
      let later = try Int64.fetchAll(
        db, sql: "SELECT event_pk FROM events WHERE id_hash = ? ORDER BY event_pk LIMIT -1 OFFSET 1", arguments: [key])
      for eventPK in later {
        var slot = key &+ 1
        let taken = "SELECT EXISTS (SELECT 1 FROM events WHERE id_hash = ?)"
        while try Bool.fetchOne(db, sql: taken, arguments: [slot]) == true {
          slot &+= 1
        }
        try db.execute(sql: "UPDATE events SET id_hash = ? WHERE event_pk = ?", arguments: [slot, eventPK])
      }
    }
    try db.execute(sql: "DROP INDEX events_by_id_hash_while_migrating")
  }
}
