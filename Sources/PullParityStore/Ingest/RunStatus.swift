/// How an ingest run ended, as `ingest_runs.status` records it.
package enum RunStatus: String, CaseIterable, Sendable {
  /// Still writing, or killed and not yet noticed: the next writer to open the database marks
  /// a dead run `interrupted`.
  case running
  case completed
  /// Stopped on request (SIGINT) after a committed transaction, or killed (then `recovered_at` is
  /// set). Its committed transactions are kept; running the same ingest again resumes the work.
  case interrupted
  case failed

  /// Whether a later run that reads the chunks this run committed resumes its work (counts
  /// them as resumed) rather than re-reading a finished input (counts duplicates).
  package var leftWorkUndone: Bool { self == .interrupted || self == .failed }

  /// The statuses that left work undone, as an SQL list: `'interrupted', 'failed'`.
  static var leftWorkUndoneSQL: String {
    allCases.filter(\.leftWorkUndone).map { "'\($0.rawValue)'" }.joined(separator: ", ")
  }
}
