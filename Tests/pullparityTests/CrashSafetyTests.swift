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
  /// A log big enough that an ingest is still running when the test stops it: the debug build
  /// ingests about 37,000 lines a second, so 100,000 lines leave it running for seconds after
  /// its first transaction of 5,000 lines commits.
  static func generateLog(in dir: TemporaryDirectory, events: Int = 100_000) throws -> String {
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

  /// The generated log with the sample logs' bad lines, duplicates and conflict spread through
  /// it (one sample line after every `stride` generated ones), so that every stretch a kill can
  /// cut holds some of each.
  static func mixedLog(in dir: TemporaryDirectory, events: Int = 150_000) throws -> String {
    let generated = try lines(of: generateLog(in: dir, events: events))
    let samples = try ["bad-lines.jsonl", "padel-pwa.jsonl"].flatMap {
      try lines(of: RepositoryPaths.sampleEvents.appendingPathComponent($0).path)
    }
    let stride = max(1, generated.count / samples.count)
    var mixed = Data()
    var next = samples.makeIterator()
    for (i, line) in generated.enumerated() {
      mixed.append(line)
      if i % stride == stride - 1, let sample = next.next() { mixed.append(sample) }
    }
    while let sample = next.next() { mixed.append(sample) }
    let path = dir.path("mixed.jsonl")
    try mixed.write(to: URL(fileURLWithPath: path))
    return path
  }

  /// A file's lines, each with its line end.
  private static func lines(of path: String) throws -> [Data] {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    var lines: [Data] = []
    var start = data.startIndex
    while let end = data[start...].firstIndex(of: UInt8(ascii: "\n")) {
      lines.append(data[start...end])
      start = end + 1
    }
    if start < data.endIndex { lines.append(data[start...] + Data("\n".utf8)) }
    return lines
  }

  /// Starts an ingest, waits until it has committed at least one transaction (or `lines`), then
  /// sends `signal`.
  static func interruptedIngest(
    log: String, db: String, signal: Int32, lines: Int = 5000, standardOutput: FileHandle? = nil,
    standardError: FileHandle? = nil
  ) throws -> Process {
    let process = try startedIngest(
      log: log, db: db, committing: lines, standardOutput: standardOutput, standardError: standardError)
    kill(process.processIdentifier, signal)
    process.waitUntilExit()
    return process
  }

  /// An ingest process that has committed at least `lines` lines and is still running.
  static func startedIngest(
    log: String, db: String, committing lines: Int, standardOutput: FileHandle? = nil, standardError: FileHandle? = nil
  ) throws -> Process {
    let process = Process()
    process.executableURL = RepositoryPaths.executable
    process.arguments = ["ingest", "--db", db, "--transaction-lines", "5000", "--quiet", log]
    process.standardOutput = standardOutput ?? FileHandle.nullDevice
    process.standardError = standardError ?? FileHandle.nullDevice
    try process.run()
    let deadline = Date().addingTimeInterval(120)
    while Date() < deadline, process.isRunning {
      if let committed = try? linesCommitted(db), committed >= lines { break }
      usleep(5_000)
    }
    try #require(process.isRunning, "the ingest finished before it could be interrupted")
    return process
  }

  /// Lines the newest run has committed, resumed ones included.
  static func linesCommitted(_ db: String) throws -> Int {
    guard FileManager.default.fileExists(atPath: db) else { return 0 }
    let database = try PullParityDatabase(path: db, readOnly: true)
    return try database.read { db in
      try Int.fetchOne(db, sql: "SELECT lines_read + lines_resumed FROM ingest_runs ORDER BY run_id DESC LIMIT 1") ?? 0
    }
  }

  static func statuses(_ database: PullParityDatabase) throws -> [String] {
    try database.read { db in try String.fetchAll(db, sql: "SELECT status FROM ingest_runs ORDER BY run_id") }
  }

  /// The ledger's counters summed over every run (sessions derived are left out: a run that
  /// finishes a killed one's work derives again the sessions that span the two).
  static func ledgerSums(_ database: PullParityDatabase) throws -> [String: Int] {
    let columns = [
      "lines_read", "events_stored", "duplicates", "conflicts", "quarantined", "already_quarantined", "blank_lines",
    ]
    return try database.read { db in
      let row = try #require(
        try Row.fetchOne(
          db, sql: "SELECT " + columns.map { "sum(\($0)) AS \($0)" }.joined(separator: ", ") + " FROM ingest_runs"))
      return try Dictionary(uniquePairs: columns.map { ($0, row[$0] as Int) })
    }
  }

  /// Runs whose counters do not add up to their lines.
  static func unbalancedRuns(_ database: PullParityDatabase) throws -> [Int64] {
    try database.read { db in
      try Int64.fetchAll(
        db,
        sql: """
          SELECT run_id FROM ingest_runs
          WHERE lines_read != events_stored + duplicates + conflicts + quarantined + already_quarantined + blank_lines
          """)
    }
  }

  static func ingest(_ log: String, _ db: String) throws -> CommandRun {
    try CommandRun.pullparity(["ingest", "--db", db, "--transaction-lines", "5000", "--quiet", log])
  }

  @Test func killedMidRunThenRerunEqualsACleanRun() throws {
    let dir = try TemporaryDirectory()
    let log = try Self.generateLog(in: dir)
    let clean = dir.path("clean.sqlite")
    #expect(try Self.ingest(log, clean).exitCode == 0)

    let killed = dir.path("killed.sqlite")
    let process = try Self.interruptedIngest(log: log, db: killed, signal: SIGKILL)
    #expect(process.terminationReason == .uncaughtSignal)

    // Readers do not judge runs; the next writer to open the file finds the run dead.
    #expect(try Self.statuses(PullParityDatabase(path: killed, readOnly: true)) == ["running"])
    // What was committed is whole: every stored event's session has been derived, and no
    // transaction is half there (the run's ledger row counts exactly what the tables hold).
    let afterKill = try PullParityDatabase(path: killed)
    #expect(try afterKill.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
    try StoredEventsTable.read(afterKill) { db in
      let orphans = try Int.fetchOne(
        db,
        sql: "SELECT count(DISTINCT session_id) FROM events WHERE session_id NOT IN (SELECT session_id FROM sessions)")
      #expect(orphans == 0)
      let row = try Row.fetchOne(db, sql: "SELECT status, lines_read, events_stored, recovered_at FROM ingest_runs")!
      #expect(row[0] as String == "interrupted")
      #expect(row[3] as String? != nil, "a run found dead says when")
      #expect((row[1] as Int) % 5000 == 0, "a killed run has committed whole transactions only")
      #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM events") == row[2] as Int)
    }

    #expect(try Self.ingest(log, killed).exitCode == 0)
    #expect(try DatabaseDump.all(afterKill) == DatabaseDump.all(try PullParityDatabase(path: clean)))
  }

  /// Killed three times at different points, then run to the end: the ledger summed over the
  /// four runs says what one clean run says (no resumed line counted twice), every run's
  /// counters add up to its lines, and the tables are the clean run's.
  @Test func ledgerSumsOverKilledRunsEqualACleanRun() throws {
    let dir = try TemporaryDirectory()
    let log = try Self.mixedLog(in: dir)
    let clean = dir.path("clean.sqlite")
    #expect(try Self.ingest(log, clean).exitCode == 0)
    let cleanDatabase = try PullParityDatabase(path: clean)
    let cleanSums = try Self.ledgerSums(cleanDatabase)
    #expect(cleanSums["duplicates"]! > 0 && cleanSums["quarantined"]! > 0 && cleanSums["conflicts"]! > 0)

    let killed = dir.path("killed.sqlite")
    for lines in [5_000, 40_000, 80_000] {
      let process = try Self.interruptedIngest(log: log, db: killed, signal: SIGKILL, lines: lines)
      #expect(process.terminationReason == .uncaughtSignal)
    }
    #expect(try Self.ingest(log, killed).exitCode == 0)

    let database = try PullParityDatabase(path: killed)
    #expect(try Self.statuses(database) == ["interrupted", "interrupted", "interrupted", "completed"])
    #expect(try Self.ledgerSums(database) == cleanSums)
    #expect(try Self.unbalancedRuns(database) == [])
    #expect(try Self.unbalancedRuns(cleanDatabase) == [])
    #expect(try DatabaseDump.all(database) == DatabaseDump.all(cleanDatabase))

    // Ingesting the file once more is a re-sent file, not a resumption: all duplicates.
    #expect(try Self.ingest(log, killed).exitCode == 0)
    let last = try database.read { db in
      try Row.fetchOne(db, sql: "SELECT * FROM ingest_runs ORDER BY run_id DESC LIMIT 1")!
    }
    #expect(last["lines_resumed"] as Int == 0)
    #expect(last["events_stored"] as Int == 0)
    #expect(last["duplicates"] as Int == cleanSums["events_stored"]! + cleanSums["duplicates"]!)
  }

  /// A writer opening the database while another process ingests leaves that run `running`:
  /// only a run whose process is gone is marked interrupted.
  @Test func aLiveRunIsNotTakenForADeadOne() throws {
    let dir = try TemporaryDirectory()
    let log = try Self.generateLog(in: dir)
    let db = dir.path("live.sqlite")
    let process = try Self.startedIngest(log: log, db: db, committing: 5000)
    let database = try PullParityDatabase(path: db)
    let seenWhileRunning = try Self.statuses(database)
    process.waitUntilExit()
    #expect(seenWhileRunning == ["running"])
    #expect(process.terminationStatus == 0)
    #expect(try Self.statuses(database) == ["completed"])
  }

  @Test func interruptStopsAfterTheTransactionAndSaysHowFarItGot() throws {
    let dir = try TemporaryDirectory()
    let log = try Self.generateLog(in: dir)
    let db = dir.path("interrupted.sqlite")
    let process = try Self.interruptedIngest(log: log, db: db, signal: SIGINT)
    #expect(process.terminationStatus == 130)
    let database = try PullParityDatabase(path: db)
    let status = try database.read { db in try String.fetchOne(db, sql: "SELECT status FROM ingest_runs") }
    #expect(status == "interrupted")
    let committed = try Self.linesCommitted(db)
    #expect(committed > 0 && committed < 100_000)

    #expect(try Self.ingest(log, db).exitCode == 0)
    let clean = dir.path("clean.sqlite")
    #expect(try Self.ingest(log, clean).exitCode == 0)
    let cleanDatabase = try PullParityDatabase(path: clean)
    #expect(try DatabaseDump.all(database) == DatabaseDump.all(cleanDatabase))
    #expect(try Self.ledgerSums(database) == Self.ledgerSums(cleanDatabase))
  }
}
