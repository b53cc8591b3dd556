import Foundation
import GRDB
import PullParityIngest
import PullParityStore
import PullParityTestSupport
import Testing

/// An ingest checkpoints on a thread of its own (`WALCheckpointer`): the write-ahead log is
/// restarted from its beginning again and again instead of growing with the run, what was
/// committed reaches the database file itself, and a reader holding an old snapshot (a dashboard)
/// stalls nothing.
@Suite struct BackgroundCheckpointTests {
  static let options: IngestOptions = {
    var options = IngestOptions(transactionLines: 500, toolVersion: "test")
    options.walRestartFrames = 16
    return options
  }()

  /// The WAL header's first salt, which SQLite changes each time the log restarts; nil without a log.
  static func walSalt(_ databasePath: String) -> [UInt8]? {
    guard let handle = FileHandle(forReadingAtPath: databasePath + "-wal") else { return nil }
    defer { try? handle.close() }
    let header = handle.readData(ofLength: 32)
    return header.count == 32 ? Array(header[16..<20]) : nil
  }

  static func walBytes(_ databasePath: String) -> Int {
    (try? FileManager.default.attributesOfItem(atPath: databasePath + "-wal")[.size] as? Int) ?? 0
  }

  /// Counts events in the main file as it is on disk, without its WAL.
  static func eventsInMainFile(_ databasePath: String) throws -> Int {
    var configuration = Configuration()
    configuration.readonly = true
    let file = try DatabaseQueue(path: "file:\(databasePath)?immutable=1", configuration: configuration)
    // One event_keys row per stored event.
    return try file.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM event_keys")! }
  }

  @Test(.timeLimit(.minutes(1))) func theLogRestartsAndTheFileHoldsEveryCommit() throws {
    let dir = try TemporaryDirectory()
    let path = dir.path("checkpoints.sqlite")
    let database = try PullParityDatabase(path: path)
    var salts: [[UInt8]] = []
    var largestLog = 0
    let summary = try Ingestor(database: database, options: Self.options)
      .run(
        try InputCatalog.expand([RepositoryPaths.sampleEvents.path]),
        progress: { _ in
          if let salt = Self.walSalt(path), salt != salts.last { salts.append(salt) }
          largestLog = max(largestLog, Self.walBytes(path))
        })
    #expect(summary.counts.eventsStored > 10_000)
    // Written without restarts, the log would hold every page of the run. Each transaction
    // here writes more than the 16-frame limit, so nearly every one starts the log again,
    // however long the restarted log is.
    let transactions = summary.counts.linesRead / Self.options.transactionLines
    #expect(salts.count >= transactions * 9 / 10, "the log restarted \(salts.count - 1) times in \(transactions)")
    // Without restarts the log would hold at least the 16 frames of 32 KiB of every transaction.
    let unrestarted = salts.count * 16 * 32_768
    #expect(largestLog * 2 < unrestarted, "log \(largestLog) bytes, \(salts.count) salts")
    // Every committed event is in the file itself, while the writer still has it open.
    #expect(try Self.eventsInMainFile(path) == summary.counts.eventsStored)
    // The writer's own connection checkpoints as before once the ingest is over.
    #expect(try database.read { try Int.fetchOne($0, sql: "PRAGMA wal_autocheckpoint") } == 4000)
  }

  /// A checkpoint that waited for readers (RESTART, TRUNCATE) would hold the ingest for the
  /// whole lock timeout here.
  @Test(.timeLimit(.minutes(1))) func aReaderHoldingASnapshotStallsNothing() throws {
    let dir = try TemporaryDirectory()
    let path = dir.path("pinned.sqlite")
    let database = try PullParityDatabase(path: path)
    let log = RepositoryPaths.sampleEvents.appendingPathComponent("padel-pwa.jsonl").path
    let first = try Ingestor(database: database, options: Self.options).run(try InputCatalog.expand([log]))
    let dashboard = try DatabasePool(path: path)
    var snapshot: DatabaseSnapshot? = try dashboard.makeSnapshot()
    let count = "SELECT count(*) FROM event_keys"
    let before = try snapshot!.read { try Int.fetchOne($0, sql: count)! }
    let rest = try Ingestor(database: database, options: Self.options)
      .run(try InputCatalog.expand([RepositoryPaths.sampleEvents.path]))
    #expect(rest.counts.eventsStored > 0)
    let pinned = try snapshot!.read { try Int.fetchOne($0, sql: count)! }
    snapshot = nil
    let after = try dashboard.read { try Int.fetchOne($0, sql: count)! }
    #expect(before == first.counts.eventsStored)
    #expect(pinned == before)
    #expect(after == first.counts.eventsStored + rest.counts.eventsStored)
  }
}
