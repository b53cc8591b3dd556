package import PullParityStore

/// What an alert judges: the sessions that started within `seconds` before the newest session
/// in the database, as `report` judges them by default (sliced by trigger, its tolerances and
/// minimum sample). The window ends at the data's newest session, not at the wall clock, so a
/// backlog or an old log ingested late is judged on its own timeline, and a platform is judged
/// on what its users did lately: a stuck spinner last week does not fail it forever.
package struct GateWindow: Sendable {
  package var seconds: Double

  package init(seconds: Double) {
    self.seconds = seconds
  }

  package struct Reading: Sendable {
    package var readings: [GateReading]
    package var sinceMs: Double
    package var untilMs: Double
  }

  /// The readings of `database` (named `name` in messages); nil when it holds no session.
  package func read(_ database: PullParityDatabase, name: String, toolVersion: String, nowMs: Double) throws
    -> Reading?
  {
    let queries = ReportQueries(database)
    guard let newest = try queries.newestSessionStartMs() else { return nil }
    let since = newest - seconds * 1000
    let filter = SessionFilter(sinceMs: since)
    let context = ReportContext(database: name, filter: filter, toolVersion: toolVersion, generatedAtMs: nowMs)
    let report = try ParityReport.judged(database, filter: filter, context: context)
    return Reading(readings: report.gateReadings, sinceMs: since, untilMs: newest)
  }
}
