package import GRDB
package import PullParityCore

/// The reads and deletes of a replay, inside one transaction with its `IngestTransaction`.
package struct ReplayTransaction {
  private let db: Database

  package init(_ db: Database) {
    self.db = db
  }

  /// Per session: its outcome and the kinds of its violations, to tell what a replay changed.
  package func sessionSignatures() throws -> [ByteIdentity: String] {
    var signatures: [ByteIdentity: String] = [:]
    let rows = try Row.fetchCursor(
      db,
      sql: """
        SELECT s.session_id, s.outcome,
               (SELECT group_concat(kind, ',') FROM
                  (SELECT kind FROM violations v WHERE v.session_id = s.session_id ORDER BY kind))
        FROM sessions s
        """)
    while let row = try rows.next() {
      signatures[ByteIdentity(row[0])] = "\(row[1] as String)|\((row[2] as String?) ?? "")"
    }
    return signatures
  }

  /// Empties the derived tables; the raw log stays.
  package func clearDerived() throws {
    try db.execute(sql: "DELETE FROM violations; DELETE FROM sessions")
  }

  /// Calls `body` once per session with its ref and all its stored events, reading the log in
  /// session order so that only one session's events are in memory at a time.
  package func forEachSession(_ body: (Int64, [StoredEvent]) throws -> Void) throws {
    let rows = try Row.fetchCursor(
      db,
      sql: """
        SELECT sp.session_ref, e.raw, s.name, e.line
        FROM session_spans sp
        JOIN events e ON e.event_pk BETWEEN sp.first_event_pk AND sp.last_event_pk
        JOIN sources s ON s.source_id = e.source_id
        ORDER BY sp.session_ref, sp.first_event_pk
        """)
    var current: Int64?
    var pending: [StoredEvent] = []
    while let row = try rows.next() {
      let ref: Int64 = row[0]
      if ref != current {
        if let current, !pending.isEmpty { try body(current, pending) }
        pending.removeAll(keepingCapacity: true)
        current = ref
      }
      pending.append(StoredEvent(raw: row[1], source: row[2], line: row[3]))
    }
    if let current, !pending.isEmpty { try body(current, pending) }
  }
}
