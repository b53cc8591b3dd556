package import PullParityReport

/// What a replay rebuilt and what came out differently.
package struct ReplaySummary: Sendable {
  package var sessions: Int
  package var events: Int
  /// Sessions whose outcome or set of violation kinds differ from before, by id.
  package var changed: [String]
  package var added: Int
  package var removed: Int
  package var durationSeconds: Double
  /// Sessions `retain` took raw events of: kept as stored, not derived again.
  package var keptWithoutRaw: Int = 0
  /// Sessions whose events `load --leave-events` left in run directories, kept as loaded
  /// (a replay without `--read-events`), and those directories.
  package var keptLeftInRuns: Int = 0
  package var leftDirectories: [String] = []
  /// The report digests brought up to date after the replay.
  package var digests: DigestRefresh.Outcome?
}
