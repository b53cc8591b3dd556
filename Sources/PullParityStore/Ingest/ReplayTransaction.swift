package import GRDB
package import PullParityCore

/// The reads and deletes of a replay, inside one transaction with its `IngestTransaction`.
package struct ReplayTransaction {
  private let db: Database

  package init(_ db: Database) {
    self.db = db
  }

  /// Per session: its outcome and the kinds of its violations (`signature`), to tell what a
  /// replay changed.
  package func sessionSignatures() throws -> [ByteIdentity: String] {
    var signatures: [ByteIdentity: String] = [:]
    // Ids byte for byte (GRDB would read them up to a NUL, and merge two sessions).
    let statement = try RawStatement(
      db,
      """
      SELECT s.session_id, s.outcome,
             (SELECT group_concat(kind, ',') FROM violations v WHERE v.session_ref = s.session_ref) AS kinds
      FROM sessions s
      """)
    try statement.forEachRow("reading the sessions before a replay") { row in
      let kinds = row.optionalString(2)?.split(separator: ",").map(String.init) ?? []
      signatures[ByteIdentity(row.string(0))] = Self.signature(outcome: row.string(1), kinds: kinds)
    }
    return signatures
  }

  /// What a replay compares of a session, written the same way for the stored session and the
  /// one derived again.
  package static func signature(outcome: String, kinds: [String]) -> String {
    outcome + "|" + kinds.sorted().joined(separator: ",")
  }

  /// Empties the derived tables of the sessions that can be derived again; the raw log stays,
  /// and so do the rows of sessions `retain` took raw events of (they could not be rebuilt),
  /// and, unless `readingLeftEvents`, of sessions whose events were left in a run directory.
  /// The sessions' key epochs go with them when no session stays: their filters would only
  /// send lookups to empty regions.
  package func clearDerived(readingLeftEvents: Bool = false) throws {
    let kept =
      "SELECT session_ref FROM sessions_without_raw"
      + (readingLeftEvents ? "" : " UNION ALL SELECT session_ref FROM left_event_sessions")
    try db.execute(
      sql: """
        DELETE FROM violations WHERE session_ref NOT IN (\(kept));
        DELETE FROM sessions WHERE session_ref NOT IN (\(kept));
        """)
    if try Int.fetchOne(db, sql: "SELECT count(*) FROM sessions") == 0 {
      try db.execute(sql: "DELETE FROM session_key_filters")
    }
  }

  /// Sessions whose stored rows stay because `retain` dropped some of their raw events.
  package func sessionsWithoutRaw() throws -> Int {
    try Int.fetchOne(db, sql: "SELECT count(*) FROM sessions_without_raw") ?? 0
  }

  /// Sessions whose stored rows stay because their events were left in a run directory.
  package func sessionsLeftInRuns() throws -> Int {
    try Int.fetchOne(db, sql: "SELECT count(*) FROM left_event_sessions") ?? 0
  }

  /// Every stored line of the sessions that can be derived again, session by session (by ref)
  /// and in storage order within a session, one at a time: (session ref, raw line, source,
  /// line number).
  package func forEachStoredLine(_ body: (Int64, UnsafeRawBufferPointer, String, Int) throws -> Void) throws {
    let lines = try StoredLines(db)
    let refs = try Int64.fetchCursor(
      db,
      sql: """
        SELECT DISTINCT session_ref FROM session_blocks
        WHERE session_ref NOT IN (SELECT session_ref FROM sessions_without_raw) ORDER BY session_ref
        """)
    while let ref = try refs.next() {
      try lines.forEachLine(ofSession: ref) { info, _, raw in try body(ref, raw, info.sourceName, info.line) }
    }
  }
}
