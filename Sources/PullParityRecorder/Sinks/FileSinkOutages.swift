/// Which of the file sink's steps are failing, so that each outage is reported once (see
/// ``FileSinkError``) however many lines it costs.
struct FileSinkOutages {
  /// The first failure of each step that has not succeeded since.
  private var failing: [FileSinkError.Operation: FileSinkError] = [:]
  private var linesLost = 0

  /// The report to send for `error`: itself when it starts an outage of its step, else none.
  mutating func failed(_ error: FileSinkError) -> FileSinkError? {
    if error.operation == .write { linesLost += 1 }
    guard failing[error.operation] == nil else { return nil }
    failing[error.operation] = error
    return error
  }

  /// The report to send now that `operation` succeeded: for a write that ends an outage, its
  /// first failure with the lines it lost.
  mutating func succeeded(_ operation: FileSinkError.Operation) -> FileSinkError? {
    guard !failing.isEmpty, let first = failing.removeValue(forKey: operation), operation == .write else { return nil }
    var ended = first
    ended.linesLost = linesLost
    linesLost = 0
    return ended
  }
}
