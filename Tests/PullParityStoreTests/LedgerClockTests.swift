import Foundation
import GRDB
import PullParityCore
import PullParityStore
import PullParityTestSupport
import Testing

/// The ledger writes the time of the database's clock: pinned, its timestamps are exact.
@Suite struct LedgerClockTests {
  static let begun = Date(timeIntervalSince1970: 1_795_000_000.25)
  static let reopened = Date(timeIntervalSince1970: 1_796_000_000.5)

  @Test func aRunIsStampedWithThePinnedTime() throws {
    let dir = try TemporaryDirectory()
    let database = try PullParityDatabase(path: dir.path("ledger.sqlite"), clock: .constant(Self.begun))
    let runID = try IngestLedger.begin(
      database, sources: ["a.jsonl"], toolVersion: "test", profileVersions: [:], parser: "foundation")
    try IngestLedger.finish(database, runID: runID, status: .completed, totals: RunCounts(), durationMs: 0)
    let row = try database.read {
      try Row.fetchOne($0, sql: "SELECT started_at, finished_at, recovered_at FROM ingest_runs")!
    }
    #expect(row["started_at"] as String == "2026-11-18T11:06:40.250Z")
    #expect(row["finished_at"] as String == "2026-11-18T11:06:40.250Z")
    #expect(row["recovered_at"] as String? == nil)
  }

  /// A run whose process is gone (its lock file closed without `finish`) is stamped with the
  /// time of the next writer's clock.
  @Test func aDeadRunIsStampedWithTheReopeningClock() throws {
    let dir = try TemporaryDirectory()
    let path = dir.path("dead.sqlite")
    do {
      let dying = try PullParityDatabase(path: path, clock: .constant(Self.begun))
      _ = try IngestLedger.begin(
        dying, sources: ["a.jsonl"], toolVersion: "test", profileVersions: [:], parser: "foundation")
    }
    let reopened = try PullParityDatabase(path: path, clock: .constant(Self.reopened))
    let row = try reopened.read {
      try Row.fetchOne($0, sql: "SELECT status, started_at, finished_at, recovered_at FROM ingest_runs")!
    }
    #expect(row["status"] as String == "interrupted")
    #expect(row["started_at"] as String == "2026-11-18T11:06:40.250Z")
    #expect(row["finished_at"] as String? == nil)
    #expect(row["recovered_at"] as String == "2026-11-30T00:53:20.500Z")
  }
}
