package import PullParityReport
package import PullParityStore

/// What an ingest run did.
package struct IngestSummary: Sendable {
  package var runID: Int64
  package var sources: [String]
  package var counts: RunCounts
  package var status: RunStatus
  package var durationSeconds: Double
  /// Where reading stopped when the run was interrupted: "file:line".
  package var stoppedAt: String?
  package var stageTimes: IngestStageTimes
  /// Inputs that could not be read to their end (truncated or damaged gzip, UTF-16); the others were
  /// ingested. The command exits 2 when there is any.
  package var inputErrors: [IngestError] = []
  /// The report digests brought up to date after the run (not after an interrupted one: it
  /// should stop now, and the next run does it).
  package var digests: DigestRefresh.Outcome?
}
