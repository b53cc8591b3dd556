/// Why a `--baseline`/`--candidate` selector was refused. `cohort` is the option's name without
/// dashes (`baseline`, `candidate`).
package enum CohortSelectorError: Error, Equatable, Sendable, CustomStringConvertible {
  case empty(cohort: String)
  case notKeyValue(cohort: String, part: String)
  case unknownKey(cohort: String, key: String)
  case emptyValue(cohort: String, key: String)
  case repeatedKey(cohort: String, key: String)
  case badTime(cohort: String, key: String, value: String)
  /// `since` is not before `until`, once the common filters are applied too.
  case emptyTimeRange(cohort: String)
  /// The selector asks for a value the common filters already exclude, e.g. `platform=pwa`
  /// with `--platform ios`: the cohort could only ever be empty.
  case contradictsFilter(cohort: String, key: String, value: String, filter: String)
  /// Both selectors, with the common filters, pick the same sessions: nothing to compare.
  case sameSessions

  package var description: String {
    switch self {
    case .empty(let cohort):
      "--\(cohort) is empty; give one or more key=value selectors (keys: \(CohortKey.list))"
    case .notKeyValue(let cohort, let part):
      part.isEmpty
        ? "--\(cohort) has an empty selector between commas"
        : "--\(cohort): \"\(part)\" is not key=value (keys: \(CohortKey.list))"
    case .unknownKey(let cohort, let key):
      key == "app"
        ? "--\(cohort): app is not a cohort key; both cohorts are of the app given with --app"
        : "--\(cohort): unknown key \"\(key)\" (keys: \(CohortKey.list))"
    case .emptyValue(let cohort, let key):
      "--\(cohort): \(key) has no value"
    case .repeatedKey(let cohort, let key):
      "--\(cohort): \(key) is given twice"
    case .badTime(let cohort, let key, let value):
      "--\(cohort): \(key)=\(value) is not a date (YYYY-MM-DD) or an RFC 3339 time with an offset"
    case .emptyTimeRange(let cohort):
      "--\(cohort): since is not before until, so the cohort is empty"
    case .contradictsFilter(let cohort, let key, let value, let filter):
      "--\(cohort): \(key)=\(value) contradicts \(filter), so the cohort is empty"
    case .sameSessions:
      "--baseline and --candidate select the same sessions; nothing to compare"
    }
  }
}
