package import PullParityStore

/// One side of a comparison: the sessions a `--baseline` or `--candidate` selector picks, within
/// the common filters that apply to both sides.
package struct Cohort: Equatable, Sendable, Encodable {
  /// `baseline` or `candidate`.
  package var name: String
  /// The selector as given, without blanks around its parts: `app_version=3.8.1,screen=feed`.
  package var selector: String
  /// The common filters narrowed by the selector: what is read from the database.
  package var filter: SessionFilter

  package init(name: String, selector: String, filter: SessionFilter) {
    self.name = name
    self.selector = selector
    self.filter = filter
  }

  /// Parses `key=value[,key=value...]` (keys: `CohortKey`) and narrows `base` by it. `time`
  /// turns a `since`/`until` value into epoch ms, `nil` when it is not a time; it is passed in
  /// so that cohorts and the common `--since`/`--until` read times the same way.
  package static func parse(
    name: String, selector text: String, within base: SessionFilter, time: (String) -> Double?
  ) throws(CohortSelectorError) -> Cohort {
    let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { trimmed($0) }
    guard parts != [""] else { throw .empty(cohort: name) }
    var filter = base
    var seen: Set<CohortKey> = []
    var normalized: [String] = []
    for part in parts {
      guard let equals = part.firstIndex(of: "=") else { throw .notKeyValue(cohort: name, part: part) }
      let keyText = trimmed(part[..<equals])
      let value = trimmed(part[part.index(after: equals)...])
      guard let key = CohortKey(rawValue: keyText) else { throw .unknownKey(cohort: name, key: keyText) }
      guard !value.isEmpty else { throw .emptyValue(cohort: name, key: keyText) }
      guard seen.insert(key).inserted else { throw .repeatedKey(cohort: name, key: keyText) }
      normalized.append("\(keyText)=\(value)")
      switch key {
      case .appVersion:
        filter.appVersion = try narrow(base.appVersion, to: value, key: key, option: "--app-version", cohort: name)
      case .platform:
        filter.platform = try narrow(base.platform, to: value, key: key, option: "--platform", cohort: name)
      case .screen:
        filter.screen = try narrow(base.screen, to: value, key: key, option: "--screen", cohort: name)
      case .since:
        guard let ms = time(value) else { throw .badTime(cohort: name, key: keyText, value: value) }
        // Both bounds hold, so the later start wins.
        filter.sinceMs = max(base.sinceMs ?? ms, ms)
      case .until:
        guard let ms = time(value) else { throw .badTime(cohort: name, key: keyText, value: value) }
        filter.untilMs = min(base.untilMs ?? ms, ms)
      }
    }
    if let since = filter.sinceMs, let until = filter.untilMs, since >= until {
      throw .emptyTimeRange(cohort: name)
    }
    return Cohort(name: name, selector: normalized.joined(separator: ","), filter: filter)
  }

  /// Both cohorts of a comparison; refuses a pair that selects the same sessions, since that
  /// comparison would pass whatever the data.
  package static func pair(
    baseline: String, candidate: String, within base: SessionFilter, time: (String) -> Double?
  ) throws(CohortSelectorError) -> (baseline: Cohort, candidate: Cohort) {
    let first = try parse(name: "baseline", selector: baseline, within: base, time: time)
    let second = try parse(name: "candidate", selector: candidate, within: base, time: time)
    guard first.filter != second.filter else { throw .sameSessions }
    return (first, second)
  }

  /// A selector may repeat a common filter's value, not contradict it.
  private static func narrow(
    _ common: String?, to value: String, key: CohortKey, option: String, cohort: String
  ) throws(CohortSelectorError) -> String {
    if let common, common != value {
      throw .contradictsFilter(cohort: cohort, key: key.rawValue, value: value, filter: "\(option) \(common)")
    }
    return value
  }

  private static func trimmed(_ text: Substring) -> String {
    String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
  }
}
