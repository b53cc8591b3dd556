internal import PullParityCore
package import PullParityStore

/// A report, checklist or comparison matched no session. Nothing checked is not a pass, so the
/// command fails, naming the filter and the values the database does have.
package struct EmptySelectionError: Error, CustomStringConvertible, Sendable {
  package var database: String
  package var filter: SessionFilter
  package var values: FilterValues
  /// What was being selected, e.g. "the baseline cohort"; the message adds the filter.
  package var what: String

  package init(database: String, filter: SessionFilter, values: FilterValues, what: String = "the selection") {
    self.database = database
    self.filter = filter
    self.values = values
    self.what = what
  }

  package var description: String {
    guard values.sessions > 0 else {
      return "\(database) holds no sessions: run `pullparity ingest` first. Nothing was checked."
    }
    var lines = ["no session in \(database) matches \(what) (\(ReportHeader.filter(filter))). Nothing was checked."]
    let fields: [(String, String?, [String])] = [
      ("app", filter.app, values.apps), ("platform", filter.platform, values.platforms),
      ("app version", filter.appVersion, values.appVersions), ("screen", filter.screen, values.screens),
    ]
    var allExist = true
    for case (let name, let value?, let known) in fields where !known.contains(value) {
      allExist = false
      var line = "  \(name) \"\(value)\" is not in the database"
      line += NearestName.nearest(value, among: known).map { ": did you mean \($0)?" } ?? "."
      lines.append(line + " Known: \(Self.list(known)).")
    }
    if allExist {
      lines.append("  Each value exists, but no session has them all (or none falls in the time range).")
    }
    return lines.joined(separator: "\n")
  }

  private static func list(_ values: [String]) -> String {
    values.isEmpty ? "none" : values.prefix(12).joined(separator: ", ") + (values.count > 12 ? ", …" : "")
  }
}
