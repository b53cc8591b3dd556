import Foundation
package import GRDB
package import PullParityStore

/// Tables as text rows, to compare two databases row for row.
package enum DatabaseDump {
  /// The derived tables and the raw log, each row rendered as text in a stable order.
  /// `ingest_runs` is left out: it is a ledger, every run adds to it. `session_ref` is left
  /// out: a join key handed out in first-seen order, it depends on the order logs arrive in.
  package static let tables: [(name: String, columns: String, order: String)] = [
    ("sessions", sessionColumns, "session_id"),
    ("violations", "session_id, ordinal, kind, ts_ms, expected, actual", "session_id, ordinal"),
    ("events", "event_id, session_id, ts_ms, seq, platform, app, type, raw", "event_id"),
    ("quarantine", "source, line, byte_offset, category, reason, raw, event_id", "source, byte_offset"),
  ]

  static let sessionColumns = """
    session_id, app, profile, profile_version, platform, app_version, os_version, device, screen, empty,
    outcome, final_state, "trigger", time_to_arm_ms, arm_distance, client_arm_distance, release_distance,
    load_ms, visible_ms, flash, premature_hide, late_hide, hold_compliant, label_violations, arm_mismatch,
    load_ok, max_sample_gap_ms, max_offset_error, violation_count, event_count, started_at_ms, ended_at_ms
    """

  package static func rows(_ database: PullParityDatabase, table: String, columns: String = "*", order: String) throws
    -> [String]
  {
    let sql = "SELECT \(columns) FROM \(table) ORDER BY \(order)"
    // The events are in blocks since schema version 11: read as the table they were.
    if table == "events" {
      return try StoredEventsTable.read(database) { try Row.fetchAll($0, sql: sql) }.map(\.description)
    }
    return try database.read { db in try Row.fetchAll(db, sql: sql).map { $0.description } }
  }

  /// Every table of `tables`, each as one text SQLite renders (`quote` of every column), to
  /// compare two databases: rendering GRDB rows in Swift (`Row.description`) took most of the
  /// crash-safety tests' time.
  package static func all(_ database: PullParityDatabase, only names: Set<String>? = nil) throws -> [String: TableText]
  {
    var dump: [String: TableText] = [:]
    for table in tables where names?.contains(table.name) ?? true {
      if table.name == "events" {
        dump[table.name] = try storedEvents(database)
        continue
      }
      dump[table.name] = try database.read { db in
        try text(db, table: table.name, columns: table.columns, order: table.order)
      }
    }
    return dump
  }

  /// A table's `columns` (all of them when nil) in `order`, as one text SQLite renders (`quote`
  /// of each column), to compare with another file's.
  package static func text(_ db: Database, table: String, columns: String? = nil, order: String) throws -> TableText {
    let names =
      try columns.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } }
      ?? String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table])
    let fields = names.map { "quote(\($0))" }.joined(separator: " || ',' || ")
    let sql = """
      SELECT count(*), ifnull(group_concat(line, char(10)), '')
      FROM (SELECT \(fields) AS line FROM \(table) ORDER BY \(order))
      """
    let row = try Row.fetchOne(db, sql: sql)!
    return TableText(rows: row[0], text: row[1])
  }

  /// The stored events as one text, read from the blocks: each event's id, time and line, in
  /// event id order. The other columns of `tables`' `events` are taken from the line (by
  /// `StoredEventsTable`), so the line stands for them; rebuilding that table, row by row through
  /// GRDB in a debug build, took most of a dump's time on the crash-safety tests' logs.
  static func storedEvents(_ database: PullParityDatabase) throws -> TableText {
    var events: [(id: String, line: String)] = []
    try database.read { db in
      try StoredEventReader.forEach(RawEventSelection(), in: db) { event in
        let id = String(decoding: event.eventID, as: UTF8.self)
        events.append((id, "\(id)\t\(event.info.timestamp)\t" + String(decoding: event.raw, as: UTF8.self)))
      }
    }
    // Event ids are unique among stored events: the order is total, whatever the storage order.
    events.sort { $0.id < $1.id }
    return TableText(rows: events.count, text: events.map(\.line).joined(separator: "\n"))
  }

  /// A table's rows as one text, compared whole; printed (when two differ) as its row count and
  /// a hash, not megabytes of rows.
  package struct TableText: Equatable, CustomStringConvertible {
    package var rows: Int
    package var text: String

    package var description: String {
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
      for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
      return "\(rows) rows, \(text.utf8.count) bytes, FNV-1a \(String(hash, radix: 16))"
    }
  }

  package static func count(_ database: PullParityDatabase, _ table: String) throws -> Int {
    let sql = "SELECT count(*) FROM \(table)"
    if table == "events" { return try StoredEventsTable.read(database) { try Int.fetchOne($0, sql: sql) ?? 0 } }
    return try database.read { db in try Int.fetchOne(db, sql: sql) ?? 0 }
  }
}
