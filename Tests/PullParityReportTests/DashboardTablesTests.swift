import Foundation
import GRDB
import PullParityIngest
import PullParitySchema
import PullParityStore
import PullParityTestSupport
import Testing

@testable import PullParityReport

/// Schema 16: every write leaves `gate_verdicts` and `metric_percentiles` saying what the
/// report on the whole file says, as the report built from the sessions themselves says it,
/// and `daily_counts` and `daily_violations` adding up to what the views count.
@Suite struct DashboardTablesTests {
  static func ingest(_ logs: [String], into database: PullParityDatabase) throws {
    let paths = logs.map { RepositoryPaths.sampleEvents.appendingPathComponent($0).path }
    let summary = try Ingestor(database: database, options: IngestOptions(toolVersion: "test"))
      .run(try InputCatalog.expand(paths))
    #expect(summary.digests?.failure == nil)
  }

  static func verdicts(_ database: PullParityDatabase) throws -> [DashboardTablesWriter.VerdictRow] {
    try database.read { db in
      try Row.fetchAll(db, sql: "SELECT * FROM gate_verdicts ORDER BY app, platform").map { row in
        let figures: String = row["figures"]
        let failing: Int = row["failing"]
        #expect(figures.isEmpty ? failing == 0 : figures.components(separatedBy: "; ").count == failing)
        return DashboardTablesWriter.VerdictRow(
          app: row["app"], platform: row["platform"], verdict: row["verdict"], sessions: row["sessions"],
          figures: figures.isEmpty ? [] : figures.components(separatedBy: "; "))
      }
    }
  }

  static func percentiles(_ database: PullParityDatabase) throws -> [DashboardTablesWriter.PercentileRow] {
    try database.read { db in
      let sql = """
        SELECT * FROM metric_percentiles ORDER BY app, profile, profile_version, "trigger", platform, metric
        """
      return try Row.fetchAll(db, sql: sql).map { row in
        DashboardTablesWriter.PercentileRow(
          app: row["app"], profile: row["profile"], profileVersion: row["profile_version"],
          platform: row["platform"], trigger: row["trigger"], metric: row["metric"], sessions: row["sessions"],
          percentiles: (row["p50"], row["p90"], row["p95"]))
      }
    }
  }

  /// The report `pullparity report` gives by default, built from every stored session (no digest).
  static func reportFromSessions(_ database: PullParityDatabase) throws -> ParityReport {
    let queries = ReportQueries(database)
    let builder = ParityReportBuilder(profiles: SessionProfiles(stored: try queries.storedProfiles()))
    let context = ReportContext(database: "", filter: SessionFilter(), toolVersion: "", generatedAtMs: 0)
    return builder.build(try queries.sessions(SessionFilter()), context: context)
  }

  static func expectTablesSayWhatTheReportSays(_ database: PullParityDatabase) throws {
    let report = try reportFromSessions(database)
    #expect(try verdicts(database) == DashboardTables.verdicts(report))
    let stored = try percentiles(database)
    let wanted = DashboardTables.percentiles(report)
    #expect(stored.count == wanted.count && !stored.isEmpty)
    for (got, want) in zip(stored, wanted) { #expect(got == want) }
  }

  /// `daily_parity`'s counts, which `daily_counts` keeps by day, trigger and app version.
  static let countColumns = [
    "sessions", "completed", "cancelled", "incomplete", "abandoned", "flash_sessions", "flash_judged",
    "premature_hide_sessions", "premature_hide_judged", "late_hide_sessions", "late_hide_judged",
    "hold_compliant_sessions", "hold_compliant_judged", "label_violation_sessions", "label_judged",
    "arm_mismatch_sessions", "arm_judged", "stuck_refresh_sessions", "stuck_refresh_judged",
    "dropped_refresh_sessions", "dropped_refresh_judged", "repeated_refresh_sessions", "repeated_refresh_judged",
    "near_miss_cancels", "near_miss_judged", "abandoned_during_refresh_sessions", "abandoned_during_refresh_judged",
    "pending_sessions", "pending_until_ms",
  ]

  /// The per-day tables, added up, are what the views count from every session: compared in
  /// SQL, both ways, by day, app, platform and trigger (and by app version, as the version
  /// panel adds them up).
  static func expectDailyCountsAreTheViews(_ database: PullParityDatabase) throws {
    let sums = countColumns.map { $0 == "pending_until_ms" ? "max(\($0))" : "sum(\($0))" }.joined(separator: ", ")
    let pairs = [
      (
        """
        SELECT date(day * 86400, 'unixepoch'), app, platform, "trigger", \(sums)
        FROM daily_counts GROUP BY day, app, platform, "trigger"
        """,
        "SELECT day, app, platform, \"trigger\", \(countColumns.joined(separator: ", ")) FROM daily_parity"
      ),
      (
        """
        SELECT app, platform, kind, sum(violations), sum(sessions_affected)
        FROM daily_violations GROUP BY app, platform, kind
        """,
        "SELECT app, platform, kind, violations, sessions_affected FROM violation_counts"
      ),
      (
        """
        SELECT app, app_version, platform, min(first_started_at_ms), sum(sessions), sum(flash_sessions),
               sum(flash_judged), sum(stuck_refresh_sessions), sum(dropped_refresh_judged)
        FROM daily_counts GROUP BY app, app_version, platform
        """,
        """
        SELECT app, app_version, platform, min(started_at_ms), count(*), coalesce(sum(flash), 0), count(flash),
               coalesce(sum(stuck_refresh), 0), count(dropped_refresh)
        FROM sessions GROUP BY app, app_version, platform
        """
      ),
    ]
    for (stored, counted) in pairs {
      let (rows, extra, missing) = try database.read { db in
        (
          try Int.fetchOne(db, sql: "SELECT count(*) FROM (\(counted))")!,
          try Row.fetchAll(db, sql: "\(stored) EXCEPT \(counted)"),
          try Row.fetchAll(db, sql: "\(counted) EXCEPT \(stored)")
        )
      }
      #expect(rows > 0)
      #expect(extra == [] && missing == [], "\(stored)")
    }
  }

  @Test func anIngestLeavesTheReportsVerdictsAndPercentiles() throws {
    let dir = try TemporaryDirectory()
    let database = try PullParityDatabase(path: dir.path("d.sqlite"))
    try Self.ingest(["padel-pwa.jsonl", "padel-ios-1.jsonl"], into: database)
    try Self.expectTablesSayWhatTheReportSays(database)
    try Self.expectDailyCountsAreTheViews(database)
    // What the sample is known to hold: the PWA's flashes fail it, and its pull percentiles.
    let pwa = try #require(try Self.verdicts(database).first { $0.platform == "pwa" })
    #expect(pwa.app == "padel" && pwa.verdict == "fail")
    #expect(pwa.figures.contains { $0.hasPrefix("pull: flash ") })
    let arm = try #require(
      try Self.percentiles(database).first {
        $0.platform == "pwa" && $0.trigger == "pull" && $0.metric == "time_to_arm_ms"
      })
    #expect(arm.sessions > 0 && arm.p50! <= arm.p90! && arm.p90! <= arm.p95!)
  }

  @Test func theNextWriteRewritesThemWhole() throws {
    let dir = try TemporaryDirectory()
    let database = try PullParityDatabase(path: dir.path("d.sqlite"))
    try Self.ingest(["padel-pwa.jsonl"], into: database)
    #expect(try Set(Self.verdicts(database).map(\.app)) == ["padel"])
    try Self.ingest(["phlock-ios.jsonl", "padel-ios-1.jsonl"], into: database)
    #expect(try Set(Self.verdicts(database).map(\.app)) == ["padel", "phlock"])
    try Self.expectTablesSayWhatTheReportSays(database)
    try Self.expectDailyCountsAreTheViews(database)
    try database.write { db in try db.execute(sql: "DELETE FROM sessions WHERE app = 'phlock'") }
    _ = try DigestRefresh.afterWrite(database)
    #expect(try Set(Self.verdicts(database).map(\.app)) == ["padel"])
    try Self.expectTablesSayWhatTheReportSays(database)
    try Self.expectDailyCountsAreTheViews(database)
  }

  /// The file as version 15 left it: without the tables of schemas 16 and 17, nor the record of
  /// their migrations.
  static func takeBackToVersion15(_ database: PullParityDatabase) throws {
    try database.write { db in
      for table in ["gate_verdicts", "metric_percentiles", "daily_counts", "daily_violations", "dataset_runs"] {
        try db.execute(sql: "DROP TABLE \(table)")
      }
      try db.execute(
        sql: "DELETE FROM grdb_migrations WHERE identifier IN ('0016_dashboard_verdicts', '0017_dataset_runs')")
    }
  }

  /// Only the dashboard reads the tables: a read-only open takes a file of version 15 as it is,
  /// and its next write fills them, even one that stores nothing new.
  @Test func aFileOfVersion15GetsThemAtItsNextWrite() throws {
    let dir = try TemporaryDirectory()
    let path = dir.path("v15.sqlite")
    let written = try PullParityDatabase(path: path)
    try Self.ingest(["phlock-ios.jsonl"], into: written)
    try Self.takeBackToVersion15(written)
    let reader = try PullParityDatabase(path: path, readOnly: true)
    #expect(try reader.appliedMigrations().last == "0015_digest_appends")
    let database = try PullParityDatabase(path: path)
    #expect(try Self.verdicts(database).isEmpty)
    try Self.ingest(["phlock-ios.jsonl"], into: database)  // nothing new
    #expect(try Self.verdicts(database).map(\.app) == ["phlock"])
    try Self.expectTablesSayWhatTheReportSays(database)
    try Self.expectDailyCountsAreTheViews(database)
  }

  /// A file of version 15 whose first write after the upgrade adds sessions to a day counted
  /// before: the day's digests are extended, and its counts, which the file never had, are
  /// counted whole, not from the new sessions alone.
  @Test func aFileOfVersion15CountsWholeADayItsFirstWriteExtends() throws {
    let dir = try TemporaryDirectory()
    let path = dir.path("v15-extended.sqlite")
    let written = try PullParityDatabase(path: path)
    try Self.ingest(["padel-pwa.jsonl"], into: written)
    try Self.takeBackToVersion15(written)
    let database = try PullParityDatabase(path: path)
    // phlock-ios.jsonl's sessions start on padel-pwa.jsonl's day, 2026-11-16.
    let paths = [RepositoryPaths.sampleEvents.appendingPathComponent("phlock-ios.jsonl").path]
    let summary = try Ingestor(database: database, options: IngestOptions(toolVersion: "test"))
      .run(try InputCatalog.expand(paths))
    #expect(summary.digests?.failure == nil)
    let days = try #require(summary.digests?.days)
    #expect(days.extended >= 1 && days.whole == 0, "\(days)")
    try Self.expectTablesSayWhatTheReportSays(database)
    try Self.expectDailyCountsAreTheViews(database)
  }
}
