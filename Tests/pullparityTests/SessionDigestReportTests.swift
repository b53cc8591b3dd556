import Foundation
import GRDB
import PullParityCore
import PullParityStore
import PullParityTestSupport
import Testing

/// Reports read the stored day digests (schema 6) and the sessions of stale days: the same
/// report, byte for byte, as reading every session (`--from-sessions`), whatever was written
/// since the digests were counted.
@Suite struct SessionDigestReportTests {
  static let environment = ["SOURCE_DATE_EPOCH": "1795000000"]

  /// Every format that is built from the figures alone, every grouping, and the filters.
  static let cases: [[String]] =
    ["text", "markdown", "json", "csv"].flatMap { format in
      ["trigger", "screen", "app_version", "all"].map { ["report", "--format", format, "--by", $0] }
    } + [
      ["report", "--app", "padel"], ["report", "--platform", "ios", "--format", "json"],
      ["report", "--app", "ffci", "--screen", "TabPageView"],
      ["report", "--app", "padel", "--app-version", "3.8.1", "--format", "csv"],
      ["qa"], ["qa", "--format", "json"], ["qa", "--app", "padel", "--platform", "ios"], ["qa", "--app", "phlock"],
      // Whole days (dates are midnight UTC) come from the digests; a time that cuts a day does not.
      ["report", "--since", "2026-11-17", "--until", "2026-11-19", "--format", "json"],
      ["qa", "--since", "2026-11-18", "--format", "json"], ["report", "--until", "2026-11-18", "--by", "all"],
      ["report", "--since", "2026-11-17T12:00:00Z", "--format", "json"],
    ]

  @Test(arguments: cases) func digestsGiveTheResultOfEverySession(_ arguments: [String]) throws {
    let fromDigests = try Self.run(SampleDatabase.path, arguments)
    let fromSessions = try Self.run(SampleDatabase.path, arguments + ["--from-sessions"])
    #expect(!fromDigests.stdout.isEmpty)
    #expect(fromDigests.exitCode == fromSessions.exitCode)
    #expect(fromDigests.stdout == fromSessions.stdout)
  }

  @Test func ingestLeavesEveryDayDigestedAndNoneStale() throws {
    let (digests, stale) = try Self.state(SampleDatabase.path)
    #expect(digests > 0)
    #expect(stale == 0)
  }

  /// `--stats` accounts for the digests counted after the run, apart from the run's wall time.
  @Test func ingestStatsNameTheTimeSpentOnDigests() throws {
    let dir = try TemporaryDirectory()
    let run = try CommandRun.pullparity([
      "ingest", "--quiet", "--stats", "--db", dir.path("s.sqlite"), RepositoryPaths.sampleEvents.path,
    ])
    #expect(run.exitCode == 0)
    #expect(
      run.stdout.contains(
        /\n  wall +\d+\.\d\d\n  then report digests +\d+\.\d\d  \(0 days extended, [1-9]\d* days? counted whole\)\n/))
    #expect(try Self.state(dir.path("s.sqlite")).digests > 0)
  }

  /// The digests are what the report reads: one swapped for another cell's changes the report,
  /// and only `--from-sessions` still gives the true one.
  @Test func theReportReadsTheStoredDigests() throws {
    let dir = try TemporaryDirectory()
    let path = try Self.copyOfSample(in: dir)
    let before = try Self.report(path, []).stdout
    try DatabaseQueue(path: path).write { db in
      try db.execute(
        sql: """
          UPDATE session_digests SET digest = (SELECT digest FROM session_digests ORDER BY sessions DESC LIMIT 1)
          WHERE rowid = (SELECT rowid FROM session_digests ORDER BY sessions LIMIT 1)
          """)
    }
    #expect(try Self.report(path, []).stdout != before)
    #expect(try Self.report(path, ["--from-sessions"]).stdout == before)
    // A window of whole days reads the digests too; one that cuts a day reads the sessions.
    let wholeDays = ["--since", "2026-11-01", "--until", "2026-12-01"]
    let fromSessions = try Self.report(path, wholeDays + ["--from-sessions"]).stdout
    #expect(try Self.report(path, wholeDays).stdout != fromSessions)
    let cut = ["--since", "2026-11-01T00:00:00.001Z"]
    #expect(try Self.report(path, cut).stdout == (try Self.report(path, cut + ["--from-sessions"])).stdout)
  }

  /// A session changed behind PullParity's back marks its day stale: the report reads that
  /// day's sessions, so it shows the change at once, and the next write counts the day again.
  @Test func aChangedSessionIsReadFromItsSessionsUntilTheNextWrite() throws {
    let dir = try TemporaryDirectory()
    let path = try Self.copyOfSample(in: dir)
    let before = try Self.report(path, ["--format", "json"]).stdout
    try DatabaseQueue(path: path).write { db in
      try db.execute(
        sql: """
          UPDATE sessions SET flash = 1 - flash
          WHERE session_ref = (SELECT min(session_ref) FROM sessions WHERE flash IS NOT NULL)
          """)
    }
    #expect(try Self.state(path).stale == 1)
    try Self.expectOutcomeCountsOfEverySession(path)
    let changed = try Self.report(path, ["--format", "json"]).stdout
    #expect(changed != before)
    #expect(changed == (try Self.report(path, ["--format", "json", "--from-sessions"])).stdout)

    let empty = try dir.write("empty.jsonl", "")
    #expect(try CommandRun.pullparity(["ingest", "--quiet", "--db", path, empty]).exitCode == 0)
    #expect(try Self.state(path).stale == 0)
    try Self.expectOutcomeCountsOfEverySession(path)
    #expect(try Self.report(path, ["--format", "json"]).stdout == changed)
  }

  /// A digest that does not decode is never trusted: the report reads every session instead.
  @Test func anUnreadableDigestFallsBackToTheSessions() throws {
    let dir = try TemporaryDirectory()
    let path = try Self.copyOfSample(in: dir)
    let before = try Self.report(path, []).stdout
    try DatabaseQueue(path: path).write { db in
      try db.execute(
        sql: "UPDATE session_digests SET digest = x'0102' WHERE rowid = (SELECT min(rowid) FROM session_digests)")
    }
    #expect(try Self.report(path, []).stdout == before)
  }

  /// The outcome counts `ingest` prints (digests, and the sessions of stale days) are those of
  /// every session.
  static func expectOutcomeCountsOfEverySession(_ path: String) throws {
    let database = try PullParityDatabase(path: path, readOnly: true)
    let counted = try database.read { db in
      try Row.fetchAll(db, sql: "SELECT outcome, count(*) AS n FROM sessions GROUP BY outcome").map {
        (try #require(SessionOutcome(rawValue: $0["outcome"])), $0["n"] as Int)
      }
    }
    #expect(try ReportQueries(database).outcomeCounts() == Dictionary(uniquePairs: counted))
  }

  /// A file that has no digests table (an older release's, read without migrating it) is read
  /// session by session, with the same result.
  @Test func aFileWithoutDigestsIsReadSessionBySession() throws {
    let dir = try TemporaryDirectory()
    let path = try Self.copyOfSample(in: dir)
    let before = try Self.report(path, []).stdout
    try DatabaseQueue(path: path).write { db in try db.execute(sql: "DROP TABLE session_digests") }
    let after = try Self.report(path, [])
    #expect(after.exitCode == 0)
    #expect(after.stdout == before)
    let qa = try Self.run(path, ["qa", "--format", "json"])
    #expect(qa.stdout == (try Self.run(path, ["qa", "--format", "json", "--from-sessions"])).stdout)
  }

  static func report(_ path: String, _ arguments: [String]) throws -> CommandRun {
    try run(path, ["report"] + arguments)
  }

  /// `pullparity COMMAND --db path ARGUMENTS...`.
  static func run(_ path: String, _ arguments: [String]) throws -> CommandRun {
    try CommandRun.pullparity(
      [arguments[0], "--db", path] + arguments.dropFirst(), environment: environment)
  }

  /// Digest rows and stale days.
  static func state(_ path: String) throws -> (digests: Int, stale: Int) {
    try DatabaseQueue(path: path).read { db in
      (
        try Int.fetchOne(db, sql: "SELECT count(*) FROM session_digests") ?? 0,
        try Int.fetchOne(db, sql: "SELECT count(*) FROM stale_digest_days") ?? 0
      )
    }
  }

  /// The sample database copied (as a consistent snapshot) under `dir`, as `samples.sqlite`:
  /// reports name the file, so every copy must have the same name for outputs to compare.
  static func copyOfSample(in dir: TemporaryDirectory) throws -> String {
    let path = dir.path("samples.sqlite")
    try SampleDatabase.copy(to: path)
    return path
  }
}
