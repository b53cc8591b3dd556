import Foundation
import GRDB
import PullParityStore
import PullParityTestSupport
import Testing

/// Several processes on one database: ingests started together on a fresh file, reports while
/// an ingest writes. None of them meets SQLite's "database is locked"; each waits (bounded by
/// --lock-timeout) and the end state is that of one ingest after the other.
@Suite(.serialized) struct ConcurrencyTests {
  /// Starts `pullparity` with `arguments`, its stderr collected in a file (no pipe to drain).
  static func start(_ arguments: [String], in dir: TemporaryDirectory, name: String) throws -> Process {
    let process = Process()
    process.executableURL = RepositoryPaths.executable
    process.arguments = arguments
    try Data().write(to: dir.url.appendingPathComponent(name + ".err"))
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle(forWritingAtPath: dir.path(name + ".err"))
    try process.run()
    return process
  }

  static func stderr(_ dir: TemporaryDirectory, _ name: String) throws -> String {
    try String(contentsOfFile: dir.path(name + ".err"), encoding: .utf8)
  }

  static func ledgerSums(_ database: PullParityDatabase) throws -> [Int] {
    try database.read { db in
      let row = try Row.fetchOne(
        db, sql: "SELECT sum(events_stored), sum(conflicts), sum(quarantined), count(*) FROM ingest_runs")!
      return [row[0], row[1], row[2], row[3]]
    }
  }

  /// Three ingests of the sample logs started at once on a file that does not exist yet, five
  /// times: every one succeeds (they migrate one after the other, then take turns writing),
  /// and the database is the one a single ingest makes, each event and bad line counted once.
  @Test func ingestsStartedTogetherOnAFreshDatabase() throws {
    let dir = try TemporaryDirectory()
    let clean = dir.path("clean.sqlite")
    #expect(
      try CommandRun.pullparity(["ingest", "--quiet", "--db", clean, RepositoryPaths.sampleEvents.path]).exitCode == 0)
    let cleanDatabase = try PullParityDatabase(path: clean)
    let cleanSums = try Self.ledgerSums(cleanDatabase)

    for trial in 0..<5 {
      let db = dir.path("together-\(trial).sqlite")
      let processes = try (0..<3).map {
        try Self.start(
          ["ingest", "--quiet", "--transaction-lines", "2000", "--db", db, RepositoryPaths.sampleEvents.path], in: dir,
          name: "t\(trial)-\($0)")
      }
      for (i, process) in processes.enumerated() {
        process.waitUntilExit()
        let stderr = try Self.stderr(dir, "t\(trial)-\(i)")
        #expect(process.terminationStatus == 0, "trial \(trial), ingest \(i): \(stderr)")
        #expect(!stderr.contains("locked") && !stderr.contains("already exists"), "\(stderr)")
      }
      let database = try PullParityDatabase(path: db)
      #expect(try DatabaseDump.all(database) == DatabaseDump.all(cleanDatabase), "trial \(trial)")
      #expect(try Self.ledgerSums(database) == [cleanSums[0], cleanSums[1], cleanSums[2], 3], "trial \(trial)")
    }
  }

  /// A new file named by a link (a cron job's `current.sqlite -> 2026-11.sqlite`) and by its
  /// real path is one database with one lock: ingests started together through the two names
  /// migrate one after the other, neither marks the other's live run `interrupted`, and the
  /// result is one ingest's after the other's (before, 11 of 30 such pairs failed).
  @Test func ingestsThroughALinkAndTheRealPathTakeTurns() throws {
    let dir = try TemporaryDirectory()
    for trial in 0..<4 {
      let real = dir.path("2026-\(trial).sqlite")
      let link = dir.path("current-\(trial).sqlite")
      try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "2026-\(trial).sqlite")
      let processes = try [link, real].enumerated().map { index, name in
        try Self.start(
          ["ingest", "--quiet", "--transaction-lines", "2000", "--db", name, RepositoryPaths.sampleEvents.path],
          in: dir, name: "l\(trial)-\(index)")
      }
      for (index, process) in processes.enumerated() {
        process.waitUntilExit()
        let stderr = try Self.stderr(dir, "l\(trial)-\(index)")
        #expect(process.terminationStatus == 0, "trial \(trial), ingest \(index): \(stderr)")
      }
      let statuses = try PullParityDatabase(path: real).read { db in
        try String.fetchAll(db, sql: "SELECT status FROM ingest_runs ORDER BY run_id")
      }
      #expect(statuses == ["completed", "completed"], "trial \(trial)")
    }
  }

  /// Two ingests of a large log at once, and `report` run over and over while they write:
  /// every report succeeds, and the end state equals a clean ingest's.
  @Test func reportsWhileTwoIngestsWrite() throws {
    let dir = try TemporaryDirectory()
    let log = try CrashSafetyTests.generateLog(in: dir)
    let clean = dir.path("clean.sqlite")
    #expect(try CrashSafetyTests.ingest(log, clean).exitCode == 0)

    let db = dir.path("busy.sqlite")
    let first = try CrashSafetyTests.startedIngest(log: log, db: db, committing: 5000)
    let second = try Self.start(
      ["ingest", "--quiet", "--transaction-lines", "5000", "--db", db, log], in: dir, name: "second")
    var reports = 0
    while first.isRunning || second.isRunning {
      let report = try CommandRun.pullparity(["report", "--db", db])
      #expect(report.exitCode == 0, "\(report.stderr)")
      #expect(!report.stderr.contains("locked"))
      reports += 1
    }
    #expect(reports > 1)
    let secondStderr = try Self.stderr(dir, "second")
    #expect(first.terminationStatus == 0 && second.terminationStatus == 0, "\(secondStderr)")
    let database = try PullParityDatabase(path: db)
    let cleanDatabase = try PullParityDatabase(path: clean)
    #expect(try DatabaseDump.all(database) == DatabaseDump.all(cleanDatabase))
    let cleanSums = try Self.ledgerSums(cleanDatabase)
    #expect(try Self.ledgerSums(database) == [cleanSums[0], cleanSums[1], cleanSums[2], 2])
  }

  /// Another process holds the write lock for longer than --lock-timeout: the command gives up
  /// after that long, with a message that says what happened, not SQLite's.
  @Test(arguments: [["ingest", "--quiet", RepositoryPaths.sampleEvents.path], ["replay"]])
  func aWriteLockHeldTooLongEndsWithAClearMessage(command: [String]) throws {
    let dir = try TemporaryDirectory()
    let db = dir.path("held.sqlite")
    #expect(
      try CommandRun.pullparity(["ingest", "--quiet", "--db", db, RepositoryPaths.sampleEvents.path]).exitCode == 0)
    let holder = try DatabaseQueue(path: db)
    let run = try holder.writeWithoutTransaction { holderDB in
      try holderDB.execute(sql: "BEGIN IMMEDIATE")
      defer { try? holderDB.execute(sql: "ROLLBACK") }
      return try CommandRun.pullparity([command[0], "--db", db, "--lock-timeout", "1"] + command.dropFirst())
    }
    #expect(run.exitCode == 2)
    #expect(run.stderr.contains("another process kept the database busy for 1 s"), "\(run.stderr)")
    #expect(!run.stderr.contains("database is locked"))
  }
}
