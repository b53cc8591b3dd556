package import PullParityStore

extension ParityReport {
  /// What `pullparity report` judges by default on `filter`'s sessions: grouped by trigger,
  /// with the stored profiles and the default tolerances and policy, from the digests where
  /// they serve. Alerts (`GateWindow`) and the dashboard's tables (`DashboardTables`) read it.
  package static func judged(_ database: PullParityDatabase, filter: SessionFilter, context: ReportContext) throws
    -> ParityReport
  {
    let queries = ReportQueries(database)
    let builder = ParityReportBuilder(profiles: SessionProfiles(stored: try queries.storedProfiles()))
    return try SelectionRead(queries).report(builder, context: context, filter: filter) { add in
      try queries.forEachSession(filter, add)
    }
  }
}
