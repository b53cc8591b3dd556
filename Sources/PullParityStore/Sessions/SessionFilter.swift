internal import GRDB

/// Which sessions a report or check looks at. `nil` fields do not filter.
package struct SessionFilter: Equatable, Sendable, Codable {
  package var app: String?
  package var platform: String?
  /// Sessions that started at or after / before these epoch milliseconds.
  package var sinceMs: Double?
  package var untilMs: Double?
  package var appVersion: String?
  package var screen: String?
  /// Sessions of this UTC day as schema 6 numbers days (`CAST(started_at_ms / 86400000 AS
  /// INTEGER)`, what its triggers mark stale): the digests' own partition, never printed.
  package var digestDay: Int64?
  /// Sessions stored after this `session_ref`: those a day's digests have not counted yet
  /// (`DigestWriter`), never printed.
  package var afterSessionRef: Int64?

  package init(
    app: String? = nil, platform: String? = nil, sinceMs: Double? = nil, untilMs: Double? = nil,
    appVersion: String? = nil, screen: String? = nil
  ) {
    self.app = app
    self.platform = platform
    self.sinceMs = sinceMs
    self.untilMs = untilMs
    self.appVersion = appVersion
    self.screen = screen
  }

  /// snake_case, as every key of the JSON outputs.
  enum CodingKeys: String, CodingKey {
    case app, platform, screen
    case sinceMs = "since_ms"
    case untilMs = "until_ms"
    case appVersion = "app_version"
  }

  /// No field filters.
  package var isEmpty: Bool { self == SessionFilter() }

  /// The WHERE clause over `sessions` (aliased `s`) and the values of its parameters, in
  /// order, for a `RawStatement`: GRDB would bind a value up to its first NUL.
  func sqlValues() -> (clause: String, values: [DatabaseValue]) {
    var conditions: [String] = []
    var arguments: [DatabaseValue] = []
    func add(_ condition: String, _ value: (any DatabaseValueConvertible)?) {
      guard let value else { return }
      conditions.append(condition)
      arguments.append(value.databaseValue)
    }
    add("s.app = ?", app)
    add("s.platform = ?", platform)
    add("s.app_version = ?", appVersion)
    add("s.screen = ?", screen)
    add("s.started_at_ms >= ?", sinceMs)
    add("s.started_at_ms < ?", untilMs)
    if let digestDay {
      // The range (a millisecond wider on each side than the day) lets the index find the
      // sessions; the day itself is computed as the triggers compute it, so that a start a
      // rounding away from midnight falls on the day they marked. After a ref, `+` keeps
      // SQLite off that index: the sessions after it (a run's) are found by their refs, where
      // the index visited every session of the day (164,000 of a history to count 27,000:
      // counting them and reading their violations' kinds took 81 ms, now 28).
      let start = Double(digestDay) * StoredDigest.dayMs
      let time = afterSessionRef == nil ? "s.started_at_ms" : "+s.started_at_ms"
      add("\(time) >= ?", start - 1)
      add("\(time) < ?", start + StoredDigest.dayMs + 1)
      add("CAST(s.started_at_ms / 86400000 AS INTEGER) = ?", digestDay)
    }
    add("s.session_ref > ?", afterSessionRef)
    return (conditions.isEmpty ? "1" : conditions.joined(separator: " AND "), arguments)
  }
}
