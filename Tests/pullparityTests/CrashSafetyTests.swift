import Foundation
import GRDB
import PullParityStore
import PullParityTestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Killing an ingest at any moment leaves a consistent database, and running the same ingest
/// again ends exactly where a clean run does.
@Suite(.serialized) struct CrashSafetyTests {
  /// A log big enough that an ingest is still running when the test stops it.
  static func generateLog(in dir: TemporaryDirectory, events: Int = 300_000) throws -> String {
    let path = dir.path("big.jsonl")
    let generator = Process()
    generator.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    generator.arguments = [
      "python3", RepositoryPaths.root.appendingPathComponent("scripts/generate_events.py").path, "bench",
      "--events", "\(events)", "--seed", "11", "--out", path,
    ]
    try generator.run()
    generator.waitUntilExit()
    try #require(generator.terminationStatus == 0, "python3 scripts/generate_events.py failed")
    return path
  }

  /// Starts an ingest, waits until it has committed at least one batch, then sends `signal`.
  static func interruptedIngest(
    log: String, db: String, signal: Int32, standardOutput: FileHandle? = nil, standardError: FileHandle? = nil
  ) throws -> Process {
    let process = Process()
    process.executableURL = RepositoryPaths.executable
    process.arguments = ["ingest", "--db", db, "--batch-lines", "5000", "--quiet", log]
    process.standardOutput = standardOutput ?? FileHandle.nullDevice
    process.standardError = standardError ?? FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(60)
    while Date() < deadline, process.isRunning {
      if let committed = try? linesCommitted(db), committed >= 5000 { break }
      usleep(5_000)
    }
    try #require(process.isRunning, "the ingest finished before it could be interrupted")
    kill(process.processIdentifier, signal)
    process.waitUntilExit()
    return process
  }

  static func linesCommitted(_ db: String) throws -> Int {
    guard FileManager.default.fileExists(atPath: db) else { return 0 }
    let database = try PullParityDatabase(path: db, readOnly: true)
    return try database.read { db in try Int.fetchOne(db, sql: "SELECT max(lines_read) FROM ingest_runs") ?? 0 }
  }

  static func ingest(_ log: String, _ db: String) throws -> CommandRun {
    try CommandRun.pullparity(["ingest", "--db", db, "--batch-lines", "5000", "--quiet", log])
  }

  @Test func killedMidRunThenRerunEqualsACleanRun() throws {
    let dir = try TemporaryDirectory()
    let log = try Self.generateLog(in: dir)
    let clean = dir.path("clean.sqlite")
    #expect(try Self.ingest(log, clean).exitCode == 0)

    let killed = dir.path("killed.sqlite")
    let process = try Self.interruptedIngest(log: log, db: killed, signal: SIGKILL)
    #expect(process.terminationReason == .uncaughtSignal)

    // What was committed is whole: every stored event's session has been derived, and no
    // batch is half there (the run's ledger row counts exactly what the tables hold).
    let afterKill = try PullParityDatabase(path: killed)
    try afterKill.read { db in
      #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
      let orphans = try Int.fetchOne(
        db,
        sql: "SELECT count(DISTINCT session_id) FROM events WHERE session_id NOT IN (SELECT session_id FROM sessions)")
      #expect(orphans == 0)
      let row = try Row.fetchOne(db, sql: "SELECT status, lines_read, events_stored FROM ingest_runs")!
      #expect(row[0] as String == "running")
      #expect((row[1] as Int) % 5000 == 0, "a killed run has committed whole batches only")
      #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM events") == row[2] as Int)
    }

    #expect(try Self.ingest(log, killed).exitCode == 0)
    #expect(try DatabaseDump.all(afterKill) == DatabaseDump.all(try PullParityDatabase(path: clean)))
  }

  @Test func interruptStopsAfterTheBatchAndSaysHowFarItGot() throws {
    let dir = try TemporaryDirectory()
    let log = try Self.generateLog(in: dir, events: 200_000)
    let db = dir.path("interrupted.sqlite")
    let process = try Self.interruptedIngest(log: log, db: db, signal: SIGINT)
    #expect(process.terminationStatus == 130)
    let database = try PullParityDatabase(path: db)
    let status = try database.read { db in try String.fetchOne(db, sql: "SELECT status FROM ingest_runs") }
    #expect(status == "interrupted")
    let committed = try Self.linesCommitted(db)
    #expect(committed > 0 && committed < 200_000)

    #expect(try Self.ingest(log, db).exitCode == 0)
    let clean = dir.path("clean.sqlite")
    #expect(try Self.ingest(log, clean).exitCode == 0)
    #expect(try DatabaseDump.all(database) == DatabaseDump.all(try PullParityDatabase(path: clean)))
  }
}
