import GRDB
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

  package static func all(_ database: PullParityDatabase, only names: Set<String>? = nil) throws -> [String: [String]] {
    var dump: [String: [String]] = [:]
    for table in tables where names?.contains(table.name) ?? true {
      dump[table.name] = try rows(database, table: table.name, columns: table.columns, order: table.order)
    }
    return dump
  }

  package static func count(_ database: PullParityDatabase, _ table: String) throws -> Int {
    let sql = "SELECT count(*) FROM \(table)"
    if table == "events" { return try StoredEventsTable.read(database) { try Int.fetchOne($0, sql: sql) ?? 0 } }
    return try database.read { db in try Int.fetchOne(db, sql: sql) ?? 0 }
  }
}
