/// Why an ``HTTPEventSink`` could not deliver, handed to its `onError` (never thrown into the
/// app). Every failed POST is reported and retried with the same lines; an overflow once per
/// outage.
public enum HTTPSinkError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The collector answered with a status other than 2xx (503 while it drains, 401 without the
  /// token, 413 for a body over its maximum).
  case status(Int, url: String)
  /// No answer: the connection failed or `requestTimeout` passed. `reason` is the system's.
  case transport(reason: String, url: String)
  /// The queue held `maxQueueLines` lines and dropped the oldest `dropped` of them to take more.
  case queueFull(maxQueueLines: Int, dropped: Int)

  public var description: String {
    switch self {
    case .status(let status, let url): "PullParity sink: HTTP \(status) from \(url)"
    case .transport(let reason, let url): "PullParity sink: no answer from \(url): \(reason)"
    case .queueFull(let maxQueueLines, let dropped):
      "PullParity sink: the queue holds at most \(maxQueueLines) lines; dropped the oldest \(dropped)"
    }
  }
}
