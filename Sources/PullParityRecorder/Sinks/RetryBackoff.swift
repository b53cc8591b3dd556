/// The wait before an HTTP sink's next attempt after a failure: `first`, doubled after each
/// failure up to `maximum`, back to `first` after a success. A collector that is down is then
/// asked less and less often, and a recovered one hears from every device again within `maximum`.
struct RetryBackoff: Equatable {
  let first: Duration
  let maximum: Duration
  private(set) var next: Duration

  init(first: Duration, maximum: Duration) {
    self.first = first
    self.maximum = max(first, maximum)
    next = first
  }

  /// The delay before the retry that follows a failure; the one after it doubles.
  mutating func failed() -> Duration {
    defer { next = min(next * 2, maximum) }
    return next
  }

  mutating func succeeded() {
    next = first
  }
}
