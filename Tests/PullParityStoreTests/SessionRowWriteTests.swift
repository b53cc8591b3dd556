import Foundation
import GRDB
import PullParityStore
import PullParityTestSupport
import Testing

/// How `IngestTransaction.save` writes a `sessions` row: inserted when new, updated in place
/// when stored (or inserted, after a replay cleared it), and never silently dropped.
@Suite struct SessionRowWriteTests {
  static let day = 86_400_000.0

  func row(_ sessionID: String, outcome: String = "completed", startedAt: Double) throws -> SessionRow {
    let json: [String: Any] = [
      "session_id": sessionID, "app": "padel", "profile": "padel", "profile_version": 1, "platform": "ios",
      "empty": 0, "outcome": outcome, "final_state": "idle", "violation_count": 0, "event_count": 3,
      "started_at_ms": startedAt, "ended_at_ms": startedAt + 1_500,
    ]
    return try JSONDecoder().decode(SessionRow.self, from: JSONSerialization.data(withJSONObject: json))
  }

  func sessions(_ db: Database) throws -> [String] {
    try Row.fetchAll(db, sql: "SELECT session_ref, session_id, outcome FROM sessions ORDER BY session_ref").map {
      "\($0["session_ref"] as Int64):\($0["session_id"] as String):\($0["outcome"] as String)"
    }
  }

  func staleDays(_ db: Database) throws -> [Int64] {
    try Int64.fetchAll(db, sql: "SELECT day FROM stale_digest_days ORDER BY day")
  }

  /// Runs `body` in one write transaction of a new database.
  func inTransaction(_ body: (Database, IngestTransaction) throws -> Void) throws {
    let dir = try TemporaryDirectory()
    let database = try PullParityDatabase(path: dir.path("rows.sqlite"))
    try database.write { db in try body(db, try IngestTransaction(db)) }
  }

  @Test func aStoredSessionIsUpdatedInPlaceAndBothOfItsDaysGoStale() throws {
    try inTransaction { db, tx in
      try tx.save(row("s1", outcome: "incomplete", startedAt: 20_000 * Self.day), violations: [], ref: 1, isNew: true)
      try tx.save(row("s2", startedAt: 20_000 * Self.day), violations: [], ref: 2, isNew: true)
      #expect(try sessions(db) == ["1:s1:incomplete", "2:s2:completed"])
      #expect(try staleDays(db) == [20_000])

      try tx.save(row("s1", startedAt: 20_001 * Self.day), violations: [], ref: 1)
      #expect(try sessions(db) == ["1:s1:completed", "2:s2:completed"])
      #expect(try staleDays(db) == [20_000, 20_001])
    }
  }

  /// A replay clears the derived rows first and saves every session as not new.
  @Test func aSessionNotNewButWithoutARowIsInserted() throws {
    try inTransaction { db, tx in
      try tx.save(row("s7", startedAt: 20_000 * Self.day), violations: [], ref: 7)
      #expect(try sessions(db) == ["7:s7:completed"])
    }
  }

  /// A row that cannot be written is an error naming the session, and the stored row stays.
  @Test(arguments: [true, false])
  func aSessionIDUnderAnotherRefIsAnErrorNotASilentSkip(isNew: Bool) throws {
    try inTransaction { db, tx in
      try tx.save(row("s1", startedAt: 20_000 * Self.day), violations: [], ref: 1, isNew: true)
      let error = #expect(throws: StoreError.self) {
        try tx.save(row("s1", outcome: "cancelled", startedAt: 20_000 * Self.day), violations: [], ref: 2, isNew: isNew)
      }
      #expect(error?.context == "saving session s1")
      #expect(error?.sql?.contains("INSERT OR IGNORE INTO sessions") == true)
      #expect(try sessions(db) == ["1:s1:completed"])
    }
  }
}
