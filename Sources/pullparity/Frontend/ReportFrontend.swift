import PullParityCore
import PullParityIngest
import PullParityReport
import PullParityStore

/// Reads sessions, builds the parity report and renders it.
struct ReportFrontend {
  var database: PullParityDatabase
  var profiles: ProfileCatalog
  var tolerances: ParityTolerances = .default
  var dimension: GroupDimension = .trigger

  /// Failing sessions drawn event by event in the HTML report.
  static let exampleTimelines = 3

  func build(filter: SessionFilter) throws -> ParityReport {
    try input(filter: filter, format: .text).report
  }

  /// The report and, for formats that draw them, the sessions and example timelines behind it.
  func input(filter: SessionFilter, format: ReportFormat, style: TextStyle = .plain) throws -> ReportRenderInput {
    let queries = ReportQueries(database)
    let sessions = try queries.sessions(filter)
    let report = ParityReportBuilder(profiles: profiles, tolerances: tolerances, dimension: dimension)
      .build(sessions, filter: filter)
    guard format.needsSessionDetail else { return ReportRenderInput(report: report, style: style) }
    return ReportRenderInput(
      report: report, style: style, sessions: sessions, profiles: profiles,
      timelines: try timelines(filter: filter, queries: queries))
  }

  func render(filter: SessionFilter, format: ReportFormat, output: FileHandleOutput = .standardOutput) throws -> String
  {
    try format.render(
      input(filter: filter, format: format, style: TextStyle(colored: format == .text && output.wantsColor)))
  }

  /// A few sessions with violations, of different kinds, re-read from their stored raw lines.
  private func timelines(filter: SessionFilter, queries: ReportQueries) throws -> [SessionTimeline] {
    let violations = try queries.violations(filter)
    var decoder = LineDecoder(.simdjson)
    return try SessionTimeline.exampleSessionIDs(violations, limit: Self.exampleTimelines).map { id in
      let events = try queries.storedEvents(ofSession: id).compactMap { stored -> RecordedEvent? in
        guard case .event(let event) = decoder.decode(stored.raw) else { return nil }
        return RecordedEvent(event: event, source: stored.source, line: stored.line)
      }
      return SessionTimeline(events: events, violations: violations.filter { $0.sessionID == id })
    }
  }
}
