internal import PullParityCore
package import PullParityStore

/// Schema 16's tables: what the dashboard shows that SQL cannot compute (the gate's verdicts,
/// intervals with false alarms controlled across the report) or not fast enough (percentiles,
/// a sort of every session per request), from the report `pullparity report --check` gives on
/// the whole file. `DigestRefresh.afterWrite` writes them, once the digests they are read from
/// are up to date.
package enum DashboardTables {
  /// Brings the tables up to date once the digests are: the day counts went with each stale
  /// day's digests (`DigestWriter`), the verdicts and percentiles follow when a day changed. A
  /// file that just got the tables (schema 16) has every day not counted yet counted, and is
  /// written whole, even by a write that changed no day.
  package static func refresh(_ database: PullParityDatabase, daysChanged: Bool) throws {
    let tables = DashboardTablesWriter(database)
    if try tables.isEmpty() {
      try tables.countUncountedDays()
    } else if !daysChanged {
      return
    }
    try write(database)
  }

  private static func write(_ database: PullParityDatabase) throws {
    let context = ReportContext(database: "", filter: SessionFilter(), toolVersion: "", generatedAtMs: 0)
    let report = try ParityReport.judged(database, filter: SessionFilter(), context: context)
    try DashboardTablesWriter(database).replace(verdicts: verdicts(report), percentiles: percentiles(report))
  }

  /// One row per app and platform, as alerts read them (`gateReadings`).
  package static func verdicts(_ report: ParityReport) -> [DashboardTablesWriter.VerdictRow] {
    report.gateReadings.map { reading in
      let verdict =
        switch reading.status {
        case .failing: "fail"
        case .passing: "pass"
        case nil: "too_few"
        }
      return DashboardTablesWriter.VerdictRow(
        app: reading.gate.app, platform: reading.gate.platform, verdict: verdict, sessions: reading.sessions,
        figures: reading.failing)
    }
  }

  /// One row per metric of each trigger group's platforms, rounded as the report prints them.
  package static func percentiles(_ report: ParityReport) -> [DashboardTablesWriter.PercentileRow] {
    report.apps.flatMap { app in
      app.groups.filter { $0.dimension == GroupDimension.trigger.rawValue }.flatMap { group in
        group.platforms.flatMap { platform in
          platform.distributions.keys.sorted().map { metric in
            let values = platform.distributions[metric]!
            return DashboardTablesWriter.PercentileRow(
              app: app.app, profile: app.profile.name, profileVersion: app.profile.version,
              platform: platform.platform, trigger: group.value, metric: metric, sessions: values.n,
              percentiles: (Measured.value(values.p50), Measured.value(values.p90), Measured.value(values.p95)))
          }
        }
      }
    }
  }
}
