/// How an ingest run ended, as `ingest_runs.status` records it. A run killed outright stays
/// `running`: its committed batches are kept and a re-run completes the work.
public enum RunStatus: String, Sendable {
  case running
  case completed
  /// Stopped on request (SIGINT) after a committed batch.
  case interrupted
  case failed
}
