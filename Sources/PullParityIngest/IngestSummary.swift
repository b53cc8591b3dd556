public import PullParityStore

/// What an ingest run did.
public struct IngestSummary: Sendable {
  public var runID: Int64
  public var sources: [String]
  public var counts: RunCounts
  public var status: RunStatus
  public var durationSeconds: Double
  /// Where reading stopped when the run was interrupted: "file:line".
  public var stoppedAt: String?
  public var stageTimes: IngestStageTimes
  /// Inputs that could not be read to their end (truncated gzip, UTF-16); the others were
  /// ingested. The command exits 2 when there is any.
  public var inputErrors: [IngestError] = []
}
