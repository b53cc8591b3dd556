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

  /// The sessions that started on `day`, with the rest of `filter`.
  package static func filter(_ filter: SessionFilter, day: Int64) -> SessionFilter {
    var filter = filter
    filter.digestDay = day
    return filter
  }
}
