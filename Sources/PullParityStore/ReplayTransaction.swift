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

  /// Empties the derived tables; the raw log stays. The sessions' key epochs go with them:
  /// their filters would only send lookups to empty regions.
  package func clearDerived() throws {
    try db.execute(sql: "DELETE FROM violations; DELETE FROM sessions; DELETE FROM session_key_filters")
  }

  /// Every stored line, session by session (by ref) and in storage order within a session,
  /// one at a time: (session ref, raw line, source, line number).
  package func forEachStoredLine(_ body: (Int64, String, String, Int) throws -> Void) throws {
    let rows = try Row.fetchCursor(
      db,
      sql: StoredLineSQL.select + "\nORDER BY sp.session_ref, sp.first_event_pk")
    while let row = try rows.next() {
      try body(row["session_ref"], row["raw"], row["source"], row["line"])
    }
  }
}
