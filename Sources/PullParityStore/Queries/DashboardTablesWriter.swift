internal import GRDB

/// Replaces schema 16's tables, `gate_verdicts` and `metric_percentiles`: the write half. What
/// their rows say is the report's business; this only stores them, whole, in one transaction.
/// (Its per-day tables are counted in SQL with each day's digests: `DailyCounts`.)
package struct DashboardTablesWriter {
  package let database: PullParityDatabase

  package init(_ database: PullParityDatabase) {
    self.database = database
  }

  /// One app's platform as the gate judged it.
  package struct VerdictRow: Equatable, Sendable {
    package var app: String
    package var platform: String
    /// `fail`, `pass` or `too_few`.
    package var verdict: String
    package var sessions: Int
    /// The failing figures in words.
    package var figures: [String]

    package init(app: String, platform: String, verdict: String, sessions: Int, figures: [String]) {
      (self.app, self.platform, self.verdict, self.sessions, self.figures) = (app, platform, verdict, sessions, figures)
    }
  }

  /// One metric's percentiles for an app's platform and trigger, under one profile version.
  package struct PercentileRow: Equatable, Sendable {
    package var app: String
    package var profile: String
    package var profileVersion: Int
    package var platform: String
    package var trigger: String
    package var metric: String
    package var sessions: Int
    package var p50: Double?
    package var p90: Double?
    package var p95: Double?

    package init(
      app: String, profile: String, profileVersion: Int, platform: String, trigger: String, metric: String,
      sessions: Int, percentiles: (Double?, Double?, Double?)
    ) {
      (self.app, self.profile, self.profileVersion) = (app, profile, profileVersion)
      (self.platform, self.trigger) = (platform, trigger)
      (self.metric, self.sessions) = (metric, sessions)
      (p50, p90, p95) = percentiles
    }
  }

  /// Whether the verdicts are still to be written: a file that just got the tables (schema 16)
  /// fills them at its next write even when that write changed no day.
  package func isEmpty() throws -> Bool {
    try database.read { db in try !Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM gate_verdicts)")! }
  }

  /// `daily_counts` and `daily_violations` of every day not counted yet, for a file that just
  /// got them: the days its write counted with their digests (`DigestWriter`) are not counted
  /// again, and later writes keep them all with each stale day's digests.
  package func countUncountedDays() throws {
    try DailyCounts.countUncountedDays(database)
  }

  /// The tables' rows replaced by these.
  package func replace(verdicts: [VerdictRow], percentiles: [PercentileRow]) throws {
    // Through SQLite's C API: apps and platforms are keys, and GRDB would bind them up to
    // their first NUL (see `RawStatement`).
    try database.write { db in
      try db.execute(sql: "DELETE FROM gate_verdicts")
      try db.execute(sql: "DELETE FROM metric_percentiles")
      let verdict = try RawStatement(db, "INSERT INTO gate_verdicts VALUES (?, ?, ?, ?, ?, ?)")
      for row in verdicts {
        verdict.bind(1, row.app)
        verdict.bind(2, row.platform)
        verdict.bind(3, row.verdict)
        verdict.bind(4, row.sessions)
        verdict.bind(5, row.figures.count)
        verdict.bind(6, row.figures.joined(separator: "; "))
        try verdict.execute("writing the gate verdict of \(row.app) on \(row.platform)")
      }
      let percentile = try RawStatement(db, "INSERT INTO metric_percentiles VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
      for row in percentiles {
        percentile.bind(1, row.app)
        percentile.bind(2, row.profile)
        percentile.bind(3, row.profileVersion)
        percentile.bind(4, row.platform)
        percentile.bind(5, row.trigger)
        percentile.bind(6, row.metric)
        percentile.bind(7, row.sessions)
        percentile.bind(8, row.p50)
        percentile.bind(9, row.p90)
        percentile.bind(10, row.p95)
        try percentile.execute("writing the \(row.metric) percentiles of \(row.app) on \(row.platform)")
      }
    }
  }
}
