import Foundation
import GRDB
import PullParityTestSupport
import Testing

@testable import PullParityStore

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

  /// Names of one database file: (the name the first process opens, the other's), made in a
  /// directory with `real/` and `links/` folders. The file is created through the first name.
  static let spellings: [(first: String, second: String, links: [(String, String)])] = [
    ("links/current.sqlite", "real/2026-11.sqlite", [("links/current.sqlite", "../real/2026-11.sqlite")]),
    ("real/2026-11.sqlite", "links/current.sqlite", [("links/current.sqlite", "../real/2026-11.sqlite")]),
    ("links/a.sqlite", "real/db.sqlite", [("links/a.sqlite", "b.sqlite"), ("links/b.sqlite", "../real/db.sqlite")]),
    ("real/db.sqlite", "real-too/db.sqlite", [("real-too", "real")]),
    ("real/db.sqlite", "real/../real/./db.sqlite", []),
  ]

  /// A live run holds its lock in the file's lock file whatever name opened the database: a
  /// writer that opens it under another name (a link to it, its real path) sees the run alive
  /// and leaves it `running`, instead of marking it `interrupted` under the ingest's feet.
  @Test(arguments: spellings.indices)
  func aLiveRunIsSeenThroughEveryNameOfTheFile(spelling: Int) throws {
    let (first, second, links) = Self.spellings[spelling]
    let dir = try TemporaryDirectory()
    for folder in ["real", "links"] {
      try FileManager.default.createDirectory(
        at: dir.url.appendingPathComponent(folder), withIntermediateDirectories: true)
    }
    for (link, target) in links {
      try FileManager.default.createSymbolicLink(atPath: dir.path(link), withDestinationPath: target)
    }
    let writer = try PullParityDatabase(path: dir.path(first))
    let runID = try IngestLedger.begin(writer, sources: ["x"], toolVersion: "test", profileVersions: [:], parser: "x")
    let other = try PullParityDatabase(path: dir.path(second))
    let status = try other.read { db in
      try String.fetchOne(db, sql: "SELECT status FROM ingest_runs WHERE run_id = ?", arguments: [runID])
    }
    #expect(status == RunStatus.running.rawValue)
    #expect(DatabaseLockFile.path(forDatabase: dir.path(first)) == DatabaseLockFile.path(forDatabase: dir.path(second)))
  }

  /// SQLite gives up at once where waiting could deadlock: the message says how long it really
  /// waited, not the timeout it did not wait.
  @Test(arguments: [
    (0.5, "SQLite gave up after 0.5 s while waiting for it, without waiting the --lock-timeout of 60 s"),
    (60.2, "another process kept the database busy for 60 s while waiting for it"),
  ])
  func aBusyDatabaseIsReportedWithTheWaitItCost(waited: Double, says: String) {
    #expect(PullParityDatabase.busyMessage(60, waited: waited, doing: "waiting for it").contains(says))
  }
}
