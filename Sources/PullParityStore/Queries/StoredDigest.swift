package import PullParityCore

/// The encoded digest of one cell's sessions of one UTC day, as `session_digests` holds it.
package struct StoredDigest: Sendable {
  package var day: Int64
  package var cell: SessionCell
  package var sessions: Int
  /// Of `sessions`, by outcome: what `ingest` prints of the whole file, read from here.
  package var outcomes: [SessionOutcome: Int]
  /// What the bytes were encoded and counted with: digests of another version are not read.
  package var version: Int
  package var bytes: [UInt8]

  package init(
    day: Int64, cell: SessionCell, sessions: Int, outcomes: [SessionOutcome: Int], version: Int, bytes: [UInt8]
  ) {
    self.day = day
    self.cell = cell
    self.sessions = sessions
    self.outcomes = outcomes
    self.version = version
    self.bytes = bytes
  }

  /// Milliseconds in a UTC day: a session's day is `CAST(started_at_ms / 86400000 AS INTEGER)`,
  /// as schema 6's triggers compute it.
  package static let dayMs = 86_400_000.0

  /// The days `filter` selects, when it selects whole days (no time range, or one from and to
  /// midnight UTC, which is what dates on the command line give): the lower bound inclusive,
  /// the upper exclusive, nil for none. Nil when the range cuts a day.
  package static func days(of filter: SessionFilter) -> (from: Int64?, until: Int64?)? {
    func day(_ ms: Double?) -> Int64?? {
      guard let ms else { return .some(nil) }
      let day = (ms / dayMs).rounded(.down)
      return day * dayMs == ms ? .some(Int64(day)) : nil
    }
    guard let from = day(filter.sinceMs), let until = day(filter.untilMs) else { return nil }
    return (from, until)
  }

  /// The sessions that started on `day`, with the rest of `filter`.
  package static func filter(_ filter: SessionFilter, day: Int64) -> SessionFilter {
    var filter = filter
    filter.digestDay = day
    return filter
  }
}
