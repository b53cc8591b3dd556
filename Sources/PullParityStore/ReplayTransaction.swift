public import GRDB

/// The reads and deletes of a replay, inside one transaction with its `IngestTransaction`.
public struct ReplayTransaction {
  private let db: Database

  public init(_ db: Database) {
    self.db = db
  }

  /// Per session: its outcome and the kinds of its violations, to tell what a replay changed.
  public func sessionSignatures() throws -> [String: String] {
    var signatures: [String: String] = [:]
    let rows = try Row.fetchCursor(
      db,
      sql: """
        SELECT s.session_id, s.outcome,
               (SELECT group_concat(kind, ',') FROM
                  (SELECT kind FROM violations v WHERE v.session_id = s.session_id ORDER BY kind))
        FROM sessions s
        """)
    while let row = try rows.next() {
      signatures[row[0]] = "\(row[1] as String)|\((row[2] as String?) ?? "")"
    }
    return signatures
  }

  /// Empties the derived tables; the raw log stays.
  public func clearDerived() throws {
    try db.execute(sql: "DELETE FROM violations; DELETE FROM sessions")
  }

  /// Calls `body` once per session with all its stored events, reading the log in session-hash
  /// order so that only one hash's events are in memory at a time.
  public func forEachSession(_ body: (String, [StoredEvent]) throws -> Void) throws {
    let rows = try Row.fetchCursor(
      db,
      sql: """
        SELECT e.session_hash, e.session_id, e.raw, s.name, e.line
        FROM events e INDEXED BY events_by_session_hash JOIN sources s ON s.source_id = e.source_id
        ORDER BY e.session_hash
        """)
    var currentHash: Int64?
    var pending: [String: [StoredEvent]] = [:]
    func flush() throws {
      for sessionID in pending.keys.sorted() { try body(sessionID, pending[sessionID]!) }
      pending.removeAll(keepingCapacity: true)
    }
    while let row = try rows.next() {
      let hash: Int64 = row[0]
      if hash != currentHash {
        try flush()
        currentHash = hash
      }
      pending[row[1], default: []].append(StoredEvent(raw: row[2], source: row[3], line: row[4]))
    }
    try flush()
  }
}
