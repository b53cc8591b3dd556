/// The lines an ``HTTPEventSink`` holds until a collector acknowledges them, and the rules that
/// decide what the next POST carries. No I/O and no timers, so every rule is tested without a
/// network; the sink owns the clock and the requests.
///
/// The rules are the web sink's (`HttpEventSink` in `clients/web`), so both platforms deliver
/// alike: at most `maxBatchLines` lines and `maxBatchBytes` bytes of body per POST, a first line
/// longer than that alone, the oldest lines dropped once the queue is full, and a line leaves
/// the queue only when the POST carrying it is acknowledged.
struct DeliveryQueue: Equatable {
  struct Limits: Equatable {
    var maxBatchLines: Int
    var maxBatchBytes: Int
    var maxQueueLines: Int
  }

  let limits: Limits
  /// Lines not yet acknowledged, oldest first.
  private(set) var lines: [String] = []
  /// How many of `lines`' first lines the POST out carries (0: none out).
  private(set) var inFlight = 0
  /// Lines dropped from the front because the queue was full, since the sink was made.
  private(set) var dropped = 0
  /// Whether this outage's overflow was reported: the app hears of it once, not once per line.
  private var overflowReported = false

  init(limits: Limits) {
    self.limits = limits
  }

  /// Lines no POST carries yet.
  var waiting: Int { lines.count - inFlight }

  /// Queues `line`; returns how many lines the queue then dropped, when the app must hear of it.
  mutating func append(_ line: String) -> Int? {
    lines.append(line)
    let excess = lines.count - limits.maxQueueLines
    guard excess > 0 else { return nil }
    lines.removeFirst(excess)
    dropped += excess
    inFlight = max(0, inFlight - excess)
    defer { overflowReported = true }
    return overflowReported ? nil : excess
  }

  /// The next POST's lines (marked in flight), or `nil` when one is out or nothing waits.
  mutating func takeBatch() -> [String]? {
    guard inFlight == 0, !lines.isEmpty else { return nil }
    var bytes = 0
    var count = 0
    for line in lines.prefix(limits.maxBatchLines) {
      let size = line.utf8.count + 1
      if size > limits.maxBatchBytes {
        // A line over the budget goes alone: held back, it would stop the queue for good.
        if count == 0 { count = 1 }
        break
      }
      if bytes + size > limits.maxBatchBytes { break }
      bytes += size
      count += 1
    }
    inFlight = count
    return Array(lines.prefix(count))
  }

  /// The POST out was acknowledged (a 2xx): its lines leave the queue.
  mutating func acknowledged() {
    lines.removeFirst(inFlight)
    inFlight = 0
    overflowReported = false
  }

  /// The POST out failed: its lines stay, first in line for the next POST.
  mutating func failed() {
    inFlight = 0
  }
}
