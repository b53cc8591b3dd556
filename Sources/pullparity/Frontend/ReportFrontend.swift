import PullParityCore
import PullParityIngest
import PullParityReport
import PullParityStore

/// Reads what `report`, `qa` and `compare` judge: the selected sessions, their violations and the
/// profiles they were derived with, as the database stores them. A selection that matches no
/// session is an error, never an empty pass.
struct ReportFrontend {
  var database: PullParityDatabase
  /// As named on the command line, for messages and the report's context.
  var databaseName: String
  var tolerances: ParityTolerances = .default
  var policy: VerdictPolicy = .default
  var nowMs: Double = ReportClock.nowMs()

  /// Failing sessions drawn event by event in the HTML report.
  static let exampleTimelines = 3

  var queries: ReportQueries { ReportQueries(database) }

  func context(_ filter: SessionFilter) -> ReportContext {
    ReportContext(
      database: databaseName, filter: filter, toolVersion: PullParity.version, generatedAtMs: nowMs,
      tolerances: tolerances, policy: policy)
  }

  func profiles() throws -> SessionProfiles { SessionProfiles(stored: try queries.storedProfiles()) }

  /// The sessions of `filter`; throws `EmptySelectionError` when there are none.
  func sessions(_ filter: SessionFilter, what: String = "the selection") throws -> [SessionRecord] {
    let sessions = try queries.sessions(filter)
    guard sessions.isEmpty else { return sessions }
    throw EmptySelectionError(database: databaseName, filter: filter, values: try queries.filterValues(), what: what)
  }

  /// The report and, for formats that draw them, the sessions and example timelines behind it.
  func input(filter: SessionFilter, dimension: GroupDimension, format: ReportFormat, style: TextStyle = .plain)
    throws -> ReportRenderInput
  {
    let sessions = try sessions(filter)
    let report = ParityReportBuilder(profiles: try profiles(), dimension: dimension)
      .build(sessions, context: context(filter))
    guard format.needsSessionDetail else { return ReportRenderInput(report: report, style: style) }
    return ReportRenderInput(
      report: report, style: style, sessions: sessions, timelines: try timelines(filter: filter))
  }

  /// A few sessions with violations, of different kinds, re-read from their stored raw lines.
  private func timelines(filter: SessionFilter) throws -> [SessionTimeline] {
    var decoder = LineDecoder(.simdjson)
    let ids = try SessionTimeline.exampleSessionIDs(limit: Self.exampleTimelines) { kind, count in
      try queries.violatingSessionIDs(filter, kind: kind, limit: count)
    }
    return try ids.map { id in
      let stored = try queries.storedEvents(ofSession: id)
      // A session whose lines no longer decode is still drawn: its violations are stored.
      let events = (try? decoder.sessionEvents(stored, sessionID: id)) ?? []
      return SessionTimeline(events: events, violations: try queries.violations(ofSession: id))
    }
  }
}
