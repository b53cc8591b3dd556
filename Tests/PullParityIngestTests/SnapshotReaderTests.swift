import Foundation
import GRDB
import PullParityIngest
import PullParityReport
import PullParityStore
import PullParityTestSupport
import Testing

/// A dashboard may hold a read snapshot for as long as it likes while an ingest writes: the
/// ingest's checkpoints (SQLite's automatic, passive ones) copy what they can and never wait
/// for the reader, and the reader sees its snapshot until it lets it go.
@Suite struct SnapshotReaderTests {
  /// Small transactions: the second ingest commits, and checkpoints, many times.
  static let options = IngestOptions(transactionLines: 500, toolVersion: "test")

  /// A checkpoint that waited for readers (RESTART, TRUNCATE), or any other wait on the reader,
  /// would hold the ingest for the whole lock timeout and then fail it (or its digests' refresh)
  /// as busy: the timeout is short so that a wait fails the test in seconds, whatever else the
  /// machine runs. (A one-minute time limit on the test, the check before, failed once in CI
  /// with two cores busy with other tests.)
  @Test(.timeLimit(.minutes(10))) func aReaderHoldingASnapshotStallsNothing() throws {
    let dir = try TemporaryDirectory()
    let path = dir.path("pinned.sqlite")
    let database = try PullParityDatabase(path: path, lockTimeout: 5)
    let log = RepositoryPaths.sampleEvents.appendingPathComponent("padel-pwa.jsonl").path
    let first = try Ingestor(database: database, options: Self.options).run(try InputCatalog.expand([log]))
    let dashboard = try DatabasePool(path: path)
    var snapshot: DatabaseSnapshot? = try dashboard.makeSnapshot()
    let count = "SELECT count(*) FROM event_keys"
    let before = try snapshot!.read { try Int.fetchOne($0, sql: count)! }
    let rest = try Ingestor(database: database, options: Self.options)
      .run(try InputCatalog.expand([RepositoryPaths.sampleEvents.path]))
    #expect(rest.counts.eventsStored > 0)
    #expect(first.digests?.failure == nil && rest.digests?.failure == nil)
    let pinned = try snapshot!.read { try Int.fetchOne($0, sql: count)! }
    snapshot = nil
    let after = try dashboard.read { try Int.fetchOne($0, sql: count)! }
    #expect(before == first.counts.eventsStored)
    #expect(pinned == before)
    #expect(after == first.counts.eventsStored + rest.counts.eventsStored)
  }

  /// Once the ingest is over, what it committed is in the database file itself, not only in
  /// the log: a copy of the file alone (a backup that forgets the `-wal`) holds every event.
  @Test func theFileHoldsEveryCommitWhenTheIngestEnds() throws {
    let dir = try TemporaryDirectory()
    let path = dir.path("closed.sqlite")
    let summary = try Ingestor(database: try PullParityDatabase(path: path), options: Self.options)
      .run(try InputCatalog.expand([RepositoryPaths.sampleEvents.path]))
    #expect(summary.counts.eventsStored > 10_000)
    var configuration = Configuration()
    configuration.readonly = true
    let file = try DatabaseQueue(path: "file:\(path)?immutable=1", configuration: configuration)
    let inFile = try file.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM event_keys")! }
    #expect(inFile == summary.counts.eventsStored)
  }
}
