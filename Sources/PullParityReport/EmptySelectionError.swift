public import PullParityStore

/// A report, checklist or comparison matched no session. Nothing checked is not a pass, so the
/// command fails, naming the filter and the values the database does have.
public struct EmptySelectionError: Error, CustomStringConvertible, Sendable {
  public var database: String
  public var filter: SessionFilter
  public var values: FilterValues
  /// What was being selected, e.g. "the baseline cohort (app_version=3.8.0)".
  public var what: String

  public init(database: String, filter: SessionFilter, values: FilterValues, what: String = "the selection") {
    self.database = database
    self.filter = filter
    self.values = values
    self.what = what
  }

  public var description: String {
    guard values.sessions > 0 else {
      return "\(database) holds no sessions: run `pullparity ingest` first. Nothing was checked."
    }
    var lines = ["no session in \(database) matches \(what) (\(ReportHeader.filter(filter))). Nothing was checked."]
    let fields: [(String, String?, [String])] = [
      ("app", filter.app, values.apps), ("platform", filter.platform, values.platforms),
      ("app version", filter.appVersion, values.appVersions), ("screen", filter.screen, values.screens),
    ]
    var allExist = true
    for case let (name, value?, known) in fields where !known.contains(value) {
      allExist = false
      var line = "  \(name) \"\(value)\" is not in the database"
      line += Self.nearest(value, among: known).map { ": did you mean \($0)?" } ?? "."
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

  /// The known value the given one most likely meant: the same but for case, else one at most
  /// two edits away.
  static func nearest(_ value: String, among known: [String]) -> String? {
    if let same = known.first(where: { $0.lowercased() == value.lowercased() }) { return same }
    return known.map { ($0, editDistance(value.lowercased(), $0.lowercased())) }
      .filter { $0.1 <= 2 }.min { $0.1 < $1.1 }?.0
  }

  private static func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a)
    let b = Array(b)
    var row = Array(0...b.count)
    for i in 1...max(a.count, 1) where !a.isEmpty {
      var previous = row[0]
      row[0] = i
      for j in stride(from: 1, through: b.count, by: 1) {
        let current = row[j]
        row[j] = min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] == b[j - 1] ? 0 : 1))
        previous = current
      }
    }
    return row[b.count]
  }
}
