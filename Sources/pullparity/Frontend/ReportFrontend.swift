import PullParityCore
import PullParityReport
import PullParityStore

/// Reads sessions, builds the parity report and renders it.
struct ReportFrontend {
  var database: PullParityDatabase
  var profiles: ProfileCatalog
  var tolerances: ParityTolerances = .default
  var dimension: GroupDimension = .trigger

  func build(filter: SessionFilter) throws -> ParityReport {
    let sessions = try ReportQueries(database).sessions(filter)
    return ParityReportBuilder(profiles: profiles, tolerances: tolerances, dimension: dimension)
      .build(sessions, filter: filter)
  }

  func render(filter: SessionFilter, format: ReportFormat, output: FileHandleOutput = .standardOutput) throws -> String {
    try format.render(build(filter: filter), style: TextStyle(colored: format == .text && output.wantsColor))
  }
}
