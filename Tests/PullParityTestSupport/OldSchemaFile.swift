import Foundation
package import GRDB
import PullParitySchema
import PullParityStore

/// A database file as an older release left it, for upgrade tests.
package enum OldSchemaFile {
  /// Creates `path` with the first `version` migrations of `schema/` only, and returns it open.
  /// The function versions 5 and 8 call is registered; what else the program does after a
  /// migration (5's unique index, 7's and 8's filters of stored keys) matters only for a file
  /// with events, so a file of version 5 or later is created empty of them.
  package static func create(_ path: String, version: Int) throws -> DatabaseQueue {
    var configuration = Configuration()
    configuration.prepareDatabase { db in
      db.add(
        function: DatabaseFunction("pullparity_event_key", argumentCount: 1, pure: true) { values in
          String.fromDatabaseValue(values[0]).map { EventKey.of($0) }
        })
    }
    let queue = try DatabaseQueue(path: path, configuration: configuration)
    try upgrade(queue, to: version)
    return queue
  }

  /// Applies the migrations of `schema/` up to `version` as their SQL alone: at version 11 a
  /// file with events is left with them all in `events_to_convert`, as a write killed before
  /// its first batch of the conversion leaves it.
  package static func upgrade(_ queue: DatabaseQueue, to version: Int) throws {
    var migrator = DatabaseMigrator()
    for migration in Schema.migrations.prefix(version) {
      migrator.registerMigration(migration.name) { db in
        try db.execute(sql: migration.sql)
        if migration.name == "0005_time_ordered_event_keys" {
          try db.execute(sql: "CREATE UNIQUE INDEX events_by_id_hash ON events(id_hash)")
        }
      }
    }
    try migrator.migrate(queue)
  }

  /// Writes at `path` the schema version 10 file that holds what the current file `current`
  /// holds, as a release of version 10 would have stored it: every stored event a row of
  /// `events` in the order of its blocks (ingest's order), with its key, and every other
  /// table's rows as they are. Returns the number of events.
  @discardableResult
  package static func version10(from current: String, to path: String) throws -> Int {
    let queue = try create(path, version: 10)
    // As the program leaves its files, so that a test may read one while a write converts it.
    try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA journal_mode = WAL") }
    let source = try PullParityDatabase(path: current, readOnly: true)
    // Attached outside a transaction: a database cannot be detached inside one.
    let keys = try queue.inDatabase { db in
      try db.execute(sql: "ATTACH DATABASE ? AS current", arguments: [current])
      defer { try? db.execute(sql: "DETACH DATABASE current") }
      try db.inTransaction {
        let tables = try String.fetchAll(
          db,
          sql: """
            SELECT name FROM main.sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
              AND name NOT IN ('grdb_migrations', 'events', 'session_spans', 'quarantine')
            ORDER BY name <> 'sessions', name
            """)
        // `sessions` first: its triggers fill tables whose own rows are copied after it.
        for table in tables {
          try db.execute(sql: "DELETE FROM main.\(table)")
          // The old table's columns: a later schema added some (schema 13's digest count).
          let columns = try String.fetchAll(
            db, sql: "SELECT name FROM pragma_table_info(?, 'main')", arguments: [table]
          )
          .map { "\"\($0)\"" }.joined(separator: ", ")
          try db.execute(sql: "INSERT INTO main.\(table) (\(columns)) SELECT \(columns) FROM current.\(table)")
        }
        // The quarantine's lines, which schema 14 keeps in blocks, as rows of its table.
        try db.execute(sql: "DELETE FROM main.quarantine")
        for line in try source.read({ try QuarantineReading.lines($0, QuarantineFilter()) }) {
          let raw: DatabaseValue =
            line.isBlob ? Data(line.bytes).databaseValue : String(decoding: line.bytes, as: UTF8.self).databaseValue
          let hash = try Int64.fetchOne(
            db, sql: "SELECT raw_hash FROM current.quarantine WHERE quarantine_id = ?", arguments: [line.id])
          try db.execute(
            sql: """
              INSERT INTO main.quarantine (quarantine_id, source, line, byte_offset, category, reason, raw, event_id,
                                           run_id, raw_hash)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
              """,
            arguments: [
              line.id, line.source, line.line, line.byteOffset, line.category, line.reason, raw, line.eventID,
              line.runID, hash,
            ])
        }
        return .commit
      }
      var keys: [[Int64]: Int64] = [:]
      for row in try Row.fetchAll(db, sql: "SELECT id_hash, block_id, slot FROM current.event_keys") {
        keys[[row["block_id"], row["slot"]]] = row["id_hash"]
      }
      return keys
    }
    return try queue.write { db in
      let insert = try db.makeStatement(
        sql: """
          INSERT INTO events (event_id, id_hash, session_id, session_ref, ts_ms, platform, app, type, source_id,
                              line, byte_offset, raw)
          VALUES (?, ?, '', ?, ?, '', '', '', ?, ?, ?, ?)
          """)
      var count = 0
      try source.read { current in
        try StoredEventReader.forEach(RawEventSelection(), in: current) { event in
          guard let key = keys[[event.blockID, Int64(event.slot)]] else {
            throw MissingKey(block: event.blockID, slot: event.slot)
          }
          try insert.execute(arguments: [
            String(decoding: event.eventID, as: UTF8.self), key, event.info.sessionRef, event.info.timestamp,
            event.info.sourceID, event.info.line, event.info.byteOffset, String(decoding: event.raw, as: UTF8.self),
          ])
          count += 1
        }
      }
      try db.execute(
        sql: """
          UPDATE events SET session_id = json_extract(raw, '$.session_id'), platform = json_extract(raw, '$.platform'),
            app = json_extract(raw, '$.app'), type = json_extract(raw, '$.type'), seq = json_extract(raw, '$.seq')
          """)
      return count
    }
  }
}

/// A stored line without its `event_keys` row: the file is damaged.
struct MissingKey: Error, CustomStringConvertible {
  let block: Int64
  let slot: Int
  var description: String { "no event_keys row names block \(block), slot \(slot)" }
}
