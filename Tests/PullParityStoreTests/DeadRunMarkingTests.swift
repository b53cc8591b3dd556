import GRDB
import PullParityStore
import PullParityTestSupport
import Testing

/// A writer marks the runs of dead processes `interrupted` when it opens the database.
@Suite struct DeadRunMarkingTests {
  /// Opening for writing only writes when a dead run needs marking: with none, it does not wait
  /// for another connection's write transaction (a live ingest's), which could keep it out until
  /// that ingest ends.
  @Test func openingWithNoDeadRunDoesNotWaitForAWriter() throws {
    let dir = try TemporaryDirectory()
    let path = dir.path("busy.sqlite")
    _ = try PullParityDatabase(path: path)
    let other = try DatabaseQueue(path: path)
    try other.inDatabase { db in
      try db.execute(sql: "BEGIN IMMEDIATE")
      defer { try? db.execute(sql: "ROLLBACK") }
      #expect(throws: Never.self) { _ = try PullParityDatabase(path: path, lockTimeout: 0.2) }
    }
  }
}
