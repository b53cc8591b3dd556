import Foundation
import GRDB
import PullParityCore
import PullParityIngest
import PullParityStore
import PullParityTestSupport
import Testing

/// An ingest and a replay read the time from the database's clock: pinned, the ledger, the
/// profiles table and the times a run reports are exact.
@Suite struct PinnedClockIngestTests {
  static let ingested = Date(timeIntervalSince1970: 1_795_000_000.25)
  static let replayed = Date(timeIntervalSince1970: 1_796_000_000.5)

  @Test func anIngestStoresAndReportsThePinnedTime() throws {
    let dir = try TemporaryDirectory()
    let database = try PullParityDatabase(path: dir.path("pinned.sqlite"), clock: .constant(Self.ingested))
    let log = RepositoryPaths.sampleEvents.appendingPathComponent("padel-ios-1.jsonl").path
    let summary = try Ingestor(database: database, options: IngestOptions(transactionLines: 250, toolVersion: "test"))
      .run(try InputCatalog.expand([log]))
    #expect(summary.durationSeconds == 0)
    #expect(summary.stageTimes.readAndParse == 0)
    #expect(summary.stageTimes.waitingForInput == 0)
    #expect(summary.stageTimes.commit == 0)
    #expect(summary.stageTimes.storeEvents == 0)
    #expect(summary.stageTimes.derive == 0)
    #expect(summary.stageTimes.storeSessions == 0)
    try database.read { db in
      let run = try Row.fetchOne(db, sql: "SELECT started_at, finished_at, duration_ms FROM ingest_runs")!
      #expect(run["started_at"] as String == "2026-11-18T11:06:40.250Z")
      #expect(run["finished_at"] as String == "2026-11-18T11:06:40.250Z")
      #expect(run["duration_ms"] as Double == 0)
      #expect(try String.fetchAll(db, sql: "SELECT DISTINCT stored_at FROM profiles") == ["2026-11-18T11:06:40.250Z"])
    }

    let later = try PullParityDatabase(path: database.path, clock: .constant(Self.replayed))
    let replay = try Replayer(database: later, profiles: ProfileCatalog()).run()
    #expect(replay.durationSeconds == 0)
    let stored = try later.read { try String.fetchAll($0, sql: "SELECT DISTINCT stored_at FROM profiles") }
    #expect(stored == ["2026-11-30T00:53:20.500Z"])
  }
}
